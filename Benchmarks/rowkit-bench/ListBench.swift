// The list engine on a generated list of a million rows of the caption-text and filter-list
// cells, pulled from a data source as an app would give them: all exact heights cold (on every
// core), every row again at a new width, y → row lookups, single-row inserts and deletes,
// scrollTo exactness among unmeasured rows, memory per row. Writes its figures as JSON under
// Benchmarks/results/ (or $ROWKIT_BENCH_RESULTS) when that folder exists. With
// ROWKIT_LIST_QUICK=1 only the structure is timed (lookups and updates on unmeasured rows),
// for iterating on the engine without minutes of measuring.

import Dispatch
import Foundation
import RowKitCells
import RowKitList
import RowKitListCells
import RowKitText
import Synchronization

struct ListBenchResults {
    var rows = 0
    var cores = ProcessInfo.processInfo.activeProcessorCount
    var loadBefore: Double?
    var loadAfter: Double?
    var coldSeconds = 0.0
    var newWidthMilliseconds = 0.0
    var newWidthAllExact = false
    var nonBlockingReturnMilliseconds = 0.0
    var nonBlockingDoneMilliseconds = 0.0
    var lookupNanoseconds = 0.0
    var updateMicroseconds = 0.0
    var scrollToErrorPixels: [String: Double] = [:]
    var appDataBytesPerRow: Double?
    var emptyEngineBytesPerRow: Double?
    var rssGrowthBytesPerRow: Double?
    var initStringIDsMilliseconds = 0.0
    /// CPU time (user + system, all threads) of the cold pass and of the best width change:
    /// less sensitive than wall-clock time to other processes on shared cores.
    var coldCPUSeconds = 0.0
    var newWidthCPUMilliseconds = 0.0
    /// A width change to 240 px, below the filter-list's fixed column (250 px with its insets):
    /// nearly every row is measured (only rows whose texts fit side by side in 240 px keep their
    /// height), where 320 ↔ 480 keeps every row whose height cannot change.
    var narrowWidthMilliseconds = 0.0
    var narrowWidthCPUMilliseconds = 0.0
    var initIntIDsMilliseconds = 0.0
    var bookkeepingBytesPerRow = 0.0
    var measuringFormBytesPerRow = 0.0
    var heightIndexBytesPerRow = 0.0
    var contentHeight = 0.0
    var checksum: UInt64 = 0

    static let coldTarget = 8.0, widthTarget = 150.0, lookupTarget = 1_000.0, updateTarget = 20.0, memoryTarget = 1_000.0

    func table() -> String {
        func row(_ label: String, _ value: String, _ target: String) -> String {
            "  " + label.padding(toLength: 62, withPad: " ", startingAt: 0) + String(repeating: " ", count: max(0, 12 - value.count)) + value + "   " + target
        }
        func load(_ l: Double?) -> String { l.map { String(format: "%.2f", $0) } ?? "?" }
        var lines = ["", "list engine: \(grouped(rows)) rows (caption-text and filter-list) pulled from a data source, width 320 → 480 px, "
                     + "\(cores) cores, load \(load(loadBefore)) → \(load(loadAfter))"]
        lines.append(row("figure", "measured", "target"))
        lines.append(row("all exact heights, cold (data pulled, forms made, all cores)", String(format: "%.2f s", coldSeconds), "< 8 s"))
        lines.append(row("  CPU time of the cold pass (both cores)", String(format: "%.2f s", coldCPUSeconds), ""))
        lines.append(row("every row again at a new width (from measuring forms)", String(format: "%.0f ms", newWidthMilliseconds),
                         "< 150 ms" + (newWidthAllExact ? ", all exact" : ", NOT ALL EXACT")))
        lines.append(row("  CPU time of that width change (both cores)", String(format: "%.0f ms", newWidthCPUMilliseconds), ""))
        lines.append(row("  a width change to 240 px (nearly every row measured): wall / CPU",
                         String(format: "%.0f / %.0f ms", narrowWidthMilliseconds, narrowWidthCPUMilliseconds), ""))
        lines.append(row("  non-blocking width change: returns (visible rows measured)", String(format: "%.2f ms", nonBlockingReturnMilliseconds), ""))
        lines.append(row("  non-blocking width change: every row exact (background)", String(format: "%.0f ms", nonBlockingDoneMilliseconds), ""))
        lines.append(row("engine from \(grouped(rows)) ids: string ids", String(format: "%.0f ms", initStringIDsMilliseconds), ""))
        lines.append(row("engine from \(grouped(rows)) ids: integer ids (the window's)", String(format: "%.0f ms", initIntIDsMilliseconds), ""))
        lines.append(row("y → row lookup", String(format: "%.0f ns", lookupNanoseconds), "< 1 µs"))
        lines.append(row("random single-row insert or delete (batch update)", String(format: "%.2f µs", updateMicroseconds), "< 20 µs"))
        for (position, error) in scrollToErrorPixels.sorted(by: { $0.key < $1.key }) {
            lines.append(row("scrollTo(middle row, .\(position)) among unmeasured rows: off by", String(format: "%.2f px", error), "0"))
        }
        if let growth = rssGrowthBytesPerRow {
            lines.append(row("process memory growth per row (engine + every measuring form)", String(format: "%.0f B", growth), "≤ 1,000 B"))
        }
        lines.append(row("  engine bookkeeping per row (id, form ref, flags, height, id set)", String(format: "%.1f B", bookkeepingBytesPerRow), ""))
        lines.append(row("  heights and offsets per row", String(format: "%.1f B", heightIndexBytesPerRow), "≤ 16 B"))
        lines.append(row("  measuring form per row (the measurer's count)", String(format: "%.0f B", measuringFormBytesPerRow), ""))
        if let empty = emptyEngineBytesPerRow {
            lines.append(row("  engine with ids only, before measuring (RSS)", String(format: "%.0f B", empty), ""))
        }
        if let app = appDataBytesPerRow {
            lines.append(row("  the app's own row data (RSS, not the engine's)", String(format: "%.0f B", app), ""))
        }
        lines.append("  content height \(Int(contentHeight)) px; checksum \(checksum)")
        return lines.joined(separator: "\n")
    }

