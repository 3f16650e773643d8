// The classic cells (RowKitCells): for each, N rows of realistic generated data. Cold: the
// template compiled once, then each row's compact measuring form (CompiledLayout.metrics —
// what a list computes for every row) and its height at 320 px, shape cache emptied first;
// and, for comparison, the drawing form (bind: texts with glyphs). Re-measuring: every row's
// height at a new width (480, 320, 480, … alternating, so no pass asks for the width measured
// last) from the compact form, and from the drawing form. Memory of both forms per row.

import RowKitCells
import RowKitText

/// One classic cell's figures.
struct CellTiming {
    let name: String
    let rows: Int
    /// metrics(for:) + height at 320 px, shape cache empty at the start.
    let cold: Timing
    /// bind (drawing form) + measure at 320 px, shape cache empty at the start.
    let coldBound: Timing
    /// height(width:) of the compact forms at a new width.
    let remeasure: Timing
    /// measure(width:) of the drawing forms at a new width.
    let remeasureBound: Timing
    /// Mean height at 320 px (a sanity figure: the rows are not all one line).
    let meanHeight: Double
    /// Mean bytes per row of the compact and the drawing form.
    let compactBytes: Double, boundBytes: Double

    var coldCellsPerSecond: Double { 1e6 / cold.microsecondsPerItem }
    var remeasureCellsPerSecond: Double { 1e6 / remeasure.microsecondsPerItem }
    /// The list engine's cells: re-measuring must fit 1,000,000 rows in 150 ms on 2 cores.
    var hasTarget: Bool { name == "caption-text" || name == "filter-list" }
    var remeasureMet: Bool { remeasure.microsecondsPerItem < CellBenchResults.remeasureTarget }
}

struct CellBenchResults {
    var rowsPerCell = 0
    var widths = (first: 320.0, second: 480.0)
    var cells: [CellTiming] = []

    /// Re-measuring one caption-text or filter-list row, µs of one core (1,000,000 rows in
    /// < 150 ms on 2 cores, bookkeeping included).
    static let remeasureTarget = 0.25

    func table() -> String {
        var out = ["", "classic cells: \(grouped(rowsPerCell)) generated rows each; cold = ShapeCache.shared.removeAll(), then per row its compact "
                   + "form (metrics) or drawing form (bind) + height at \(fixed(widths.first, 0)) px; re-measure = height at "
                   + "\(fixed(widths.second, 0)) / \(fixed(widths.first, 0)) px; bytes per row of each form",
                   pad("  cell", 18) + pad("cold µs", 10, right: true) + pad("bind µs", 10, right: true)
                   + pad("re-measure µs", 15, right: true) + pad("bound µs", 10, right: true) + pad("compact B", 11, right: true)
                   + pad("bound B", 10, right: true) + pad("mean height", 13, right: true) + "   target (re-measure)"]
        for c in cells {
            out.append(pad("  " + c.name, 18) + pad(micros(c.cold.microsecondsPerItem), 10, right: true)
                       + pad(micros(c.coldBound.microsecondsPerItem), 10, right: true)
                       + pad(micros(c.remeasure.microsecondsPerItem), 15, right: true)
                       + pad(micros(c.remeasureBound.microsecondsPerItem), 10, right: true)
                       + pad(grouped(Int(c.compactBytes.rounded())), 11, right: true)
                       + pad(grouped(Int(c.boundBytes.rounded())), 10, right: true)
                       + pad(fixed(c.meanHeight, 1) + " px", 13, right: true)
                       + (c.hasTarget ? "   < \(fixed(Self.remeasureTarget, 2)) µs: \(verdict(c.remeasureMet))" : ""))
        }
        return out.joined(separator: "\n")
    }

    func json() -> JSONObject {
        var j = JSONObject()
        j.add("rows_per_cell", rowsPerCell)
        j.add("width", widths.first)
        j.add("new_width", widths.second)
        j.add("remeasure_us_target_max", Self.remeasureTarget)
        for c in cells {
            var k = JSONObject()
            k.add("cold_compact_us", (c.cold.microsecondsPerItem * 1e4).rounded() / 1e4)
            k.add("cold_bind_us", (c.coldBound.microsecondsPerItem * 1e4).rounded() / 1e4)
            k.add("remeasure_compact_us", (c.remeasure.microsecondsPerItem * 1e5).rounded() / 1e5)
            k.add("remeasure_bound_us", (c.remeasureBound.microsecondsPerItem * 1e5).rounded() / 1e5)
            if c.hasTarget { k.add("remeasure_met", c.remeasureMet) }
            k.add("compact_bytes_per_row", c.compactBytes.rounded())
            k.add("bound_bytes_per_row", c.boundBytes.rounded())
            k.add("mean_height", (c.meanHeight * 100).rounded() / 100)
            j.add(c.name, k)
        }
        return j
    }
}

