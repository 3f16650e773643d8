#!/usr/bin/env python3
"""Measure RowKit fidelity cases with headless Chromium.

Each case becomes one div styled exactly like its RowKit style:

    font-family: FONT; font-weight: W; font-style: S; font-size: Spx;
    line-height: LH; width: Wpx; white-space: WS; overflow-wrap: break-word
    dir="DIR" lang="LANG"

Many cases are packed into one HTML page; an inline script lays them all
out, reads getBoundingClientRect().height / offsetHeight, derives
lineCount = round(height / lineHeight) and (per line, from
Range.getClientRects of the text node) maxLineWidth, and writes the results
as JSON into <pre id="out">. The page is rendered with

    chromium --headless --no-sandbox --disable-gpu --dump-dom file:///...html

and the <pre> is parsed back out of the dumped DOM. Completeness is checked
(a sentinel and the result count must match), otherwise the batch fails.

Results are cached in Fidelity/.cache/chromium-<version>-<tag>.jsonl keyed by
the case hash (text and every style key), so reruns are fast.

Standalone use:
  python3 Fidelity/chromium.py [--small] [--set short|long|all] [--out FILE]
measures the case grid and prints one JSON object per case.
"""

import argparse
import concurrent.futures
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CACHE_DIR = os.path.join(HERE, ".cache")
# Bump when the page script / measurement semantics change (invalidates cache).
MEASURE_VERSION = 6

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--lang=en-US",
    "--no-first-run",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-sync",
    "--mute-audio",
    "--virtual-time-budget=10000",
]

PAGE_TEMPLATE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>rowkit fidelity</title>
<style>
html, body { margin: 0; padding: 0; }
/* Every case at the page origin, as a text alone in a fresh page: Chromium's layout depends on
   the fractional part of an element's position (measured: a div below others of fractional
   heights can be 1/64 px taller or shorter), so stacking cases would let the page decide. */
