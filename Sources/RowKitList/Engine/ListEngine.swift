import Dispatch
import Foundation
import RowKitCells

/// The table view without a window: sections of rows with exact heights, offsets in O(log n),
/// a viewport with scroll anchoring, batch updates, width changes, selection.
///
/// Rows count with an estimate (the running mean of measured rows of their template) until
/// they are measured: visible rows and `scrollTo` targets on demand, all others by
/// ``measureAll()`` or in the background (``startBackgroundMeasurement(chunkSize:completion:)``).
/// Whenever heights change above the viewport, or rows are inserted, deleted or moved, the row
/// at the top of the viewport keeps its screen position (scroll anchoring).
///
/// Thread-safe: every method takes the engine's lock; measuring happens outside it.
public final class ListEngine<Measurer: RowMeasurer>: @unchecked Sendable {
    struct Item: Sendable {
        var row: ListRow
        var kind: ListItemKind
        var measured: Bool
        /// Bumped by reloads, so a height measured from old data is not applied.
        var revision: UInt32
        /// The prepared row (texts shaped), kept for re-measuring at other widths while the
        /// budget allows; `referenced` gives it a second chance when the budget evicts.
        var prepared: Measurer.Prepared? = nil
        var preparedBytes: Int32 = 0
        var referenced = false

        init(row: ListRow, kind: ListItemKind, measured: Bool, revision: UInt32) {
            self.row = row
            self.kind = kind
            self.measured = measured
            self.revision = revision
        }
    }

    struct SectionInfo: Sendable {
        var id: String
        var hasHeader: Bool, hasFooter: Bool
        var rowCount: Int
        var itemCount: Int { rowCount + (hasHeader ? 1 : 0) + (hasFooter ? 1 : 0) }
    }

    /// A structural change in flat indices, logged so background results find their rows.
    enum Change {
        case insert(at: Int, count: Int)
        case remove(at: Int)
        case invalidate(at: Int)
    }

    /// The measurer that prepares rows and measures them.
    public let measurer: Measurer
    /// Height assumed for a row of a template no row of which has been measured yet.
    public let defaultEstimate: Double

    private let lock = NSRecursiveLock()
    private var items = BlockedArray<Item>()
    private var sections: [SectionInfo] = []
    private var sectionItems = FenwickTree([])
    private var heights = HeightIndex()
    /// Bytes of prepared rows kept, and the most allowed.
    private var preparedBytes = 0
    private var preparedRows = 0
    private let cacheBudget: Int
    private var evictionHand = 0
    private var estimates: [String: (sum: Double, count: Int)] = [:]
    private var unmeasured = 0
    private var version = 0
    private var changes: [(version: Int, change: Change)] = []
    private var oldestSnapshot: Int?
    private var measureCursor = 0
    private var backgroundRunning = false

    private var _width: Double
    private var _contentOffset: Double = 0
    private var _viewportHeight: Double = 0
    private var _selected: Set<String> = []
    private var _highlighted: String?
    /// Whether several rows can be selected at once.
    public var allowsMultipleSelection = false
    /// Extra height above and below the viewport whose rows count as visible (for reuse).
    public var overscan: Double {
        get { locked { _overscan } }
        set { locked { _overscan = newValue.isNaN ? 0 : min(max(0, newValue), HeightIndex.maximumOffset) } }
    }
    private var _overscan: Double = 0

    /// A list of `sections` laid out at `width`. `cacheBudget` bounds the bytes of prepared
    /// rows kept for re-measuring at other widths.
    public init(sections: [ListSection] = [], measurer: Measurer, width: Double, defaultEstimate: Double = 44,
                cacheBudget: Int = 512 << 20) throws(ListError) {
        guard width.isFinite, width >= 1, width <= 100_000 else { throw .invalidWidth(width) }
        self.measurer = measurer
        self.defaultEstimate = defaultEstimate
        self._width = width
        self.cacheBudget = max(0, cacheBudget)
        var flat: [Item] = []
        var estimatedHeights: [Double] = []
        for section in sections {
            self.sections.append(SectionInfo(id: section.id, hasHeader: section.header != nil, hasFooter: section.footer != nil,
                                             rowCount: section.rows.count))
            for (kind, row) in Self.items(of: section) {
                flat.append(Item(row: row, kind: kind, measured: false, revision: 0))
                estimatedHeights.append(defaultEstimate)
            }
        }
        items = BlockedArray(flat)
        heights = HeightIndex(heights: estimatedHeights)
        unmeasured = flat.count
        rebuildSections()
    }

