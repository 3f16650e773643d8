#!/usr/bin/env python3
"""GUI tests of `rowkit view` with real input on a real X server.

Run under Xvfb (the Makefile does: `xvfb-run -a -s "-screen 0 1280x1024x24" python3 Tests/GUI/view_tests.py`)
with GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none. Each test opens the window, drives it with
xdotool (wheel clicks, keys, mouse clicks, window resizes), takes a screenshot of the X server's
root window (`import -window root`) and compares the list's drawing area with `rowkit render` of
the same data at the offset the frame log reports: 0 differing pixels. Frame logs also show that
the top row stays put across a resize and across live inserts.

Where no display can be opened, every test is skipped with rowkit's own message. Screenshots and
logs go to out/gui/. Environment: ROWKIT (the binary, default .build/debug/rowkit).
"""
import json
import os
import random
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROWKIT = os.path.abspath(os.environ.get("ROWKIT", os.path.join(ROOT, ".build/debug/rowkit")))
OUT = os.path.join(ROOT, "out", "gui")
ENV = dict(os.environ, GDK_BACKEND="x11", GSK_RENDERER="cairo", GTK_A11Y="none", NO_AT_BRIDGE="1")

WORDS = ("list row height text measure layout width cell table scroll anchor section header reuse update insert "
         "delete move reload exact prepare shape glyph line break font fallback emoji bidi browser cairo").split()


