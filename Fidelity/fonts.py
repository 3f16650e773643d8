#!/usr/bin/env python3
"""Diagnostic: which platform fonts does Chromium actually use for a text?

Uses the DevTools protocol over --remote-debugging-pipe (stdlib only) and
CSS.getPlatformFontsForNode, so engine authors can see Chromium's font
fallback choices (e.g. which CJK face is used for Han text under
"DejaVu Sans").

  python3 Fidelity/fonts.py --font "Noto Sans" "你好" "שלום" "👍🏽" "❤"
  python3 Fidelity/fonts.py --samples        # one sample per script x font
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chromium as chromium_mod  # noqa: E402

SAMPLES = {
    "latin": "The quick brown fox",
    "chinese": "今天天气很好。《红楼梦》",
    "japanese": "ひらがなカタカナ漢字",
    "korean": "오늘 날씨가 정말 좋네요",
    "thai": "สวัสดีครับ",
    "arabic": "مرحبا بكم",
    "hebrew": "שלום וברוכים הבאים",
    "emoji-plain": "\U0001F600\U0001F680",
    "emoji-zwj": "\U0001F468\u200D\U0001F469\u200D\U0001F467",
    "emoji-flag": "\U0001F1EF\U0001F1F5",
    "heart-text": "\u2764 \u2714",
    "heart-vs16": "\u2764\uFE0F",
    "combining": "Tie\u0302\u0301ng Z\u0335a\u0336",
}


class Pipe:
    def __init__(self, chromium):
        self.tmp = tempfile.mkdtemp(prefix="rowkit-fonts-")
        r_in, w_in = os.pipe()    # we write -> chrome reads fd 3
        r_out, w_out = os.pipe()  # chrome writes fd 4 -> we read
        os.set_inheritable(r_in, True)
        os.set_inheritable(w_out, True)

        def setup():
            os.dup2(r_in, 3)
            os.dup2(w_out, 4)

        flags = [f for f in chromium_mod.CHROMIUM_FLAGS if not f.startswith("--virtual-time")]
        self.proc = subprocess.Popen(
            [chromium] + flags + ["--remote-debugging-pipe", f"--user-data-dir={self.tmp}/p", "about:blank"],
            preexec_fn=setup, close_fds=False, env=chromium_mod.chromium_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r_in)
        os.close(w_out)
        self.w = os.fdopen(w_in, "wb")
        self.r = os.fdopen(r_out, "rb")
        self.buf = b""
        self.next_id = 0

    def _read_msg(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.r.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        m = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        self.w.write(json.dumps(m).encode() + b"\0")
        self.w.flush()
        while True:
            msg = self._read_msg()
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg["result"]

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:  # noqa: BLE001
            pass
        self.proc.wait(timeout=10)


def used_fonts(items, chromium=None, lang=None, raw=False):
    """items: list of (font, text). Returns list of [{familyName, glyphCount, ...}].
    `lang` sets the divs' content language; `raw` takes `font` as a CSS font-family value
    (generics, lists) instead of one quoted family name."""
    chromium = chromium_mod.find_chromium(chromium)
    tmp = tempfile.mkdtemp(prefix="rowkit-fonts-page-")
    page = os.path.join(tmp, "p.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>')
        for i, (font, text) in enumerate(items):
            esc = text.replace("&", "&amp;").replace("<", "&lt;")
            family = font.replace('"', "&quot;") if raw else f"&quot;{font}&quot;"
            lang_attr = f' lang="{lang}"' if lang else ""
            f.write(f'<div id="c{i}"{lang_attr} style="font-family:{family};font-size:16px">{esc}</div>')
        f.write("</body></html>")
    p = Pipe(chromium)
    try:
        tid = p.call("Target.createTarget", {"url": "file://" + page})["targetId"]
        sid = p.call("Target.attachToTarget", {"targetId": tid, "flatten": True})["sessionId"]
        p.call("DOM.enable", session=sid)
        p.call("CSS.enable", session=sid)
        import time
        for _ in range(100):
            st = p.call("Runtime.evaluate", {"expression": "location.protocol + document.readyState"}, session=sid)
            if st["result"].get("value") == "file:complete":
                break
            time.sleep(0.05)
        root = p.call("DOM.getDocument", {"depth": -1}, session=sid)["root"]["nodeId"]
        out = []
        for i in range(len(items)):
            nid = p.call("DOM.querySelector", {"nodeId": root, "selector": f"#c{i}"}, session=sid)["nodeId"]
            out.append(p.call("CSS.getPlatformFontsForNode", {"nodeId": nid}, session=sid)["fonts"])
        return out
    finally:
        p.close()
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(p.tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--font", default="DejaVu Sans")
    ap.add_argument("--lang", default=None, help="content language of the texts (lang attribute)")
    ap.add_argument("--raw", action="store_true", help="--font is a CSS font-family value (generics, lists)")
    ap.add_argument("--samples", action="store_true", help="every sample script under every harness font")
    ap.add_argument("--chromium", default=None)
    ap.add_argument("texts", nargs="*")
    args = ap.parse_args()
    if args.samples:
        import cases as casegen
        items = [(f, t) for f in casegen.FONTS for t in SAMPLES.values()]
        labels = [f"{f:17} {k:12}" for f in casegen.FONTS for k in SAMPLES]
    else:
        items = [(args.font, t) for t in args.texts]
        labels = [f"{args.font:17} {t[:20]!r:24}" for t in args.texts]
    for label, fonts in zip(labels, used_fonts(items, args.chromium, args.lang, args.raw)):
        desc = ", ".join(f"{x['familyName']} ({x['glyphCount']})" for x in fonts)
        print(f"{label} -> {desc}")


if __name__ == "__main__":
    main()
