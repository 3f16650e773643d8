/// Width changes: every item with a measuring form is measured again at the new width, from its
/// form (no data is asked for, nothing is shaped again); none falls back to an estimate.
extension ListState {
    /// Starts width generation `width`: no item counts as measured any more, estimates start
    /// over. Returns the completions of width changes this one supersedes.
    mutating func startWidthChange(to newWidth: Double) -> [@Sendable (ListMeasurementResult) -> Void] {
        previousGeneration = generation
        previousWidth = width
        width = newWidth
        generation &+= 1
        if generation == 0 { generation = 1 }
        items.startGeneration(generation)
        estimates.reset()
        reestimatePending = true
        let superseded = widthWaiters.map(\.completion)
        widthWaiters = []
        if items.formCount == 0 {
            _ = reestimateUnformed(anchorIndex: 0)
        }
        return superseded
    }

    /// Items with a measuring form not yet measured at the current width.
    var staleFormCount: Int { items.formCount - items.measuredCount }
}

extension ListEngine {
    /// Changes the width without blocking: the visible items are measured at the new width
    /// before this returns; every other item with a measuring form is measured again in the
    /// background, on every core. Until then those items keep their old heights (their exact
    /// heights arrive through ``layoutObserver``); the item at the viewport's top keeps its
    /// screen position throughout. Items never measured get the new width's estimates once
    /// the rest are done.
    ///
    /// At most one width change is in flight: a newer one supersedes it (its `completion` gets
    /// ``ListMeasurementResult/superseded``). `completion` runs through ``callbackExecutor``
    /// with `.completed` once every item with a form has its exact height at `width`.
    ///
    /// - Throws: ``ListError/invalidWidth(_:)`` for a width that is NaN, infinite or outside
    ///   [1, 100000] (nothing changes).
    public func setWidth(_ width: Double, completion: (@Sendable (ListMeasurementResult) -> Void)? = nil) throws(ListError) {
        try Self.check(width: width)
        let (superseded, executor) = state.withLock { s in
            var superseded: [@Sendable (ListMeasurementResult) -> Void] = []
            if width != s.width {
                let anchor = s.captureAnchor()
                superseded = s.startWidthChange(to: width)
                s.restore(anchor)
            }
            if let completion { s.widthWaiters.append((s.generation, completion)) }
            return (superseded, s.executor)
        }
        deliver(superseded, .superseded, executor: executor)
        // Visible items first, on this thread: measuring failures surface in visibleItems().
        _ = try? visibleItems()
        let waiting = takeFinishedWidthWaiters()
        deliver(waiting.completions, .completed, executor: waiting.executor)
        if state.withLock({ $0.staleFormCount > 0 }) {
            startBackground(formsOnly: true, chunkSize: 16_384, completion: nil)
        }
    }

    /// Changes the width and waits until every item with a measuring form has its exact height
    /// at it (measured on every core, outside the lock: other threads keep using the list).
    /// For tools and tests; a window uses ``setWidth(_:completion:)``, which never blocks.
    ///
    /// - Throws: ``ListError/invalidWidth(_:)`` (nothing changes).
    public func setWidthAndWait(_ width: Double) throws(ListError) {
        try Self.check(width: width)
        let start = state.withLock { s -> (superseded: [@Sendable (ListMeasurementResult) -> Void], anchor: ListState<Measurer>.Anchor?, version: Int, generation: UInt32, executor: ListExecutor)? in
            guard width != s.width else { return nil }
            let anchor = s.captureAnchor()
            let superseded = s.startWidthChange(to: width)
            s.restore(anchor)
            return (superseded, anchor, s.changes.version, s.generation, s.executor)
        }
        guard let start else { return }
        deliver(start.superseded, .superseded, executor: start.executor)
        // Pipelined: a chunk's results are applied (serial, with the lock) while the next chunk
        // is measured, as one more piece of its parallel work; measuring and applying one after
        // the other left a core idle for every apply.
        let apply = { @Sendable [state] (chunk: MeasureChunk<Measurer>, results: MeasureResults) in
            state.withLock { s in s.apply(chunk, results, anchor: start.anchor, anchorVersion: start.version) }
        }
        var measured: (chunk: MeasureChunk<Measurer>, results: MeasureResults)?
        while let chunk = state.withLock({ s -> MeasureChunk<Measurer>? in
            // The measured chunk's items still count as stale until applied: stop when they are
            // all that is left (else the cursor wraps around and takes them again).
            guard s.generation == start.generation, s.staleFormCount > (measured?.chunk.pendingCount ?? 0) else { return nil }
            return s.takeChunk(formsOnly: true, limit: 16_384)
        }) {
            var alongside: (@Sendable () -> Void)?
            if let previous = measured {
                let (previousChunk, previousResults) = (previous.chunk, previous.results)
                alongside = { apply(previousChunk, previousResults) }
            }
            let results = context.measure(chunk, alongside: alongside)
            measured = (chunk, results)
        }
        if let measured { apply(measured.chunk, measured.results) }
        // Whatever the count above missed (items changed by other threads meanwhile), one chunk
        // at a time; normally nothing.
        while let chunk = state.withLock({ s in s.generation == start.generation ? s.takeChunk(formsOnly: true, limit: 16_384) : nil }) {
            apply(chunk, context.measure(chunk))
        }
        let waiting = takeFinishedWidthWaiters()
        deliver(waiting.completions, .completed, executor: waiting.executor)
    }
}
