/// A table view without a window: sections of rows with exact heights and offsets for any
/// number of rows, a viewport with scroll anchoring, batch updates with UIKit's index rule,
/// width changes that never block, selection — generic over what it measures.
///
/// The engine stores, per item, its id, its height and its compact measuring form; it asks for
/// a row's data only to measure or draw it — from a ``ListDataSource`` (large lists, rows
/// pulled as UITableView's data source is asked), or from rows the app handed over as values
/// (small lists, ``init(sections:measurer:width:defaultEstimate:)``).
///
/// Items count with an estimate (the mean measured height of their kind) until measured:
/// visible rows and `scrollTo` targets on demand, the rest with ``measureAll(chunkSize:progress:)``
/// or in the background (``startBackgroundMeasurement(chunkSize:completion:)``). Whenever
/// heights change above the viewport, or items are inserted, deleted or moved, the item at the
/// top of the viewport keeps its screen position (scroll anchoring, see ``ScrollAnchoring``).
///
/// Thread rules: every member may be called from any thread. The engine has one lock (a
/// `Mutex`, not recursive) over all its state; measuring, asking the data source and every
/// callback happen outside it. Results of background work reach the app through
/// ``callbackExecutor`` — never `DispatchQueue.main` by assumption.
public final class ListEngine<Measurer: RowMeasurer>: Sendable {
    /// The id type of the rows.
    public typealias ID = Measurer.Row.ID
    /// The row type the measurer reads.
    public typealias Row = Measurer.Row

    /// The measurer that makes measuring and drawing forms and measures them.
    public var measurer: Measurer { context.measurer }
    /// Height an item counts with before any item of its kind has been measured.
    public let defaultEstimate: Double
    /// The measurer and where rows not kept by the engine come from.
    let context: MeasuringContext<Measurer>
    let state: StateLock<ListState<Measurer>>

    /// A list of rows given as values, which the engine keeps (the convenient path for small
    /// lists; for large ones give ids and a ``ListDataSource``). Ids must be unique.
    ///
    /// - Parameters:
    ///   - sections: the sections with their rows.
    ///   - measurer: makes the rows' measuring and drawing forms and measures them.
    ///   - width: the width rows are laid out at, in [1, 100000].
    ///   - defaultEstimate: the height unmeasured items count with before any of their kind is
    ///     measured (a negative one counts as 0, a NaN or infinite one as 44).
    /// - Throws: ``ListError/invalidWidth(_:)``, ``ListError/duplicateID(_:_:_:)``.
    public convenience init(sections: [ListSection<Row>], measurer: Measurer, width: Double, defaultEstimate: Double = 44) throws(ListError) {
        var kept: [ID: Row] = [:]
        for section in sections {
            for (_, row) in section.items { kept[row.id] = row }
        }
        try self.init(sections: sections.map { $0.map(\.id) }, kept: kept, dataSource: nil, measurer: measurer, width: width,
                      defaultEstimate: defaultEstimate)
    }

    /// A list of ids whose data `dataSource` gives when the engine must measure or draw a row.
    /// Ids must be unique.
    ///
    /// - Throws: ``ListError/invalidWidth(_:)``, ``ListError/duplicateID(_:_:_:)``.
    public convenience init(sections: [ListSection<ID>], dataSource: some ListDataSource<Row>, measurer: Measurer, width: Double,
                            defaultEstimate: Double = 44) throws(ListError) {
        try self.init(sections: sections, kept: [:], dataSource: dataSource, measurer: measurer, width: width, defaultEstimate: defaultEstimate)
    }

    init(sections: [ListSection<ID>], kept: [ID: Row], dataSource: (any ListDataSource<Row>)?, measurer: Measurer, width: Double,
         defaultEstimate: Double) throws(ListError) {
        try Self.check(width: width)
        let estimate = defaultEstimate.isFinite ? min(max(0, defaultEstimate), HeightIndex.maximumHeight) : 44
        self.context = MeasuringContext(measurer: measurer, dataSource: dataSource)
        self.defaultEstimate = estimate
        self.state = StateLock(try ListState(sections: sections, kept: kept, width: width, defaultEstimate: estimate,
                                             drawingCacheCapacity: 256))
    }

    deinit {
        // Whoever waits for background work hears that it ended.
        let (executor, waiting) = state.withLock { s in
            s.background?.token.cancel()
            let waiting = (s.background?.completions ?? []) + s.widthWaiters.map(\.completion)
            s.background = nil
            s.widthWaiters = []
            return (s.executor, waiting)
        }
        for completion in waiting { executor.run { completion(.cancelled) } }
    }

    static func check(width: Double) throws(ListError) {
        guard width.isFinite, width >= 1, width <= 100_000 else { throw .invalidWidth(width) }
    }

    // MARK: structure

    /// Number of sections.
    public var numberOfSections: Int { state.withLock { $0.sections.count } }

    /// Rows in `section` (its header and footer not counted).
    /// - Throws: ``ListError/indexOutOfRange(_:)`` for a section not in the list.
    public func numberOfRows(inSection section: Int) throws(ListError) -> Int {
        try state.withLock { s throws(ListError) in
            guard section >= 0 && section < s.sections.count else { throw .indexOutOfRange("section \(section) (the list has \(s.sections.count))") }
            return s.sections[section].rowCount
        }
    }

