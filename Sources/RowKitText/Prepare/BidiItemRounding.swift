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
/// rounds the part from the line start (off by less than 1/64 px either way; before this rule
/// every such line was short by up to 1/64 px per direction change).
enum BidiItemRounding {
    /// A level run that another follows: `start` (where its width is measured from: the run's
    /// first unit, or the unit after its last newline or tab), `last` (its last unit), `width`
    /// (units `start...last`, 16.16 px) and `pad` (`ceil64(width) − width`, folded into unit
    /// `last`'s advance).
    struct Run: Equatable {
        var start: Int32, last: Int32, width: Int32, pad: Int32
    }

    /// The runs of `levels` that another run follows on the same line (not before a newline), in
    /// unit order; empty when the levels never change or the text has a tab. A newline or tab (`pre-wrap`) ends a Chromium item too: a run is measured
    /// from the last of them.
    static func runs(levels: UnsafeBufferPointer<UInt8>, units: UnsafeBufferPointer<UInt16>,
                     advances: UnsafeBufferPointer<Int32>) -> [Run] {
        let n = min(levels.count, advances.count, units.count)
        // Tab stops count from the unrounded pen here: a paragraph with tabs is left as it was.
        guard n > 1, !units.contains(0x09) else { return [] }
        var runs: [Run] = []
        var width: Int64 = 0
        var start = 0
        var level = levels[0]
        for u in 0..<n {
            if levels[u] != level {
                // A newline ends the line, a tab is an item of its own whose stop is measured from
                // the unrounded pen (tabbed lines are not rounded per run here).
                if units[u] != 0x0A && units[u] != 0x09 {
                    let pad = ((width + 1023) & ~1023) - width
                    runs.append(Run(start: Int32(start), last: Int32(u - 1), width: Int32(clamping: width), pad: Int32(pad)))
                }
                width = 0
                start = u
                level = levels[u]
            }
            if units[u] == 0x0A || units[u] == 0x09 {
                width = 0
                start = u + 1
            } else {
                width += Int64(advances[u])
            }
        }
        return runs
    }

    /// How much a line starting at unit `lineStart` inside `run` (before or at its last unit)
    /// differs from what the folded pad gives, when the line reaches past the run's end:
    /// Chromium rounds the run's part from the line start, `ceil64(part) − part`, where the
    /// advances carry the whole run's `pad`. `pen` is the pen at `lineStart` from the run's
    /// `start`. Zero for a line starting at the run's start.
    @inline(__always) static func correction(_ run: Run, pen: Int64) -> Int64 {
        let part = Int64(run.width) - pen
        return ((part + 1023) & ~1023) - part - Int64(run.pad)
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
