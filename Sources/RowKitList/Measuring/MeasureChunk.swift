import Dispatch
import Foundation

/// A run of consecutive items to measure outside the lock, as they were when taken: the item
/// blocks themselves (shared, not copied), the version and width generation, and for items
/// without a measuring form how to get their data.
struct MeasureChunk<Measurer: RowMeasurer>: Sendable {
    typealias Element = ItemRecord

    /// How to get the data of the items without a form (none when `formsOnly`), in parallel
    /// columns rather than a value per item: the engine's generic code runs unspecialized, and
    /// making, storing and reading an optional generic value per item went through runtime
    /// metadata and value witnesses — most of the time the lock was held for a cold chunk.
    struct Pulls: Sendable {
        /// Per item of the chunk: its index in the columns below, or −1 (nothing to pull).
        var slot: [Int32] = []
        var ids: [Measurer.Row.ID] = []
        /// The rows the engine keeps (empty when it keeps none).
        var kept: [Measurer.Row?] = []
        var kinds: [ListItemKind] = []
        var paths: [ListIndexPath] = []
    }

    /// Flat index of the first item to measure.
    var start: Int
    /// Items to measure: `start..<start + count`.
    var count: Int
    /// The blocks holding them (shared with the list); the first item of the first block is at
    /// `start - skip`.
    let snapshot: BlockSnapshot
    var skip: Int
    var version: Int
    var generation: UInt32
    var width: Double
    /// Items measured at this generation (0: none) whose form's height is constant from a
    /// width at most `keepFloor` (the smaller of its width and `width`) keep their height:
    /// measuring them again would give it again.
    var keepGeneration: UInt32
    var keepFloor: Double
    /// Only items with a measuring form are measured (a width change never asks for data).
    var formsOnly: Bool
    /// How to get the data of the items without a form (empty when `formsOnly`).
    var pulls: Pulls
    /// Items of the chunk not measured at its generation when it was taken (with a form, if
    /// `formsOnly`); nil when not counted.
    var pendingCount: Int? = nil

    /// Whether `record` keeps its height at this chunk's width without being measured.
    @inline(__always)
    func keeps(_ record: UnsafePointer<ItemRecord>) -> Bool {
        record.pointee.generation == keepGeneration && Double(record.pointee.constantFrom) <= keepFloor
    }

    /// The serial of every item of the chunk when it was taken (read before the snapshot is
    /// let go of; only results applied to a list that changed meanwhile need them).
    func serials() -> [UInt32] {
        var serials: [UInt32] = []
        serials.reserveCapacity(count)
        var i = skip
        for block in snapshot.blocks {
            block.withUnsafeBufferPointer { block in
                while i < block.count && serials.count < count {
                    serials.append(block[i].serial)
                    i += 1
                }
            }
            i = max(0, i - block.count)
        }
        return serials
    }
}

/// The item blocks a chunk measures, shared with the list (no copying). Read outside the lock
/// while measuring; let go of with the lock held when the results are applied, so that writes
/// made after it (in place, since nothing else shares the blocks any more) are ordered after
/// every read by the lock.
final class BlockSnapshot: @unchecked Sendable {   // `blocks` is read by the measuring threads, written only by `release` under the lock.
    private(set) var blocks: [[ItemRecord]]
    init(_ blocks: [[ItemRecord]]) { self.blocks = blocks }
    func release() { blocks = [] }
}

/// A chunk's measured heights: written by the workers, rewritten in place when applied (applied
/// once). A buffer of its own rather than an array: the results are held by the pipeline and
/// by the closure applying them at once, and an array's copy on write copied every chunk's
/// heights before rewriting them (1% of a width change's instructions).
final class MeasuredHeights: @unchecked Sendable {   // Each index is written by one worker, then read by the one applying thread.
    let values: UnsafeMutableBufferPointer<Double>

    /// `count` heights, all NaN (nothing measured).
    init(count: Int) {
        values = .allocate(capacity: count)
        values.initialize(repeating: .nan)
    }

    deinit { values.deallocate() }

    subscript(k: Int) -> Double { values[k] }
}

