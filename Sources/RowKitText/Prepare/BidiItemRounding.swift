/// Chromium's line breaker adds up a line's inline items, each item's part on the line rounded
/// up to the 1/64 px layout unit, and its items are split where the bidi level changes (not
/// where the font or script does: a fallback font stays inside one item's shape result). So a
/// line holding a direction change is wider than the one rounding of its total, by up to 1/64 px
/// per change (measured, docs/CHROMIUM.md §1 "Bidi items are rounded apart").
///
/// The measuring form keeps only advances, so the rounding is folded into them: the last unit
/// of every level run but the paragraph's last gets `ceil64(run width) − run width`. That is
/// exact for every line whose first item starts at a run's start (the text's start, a forced
/// break, a direction change) and for every whole run inside a line; for a line that starts
/// inside a run and goes past its end, the folded amount is the whole run's, where Chromium
/// rounds the part from the line start: the line breaker corrects those lines at the segment
/// holding the run's last unit, finding the part from the pen it sums anyway plus the run's
/// stored `tail` (`records`; `plainLinesRoundingRuns`, `levelRunEndCorrection`), never by
/// walking the run's units. Texts without a direction change have no runs and run the line
/// breaker's copy without this rule (`LevelRunRounding`).
enum BidiItemRounding {
    /// A level run that another follows: `start` (where its width is measured from: the run's
    /// first unit, or the unit after its last newline or tab), `last` (its last unit), `width`
    /// (units `start...last`, 16.16 px) and `pad` (`ceil64(width) − width`, folded into unit
    /// `last`'s advance).
    struct Run: Equatable {
        var start: Int32, last: Int32, width: Int32, pad: Int32
    }

    /// The runs of `levels` that another run follows on the same line (not before a newline), in
    /// unit order; empty when the levels never change or the text has a tab. A newline or tab
    /// (`pre-wrap`) ends a Chromium item too: a run is measured from the last of them.
    static func runs(levels: UnsafeBufferPointer<UInt8>, units: UnsafeBufferPointer<UInt16>,
                     advances: UnsafeBufferPointer<Int32>) -> [Run] {
        let n = min(levels.count, advances.count, units.count)
        guard n > 1 else { return [] }
        var runs: [Run] = []
        var width: Int64 = 0
        var start = 0
        var level = levels[0]
        for u in 0..<n {
            // Tab stops count from the unrounded pen here: a paragraph with tabs is left as it was.
            let unit = units[u]
            if unit == 0x09 { return [] }
            if levels[u] != level {
                // A newline ends the line: the run before it gets no pad.
                if unit != 0x0A {
                    let pad = ((width + 1023) & ~1023) - width
                    runs.append(Run(start: Int32(start), last: Int32(u - 1), width: Int32(clamping: width), pad: Int32(pad)))
                }
                width = 0
                start = u
                level = levels[u]
            }
            if unit == 0x0A {
                width = 0
                start = u + 1
            } else {
                width += Int64(advances[u])
            }
        }
        return runs
    }

    /// The runs as the measuring form stores them (`MetricsBlock`, extras part): per run
    /// `start`, `last`, `width`, `pad`, `tail` — the width of the run's units from the start of
    /// the segment holding `last` through `last` (unpadded), its sign bit set when `last` is
    /// hanging white space — and that segment. With `tail`, the line breaker finds a line's part
    /// of the run from the pen it has summed anyway: part = (pen from the line start to that
    /// segment) + tail; with the segment, its plain loops know where to stop.
    static func records(_ runs: [Run], segmentEnds: UnsafeBufferPointer<Int32>, contentEnds: UnsafeBufferPointer<Int32>,
                        advances: UnsafeBufferPointer<Int32>) -> [Int32] {
        var flat: [Int32] = []
        flat.reserveCapacity(recordSize * runs.count)
        var segment = 0
        for run in runs {
            let last = Int(run.last)
            while segment < segmentEnds.count - 1 && Int(segmentEnds[segment]) <= last { segment += 1 }
            let segmentStart = segment == 0 ? 0 : Int(segmentEnds[segment - 1])
            var tail: Int64 = 0
            for u in segmentStart...last { tail += Int64(advances[u]) }
            let hanging = last >= Int(contentEnds[segment])
            flat += [run.start, run.last, run.width, run.pad, Int32(clamping: tail) | (hanging ? Int32.min : 0), Int32(segment)]
        }
        return flat
    }

