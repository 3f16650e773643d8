#!/usr/bin/env python3
"""`make heights-bench`: `rowkit heights` on a million caption-text rows of real text.

Builds 1,000,000 rows (a caption of 1-8 words and a body of 3-80 words, each row's words taken
from one file of the real corpora in ../shared/corpora or $ROWKIT_CORPORA, so rows mix eleven
languages as a multilingual feed would) as JSON Lines and as one JSON array in a temporary
folder, runs `rowkit heights --cell caption-text --width 320` on each under /usr/bin/time, checks
that every row got a height, and writes wall time, CPU time and peak memory (with the load
average, since the machine may be shared) to Benchmarks/results/heights-<date>.json.

    python3 scripts/heights_bench.py [--rows N] [--rowkit PATH] [--results DIR]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import unicodedata

SPACELESS = ("ja-", "zh-", "th-", "km-", "my-")  # scripts written without spaces between words


def corpora_folder():
    candidates = [os.environ.get("ROWKIT_CORPORA")] if os.environ.get("ROWKIT_CORPORA") else []
    for start in (os.getcwd(), os.path.dirname(os.path.abspath(__file__))):
        candidates.extend(folders_above(start))
    for folder in candidates:
        if folder and os.path.isfile(os.path.join(folder, "en-gatsby-opening.txt")):
            return os.path.normpath(folder)
    return None


def folders_above(start):
    """shared/corpora beside `start` or any folder above it."""
    candidates = []
    here = os.path.abspath(start)
    while True:
        candidates.append(os.path.join(here, "..", "shared", "corpora"))
        candidates.append(os.path.join(here, "shared", "corpora"))
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    return candidates


STACKERS = {"\u17D2", "\u1039", "\u200D"}  # Khmer coeng, Myanmar virama, ZWJ: join the next letter


def clusters(text):
    """The text cut into rough grapheme clusters (a letter with its marks and stacked letters), so
    that a run of clusters from any start is real running text, never a stray combining mark."""
    out = []
    for ch in text:
        joins = unicodedata.category(ch).startswith("M") or ch in ("\u200C", "\u200D")
        if out and (joins or out[-1][-1] in STACKERS):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def vocabularies(folder):
    """Words per corpus file, in order: split at spaces, or the running text's clusters for
    scripts written without spaces between words (rows take runs of them from any start)."""
    result = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            text = unicodedata.normalize("NFC", f.read())
        if name.startswith(SPACELESS):
            words = clusters(" ".join(text.split()))
            joiner = ""
        else:
            words = text.split()
            joiner = " "
        if words:
            result.append((name, words, joiner))
    return result


def make_rows(count, vocab, seed=20261123):
    rng = random.Random(seed)
    for i in range(count):
        name, words, joiner = vocab[rng.randrange(len(vocab))]
        per_word = 1 if joiner else 3  # clusters per word, where words are not spaced
        start = rng.randrange(len(words))
        caption_n = rng.randint(1, 8) * per_word
        body_n = min(80, max(3, int(rng.expovariate(1 / 22)))) * per_word
        caption = joiner.join(words[start:start + caption_n]) or words[0]
        s2 = rng.randrange(len(words))
        body = joiner.join(words[s2:s2 + body_n]) or words[0]
        yield {"caption": caption, "body": body}


def run(rowkit, data, rows):
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        load_before = open("/proc/loadavg").read().split()[:3]
        started = time.monotonic()
        with subprocess.Popen(["/usr/bin/time", "-f", "%e %U %S %M", "-o", timing.name,
                               rowkit, "heights", "--cell", "caption-text", "--width", "320", "--data", data],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
            lines = 0
            for line in process.stdout:
                lines += 1
            stderr = process.stderr.read().decode("utf-8", "replace")
            status = process.wait()
        wall = time.monotonic() - started
        load_after = open("/proc/loadavg").read().split()[:3]
        fields = timing.read().split()
    if status != 0 or lines != rows:
        sys.exit(f"heights_bench: {data}: status {status}, {lines} lines for {rows} rows\n{stderr[-2000:]}")
    elapsed, user, system, peak_kib = float(fields[0]), float(fields[1]), float(fields[2]), int(fields[3])
    return {
        "wall_s": round(elapsed, 2),
        "cpu_s": round(user + system, 2),
        "peak_rss_mb": round(peak_kib * 1024 / 1e6, 1),
        "rows_per_s": round(rows / elapsed),
        "load_average_before": " ".join(load_before),
        "load_average_after": " ".join(load_after),
        "wall_including_reading_output_s": round(wall, 2),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rowkit", default=".build/release/rowkit")
    parser.add_argument("--results", default="Benchmarks/results")
    args = parser.parse_args()
    folder = corpora_folder()
    if folder is None:
        print("heights_bench: the real corpora are absent (../shared/corpora or $ROWKIT_CORPORA); skipped", file=sys.stderr)
        return 0
    vocab = vocabularies(folder)
    with tempfile.TemporaryDirectory(prefix="rowkit-heights-") as scratch:
        lines_path = os.path.join(scratch, "rows.jsonl")
        array_path = os.path.join(scratch, "rows.json")
        with open(lines_path, "w", encoding="utf-8") as lines, open(array_path, "w", encoding="utf-8") as array:
            array.write("[\n")
            for i, row in enumerate(make_rows(args.rows, vocab)):
                text = json.dumps(row, ensure_ascii=False)
                lines.write(text + "\n")
                array.write(("" if i == 0 else ",\n") + text)
            array.write("\n]\n")
        size = os.path.getsize(lines_path)
        print(f"heights_bench: {args.rows:,} rows from {len(vocab)} corpus files ({size / 1e6:.0f} MB of JSON Lines)", file=sys.stderr)
        results = {}
        for label, path in (("json_lines", lines_path), ("json_array", array_path)):
            results[label] = run(args.rowkit, path, args.rows)
            r = results[label]
            print(f"heights_bench: {label}: {r['wall_s']} s wall, {r['cpu_s']} s CPU, {r['peak_rss_mb']} MB peak "
                  f"(load {r['load_average_before']})", file=sys.stderr)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    report = {
        "benchmark": "rowkit heights --cell caption-text --width 320 on real multilingual rows",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": "python3 scripts/heights_bench.py" + (f" --rows {args.rows}" if args.rows != 1_000_000 else ""),
        "machine": {"cores": os.cpu_count()},
        "rows": args.rows,
        "corpus_files": [name for name, _, _ in vocab],
        "json_lines_bytes": size,
        "targets": {"wall_s_max": 10, "peak_rss_mb_max": 1000},
        "results": results,
    }
    os.makedirs(args.results, exist_ok=True)
    out = os.path.join(args.results, f"heights-{stamp}.json")
    with open(out + ".tmp", "w") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(out + ".tmp", out)
    print(f"heights_bench: wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
