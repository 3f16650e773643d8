#!/usr/bin/env python3
"""Probe Chromium and rowkit on small texts, line by line (the tool behind docs/CHROMIUM.md's probes).

Each probe is one text in one style (the keys of `rowkit measure --lines`: text, font, size,
width, weight, style, lineHeight, whiteSpace, direction, lang; `css` adds raw CSS on the Chromium
side only). Chromium lays it out in a div of its own at the page origin, as compare.py does, and
reports per line: the characters on it (from each character's Range rect, grouped by rect top),
and per text fragment its box (left, right, top, height) — a fragment's box is its shaped width,
so a character that is laid out but not drawn shows as a line whose box is narrower than its
text. rowkit reports its lines with their widths and fonts.

  python3 Fidelity/probe.py probes.json                  # each probe at its own width
  python3 Fidelity/probe.py probes.json --sweep 26 26.5  # every 1/64 px width in [26, 26.5)
  python3 Fidelity/probe.py probes.json --sweep 30 80 --ranges   # runs of widths, differing ones
  python3 Fidelity/probe.py probes.json --first 'المس' --sweep 26 27
      # the smallest width (1/64 px steps) at which Chromium's and rowkit's first line is 'المس'

probes.json is a JSON list of probes, or of strings (then --style gives the rest as JSON).
Prints DIFF/OK per probe and width, with Chromium's and rowkit's lines and heights.

Python 3 standard library only; needs `chromium` and a rowkit binary (--rowkit, $ROWKIT,
.build/release/rowkit, .build/debug/rowkit).
"""

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from chromium import CHROMIUM_FLAGS, chromium_env, find_chromium  # noqa: E402
from compare import find_rowkit  # noqa: E402

PAGE = r"""<!DOCTYPE html><html><head><meta charset="utf-8"><style>
html, body { margin: 0; padding: 0; }
#cases > div { position: absolute; left: 0; top: 0; overflow-wrap: break-word; margin: 0; padding: 0; border: 0; }
</style></head><body><pre id="out">PENDING</pre><div id="cases"></div>
<script id="data" type="application/json">__DATA__</script><script>
(function () {
  var out = document.getElementById('out');
  try {
    var probes = JSON.parse(document.getElementById('data').textContent);
    var results = [], range = document.createRange(), box = document.getElementById('cases');
    for (var i = 0; i < probes.length; i++) {
      var c = probes[i], d = document.createElement('div');
      d.style.fontFamily = c.font; d.style.fontWeight = c.weight || 400; d.style.fontStyle = c.style || 'normal';
      d.style.fontSize = c.size + 'px';
      d.style.lineHeight = (c.lineHeight === undefined || c.lineHeight === 'normal') ? 'normal' : c.lineHeight + 'px';
      d.style.width = c.width + 'px'; d.style.whiteSpace = c.whiteSpace || 'normal';
      if (c.css) d.style.cssText += c.css;
      d.dir = c.direction || 'ltr'; if (c.lang) d.lang = c.lang;
      d.textContent = c.text; box.appendChild(d);
      var height = d.getBoundingClientRect().height, node = d.firstChild, text = c.text;
      var lines = [], byTop = {};
      for (var p = 0; p < text.length; ) {
        var cp = text.codePointAt(p), n = cp > 0xFFFF ? 2 : 1;
        if (cp > 0x20 && node) {
          range.setStart(node, p); range.setEnd(node, p + n);
          var rects = range.getClientRects(), r = null;
          for (var j = 0; j < rects.length; j++) if (rects[j].width > 0) r = rects[j];
          if (r) {
            var key = Math.round(r.top * 64);
            if (!(key in byTop)) { byTop[key] = lines.length; lines.push(''); }
            lines[byTop[key]] += String.fromCodePoint(cp);
          }
        }
        p += n;
      }
      var fragments = [];
      if (node) {
        range.selectNodeContents(node);
        var all = range.getClientRects();
        for (var j = 0; j < all.length; j++) fragments.push([all[j].left, all[j].right, all[j].top, all[j].height]);
      }
      results.push({height: height, lines: lines, fragments: fragments});
      d.remove();
    }
    out.textContent = JSON.stringify(results);
  } catch (e) { out.textContent = 'ERROR ' + (e && e.stack || e); }
})();
</script></body></html>"""


