import Foundation
import Testing
@testable import RowKitList

/// Background work can be cancelled, never keeps the engine alive, and reports through the
/// executor the app gives (a GLib main loop, say) — never `DispatchQueue.main` by assumption.
@Suite struct BackgroundLifetimeTests {
    static func rows(_ n: Int) -> [TestRow] { (0..<n).map { Rows.text("t\($0)", length: ($0 * 7919) % 600) } }

    @Test func cancellingStopsTheWorkerAndReportsIt() throws {
        let slot = GateSlot()
        let e = try makeEngine([ListSection(rows: Self.rows(50_000))], measurer: FakeMeasurer(onForm: { slot.pass() }))
        let gate = Gate(limit: 1_000)
        slot.gate = gate
        let done = Completion()
        e.startBackgroundMeasurement(chunkSize: 512, completion: done.callback)
        gate.waitUntilHolding()
        #expect(e.isMeasuringInBackground)
        e.cancelBackgroundMeasurement()
        try #require(done.wait(seconds: 10))
        #expect(done.result == .cancelled)
        #expect(!e.isMeasuringInBackground)
        gate.release()
        // The worker finishes the rows it holds (each checks the token) and takes no more.
        Thread.sleep(forTimeInterval: 0.2)
        let left = e.unmeasuredCount
        Thread.sleep(forTimeInterval: 0.3)
        #expect(e.unmeasuredCount == left)
        #expect(left > 40_000)
        #expect(done.calls == 1)
        // A new run starts cleanly and completes.
        let again = Completion()
        e.startBackgroundMeasurement(completion: again.callback)
        try #require(again.wait(seconds: 60))
        #expect(again.result == .completed)
        #expect(e.unmeasuredCount == 0)
    }

    @Test func theWorkerDoesNotKeepTheEngineAlive() throws {
        let slot = GateSlot()
        weak var weakEngine: FakeEngine?
        let done = Completion()
        let gate = Gate(limit: 10)
        do {
            let e = try makeEngine([ListSection(rows: Self.rows(20_000))], measurer: FakeMeasurer(onForm: { slot.pass() }))
            weakEngine = e
            slot.gate = gate
            e.startBackgroundMeasurement(chunkSize: 1_000, completion: done.callback)
            gate.waitUntilHolding()                        // the worker is measuring, outside the lock
        }
        // The app let go of the engine while its worker was busy: the engine is gone at once.
        #expect(weakEngine == nil)
        try #require(done.wait(seconds: 10))
        #expect(done.result == .cancelled)
        gate.release()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(done.calls == 1)
    }

    @Test func resultsArriveThroughTheGivenExecutor() throws {
        let executor = ManualExecutor()
        let e = try makeEngine([ListSection(rows: Self.rows(5_000))], viewport: 300)
        e.callbackExecutor = executor.executor
        let ranOn = ThreadRecorder()
        let done = Completion()
        e.startBackgroundMeasurement(chunkSize: 500) { result in
            ranOn.record()
            done.finish(result)
        }
        // The work finishes, but its completion waits for the app's loop. (The worker hands
        // the completion to the executor just after it stops counting as running: wait for
        // both, or a descheduled worker fails the test.)
        #expect(eventually { e.unmeasuredCount == 0 && !e.isMeasuringInBackground && executor.pending >= 1 })
        #expect(done.calls == 0)
        executor.runPending()
        #expect(done.calls == 1 && done.result == .completed)
        #expect(ranOn.isCurrentThread, "the completion ran where the executor ran it")
    }

    @Test func theDefaultExecutorNeedsNoMainQueue() throws {
        // Nothing pumps DispatchQueue.main here; completions must arrive all the same.
        let e = try makeEngine([ListSection(rows: Self.rows(2_000))])
        let done = Completion()
        e.startBackgroundMeasurement(completion: done.callback)
        #expect(done.wait(seconds: 30))
        let width = Completion()
        try e.setWidth(200, completion: width.callback)
        #expect(width.wait(seconds: 30))
    }

    @Test func layoutChangesTellTheViewHowFarTheOffsetWasMoved() throws {
        // Rows above the viewport are measured in the background: the content must not move,
        // and the observer's adjustments must add up to how far the offset moved.
        let executor = ManualExecutor()
        let rows = Self.rows(20_000)
        let e = try makeEngine([ListSection(rows: rows)], viewport: 700, defaultEstimate: 44)
        e.callbackExecutor = executor.executor
        let changes = ChangeRecorder()
        e.layoutObserver = { changes.add($0) }
        e.scroll(to: 300_000)
        let visible = try e.visibleItems()
        let anchor = visible[0]
        let screenY = anchor.y - e.contentOffset
        let offsetBefore = e.contentOffset
        let done = Completion()
        e.startBackgroundMeasurement(chunkSize: 1_000, completion: done.callback)
        var delivered = 0
        while done.calls == 0 {
            delivered += executor.runPending()
            Thread.sleep(forTimeInterval: 0.002)
        }
        delivered += executor.runPending()
        #expect(done.result == .completed)
        #expect(changes.count >= 1 && changes.count < 100, "coalesced: \(changes.count)")
        #expect(try e.offset(ofItem: anchor.index) - e.contentOffset == screenY, "the content did not move")
        #expect(abs(changes.totalAdjustment - (e.contentOffset - offsetBefore)) < 1e-6)
        #expect(changes.last?.unmeasuredCount == 0)
        #expect(changes.last?.contentHeight == e.contentHeight)
    }
}

final class ThreadRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var thread: pthread_t?
    func record() { lock.lock(); thread = pthread_self(); lock.unlock() }
    var isCurrentThread: Bool { lock.lock(); defer { lock.unlock() }; return thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
}

final class ChangeRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var changes: [ListLayoutChange] = []
    func add(_ change: ListLayoutChange) { lock.lock(); changes.append(change); lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return changes.count }
    var last: ListLayoutChange? { lock.lock(); defer { lock.unlock() }; return changes.last }
    var totalAdjustment: Double { lock.lock(); defer { lock.unlock() }; return changes.reduce(0) { $0 + $1.offsetAdjustment } }
}
