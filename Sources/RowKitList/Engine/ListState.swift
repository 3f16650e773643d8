/// Everything mutable of a ``ListEngine``, behind its one lock (``StateLock``). Methods here
/// run with the lock held and never call out: no measurer, data source or callback.
struct ListState<Measurer: RowMeasurer>: Sendable {
    typealias ID = Measurer.Row.ID
    typealias Row = Measurer.Row
    typealias Form = Measurer.Measuring

    // Items and sections: records, ids and heights are three columns in list order.
    var items: ItemStore
    var ids: BlockedArray<ID>
    var sections: SectionTable
    var heights: HeightIndex
    /// Every item's id, for the uniqueness check.
    var idSet: Set<ID>
    /// The serial the next inserted or reloaded item gets.
    var nextSerial: UInt32 = 1
    /// Rows the app gave as values (small lists), by id; other rows come from the data source.
    var keptRows: [ID: Row]

    // Measuring.
    var width: Double
    /// Bumped by every width change; an item's height is exact when measured at this generation.
    var generation: UInt32 = 1
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
        var records: [ItemRecord] = []
        records.reserveCapacity(total)
        var idList: [ID] = []
        idList.reserveCapacity(total)
        var table: [SectionTable.Section] = []
        table.reserveCapacity(sections.count)
        var idSet = Set<ID>(minimumCapacity: total)
        var serial: UInt32 = 1
        for section in sections {
            table.append(.init(hasHeader: section.header != nil, hasFooter: section.footer != nil, rowCount: section.rows.count))
            for (kind, id) in section.items {
                guard idSet.insert(id).inserted else {
                    let partial = SectionTable(table)
                    let second = partial.indexPath(ofFlat: idList.count)
                    let first = idList.firstIndex(of: id).map(partial.indexPath(ofFlat:)) ?? second
                    throw .duplicateID(String(describing: id), first, second)
                }
                records.append(ItemRecord(kind: kind, serial: serial))
                serial &+= 1
                idList.append(id)
            }
        }
        self.idSet = idSet
        self.nextSerial = serial
        self.ids = BlockedArray(idList)
        self.sections = SectionTable(table)
        self.items = ItemStore(records, generation: 1)
        self.heights = HeightIndex(count: records.count, height: defaultEstimate)
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
