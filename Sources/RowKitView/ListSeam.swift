import RowKitList

/// A row's position (section, row) in the engine's terms; this alias is the one place that
/// names the engine's type.
public typealias RowPath = ListIndexPath

/// What the view model needs of a list engine: the only place that calls `ListEngine`, so
/// that engine API changes stay in one file.
///
/// All methods are called on the UI thread. The engine may apply background measurement on
/// another thread meanwhile; the seam hides that (see ``EngineSeam``).
public protocol ListSeam: AnyObject {
    /// Items in the flattened list (headers, rows and footers).
    var itemCount: Int { get }
    /// Total height: exact once every item is measured.
    var contentHeight: Double { get }
    /// y of the viewport's top in the list.
    var contentOffset: Double { get }
    /// The width rows are laid out at.
    var width: Double { get }
    /// Height of the viewport.
    var viewportHeight: Double { get set }
    /// Items not measured yet.
    var unmeasuredCount: Int { get }

    /// The viewport's offset and its items (measured, in list coordinates), read consistently.
    func snapshot() throws -> ListSnapshot
    /// Scrolls so that item `index`'s top is `screenY` below the viewport's top (clamped to
    /// the content), exactly, whatever the heights around it were estimated at.
    func place(item index: Int, atScreenY screenY: Double) throws
    /// Scrolls so that the row at `path` is at `position` (exactly, among unmeasured rows).
    func scrollTo(row path: RowPath, position: RowPosition) throws
    /// Moves the viewport by `dy` relative to what it shows now (background measurement may
    /// change the offset meanwhile without moving the content).
    func scroll(by dy: Double) throws
    /// Scrolls to an absolute offset (clamped).
    func scroll(to offset: Double)
    /// Lays every row out again at `width` without blocking: the visible rows at once, the
    /// rest in the background; the row at the top keeps its screen position.
    func setWidth(_ width: Double) throws

    /// Kind and index path of item `index`.
    func item(at index: Int) -> (kind: ListItemKind, indexPath: RowPath, id: String)
    /// Flat index of a row, or nil when out of range.
    func index(of path: RowPath) -> Int?
    /// Top of item `index` in list coordinates and its height (estimates until measured).
    func offset(ofItem index: Int) -> Double
    /// Item `index`'s height: exact once measured, its estimate before.
    func height(ofItem index: Int) -> Double
    /// Item `index`'s exact height at the current width (measured now if it was not).
    func exactHeight(ofItem index: Int) throws -> Double
    /// The header item of `section`, if it has one.
    func headerIndex(ofSection section: Int) -> Int?
    /// Rows in a section and the number of sections.
    func numberOfRows(inSection section: Int) -> Int
    /// The number of sections.
    var numberOfSections: Int { get }

    /// Selection (nil deselects all) and the highlight of a pressed row (rows only).
    func select(_ path: RowPath?) throws
    /// Highlights the pressed row (nil: none); rows only, headers are never highlighted.
    func highlight(_ path: RowPath?) throws

    /// Measures every unmeasured row on background threads; `completion` runs through the
    /// engine's executor when all are measured (nil) or measuring failed.
    func measureInBackground(completion: @escaping @Sendable (Error?) -> Void)

    /// Where the engine's background results are reported: `executor` runs each callback (the
    /// window's main loop), `layoutChanged` is called there after heights or the offset changed,
    /// with the number of items still unmeasured.
    func deliverBackgroundResults(through executor: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
                                  layoutChanged: @escaping @Sendable (_ unmeasured: Int) -> Void)

    /// Inserts `count` new rows at the top of section 0. With `stayAtTop`, a viewport at offset
    /// 0 stays at offset 0 (the new rows show); otherwise the content on screen does not move.
    func insertAtTop(count: Int, stayAtTop: Bool) throws
}

/// An item on screen: its place in the flattened list (headers, rows and footers of all
/// sections in order), what it is, its row's id, and its frame in list coordinates.
public struct ViewItem: Sendable, Hashable {
    /// Its index in the flattened list.
    public var index: Int
    /// Header, row or footer.
    public var kind: ListItemKind
    /// The section, and for rows the row within it.
    public var indexPath: RowPath
    /// The row's stable id.
    public var id: String
    /// Top of the item in list coordinates, and its height (exact: visible items are measured).
    public var y: Double, height: Double
    /// How it draws: normal, highlighted (pressed) or selected.
    public var state: ListItemState