    static func items(of section: ListSection) -> [(ListItemKind, ListRow)] {
        var result: [(ListItemKind, ListRow)] = []
        if let header = section.header { result.append((.header, header)) }
        result += section.rows.map { (.row, $0) }
        if let footer = section.footer { result.append((.footer, footer)) }
        return result
    }

    @inline(__always) private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: structure

    /// Number of sections.
    public var numberOfSections: Int { locked { sections.count } }
    /// Rows in a section (headers and footers not counted).
    public func numberOfRows(inSection section: Int) -> Int { locked { sections[section].rowCount } }
    /// Items in the flattened list: every section's header, rows and footer.
    public var itemCount: Int { locked { items.count } }
    /// Rows not measured yet (counted with an estimate).
    public var unmeasuredCount: Int { locked { unmeasured } }

    /// The flat index of a row.
    public func index(of path: IndexPath) throws(ListError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        guard path.section >= 0 && path.section < sections.count, path.row >= 0 && path.row < sections[path.section].rowCount else {
            throw .indexOutOfRange("row \(path)")
        }
        return flatIndex(path)
    }

    /// The row at a flat index (a header or footer too), with its kind and index path.
    public func item(at index: Int) -> (kind: ListItemKind, indexPath: IndexPath, row: ListRow) {
        locked {
            let item = items[index]
            return (item.kind, indexPath(ofFlat: index), item.row)
        }
    }

    private func flatIndex(_ path: IndexPath) -> Int {
        Int(sectionItems.prefix(path.section)) + (sections[path.section].hasHeader ? 1 : 0) + path.row
    }

    private func indexPath(ofFlat index: Int) -> IndexPath {
        let (section, before) = sectionItems.search(Int64(index))
        let offset = index - Int(before)
        let s = min(section, sections.count - 1)
        return IndexPath(section: s, row: sections[s].hasHeader ? offset - 1 : offset)
    }

    private func rebuildSections() {
        sectionItems = FenwickTree(sections.map { Int64($0.itemCount) })
    }

    // MARK: geometry

    /// The width rows are laid out at.
    public var width: Double { locked { _width } }
    /// Total height: exact once every row is measured, estimated before.
    public var contentHeight: Double { locked { heights.totalHeight } }
    /// y of the viewport's top in the list.
    public var contentOffset: Double { locked { _contentOffset } }
    /// Height of the viewport.
    public var viewportHeight: Double {
        get { locked { _viewportHeight } }
        set { locked { _viewportHeight = newValue.isNaN ? 0 : min(max(0, newValue), HeightIndex.maximumOffset) } }
    }

    /// Top of item `index` in list coordinates.
    public func offset(ofItem index: Int) -> Double { locked { heights.offset(of: index) } }
    /// Height of item `index` (an estimate until it is measured).
    public func height(ofItem index: Int) -> Double { locked { heights.height(at: index) } }
    /// Whether item `index` has its exact height.
    public func isMeasured(_ index: Int) -> Bool { locked { items[index].measured } }
    /// The item at list coordinate `y`, or nil for an empty list.
    public func item(atY y: Double) -> Int? { locked { heights.row(at: y) } }

    /// Scrolls to `offset` (clamped to 0...contentHeight − viewportHeight).
    public func scroll(to offset: Double) {
        locked { _contentOffset = clampOffset(offset) }
    }

    private func clampOffset(_ offset: Double) -> Double {
        guard !offset.isNaN else { return 0 }
        return min(max(0, offset), max(0, heights.totalHeight - _viewportHeight))
    }