/// Realistic rows for each classic cell, from the benchmark's English-like generator.
enum CellRows {
    static func generate(for template: String, count: Int, seed: UInt64) -> [RowData] {
        var rng = SplitMix64(seed: seed)
        let vocabulary = Vocabulary(rng: &rng)
        var generator = ParagraphGenerator(vocabulary: vocabulary)
        /// A short phrase (titles, captions): 1…`words` words, without the final full stop.
        func phrase(_ words: ClosedRange<Int>) -> String {
            var text = generator.paragraph(words: rng.int(words), rng: &rng)
            while let last = text.last, ".?!".contains(last) { text.removeLast() }
            return text
        }
        /// Body text: mostly short, some long, a few very long.
        func body() -> String {
            let roll = rng.unit()
            let words = roll < 0.6 ? rng.int(3...20) : roll < 0.95 ? rng.int(20...60) : rng.int(60...150)
            return generator.paragraph(words: words, rng: &rng)
        }
        let icons = ["niftywow", "amazingwhizbang", "woahsupercool"], logos = ["fruit", "cat", "bird"]
        var rows: [RowData] = []
        rows.reserveCapacity(count)
        for _ in 0..<count {
            var fields: [String: FieldValue] = [:]
            switch template {
            case "caption-text":
                fields = ["caption": .string(phrase(1...4)), "body": .string(body())]
            case "filter-list":
                fields = ["title": .string(phrase(1...5)), "subtitle": .string(rng.chance(0.2) ? "" : phrase(1...4)), "content": .string(body())]
            case "custom":
                fields = ["main": .string(phrase(1...3)), "sub": .string(rng.chance(0.3) ? String(rng.int(0...999)) + " unread" : phrase(1...5))]
            case "project", "project-growing":
                fields = ["icon": .string(rng.pick(icons)), "project": .string(phrase(1...2)), "description": .string(body()),
                          "logo1": .string(rng.pick(logos)), "logo2": .string(rng.pick(logos))]
            default:
                fields = ["text": .string(body())]
            }
            rows.append(RowData(fields))
        }
        return rows
    }
}

/// Runs the cell benchmark: every classic cell, `rows` rows each.
func runCellBench(rows count: Int, policy: TimingPolicy, checksum: inout Checksum) throws -> CellBenchResults {
    var results = CellBenchResults()
    results.rowsPerCell = count
    let (w1, w2) = results.widths
    for (index, template) in ClassicCells.all.enumerated() {
        progress("cells: \(template.name), \(grouped(count)) rows…")
        let rows = CellRows.generate(for: template.name, count: count, seed: 0x4365_6C6C_0000 &+ UInt64(index))
        let compiled = template.compile()
        // Untimed warm-up: open the fonts this cell uses.
        for row in rows.prefix(50) { checksum.add(try compiled.metrics(for: row).height(width: w1).bitPattern) }

        var forms: [CellMetrics] = []
        var heightSum = 0.0
        let cold = try timeSlowLoop(items: count, policy: policy, checksum: &checksum, setup: {
            forms = []
            forms.reserveCapacity(count)
            ShapeCache.shared.removeAll()
        }) { _ in
            var sum: UInt64 = 0
            var heights = 0.0
            for row in rows {
                let form = try compiled.metrics(for: row)
                let h = try form.height(width: w1)
                heights += h
                sum &+= h.bitPattern
                forms.append(form)
            }
            heightSum = heights
            return sum
        }
        var bound: [BoundCell] = []
        let coldBound = try timeSlowLoop(items: count, policy: policy, checksum: &checksum, setup: {
            bound = []
            bound.reserveCapacity(count)
            ShapeCache.shared.removeAll()
        }) { _ in
            var sum: UInt64 = 0
            for row in rows {
                let cell = try compiled.bind(row)
                sum &+= try cell.measure(width: w1).height.bitPattern
                bound.append(cell)
            }
            return sum
        }
        let compact = forms, cells = bound
        let remeasure = try timeFastLoop(items: count, policy: policy, checksum: &checksum) { pass in
            try remeasureCompact(compact, width: pass % 2 == 0 ? w2 : w1)
        }
        let remeasureBound = try timeFastLoop(items: count, policy: policy, checksum: &checksum) { pass in
            let width = pass % 2 == 0 ? w2 : w1
            var sum: UInt64 = 0
            for cell in cells { sum &+= try cell.measure(width: width).height.bitPattern }
            return sum
        }
        results.cells.append(CellTiming(name: template.name, rows: count, cold: cold, coldBound: coldBound, remeasure: remeasure,
                                        remeasureBound: remeasureBound, meanHeight: heightSum / Double(max(1, count)),
                                        compactBytes: Double(compact.reduce(0) { $0 + $1.byteCount }) / Double(max(1, count)),
                                        boundBytes: Double(cells.reduce(0) { $0 + $1.byteCount }) / Double(max(1, count))))
    }
    return results
}

/// Heights of every compact form at `width`, as a list re-measures its rows; a checksum.
@inline(never)
func remeasureCompact(_ forms: [CellMetrics], width: Double) throws(CellError) -> UInt64 {
    var sum: UInt64 = 0
    for form in forms { sum &+= try form.height(width: width).bitPattern }
    return sum
}