    /// An item of these fields.
    public init(index: Int, kind: ListItemKind, indexPath: RowPath, id: String, y: Double, height: Double, state: ListItemState = .normal) {
        self.index = index
        self.kind = kind
        self.indexPath = indexPath
        self.id = id
        self.y = y
        self.height = height
        self.state = state
    }
}

/// The items the viewport shows at one offset, taken together.
public struct ListSnapshot: Sendable {
    /// The viewport's top in list coordinates.
    public var offset: Double
    /// The visible items, measured, in list coordinates.
    public var items: [ViewItem]
    /// The list's total height at that moment.
    public var contentHeight: Double
    /// What went wrong measuring visible rows that could not be measured (they keep their
    /// estimated height): the view reports each once and goes on showing the list.
    public var failures: [String] = []

    /// A snapshot of these fields.
    public init(offset: Double, items: [ViewItem], contentHeight: Double, failures: [String] = []) {
        self.offset = offset
        self.items = items
        self.contentHeight = contentHeight
        self.failures = failures
    }
}

/// ``ListSeam`` over RowKit's `ListEngine`.
///
/// Once ``deliverBackgroundResults(through:layoutChanged:)`` is called (the window does), the
/// engine applies background results through that executor — on the UI thread, between the
/// seam's calls — so the list never changes in the middle of a frame. Before that (or with an
/// executor that runs jobs elsewhere) the engine applies them on its worker threads, moving the
/// content offset with them (anchoring): reads that must agree (the items and the offset) then
/// run "quietly", repeated until no background result landed during them (results always lower
/// `ListEngine.unmeasuredCount`), and positioning is expressed relative to an item
/// (`ListEngine.scroll(by:)`, ``place(item:atScreenY:)``) so that nothing jumps.
///
/// Use it on one thread (the UI thread).
public final class EngineSeam<Measurer: RowMeasurer>: ListSeam {
    /// The engine driven.
    public let engine: ListEngine<Measurer>
    /// Makes the rows `insertAtTop` inserts (`--live` rows, a script's `insert`).
    public var makeRows: ((Int) -> [Measurer.Row])?
    /// The id a user knows a row by, from the engine's id (``ViewItem/id``, the frame log's
    /// `firstId`): ids made for the engine (a data source's row numbers) map back to the rows' own.
    public let idText: (Measurer.Row.ID) -> String

    /// A seam over `engine`; `makeRows` makes the rows ``insertAtTop(count:stayAtTop:)`` inserts,
    /// `idText` names a row by its engine id (default: the id as text).
    public init(_ engine: ListEngine<Measurer>, makeRows: ((Int) -> [Measurer.Row])? = nil, idText: ((Measurer.Row.ID) -> String)? = nil) {
        self.engine = engine
        self.idText = idText ?? { "\($0)" }
        self.makeRows = makeRows
    }

    /// The engine's item count.
    public var itemCount: Int { engine.itemCount }
    /// The engine's content height.
    public var contentHeight: Double { engine.contentHeight }
    /// The engine's content offset.
    public var contentOffset: Double { engine.contentOffset }
    /// The engine's width.
    public var width: Double { engine.width }
    /// The engine's viewport height.
    public var viewportHeight: Double {
        get { engine.viewportHeight }
        set { engine.viewportHeight = newValue }
    }
    /// Items the engine has not measured yet.
    public var unmeasuredCount: Int { engine.unmeasuredCount }
    /// The engine's section count.
    public var numberOfSections: Int { engine.numberOfSections }
    /// Rows in `section` (0 for a section not in the list).
    public func numberOfRows(inSection section: Int) -> Int { (try? engine.numberOfRows(inSection: section)) ?? 0 }

    /// Whether background results are applied through the UI thread's loop, between the seam's
    /// calls (``deliverBackgroundResults(through:layoutChanged:)``): then nothing lands while a read runs.
    private var resultsBetweenCalls = false