    var json: String {
        func number(_ x: Double?) -> String { x.map { $0.isFinite ? String($0) : "null" } ?? "null" }
        let scroll = scrollToErrorPixels.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(number($0.value))" }.joined(separator: ",")
        return "{\"list\":{\"rows\":\(rows),\"cores\":\(cores),\"load_before\":\(number(loadBefore)),\"load_after\":\(number(loadAfter)),"
            + "\"cold_s\":\(number(coldSeconds)),\"cold_cpu_s\":\(number(coldCPUSeconds)),\"new_width_cpu_ms\":\(number(newWidthCPUMilliseconds)),"
            + "\"new_width_ms\":\(number(newWidthMilliseconds)),\"new_width_all_exact\":\(newWidthAllExact),"
            + "\"narrow_width_ms\":\(number(narrowWidthMilliseconds)),\"narrow_width_cpu_ms\":\(number(narrowWidthCPUMilliseconds)),"
            + "\"nonblocking_width_return_ms\":\(number(nonBlockingReturnMilliseconds)),\"nonblocking_width_done_ms\":\(number(nonBlockingDoneMilliseconds)),"
            + "\"init_string_ids_ms\":\(number(initStringIDsMilliseconds)),\"init_int_ids_ms\":\(number(initIntIDsMilliseconds)),"
            + "\"lookup_ns\":\(number(lookupNanoseconds)),\"update_us\":\(number(updateMicroseconds)),\"scroll_to_error_px\":{\(scroll)},"
            + "\"rss_growth_bytes_per_row\":\(number(rssGrowthBytesPerRow)),\"bookkeeping_bytes_per_row\":\(number(bookkeepingBytesPerRow)),"
            + "\"height_bytes_per_row\":\(number(heightIndexBytesPerRow)),\"measuring_form_bytes_per_row\":\(number(measuringFormBytesPerRow)),"
            + "\"empty_engine_bytes_per_row\":\(number(emptyEngineBytesPerRow)),\"app_data_bytes_per_row\":\(number(appDataBytesPerRow)),"
            + "\"targets\":{\"cold_s\":\(Self.coldTarget),\"new_width_ms\":\(Self.widthTarget),\"lookup_ns\":\(Self.lookupTarget),"
            + "\"update_us\":\(Self.updateTarget),\"rss_growth_bytes_per_row\":\(Self.memoryTarget)}}}"
    }

    /// Writes the JSON under the results folder, if there is one; returns its path.
    func save() -> String? {
        let folder = ProcessInfo.processInfo.environment["ROWKIT_BENCH_RESULTS"] ?? "Benchmarks/results"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let path = "\(folder)/list-\(rows)-\(formatter.string(from: Date())).json"
        do { try (json + "\n").write(toFile: path, atomically: true, encoding: .utf8) } catch { return nil }
        return path
    }
}

