#!/usr/bin/env python3
"""Compare `rowkit measure` with headless Chromium: line counts, heights and line texts.

  python3 Fidelity/compare.py --small                 # CI: small fixed grid + a fresh random sample
  python3 Fidelity/compare.py                         # full fixed grid + a fresh random sample
  python3 Fidelity/compare.py --seed 1234             # reproduce a random sample
  python3 Fidelity/compare.py --report Fidelity/report.md --json Fidelity/report.json

A case agrees when rowkit and Chromium give the same number of lines, the same
height, and the same text on every line (the break positions; white space and
invisible characters, whose line is not well defined, are left out of the
comparison). maxLineWidth is compared with a tolerance, for information only.

Exit status: 0 = thresholds met, 1 = agreement below a threshold, 2 = harness
error (rowkit missing / crashed / malformed output, chromium failure).
"""

import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import time
import unicodedata
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import cases as casegen  # noqa: E402
import chromium as chromium_mod  # noqa: E402


class HarnessError(Exception):
    pass


# ---------------------------------------------------------------------------
# rowkit side
# ---------------------------------------------------------------------------

def find_rowkit(explicit):
    cands = [explicit, os.environ.get("ROWKIT"),
             os.path.join(REPO, ".build", "release", "rowkit"),
             os.path.join(REPO, ".build", "debug", "rowkit")]
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    if explicit or os.environ.get("ROWKIT"):
        raise HarnessError(f"rowkit binary not found/executable: {explicit or os.environ.get('ROWKIT')}")
    raise HarnessError("rowkit binary not found (looked in .build/release and .build/debug; "
                       "build it with `swift build -c release` or pass --rowkit PATH / ROWKIT=PATH)")


def _invoke(rowkit, args, lines, timeout):
    stdin = "".join(line + "\n" for line in lines).encode("utf-8")
    cmd = [rowkit, "measure"] + args + ["--lines", "--input", "-"]
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise HarnessError(f"rowkit timed out after {timeout}s: {' '.join(cmd)}")
    out = {}
    for n, line in enumerate(p.stdout.decode("utf-8", "replace").split("\n")):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            int(obj["index"]), float(obj["width"]), int(obj["lineCount"]), float(obj["height"])
        except (ValueError, KeyError, TypeError) as e:
            raise HarnessError(f"malformed rowkit output line {n + 1}: {line[:200]!r} ({e})")
        out[int(obj["index"])] = obj
    errors = {}
    for line in p.stderr.decode("utf-8", "replace").split("\n"):
        # "rowkit measure: stdin:N: message" names the failing input line
        parts = line.split(":", 3)
        if len(parts) == 4 and parts[2].strip().isdigit():
            errors[int(parts[2]) - 1] = parts[3].strip()
    if p.returncode not in (0, 1) or (p.returncode == 1 and not errors):
        raise HarnessError(f"rowkit exited {p.returncode}: {' '.join(cmd)}\n"
                           f"stderr: {p.stderr.decode('utf-8', 'replace')[-2000:]}")
    return out, errors


def _collect(group, out, errors, results):
    for i, c in enumerate(group):
        if i in errors:
            results[c["id"]] = {"error": errors[i]}
        elif i not in out:
            results[c["id"]] = {"error": f"no output for input line {i + 1}"}
        else:
            results[c["id"]] = out[i]


def run_rowkit_keys(rowkit, cases, timeout):
    """One invocation: every input line an object with the case's full style."""
    lines = []
    for c in cases:
        obj = {"text": c["text"], "font": c["font"], "weight": c["weight"],
               "italic": {"normal": False, "italic": True, "oblique": "oblique"}[c["style"]],
               "size": c["size"], "lineHeight": c["lineHeight"], "width": c["width"],
               "whiteSpace": c["whiteSpace"], "direction": c["direction"]}
        if c["lang"]:
            obj["lang"] = c["lang"]
        lines.append(json.dumps(obj, ensure_ascii=False))
    results = {}
    out, errors = _invoke(rowkit, [], lines, timeout)
    _collect(cases, out, errors, results)
    return results