/// What measuring a chunk produced, per item of the chunk.
struct MeasureResults: @unchecked Sendable {   // `forms` holds `RowMeasurer.Measuring`s, which are Sendable.
    /// Heights at the chunk's width (never negative); NaN where nothing was measured;
    /// ``ItemStore/keepMarker`` where the item keeps its height (``MeasureChunk/keeps(_:)``).
    let heights: MeasuredHeights
    /// Measuring forms made for items that had none (empty when the chunk was forms-only),
    /// and the width from which on each one's height is constant.
    var forms: [AnyObject?]
    var constantWidths: [Float]
    /// The first failure in chunk order (the chunk's other items are measured all the same:
    /// one row that cannot be measured must not leave the rows after it at their estimates).
    var failure: ListError?
    /// The serials of every item that failed, in no particular order.
    var failedSerials: [UInt32] = []
}

extension ListState {
    /// A chunk of up to about `limit` items to measure, from the measuring cursor on (wrapping
    /// around), or nil when no item needs measuring (with a form, if `formsOnly`).
    mutating func takeChunk(formsOnly: Bool, limit: Int) -> MeasureChunk<Measurer>? {
        let limit = max(1, limit)
        guard let (blockStart, blocks, pendings) = items.work(from: cursor, formsOnly: formsOnly, limit: limit) else { return nil }
        let generation = self.generation
        func pending(_ item: ItemRecord) -> Bool { item.generation != generation && (!formsOnly || item.hasForm) }
        /// Pending items of `block` from `i` on, up to `limit - found`; returns (found, end index).
        func scan(_ block: [ItemRecord], from i: Int, found: Int) -> (Int, Int) {
            var found = found, i = i
            block.withUnsafeBufferPointer { block in
                while i < block.count && found < limit {
                    if pending(block[i]) { found += 1 }
                    i += 1
                }
            }
            return (found, i)
        }
        // Start at the cursor when it lies inside the first block and work remains after it.
        var begin = blockStart
        if cursor > blockStart && cursor < blockStart + blocks[0].count && blocks[0][(cursor - blockStart)...].contains(where: pending) {
            begin = cursor
        }
        // Whole blocks are counted from their pending counts; only the first block (when the
        // chunk starts inside it) and the one where the limit is reached are scanned item by item.
        var end = begin, found = 0
        var b = 0
        if begin > blockStart {
            let (f, i) = scan(blocks[0], from: begin - blockStart, found: 0)
            found = f
            end = blockStart + i
            b = 1
        }
        while b < blocks.count && found < limit {
            if found + pendings[b] < limit {
                found += pendings[b]
                end += blocks[b].count
            } else {
                let (f, i) = scan(blocks[b], from: 0, found: found)
                found = f
                end += i
            }
            b += 1
        }
        cursor = end >= items.count ? 0 : end
        // The block counts promise work here; finding none would mean they are wrong: never
        // spin on it.
        guard found > 0 else { return nil }
        var taken = chunk(blocks: blocks, blockStart: blockStart, range: begin..<end, formsOnly: formsOnly)
        taken.pendingCount = found
        return taken
    }

    /// A chunk of the items in `range` that are not measured yet, or nil if all are (items
    /// with an id in `failed` count as measured: they could not be, earlier in the same call).
    mutating func takeChunk(covering range: Range<Int>, failed: Set<UInt32> = []) -> MeasureChunk<Measurer>? {
        guard !range.isEmpty else { return nil }
        var elements: [ItemRecord] = []
        elements.reserveCapacity(range.count)
        var any = false
        items.forEach(in: range) { _, item in
            elements.append(item)
            if item.generation != generation && (failed.isEmpty || !failed.contains(item.serial)) { any = true }
        }
        guard any else { return nil }
        return chunk(blocks: [elements], blockStart: range.lowerBound, range: range, formsOnly: false)
    }