def write_rows(path, count, seed=3, sections=None):
    rng = random.Random(seed)
    rows = []
    for r in range(count):
        length = rng.choice([2, 4, 6, 10, 18, 30])
        rows.append({"caption": f"Row {r}", "body": " ".join(rng.choice(WORDS) for _ in range(length)).capitalize() + "."})
    if sections:
        data = {"sections": [{"title": f"Section {s + 1}", "rows": rows[s * sections:(s + 1) * sections]}
                             for s in range((count + sections - 1) // sections)]}
    else:
        data = rows
    with open(path, "w") as f:
        json.dump(data, f)
    return path


def run(args, **kw):
    return subprocess.run(args, env=ENV, capture_output=True, text=True, **kw)


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Viewer:
    """A running `rowkit view` with its frame log."""

    def __init__(self, name, *args, settle=True, env=None):
        self.name = name
        self.log = os.path.join(OUT, f"{name}.frames.jsonl")
        if os.path.exists(self.log):
            os.remove(self.log)
        self.stderr = open(os.path.join(OUT, f"{name}.stderr.txt"), "w")
        self.process = subprocess.Popen([ROWKIT, "view", "--frame-log", self.log, "--quit-after", "120", *args],
                                        env=env or ENV, stdout=subprocess.DEVNULL, stderr=self.stderr)
        self.wait_for(lambda frames: len(frames) >= 1, "the first frame", timeout=60)
        if settle:
            self.settle()
        self.window = self.find_window()

    def frames(self):
        try:
            with open(self.log) as f:
                return [json.loads(line) for line in f if line.endswith("\n")]
        except FileNotFoundError:
            return []

    def wait_for(self, predicate, what, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            frames = self.frames()
            if frames and predicate(frames):
                return frames
            check(self.process.poll() is None, f"{self.name}: rowkit view exited ({self.process.returncode}) waiting for {what}")
            time.sleep(0.05)
        raise Failure(f"{self.name}: timed out waiting for {what}")

    def settle(self, quiet=0.5, timeout=30):
        """Waits until no frame has been painted for `quiet` seconds; returns the last frame."""
        count, since, deadline = -1, time.time(), time.time() + timeout
        while True:
            check(time.time() < deadline, f"{self.name}: frames kept coming for {timeout} s")
            frames = self.frames()
            if len(frames) != count:
                count, since = len(frames), time.time()
            elif time.time() - since >= quiet:
                return frames[-1]
            time.sleep(0.05)

    def find_window(self):
        for _ in range(100):
            result = run(["xdotool", "search", "--onlyvisible", "--pid", str(self.process.pid)])
            ids = result.stdout.split()
            if ids:
                return ids[-1]
            time.sleep(0.05)
        raise Failure(f"{self.name}: no window found")

    def xdotool(self, *args):
        result = run(["xdotool", *args])
        check(result.returncode == 0, f"xdotool {' '.join(args)}: {result.stderr.strip()}")

    def screenshot(self, width, height, name=None):
        full = os.path.join(OUT, f"{name or self.name}.root.png")
        shot = os.path.join(OUT, f"{name or self.name}.png")
        result = run(["import", "-window", "root", full])
        check(result.returncode == 0, f"import: {result.stderr.strip()}")
        result = run(["convert", full, "-crop", f"{width}x{height}+0+0", "+repage", shot])
        check(result.returncode == 0, f"convert: {result.stderr.strip()}")
        return shot

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr.close()


def render(name, data, width, height, offset, selected=None, extra=()):
    out = os.path.join(OUT, f"{name}.render.png")
    args = [ROWKIT, "render", "--cell", "caption-text", "--data", data, "--width", repr(width), "--height", repr(height),
            "--offset", repr(offset), "--output", out, *extra]
    if selected is not None:
        args += ["--selected", str(selected)]
    result = run(args)
    check(result.returncode == 0, f"render failed: {result.stderr.strip()}")
    return out, [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def differing_pixels(a, b, diff=None):
    result = run(["compare", "-metric", "AE", a, b, diff or "null:"])
    try:
        return int(float(result.stderr.split()[0]))
    except (ValueError, IndexError):
        raise Failure(f"compare {a} {b}: {result.stderr.strip()}")


def compare_with_render(viewer, data, frame, name, selected=None, crop=None):
    """Screenshot vs render at the frame's offset and size: 0 differing pixels."""
    width, height = frame["width"], frame["height"]
    shot = viewer.screenshot(width, height, name)
    reference, _ = render(name, data, width, height, frame["offset"], selected)
    if crop:
        for path in (shot, reference):
            run(["convert", path, "-crop", crop, "+repage", path])
    count = differing_pixels(shot, reference, os.path.join(OUT, f"{name}.diff.png"))
    check(count == 0, f"{name}: {count} pixels differ from rowkit render at offset {frame['offset']} (see out/gui/{name}.diff.png)")
    return shot


def flat_row(selected, sections_of):
    return None if selected is None else selected["section"] * sections_of + selected["row"]


# ---------------------------------------------------------------------------------------------

def test_wheel_keys_and_click_draw_what_render_draws(data):
    viewer = Viewer("wheel-keys-click", "--data", data, "--width", "390", "--height", "600")
    try:
        first = viewer.settle()
        check(first["offset"] == 0 and first["width"] == 390 and first["height"] == 600, f"first frame: {first}")
        compare_with_render(viewer, data, first, "start")
        viewer.xdotool("mousemove", "200", "300")
        for _ in range(4):
            viewer.xdotool("click", "5")        # wheel down
        frame = viewer.wait_for(lambda f: f[-1]["offset"] > 0, "wheel scrolling")[-1]
        frame = viewer.settle()
        step = round(600 ** (2 / 3))
        check(frame["offset"] == 4 * step, f"4 wheel clicks should scroll {4 * step} px, got {frame['offset']}")
        viewer.xdotool("click", "4")            # wheel up
        viewer.wait_for(lambda f: f[-1]["offset"] == 3 * step, "wheel up")
        compare_with_render(viewer, data, viewer.settle(), "wheel")
        viewer.xdotool("key", "Page_Down")
        frame = viewer.wait_for(lambda f: f[-1]["offset"] > 3 * step, "Page_Down")[-1]
        viewer.xdotool("key", "Down")
        frame = viewer.wait_for(lambda f: f[-1]["selected"] is not None, "Down selects")[-1]
        frame = viewer.settle()
        compare_with_render(viewer, data, frame, "keys", selected=frame["selected"]["row"])
        # A press highlights the row under the pointer (drawn as render draws a selected row);
        # the release selects it.
        _, placed = render("click-rows", data, 390, 600, frame["offset"])
        target = next(r for r in placed if r["y"] - frame["offset"] >= 300)
        y = int(target["y"] - frame["offset"] + target["height"] / 2)
        viewer.xdotool("key", "Escape")
        viewer.wait_for(lambda f: f[-1]["selected"] is None, "Escape clearing the selection")
        count = len(viewer.frames())
        viewer.xdotool("mousemove", "100", str(y), "mousedown", "1")
        frame = viewer.wait_for(lambda f: len(f) > count, "a frame after the press")[-1]
        frame = viewer.settle()
        check(frame["selected"] is None, "a press alone does not select")
        compare_with_render(viewer, data, frame, "press", selected=target["row"])
        viewer.xdotool("mouseup", "1")
        frame = viewer.wait_for(lambda f: f[-1]["selected"] == {"section": 0, "row": target["row"]}, f"a click selecting row {target['row']}")[-1]
        frame = viewer.settle()
        shot = compare_with_render(viewer, data, frame, "click", selected=target["row"])
        # End goes to the very bottom, Home back to the top.
        viewer.xdotool("key", "End")
        frame = viewer.wait_for(lambda f: abs(f[-1]["offset"] + 600 - f[-1]["contentHeight"]) < 1e-9, "End")[-1]
        compare_with_render(viewer, data, viewer.settle(), "end", selected=target["row"])
        viewer.xdotool("key", "Home")
        viewer.wait_for(lambda f: f[-1]["offset"] == 0, "Home")
        return shot
    finally:
        viewer.close()


def test_a_2x_display_draws_what_render_draws_at_scale_2(data):
    """GDK_SCALE=2: every frame, not only the first, at twice the pixels (frames after the first
    were drawn at 4×, with rows repeated, until the window stopped setting its display's scale on
    the frame's own image)."""
    viewer = Viewer("scale-2", "--data", data, "--width", "390", "--height", "400", env=dict(ENV, GDK_SCALE="2"))
    try:
        viewer.xdotool("mousemove", "200", "300")
        for _ in range(2):
            viewer.xdotool("click", "5")
        frame = viewer.wait_for(lambda f: f[-1]["offset"] > 0, "wheel scrolling")[-1]
        frame = viewer.settle()
        shot = viewer.screenshot(2 * frame["width"], 2 * frame["height"], "scale-2")
        reference, _ = render("scale-2", data, frame["width"], frame["height"], frame["offset"], extra=("--scale", "2"))
        count = differing_pixels(shot, reference, os.path.join(OUT, "scale-2.diff.png"))
        check(count == 0, f"scale 2: {count} pixels differ from rowkit render --scale 2 at offset {frame['offset']} (see out/gui/scale-2.diff.png)")
    finally:
        viewer.close()


def test_resize_keeps_the_top_row(data):
    viewer = Viewer("resize", "--data", data, "--width", "390", "--height", "600")
    try:
        viewer.xdotool("mousemove", "200", "300")
        for _ in range(7):
            viewer.xdotool("click", "5")
        before = viewer.wait_for(lambda f: f[-1]["offset"] > 0, "scrolling")[-1]
        before = viewer.settle()
        check(before["firstY"] < 0, "the top row is partly scrolled out (a real anchor test)")
        sizes = [(300, 500), (520, 640), (390, 600)]
        for width, height in sizes:
            scrollbar = 0
            # The window is the drawing area plus the scroll bar to its right.
            geometry = run(["xdotool", "getwindowgeometry", viewer.window]).stdout
            window_width = int(geometry.split("Geometry: ")[1].split("x")[0])
            scrollbar = window_width - before["width"]
            viewer.xdotool("windowsize", viewer.window, str(width + scrollbar), str(height))
            # The visible rows are laid out at once, the others in the background: compare
            # with render once every row has its height at the new width.
            after = viewer.wait_for(lambda f: f[-1]["width"] == width and f[-1]["height"] == height and f[-1]["unmeasured"] == 0,
                                    f"resize to {width}x{height}")[-1]
            after = viewer.settle()
            check(after["firstId"] == before["firstId"] and after["firstY"] == before["firstY"],
                  f"resize to {width}x{height} moved the top row: {before['firstId']}@{before['firstY']} → {after['firstId']}@{after['firstY']}")
            compare_with_render(viewer, data, after, f"resize-{width}x{height}")
            before = after
    finally:
        viewer.close()


def test_live_inserts_keep_the_content_still(data):
    viewer = Viewer("live", "--data", data, "--width", "390", "--height", "600", "--live", "120", settle=False)
    try:
        viewer.xdotool("mousemove", "200", "300")
        for _ in range(5):
            viewer.xdotool("click", "5")
        viewer.wait_for(lambda f: f[-1]["offset"] > 300, "scrolling")
        time.sleep(0.3)
        start = len(viewer.frames())
        frames = viewer.wait_for(lambda f: len(f) >= start + 8, "frames with live inserts", timeout=30)[start:]
        tops = {(f["firstId"], f["firstY"]) for f in frames}
        check(len(tops) == 1, f"the top row moved during live inserts: {sorted(tops)}")
        check(frames[-1]["contentHeight"] > frames[0]["contentHeight"], "rows were inserted")
        check(frames[-1]["first"]["row"] > frames[0]["first"]["row"], "rows were inserted above the top row")
    finally:
        viewer.close()
    # At offset 0: keep-still (default) keeps row 0 on top; show-new shows the new rows.
    for policy, expect_new in (("keep-still", False), ("show-new", True)):
        viewer = Viewer(f"live-top-{policy}", "--data", data, "--width", "390", "--height", "400", "--live", "150", "--at-top", policy, settle=False)
        try:
            frames = viewer.wait_for(lambda f: len(f) >= 4, "live frames", timeout=30)
            last = frames[-1]
            if expect_new:
                check(last["offset"] == 0 and last["firstId"].startswith("live-"), f"show-new: {last}")
            else:
                check(last["firstId"] == "s0-r0" and last["firstY"] == 0 and last["offset"] > 0, f"keep-still: {last}")
        finally:
            viewer.close()


def test_sticky_headers(data_sections):
    viewer = Viewer("sticky", "--data", data_sections, "--width", "390", "--height", "600")
    try:
        viewer.xdotool("mousemove", "200", "300")
        for _ in range(9):
            viewer.xdotool("click", "5")
        viewer.wait_for(lambda f: f[-1]["offset"] > 0, "scrolling")
        frame = viewer.settle()
        check(frame["sticky"] is not None and frame["sticky"]["y"] == 0, f"a header is pinned at the top: {frame}")
        section = frame["sticky"]["section"]
        shot = viewer.screenshot(390, 600, "sticky")
        # The pinned header is the header row as render draws it...
        header_out = os.path.join(OUT, "sticky-header.render.png")
        listing = run([ROWKIT, "heights", "--cell", "caption-text", "--data", data_sections, "--width", "390"])
        check(listing.returncode == 0, listing.stderr)
        header_height = None
        y = 0.0
        for line in listing.stdout.splitlines():
            if not line.startswith("{"):
                continue
            item = json.loads(line)
            if item.get("header") == section:
                header_y, header_height = item["y"], item["height"]
        check(header_height is not None, f"no header {section} in rowkit heights output")
        result = run([ROWKIT, "render", "--cell", "caption-text", "--data", data_sections, "--width", "390", "--height",
                      repr(header_height), "--offset", repr(header_y), "--output", header_out, "--quiet"])
        check(result.returncode == 0, result.stderr)
        pinned = os.path.join(OUT, "sticky-pinned.png")
        header_rows = int(header_height)
        run(["convert", shot, "-crop", f"390x{header_rows}+0+0", "+repage", pinned])
        run(["convert", header_out, "-crop", f"390x{header_rows}+0+0", "+repage", header_out])
        count = differing_pixels(pinned, header_out)
        check(count == 0, f"the pinned header differs from render's header row in {count} pixels")
        # ...and below it the list is exactly render's viewport.
        reference, _ = render("sticky-body", data_sections, 390, 600, frame["offset"])
        below = f"390x{600 - header_rows - 1}+0+{header_rows + 1}"
        for path in (shot, reference):
            run(["convert", path, "-crop", below, "+repage", path + ".below.png"])
        count = differing_pixels(shot + ".below.png", reference + ".below.png")
        check(count == 0, f"below the pinned header {count} pixels differ from render")
        # The picture for the docs: a pinned header and a selected row (out/gui/view.png).
        viewer.xdotool("mousemove", "150", "330", "click", "1")
        viewer.wait_for(lambda f: f[-1]["selected"] is not None, "a click selecting a row")
        viewer.settle()
        return viewer.screenshot(390, 600, "view")
    finally:
        viewer.close()


def test_frame_rate_readout_toggles(data):
    viewer = Viewer("fps", "--data", data, "--width", "390", "--height", "600")
    try:
        viewer.xdotool("mousemove", "200", "300")
        viewer.xdotool("key", "f")
        viewer.wait_for(lambda f: len(f) >= 2, "a frame with the readout")
        frame = viewer.settle(0.2)
        shot = viewer.screenshot(390, 600, "fps-on")
        reference, _ = render("fps", data, 390, 600, frame["offset"])
        count = differing_pixels(shot, reference)
        check(count > 100, f"the readout should draw in a corner ({count} pixels differ)")
        corner = differing_pixels(*(crop(p, "390x560+0+40") for p in (shot, reference)))
        check(corner == 0, f"the readout draws only in the top strip ({corner} pixels differ below)")
        viewer.xdotool("key", "f")
        time.sleep(0.8)
        frame = viewer.settle()
        check(differing_pixels(viewer.screenshot(390, 600, "fps-off"), reference) == 0, "F hides the readout")
    finally:
        viewer.close()


def crop(path, geometry):
    out = path + "." + geometry.replace("+", "_") + ".png"
    run(["convert", path, "-crop", geometry, "+repage", out])
    return out


def test_idle_means_idle(data):
    viewer = Viewer("idle", "--data", data, "--width", "390", "--height", "600")
    try:
        viewer.settle()
        count = len(viewer.frames())
        def cpu():
            with open(f"/proc/{viewer.process.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        before = cpu()
        time.sleep(1.5)
        used = cpu() - before
        check(len(viewer.frames()) == count, "frames were painted while nothing moved")
        check(used < 0.05, f"{used:.2f} s of CPU in 1.5 s of idling")
    finally:
        viewer.close()


def test_scripted_run(data):
    script = os.path.join(OUT, "script.txt")
    with open(script, "w") as f:
        f.write("0.1 scroll 250.5\n0.3 scroll-to 40 middle\n0.5 click 100 200\n0.7 resize 330 500\n0.9 insert 3\n1.1 quit\n")
    log = os.path.join(OUT, "script.frames.jsonl")
    result = run([ROWKIT, "view", "--data", data, "--width", "390", "--height", "600", "--script", script, "--frame-log", log],
                 timeout=120)
    check(result.returncode == 0, f"scripted run failed: {result.stderr}")
    frames = [json.loads(line) for line in open(log)]
    check(any(f["offset"] == 250.5 for f in frames), "scroll 250.5")
    resized = [f for f in frames if f["width"] == 330]
    check(resized and resized[0]["height"] == 500, "resize 330 500")
    before = [f for f in frames if f["width"] == 390][-1]
    check((resized[0]["firstId"], resized[0]["firstY"]) == (before["firstId"], before["firstY"]), "resize anchor")
    check(frames[-1]["selected"] is not None, "click selected a row")


def test_frame_log_is_written_in_place(data):
    # The log is written through the path as given (a symbolic link, a device such as /dev/full
    # or a FIFO stays what it is); an earlier version replaced the path with a new file, which
    # as root turned /dev/full into a regular file.
    target = os.path.join(OUT, "in-place.target.jsonl")
    link = os.path.join(OUT, "in-place.link.jsonl")
    for path in (target, link):
        if os.path.lexists(path):
            os.remove(path)
    with open(target, "w") as f:
        f.write("old\n")
    os.symlink(target, link)
    result = run([ROWKIT, "view", "--data", data, "--width", "390", "--height", "300", "--quit-after", "0.5", "--frame-log", link],
                 timeout=120)
    check(result.returncode == 0, f"view failed: {result.stderr}")
    check(os.path.islink(link), "the symbolic link was replaced by a file")
    frames = [json.loads(line) for line in open(target)]
    check(frames and frames[0]["frame"] == 1, f"the link's target lacks the frames: {frames[:1]}")
    missing = run([ROWKIT, "view", "--data", data, "--quit-after", "0", "--frame-log", os.path.join(OUT, "nowhere", "f.jsonl")])
    check(missing.returncode == 1 and "No such file or directory" in missing.stderr, f"missing folder: {missing.stderr!r}")


def test_sample_rows_are_named_by_their_ids():
    # --sample keeps rows by number; the frame log names them as the rows do ("r57",
    # "s0-header", "live-0"), not by the engine's numbers ("57", "-1", "1099511627776").
    script = os.path.join(OUT, "sample-ids.txt")
    with open(script, "w") as f:
        f.write("0.1 scroll-to 57 top\n0.4 scroll-to 0 top\n0.6 insert 2\n0.9 quit\n")
    log = os.path.join(OUT, "sample-ids.frames.jsonl")
    result = run([ROWKIT, "view", "--sample", "300", "--at-top", "show-new", "--width", "390", "--height", "400",
                  "--script", script, "--frame-log", log], timeout=120)
    check(result.returncode == 0, f"view failed: {result.stderr}")
    ids = [json.loads(line)["firstId"] for line in open(log)]
    check(ids[0] == "r0" and "r57" in ids, f"generated rows: {ids}")
    check(ids[-1] == "live-0", f"after inserting two rows at the top (show-new): {ids[-1]!r}")
    result = run([ROWKIT, "view", "--sample", "300", "--section-size", "20", "--quit-after", "0", "--frame-log", log], timeout=120)
    check(result.returncode == 0, f"view failed: {result.stderr}")
    first = json.loads(open(log).readline())["firstId"]
    check(first == "s0-header", f"a section header: {first!r}")


def test_zero_height_rows_do_not_delay_the_first_frame():
    # 200,000 rows of empty text (0 px tall each): every one of them lies in the viewport, so the
    # first frame measured them all (200,000 rows, 4.8 s in a debug build) before anything showed.
    # Now a frame measures a bounded number and the background does the rest.
    template = os.path.join(OUT, "zero.yaml")
    with open(template, "w") as f:
        f.write('name: zero\nlayout:\n  text: {field: t}\nsamples:\n  - {t: ""}\n')
    rows = os.path.join(OUT, "zero.jsonl")
    with open(rows, "w") as f:
        for i in range(200_000):
            f.write(f'{{"id": "z{i}", "t": ""}}\n')
        f.write('{"id": "last", "t": "The only row with text."}\n')
    log = os.path.join(OUT, "zero.frames.jsonl")
    result = run([ROWKIT, "view", "--cell", template, "--data", rows, "--width", "390", "--height", "300",
                  "--quit-after", "0", "--frame-log", log], timeout=300)
    check(result.returncode == 0, f"view failed: {result.stderr}")
    frames = [json.loads(line) for line in open(log)]
    check(frames and frames[0]["unmeasured"] > 150_000, f"the first frame waited for the rows: {frames[:1]}")


def test_errors():
    bad = os.path.join(OUT, "bad-script.txt")
    with open(bad, "w") as f:
        f.write("0 scroll 10\n\n1 wobble 3\n")
    rows = write_rows(os.path.join(OUT, "small.json"), 10)
    result = run([ROWKIT, "view", "--data", rows, "--script", bad])
    check(result.returncode != 0 and f"{bad}:3: unknown action 'wobble'" in result.stderr, f"bad script: {result.stderr}")
    broken = os.path.join(OUT, "broken.jsonl")
    with open(broken, "w") as f:
        f.write('{"caption": "a", "body": "b"}\n{"caption": \n')
    view = run([ROWKIT, "view", "--data", broken])
    rendered = run([ROWKIT, "render", "--cell", "caption-text", "--data", broken, "--width", "390", "--output", os.path.join(OUT, "x.png")])
    # Messages start with the command's name ("rowkit view: …", "rowkit render: …"); the rest is the same.
    same = view.stderr.replace("rowkit view: ", "") == rendered.stderr.replace("rowkit render: ", "")
    check(view.returncode == rendered.returncode == 1 and same, f"bad data: view {view.stderr!r} vs render {rendered.stderr!r}")
    no_display = subprocess.run([ROWKIT, "view", "--data", rows], capture_output=True, text=True,
                                env={k: v for k, v in ENV.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")})
    lines = no_display.stderr.strip().splitlines()
    check(no_display.returncode == 1 and len(lines) == 1 and "DISPLAY" in lines[0] and "WAYLAND_DISPLAY" in lines[0],
          f"no display: {no_display.returncode} {no_display.stderr!r}")


def display_problem():
    """rowkit's own message when no display can be opened, or None."""
    for tool in ("xdotool", "import", "compare", "convert"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (scripts/setup.sh installs xdotool and imagemagick)"
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        result = run([ROWKIT, "view", "--sample", "1", "--quit-after", "0"])
        return result.stderr.strip() or "no display"
    result = run([ROWKIT, "view", "--sample", "1", "--quit-after", "0"], timeout=60)
    if result.returncode != 0:
        return result.stderr.strip()
    return None


def main():
    os.makedirs(OUT, exist_ok=True)
    check(os.path.exists(ROWKIT), f"{ROWKIT} not built")
    data = write_rows(os.path.join(OUT, "rows.json"), 300)
    data_sections = write_rows(os.path.join(OUT, "sections.json"), 300, seed=5, sections=12)
    tests = [
        ("errors and no display", lambda: test_errors(), False),
        ("wheel, keys and click draw what render draws", lambda: test_wheel_keys_and_click_draw_what_render_draws(data), True),
        ("resize keeps the top row", lambda: test_resize_keeps_the_top_row(data), True),
        ("a 2x display draws what render draws at scale 2", lambda: test_a_2x_display_draws_what_render_draws_at_scale_2(data), True),
        ("live inserts keep the content still", lambda: test_live_inserts_keep_the_content_still(data), True),
        ("sticky headers", lambda: test_sticky_headers(data_sections), True),
        ("frame-rate readout toggles", lambda: test_frame_rate_readout_toggles(data), True),
        ("idle means idle", lambda: test_idle_means_idle(data), True),
        ("scripted run", lambda: test_scripted_run(data), True),
        ("frame log is written in place", lambda: test_frame_log_is_written_in_place(data), True),
        ("sample rows are named by their ids", lambda: test_sample_rows_are_named_by_their_ids(), True),
        ("zero-height rows do not delay the first frame", lambda: test_zero_height_rows_do_not_delay_the_first_frame(), True),
    ]
    problem = display_problem()
    passed = failed = skipped = 0
    for name, body, needs_display in tests:
        if needs_display and problem:
            print(f"SKIP {name}: {problem}")
            skipped += 1
            continue
        started = time.time()
        try:
            body()
            print(f"PASS {name} ({time.time() - started:.1f} s)")
            passed += 1
        except Failure as error:
            print(f"FAIL {name}: {error}")
            failed += 1
        sys.stdout.flush()
    print(f"gui: {passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