def run_rowkit_legacy(rowkit, cases, timeout):
    """What a user could pass before the style keys existed (the baseline): --weight and
    --white-space per group, per-line text/font/size/lineHeight/width; italic, direction, lang
    and `line-height: normal` cannot be expressed (normal falls back to the default)."""
    results = {}
    groups = OrderedDict()
    for c in cases:
        weight = "bold" if c["weight"] >= 600 else "regular"
        groups.setdefault((weight, c["whiteSpace"]), []).append(c)
    for (weight, ws), group in groups.items():
        lines = []
        for c in group:
            obj = {"text": c["text"], "font": c["font"].strip('"'), "size": c["size"], "width": c["width"]}
            if c["lineHeight"] != "normal":
                obj["lineHeight"] = c["lineHeight"]
            lines.append(json.dumps(obj, ensure_ascii=False))
        out, errors = _invoke(rowkit, ["--weight", weight, "--white-space", ws], lines, timeout)
        _collect(group, out, errors, results)
    return results


# ---------------------------------------------------------------------------
# comparison
# ---------------------------------------------------------------------------

def ignored(ch):
    """Left out of line texts on both sides: white space, controls and invisible format
    characters (a zero-width character at a break has no well-defined line)."""
    cp = ord(ch)
    return cp <= 0x20 or 0x7F <= cp <= 0x9F or unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp")


def line_texts(texts):
    return ["".join(ch for ch in t if not ignored(ch)) for t in texts]


def excerpt(text, n=60):
    r = json.dumps(text, ensure_ascii=False)[1:-1]
    out = []
    for ch in r:
        cat = unicodedata.category(ch)
        out.append(f"\\u{ord(ch):04x}" if cat in ("Cf", "Zs", "Zl", "Zp", "Mn") and ch != " " else ch)
    r = "".join(out)
    return r if len(r) <= n else r[:n - 1] + "\u2026"


def compare(cases, chrome, rowk, width_tol):
    rows = []
    for c in cases:
        ch = chrome[c["key"]]
        rk = rowk.get(c["id"], {"error": "missing"})
        row = {"case": c, "chromium": ch, "rowkit": rk}
        if "error" in rk:
            row.update(lines_ok=False, height_ok=False, breaks_ok=False, width_ok=False, error=rk["error"])
        else:
            row["lines_ok"] = int(rk["lineCount"]) == ch["lineCount"]
            row["height_ok"] = abs(float(rk["height"]) - ch["height"]) < 0.01
            rk_lines = line_texts([x["text"] for x in rk.get("lines", [])])
            ch_lines = line_texts(ch["lines"])
            row["breaks_ok"] = rk_lines == ch_lines
            mlw = rk.get("maxLineWidth")
            row["width_ok"] = mlw is not None and abs(float(mlw) - ch["maxLineWidth"]) <= width_tol
            row["error"] = None
        row["agree"] = row["lines_ok"] and row["height_ok"] and row["breaks_ok"]
        rows.append(row)
    return rows


def pct(a, b):
    return 100.0 * a / b if b else 100.0


def summarize(rows, key_fn):
    agg = {}
    for r in rows:
        for k in key_fn(r):
            a = agg.setdefault(k, {"n": 0, "lines": 0, "height": 0, "breaks": 0, "agree": 0})
            a["n"] += 1
            a["lines"] += r["lines_ok"]
            a["height"] += r["height_ok"]
            a["breaks"] += r["breaks_ok"]
            a["agree"] += r["agree"]
    return OrderedDict(sorted(agg.items(), key=lambda kv: str(kv[0])))


def _num_kind(v):
    return "integer" if float(v) == int(float(v)) else "fractional"


DIMENSIONS = OrderedDict([
    ("category", lambda c: [c["category"]]),
    ("font kind", lambda c: [casegen.font_kind(c["font"])]),
    ("font", lambda c: [c["font"]]),
    ("weight", lambda c: ["400" if c["weight"] == 400 else "700" if c["weight"] == 700 else
                          "bold (600+, not 700)" if c["weight"] >= 600 else "light/other"]),
    ("style", lambda c: [c["style"]]),
    ("white-space", lambda c: [c["whiteSpace"]]),
    ("direction", lambda c: [c["direction"]]),
    ("lang", lambda c: [c["lang"] or "(none)"]),
    ("line-height", lambda c: ["normal" if c["lineHeight"] == "normal" else "px " + _num_kind(c["lineHeight"])]),
    ("size", lambda c: ["10-16" if c["size"] <= 16 else "16-24" if c["size"] <= 24 else "24-40",
                        _num_kind(c["size"]) + " size"]),
    ("width", lambda c: ["narrow (<=64)" if c["width"] <= 64 else "65-600", _num_kind(c["width"]) + " width"]),
])


