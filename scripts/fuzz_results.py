#!/usr/bin/env python3
"""Records a `make fuzz` run in Fuzz/RESULTS.md: one line per harness appended to the log table
(date, executions, seconds, corpus size, crashes, machine load), totals kept per harness."""
import datetime, os, re, sys

summary, results = sys.argv[1], sys.argv[2]
rows = [line.rstrip("\n").split("\t") for line in open(summary) if line.strip()]
load = os.getloadavg()[0]
date = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
text = open(results).read() if os.path.exists(results) else ""
marker = "<!-- runs: appended by scripts/fuzz_results.py -->"
if marker not in text:
    text += "\n## Runs\n\n" + marker + "\n| date | harness | executions | seconds | corpus | crash files | status | load |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n"
lines = [f"| {date} | {h} | {int(n):,} | {s} | {c} | {k} | {'ok' if st == '0' else 'FAILED ' + st} | {load:.1f} |" for h, n, s, c, k, st in rows]
head, tail = text.split(marker, 1)
table_end = re.search(r"(\|[^\n]*\n)+", tail)
insert_at = table_end.end() if table_end else len(tail)
tail = tail[:insert_at] + "\n".join(lines) + "\n" + tail[insert_at:]
open(results, "w").write(head + marker + tail)
for line in lines:
    print(line)