    private mutating func chunk(blocks: [[ItemRecord]], blockStart: Int, range: Range<Int>, formsOnly: Bool) -> MeasureChunk<Measurer> {
        var pulls = MeasureChunk<Measurer>.Pulls()
        if !formsOnly {
            pulls.slot = Array(repeating: -1, count: range.count)
            var b = 0, i = range.lowerBound - blockStart
            var needs: [Int] = []
            for k in 0..<range.count {
                while i >= blocks[b].count { i -= blocks[b].count; b += 1 }
                let item = blocks[b][i]
                if item.generation != generation && !item.hasForm {
                    pulls.slot[k] = Int32(needs.count)
                    needs.append(k)
                    pulls.kinds.append(item.kind)
                }
                i += 1
            }
            if !needs.isEmpty {
                // The ids of the items to fetch, from one copy of the chunk's part of the id column.
                let chunkIDs = ids.elements(in: range.lowerBound..<(range.lowerBound + needs[needs.count - 1] + 1))
                pulls.ids.reserveCapacity(needs.count)
                pulls.paths.reserveCapacity(needs.count)
                for k in needs {
                    pulls.ids.append(chunkIDs[k])
                    pulls.paths.append(indexPath(ofFlat: range.lowerBound + k))
                }
                if !keptRows.isEmpty { pulls.kept = pulls.ids.map { keptRows[$0] } }
            }
        }
        return MeasureChunk(start: range.lowerBound, count: range.count, snapshot: BlockSnapshot(blocks), skip: range.lowerBound - blockStart,
                            version: changes.openSnapshot(), generation: generation, width: width,
                            keepGeneration: previousGeneration, keepFloor: min(previousWidth, width), formsOnly: formsOnly, pulls: pulls)
    }

    /// Applies what measuring `chunk` produced: heights measured at the current width, and
    /// measuring forms (kept even when the width changed meanwhile: they do not depend on it).
    /// Results for items deleted or reloaded since are dropped. Keeps the viewport anchored:
    /// to `anchor` when given and nothing moved since it was taken at `anchorVersion`, else to
    /// the item at the offset. `pinnedToBottom` is whether the viewport showed the end when the
    /// caller's operation began (default: now).
    mutating func apply(_ chunk: MeasureChunk<Measurer>, _ results: MeasureResults, anchor: Anchor? = nil, anchorVersion: Int = -1,
                        pinnedToBottom: Bool? = nil) {
        // Let go of the shared blocks first, with the lock held: items change in place below
        // (without copying whole blocks), and every read of them outside the lock happened
        // before this.
        let sameWidth = chunk.generation == generation
        let inPlace = sameWidth && chunk.version == changes.version
        let serials = inPlace ? [] : chunk.serials()
        chunk.snapshot.release()
        defer { changes.closeSnapshot(chunk.version) }
        let anchorIndex = heights.row(at: contentOffset) ?? 0
        let wasAtBottom = pinnedToBottom ?? isAtBottom
        var delta = 0.0
        if inPlace {
            // Nothing moved since the snapshot: item k is still at start + k. Two passes, each
            // over its own blocks: records (forms, generations), then heights.
            var tally = HeightTally()
            let heightsOut = results.heights.values
            items.markMeasured(start: chunk.start, heights: heightsOut, forms: results.forms, constantWidths: results.constantWidths,
                               generation: generation, tally: &tally)
            delta = heights.applyMeasured(UnsafeBufferPointer(heightsOut), startingAt: chunk.start, changeBefore: anchorIndex, kept: &tally)
            estimates.record(tally)
        } else {
            for k in 0..<chunk.count {
                let serial = serials[k]
                let height = results.heights[k]
                let form = results.forms.isEmpty ? nil : results.forms[k]
                guard !height.isNaN || form != nil, let index = changes.currentIndex(of: chunk.start + k, since: chunk.version),
                      index < items.count else { continue }
                let generation = self.generation
                let constantWidth = results.constantWidths.isEmpty ? Float.infinity : results.constantWidths[k]
                let measured: (Double, ListItemKind)? = items.update(at: index) { item in
                    guard item.serial == serial else { return nil }
                    if item.form == nil, let form { item.setForm(form, constantWidth: constantWidth) }
                    guard sameWidth, !height.isNaN, item.generation != generation, item.form != nil else { return nil }
                    item.generation = generation
                    return (height, item.kind)
                }
                if let (measured, kind) = measured {
                    if measured >= 0 {
                        let change = heights.setHeight(measured, at: index)
                        if index < anchorIndex { delta += change }
                        estimates.record(measured, kind: kind)
                    } else {
                        estimates.record(heights.height(at: index), kind: kind)
                    }
                }
            }
        }
        if reestimatePending && items.formCount == items.measuredCount {
            delta += reestimateUnformed(anchorIndex: anchorIndex)
        }
        if let anchor, anchorVersion == changes.version {
            restore(anchor)
        } else {
            shift(by: delta, wasAtBottom: wasAtBottom)
        }
    }