def format_mismatch(r):
    c, ch, rk = r["case"], r["chromium"], r["rowkit"]
    style = (f"{c['font']} {c['weight']} {c['style']} {c['size']}px/{c['lineHeight']} w={c['width']} "
             f"{c['whiteSpace']} {c['direction']}" + (f" lang={c['lang']}" if c["lang"] else ""))
    head = f"{c['id']}  [{c['category']}]  {style}"
    if r["error"]:
        detail = f"rowkit ERROR: {r['error']}  (chromium lines={ch['lineCount']})"
    else:
        detail = (f"chromium lines={ch['lineCount']} height={ch['height']:g}  vs  "
                  f"rowkit lines={rk['lineCount']} height={float(rk['height']):g}"
                  f"  | maxLineWidth chromium={ch['maxLineWidth']:.3f} rowkit={rk.get('maxLineWidth', '-')}")
        if not r["breaks_ok"]:
            a = line_texts(ch["lines"])
            b = line_texts([x["text"] for x in rk.get("lines", [])])
            k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            detail += (f"\n      first differing line {k}: chromium \"{excerpt(a[k] if k < len(a) else '', 70)}\""
                       f"\n                               rowkit   \"{excerpt(b[k] if k < len(b) else '', 70)}\"")
    return f"  {head}\n      {detail}\n      text: \"{excerpt(c['text'], 100)}\""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", action="store_true", help="CI-sized fixed grid and random sample")
    ap.add_argument("--set", choices=["short", "long", "corpus", "all"], default="all", help="fixed-grid set")
    ap.add_argument("--category", action="append", default=None,
                    help="only categories containing this text (repeatable)")
    ap.add_argument("--seed", type=int, default=None, help="random-sample seed (default: a fresh one, printed)")
    ap.add_argument("--no-random", action="store_true", help="skip the random sample")
    ap.add_argument("--no-fixed", action="store_true", help="skip the fixed grid")
    ap.add_argument("--random-size", type=int, default=None, help="cases in the random sample")
    ap.add_argument("--rowkit", default=None, help="rowkit binary (default: $ROWKIT, .build/release/rowkit, .build/debug/rowkit)")
    ap.add_argument("--mode", choices=["keys", "legacy"], default="keys",
                    help="keys: every input line carries the full style (default); legacy: only what a rowkit "
                         "without style keys understands (the baseline)")
    ap.add_argument("--threshold", type=float, default=99.9,
                    help="min %% of agreeing cases in the fixed grid (default 99.9)")
    ap.add_argument("--random-threshold", type=float, default=99.5,
                    help="min %% of agreeing cases in the random sample (default 99.5)")
    ap.add_argument("--width-tolerance", type=float, default=0.5, help="maxLineWidth tolerance in px (informational)")
    ap.add_argument("--report", default=None, help="write a markdown report to FILE")
    ap.add_argument("--json", default=None, help="write a JSON summary to FILE")
    ap.add_argument("--dump", default=None, help="write per-case JSON Lines (case, chromium, rowkit) to FILE")
    ap.add_argument("--max-list", type=int, default=30, help="list at most N mismatches on stdout (0 = all)")
    ap.add_argument("--chromium", default=None)
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--no-page-check", action="store_true",
                    help="do not measure disagreeing cases again alone (see 'page-dependent' in README)")
    ap.add_argument("--cache-dir", default=chromium_mod.DEFAULT_CACHE_DIR)
    ap.add_argument("--jobs", type=int, default=None, help="parallel chromium processes")
    ap.add_argument("--timeout", type=int, default=900, help="per-process timeout (s)")
    args = ap.parse_args()

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1 << 31)
    fixed, sample = [], []
    if not args.no_fixed:
        sets = ("short", "long", "corpus") if args.set == "all" else (args.set,)
        fixed = casegen.generate(small=args.small, sets=sets)
    if not args.no_random:
        if args.random_size is not None:
            saved = casegen.RANDOM_SAMPLE
            casegen.RANDOM_SAMPLE = (args.random_size, args.random_size)
            sample = casegen.random_sample(seed, small=args.small)
            casegen.RANDOM_SAMPLE = saved
        else:
            sample = casegen.random_sample(seed, small=args.small)
    if args.category:
        keep = lambda c: any(s in c["category"] for s in args.category)  # noqa: E731
        fixed = [c for c in fixed if keep(c)]
        sample = [c for c in sample if keep(c)]
    cases = fixed + sample
    if not cases:
        print("no cases selected", file=sys.stderr)
        return 2
    corpora = casegen.corpus_dir()
    print(f"random sample seed {seed} (reproduce with --seed {seed}); corpora: {corpora or 'NOT FOUND (corpus set skipped)'}")

    try:
        rowkit = find_rowkit(args.rowkit)
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    t0 = time.time()
    try:
        cache = None if args.no_cache else args.cache_dir
        chrome = chromium_mod.measure(fixed, chromium=args.chromium, cache_dir=cache, jobs=args.jobs,
                                      timeout=args.timeout) if fixed else {}
        if sample:  # fresh every run: not worth caching
            chrome.update(chromium_mod.measure(sample, chromium=args.chromium, cache_dir=None, jobs=args.jobs,
                                               timeout=args.timeout, batch_size=100))
    except Exception as e:  # noqa: BLE001
        print(f"error: chromium measurement failed: {e}", file=sys.stderr)
        return 2
    t1 = time.time()
    try:
        runner = run_rowkit_keys if args.mode == "keys" else run_rowkit_legacy
        rowk = runner(rowkit, cases, args.timeout)
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    t2 = time.time()

    # Cases Chromium itself cannot lay out (it hung on them alone) are left out and listed.
    unmeasured = [c for c in cases if "chromiumError" in chrome[c["key"]]]
    if unmeasured:
        skip = {c["key"] for c in unmeasured}
        cases = [c for c in cases if c["key"] not in skip]
        fixed = [c for c in fixed if c["key"] not in skip]
        sample = [c for c in sample if c["key"] not in skip]
        for c in unmeasured:
            print(f"chromium could not lay out {c['id']} (left out): {chrome[c['key']]['chromiumError']}", file=sys.stderr)
    rows = compare(cases, chrome, rowk, args.width_tolerance)
    # A case measured in a shared page that disagrees is measured again alone: when Chromium's
    # own answer changes, the text's layout depended on the other texts of the page (its
    # per-page font-fallback cache, docs/CHROMIUM.md §2.6), and the page of its own is the
    # reference (RowKit answers for a text alone). The case is flagged `pageDependent`, counted
    # and listed in the report; if RowKit differs from the alone answer too, it stays a mismatch.
    if not args.no_page_check:
        suspects = [r for r in rows if not r["agree"] and not r["error"]]
        try:
            alone = chromium_mod.measure_alone([r["case"] for r in suspects], chromium=args.chromium,
                                               cache_dir=None if args.no_cache else args.cache_dir,
                                               jobs=args.jobs, timeout=args.timeout)
        except Exception as e:  # noqa: BLE001
            print(f"error: chromium measurement (alone) failed: {e}", file=sys.stderr)
            return 2
        for r in suspects:
            a = alone[r["case"]["key"]]
            if "chromiumError" in a:
                continue
            shared = r["chromium"]
            if (a["lineCount"], a["height"], line_texts(a["lines"])) != \
                    (shared["lineCount"], shared["height"], line_texts(shared["lines"])):
                again = compare([r["case"]], {r["case"]["key"]: a}, rowk, args.width_tolerance)[0]
                again["pageDependent"] = True
                again["chromiumSharedPage"] = shared
                r.clear()
                r.update(again)
    parts = OrderedDict()
    if fixed:
        parts["fixed grid"] = [r for r in rows if r["case"]["set"] != "random"]
    if sample:
        parts["random sample"] = [r for r in rows if r["case"]["set"] == "random"]
    thresholds = {"fixed grid": args.threshold, "random sample": args.random_threshold}

    print(f"rowkit: {rowkit}  (mode {args.mode})")
    print(f"cases: {len(fixed)} fixed ({'small' if args.small else 'full'} grid) + {len(sample)} random; "
          f"chromium {t1 - t0:.1f}s, rowkit {t2 - t1:.1f}s")
    summary = OrderedDict()
    failed = False
    for name, part in parts.items():
        n = len(part)
        agree = sum(r["agree"] for r in part)
        entry = OrderedDict(cases=n, agree=agree, agreement=round(pct(agree, n), 3),
                            lineCounts=sum(r["lines_ok"] for r in part),
                            heights=sum(r["height_ok"] for r in part),
                            breaks=sum(r["breaks_ok"] for r in part),
                            pageDependent=sum(1 for r in part if r.get("pageDependent")),
                            threshold=thresholds[name])
        entry["pass"] = entry["agreement"] + 1e-9 >= thresholds[name]
        failed |= not entry["pass"]
        summary[name] = entry
    dims = OrderedDict((d, summarize(rows, lambda r, f=f: f(r["case"]))) for d, f in DIMENSIONS.items())
    sets = summarize(rows, lambda r: [r["case"]["set"]])

    print()
    for d in ("category", "font kind", "weight", "style", "white-space", "direction", "lang", "line-height", "size", "width"):
        print(f"By {d}:")
        for k, a in dims[d].items():
            print(f"  {str(k):28} {a['agree']:5}/{a['n']:<5} {pct(a['agree'], a['n']):7.2f}%   "
                  f"lines {a['lines']}  heights {a['height']}  breaks {a['breaks']}")
    mismatches = [r for r in rows if not r["agree"]]
    if mismatches:
        print(f"\nMismatches ({len(mismatches)}):")
        shown = mismatches if not args.max_list else mismatches[:args.max_list]
        for r in shown:
            print(format_mismatch(r))
        if len(shown) < len(mismatches):
            print(f"  ... {len(mismatches) - len(shown)} more (use --max-list 0 or --report)")
    print()
    for name, e in summary.items():
        print(f"{name}: {e['agree']}/{e['cases']} agree ({e['agreement']:.2f}%; line counts {e['lineCounts']}, "
              f"heights {e['heights']}, line texts {e['breaks']}; page-dependent {e['pageDependent']}) "
              f"threshold {e['threshold']:g}% {'PASS' if e['pass'] else 'FAIL'}")
    errors = [r for r in rows if r["error"]]
    if errors:
        print(f"{len(errors)} case(s) had rowkit errors")

    meta = OrderedDict(date=datetime.datetime.now().isoformat(timespec="seconds"),
                       chromium=chromium_mod.chromium_version(chromium_mod.find_chromium(args.chromium)),
                       rowkit=os.path.relpath(rowkit, REPO) if rowkit.startswith(REPO) else rowkit,
                       mode=args.mode, grid="small" if args.small else "full", fixedSeed=casegen.SEED,
                       generatorVersion=casegen.GENERATOR_VERSION, randomSeed=seed if sample else None,
                       corpora=bool(corpora), chromiumFailures=[c["id"] for c in unmeasured])
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            for r in rows:
                entry = {"case": {k: v for k, v in r["case"].items() if k != "key"},
                         "chromium": r["chromium"], "rowkit": r["rowkit"], "agree": r["agree"]}
                if r.get("pageDependent"):
                    entry["chromiumSharedPage"] = r["chromiumSharedPage"]
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")
    if args.json:
        doc = OrderedDict(meta=meta, summary=summary,
                          sets={k: v for k, v in sets.items()},
                          dimensions={d: {str(k): v for k, v in agg.items()} for d, agg in dims.items() if d != "font"},
                          fonts={str(k): v for k, v in dims["font"].items()},
                          mismatches=[r["case"]["id"] for r in mismatches],
                          pageDependent=[r["case"]["id"] for r in rows if r.get("pageDependent")],
                          chromiumFailures=[c["id"] for c in unmeasured])
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=1)
            f.write("\n")
        print(f"JSON summary written to {args.json}")
    if args.report:
        write_report(args.report, meta, summary, sets, dims, mismatches,
                     [r for r in rows if r.get("pageDependent")])
        print(f"report written to {args.report}")
    return 1 if failed else 0