    /// Runs `body` until no background result landed while it ran (at most 16 tries); once
    /// when results land only between calls. (The body's own measuring lowers the count too:
    /// repeating it then measured up to 16 foreground budgets of zero-height rows a frame.)
    @discardableResult
    func quietly<T>(_ body: () throws -> T) rethrows -> T {
        if resultsBetweenCalls { return try body() }
        var tries = 0
        while true {
            let before = engine.unmeasuredCount
            let result = try body()
            tries += 1
            if engine.unmeasuredCount == before || tries == 16 { return result }
        }
    }

    /// The offset and the visible items, measured, read together (quietly).
    public func snapshot() throws -> ListSnapshot {
        for _ in 0..<8 {
            // A round that measured visible rows itself is repeated too; the next one reads them.
            var failures: [String] = []
            var snap = try quietly {
                ListSnapshot(offset: engine.contentOffset, items: try visibleItems(failures: &failures), contentHeight: engine.contentHeight)
            }
            snap.failures = failures
            // Rows measured shorter than estimated can leave the offset past the end (a blank
            // band at the bottom): pull the viewport back to the end of the content.
            guard snap.offset > max(0, snap.contentHeight - engine.viewportHeight) else { return snap }
            engine.scroll(to: .greatestFiniteMagnitude)
        }
        var failures: [String] = []
        return try quietly {
            ListSnapshot(offset: engine.contentOffset, items: try visibleItems(failures: &failures), contentHeight: engine.contentHeight,
                         failures: failures)
        }
    }

    /// The visible items that take room: a zero-height row shows nothing and cannot be
    /// clicked, and a viewport can hold tens of thousands of them (empty rows), each named,
    /// handed to the painter and given a drawing form every frame.
    /// The visible items; a row that cannot be measured keeps its estimate and its error goes
    /// to `failures` (once per message).
    private func visibleItems(failures: inout [String]) throws -> [ViewItem] {
        var failed: [String] = []
        defer { for message in failed where !failures.contains(message) { failures.append(message) } }
        return try engine.visibleItems(omittingEmpty: true, reportingFailure: { failed.append($0.description) }).map {
            ViewItem(index: $0.index, kind: $0.kind, indexPath: $0.indexPath, id: idText($0.id), y: $0.y, height: $0.height, state: $0.state)
        }
    }

    /// Scrolls so that item `index` starts `screenY` below the viewport's top, placing it
    /// again while measuring rows that come into view moves it.
    public func place(item index: Int, atScreenY screenY: Double) throws {
        guard index >= 0 && index < engine.itemCount else { return }
        // Placing measures the rows that come into view. The engine then keeps the row at the
        // top still, which may move this item: place it again until it sits where asked, or the
        // content ends (the offset stops changing).
        var lastOffset = -1.0
        for _ in 0..<12 {
            quietly { engine.scroll(to: offset(ofItem: index) - screenY) }
            let snap = try snapshot()
            let y = quietly { offset(ofItem: index) - engine.contentOffset }
            if y == screenY || snap.offset == lastOffset { return }
            lastOffset = snap.offset
        }
    }

    /// Scrolls by `dy` with `ListEngine.scroll(by:)`: the rows shown move by exactly `dy`.
    public func scroll(by dy: Double) throws {
        // One engine step, anchored on the rows shown: the rows that come into view are
        // measured and everything that stays on screen moves by exactly dy.
        // A row that cannot be measured keeps its estimate; the next snapshot reports it.
        try engine.scroll(by: dy, reportingFailure: { _ in })
    }

    /// Scrolls to `offset` (clamped).
    public func scroll(to offset: Double) { engine.scroll(to: offset) }

    /// Scrolls the row at `path` to `position`, exactly (`ListEngine.scrollTo(_:position:)`).
    public func scrollTo(row path: RowPath, position: RowPosition) throws {
        let enginePosition: ScrollPosition
        switch position {
        case .top: enginePosition = .top
        case .middle: enginePosition = .middle
        case .bottom: enginePosition = .bottom
        case .nearest: enginePosition = .nearest
        }
        try engine.scrollTo(path, position: enginePosition)
    }