    /// Scrolls so that the row at `path` sits at the top, middle or bottom of the viewport. The
    /// row is measured first, so its own height is exact; rows above it keep counting with their
    /// estimates until measured, and anchoring keeps the row in place when they are.
    public func scrollTo(_ path: IndexPath, position: ScrollPosition = .top) throws {
        try locked {
            let index = try self.index(of: path)
            try measure(range: index..<(index + 1))
            let top = heights.offset(of: index), height = heights.height(at: index)
            switch position {
            case .top: _contentOffset = clampOffset(top)
            case .middle: _contentOffset = clampOffset(top + height / 2 - _viewportHeight / 2)
            case .bottom: _contentOffset = clampOffset(top + height - _viewportHeight)
            }
        }
    }

    /// The items in the viewport (plus `overscan` above and below), measured first so their
    /// heights are exact, with their frames. The row at the top keeps its screen position while
    /// rows are measured.
    public func visibleItems() throws -> [VisibleItem] {
        try locked {
            guard items.count > 0 else { return [] }
            // Measure until the visible range is stable (measuring changes heights, which can
            // bring more rows into view); every round measures at least one row, so it ends.
            while true {
                let range = visibleRange()
                if !(range.contains { !items[$0].measured }) { break }
                try measure(range: range)
            }
            let range = visibleRange()
            var result: [VisibleItem] = []
            var y = heights.offset(of: range.lowerBound)
            items.forEach(in: range) { index, item in
                let h = heights.height(at: index)
                result.append(VisibleItem(index: index, kind: item.kind, indexPath: indexPath(ofFlat: index), row: item.row, y: y, height: h))
                y += h
            }
            return result
        }
    }

    /// Flat indices of the items intersecting the viewport with overscan.
    public func visibleRange() -> Range<Int> {
        locked {
            guard items.count > 0 else { return 0..<0 }
            let top = max(0, _contentOffset - _overscan)
            let bottom = _contentOffset + _viewportHeight + _overscan
            guard let first = heights.row(at: top) else { return 0..<0 }
            var last = heights.row(at: max(top, bottom - 1.0 / HeightIndex.unitsPerPixel)) ?? first
            // Zero-height items right after the viewport are not visible; items ending at the
            // bottom edge are.
            last = max(first, last)
            return first..<(last + 1)
        }
    }

    // MARK: measuring

    /// Estimated height for a template: the mean of its measured rows, else the default.
    private func estimate(for template: String) -> Double {
        guard let stats = estimates[template], stats.count > 0 else { return defaultEstimate }
        return stats.sum / Double(stats.count)
    }

    /// The prepared form of item `index` — the one its height was measured from, so drawing
    /// it draws exactly what was measured (prepared again only if the budget evicted it).
    public func preparedItem(at index: Int) throws -> Measurer.Prepared {
        try locked { try prepared(at: index) }
    }

    /// The prepared form of item `index`, preparing it if needed (with the lock held).
    private func prepared(at index: Int) throws -> Measurer.Prepared {
        var item = items[index]
        if let prepared = item.prepared {
            if !item.referenced {
                item.referenced = true
                items[index] = item
            }
            return prepared
        }
        let prepared = try measurer.prepare(item.row)
        keep(prepared, bytes: measurer.byteCount(of: prepared), at: index)
        return prepared
    }

    /// Stores a prepared row on its item, evicting others (CLOCK) beyond the budget.
    private func keep(_ prepared: Measurer.Prepared, bytes: Int, at index: Int) {
        guard bytes <= cacheBudget else { return }
        var item = items[index]
        if item.prepared != nil { preparedBytes -= Int(item.preparedBytes); preparedRows -= 1 }
        item.prepared = prepared
        item.preparedBytes = Int32(clamping: bytes)
        item.referenced = false
        items[index] = item
        preparedBytes += bytes
        preparedRows += 1
        var steps = 0
        while preparedBytes > cacheBudget && steps < 2 * items.count + 2 {
            if evictionHand >= items.count { evictionHand = 0 }
            var victim = items[evictionHand]
            if victim.prepared != nil && evictionHand != index {
                if victim.referenced {
                    victim.referenced = false
                } else {
                    preparedBytes -= Int(victim.preparedBytes)
                    preparedRows -= 1
                    victim.prepared = nil
                    victim.preparedBytes = 0
                }
                items[evictionHand] = victim
            }
            evictionHand += 1
            steps += 1
        }
    }