def md_escape(s):
    return s.replace("|", "\\|").replace("`", "\\`").replace("<", "&lt;").replace(">", "&gt;")


def write_report(path, meta, summary, sets, dims, mismatches, page_dependent=()):
    L = ["# RowKit browser-fidelity report\n"]
    L.append("Generated by `make fidelity` (`Fidelity/compare.py`); every figure below is from that run.\n")
    for k, v in meta.items():
        L.append(f"- {k}: {v}")
    L.append("\nA case agrees when the line count, the height and the text of every line (break positions) "
             "are identical to headless Chromium's.\n")
    L.append("## Summary\n")
    L.append("| part | cases | agree | % | line counts | heights | line texts | page-dependent | threshold |")
    L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, e in summary.items():
        L.append(f"| {name} | {e['cases']} | {e['agree']} | {e['agreement']:.2f} | {e['lineCounts']} | "
                 f"{e['heights']} | {e['breaks']} | {e['pageDependent']} | "
                 f"{e['threshold']:g}% {'PASS' if e['pass'] else 'FAIL'} |")
    L.append("\n*Page-dependent*: cases whose Chromium layout in the shared measuring page differed from "
             "RowKit and changed when the text was measured again in a page of its own (Chromium's per-page "
             "font-fallback cache, docs/CHROMIUM.md §2.6); they are compared with the page of their own and "
             "listed below.\n")
    L.append("\n## By set\n")
    L.append("| set | cases | agree | % |")
    L.append("|---|---:|---:|---:|")
    for k, a in sets.items():
        L.append(f"| {k} | {a['n']} | {a['agree']} | {pct(a['agree'], a['n']):.2f} |")
    for d, agg in dims.items():
        L.append(f"\n## By {d}\n")
        L.append(f"| {d} | cases | agree | % | line counts | heights | line texts |")
        L.append("|---|---:|---:|---:|---:|---:|---:|")
        for k, a in agg.items():
            L.append(f"| {md_escape(str(k))} | {a['n']} | {a['agree']} | {pct(a['agree'], a['n']):.2f} | "
                     f"{a['lines']} | {a['height']} | {a['breaks']} |")
    L.append(f"\n## Page-dependent cases ({len(page_dependent)})\n")
    if page_dependent:
        L.append("| case | shared page: lines / height | own page: lines / height | rowkit: lines / height | agrees alone |")
        L.append("|---|---:|---:|---:|---|")
        for r in page_dependent:
            sh, ch, rk = r["chromiumSharedPage"], r["chromium"], r["rowkit"]
            L.append(f"| `{r['case']['id']}` | {sh['lineCount']} / {sh['height']:g} | {ch['lineCount']} / {ch['height']:g} | "
                     f"{rk.get('lineCount')} / {float(rk.get('height', 0)):g} | {'yes' if r['agree'] else 'no'} |")
    else:
        L.append("None.")
    L.append(f"\n## Mismatches ({len(mismatches)})\n")
    if mismatches:
        L.append("| case | style | chromium lines | rowkit lines | first differing line (chromium / rowkit) | text |")
        L.append("|---|---|---:|---:|---|---|")
        for r in mismatches[:400]:
            c, ch, rk = r["case"], r["chromium"], r["rowkit"]
            style = (f"{c['font']} {c['weight']} {c['style']} {c['size']}/{c['lineHeight']} w={c['width']} "
                     f"{c['whiteSpace']} {c['direction']}" + (f" {c['lang']}" if c["lang"] else ""))
            if r["error"]:
                rl, diff = f"ERROR: {md_escape(r['error'])}", ""
            else:
                rl = str(rk["lineCount"])
                a = line_texts(ch["lines"])
                b = line_texts([x["text"] for x in rk.get("lines", [])])
                k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
                diff = (f"{k}: {md_escape(excerpt(a[k] if k < len(a) else '', 40))} / "
                        f"{md_escape(excerpt(b[k] if k < len(b) else '', 40))}") if not r["breaks_ok"] else ""
            L.append(f"| `{c['id']}` | {md_escape(style)} | {ch['lineCount']} | {rl} | {diff} | "
                     f"{md_escape(excerpt(c['text'], 60))} |")
        if len(mismatches) > 400:
            L.append(f"\n… {len(mismatches) - 400} more.")
    else:
        L.append("None.")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    sys.exit(main())