    /// Int32 fields per stored run (`records(_:segmentEnds:contentEnds:advances:)`).
    static let recordSize = 6

    /// How much a run's part on a line, `part` (16.16 px, from the line start through the
    /// run's last unit, unpadded), is wider rounded up on its own than with the run's folded
    /// `pad`: `ceil64(part) − part − pad` (0 for a line starting at the run's start).
    @inline(__always) static func correction(part: Int64, pad: Int32) -> Int64 {
        ((part &+ 1023) & ~1023) &- part &- Int64(pad)
    }

    /// Runs `body` with `view`'s advances and segment widths carrying the runs' pads (copies;
    /// `view` itself is left alone).
    static func withPads<R>(_ runs: [Run], _ view: ParagraphView, _ body: (ParagraphView) -> R) -> R {
        var advances = Array(view.unitAdvances)
        var widths = Array(view.widths)
        var spaceWidths = Array(view.spaceWidths)
        var segment = 0
        for run in runs where run.pad > 0 {
            let u = Int(run.last), pad = run.pad
            advances[u] &+= pad
            while segment < view.segmentEnds.count - 1 && Int(view.segmentEnds[segment]) <= u { segment += 1 }
            if u < Int(view.contentEnds[segment]) { widths[segment] &+= pad } else { spaceWidths[segment] &+= pad }
        }
        return advances.withUnsafeBufferPointer { a in
            widths.withUnsafeBufferPointer { w in
                spaceWidths.withUnsafeBufferPointer { s in
                    var padded = view
                    padded.unitAdvances = a
                    padded.widths = w
                    padded.spaceWidths = s
                    return body(padded)
                }
            }
        }
    }
}

/// Whether the line breaker's loop is compiled with `BidiItemRounding`'s line-start correction:
/// `On` for blocks with bidi level runs, `Off` (the correction compiled out, the loop as it is
/// without the rule) for every other block.
protocol LevelRunRounding {
    static var on: Bool { get }
}

/// `LevelRunRounding` on.
enum RoundsLevelRuns: LevelRunRounding { @inline(__always) static var on: Bool { true } }
/// `LevelRunRounding` off.
enum IgnoresLevelRuns: LevelRunRounding { @inline(__always) static var on: Bool { false } }

extension MetricsBlock.View {
    /// How much segment `i` (special) grows, in its content or its hanging white space, on a
    /// line starting at unit `lineStart`: nonzero when `i` holds the last unit of the level run
    /// the line starts inside (after the run's start). Chromium rounds the run's part from the
    /// line start, `ceil64(part) − part`, where the stored advances carry the whole run's pad.
    ///
    /// The part is found from what the breaker has summed: `pen` (the pen at segment `i`'s start
    /// from the line start, hanging spaces included) plus the run's stored `tail`. That pen is
    /// the units' advances when the line's first segment `lineFirst` counted its plain width
    /// (the line starts at it, not reshaped, not broken inside); otherwise the line's units
    /// are summed (lines after an overflow-wrap split, or starting with reshaped punctuation).
    @inline(never)
    func levelRunEndCorrection(_ runs: MetricsBlock.BidiRunTable, segment i: Int, lineStart: Int, pen: Int64,
                               lineFirst: Int, limit: Int64) -> (content: Int64, trailing: Int64) {
        guard let (run, tail, hanging) = runs.run(endingAtOrAfter: lineStart), lineStart > Int(run.start) else { return (0, 0) }
        let last = Int(run.last)
        let segmentStart = Int(start(i))
        guard last >= segmentStart && last < Int(end(i)) else { return (0, 0) }
        var part: Int64
        if lineStart == segmentStart {
            part = tail
        } else if lineStart > segmentStart {
            // Resumed inside the segment (after an overflow-wrap split).
            part = advanceSum(lineStart..<last + 1) - Int64(run.pad)
        } else if lineStart == Int(start(lineFirst)) && flags(lineFirst) & Flag.lineStartAlone == 0
                    && (widths[lineFirst] <= limit || codes[lineFirst] & MetricsBlock.Code.breakable == 0) {
            part = pen + tail
        } else {
            part = advanceSum(lineStart..<segmentStart) + tail
        }
        let amount = BidiItemRounding.correction(part: part, pad: run.pad)
        return hanging ? (0, amount) : (amount, 0)
    }
}
