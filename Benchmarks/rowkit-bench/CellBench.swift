// The classic cells (RowKitCells): for each, N rows of realistic generated data; cold
// bind + measure (shape cache emptied first) at 320 px, then re-measure every bound cell at a
// new width (480, 320, 480, … alternating, so no pass asks for the width measured last).

import RowKitCells
import RowKitText

/// One classic cell's figures.
struct CellTiming {
    let name: String
    let rows: Int
    /// Bind (prepare every text) + measure at 320 px, shape cache empty at the start.
    let cold: Timing
    /// measure(width:) on the bound cells at a new width.
    let remeasure: Timing
    /// Mean height at 320 px (a sanity figure: the rows are not all one line).
    let meanHeight: Double

    var coldCellsPerSecond: Double { 1e6 / cold.microsecondsPerItem }
    var remeasureCellsPerSecond: Double { 1e6 / remeasure.microsecondsPerItem }
}

struct CellBenchResults {
    var rowsPerCell = 0
    var widths = (first: 320.0, second: 480.0)
    var cells: [CellTiming] = []

    func table() -> String {
        var out = ["", "classic cells: \(grouped(rowsPerCell)) generated rows each; cold = ShapeCache.shared.removeAll(), then bind + "
                   + "measure at \(fixed(widths.first, 0)) px; re-measure = measure(width:) of the bound cells at \(fixed(widths.second, 0)) / \(fixed(widths.first, 0)) px"]
        out.append(pad("  cell", 20) + pad("cold µs", 12, right: true) + pad("cold cells/s", 16, right: true)
                   + pad("re-measure µs", 16, right: true) + pad("re-measure cells/s", 20, right: true) + pad("mean height", 14, right: true))
        for c in cells {
            out.append(pad("  " + c.name, 20) + pad(micros(c.cold.microsecondsPerItem), 12, right: true)
                       + pad(grouped(Int(c.coldCellsPerSecond.rounded())), 16, right: true)
                       + pad(micros(c.remeasure.microsecondsPerItem), 16, right: true)
                       + pad(grouped(Int(c.remeasureCellsPerSecond.rounded())), 20, right: true)
                       + pad(fixed(c.meanHeight, 1) + " px", 14, right: true))
        }
        return out.joined(separator: "\n")
    }

    func json() -> JSONObject {
        var j = JSONObject()
        j.add("rows_per_cell", rowsPerCell)
        j.add("width", widths.first)
        j.add("new_width", widths.second)
        for c in cells {
            var k = JSONObject()
            k.add("cold_us", (c.cold.microsecondsPerItem * 1e4).rounded() / 1e4)
            k.add("cold_cells_per_s", c.coldCellsPerSecond.rounded())
            k.add("remeasure_us", (c.remeasure.microsecondsPerItem * 1e5).rounded() / 1e5)
            k.add("remeasure_cells_per_s", c.remeasureCellsPerSecond.rounded())
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
        // Untimed warm-up: open the fonts this cell uses.
        for row in rows.prefix(50) { checksum.add(try template.bind(row).measure(width: w1).height.bitPattern) }

        var bound: [BoundCell] = []
        var heightSum = 0.0
        let cold = try timeSlowLoop(items: count, policy: policy, checksum: &checksum, setup: {
            bound = []
            bound.reserveCapacity(count)
            ShapeCache.shared.removeAll()
        }) { _ in
            var sum: UInt64 = 0
            var heights = 0.0
            for row in rows {
                let cell = try template.bind(row)
                let h = try cell.measure(width: w1).height
                heights += h
                sum &+= h.bitPattern
                bound.append(cell)
            }
            heightSum = heights
            return sum
        }
        let cells = bound
        let remeasure = try timeFastLoop(items: count, policy: policy, checksum: &checksum) { pass in
            let width = pass % 2 == 0 ? w2 : w1
            var sum: UInt64 = 0
            for cell in cells { sum &+= try cell.measure(width: width).height.bitPattern }
            return sum
        }
        results.cells.append(CellTiming(name: template.name, rows: count, cold: cold, remeasure: remeasure,
                                        meanHeight: heightSum / Double(max(1, count))))
    }
    return results
}