    /// Accounts for an item's prepared form leaving (its data changed or it was removed).
    private func dropPrepared(_ item: Item) {
        if item.prepared != nil {
            preparedBytes -= Int(item.preparedBytes)
            preparedRows -= 1
        }
    }

    /// Measures the items in `range` that are not measured yet (with the lock held).
    private func measure(range: Range<Int>) throws {
        var results: [(Int, Double)] = []
        for index in range where !items[index].measured {
            results.append((index, measurer.height(of: try prepared(at: index), width: _width)))
        }
        let anchor = heights.row(at: _contentOffset) ?? 0
        for (index, height) in results { apply(height, at: index, anchor: anchor) }
    }

    /// Records a measured height, keeping the anchor row (the row at the top of the viewport,
    /// found once per batch of results) in place.
    private func apply(_ height: Double, at index: Int, anchor: Int) {
        let delta = heights.setHeight(height, at: index)
        var item = items[index]
        if !item.measured {
            item.measured = true
            items[index] = item
            unmeasured -= 1
        }
        estimates[item.row.template, default: (0, 0)].sum += height
        estimates[item.row.template, default: (0, 0)].count += 1
        if index < anchor && delta != 0 { _contentOffset = max(0, _contentOffset + delta) }
    }

    /// Measures every row not measured yet, on all cores, in chunks; heights become exact.
    /// `progress` is called after each chunk with (measured, total).
    public func measureAll(chunkSize: Int = 4096, progress: ((Int, Int) -> Void)? = nil) throws {
        while true {
            guard let chunk = nextChunk(size: chunkSize) else { return }
            let results = try measureInParallel(chunk.rows)
            applyChunk(chunk, results)
            if let progress { locked { progress(items.count - unmeasured, items.count) } }
        }
    }

    /// A batch of rows to measure outside the lock, with the version it was taken at.
    struct Chunk {
        var version: Int
        var width: Double
        var rows: [(index: Int, row: ListRow, revision: UInt32)]
    }

    private func nextChunk(size: Int) -> Chunk? {
        locked {
            guard unmeasured > 0 else { return nil }
            var rows: [(index: Int, row: ListRow, revision: UInt32)] = []
            var scanned = 0
            if measureCursor >= items.count { measureCursor = 0 }
            while rows.count < size && scanned < items.count {
                let end = min(items.count, measureCursor + size)
                items.forEach(in: measureCursor..<end) { index, item in
                    if !item.measured && rows.count < size { rows.append((index, item.row, item.revision)) }
                }
                scanned += end - measureCursor
                measureCursor = end >= items.count ? 0 : end
            }
            guard !rows.isEmpty else { return nil }
            oldestSnapshot = min(oldestSnapshot ?? version, version)
            return Chunk(version: version, width: _width, rows: rows)
        }
    }