/// The benchmark's app: rows generated once and kept as an app keeps its model (an array), found
/// by the id the engine asks for ("r<index>" names the row's place; rows inserted later live in a
/// small table). Safe to read from every core at once.
final class BenchRowStore: ListDataSource, Sendable {
    let rows: [ListRow]
    private let added = Mutex<[String: ListRow]>([:])

    init(rows: [ListRow]) { self.rows = rows }

    struct Missing: Error { let id: String }

    func add(_ row: ListRow) { added.withLock { $0[row.id] = row } }

    func row(for id: String, kind: ListItemKind, at indexPath: ListIndexPath) throws -> ListRow {
        if id.first == "r", let index = Int(id.dropFirst()), index >= 0, index < rows.count { return rows[index] }
        if let row = added.withLock({ $0[id] }) { return row }
        throw Missing(id: id)
    }
}

/// Rows with integer ids and a fixed height, to time the engine's structure alone.
struct IntRow: Identifiable, Sendable { let id: Int }
struct IntRowSource: ListDataSource {
    func row(for id: Int, kind: ListItemKind, at indexPath: ListIndexPath) throws -> IntRow { IntRow(id: id) }
}
final class FixedHeight: Sendable {}
struct IntRowMeasurer: RowMeasurer {
    static let form = FixedHeight()
    func measuringForm(of row: IntRow) -> FixedHeight { Self.form }
    func height(of form: FixedHeight, width: Double) -> Double { 44 }
    func drawingForm(of row: IntRow, measuring: FixedHeight?) -> Int { row.id }
}