    /// Gives every item never measured the estimate of its kind now (after a width change,
    /// once every item with a form is measured again); returns the change above `anchorIndex`.
    mutating func reestimateUnformed(anchorIndex: Int) -> Double {
        reestimatePending = false
        guard items.formCount < items.count else { return 0 }
        var newHeights = [Double](repeating: .nan, count: items.count)
        let estimate = ListItemKind.allCases.map { estimates.estimate(for: $0) }
        items.forEach(in: 0..<items.count) { i, item in
            if !item.hasForm && item.generation != generation { newHeights[i] = estimate[Int(item.kind.rawValue)] }
        }
        return heights.setHeights(newHeights, startingAt: 0, changeBefore: anchorIndex)
    }
}

/// Where concurrent workers write their results, each index by one worker only: the result
/// arrays' own storage (nothing is copied afterwards) and a slot per worker for its failure.
struct MeasureOutputs: @unchecked Sendable {
    let heights: UnsafeMutableBufferPointer<Double>
    let forms: UnsafeMutableBufferPointer<AnyObject?>
    let constantWidths: UnsafeMutableBufferPointer<Float>
    let failures: UnsafeMutableBufferPointer<WorkerFailures>
}

/// One worker's failures: its first (chunk offset and error) and the serial of every item that failed.
struct WorkerFailures {
    var first: (index: Int, error: ListError)?
    var serials: [UInt32] = []
}

/// What measuring needs besides the engine's state: the measurer and where row data comes
/// from. A value, so background work can measure without holding the engine.
struct MeasuringContext<Measurer: RowMeasurer>: Sendable {
    typealias Row = Measurer.Row
    /// Cores to measure on.
    static var cores: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
    /// Rows per piece of a chunk that makes measuring forms: ~2–3 ms of work, so a chunk's
    /// last piece leaves the other cores idle for about a millisecond, not the ~45 ms (half of a
    /// 1,024-row piece's ~88 ms) they idled before (about 4% of a cold pass on two cores,
    /// docs/DESIGN.md "The list").
    static var coldPieceRows: Int { 32 }
    let measurer: Measurer
    let dataSource: (any ListDataSource<Row>)?

    /// The data of an item: kept by the engine, or asked of the data source (outside the lock).
    func rowData(id: Row.ID, kept: Row?, kind: ListItemKind, path: ListIndexPath) throws(ListError) -> Row {
        if let kept { return kept }
        return try pulledRow(id: id, kind: kind, path: path)
    }

    /// The data of an item, asked of the data source (outside the lock).
    func pulledRow(id: Row.ID, kind: ListItemKind, path: ListIndexPath) throws(ListError) -> Row {
        guard let dataSource else { throw .missingRowData(id: String(describing: id)) }
        let row: Row
        do { row = try dataSource.row(for: id, kind: kind, at: path) } catch { throw .rowFailed(id: String(describing: id), reason: error) }
        guard row.id == id else { throw .dataSourceMismatch(expected: String(describing: id), got: String(describing: row.id)) }
        return row
    }

    /// The measuring form of an item's data.
    func measuringForm(of row: Row) throws(ListError) -> Measurer.Measuring {
        do { return try measurer.measuringForm(of: row) } catch { throw .rowFailed(id: String(describing: row.id), reason: error) }
    }

    /// The measuring form of `block[i]` without retaining it (the block, alive for the call,
    /// keeps it).
    @inline(__always)
    static func unretainedForm(_ block: UnsafeBufferPointer<ItemRecord>, _ i: Int) -> Unmanaged<AnyObject>? {
        let raw = UnsafeRawPointer(block.baseAddress! + i).load(fromByteOffset: ItemRecord.formOffset, as: UnsafeRawPointer?.self)
        return raw.map { Unmanaged<AnyObject>.fromOpaque($0) }
    }