    /// Prepares and measures rows on every core (outside the lock).
    private func measureInParallel(_ rows: [(index: Int, row: ListRow, revision: UInt32)]) throws -> [Measured] {
        let slots = UnsafeMutableBufferPointer<Measured?>.allocate(capacity: rows.count)
        slots.initialize(repeating: nil)
        defer {
            _ = slots.deinitialize()
            slots.deallocate()
        }
        let failure = FirstError()
        let width = locked { _width }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let per = (rows.count + workers - 1) / workers
        let box = ResultBox(slots)
        let measurer = self.measurer
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let start = w * per, end = min(rows.count, start + per)
            guard start < end else { return }
            for i in start..<end {
                do {
                    let prepared = try measurer.prepare(rows[i].row)
                    box.slots[i] = Measured(prepared: prepared, bytes: measurer.byteCount(of: prepared),
                                            height: measurer.height(of: prepared, width: width))
                } catch {
                    failure.record(error)
                    return
                }
            }
        }
        if let error = failure.error { throw error }
        return slots.map { $0! }
    }

    struct Measured {
        var prepared: Measurer.Prepared
        var bytes: Int
        var height: Double
    }

    final class ResultBox: @unchecked Sendable {
        let slots: UnsafeMutableBufferPointer<Measured?>
        init(_ slots: UnsafeMutableBufferPointer<Measured?>) { self.slots = slots }
    }

    private func applyChunk(_ chunk: Chunk, _ results: [Measured]) {
        locked {
            defer { pruneChanges() }
            guard chunk.width == _width else { return }   // width changed meanwhile: measured again later
            let anchor = heights.row(at: _contentOffset) ?? 0
            for (k, entry) in chunk.rows.enumerated() {
                guard let index = currentIndex(of: entry.index, since: chunk.version), index < items.count else { continue }
                let item = items[index]
                guard item.row.id == entry.row.id, item.revision == entry.revision, !item.measured else { continue }
                keep(results[k].prepared, bytes: results[k].bytes, at: index)
                apply(results[k].height, at: index, anchor: anchor)
            }
        }
    }

    /// Where the item that was at `index` at `version` is now, or nil if it was removed or reloaded.
    private func currentIndex(of index: Int, since version: Int) -> Int? {
        var i = index
        for (v, change) in changes where v > version {
            switch change {
            case .insert(let at, let count): if at <= i { i += count }
            case .remove(let at): if at == i { return nil } else if at < i { i -= 1 }
            case .invalidate(let at): if at == i { return nil }
            }
        }
        return i
    }

    private func log(_ change: Change) {
        version += 1
        if oldestSnapshot != nil { changes.append((version, change)) }
    }

    private func pruneChanges() {
        if !backgroundRunning {
            oldestSnapshot = nil
            changes.removeAll()
        }
    }

    /// Measures every unmeasured row on a background queue, chunk by chunk, while the list stays
    /// usable: updates, scrolling and width changes may happen meanwhile. `completion` gets nil
    /// when every row was measured, or the first error.
    public func startBackgroundMeasurement(chunkSize: Int = 4096, completion: @escaping @Sendable (Error?) -> Void) {
        let alreadyRunning = locked { () -> Bool in
            if backgroundRunning { return true }
            backgroundRunning = true
            return false
        }
        guard !alreadyRunning else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            var failure: Error?
            while let chunk = nextChunk(size: chunkSize) {
                do { applyChunk(chunk, try measureInParallel(chunk.rows)) } catch { failure = error; break }
            }
            locked {
                backgroundRunning = false
                pruneChanges()
            }
            completion(failure)
        }
    }

    /// Lays every row out again at `width`: from the prepared rows (no shaping) in parallel; rows
    /// whose prepared form was evicted count with an estimate until measured again. The row at
    /// the top of the viewport keeps its screen position.
    public func setWidth(_ width: Double) throws(ListError) {
        guard width.isFinite, width >= 1, width <= 100_000 else { throw .invalidWidth(width) }
        locked {
            guard width != _width else { return }
            let anchor = captureAnchor()
            _width = width
            // Every prepared row is measured again in parallel, straight from the item blocks
            // (the blocks are shared only inside this scope, so updating items later copies none).
            let total = items.count
            let slots = UnsafeMutableBufferPointer<Double>.allocate(capacity: total)
            slots.initialize(repeating: .nan)
            defer { slots.deallocate() }
            do {
                let blocks = items.blockList
                var blockStarts: [Int] = []
                var running = 0
                for block in blocks { blockStarts.append(running); running += block.count }
                let starts = blockStarts
                let box = SendableSlots(slots)
                let measurer = self.measurer
                DispatchQueue.concurrentPerform(iterations: blocks.count) { b in
                    blocks[b].withUnsafeBufferPointer { block in
                        // Read only the prepared field: copying whole items would retain their rows.
                        for k in block.indices {
                            if let prepared = block[k].prepared { box.slots[starts[b] + k] = measurer.height(of: prepared, width: width) }
                        }
                    }
                }
            }
            estimates = [:]
            unmeasured = 0
            var newHeights = [Double](repeating: 0, count: total)
            var sums: [String: (sum: Double, count: Int)] = [:]
            var lastTemplate = "", lastSum = 0.0, lastCount = 0
            func flush() { if lastCount > 0 { sums[lastTemplate, default: (0, 0)].sum += lastSum; sums[lastTemplate, default: (0, 0)].count += lastCount } }
            let accumulate = { (template: String, height: Double) in
                if template != lastTemplate { flush(); lastTemplate = template; lastSum = 0; lastCount = 0 }
                lastSum += height
                lastCount += 1
            }
            items.updateAll { i, item in
                if slots[i].isNaN {
                    item.measured = false
                    unmeasured += 1
                } else {
                    item.measured = true
                    newHeights[i] = slots[i]
                    accumulate(item.row.template, slots[i])
                }
            }
            flush()
            estimates = sums
            if unmeasured > 0 {
                items.forEach(in: 0..<total) { i, item in
                    if !item.measured { newHeights[i] = estimate(for: item.row.template) }
                }
            }
            heights = HeightIndex(heights: newHeights)
            version += 1
            restore(anchor)
        }
    }

    // MARK: anchoring

    struct Anchor {
        var index: Int
        /// Top of the anchor row on screen (≤ 0 when it starts above the viewport).
        var screenY: Double
    }

    private func captureAnchor() -> Anchor? {
        guard let index = heights.row(at: _contentOffset) else { return nil }
        return Anchor(index: index, screenY: heights.offset(of: index) - _contentOffset)
    }

    private func restore(_ anchor: Anchor?) {
        guard let anchor, items.count > 0 else {
            _contentOffset = 0
            return
        }
        let index = min(anchor.index, items.count - 1)
        _contentOffset = max(0, heights.offset(of: index) - anchor.screenY)
    }

    // MARK: updates

    /// Applies several changes at once. Operations apply in the order given, each index
    /// referring to the list as the previous operations left it. Costs O(k log n) for k
    /// changes. The row at the top of the viewport keeps its screen y; if it is deleted, the
    /// row that takes its place does.
    public func performBatchUpdates(_ updates: (inout ListBatch) -> Void) throws(ListError) {
        var batch = ListBatch()
        updates(&batch)
        lock.lock()
        defer { lock.unlock() }
        var anchor = captureAnchor()
        // Operations before a failing one stay applied (each is checked before it changes
        // anything); the viewport is re-anchored either way.
        defer { restore(anchor) }
        for operation in batch.operations {
            try perform(operation, anchor: &anchor)
        }
    }

    private func perform(_ operation: ListBatch.Operation, anchor: inout Anchor?) throws(ListError) {
        switch operation {
        case .insertRows(let rows, let path):
            guard path.section >= 0 && path.section < sections.count, path.row >= 0 && path.row <= sections[path.section].rowCount else {
                throw .indexOutOfRange("insert at \(path)")
            }
            let at = flatIndex(path)
            insertItems(rows.map { (.row, $0) }, at: at, anchor: &anchor)
            sections[path.section].rowCount += rows.count
            sectionItems.add(Int64(rows.count), at: path.section)
        case .deleteRow(let path):
            let at = try checkedIndex(path)
            removeItem(at: at, anchor: &anchor)
            sections[path.section].rowCount -= 1
            sectionItems.add(-1, at: path.section)
        case .moveRow(let from, let to):
            let source = try checkedIndex(from)
            // The destination is checked before anything changes (after the removal, the
            // source section has one row less).
            let rowsAfterRemoval = { (s: Int) in self.sections[s].rowCount - (s == from.section ? 1 : 0) }
            guard to.section >= 0 && to.section < sections.count, to.row >= 0 && to.row <= rowsAfterRemoval(to.section) else {
                throw .indexOutOfRange("move to \(to)")
            }
            let item = items[source]
            let height = heights.height(at: source)
            let wasAnchor = anchor?.index == source
            let screenY = anchor?.screenY
            removeItem(at: source, anchor: &anchor, keepSelection: true)
            sections[from.section].rowCount -= 1
            sectionItems.add(-1, at: from.section)
            let target = flatIndex(to)
            insertItem(item, height: height, at: target, anchor: &anchor)
            sections[to.section].rowCount += 1
            sectionItems.add(1, at: to.section)
            if wasAnchor, let screenY { anchor = Anchor(index: target, screenY: screenY) }
        case .reloadRow(let path, let row):
            let at = try checkedIndex(path)
            let old = items[at]
            if old.row.id != row.id {
                _selected.remove(old.row.id)
                if _highlighted == old.row.id { _highlighted = nil }
            }
            dropPrepared(old)
            items[at] = Item(row: row, kind: old.kind, measured: false, revision: old.revision &+ 1)
            if old.measured { unmeasured += 1 }
            heights.setHeight(estimate(for: row.template), at: at)
            log(.invalidate(at: at))
        case .insertSection(let section, let index):
            guard index >= 0 && index <= sections.count else { throw .indexOutOfRange("insert section \(index)") }
            let at = Int(sectionItems.prefix(index))
            sections.insert(SectionInfo(id: section.id, hasHeader: section.header != nil, hasFooter: section.footer != nil,
                                        rowCount: section.rows.count), at: index)
            rebuildSections()
            insertItems(Self.items(of: section), at: at, anchor: &anchor)
        case .deleteSection(let index):
            guard index >= 0 && index < sections.count else { throw .indexOutOfRange("delete section \(index)") }
            let at = Int(sectionItems.prefix(index))
            for _ in 0..<sections[index].itemCount { removeItem(at: at, anchor: &anchor) }
            sections.remove(at: index)
            rebuildSections()
        }
    }

    private func checkedIndex(_ path: IndexPath) throws(ListError) -> Int {
        guard path.section >= 0 && path.section < sections.count, path.row >= 0 && path.row < sections[path.section].rowCount else {
            throw .indexOutOfRange("row \(path)")
        }
        return flatIndex(path)
    }

    private func insertItems(_ new: [(ListItemKind, ListRow)], at index: Int, anchor: inout Anchor?) {
        for (k, entry) in new.enumerated() {
            items.insert(Item(row: entry.1, kind: entry.0, measured: false, revision: 0), at: index + k)
            heights.insert([estimate(for: entry.1.template)], at: index + k)
            unmeasured += 1
        }
        log(.insert(at: index, count: new.count))
        if var a = anchor, index <= a.index {
            a.index += new.count
            anchor = a
        }
    }

    /// Re-inserts a moved item with its height, measured state and prepared form intact.
    private func insertItem(_ item: Item, height: Double, at index: Int, anchor: inout Anchor?) {
        items.insert(item, at: index)
        heights.insert([height], at: index)
        if !item.measured { unmeasured += 1 }
        if item.prepared != nil {
            preparedBytes += Int(item.preparedBytes)
            preparedRows += 1
        }
        log(.insert(at: index, count: 1))
        if var a = anchor, index <= a.index {
            a.index += 1
            anchor = a
        }
    }

    private func removeItem(at index: Int, anchor: inout Anchor?, keepSelection: Bool = false) {
        let item = items.remove(at: index)
        heights.remove(at: index)
        if !item.measured { unmeasured -= 1 }
        dropPrepared(item)
        if !keepSelection {
            _selected.remove(item.row.id)
            if _highlighted == item.row.id { _highlighted = nil }
        }
        log(.remove(at: index))
        if var a = anchor {
            if index < a.index {
                a.index -= 1
            } else if index == a.index && a.index >= items.count {
                // The last row went: its neighbour above takes its place.
                a.index = max(0, items.count - 1)
            }
            anchor = a
        }
    }

    // MARK: selection

    /// Selects the row at `path` (deselecting others unless multiple selection is allowed).
    public func select(_ path: IndexPath) throws(ListError) {
        lock.lock()
        defer { lock.unlock() }
        let id = items[try checkedIndex(path)].row.id
        if !allowsMultipleSelection { _selected.removeAll() }
        _selected.insert(id)
    }

    /// Deselects the row at `path`.
    public func deselect(_ path: IndexPath) throws(ListError) {
        lock.lock()
        defer { lock.unlock() }
        _selected.remove(items[try checkedIndex(path)].row.id)
    }

    /// Marks the row under a press as highlighted (nil clears it).
    public func highlight(_ path: IndexPath?) throws(ListError) {
        lock.lock()
        defer { lock.unlock() }
        guard let path else { _highlighted = nil; return }
        _highlighted = items[try checkedIndex(path)].row.id
    }

    /// Selected rows, in list order.
    public var selectedIndexPaths: [IndexPath] {
        locked {
            var result: [IndexPath] = []
            items.forEach(in: 0..<items.count) { index, item in
                if _selected.contains(item.row.id) { result.append(indexPath(ofFlat: index)) }
            }
            return result
        }
    }

    /// The state item `index` is drawn in.
    public func state(ofItem index: Int) -> CellState {
        locked {
            let id = items[index].row.id
            if _highlighted == id { return .highlighted }
            return _selected.contains(id) ? .selected : .normal
        }
    }

    /// All heights, top to bottom (for tests and export).
    public var allHeights: [Double] { locked { heights.heights } }

    /// Bytes of the height index (the per-row cost of heights and offsets).
    public var heightIndexBytes: Int { locked { heights.byteCount } }

    /// Bytes of prepared rows kept for width changes, and how many rows that is.
    public var preparedCacheBytes: (bytes: Int, rows: Int) { locked { (preparedBytes, preparedRows) } }
}