/// Runs the list benchmark on `rows` generated rows.
func runListBench(rows count: Int) throws -> ListBenchResults {
    var results = ListBenchResults()
    results.rows = count
    if ProcessInfo.processInfo.environment["ROWKIT_LIST_INIT_ONLY"] != nil {
        // For profiling the engine's construction alone.
        let intIDs = Array(0..<count)
        for _ in 0..<5 {
            let start = ContinuousClock.now
            let engine = try ListEngine(sections: [ListSection(rows: intIDs)], dataSource: IntRowSource(), measurer: IntRowMeasurer(), width: 320)
            progress("list: engine from \(grouped(count)) integer ids: \(String(format: "%.1f", seconds(since: start) * 1000)) ms (\(engine.itemCount))")
        }
        return results
    }
    if let kind = ProcessInfo.processInfo.environment["ROWKIT_LIST_BATCH"] {
        try timeBatchUpdate(kind, rows: count)
        return results
    }
    results.loadBefore = loadAverage()
    progress("list: generating \(grouped(count)) rows…")
    let rssStart = residentBytes()
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
    if let form = ProcessInfo.processInfo.environment["ROWKIT_LIST_FORM_COLD"] {
        // The text side of the cold cost alone, on one core: each row's measuring form
        // (`metrics`) or its drawing form (`bind`), from a cold shape cache.
        let layouts = Dictionary(uniqueKeysWithValues: ClassicCells.all.map { ($0.name, $0.compile()) })
        ShapeCache.shared.removeAll()
        let start = ContinuousClock.now
        var sum = 0.0
        for row in rowsList {
            let layout = layouts[row.template]!
            sum += form == "bind" ? try layout.bind(row.data).measure(width: 320).height : try layout.metrics(for: row.data).height(width: 320)
        }
        progress("list: \(form) cold, one core: \(String(format: "%.2f", seconds(since: start) / Double(count) * 1e6)) µs per row (\(sum))")
        return results
    }
    let store = BenchRowStore(rows: rowsList)
    rowsList = []
    let perRow = { (bytes: Int) in Double(bytes) / Double(max(1, count)) }
    if let start = rssStart, let now = residentBytes() { results.appDataBytesPerRow = perRow(now - start) }

    let measurer = CellMeasurer(ClassicCells.all)
    ShapeCache.shared.removeAll()
    let rssBefore = residentBytes()
    let idList = (0..<count).map { "r\($0)" }
    let initStart = ContinuousClock.now
    let engine = try ListEngine(sections: [ListSection(rows: idList)], dataSource: store, measurer: measurer, width: 320)
    results.initStringIDsMilliseconds = seconds(since: initStart) * 1000
    do {
        // The window's case: integer ids (row numbers), as `rowkit view --sample` gives them.
        let intIDs = Array(0..<count)
        let start = ContinuousClock.now
        let intEngine = try ListEngine(sections: [ListSection(rows: intIDs)], dataSource: IntRowSource(), measurer: IntRowMeasurer(), width: 320)
        results.initIntIDsMilliseconds = seconds(since: start) * 1000
        results.checksum &+= UInt64(intEngine.itemCount)
    }
    engine.viewportHeight = 844
    if let before = rssBefore, let now = residentBytes() { results.emptyEngineBytesPerRow = perRow(now - before) }

    let quick = ProcessInfo.processInfo.environment["ROWKIT_LIST_QUICK"] != nil
    if quick {
        engine.scroll(to: engine.contentHeight / 2)
        try timeLookupsAndUpdates(engine, store: store, rng: &rng, into: &results)
        return results
    }

    // scrollTo among unmeasured rows lands exactly (before anything else is measured).
    let target = ListIndexPath(section: 0, row: count / 2)
    for position in [ScrollPosition.middle, .bottom] {
        try engine.scrollTo(target, position: position)
        let item = try require(try engine.visibleItems().first { $0.indexPath == target })
        let screenY = item.y - engine.contentOffset
        let wanted = position == .middle ? (844 - item.height) / 2 : 844 - item.height
        results.scrollToErrorPixels[position.rawValue] = abs(screenY - wanted)
    }

    progress("list: measuring every row cold…")
    let coldStart = ContinuousClock.now
    let coldCPU = cpuSeconds()
    try engine.measureAll(chunkSize: 16_384)
    results.coldSeconds = seconds(since: coldStart)
    results.coldCPUSeconds = cpuSeconds() - coldCPU
    if let before = rssBefore, let after = residentBytes() { results.rssGrowthBytesPerRow = perRow(after - before) }
    if ProcessInfo.processInfo.environment["ROWKIT_LIST_TRIM"] != nil, let before = rssBefore {
        // Diagnostics: how much of the growth is heap the allocator holds free (the cold pass's
        // temporaries between the forms) and gives back when asked.
        let held = residentBytes() ?? 0
        // malloc_trim is in glibc's malloc.h, which Glibc's module does not import.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        let trimmed = residentBytes() ?? 0
        progress("list: memory growth per row \(String(format: "%.0f", perRow(held - before))) B; after malloc_trim "
                 + "\(String(format: "%.0f", perRow(trimmed - before))) B (\(String(format: "%.1f", Double(held - trimmed) / 1e6)) MB given back)")
    }
    results.contentHeight = engine.contentHeight
    results.bookkeepingBytesPerRow = engine.bookkeepingBytesPerItem
    results.heightIndexBytesPerRow = Double(engine.heightIndexBytes) / Double(max(1, engine.itemCount))
    let forms = engine.measuringFormBytes
    results.measuringFormBytesPerRow = Double(forms.bytes) / Double(max(1, forms.items))

    progress("list: new width…")
    var best = Double.infinity
    var allExact = true
    for width in [480.0, 320, 480] {
        let start = ContinuousClock.now
        let cpu = cpuSeconds()
        try engine.setWidthAndWait(width)
        let elapsed = seconds(since: start)
        if elapsed < best { results.newWidthCPUMilliseconds = (cpuSeconds() - cpu) * 1000 }
        best = min(best, elapsed)
        allExact = allExact && engine.unmeasuredCount == 0
    }
    results.newWidthMilliseconds = best * 1000
    do {
        let start = ContinuousClock.now
        let cpu = cpuSeconds()
        try engine.setWidthAndWait(240)
        results.narrowWidthMilliseconds = seconds(since: start) * 1000
        results.narrowWidthCPUMilliseconds = (cpuSeconds() - cpu) * 1000
        allExact = allExact && engine.unmeasuredCount == 0
        try engine.setWidthAndWait(480)
    }
    if let loops = ProcessInfo.processInfo.environment["ROWKIT_LIST_WIDTH_LOOPS"].flatMap(Int.init) {
        // For profiling width changes alone (and a steadier figure than the best of three).
        let start = ContinuousClock.now
        let cpu = cpuSeconds()
        // ROWKIT_LIST_LOOP_WIDTHS="240,480" profiles the changes where nearly every row is measured.
        let widths = (ProcessInfo.processInfo.environment["ROWKIT_LIST_LOOP_WIDTHS"] ?? "320,480").split(separator: ",").compactMap { Double($0) }
        let loopWidths = widths.isEmpty ? [320, 480] : widths
        for k in 0..<loops { try engine.setWidthAndWait(loopWidths[k % loopWidths.count]) }
        progress("list: \(loops) more width changes: mean \(String(format: "%.1f", seconds(since: start) * 1000 / Double(max(1, loops)))) ms wall, "
                 + "\(String(format: "%.1f", (cpuSeconds() - cpu) * 1000 / Double(max(1, loops)))) CPU-ms")
    }
    results.newWidthAllExact = allExact
    // The window's way: returns once the visible rows are measured; the rest in the background.
    let done = DispatchSemaphore(value: 0)
    let start = ContinuousClock.now
    try engine.setWidth(320) { _ in done.signal() }
    results.nonBlockingReturnMilliseconds = seconds(since: start) * 1000
    done.wait()
    results.nonBlockingDoneMilliseconds = seconds(since: start) * 1000
    results.newWidthAllExact = results.newWidthAllExact && engine.unmeasuredCount == 0
    results.checksum = UInt64(engine.contentHeight)

    engine.scroll(to: engine.contentHeight / 2)
    try timeLookupsAndUpdates(engine, store: store, rng: &rng, into: &results)
    results.loadAfter = loadAverage()
    if let path = results.save() { progress("list: results in \(path)") }
    return results
}