    /// Measures a chunk outside the lock: items with a form are measured from it; items without
    /// one (unless forms-only) have their data fetched and a form made. Uses every core for
    /// large chunks, on ``WorkerThreads/shared``: the calling thread and the same helpers for
    /// every chunk (or the caller alone while another chunk holds them); stops early when `token`
    /// is cancelled. (The chunk's blocks are let go of when its results are applied, with the
    /// lock held.)
    ///
    /// `alongside` (applying the previous chunk's results, with the lock) runs on one of the
    /// measuring threads as one more piece of work, first: the other cores keep measuring
    /// meanwhile instead of idling while one thread applies.
    func measure(_ chunk: MeasureChunk<Measurer>, token: CancellationToken? = nil, alongside: (@Sendable () -> Void)? = nil) -> MeasureResults {
        measuring(chunk, blocks: chunk.snapshot.blocks, token: token, alongside: alongside)
    }

    private func measuring(_ chunk: MeasureChunk<Measurer>, blocks: [[ItemRecord]], token: CancellationToken?,
                           alongside: (@Sendable () -> Void)?) -> MeasureResults {
        let count = chunk.count
        let (per, workers) = Self.pieces(count: count, cores: Self.cores, makesForms: chunk.pulls.ids.count &* 8 >= count)
        let formCount = chunk.formsOnly ? 0 : count
        let heights = MeasuredHeights(count: count)
        var forms = [AnyObject?](repeating: nil, count: formCount)
        var constantWidths = [Float](repeating: .infinity, count: formCount)
        var failures = [WorkerFailures](repeating: WorkerFailures(), count: workers)
        forms.withUnsafeMutableBufferPointer { forms in
            constantWidths.withUnsafeMutableBufferPointer { constantWidths in
                failures.withUnsafeMutableBufferPointer { failures in
                    let out = MeasureOutputs(heights: heights.values, forms: forms, constantWidths: constantWidths, failures: failures)
                    let extra = alongside == nil ? 0 : 1
                    let work = { @Sendable (piece: Int) in
                        // Pieces are handed out in order: the one alongside starts at once.
                        if let alongside, piece == 0 { alongside(); return }
                        let w = piece - extra
                        let first = w * per
                        measure(chunk, blocks: blocks, items: first..<min(count, first + per), worker: w, into: out, token: token)
                    }
                    // On the process's fixed measuring threads (the caller one of them), not
                    // the dispatch pool's: the measurer may keep caches per thread (the text
                    // engine's word cache), and the dispatch pool's threads come and go.
                    WorkerThreads.shared.forEach(count: workers + extra, work)
                }
            }
        }
        let first = failures.compactMap(\.first).min { $0.index < $1.index }
        return MeasureResults(heights: heights, forms: forms, constantWidths: constantWidths, failure: first?.error,
                              failedSerials: failures.flatMap(\.serials))
    }

    /// How a chunk of `count` items is cut for `cores` cores: `workers` pieces of `per` items (the
    /// last one shorter; no piece starts past the end). Several pieces per core, handed out as
    /// cores free up: on shared cores one thread can be descheduled for milliseconds, and with one
    /// piece per core the chunk then waits for it while the other core idles. Every chunk still
    /// ends with one core finishing the last piece while the others wait, half a piece on
    /// average, so pieces are small: 256 rows from forms (~75 µs at a million rows: half a
    /// 1,024-row piece per 16,384-row chunk is ~3% of two cores) and ``coldPieceRows`` for a chunk
    /// where at least one row in eight makes its form (`makesForms`: data pulled, texts
    /// prepared, ~50–100 µs a row). Chunks under 256 items, or one core, take one piece.
    static func pieces(count: Int, cores: Int, makesForms: Bool) -> (per: Int, workers: Int) {
        guard count >= 256, cores > 1 else { return (max(1, count), 1) }
        let pieces = max(cores * 8, count / (makesForms ? coldPieceRows : 256))
        let per = max(1, (count + pieces - 1) / pieces)
        return (per, max(1, (count + per - 1) / per))
    }

