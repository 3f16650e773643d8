import Dispatch

/// Measuring many items: all at once on the calling thread (``ListEngine/measureAll(chunkSize:progress:)``)
/// or in the background (one worker at a time, on every core, cancellable, holding the engine
/// only weakly).
extension ListEngine {
    /// Measures every item not measured yet, on all cores, in chunks of about `chunkSize`
    /// items, outside the lock (the list stays usable from other threads meanwhile). `progress`
    /// is called on this thread after each chunk with (measured, total), never with the lock held.
    ///
    /// - Throws: the first item that cannot be measured (``ListError/rowFailed(id:reason:)`` or
    ///   another data error), after the rest of its chunk is measured; items measured keep their
    ///   heights, later chunks stay unmeasured.
    public func measureAll(chunkSize: Int = 4096, progress: ((Int, Int) -> Void)? = nil) throws(ListError) {
        // The item at the viewport's top now stays put through all chunks (while nothing moves).
        let (anchor, anchorVersion) = state.withLock { s in (s.captureAnchor(), s.changes.version) }
        while true {
            guard let chunk = state.withLock({ s in s.takeChunk(formsOnly: false, limit: chunkSize) }) else { return }
            let results = context.measure(chunk)
            let (measured, total) = state.withLock { s in
                s.apply(chunk, results, anchor: anchor, anchorVersion: anchorVersion)
                return (s.items.measuredCount, s.items.count)
            }
            let waiting = takeFinishedWidthWaiters()
            deliver(waiting.completions, .completed, executor: waiting.executor)
            if let failure = results.failure { throw failure }
            progress?(measured, total)
        }
    }

    /// Measures every unmeasured item on a background queue, chunk by chunk, while the list
    /// stays usable: updates, scrolling and width changes may happen meanwhile. At most one
    /// background worker runs per engine; calling this while one runs adds `completion` to it.
    ///
    /// The worker holds the engine weakly: releasing the engine stops it (completions get
    /// ``ListMeasurementResult/cancelled``). `completion` runs through ``callbackExecutor``
    /// with `.completed` once every item is measured (at the width current then), `.failed`
    /// with the first item that could not be measured, or `.cancelled`.
    public func startBackgroundMeasurement(chunkSize: Int = 4096, completion: (@Sendable (ListMeasurementResult) -> Void)? = nil) {
        startBackground(formsOnly: false, chunkSize: chunkSize, completion: completion)
    }

    /// Stops the background worker after the rows it is measuring now (each worker checks for
    /// every row). Its completions, and those of width changes in flight, get
    /// ``ListMeasurementResult/cancelled``. Items it did not reach stay unmeasured (visible ones
    /// are still measured on demand).
    public func cancelBackgroundMeasurement() {
        let (executor, waiting) = state.withLock { s in
            guard let run = s.background else { return (s.executor, [@Sendable (ListMeasurementResult) -> Void]()) }
            run.token.cancel()
            s.background = nil
            let waiting = run.completions + s.widthWaiters.map(\.completion)
            s.widthWaiters = []
            return (s.executor, waiting)
        }
        deliver(waiting, .cancelled, executor: executor)
    }

    /// Whether a background worker is running.
    public var isMeasuringInBackground: Bool { state.withLock { $0.background != nil } }

    // MARK: the worker

    func startBackground(formsOnly: Bool, chunkSize: Int, completion: (@Sendable (ListMeasurementResult) -> Void)?) {
        let token: CancellationToken? = state.withLock { s in
            if var run = s.background {
                if !formsOnly { run.formsOnly = false }
                if let completion { run.completions.append(completion) }
                run.chunkSize = max(run.chunkSize, chunkSize)
                s.background = run
                return nil
            }
            let token = CancellationToken()
            s.background = .init(token: token, formsOnly: formsOnly, chunkSize: max(1, chunkSize), completions: completion.map { [$0] } ?? [])
            return token
        }
        guard let token else { return }
        let weak = WeakEngine(self)
        DispatchQueue.global(qos: .userInitiated).async {
            Self.runBackground(weak, token: token)
        }
    }

