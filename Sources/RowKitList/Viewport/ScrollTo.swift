/// Scrolling to a row so that it lands exactly where asked, even among unmeasured rows.
extension ListState {
    /// Where item `index` must sit on screen for `position` (its top's y in the viewport), from
    /// the heights as they are now.
    func screenY(ofItem index: Int, for position: ScrollPosition) -> Double {
        let top = heights.offset(of: index), height = heights.height(at: index)
        switch position {
        case .top: return 0
        case .middle: return (viewportHeight - height) / 2
        case .bottom: return viewportHeight - height
        case .nearest:
            if top >= contentOffset && top + height <= contentOffset + viewportHeight { return top - contentOffset }
            return top < contentOffset || height > viewportHeight ? 0 : viewportHeight - height
        }
    }

    /// The items that decide where item `index` lands at screen y `y`: those between the
    /// viewport's top and it (their heights set its distance from the top; the item at the
    /// viewport's top is the anchor later measuring keeps still) and those below it down to the
    /// viewport's bottom (if the list ends there, they decide the clamp).
    func scrollWindow(ofItem index: Int, at y: Double) -> Range<Int> {
        let top = heights.offset(of: index), height = heights.height(at: index)
        let first = y > 0 ? (heights.row(at: max(0, top - y)) ?? index) : index
        let below = viewportHeight - y - height
        let last = below > 0 ? (heights.row(at: top + height + below - 1 / HeightIndex.unitsPerPixel) ?? index) : index
        return min(first, index)..<(max(last, index) + 1)
    }
}

extension ListEngine {
    /// Scrolls so that the row at `path` sits at the top, middle or bottom of the viewport, or
    /// the least distance that shows it whole (``ScrollPosition/nearest``).
    ///
    /// The row lands exactly there, even when rows around it are unmeasured: the row and every
    /// row between it and the viewport's edges are measured first (rows further away keep their
    /// estimates; when they are measured later, anchoring keeps the row where it is). Near the
    /// ends of the list the offset is clamped, as a scroll view does. Rows between it and the
    /// viewport's edges are measured up to the same budget as ``visibleItems()``'s (reached
    /// only by rows of zero height); past it the row is placed among estimates.
    ///
    /// - Throws: ``ListError/indexOutOfRange(_:)`` for a path that names no row, and the data
    ///   errors of the row itself (a row around it that cannot be measured keeps its estimate;
    ///   ``visibleItems()`` reports it).
    public func scrollTo(_ path: ListIndexPath, position: ScrollPosition = .top) throws(ListError) {
        // The target row first (its height decides the window), then the window around it
        // until every row in it is measured; the offset is set in the lock hold that finds them
        // all measured, so nothing can move in between.
        var failed = Set<UInt32>()   // serials of rows around the target that cannot be measured
        // Rows of zero height around the target all lie in its window: past the budget it is
        // placed among estimates, which anchoring keeps still when they are measured later.
        var budget: Int?
        for _ in 0..<10_000 {
            let step = try state.withLock { s throws(ListError) -> ForegroundStep<Void, Measurer> in
                let index = try s.rowIndex(path)
                if let chunk = s.takeChunk(covering: index..<(index + 1)) { return .measure(chunk) }
                // Where it can be: near the ends the offset is clamped, and the rows then between
                // the viewport's edges and the row are those that decide.
                let top = s.heights.offset(of: index)
                let offset = s.clampOffset(top - s.screenY(ofItem: index, for: position))
                let left = budget ?? s.foregroundBudget
                budget = left
                if left > 0, let part = s.unmeasuredPart(of: s.scrollWindow(ofItem: index, at: top - offset),
                                                                limit: min(left, s.foregroundRoundItems), failed: failed),
                   let chunk = s.takeChunk(covering: part, failed: failed) {
                    return .measure(chunk)
                }
                s.contentOffset = offset
                return .done(())
            }
            switch step {
            case .done:
                return
            case .measure(let chunk):
                budget = budget.map { $0 - chunk.count }
                let results = context.measure(chunk)
                let targetMeasured = state.withLock { s in
                    s.apply(chunk, results)
                    return (try? s.rowIndex(path)).map { s.isMeasured(s.items[$0]) } ?? false
                }
                if let failure = results.failure {
                    guard targetMeasured else { throw failure }
                    // A row around the target failed: leave it with its estimate, measure the rest.
                    failed.formUnion(results.failedSerials)
                }
            }
        }
    }
}