    /// Items in the flattened list: every section's header, rows and footer.
    public var itemCount: Int { state.withLock { $0.itemCount } }

    /// Items still counted with an estimate (not measured at the current width).
    public var unmeasuredCount: Int { state.withLock { $0.unmeasuredCount } }

    /// The flat index of the row at `path`.
    /// - Throws: ``ListError/indexOutOfRange(_:)`` for a path that names no row.
    public func index(of path: ListIndexPath) throws(ListError) -> Int {
        try state.withLock { s throws(ListError) in try s.rowIndex(path) }
    }

    /// The item at flat index `index` (a header or footer too): its kind, index path and id.
    /// - Throws: ``ListError/indexOutOfRange(_:)``.
    public func item(at index: Int) throws(ListError) -> ListItem<ID> {
        try state.withLock { s throws(ListError) in
            let i = try s.checkedItem(index)
            return ListItem(index: i, kind: s.items[i].kind, indexPath: s.indexPath(ofFlat: i), id: s.ids[i])
        }
    }

    /// The flat index of the item with `id`, or nil. O(n): for occasional lookups, not per frame.
    public func index(ofID id: ID) -> Int? {
        state.withLock { s in s.idSet.contains(id) ? s.ids.firstIndex { $0 == id } : nil }
    }

    /// Whether an item with `id` is in the list (O(1); the first call may build the id set,
    /// O(n) once, when the background has not yet).
    public func contains(id: ID) -> Bool { state.withLock { $0.idSet.contains(id) } }

    // MARK: settings

    /// Where completions and layout changes of background work run (default
    /// ``ListExecutor/immediate``: on the background thread that finished it).
    public var callbackExecutor: ListExecutor {
        get { state.withLock { $0.executor } }
        set { state.withLock { $0.executor = newValue } }
    }

    /// Whether background measurement applies its results through ``callbackExecutor`` (on
    /// the thread that runs it: a window's main loop) instead of on the worker thread that
    /// measured them (default false).
    ///
    /// When true, heights and the content offset change only on the executor's thread (and
    /// in calls made from other threads), so a UI that reads the list on that thread sees it
    /// change only between its own calls — never in the middle of a frame. The worker measures
    /// a chunk, hands it over, and waits until it is applied before taking the next: the
    /// executor must run jobs (a GLib loop pumps it); while it does not, background measuring
    /// pauses (cancellation and releasing the engine still stop it).
    public var appliesResultsOnExecutor: Bool {
        get { state.withLock { $0.appliesResultsOnExecutor } }
        set { state.withLock { $0.appliesResultsOnExecutor = newValue } }
    }

    /// Called (through ``callbackExecutor``) after background work changed heights or the
    /// offset, so a view can redraw and move its scroll bar; nil for none. Coalesced: at most
    /// one delivery is pending at a time, and it reports the layout when it runs.
    public var layoutObserver: (@Sendable (ListLayoutChange) -> Void)? {
        get { state.withLock { $0.observer } }
        set {
            state.withLock { s in
                s.observer = newValue
                s.pendingAdjustment = 0   // adjustments count from now on
            }
        }
    }

    /// What the viewport does when items change above it (default ``ScrollAnchoring/stayAtTop``).
    public var scrollAnchoring: ScrollAnchoring {
        get { state.withLock { $0.anchoring } }
        set { state.withLock { $0.anchoring = newValue } }
    }

    /// Most drawing forms kept for recently drawn items (default 256; 0 keeps none).
    public var drawingCacheCapacity: Int {
        get { state.withLock { $0.drawingForms.capacity } }
        set { state.withLock { $0.drawingForms.capacity = max(0, newValue) } }
    }

    // MARK: memory

    /// All heights, top to bottom (for tests and export).
    public var allHeights: [Double] { state.withLock { $0.heights.heights } }

    /// Bytes of the height index (the per-item cost of heights and offsets).
    public var heightIndexBytes: Int { state.withLock { $0.heights.byteCount } }

    /// The engine's own bookkeeping per item (record with the form reference and flags, id,
    /// height, id-set entry), in bytes, not counting what ids and measuring forms point to.
    public var bookkeepingBytesPerItem: Double {
        state.withLock { s in
            let n = Double(max(1, s.items.count))
            let recordBytes = Double(MemoryLayout<ItemRecord>.stride + MemoryLayout<ID>.stride)
            // A Set keeps its load factor at most 3/4 in power-of-two capacities.
            let setBytes = Double(s.idSetStorage?.capacity ?? 0) / 0.75 * Double(MemoryLayout<ID>.stride + 1) / n
            return recordBytes + setBytes + Double(s.heights.byteCount) / n
        }
    }

    /// Bytes the measurer reports for every measuring form kept, and how many items have one.
    public var measuringFormBytes: (bytes: Int, items: Int) {
        // Read the forms under the lock, sum them outside it (byteCount is the measurer's code).
        let blocks = state.withLock { s in s.items.blocks.map(\.items) }
        var bytes = 0, items = 0
        for block in blocks {
            for item in block {
                if let form = item.form { bytes += measurer.byteCount(of: measurer.form(of: form)); items += 1 }
            }
        }
        return (bytes, items)
    }
}