    /// The worker's loop. It holds the engine strongly only while taking a chunk and applying
    /// results (with the lock), never while measuring or waiting for the executor.
    static func runBackground(_ weak: WeakEngine<ListEngine>, token: CancellationToken) {
        weak.engine?.buildIDSetIfNeeded()
        while true {
            guard let context = weak.engine?.context, let chunk = weak.engine?.nextBackgroundChunk(token) else { return }
            let results = context.measure(chunk, token: token)
            // The engine is held only in this block, not while waiting below.
            let handOver: ListExecutor? = {
                guard let engine = weak.engine else { return nil }
                let (onExecutor, executor) = engine.state.withLock { s in (s.appliesResultsOnExecutor, s.executor) }
                if onExecutor { return executor }
                engine.applyBackground(chunk, results, token: token)
                return nil
            }()
            guard let executor = handOver else {
                if weak.engine == nil { return }
                continue
            }
            // Applied on the executor's thread; the next chunk is taken only after (its items
            // would otherwise still count as unmeasured and be taken again).
            let applied = DispatchSemaphore(value: 0)
            executor.run {
                weak.engine?.applyBackground(chunk, results, token: token)
                applied.signal()
            }
            while applied.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                if token.isCancelled || weak.engine == nil { return }
            }
        }
    }

    /// Builds the id set outside the lock if init left it unbuilt (increasing integer ids), so
    /// that the first batch update does not build it on the caller's thread. Dropped if the
    /// ids changed meanwhile (the set is then built on first use).
    func buildIDSetIfNeeded() {
        var copy: BlockedArray<ID>?
        let version = state.withLock { s -> Int in
            if s.idSetStorage == nil { copy = s.ids }
            return s.idsVersion
        }
        guard copy != nil else { return }
        let set = IDColumn.set(of: copy!)
        state.withLock { s in
            if s.idSetStorage == nil && s.idsVersion == version { s.idSetStorage = set }
            // Let go of the shared id blocks with the lock held (as measuring chunks do): a later
            // in-place write under the lock is then ordered after every read made here.
            copy = nil
        }
    }

    /// The next chunk for the worker `token`, or nil when it is done (its completions are
    /// delivered) or was cancelled or replaced.
    func nextBackgroundChunk(_ token: CancellationToken) -> MeasureChunk<Measurer>? {
        let (step, executor) = state.withLock { s -> (BackgroundStep, ListExecutor) in
            guard let run = s.background, run.token === token, !token.isCancelled else { return (.stop, s.executor) }
            if let chunk = s.takeChunk(formsOnly: run.formsOnly, limit: run.chunkSize) { return (.chunk(chunk), s.executor) }
            s.background = nil
            return (.finished(run.completions), s.executor)
        }
        let waiting = takeFinishedWidthWaiters()
        deliver(waiting.completions, .completed, executor: waiting.executor)
        switch step {
        case .chunk(let chunk): return chunk
        case .finished(let completions):
            deliver(completions, .completed, executor: executor)
            return nil
        case .stop: return nil
        }
    }

    enum BackgroundStep: Sendable {
        case chunk(MeasureChunk<Measurer>)
        case finished([@Sendable (ListMeasurementResult) -> Void])
        case stop
    }

    func applyBackground(_ chunk: MeasureChunk<Measurer>, _ results: MeasureResults, token: CancellationToken) {
        let (failed, executor, notify) = state.withLock { s in
            s.apply(chunk, results)
            var failed: [@Sendable (ListMeasurementResult) -> Void] = []
            if results.failure != nil, var run = s.background, run.token === token, !run.formsOnly {
                // Report the failure; keep measuring only what a width change needs.
                failed = run.completions
                run.completions = []
                run.formsOnly = true
                s.background = run
            }
            return (failed, s.executor, s.claimNotification())
        }
        if let failure = results.failure { deliver(failed, .failed(failure), executor: executor) }
        if notify { scheduleLayoutNotification(executor) }
    }

    /// Delivers one coalesced layout notification through `executor`.
    func scheduleLayoutNotification(_ executor: ListExecutor) {
        let weak = WeakEngine(self)
        executor.run {
            guard let engine = weak.engine else { return }
            let (change, observer) = engine.state.withLock { s in (s.takeLayoutChange(), s.observer) }
            observer?(change)
        }
    }

    /// Width-change completions whose pass is done (every item with a form measured at their width).
    func takeFinishedWidthWaiters() -> (completions: [@Sendable (ListMeasurementResult) -> Void], executor: ListExecutor) {
        state.withLock { s in
            guard !s.widthWaiters.isEmpty, s.items.formCount == s.items.measuredCount else { return ([], s.executor) }
            let done = s.widthWaiters.filter { $0.generation == s.generation }.map(\.completion)
            s.widthWaiters.removeAll { $0.generation == s.generation }
            return (done, s.executor)
        }
    }

    func deliver(_ completions: [@Sendable (ListMeasurementResult) -> Void], _ result: ListMeasurementResult, executor: ListExecutor) {
        for completion in completions { executor.run { completion(result) } }
    }
}

/// A weak reference to an engine, for work that must not keep it alive.
final class WeakEngine<Engine: AnyObject & Sendable>: Sendable {
    weak let engine: Engine?
    init(_ engine: Engine) { self.engine = engine }
}