#cases { position: absolute; left: 0; top: 0; }
#cases > div {
  position: absolute; left: 0; top: 0;
  display: block; margin: 0; padding: 0; border: 0;
  overflow-wrap: break-word;
  letter-spacing: normal; word-spacing: normal;
  text-align: start; text-indent: 0; text-transform: none;
}
</style></head>
<body><pre id="out">PENDING</pre><div id="cases"></div>
<script id="data" type="application/json">__DATA__</script>
<script>
(function () {
  var out = document.getElementById('out');
  // Characters left out of the per-line texts: white space and controls, whose line is not
  // well defined (a collapsed or hanging space, a control Chromium does not draw).
  function ignored(cp) {
    return cp <= 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp === 0x2028 || cp === 0x2029;
  }
  try {
    var cases = JSON.parse(document.getElementById('data').textContent);
    var container = document.getElementById('cases');
    var divs = [];
    for (var i = 0; i < cases.length; i++) {
      // [key, text, font-family, weight, style, size, lineHeight, width, whiteSpace, direction, lang]
      var c = cases[i];
      var d = document.createElement('div');
      d.style.fontFamily = c[2];
      d.style.fontWeight = c[3];
      d.style.fontStyle = c[4];
      d.style.fontSize = c[5] + 'px';
      d.style.lineHeight = c[6] === 'normal' ? 'normal' : c[6] + 'px';
      d.style.width = c[7] + 'px';
      d.style.whiteSpace = c[8];
      d.dir = c[9];
      if (c[10]) d.lang = c[10];
      d.textContent = c[1];
      container.appendChild(d);
      divs.push(d);
    }
    var results = [];
    var range = document.createRange();
    for (var i = 0; i < cases.length; i++) {
      var c = cases[i], d = divs[i], text = c[1];
      var box = d.getBoundingClientRect();
      var h = box.height;
      var maxW = 0;
      var tn = d.firstChild;
      // Which line each character is on: line breaking does not depend on line-height, so lay
      // the text out again with tall, known line boxes and read each character's line from
      // the middle of its box.
      var L = Math.ceil(c[5] * 4) + 8;
      d.style.lineHeight = L + 'px';
      var box2 = d.getBoundingClientRect();
      var count = Math.round(box2.height / L);
      var lines = [];
      for (var k = 0; k < count; k++) lines.push('');
      if (tn && count > 0) {
        var widths = {};
        var last = 0;
        for (var p = 0; p < text.length; ) {
          var cp = text.codePointAt(p), n = cp > 0xFFFF ? 2 : 1;
          if (!ignored(cp)) {
            range.setStart(tn, p); range.setEnd(tn, p + n);
            // A character's own box is its last box with a width: the character after a
            // soft-hyphen break also reports the hyphen drawn at the end of the previous line,
            // first. Zero-width characters only have empty boxes; the first one counts.
            var rects = range.getClientRects(), slot = -1, empty = -1;
            for (var j = 0; j < rects.length; j++) {
              var r = rects[j];
              if (r.height <= 0) continue;
              var s = Math.floor((r.top + r.height / 2 - box2.top) / L);
              if (r.width > 0) slot = s;
              else if (empty < 0) empty = s;
            }
            if (slot < 0) slot = empty;
            if (slot < 0) slot = last;
            if (slot >= count) slot = count - 1;
            if (slot < last) slot = last;
            last = slot;
            lines[slot] += String.fromCodePoint(cp);
          }
          p += n;
        }
        range.selectNodeContents(tn);
        var all = range.getClientRects();
        for (var j = 0; j < all.length; j++) {
          var r = all[j];
          if (r.width <= 0) continue;
          var s = Math.floor((r.top + r.height / 2 - box2.top) / L);
          var w = widths[s];
          if (!w) widths[s] = [r.left, r.right];
          else { if (r.left < w[0]) w[0] = r.left; if (r.right > w[1]) w[1] = r.right; }
        }
        for (var s in widths) { var ww = widths[s][1] - widths[s][0]; if (ww > maxW) maxW = ww; }
      }
      d.style.lineHeight = c[6] === 'normal' ? 'normal' : c[6] + 'px';
      results.push({k: c[0], height: h, lineCount: count, maxLineWidth: maxW, lines: lines});
    }
    out.textContent = JSON.stringify({ok: true, count: results.length, results: results, sentinel: 'ROWKIT-FIDELITY-END'});
  } catch (e) {
    out.textContent = JSON.stringify({ok: false, error: String(e && e.stack || e)});
  }
})();
</script>
</body></html>
"""

PRE_RE = re.compile(r'<pre id="out">(.*?)</pre>', re.S)


def find_chromium(explicit=None):
    for cand in [explicit, os.environ.get("CHROMIUM"), "chromium", "chromium-browser",
                 "google-chrome", "/usr/bin/chromium"]:
        if not cand:
            continue
        p = shutil.which(cand) or (cand if os.path.exists(cand) else None)
        if p:
            return p
    raise SystemExit("chromium not found (use --chromium or CHROMIUM=...)")


def chromium_version(chromium):
    try:
        out = subprocess.run([chromium, "--version"], capture_output=True, text=True, timeout=60).stdout
    except Exception:
        out = ""
    m = re.search(r"(\d+\.\d+\.\d+\.\d+)", out)
    return m.group(1) if m else "unknown"


def chromium_env():
    """Fixed locale: Chromium's CJK fallback font choice depends on it."""
    env = dict(os.environ)
    env["LANG"] = "C.UTF-8"
    env["LC_ALL"] = "C.UTF-8"
    env.pop("LANGUAGE", None)
    return env


def _page_for(cases):
    data = [[c["key"], c["text"], c["font"], str(c["weight"]), c["style"], c["size"], c["lineHeight"], c["width"],
             c["whiteSpace"], c["direction"], c["lang"] or ""] for c in cases]
    js = json.dumps(data, ensure_ascii=True)
    # Safe inside <script>: no raw '<' (prevents '</script>' / '<!--' issues).
    js = js.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return PAGE_TEMPLATE.replace("__DATA__", js)