/// Changes for ``ListEngine/performBatchUpdates(_:)``, applied in order.
public struct ListBatch: Sendable {
    enum Operation: Sendable {
        case insertRows([ListRow], at: IndexPath)
        case deleteRow(IndexPath)
        case moveRow(from: IndexPath, to: IndexPath)
        case reloadRow(IndexPath, with: ListRow)
        case insertSection(ListSection, at: Int)
        case deleteSection(Int)
    }
    var operations: [Operation] = []

    /// Inserts rows before `path` (`path.row` may equal the section's row count to append).
    public mutating func insert(_ rows: [ListRow], at path: IndexPath) { operations.append(.insertRows(rows, at: path)) }
    /// Deletes the row at `path`.
    public mutating func delete(at path: IndexPath) { operations.append(.deleteRow(path)) }
    /// Moves a row; `to` is its index path after the move.
    public mutating func move(from: IndexPath, to: IndexPath) { operations.append(.moveRow(from: from, to: to)) }
    /// Replaces the row at `path` with new data (measured again; its cell reconfigured).
    public mutating func reload(at path: IndexPath, with row: ListRow) { operations.append(.reloadRow(path, with: row)) }
    /// Inserts a section at `index`.
    public mutating func insertSection(_ section: ListSection, at index: Int) { operations.append(.insertSection(section, at: index)) }
    /// Deletes the section at `index` with its rows.
    public mutating func deleteSection(at index: Int) { operations.append(.deleteSection(index)) }
}

/// Result slots written by concurrent workers, each index by one worker only.
final class SendableSlots: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<Double>
    init(_ slots: UnsafeMutableBufferPointer<Double>) { self.slots = slots }
}

/// The first error any worker hit.
final class FirstError: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var error: Error?
    func record(_ error: Error) {
        lock.lock()
        if self.error == nil { self.error = error }
        lock.unlock()
    }
}
