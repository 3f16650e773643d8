/// Everything mutable of a ``ListEngine``, behind its one lock (``StateLock``). Methods here
/// run with the lock held and never call out: no measurer, data source or callback.
struct ListState<Measurer: RowMeasurer>: Sendable {
    typealias ID = Measurer.Row.ID
    typealias Row = Measurer.Row
    typealias Form = Measurer.Measuring

    // Items and sections: records, ids and heights are three columns in list order.
    /// First of the stored properties: its place does not depend on the measurer's types, so
    /// unspecialized code (a caller in another module) reaches it without the runtime's type
    /// metadata (y → row, offsets; see `StateLock`).
    var heights: HeightIndex
    var items: ItemStore
    var ids: BlockedArray<ID> {
        didSet { idsVersion &+= 1 }
    }
    /// Bumped by every change of `ids` (a set built from a copy of them is current only if
    /// this did not move meanwhile).
    var idsVersion = 0
    var sections: SectionTable
    /// Every item's id, for uniqueness checks and `contains(id:)`; nil while not built yet (an
    /// init that could check uniqueness without it, see `IDColumn`): built on first use
    /// (``idSet``) or in the background (``ListEngine/buildIDSetIfNeeded()``).
    var idSetStorage: Set<ID>?
    /// The serial the next inserted or reloaded item gets.
    var nextSerial: UInt32 = 1
    /// Rows the app gave as values (small lists), by id; other rows come from the data source.
    var keptRows: [ID: Row]

    // Measuring.
    var width: Double
    /// Bumped by every width change; an item's height is exact when measured at this generation.
    var generation: UInt32 = 1
    /// The generation before the current one and its width: an item still measured at it
    /// keeps its height through this width change when its form's height is constant from a
    /// width at most the smaller of the two (``ItemRecord/constantFrom``). 0: none.
    var previousGeneration: UInt32 = 0
    var previousWidth = 0.0
    var estimates: Estimates
    var changes = ChangeLog()
    /// Where the next search for rows to measure starts.
    var cursor = 0
    /// After a width change: items that were never measured get the new estimates once every
    /// item with a measuring form has been measured again.
    var reestimatePending = false
    var background: BackgroundRun?
    var widthWaiters: [(generation: UInt32, completion: @Sendable (ListMeasurementResult) -> Void)] = []

    // Viewport.
    var contentOffset = 0.0
    var viewportHeight = 0.0
    var overscan = 0.0
    var anchoring = ScrollAnchoring.stayAtTop

    // Selection.
    var allowsMultipleSelection = false
    var highlighted: ID?

    // Drawing.
    var drawingForms: DrawingFormCache<ID, Measurer.Drawing>
    /// Bumped whenever an item's data may have changed (reloads), so a drawing form made
    /// from older data is not cached.
    var dataEpoch = 0

    // Callbacks and what they report.
    var executor = ListExecutor.immediate
    /// Background results are applied through `executor` (on the app's UI thread) instead of on
    /// the worker that measured them.
    var appliesResultsOnExecutor = false
    var observer: (@Sendable (ListLayoutChange) -> Void)?
    var notificationPending = false
    /// Offset changes made by the engine itself (anchoring) since the last notification.
    var pendingAdjustment = 0.0

    /// A background measurement in flight: its cancellation token, what it measures and who
    /// waits for it.
    struct BackgroundRun: Sendable {
        var token: CancellationToken
        /// True: only items with a measuring form (a width change); false: every item.
        var formsOnly: Bool
        var chunkSize: Int
        var completions: [@Sendable (ListMeasurementResult) -> Void]
    }