def chromium_lines(probes, chromium):
    """Chromium's answer per probe: height, lines (texts), fragments (boxes)."""
    tmp = tempfile.mkdtemp(prefix="rowkit-probe-")
    try:
        page = os.path.join(tmp, "probe.html")
        data = json.dumps(probes, ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        with open(page, "w", encoding="utf-8") as f:
            f.write(PAGE.replace("__DATA__", data))
        cmd = [chromium] + CHROMIUM_FLAGS + [f"--user-data-dir={os.path.join(tmp, 'profile')}", "--dump-dom", "file://" + page]
        proc = subprocess.run(cmd, capture_output=True, timeout=600, env=chromium_env())
        m = re.search(r'<pre id="out">(.*?)</pre>', proc.stdout.decode("utf-8", "replace"), re.S)
        payload = html.unescape(m.group(1)) if m else "no output"
        if not payload.startswith("["):
            raise SystemExit(f"chromium: {payload[:800]}")
        return json.loads(payload)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def rowkit_lines(probes, rowkit):
    """rowkit's answer per probe (`rowkit measure --lines`)."""
    inputs = []
    for c in probes:
        o = {"text": c["text"], "font": c["font"], "size": c["size"], "width": c["width"],
             "weight": c.get("weight", 400), "italic": {"normal": False, "italic": True, "oblique": "oblique"}[c.get("style", "normal")],
             "lineHeight": c.get("lineHeight", "normal"), "whiteSpace": c.get("whiteSpace", "normal"),
             "direction": c.get("direction", "ltr")}
        if c.get("lang"):
            o["lang"] = c["lang"]
        inputs.append(json.dumps(o, ensure_ascii=False))
    proc = subprocess.run([rowkit, "measure", "--lines", "--input", "-"], input="\n".join(inputs) + "\n",
                          capture_output=True, text=True)
    results = {}
    for line in proc.stdout.splitlines():
        if line.strip():
            o = json.loads(line)
            results[o["index"]] = o
    if len(results) != len(probes):
        raise SystemExit(f"rowkit: {len(results)} answers for {len(probes)} probes; stderr: {proc.stderr[-800:]}")
    return [results[i] for i in range(len(probes))]


def visible(s):
    return "".join(ch for ch in s if ord(ch) > 0x20)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("probes", help="JSON file: a list of probes (or of texts, with --style)")
    ap.add_argument("--style", help="JSON object: style keys for probes given as texts")
    ap.add_argument("--sweep", nargs=2, type=float, metavar=("FROM", "TO"), help="every 1/64 px width in [FROM, TO)")
    ap.add_argument("--first", metavar="TEXT", help="report the smallest swept width whose first line is TEXT")
    ap.add_argument("--rowkit")
    ap.add_argument("--chromium")
    ap.add_argument("--all", action="store_true", help="print agreeing probes too")
    ap.add_argument("--ranges", action="store_true",
                    help="with --sweep: one line per run of widths with the same answers on both sides")
    args = ap.parse_args()

    with open(args.probes, encoding="utf-8") as f:
        probes = json.load(f)
    style = json.loads(args.style) if args.style else {}
    probes = [dict(style, text=p) if isinstance(p, str) else dict(style, **p) for p in probes]
    if args.sweep:
        lo, hi = (int(round(v * 64)) for v in args.sweep)
        probes = [dict(p, width=k / 64) for p in probes for k in range(lo, hi)]
    chrome = chromium_lines(probes, find_chromium(args.chromium))
    rows = rowkit_lines(probes, find_rowkit(args.rowkit))

    if args.first is not None:
        found = {}
        for p, a, b in zip(probes, chrome, rows):
            key = p["text"]
            f = found.setdefault(key, {"chromium": None, "rowkit": None})
            if f["chromium"] is None and a["lines"][:1] == [args.first]:
                f["chromium"] = p["width"] * 64
            if f["rowkit"] is None and [visible(l["text"]) for l in b["lines"]][:1] == [args.first]:
                f["rowkit"] = p["width"] * 64
        for key, f in found.items():
            print(f"{'OK  ' if f['chromium'] == f['rowkit'] else 'DIFF'} {json.dumps(key, ensure_ascii=False)} "
                  f"chromium {f['chromium']}/64  rowkit {f['rowkit']}/64")
        return

    if args.ranges:
        groups = []
        for p, a, b in zip(probes, chrome, rows):
            rl = [visible(l["text"]) for l in b["lines"]]
            key = (p["text"], json.dumps(a["lines"], ensure_ascii=False), round(a["height"], 2), json.dumps(rl, ensure_ascii=False), round(b["height"], 2))
            if groups and groups[-1][0] == key:
                groups[-1][2] = p["width"]
            else:
                groups.append([key, p["width"], p["width"]])
        for (text, cl, ch, rl, rh), lo, hi in groups:
            same = cl == rl and abs(ch - rh) < 0.01
            if same and not args.all:
                continue
            print(f"{'OK  ' if same else 'DIFF'} {json.dumps(text, ensure_ascii=False)} {lo * 64:g}–{hi * 64:g}/64: "
                  f"chromium h={ch:g} {cl}  rowkit h={rh:g} {rl}")
        return

    differing = 0
    for p, a, b in zip(probes, chrome, rows):
        rl = [visible(l["text"]) for l in b["lines"]]
        same = a["lines"] == rl and abs(a["height"] - b["height"]) < 0.01
        differing += not same
        if same and not args.all:
            continue
        print(f"{'OK  ' if same else 'DIFF'} {json.dumps(p['text'], ensure_ascii=False)} width {p['width']} ({p['width'] * 64:g}/64)")
        print(f"     chromium h={a['height']:g} {a['lines']} boxes {[round(r[1] - r[0], 4) for r in a['fragments']]}")
        print(f"     rowkit   h={b['height']:g} {rl} widths {[l['width'] for l in b['lines']]}")
    print(f"{len(probes) - differing}/{len(probes)} agree")


if __name__ == "__main__":
    main()
