// The list engine on a generated list of a million rows of the caption-text and filter-list
// cells: all exact heights cold (on every core), all heights again at a new width, y → row
// lookups, single-row inserts and deletes, memory per row.

import Dispatch
import Foundation
import RowKitCells
import RowKitList
import RowKitText

struct ListBenchResults {
    var rows = 0
    var coldSeconds = 0.0
    var newWidthSeconds = 0.0
    var lookupNanoseconds = 0.0
    var updateMicroseconds = 0.0
    var heightIndexBytesPerRow = 0.0
    var preparedBytesPerRow = 0.0
    var preparedRowsCached = 0
    var rssGrowthBytes: Int?
    var contentHeight = 0.0
    var checksum: UInt64 = 0

    func table() -> String {
        func row(_ label: String, _ value: String, _ target: String) -> String {
            "  " + label.padding(toLength: 58, withPad: " ", startingAt: 0) + String(repeating: " ", count: max(0, 12 - value.count)) + value + "   " + target
        }
        var lines = ["", "list engine: \(grouped(rows)) rows (caption-text and filter-list), width 320 → 480 px, \(ProcessInfo.processInfo.activeProcessorCount) cores"]
        lines.append(row("figure", "measured", "target"))
        lines.append(row("all exact heights, cold (prepare + measure, all cores)", String(format: "%.2f s", coldSeconds), "< 5 s"))
        lines.append(row("all heights again at a new width (from prepared rows)", String(format: "%.0f ms", newWidthSeconds * 1000), "< 150 ms"))
        lines.append(row("y → row lookup", String(format: "%.0f ns", lookupNanoseconds), "< 1 µs"))
        lines.append(row("random single-row insert or delete (batch update)", String(format: "%.2f µs", updateMicroseconds), "< 20 µs"))
        lines.append(row("heights and offsets per row", String(format: "%.1f B", heightIndexBytesPerRow), "≤ 16 B"))
        lines.append(row("prepared rows kept for width changes, per row", String(format: "%.0f B", preparedBytesPerRow), ""))
        if let rss = rssGrowthBytes {
            lines.append(row("process memory growth per row (everything)", String(format: "%.0f B", Double(rss) / Double(max(1, rows))), ""))
        }
        lines.append("  content height \(Int(contentHeight)) px; \(grouped(preparedRowsCached)) prepared rows cached; checksum \(checksum)")
        return lines.joined(separator: "\n")
    }

    var json: String {
        "\"list\":{\"rows\":\(rows),\"cold_s\":\(coldSeconds),\"new_width_ms\":\(newWidthSeconds * 1000),\"lookup_ns\":\(lookupNanoseconds),"
            + "\"update_us\":\(updateMicroseconds),\"height_bytes_per_row\":\(heightIndexBytesPerRow),"
            + "\"prepared_bytes_per_row\":\(preparedBytesPerRow),\"rss_growth_bytes\":\(rssGrowthBytes ?? -1)}"
    }
}

/// Runs the list benchmark on `rows` generated rows.
func runListBench(rows count: Int) throws -> ListBenchResults {
    var results = ListBenchResults()
    results.rows = count
    progress("list: generating \(grouped(count)) rows…")
    var rng = SplitMix64(seed: 0x4C69_7374_2031_4D21)
    let vocabulary = Vocabulary(rng: &rng)
    var generator = ParagraphGenerator(vocabulary: vocabulary)
    // A realistic length mix: most bodies short, some long, a few very long.
    func bodyWords() -> Int {
        let roll = rng.unit()
        return roll < 0.6 ? rng.int(2...12) : roll < 0.92 ? rng.int(12...40) : rng.int(40...120)
    }
    var rowsList: [ListRow] = []
    rowsList.reserveCapacity(count)
    for i in 0..<count {
        if i % 2 == 0 {
            let caption = generator.paragraph(words: rng.int(1...3), rng: &rng)
            let body = generator.paragraph(words: bodyWords(), rng: &rng)
            rowsList.append(ListRow(id: "r\(i)", template: "caption-text", data: ["caption": caption, "body": body]))
        } else {
            let title = generator.paragraph(words: rng.int(1...4), rng: &rng)
            let subtitle = rng.chance(0.2) ? "" : generator.paragraph(words: rng.int(1...6), rng: &rng)
            let content = generator.paragraph(words: bodyWords(), rng: &rng)
            rowsList.append(ListRow(id: "r\(i)", template: "filter-list", data: ["title": title, "subtitle": subtitle, "content": content]))
        }
    }
    let measurer = CellMeasurer(ClassicCells.all)
    ShapeCache.shared.removeAll()
    let rssBefore = residentBytes()
    let engine = try ListEngine(sections: [ListSection(id: "all", rows: rowsList)], measurer: measurer, width: 320,
                                cacheBudget: 16 << 30)
    rowsList = []

    progress("list: measuring every row cold…")
    let coldStart = ContinuousClock.now
    try engine.measureAll(chunkSize: 16_384)
    results.coldSeconds = seconds(since: coldStart)
    if let before = rssBefore, let after = residentBytes() { results.rssGrowthBytes = after - before }
    results.contentHeight = engine.contentHeight

    progress("list: new width…")
    var best = Double.infinity
    for width in [480.0, 320, 480] {
        let start = ContinuousClock.now
        try engine.setWidth(width)
        best = min(best, seconds(since: start))
    }
    results.newWidthSeconds = best
    results.checksum = UInt64(engine.contentHeight)

    progress("list: y → row lookups…")
    let height = engine.contentHeight
    let lookups = 1_000_000
    var sum = 0
    let lookupStart = ContinuousClock.now
    for _ in 0..<lookups { sum &+= engine.item(atY: rng.unit() * height) ?? 0 }
    results.lookupNanoseconds = seconds(since: lookupStart) / Double(lookups) * 1e9
    results.checksum &+= UInt64(truncatingIfNeeded: sum)

    progress("list: 10,000 single-row inserts and deletes…")
    engine.viewportHeight = 800
    engine.scroll(to: height / 2)
    let template = ListRow(id: "", template: "caption-text", data: ["caption": "New", "body": "A row inserted at a random place."])
    let updates = 10_000
    let updateStart = ContinuousClock.now
    for k in 0..<updates {
        let rows = engine.numberOfRows(inSection: 0)
        if k % 2 == 0 {
            var row = template
            row.id = "new\(k)"
            let path = RowKitList.IndexPath(section: 0, row: rng.int(0...rows))
            try engine.performBatchUpdates { $0.insert([row], at: path) }
        } else {
            let path = RowKitList.IndexPath(section: 0, row: rng.int(0...(rows - 1)))
            try engine.performBatchUpdates { $0.delete(at: path) }
        }
    }
    results.updateMicroseconds = seconds(since: updateStart) / Double(updates) * 1e6

    results.heightIndexBytesPerRow = Double(engine.heightIndexBytes) / Double(engine.itemCount)
    let cached = engine.preparedCacheBytes
    results.preparedBytesPerRow = Double(cached.bytes) / Double(max(1, cached.rows))
    results.preparedRowsCached = cached.rows
    return results
}

private func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