def _run_batch(chromium, cases, timeout, keep_dir=None):
    """Render one page; returns {key: result}. Raises on incomplete output."""
    tmp = tempfile.mkdtemp(prefix="rowkit-fidelity-")
    try:
        page = os.path.join(tmp, "page.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(_page_for(cases))
        if keep_dir:
            shutil.copy(page, os.path.join(keep_dir, f"page-{cases[0]['key'][:8]}.html"))
        profile = os.path.join(tmp, "profile")
        cmd = [chromium] + CHROMIUM_FLAGS + [f"--user-data-dir={profile}", "--dump-dom", "file://" + page]
        env = chromium_env()
        proc = subprocess.run(cmd, capture_output=True, timeout=timeout, env=env)
        dom = proc.stdout.decode("utf-8", "replace")
        m = PRE_RE.search(dom)
        if not m:
            raise RuntimeError(f"no <pre id=out> in dumped DOM (exit {proc.returncode}, "
                               f"{len(dom)} bytes); stderr tail: {proc.stderr.decode('utf-8','replace')[-800:]}")
        payload = html.unescape(m.group(1))
        if payload == "PENDING":
            raise RuntimeError("page script did not run (still PENDING)")
        data = json.loads(payload)
        if not data.get("ok"):
            raise RuntimeError("page script error: " + data.get("error", "?"))
        if data.get("sentinel") != "ROWKIT-FIDELITY-END" or data.get("count") != len(cases) \
                or len(data["results"]) != len(cases):
            raise RuntimeError(f"incomplete results: {data.get('count')} of {len(cases)}")
        res = {}
        for c, r in zip(cases, data["results"]):
            if r["k"] != c["key"]:
                raise RuntimeError("result order mismatch")
            res[c["key"]] = {
                "lineCount": r["lineCount"],
                "height": r["height"],
                "maxLineWidth": round(r["maxLineWidth"], 4),
                "lines": r["lines"],
            }
        return res
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class Cache:
    def __init__(self, cache_dir, version):
        self.path = None
        self.data = {}
        if not cache_dir:
            return
        os.makedirs(cache_dir, exist_ok=True)
        tag = hashlib.sha256(f"{version}|{MEASURE_VERSION}|{' '.join(CHROMIUM_FLAGS)}".encode()).hexdigest()[:10]
        self.path = os.path.join(cache_dir, f"chromium-{version}-{tag}.jsonl")
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                for line in f:
                    try:
                        e = json.loads(line)
                        self.data[e["key"]] = e["result"]
                    except (ValueError, KeyError):
                        pass  # tolerate a torn last line

    def get(self, key):
        return self.data.get(key)

    def put_many(self, results):
        self.data.update(results)
        if self.path:
            with open(self.path, "a", encoding="utf-8") as f:
                for k, v in results.items():
                    f.write(json.dumps({"key": k, "result": v}) + "\n")


def measure(cases, chromium=None, cache_dir=DEFAULT_CACHE_DIR, batch_size=1500, jobs=None,
            timeout=600, verbose=True, keep_pages=None):
    """Return {case key: result dict} for all cases, using the cache."""
    chromium = find_chromium(chromium)
    version = chromium_version(chromium)
    cache = Cache(cache_dir, version)
    todo, seen = [], set()
    for c in cases:
        if cache.get(c["key"]) is None and c["key"] not in seen:
            seen.add(c["key"])
            todo.append(c)
    if verbose:
        print(f"[chromium {version}] {len(cases)} cases, {len(cases) - len(todo)} cached, "
              f"{len(todo)} to measure", file=sys.stderr)
    if todo:
        # Balance batches by text volume (long paragraphs are expensive).
        # One page per content language: outside Han, Chromium remembers the fallback font it
        # picked for a character for the rest of the renderer's life, whatever `lang` asked for
        # it first, so a page mixing languages would let page order decide (docs/CHROMIUM.md §2.4).
        todo.sort(key=lambda c: c["lang"] or "")
        batches, cur, cur_chars = [], [], 0
        max_chars = 400_000
        for c in todo:
            if cur and (len(cur) >= batch_size or cur_chars + len(c["text"]) > max_chars
                        or (cur[-1]["lang"] or "") != (c["lang"] or "")):
                batches.append(cur)
                cur, cur_chars = [], 0
            cur.append(c)
            cur_chars += len(c["text"])
        if cur:
            batches.append(cur)
        jobs = jobs or max(1, min(len(batches), os.cpu_count() or 1))
        t0 = time.time()
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            futs = {ex.submit(_run_batch_retry, chromium, b, timeout, keep_pages): b for b in batches}
            done = 0
            for fut in concurrent.futures.as_completed(futs):
                res = fut.result()
                cache.put_many(res)
                done += len(res)
                if verbose:
                    print(f"  measured {done}/{len(todo)} ({time.time() - t0:.1f}s)", file=sys.stderr)
    return {c["key"]: cache.get(c["key"]) for c in cases}


def measure_alone(cases, chromium=None, cache_dir=DEFAULT_CACHE_DIR, jobs=None, timeout=600, verbose=True):
    """Each case in a page of its own (a fresh Chromium): {case key: result}. Chromium's
    per-page font-fallback cache can make a text's layout depend on the texts before it on a
    page (docs/CHROMIUM.md §2.6), so this is the reference for a text alone. Cached apart from
    the shared-page results."""
    if not cases:
        return {}
    chromium = find_chromium(chromium)
    version = chromium_version(chromium)
    cache = Cache(cache_dir, version + "-alone") if cache_dir else Cache(None, version)
    todo, seen = [], set()
    for c in cases:
        if cache.get(c["key"]) is None and c["key"] not in seen:
            seen.add(c["key"])
            todo.append(c)
    if verbose and todo:
        print(f"[chromium {version}] {len(todo)} case(s) measured alone, each in its own page", file=sys.stderr)
    jobs = jobs or max(1, min(len(todo), os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for res in ex.map(lambda c: _run_batch_retry(chromium, [c], timeout, None), todo):
            cache.put_many(res)
    return {c["key"]: cache.get(c["key"]) for c in cases}


def page_timeout(cases, limit):
    """Seconds a page of `cases` may take: 30 s plus 0.3 s a case (pages take ~0.05 s a case
    on a loaded machine), at most `limit`."""
    return min(limit, 30 + 0.3 * len(cases))


def _run_batch_retry(chromium, batch, timeout, keep_pages, attempts=2):
    """Measures `batch`; a page that fails is tried again (`attempts`), except after a time-out
    (a hang repeats), then split in halves to isolate the case. A single case Chromium cannot
    lay out (it hangs on some texts, e.g. a paragraph opening with 「 or 『 in some fonts) gets
    {"chromiumError": …} instead of failing the whole run; compare.py leaves it out and lists it."""
    last = None
    for _ in range(attempts):
        try:
            return _run_batch(chromium, batch, page_timeout(batch, timeout), keep_pages)
        except subprocess.TimeoutExpired as e:
            last = e
            break
        except (RuntimeError, ValueError) as e:
            last = e
    # Split the batch to isolate a pathological case, if possible.
    if len(batch) > 1:
        mid = len(batch) // 2
        out = _run_batch_retry(chromium, batch[:mid], timeout, keep_pages, 1)
        out.update(_run_batch_retry(chromium, batch[mid:], timeout, keep_pages, 1))
        return out
    print(f"  chromium failed for case {batch[0]['id']}: {type(last).__name__} — left out", file=sys.stderr)
    return {batch[0]["key"]: {"chromiumError": f"{type(last).__name__}: {last}"[:300]}}


def main():
    sys.path.insert(0, HERE)
    import cases as casegen
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--set", choices=["short", "long", "corpus", "all"], default="all")
    ap.add_argument("--seed", type=int, default=None, help="measure a random sample with this seed instead")
    ap.add_argument("--chromium", default=None, help="chromium binary (default: $CHROMIUM or chromium)")
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--cache-dir", default=DEFAULT_CACHE_DIR)
    ap.add_argument("--batch-size", type=int, default=1500)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--keep-pages", default=None, help="copy generated HTML pages into this directory")
    ap.add_argument("--out", default="-", help="write JSON Lines results here (default stdout)")
    args = ap.parse_args()
    if args.seed is not None:
        cases = casegen.random_sample(args.seed, small=args.small)
    else:
        sets = ("short", "long", "corpus") if args.set == "all" else (args.set,)
        cases = casegen.generate(small=args.small, sets=sets)
    if args.keep_pages:
        os.makedirs(args.keep_pages, exist_ok=True)
    res = measure(cases, chromium=args.chromium, cache_dir=None if args.no_cache else args.cache_dir,
                  batch_size=args.batch_size, jobs=args.jobs, keep_pages=args.keep_pages)
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")
    for c in cases:
        row = {k: v for k, v in c.items() if k != "key"}
        row.update(res[c["key"]])
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
