/// Everything mutable of a ``ListEngine``, behind its one lock (``StateLock``). Methods here
/// run with the lock held and never call out: no measurer, data source or callback.
struct ListState<Measurer: RowMeasurer>: Sendable {
    typealias ID = Measurer.Row.ID
    typealias Row = Measurer.Row
    typealias Form = Measurer.Measuring
    typealias Element = Item<ID, Form>

    // Items and sections.
    var items: ItemStore<ID, Form>
    var sections: SectionTable
    var heights: HeightIndex
    /// Every item's id, for the uniqueness check.
    var ids: Set<ID>
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
        var elements: [Element] = []
        elements.reserveCapacity(sections.reduce(0) { $0 + $1.itemCount })
        var table: [SectionTable.Section] = []
        table.reserveCapacity(sections.count)
        var ids = Set<ID>(minimumCapacity: elements.capacity)
        for section in sections {
            table.append(.init(hasHeader: section.header != nil, hasFooter: section.footer != nil, rowCount: section.rows.count))
            for (kind, id) in section.items {
                guard ids.insert(id).inserted else {
                    let partial = SectionTable(table)
                    let second = partial.indexPath(ofFlat: elements.count)
                    let first = elements.firstIndex { $0.id == id }.map(partial.indexPath(ofFlat:)) ?? second
                    throw .duplicateID(String(describing: id), first, second)
                }
                elements.append(Element(id: id, kind: kind))
            }
        }
        self.ids = ids
        self.sections = SectionTable(table)
        self.items = ItemStore(elements, generation: 1)
        self.heights = HeightIndex(count: elements.count, height: defaultEstimate)
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

    func isMeasured(_ item: Element) -> Bool { item.generation == generation }

    func state(of item: Element) -> ListItemState {
        if let highlighted, highlighted == item.id { return .highlighted }
        return item.selected ? .selected : .normal
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