/// y → row lookups and single-row inserts and deletes, timed.
private func timeLookupsAndUpdates(_ engine: ListEngine<CellMeasurer>, store: BenchRowStore, rng: inout SplitMix64,
                                   into results: inout ListBenchResults) throws {
    progress("list: y → row lookups…")
    let height = engine.contentHeight
    let lookups = 1_000_000
    var sum = 0
    let lookupStart = ContinuousClock.now
    for _ in 0..<lookups { sum &+= engine.item(atY: rng.unit() * height) ?? 0 }
    results.lookupNanoseconds = seconds(since: lookupStart) / Double(lookups) * 1e9
    results.checksum &+= UInt64(truncatingIfNeeded: sum)

    progress("list: 10,000 single-row inserts and deletes…")
    let updates = 10_000
    for k in stride(from: 0, to: updates, by: 2) {
        store.add(ListRow(id: "new\(k)", template: "caption-text", data: ["caption": "New", "body": "A row inserted at a random place."]))
    }
    let updateStart = ContinuousClock.now
    for k in 0..<updates {
        let rows = try engine.numberOfRows(inSection: 0)
        if k % 2 == 0 {
            let path = ListIndexPath(section: 0, row: rng.int(0...rows))
            try engine.performBatchUpdates { $0.insert(ids: ["new\(k)"], at: path) }
        } else {
            let path = ListIndexPath(section: 0, row: rng.int(0...(rows - 1)))
            try engine.performBatchUpdates { $0.delete(at: path) }
        }
    }
    results.updateMicroseconds = seconds(since: updateStart) / Double(updates) * 1e6
}

