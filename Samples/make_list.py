#!/usr/bin/env python3
"""Writes a sectioned list of caption-text rows as JSON (for `make demo`): python3 make_list.py N"""
import json, random, sys

words = ("list row height text measure layout width cell table scroll anchor section header reuse "
         "update insert delete move reload exact prepare shape glyph line break font fallback emoji "
         "bidi arabic hebrew thai korean japanese chinese browser chromium pango cairo harfbuzz").split()
n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
rng = random.Random(7)
sections = []
for s in range(max(1, n // 25)):
    rows = []
    for r in range(25):
        length = rng.choice([2, 4, 6, 10, 18, 30, 45])
        rows.append({"caption": f"Row {s * 25 + r}", "body": " ".join(rng.choice(words) for _ in range(length)).capitalize() + "."})
    sections.append({"title": f"Section {s + 1}", "rows": rows})
json.dump({"sections": sections}, sys.stdout, indent=1)
