#!/usr/bin/env python3
"""`make view-bench` (also run by `make bench`): a scripted fling through a million rows.

Runs `rowkit view --sample 1000000` (caption-text rows, 390×844) under Xvfb with GTK's cairo
renderer, replays back-to-back flings for 10 s from a script, then leaves the window alone.
From the frame log and /proc it reports: paint time per frame (p50/p90/p99/max: building the
frame, measuring rows that come into view, drawing them with RowKit's painters and handing the
image to GTK), frames whose paint took over 16.7 ms, gaps between frames during the fling, time
to the first frame, CPU while the rest of the list is measured in the background, and CPU when
idle. Writes Benchmarks/results/view-bench.json (with `uptime`: the machine may be shared).

Run it under xvfb-run (the Makefile does); ROWKIT names the binary (default: the release build).
"""
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROWKIT = os.path.abspath(os.environ.get("ROWKIT", os.path.join(ROOT, ".build/release/rowkit")))
OUT = os.path.join(ROOT, "out", "view-bench")
RESULT = os.path.join(ROOT, "Benchmarks", "results", "view-bench.json")
ROWS, WIDTH, HEIGHT = 1_000_000, 390, 844
FLING_SECONDS = 10.0
BUDGET_MS = 1000 / 60


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(fraction * len(ordered) + 0.5)) - 1))]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    os.makedirs(OUT, exist_ok=True)
    if not os.path.exists(ROWKIT):
        sys.exit(f"view-bench: {ROWKIT} not built")
    if not os.environ.get("DISPLAY"):
        sys.exit("view-bench: no DISPLAY: run it under xvfb-run (make view-bench does)")
    # Flings every 2.5 s, alternating fast and faster, all downwards: the list keeps moving for
    # the whole FLING_SECONDS (a fling at 9000 px/s lasts ~3 s).
    script = os.path.join(OUT, "fling.txt")
    with open(script, "w") as f:
        t, k = 0.5, 0
        while t < 0.5 + FLING_SECONDS - 2.0:
            f.write(f"{t:.2f} fling {9000 if k % 2 == 0 else 14000}\n")
            t += 2.5
            k += 1
    log = os.path.join(OUT, "frames.jsonl")
    if os.path.exists(log):
        os.remove(log)
    env = dict(os.environ, GDK_BACKEND="x11", GSK_RENDERER="cairo", GTK_A11Y="none", NO_AT_BRIDGE="1")
    uptime_before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    spawned = time.monotonic()
    process = subprocess.Popen([ROWKIT, "view", "--sample", str(ROWS), "--width", str(WIDTH), "--height", str(HEIGHT),
                                "--script", script, "--frame-log", log], env=env, stderr=subprocess.PIPE, text=True)
    first_seen = None
    while first_seen is None:
        if process.poll() is not None:
            sys.exit(f"view-bench: rowkit view exited: {process.stderr.read()}")
        if os.path.exists(log) and os.path.getsize(log) > 0:
            first_seen = time.monotonic() - spawned
        time.sleep(0.002)
    # The fling, then the rest of the list measured in the background, then idle.
    time.sleep(0.5 + FLING_SECONDS + 1.5)
    fling_end = time.monotonic()
    measuring_cpu_start = cpu_seconds(process.pid)
    samples = []
    while True:
        before = cpu_seconds(process.pid)
        time.sleep(1.0)
        used = cpu_seconds(process.pid) - before
        samples.append(used)
        if used < 0.02 or time.monotonic() - fling_end > 600:
            break
    measured_after = time.monotonic() - fling_end
    measuring_cpu = cpu_seconds(process.pid) - measuring_cpu_start
    idle_start, idle_cpu_start = time.monotonic(), cpu_seconds(process.pid)
    frames_before_idle = sum(1 for _ in open(log))
    time.sleep(5.0)
    idle_cpu = (cpu_seconds(process.pid) - idle_cpu_start) / (time.monotonic() - idle_start)
    idle_frames = sum(1 for _ in open(log)) - frames_before_idle
    uptime_after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    with open(f"/proc/{process.pid}/status") as f:
        peak_rss_mb = next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024
    process.terminate()
    process.wait(10)

    frames = [json.loads(line) for line in open(log)]
    first = frames[0]
    fling = [f for f in frames if 0.5 <= f["t"] - first["t"] <= 0.5 + FLING_SECONDS]
    paints = [f["paintMs"] for f in fling]
    gaps = [(b["t"] - a["t"]) * 1000 for a, b in zip(fling, fling[1:])]
    distance = fling[-1]["offset"] - fling[0]["offset"] if fling else 0
    result = {
        "benchmark": "rowkit view: scripted fling through a million caption-text rows",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"cores": os.cpu_count(), "uptime_before": uptime_before, "uptime_after": uptime_after},
        "setup": {"rows": ROWS, "cell": "caption-text", "viewport": f"{WIDTH}x{HEIGHT}", "display": "Xvfb",
                  "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "build": "release",
                  "script": open(script).read().strip().splitlines()},
        "fling": {
            "seconds": FLING_SECONDS, "frames": len(fling), "distancePx": round(distance, 1),
            "rowsTravelled": (fling[-1]["first"]["row"] - fling[0]["first"]["row"]) if fling else 0,
            "paintMs": {"p50": percentile(paints, 0.5), "p90": percentile(paints, 0.9), "p99": percentile(paints, 0.99),
                        "max": max(paints) if paints else None, "mean": round(statistics.mean(paints), 3) if paints else None},
            "framesOver16_7ms": sum(1 for p in paints if p > BUDGET_MS),
            "frameIntervalMs": {"p50": round(percentile(gaps, 0.5), 2) if gaps else None,
                                "p99": round(percentile(gaps, 0.99), 2) if gaps else None,
                                "max": round(max(gaps), 2) if gaps else None},
            "droppedFrames": sum(1 for g in gaps if g > 1.5 * BUDGET_MS),
            "backgroundUnmeasuredAtStart": fling[0]["unmeasured"] if fling else None,
            "backgroundUnmeasuredAtEnd": fling[-1]["unmeasured"] if fling else None,
        },
        "firstFrame": {"ms": round(first["t"] * 1000, 1), "fromSpawnMs": round(first_seen * 1000, 1),
                       "paintMs": first["paintMs"], "unmeasuredRows": first["unmeasured"]},
        "backgroundMeasuring": {"secondsAfterFling": round(measured_after, 1), "cpuSeconds": round(measuring_cpu, 2),
                                "cpuPerSecond": [round(s, 2) for s in samples]},
        "memory": {"peakRSSMiB": round(peak_rss_mb), "note": "after every row was measured"},
        "idle": {"seconds": 5.0, "cpuPercent": round(idle_cpu * 100, 2), "framesPainted": idle_frames},
        "targets": {"paintP99Ms": 8, "framesOver16_7ms": 0, "firstFrameMs": 300, "idleCpuPercent": "~0"},
    }
    result["met"] = {
        "paintP99": paints != [] and percentile(paints, 0.99) <= 8,
        "noFrameOver16_7ms": result["fling"]["framesOver16_7ms"] == 0,
        "firstFrameUnder300ms": first["t"] * 1000 < 300,
        "idleCpuNearZero": idle_cpu < 0.01 and idle_frames == 0,
    }
    os.makedirs(os.path.dirname(RESULT), exist_ok=True)
    with open(RESULT, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