/// ROWKIT_LIST_BATCH=<kind>: one batch update of 100,000 rows (for `count` = 1,000,000) on a
/// list of integer ids in three sections (45 %, 10 %, 45 % of the rows), the viewport a quarter
/// down, the id set built: `delete` (the middle section's rows, one `delete(at:)` each),
/// `scatter` (every 10th row), `section` (the middle section), `movesection` (the middle
/// section moved to the top), `move` (every 4th row of the first section to the top of the
/// last), `reload` (every 10th row), `rename` (every 1,000th row reloaded with a new id),
/// `mixed` (every 20th row deleted, every 40th moved, 25,000 rows inserted), `none` (no batch:
/// the setup alone). For callgrind: `--toggle-collect='*runBatchForProfile*tKF'`.
private func timeBatchUpdate(_ kind: String, rows count: Int) throws {
    let cut1 = count * 45 / 100, cut2 = count * 55 / 100
    let sections = [ListSection(rows: Array(0..<cut1)), ListSection(rows: Array(cut1..<cut2)), ListSection(rows: Array(cut2..<count))]
    let engine = try ListEngine(sections: sections, dataSource: IntRowSource(), measurer: IntRowMeasurer(), width: 320)
    engine.viewportHeight = 844
    engine.scroll(to: engine.contentHeight / 4 + 0.5)
    _ = engine.contains(id: 0)   // builds the id set
    let tenth = count / 10
    func rowPath(_ flat: Int) -> ListIndexPath {
        flat < cut1 ? ListIndexPath(section: 0, row: flat) : flat < cut2 ? ListIndexPath(section: 1, row: flat - cut1) : ListIndexPath(section: 2, row: flat - cut2)
    }
    let fill: (inout ListBatch<IntRow>) -> Void
    switch kind {
    case "delete": fill = { batch in for r in 0..<(cut2 - cut1) { batch.delete(at: ListIndexPath(section: 1, row: r)) } }
    case "scatter": fill = { batch in for flat in stride(from: 0, to: count, by: 10) { batch.delete(at: rowPath(flat)) } }
    case "section": fill = { $0.deleteSection(at: 1) }
    case "movesection": fill = { $0.moveSection(from: 1, to: 0) }
    case "move":
        fill = { batch in for k in 0..<min(tenth, cut1 / 4) { batch.move(from: ListIndexPath(section: 0, row: 4 * k), to: ListIndexPath(section: 2, row: k)) } }
    case "reload": fill = { batch in for flat in stride(from: 0, to: count, by: 10) { batch.reload(at: rowPath(flat)) } }
    case "rename":
        fill = { batch in for flat in stride(from: 0, to: count, by: 1_000) { batch.reload(at: rowPath(flat), with: IntRow(id: count + flat)) } }
    case "mixed":
        fill = { batch in
            for flat in stride(from: 0, to: cut1, by: 20) { batch.delete(at: rowPath(flat)) }
            for (k, flat) in stride(from: 5, to: cut1, by: 40).enumerated() { batch.move(from: rowPath(flat), to: ListIndexPath(section: 2, row: 2 * k)) }
            batch.insert(ids: Array(count..<(count + tenth / 4)), at: ListIndexPath(section: 1, row: 7))
        }
    case "none": fill = { _ in }
    default: throw BenchFailure(what: "a batch kind (delete, scatter, section, movesection, move, reload, rename, mixed, none), not \(kind)")
    }
    var batch = ListBatch<IntRow>()
    fill(&batch)
    let before = engine.itemCount
    let start = ContinuousClock.now
    let cpu = cpuSeconds()
    try runBatchForProfile(engine, batch)
    progress("list: batch \(kind) on \(grouped(before)) rows: \(String(format: "%.1f", seconds(since: start) * 1000)) ms wall, "
             + "\(String(format: "%.1f", (cpuSeconds() - cpu) * 1000)) CPU-ms; \(grouped(engine.itemCount)) rows after, offset \(engine.contentOffset)")
}

/// The batch alone, under a name callgrind can toggle on.
@inline(never)
private func runBatchForProfile(_ engine: ListEngine<IntRowMeasurer>, _ batch: ListBatch<IntRow>) throws {
    guard !batch.isEmpty else { return }
    try engine.performBatchUpdates { $0 = batch }
}

/// Unwraps a value the benchmark needs, or stops with a message.
private func require<T>(_ value: T?, _ what: String = "a visible row") throws -> T {
    guard let value else { throw BenchFailure(what: what) }
    return value
}

private struct BenchFailure: Error, CustomStringConvertible {
    let what: String
    var description: String { "list benchmark: missing \(what)" }
}

/// User + system CPU time of the whole process so far.
private func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
}

private func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// The word caches of the list engine's measuring threads (the caller, this main thread, and
/// the shared pool's helpers — the same threads measured every chunk of the cold pass): their
/// lookups' misses, summed, are the cold pass's (threads outside the pool, if any, not counted).
func printMeasuringThreadsWordCaches() {
    let pool = WorkerThreads.shared
    let seen = Mutex<[Int: (hits: Int, misses: Int, rotations: Int, bytes: Int)]>([:])
    pool.run { worker in
        let words = PrepareScratch.wordCacheStatistics
        seen.withLock { $0[worker] = (words.hits, words.misses, words.rotations, words.bytes) }
        guard worker == 0 else { return }
        // Every helper reports once (the job stays open while the caller waits).
        let deadline = ContinuousClock.now + .seconds(5)
        while seen.withLock({ $0.count }) < pool.threadCount && ContinuousClock.now < deadline { usleep(1_000) }
    }
    let all = seen.withLock { $0 }.sorted { $0.key < $1.key }
    let parts = all.map { "thread \($0.key): \(grouped($0.value.misses)) misses of \(grouped($0.value.hits + $0.value.misses)), "
                          + "\($0.value.rotations) rotations, \($0.value.bytes / 1024) KiB" }
    let misses = all.reduce(0) { $0 + $1.value.misses }
    print("measuring threads' word caches: \(grouped(misses)) misses in all; " + parts.joined(separator: "; "))
}
