/// Stops a scan of the items at the first one that matches.
struct FoundItem: Error { let index: Int }

/// The viewport: geometry, scrolling and the items it shows.
extension ListState {
    /// Flat indices of the items intersecting the viewport with overscan.
    func visibleRange() -> Range<Int> {
        guard items.count > 0 else { return 0..<0 }
        let top = max(0, contentOffset - overscan)
        let bottom = contentOffset + viewportHeight + overscan
        guard let first = heights.row(at: top) else { return 0..<0 }
        // Zero-height items right after the viewport are not visible; items ending at the
        // bottom edge are.
        let last = max(first, heights.row(at: max(top, bottom - 1.0 / HeightIndex.unitsPerPixel)) ?? first)
        return first..<(last + 1)
    }

    /// Most items one call measures on the caller's thread to fill the viewport (or to place a
    /// `scrollTo` target): every item a viewport of rows at least 1 px tall can show, and 1,024
    /// more. Only rows of (nearly) zero height reach it: each lies in the viewport, so a list of
    /// 200,000 of them was measured whole before its first frame (4.8 s in a debug build); past
    /// the budget the call returns what is measured and the background measures the rest.
    var foregroundBudget: Int { 1_024 + Int(min(1_000_000, viewportHeight + 2 * overscan)) }

    /// Most items one foreground round measures: a chunk under 256 items is measured on the
    /// calling thread alone (`MeasuringContext.pieces`). Larger ones were spread over the
    /// dispatch pool, whose threads an app may have lowered for its background measuring (the
    /// window sets them to nice 10): a frame of zero-height rows then waited 0.3–2 s for pieces
    /// on lowered threads at load 10.
    var foregroundRoundItems: Int { 255 }

    /// The part of `range` one foreground round measures: from its first item not measured yet
    /// (items whose serial is in `failed` count as measured) on, at most `limit` items; nil when
    /// every item in `range` is measured.
    func unmeasuredPart(of range: Range<Int>, limit: Int, failed: Set<UInt32> = []) -> Range<Int>? {
        do {
            try items.forEach(in: range) { index, item in
                if item.generation != generation && (failed.isEmpty || !failed.contains(item.serial)) { throw FoundItem(index: index) }
            }
        } catch let found as FoundItem {
            return found.index..<min(range.upperBound, found.index + max(1, limit))
        } catch {}   // forEach throws only what its body does
        return nil
    }

    /// The items in `range`, with their frames and states; without those of zero height when
    /// `omittingEmpty` (a viewport can hold tens of thousands of empty rows).
    func visibleItems(in range: Range<Int>, omittingEmpty: Bool = false) -> [VisibleItem<ID>] {
        var result: [VisibleItem<ID>] = []
        guard !range.isEmpty else { return result }
        let rangeHeights = heights.heights(in: range)
        result.reserveCapacity(omittingEmpty ? rangeHeights.lazy.filter { $0 > 0 }.count : range.count)
        var y = heights.offset(of: range.lowerBound)
        var records: [ItemRecord] = []
        records.reserveCapacity(range.count)
        items.forEach(in: range) { _, record in records.append(record) }
        ids.forEach(in: range) { index, id in
            let height = rangeHeights[index - range.lowerBound]
            defer { y += height }
            if omittingEmpty && height == 0 { return }
            let record = records[index - range.lowerBound]
            result.append(VisibleItem(index: index, kind: record.kind, indexPath: indexPath(ofFlat: index), id: id, y: y,
                                      height: height, state: state(of: record, id: id)))
        }
        return result
    }
}

extension ListEngine {
    /// The width rows are laid out at.
    public var width: Double { state.withLock { $0.width } }

    /// Total height: exact once every item is measured, estimated before.
    public var contentHeight: Double { state.withLock { $0.heights.totalHeight } }

    /// y of the viewport's top in list coordinates. The engine moves it itself only to keep
    /// what the viewport shows still (anchoring); see ``layoutObserver``.
    public var contentOffset: Double { state.withLock { $0.contentOffset } }