    /// Changes the width without blocking (`ListEngine.setWidth(_:completion:)`).
    public func setWidth(_ width: Double) throws { try engine.setWidth(width) }

    /// Item `index`'s kind, path and id (a row 0 placeholder for an index not in the list).
    public func item(at index: Int) -> (kind: ListItemKind, indexPath: RowPath, id: String) {
        guard let item = try? engine.item(at: index) else { return (.row, RowPath(section: 0, row: 0), "") }
        return (item.kind, item.indexPath, idText(item.id))
    }

    /// The flat index of the row at `path`, or nil.
    public func index(of path: RowPath) -> Int? { try? engine.index(of: path) }
    /// Item `index`'s top in list coordinates (0 when out of range).
    public func offset(ofItem index: Int) -> Double { (try? engine.offset(ofItem: index)) ?? 0 }
    /// Item `index`'s height, an estimate until measured (0 when out of range).
    public func height(ofItem index: Int) -> Double { (try? engine.height(ofItem: index)) ?? 0 }

    /// Item `index`'s exact height, measured now if needed.
    public func exactHeight(ofItem index: Int) throws -> Double {
        try engine.exactHeight(ofItem: index)
    }

    /// The flat index of `section`'s header, or nil when it has none.
    public func headerIndex(ofSection section: Int) -> Int? {
        guard section >= 0 && section < engine.numberOfSections else { return nil }
        // The header sits right before the section's first row; a section without rows is
        // found from its footer or its neighbour.
        var candidate: Int?
        if numberOfRows(inSection: section) > 0, let first = try? engine.index(of: RowPath(section: section, row: 0)) {
            candidate = first - 1
        } else if section + 1 < engine.numberOfSections, numberOfRows(inSection: section + 1) > 0,
                  let next = try? engine.index(of: RowPath(section: section + 1, row: 0)) {
            candidate = next - 1
            while let c = candidate, c >= 0, item(at: c).indexPath.section > section { candidate = c - 1 }
            while let c = candidate, c >= 0, item(at: c).kind == .footer, item(at: c).indexPath.section == section { candidate = c - 1 }
        }
        guard let index = candidate, index >= 0, index < engine.itemCount else { return nil }
        let found = item(at: index)
        return found.kind == .header && found.indexPath.section == section ? index : nil
    }

    /// Selects the row at `path`, or deselects all for nil.
    public func select(_ path: RowPath?) throws {
        if let path { try engine.select(path) } else { engine.deselectAll() }
    }

    /// Highlights the row at `path` (a press), or clears the highlight for nil.
    public func highlight(_ path: RowPath?) throws { try engine.highlight(path) }

    /// Starts the engine's background measurement of every row; `completion` runs through the executor.
    public func measureInBackground(completion: @escaping @Sendable (Error?) -> Void) {
        // Chunks of 1,024 rows: each is applied on the main loop (a fraction of a millisecond)
        // while the next waits; smaller ones spend more time handing over than measuring.
        engine.startBackgroundMeasurement(chunkSize: 1024) { result in
            switch result {
            case .completed, .cancelled, .superseded: completion(nil)
            case .failed(let error): completion(error)
            }
        }
    }

    /// Makes the engine apply background results and report layout changes through `executor`
    /// (the UI thread's loop), so the list changes only between the UI's own calls.
    public func deliverBackgroundResults(through executor: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
                                         layoutChanged: @escaping @Sendable (_ unmeasured: Int) -> Void) {
        engine.callbackExecutor = ListExecutor(executor)
        engine.appliesResultsOnExecutor = true
        resultsBetweenCalls = true
        engine.layoutObserver = { change in layoutChanged(change.unmeasuredCount) }
    }

    /// Inserts `count` rows from `makeRows` at the top of section 0 under the chosen policy.
    public func insertAtTop(count: Int, stayAtTop: Bool) throws {
        guard count > 0, engine.numberOfSections > 0, let rows = makeRows?(count), !rows.isEmpty else { return }
        engine.scrollAnchoring = stayAtTop ? .stayAtTop : .keepContentStill
        try engine.performBatchUpdates { $0.insert(rows, at: RowPath(section: 0, row: 0)) }
    }
}
