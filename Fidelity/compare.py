#!/usr/bin/env python3
"""Compare `rowkit measure` against headless Chromium on the fidelity grid.

  python3 Fidelity/compare.py --small            # CI: a few hundred cases
  python3 Fidelity/compare.py                    # full grid: a few thousand
  python3 Fidelity/compare.py --report out.md    # also write a markdown report

A case agrees when rowkit's lineCount AND height equal Chromium's
(height = lineCount x lineHeight). maxLineWidth is compared with a tolerance
but is informational only (unless --gate-max-line-width).

Exit status: 0 = thresholds met, 1 = agreement below a threshold,
2 = harness error (rowkit missing / crashed / malformed output, chromium
failure).
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from collections import OrderedDict, defaultdict

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


def _wkey(w):
    return round(float(w), 3)


def _invoke(rowkit, args, lines, timeout):
    stdin = "".join(l + "\n" for l in lines).encode("utf-8")
    cmd = [rowkit, "measure"] + args + ["--input", "-"]
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise HarnessError(f"rowkit timed out after {timeout}s: {' '.join(cmd)}")
    if p.returncode != 0:
        raise HarnessError(f"rowkit exited {p.returncode}: {' '.join(cmd)}\n"
                           f"stderr: {p.stderr.decode('utf-8', 'replace')[-2000:]}")
    out = []
    for n, line in enumerate(p.stdout.decode("utf-8", "replace").splitlines()):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            int(obj["index"]), float(obj["width"]), int(obj["lineCount"]), float(obj["height"])
        except (ValueError, KeyError, TypeError) as e:
            raise HarnessError(f"malformed rowkit output line {n + 1}: {line[:200]!r} ({e})")
        out.append(obj)
    return out, cmd


def _weight_arg(w):
    return {"regular": "regular", "bold": "bold"}.get(str(w), str(w))


def run_rowkit_overrides(rowkit, cases, timeout):
    """One invocation per weight; every line is an object overriding font/size/lineHeight/width."""
    results = {}
    by_weight = OrderedDict()
    for c in cases:
        by_weight.setdefault(c["weight"], []).append(c)
    for weight, group in by_weight.items():
        lines = [json.dumps({"text": c["text"], "font": c["font"], "size": c["size"],
                             "lineHeight": c["lineHeight"], "width": c["width"]}, ensure_ascii=False)
                 for c in group]
        out, cmd = _invoke(rowkit, ["--weight", _weight_arg(weight), "--white-space", "normal"], lines, timeout)
        got = {}
        for o in out:
            got[int(o["index"])] = o
        for i, c in enumerate(group):
            o = got.get(i)
            if o is None:
                results[c["id"]] = {"error": f"no output for index {i}"}
            elif _wkey(o["width"]) != _wkey(c["width"]):
                results[c["id"]] = {"error": f"output width {o['width']} != requested {c['width']}"}
            else:
                results[c["id"]] = o
        if len(out) != len(group):
            print(f"warning: rowkit produced {len(out)} lines for {len(group)} inputs ({' '.join(cmd)})",
                  file=sys.stderr)
    return results


def run_rowkit_grouped(rowkit, cases, timeout):
    """One invocation per (weight, font, size, lineHeight); texts as JSON strings; all widths via --width."""
    results = {}
    groups = OrderedDict()
    for c in cases:
        groups.setdefault((c["weight"], c["font"], c["size"], c["lineHeight"]), []).append(c)
    for (weight, font, size, lh), group in groups.items():
        texts = OrderedDict()
        for c in group:
            texts.setdefault(c["text"], len(texts))
        widths = sorted({c["width"] for c in group})
        args = ["--font", font, "--weight", _weight_arg(weight), "--size", str(size),
                "--line-height", str(lh), "--width", ",".join(str(w) for w in widths),
                "--white-space", "normal"]
        out, _ = _invoke(rowkit, args, [json.dumps(t, ensure_ascii=False) for t in texts], timeout)
        got = {(int(o["index"]), _wkey(o["width"])): o for o in out}
        for c in group:
            o = got.get((texts[c["text"]], _wkey(c["width"])))
            results[c["id"]] = o if o is not None else {"error": "no output for this text/width"}
    return results


# ---------------------------------------------------------------------------
# comparison
# ---------------------------------------------------------------------------

def excerpt(text, n=60):
    r = json.dumps(text, ensure_ascii=False)[1:-1]  # escapes control chars, keeps scripts readable
    for ch, esc in (("\u00a0", "\\u00a0"), ("\u00ad", "\\u00ad"), ("\u200b", "\\u200b"),
                    ("\u200d", "\\u200d"), ("\u2060", "\\u2060"), ("\u202f", "\\u202f"),
                    ("\u3000", "\\u3000"), ("\u2009", "\\u2009"), ("\u2003", "\\u2003"),
                    ("\u2002", "\\u2002"), ("\ufe0f", "\\ufe0f")):
        r = r.replace(ch, esc)
    return r if len(r) <= n else r[:n - 1] + "\u2026"


def compare(cases, chrome, rowk, width_tol):
    rows = []
    for c in cases:
        ch = chrome[c["key"]]
        rk = rowk.get(c["id"], {"error": "missing"})
        row = {"case": c, "chromium": ch, "rowkit": rk}
        if "error" in rk:
            row.update(lines_ok=False, height_ok=False, width_ok=False, error=rk["error"])
        else:
            row["lines_ok"] = int(rk["lineCount"]) == ch["lineCount"]
            row["height_ok"] = abs(float(rk["height"]) - ch["height"]) < 0.01
            mlw = rk.get("maxLineWidth")
            row["width_ok"] = (mlw is not None and abs(float(mlw) - ch["maxLineWidth"]) <= width_tol)
            row["error"] = None
        rows.append(row)
    return rows


def pct(a, b):
    return 100.0 * a / b if b else 100.0


def summarize(rows, key_fn):
    agg = OrderedDict()
    for r in rows:
        k = key_fn(r)
        a = agg.setdefault(k, {"n": 0, "lines": 0, "height": 0, "both": 0, "width": 0})
        a["n"] += 1
        a["lines"] += r["lines_ok"]
        a["height"] += r["height_ok"]
        a["both"] += r["lines_ok"] and r["height_ok"]
        a["width"] += r["width_ok"]
    return agg


def format_mismatch(r):
    c, ch, rk = r["case"], r["chromium"], r["rowkit"]
    w = "" if c["weight"] == "regular" else f" {c['weight']}"
    head = (f"{c['id']}  [{c['category']}]  {c['font']}{w} {c['size']}px/{c['lineHeight']}px  "
            f"width={c['width']}")
    if r["error"]:
        detail = f"rowkit ERROR: {r['error']}  (chromium lines={ch['lineCount']})"
    else:
        detail = (f"chromium lines={ch['lineCount']} height={ch['height']:g}  vs  "
                  f"rowkit lines={rk['lineCount']} height={float(rk['height']):g}"
                  f"  | maxLineWidth chromium={ch['maxLineWidth']:.2f} rowkit={rk.get('maxLineWidth', '-')}")
    return f"  {head}\n      {detail}\n      text: \"{excerpt(c['text'], 100)}\""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", action="store_true", help="CI-sized grid")
    ap.add_argument("--set", choices=["short", "long", "all"], default="all")
    ap.add_argument("--category", action="append", default=None,
                    help="only these categories (repeatable; substring match)")
    ap.add_argument("--rowkit", default=None, help="rowkit binary (default: $ROWKIT, .build/release/rowkit, .build/debug/rowkit)")
    ap.add_argument("--mode", choices=["overrides", "grouped"], default="overrides",
                    help="overrides: one rowkit call per weight using per-line JSON overrides (default); "
                         "grouped: one call per font/size/lineHeight with --width lists and plain strings")
    ap.add_argument("--short-threshold", type=float, default=100.0, help="min %% agreement for short set (default 100)")
    ap.add_argument("--long-threshold", type=float, default=99.0, help="min %% agreement for long set (default 99)")
    ap.add_argument("--width-tolerance", type=float, default=0.5,
                    help="maxLineWidth tolerance in px (informational; default 0.5)")
    ap.add_argument("--gate-max-line-width", action="store_true",
                    help="also require maxLineWidth within tolerance for agreement thresholds")
    ap.add_argument("--report", default=None, help="write a markdown report to FILE")
    ap.add_argument("--dump", default=None, help="write per-case JSON Lines (case, chromium, rowkit) to FILE")
    ap.add_argument("--max-list", type=int, default=0, help="list at most N mismatches on stdout (0 = all)")
    ap.add_argument("--chromium", default=None)
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--cache-dir", default=chromium_mod.DEFAULT_CACHE_DIR)
    ap.add_argument("--jobs", type=int, default=None, help="parallel chromium processes")
    ap.add_argument("--timeout", type=int, default=900, help="per-process timeout (s)")
    args = ap.parse_args()

    sets = ("short", "long") if args.set == "all" else (args.set,)
    cases = casegen.generate(small=args.small, sets=sets)
    if args.category:
        cases = [c for c in cases if any(s in c["category"] for s in args.category)]
    if not cases:
        print("no cases selected", file=sys.stderr)
        return 2

    try:
        rowkit = find_rowkit(args.rowkit)
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    t0 = time.time()
    try:
        chrome = chromium_mod.measure(cases, chromium=args.chromium,
                                      cache_dir=None if args.no_cache else args.cache_dir,
                                      jobs=args.jobs, timeout=args.timeout)
    except Exception as e:  # noqa: BLE001
        print(f"error: chromium measurement failed: {e}", file=sys.stderr)
        return 2
    t1 = time.time()
    try:
        runner = run_rowkit_overrides if args.mode == "overrides" else run_rowkit_grouped
        rowk = runner(rowkit, cases, args.timeout)
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        if args.mode == "overrides":
            print("hint: try --mode grouped (uses only CLI flags and plain JSON string lines)", file=sys.stderr)
        return 2
    t2 = time.time()

    rows = compare(cases, chrome, rowk, args.width_tolerance)

    def agrees(r):
        return r["lines_ok"] and r["height_ok"] and (r["width_ok"] or not args.gate_max_line_width)

    by_set = summarize(rows, lambda r: r["case"]["set"])
    by_cat = summarize(rows, lambda r: (r["case"]["set"], r["case"]["category"]))
    by_font = summarize(rows, lambda r: r["case"]["font"] + ("" if r["case"]["weight"] == "regular" else " " + r["case"]["weight"]))
    mismatches = [r for r in rows if not agrees(r)]
    errors = [r for r in rows if r["error"]]

    # ---- stdout ----
    print(f"rowkit: {rowkit}  (mode {args.mode})")
    print(f"cases: {len(cases)} ({'small' if args.small else 'full'} grid); "
          f"chromium {t1 - t0:.1f}s, rowkit {t2 - t1:.1f}s")
    print()
    print("Per category (identical line counts / identical heights / maxLineWidth within "
          f"{args.width_tolerance}px):")
    for (s, cat), a in by_cat.items():
        print(f"  {s:5} {cat:16} {a['lines']:5}/{a['n']:<5} {pct(a['lines'], a['n']):7.2f}%   "
              f"heights {a['height']}/{a['n']}   maxLineWidth {a['width']}/{a['n']}")
    print()
    print("Per font:")
    for f, a in by_font.items():
        print(f"  {f:24} {a['lines']:5}/{a['n']:<5} {pct(a['lines'], a['n']):7.2f}%")
    print()
    if mismatches:
        print(f"Mismatches ({len(mismatches)}):")
        shown = mismatches if not args.max_list else mismatches[:args.max_list]
        for r in shown:
            print(format_mismatch(r))
        if len(shown) < len(mismatches):
            print(f"  ... {len(mismatches) - len(shown)} more (use --max-list 0 or --report)")
        print()

    thresholds = {"short": args.short_threshold, "long": args.long_threshold}
    failed = False
    summary_lines = []
    for s, a in by_set.items():
        n_agree = sum(1 for r in rows if r["case"]["set"] == s and agrees(r))
        p = pct(n_agree, a["n"])
        ok = p + 1e-9 >= thresholds[s]
        failed |= not ok
        line = (f"{s}: {a['lines']}/{a['n']} identical line counts ({pct(a['lines'], a['n']):.2f}%), "
                f"{a['height']}/{a['n']} identical heights, agreement {p:.2f}% "
                f"(threshold {thresholds[s]:g}%) {'PASS' if ok else 'FAIL'}"
                f"  [maxLineWidth within {args.width_tolerance}px: {a['width']}/{a['n']}]")
        summary_lines.append(line)
        print(line)
    if errors:
        print(f"{len(errors)} case(s) had rowkit errors")

    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps({"case": {k: v for k, v in r["case"].items() if k != "key"},
                                    "chromium": r["chromium"], "rowkit": r["rowkit"],
                                    "agree": agrees(r)}, ensure_ascii=False) + "\n")
    if args.report:
        write_report(args, rowkit, cases, by_set, by_cat, by_font, mismatches, summary_lines,
                     chromium_mod.chromium_version(chromium_mod.find_chromium(args.chromium)))
        print(f"report written to {args.report}")
    return 1 if failed else 0


def md_escape(s):
    return s.replace("|", "\\|").replace("`", "\\`").replace("<", "&lt;").replace(">", "&gt;")


def write_report(args, rowkit, cases, by_set, by_cat, by_font, mismatches, summary_lines, chrome_ver):
    L = []
    L.append("# RowKit browser-fidelity report\n")
    L.append(f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}")
    L.append(f"- chromium: {chrome_ver}")
    L.append(f"- rowkit: `{rowkit}` (mode `{args.mode}`)")
    L.append(f"- grid: {'small' if args.small else 'full'}, {len(cases)} cases, generator seed "
             f"{casegen.SEED} v{casegen.GENERATOR_VERSION}")
    L.append(f"- thresholds: short {args.short_threshold:g}%, long {args.long_threshold:g}%; "
             f"maxLineWidth tolerance {args.width_tolerance}px "
             f"({'gating' if args.gate_max_line_width else 'informational'})\n")
    L.append("## Summary\n")
    for s in summary_lines:
        L.append(f"- {s}")
    L.append("\n## Per category\n")
    L.append("| set | category | cases | identical line counts | % | identical heights | maxLineWidth ok |")
    L.append("|---|---|---:|---:|---:|---:|---:|")
    for (s, cat), a in by_cat.items():
        L.append(f"| {s} | {cat} | {a['n']} | {a['lines']} | {pct(a['lines'], a['n']):.2f} | {a['height']} | {a['width']} |")
    L.append("\n## Per font\n")
    L.append("| font | cases | identical line counts | % |")
    L.append("|---|---:|---:|---:|")
    for f, a in by_font.items():
        L.append(f"| {f} | {a['n']} | {a['lines']} | {pct(a['lines'], a['n']):.2f} |")
    L.append(f"\n## Mismatches ({len(mismatches)})\n")
    if mismatches:
        L.append("| case | category | font | size/LH | width | chromium lines | rowkit lines | chromium maxW | rowkit maxW | text |")
        L.append("|---|---|---|---|---:|---:|---:|---:|---:|---|")
        for r in mismatches:
            c, ch, rk = r["case"], r["chromium"], r["rowkit"]
            font = c["font"] + ("" if c["weight"] == "regular" else f" {c['weight']}")
            rl = f"ERROR: {md_escape(r['error'])}" if r["error"] else str(rk["lineCount"])
            rw = "" if r["error"] or rk.get("maxLineWidth") is None else f"{float(rk['maxLineWidth']):.2f}"
            L.append(f"| `{c['id']}` | {c['category']} | {font} | {c['size']}/{c['lineHeight']} | {c['width']} | "
                     f"{ch['lineCount']} | {rl} | {ch['maxLineWidth']:.2f} | {rw} | "
                     f"{md_escape(excerpt(c['text'], 80))} |")
    else:
        L.append("None.")
    with open(args.report, "w", encoding="utf-8") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    sys.exit(main())