    /// Height of the viewport (negative and NaN are 0; clamped to 10¹² px).
    public var viewportHeight: Double {
        get { state.withLock { $0.viewportHeight } }
        set {
            let value = newValue.isNaN ? 0 : min(max(0, newValue), HeightIndex.maximumOffset)
            state.withLock { $0.viewportHeight = value }
        }
    }

    /// Extra height above and below the viewport whose items count as visible (for drawing
    /// ahead and for reuse); negative and NaN are 0.
    public var overscan: Double {
        get { state.withLock { $0.overscan } }
        set {
            let value = newValue.isNaN ? 0 : min(max(0, newValue), HeightIndex.maximumOffset)
            state.withLock { $0.overscan = value }
        }
    }

    /// Top of item `index` in list coordinates.
    /// - Throws: ``ListError/indexOutOfRange(_:)``.
    public func offset(ofItem index: Int) throws(ListError) -> Double {
        try state.withLock { s throws(ListError) in s.heights.offset(of: try s.checkedItem(index)) }
    }

    /// Height of item `index` (an estimate until it is measured).
    /// - Throws: ``ListError/indexOutOfRange(_:)``.
    public func height(ofItem index: Int) throws(ListError) -> Double {
        try state.withLock { s throws(ListError) in s.heights.height(at: try s.checkedItem(index)) }
    }

    /// Whether item `index` has its exact height at the current width.
    /// - Throws: ``ListError/indexOutOfRange(_:)``.
    public func isMeasured(_ index: Int) throws(ListError) -> Bool {
        try state.withLock { s throws(ListError) in s.isMeasured(s.items[try s.checkedItem(index)]) }
    }

    /// The item at list coordinate `y` (items are half-open [top, top + height); y above the
    /// list gives the first, below it the last), or nil for an empty list.
    public func item(atY y: Double) -> Int? { state.withLock { $0.heights.row(at: y) } }

    /// The exact height of item `index` at the current width, measuring it now (on this
    /// thread, outside the lock) if it is not measured yet; the viewport stays anchored.
    /// - Throws: ``ListError/indexOutOfRange(_:)`` and the data errors of the item.
    public func exactHeight(ofItem index: Int) throws(ListError) -> Double {
        for _ in 0..<1_000 {
            let measured = try state.withLock { s throws(ListError) -> Double? in
                let i = try s.checkedItem(index)
                return s.isMeasured(s.items[i]) ? s.heights.height(at: i) : nil
            }
            if let measured { return measured }
            // Another thread may have removed the item since the lock above was let go: the
            // index is checked again in this hold, and the next round's check then throws.
            _ = try measureOnce { s in index < s.items.count ? s.takeChunk(covering: index..<(index + 1)) : nil }
        }
        return try height(ofItem: index)
    }

    /// Scrolls to `offset`, clamped to 0…(content height − viewport height).
    public func scroll(to offset: Double) {
        state.withLock { s in s.contentOffset = s.clampOffset(offset) }
    }

    /// Flat indices of the items intersecting the viewport with overscan (heights as they
    /// are now: unmeasured items count with estimates).
    public func visibleRange() -> Range<Int> { state.withLock { $0.visibleRange() } }

    /// Scrolls by `dy` pixels relative to what the viewport shows now (positive: the content
    /// moves up), as one step: whatever rows come into view are measured, and the rows that
    /// were shown and stay in view move by exactly `dy` on screen — an estimate replaced by an
    /// exact height during the scroll never makes them jump. Clamped at the ends of the list.
    ///
    /// The reference is the shown item that stays on screen (the bottom one when scrolling
    /// down, the top one when scrolling up); for `|dy|` of a viewport or more, the item that
    /// comes to the top keeps its place while rows are measured. Returns the items now shown,
    /// measured, as ``visibleItems()`` does.
    ///
    /// - Throws: the data errors of a row that comes into view and cannot be measured (the
    ///   scroll happens all the same).
    @discardableResult
    public func scroll(by dy: Double) throws(ListError) -> [VisibleItem<ID>] {
        var failure: ListError?
        let items = try scroll(by: dy, reportingFailure: { if failure == nil { failure = $0 } })
        if let failure { throw failure }
        return items
    }