    init(sections: [ListSection<ID>], kept: [ID: Row], width: Double, defaultEstimate: Double, drawingCacheCapacity: Int) throws(ListError) {
        self.width = width
        self.estimates = Estimates(defaultEstimate: defaultEstimate)
        self.keptRows = kept
        self.drawingForms = DrawingFormCache(capacity: drawingCacheCapacity)
        let total = sections.reduce(0) { $0 + $1.itemCount }
        // Records from the section counts alone (concrete, no per-id work); ids and their set
        // in one specialized pass (see IDColumn).
        var table: [SectionTable.Section] = []
        table.reserveCapacity(sections.count)
        var records: [ItemRecord] = []
        records.reserveCapacity(total)
        for section in sections {
            table.append(.init(hasHeader: section.header != nil, hasFooter: section.footer != nil, rowCount: section.rows.count))
            if section.header != nil { records.append(ItemRecord(kind: .header, serial: 0)) }
            records.append(contentsOf: repeatElement(ItemRecord(kind: .row, serial: 0), count: section.rows.count))
            if section.footer != nil { records.append(ItemRecord(kind: .footer, serial: 0)) }
        }
        for i in records.indices { records[i].serial = UInt32(truncatingIfNeeded: i + 1) }
        switch IDColumn.build(sections, total: total) {
        case .unique(let column, let set):
            self.ids = column
            self.idSetStorage = set
        case .duplicate(let first, let second):
            let partial = SectionTable(table)
            let id = sections.lazy.flatMap { $0.items.map(\.element) }.dropFirst(second).first
            throw .duplicateID(id.map { String(describing: $0) } ?? "?", partial.indexPath(ofFlat: first), partial.indexPath(ofFlat: second))
        }
        self.nextSerial = UInt32(truncatingIfNeeded: records.count + 1) == 0 ? 1 : UInt32(truncatingIfNeeded: records.count + 1)
        self.sections = SectionTable(table)
        self.items = ItemStore(records, generation: 1)
        self.heights = HeightIndex(count: records.count, height: defaultEstimate)
    }

    /// Every item's id, built now if it was not (O(n), once).
    var idSet: Set<ID> {
        mutating get {
            if idSetStorage == nil { idSetStorage = IDColumn.set(of: ids) }
            return idSetStorage!
        }
        _modify {
            if idSetStorage == nil { idSetStorage = IDColumn.set(of: ids) }
            yield &idSetStorage!
        }
    }

    /// Builds the id set if it is not built (O(n), once).
    mutating func buildIDSet() {
        if idSetStorage == nil { idSetStorage = IDColumn.set(of: ids) }
    }

    /// Whether an item has `id`, without building the set (a scan when it is not built).
    func hasID(_ id: ID) -> Bool {
        if let idSetStorage { return idSetStorage.contains(id) }
        return ids.firstIndex { $0 == id } != nil
    }

    /// A serial for an item inserted or reloaded now.
    mutating func takeSerial() -> UInt32 {
        defer { nextSerial = nextSerial &+ 1 == 0 ? 1 : nextSerial &+ 1 }
        return nextSerial
    }

    // MARK: positions

    var itemCount: Int { items.count }
    var unmeasuredCount: Int { items.count - items.measuredCount }

    /// The flat index of the row at `path`, or an error naming it.
    func rowIndex(_ path: ListIndexPath) throws(ListError) -> Int {
        guard sections.contains(row: path) else { throw .indexOutOfRange("row \(path)") }
        return sections.flatIndex(ofRow: path)
    }

    /// `index` if it names an item, or an error.
    func checkedItem(_ index: Int) throws(ListError) -> Int {
        guard index >= 0 && index < items.count else { throw .indexOutOfRange("item \(index) (the list has \(items.count))") }
        return index
    }

    func indexPath(ofFlat index: Int) -> ListIndexPath { sections.indexPath(ofFlat: index) }

    func isMeasured(_ record: ItemRecord) -> Bool { record.generation == generation }

    /// The state of the item at `index` (whose record is `record`).
    func state(of record: ItemRecord, id: ID) -> ListItemState {
        if let highlighted, highlighted == id { return .highlighted }
        return record.selected ? .selected : .normal
    }

    // MARK: notifications

    /// Records an offset change the engine made by itself (anchoring).
    mutating func adjustOffset(to newOffset: Double) {
        pendingAdjustment += newOffset - contentOffset
        contentOffset = newOffset
    }

    /// Whether a layout notification should be scheduled now (at most one is pending).
    mutating func claimNotification() -> Bool {
        guard observer != nil, !notificationPending else { return false }
        notificationPending = true
        return true
    }

    /// The layout as a notification reports it, resetting the pending adjustment.
    mutating func takeLayoutChange() -> ListLayoutChange {
        notificationPending = false
        defer { pendingAdjustment = 0 }
        return ListLayoutChange(contentHeight: heights.totalHeight, contentOffset: contentOffset, offsetAdjustment: pendingAdjustment,
                                unmeasuredCount: unmeasuredCount, width: width)
    }
}