    /// Measures the chunk's items `range` (offsets in the chunk) into `out`: one worker's share.
    private func measure(_ chunk: MeasureChunk<Measurer>, blocks: [[ItemRecord]], items range: Range<Int>, worker w: Int,
                         into out: MeasureOutputs, token: CancellationToken?) {
        guard !range.isEmpty else { return }
        // Find the block and index of the first item.
        var b = 0, i = chunk.skip + range.lowerBound
        while i >= blocks[b].count { i -= blocks[b].count; b += 1 }
        var k = range.lowerBound
        let last = range.upperBound
        // Once per piece: generic code (the engine runs unspecialized) looks up an array's
        // metadata and witness table for every `isEmpty`, ~700 instructions a row.
        let keptRows = !chunk.pulls.kept.isEmpty
        while k < last {
            let stop = blocks[b].withUnsafeBufferPointer { block -> Bool in
                // The first rows of the block, whose forms the loop below (prefetching a few
                // rows ahead within the block) would meet unprefetched: 8 of every 256-row block.
                var warm = i
                let warmEnd = min(block.count, i &+ FormPrefetch.distance, i &+ (last &- k))
                while warm < warmEnd {
                    if !chunk.keeps(block.baseAddress! + warm) { FormPrefetch.form(block, warm) }
                    warm &+= 1
                }
                while i < block.count && k < last {
                    defer { i &+= 1; k &+= 1 }
                    if let token, token.isCancelled { return true }
                    // The form a few rows on (its first cache lines), so that its misses overlap
                    // this row's measuring — unless that row keeps its height (its form is not read).
                    let ahead = i &+ FormPrefetch.distance
                    if ahead < block.count && !chunk.keeps(block.baseAddress! + ahead) { FormPrefetch.form(block, ahead) }
                    let record = block.baseAddress! + i
                    if record.pointee.generation == chunk.generation { continue }
                    if let form = Self.unretainedForm(block, i) {
                        if chunk.keeps(record) {
                            out.heights[k] = ItemStore.keepMarker
                            continue
                        }
                        // Read in place: no reference counting per row (the block keeps it).
                        out.heights[k] = Self.sanitized(form._withUnsafeGuaranteedRef { measurer.height(ofObject: $0, width: chunk.width) })
                        continue
                    }
                    guard !chunk.formsOnly else { continue }
                    let slot = Int(chunk.pulls.slot[k])
                    guard slot >= 0 else { continue }
                    do throws(ListError) {
                        let row = keptRows
                            ? try rowData(id: chunk.pulls.ids[slot], kept: chunk.pulls.kept[slot], kind: chunk.pulls.kinds[slot], path: chunk.pulls.paths[slot])
                            : try pulledRow(id: chunk.pulls.ids[slot], kind: chunk.pulls.kinds[slot], path: chunk.pulls.paths[slot])
                        let form = try measuringForm(of: row)
                        let object = measurer.object(of: form)
                        out.forms[k] = object
                        out.constantWidths[k] = ItemRecord.floatAtLeast(measurer.constantHeightWidth(ofObject: object))
                        out.heights[k] = Self.sanitized(measurer.height(of: form, width: chunk.width))
                    } catch {
                        // Keep going: the rows after it are measured all the same.
                        if out.failures[w].first == nil { out.failures[w].first = (k, error) }
                        out.failures[w].serials.append(record.pointee.serial)
                    }
                }
                return false
            }
            if stop { return }
            b += 1
            i = 0
        }
    }

    /// A measured height as the engine keeps it: never negative or NaN (both count as 0, as
    /// the height index would store them).
    @inline(__always)
    static func sanitized(_ height: Double) -> Double { height > 0 ? height : 0 }
}

/// A step of measuring on the caller's thread: done (with a result), or a chunk to measure first.
enum ForegroundStep<Result: Sendable, Measurer: RowMeasurer>: Sendable {
    case done(Result)
    case measure(MeasureChunk<Measurer>)
}

extension ListEngine {
    /// Measures the chunk `take` makes (with the lock held) and applies the results; returns
    /// false when `take` found nothing to measure. Throws the first failure after applying
    /// what was measured.
    func measureOnce(_ take: (inout ListState<Measurer>) -> MeasureChunk<Measurer>?) throws(ListError) -> Bool {
        guard let chunk = state.withLock({ s in take(&s) }) else { return false }
        let results = context.measure(chunk)
        state.withLock { s in s.apply(chunk, results) }
        if let failure = results.failure { throw failure }
        return true
    }
}