    /// ``scroll(by:)``, passing a row that cannot be measured to `report` (it keeps its
    /// estimate) instead of throwing: a window scrolls on past it.
    @discardableResult
    package func scroll(by dy: Double, reportingFailure report: @escaping (ListError) -> Void) throws(ListError) -> [VisibleItem<ID>] {
        // What is shown is measured first (a no-op when it was drawn): the reference's screen
        // position is then exact, not an estimate's.
        let shown = try visibleItems(omittingEmpty: false, reportingFailure: report)
        guard dy.isFinite, dy != 0 else { return shown }
        let (anchor, version, toEnd) = state.withLock { s -> (ListState<Measurer>.Anchor?, Int, Bool) in
            // A scroll that reaches the end stays at the end while the rows there are measured.
            if s.contentOffset + dy >= max(0, s.heights.totalHeight - s.viewportHeight) {
                s.contentOffset = s.clampOffset(s.contentOffset + dy)
                return (nil, s.changes.version, true)
            }
            var anchor: ListState<Measurer>.Anchor?
            let limit = s.contentOffset + s.viewportHeight - 1 / HeightIndex.unitsPerPixel
            if abs(dy) < s.viewportHeight, let top = s.heights.row(at: s.contentOffset), let bottom = s.heights.row(at: max(s.contentOffset, limit)) {
                let index = dy > 0 ? bottom : top
                anchor = .init(index: index, screenY: s.heights.offset(of: index) - s.contentOffset - dy, wasAtTop: false, wasAtBottom: false)
            }
            s.contentOffset = s.clampOffset(s.contentOffset + dy)
            if anchor == nil { anchor = s.captureAnchor().map { .init(index: $0.index, screenY: $0.screenY, wasAtTop: false, wasAtBottom: false) } }
            return (anchor, s.changes.version, false)
        }
        return try measureVisible(holding: anchor, version: version, atEnd: toEnd, reportingFailure: report)
    }

    /// Measures the visible items until none is left unmeasured, keeping `anchor` at its screen
    /// y (while nothing moved since `version`), or the viewport at the end (`atEnd`), and the
    /// offset within the content.
    func measureVisible(holding anchor: ListState<Measurer>.Anchor?, version: Int, atEnd: Bool = false,
                        reportingFailure report: ((ListError) -> Void)? = nil) throws(ListError) -> [VisibleItem<ID>] {
        try measureVisibleRounds(reportingFailure: report, before: { s in
            if anchor != nil && s.changes.version == version { s.restore(anchor) }
            if atEnd { s.adjustOffset(to: max(0, s.heights.totalHeight - s.viewportHeight)) }
            let clamped = s.clampOffset(s.contentOffset)
            if clamped != s.contentOffset { s.adjustOffset(to: clamped) }
        }, apply: { s, chunk, results in
            s.apply(chunk, results, anchor: anchor, anchorVersion: version, pinnedToBottom: false)
        })
    }

    /// Rounds of measuring the visible items until none is left unmeasured (measuring changes
    /// heights, which can bring more items into view): `before` runs in each round's lock hold
    /// before the visible range is taken, `apply` applies a round's results. Each round measures
    /// at least one item unless another thread changes the width meanwhile, so the bound only
    /// guards against that. Past the state's `foregroundBudget` of items measured (rows of zero
    /// height, all in view) it returns the visible items down to the first unmeasured one.
    /// `report`: given, a row that cannot be measured is passed to it (the first of the call)
    /// and keeps its estimate, and the items are returned all the same (a window keeps showing
    /// the list); nil, the first failure is thrown at the end.
    private func measureVisibleRounds(omittingEmpty: Bool = false, reportingFailure report: ((ListError) -> Void)? = nil,
                                      before: (inout ListState<Measurer>) -> Void,
                                      apply: (inout ListState<Measurer>, MeasureChunk<Measurer>, MeasureResults) -> Void) throws(ListError) -> [VisibleItem<ID>] {
        var budget: Int?
        // What the last round scanned: items from `start` to `index` (its first unmeasured
        // one) stay measured until a structural change (version) or a width change
        // (generation), so a round whose range starts inside that span scans from `index`
        // (the range's measured empty rows were scanned again every round).
        var resume: (version: Int, generation: UInt32, start: Int, index: Int)?
        // Rows that could not be measured in this call count as measured for its later rounds
        // (the rows after them are measured all the same); the first failure is thrown at the end.
        var failed = Set<UInt32>()
        var firstFailure: ListError?
        for _ in 0..<10_000 {
            let step = state.withLock { s -> ForegroundStep<[VisibleItem<ID>], Measurer> in
                before(&s)
                let range = s.visibleRange()
                let left = budget ?? s.foregroundBudget
                budget = left
                var from = range.lowerBound
                if let resume, resume.version == s.changes.version, resume.generation == s.generation,
                   resume.start <= from, from <= resume.index {
                    from = min(range.upperBound, resume.index)
                }
                guard let part = s.unmeasuredPart(of: from..<range.upperBound, limit: min(left, s.foregroundRoundItems), failed: failed) else {
                    return .done(s.visibleItems(in: range, omittingEmpty: omittingEmpty))
                }
                if left <= 0 { return .done(s.visibleItems(in: range.lowerBound..<part.lowerBound, omittingEmpty: omittingEmpty)) }
                resume = (s.changes.version, s.generation, range.lowerBound, part.lowerBound)
                if let chunk = s.takeChunk(covering: part, failed: failed) { return .measure(chunk) }
                return .done(s.visibleItems(in: range, omittingEmpty: omittingEmpty))
            }
            switch step {
            case .done(let visible):
                if let firstFailure {
                    guard let report else { throw firstFailure }
                    report(firstFailure)
                }
                return visible
            case .measure(let chunk):
                budget! -= chunk.count
                let results = context.measure(chunk)
                state.withLock { s in apply(&s, chunk, results) }
                if let failure = results.failure {
                    if firstFailure == nil { firstFailure = failure }
                    failed.formUnion(results.failedSerials)
                }
            }
        }
        if let firstFailure {
            guard let report else { throw firstFailure }
            report(firstFailure)
        }
        return state.withLock { s in s.visibleItems(in: s.visibleRange(), omittingEmpty: omittingEmpty) }
    }

    /// The items in the viewport (plus ``overscan`` above and below) with their frames and
    /// states, measured first so their heights are exact. The item at the viewport's top keeps
    /// its screen position while items are measured.
    ///
    /// One call measures at most 1,024 items plus one per pixel of viewport and overscan, which
    /// a viewport of rows at least 1 px tall never needs; past that (rows of zero height, every
    /// one in view) it returns the visible items down to the first unmeasured one, and the next
    /// call (or background measurement) goes on from there.
    ///
    /// - Throws: ``ListError/rowFailed(id:reason:)`` (and the other data errors) when a visible
    ///   item cannot be measured; the others are measured all the same.
    public func visibleItems() throws(ListError) -> [VisibleItem<ID>] {
        try visibleItems(omittingEmpty: false)
    }

    /// ``visibleItems()``, without the items of zero height when `omittingEmpty` (they take
    /// no room and draw nothing; a window leaves them out of its frames).
    /// `report`: see `measureVisibleRounds` (a window passes it, so that one bad row does not
    /// stop it).
    package func visibleItems(omittingEmpty: Bool, reportingFailure report: ((ListError) -> Void)? = nil) throws(ListError) -> [VisibleItem<ID>] {
        // Whether the viewport shows the end is decided once, as the call begins (with
        // `.stickToBottom`, rounds of measuring must not make it stick halfway).
        var pinned: Bool?
        return try measureVisibleRounds(omittingEmpty: omittingEmpty, reportingFailure: report, before: { s in
            if pinned == nil { pinned = s.isAtBottom }
        }, apply: { s, chunk, results in
            s.apply(chunk, results, pinnedToBottom: pinned)
        })
    }
}
