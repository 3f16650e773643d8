import Foundation
import Testing
@testable import RowKitList

/// What a window needs of the engine: background results applied on its own (UI) thread
/// through the executor, and a relative scroll anchored on the rows shown.
@Suite struct WindowNeedsTests {
    /// Jobs queued by the engine, run only when the test pumps them (like a GLib main loop).
    final class PumpedExecutor: @unchecked Sendable {
        private let lock = NSLock()
        private var jobs: [@Sendable () -> Void] = []
        var executor: ListExecutor { ListExecutor { job in self.lock.lock(); self.jobs.append(job); self.lock.unlock() } }
        var pending: Int { lock.lock(); defer { lock.unlock() }; return jobs.count }
        /// Runs the queued jobs on the calling thread; returns how many ran.
        @discardableResult
        func pump() -> Int {
            lock.lock()
            let taken = jobs
            jobs = []
            lock.unlock()
            for job in taken { job() }
            return taken.count
        }
    }

    static func rows(_ count: Int) -> [TestRow] {
        (0..<count).map { Rows.text("r\($0)", length: ($0 * 37) % 400) }
    }

    @Test func backgroundResultsChangeTheListOnlyWhenTheExecutorRuns() throws {
        let pump = PumpedExecutor()
        let e = try makeEngine([ListSection(rows: Self.rows(5_000))])
        e.callbackExecutor = pump.executor
        e.appliesResultsOnExecutor = true
        _ = try e.visibleItems()
        let before = e.unmeasuredCount
        let done = Completion()
        e.startBackgroundMeasurement(chunkSize: 500, completion: done.callback)
        // The worker measures a chunk and waits: nothing changes until the executor runs.
        #expect(eventually { pump.pending > 0 })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(e.unmeasuredCount == before)
        #expect(pump.pending == 1)   // one chunk handed over at a time
        let heights = e.allHeights
        let offset = e.contentOffset
        #expect(e.allHeights == heights && e.contentOffset == offset)
        // Each pump applies what was handed over, on this thread.
        var rounds = 0
        while done.result == nil && rounds < 10_000 {
            let before = e.unmeasuredCount
            if pump.pump() > 0 { #expect(e.unmeasuredCount <= before) } else { Thread.sleep(forTimeInterval: 0.001) }
            rounds += 1
        }
        pump.pump()
        #expect(done.result == .completed)
        #expect(e.unmeasuredCount == 0)
        for (k, row) in Self.rows(5_000).enumerated() { #expect(e.allHeights[k] == FakeMeasurer.height(of: row, width: 320)) }
    }

    @Test func aWorkerWaitingForTheExecutorStopsOnCancelAndDoesNotKeepTheEngine() throws {
        let pump = PumpedExecutor()
        var e: FakeEngine? = try makeEngine([ListSection(rows: Self.rows(3_000))])
        e!.callbackExecutor = pump.executor
        e!.appliesResultsOnExecutor = true
        let done = Completion()
        e!.startBackgroundMeasurement(chunkSize: 300, completion: done.callback)
        #expect(eventually { pump.pending > 0 })
        weak let weakEngine = e
        e = nil
        #expect(weakEngine == nil)           // the waiting worker holds it only weakly
        pump.pump()                          // the handed-over job finds no engine; completions hear "cancelled"
        #expect(eventually { pump.pump(); return done.result == .cancelled })
    }

    @Test func scrollByMovesTheShownRowsByExactlyDyThroughUnmeasuredRows() throws {
        // Estimates (44 px) are far from the real heights (10...186 px): every scroll brings in
        // rows measured now, above and below; the rows that stay on screen move by exactly dy.
        let e = try makeEngine([ListSection(rows: Self.rows(3_000))], viewport: 600)
        try e.scrollTo(path(0, 1_500))
        var shown = try e.visibleItems()
        var rng = SeededRandom(seed: 99)
        for step in 0..<300 {
            let dy = (rng.chance(0.5) ? -1 : 1) * Double(rng.int(1...599)) + (rng.chance(0.3) ? 0.25 : 0)
            let offset = e.contentOffset
            let now = try e.scroll(by: dy)
            var common = 0
            for item in shown {
                guard let after = now.first(where: { $0.id == item.id }) else { continue }
                if e.contentOffset == 0 || e.contentOffset == e.contentHeight - 600 { continue }   // clamped at an end
                #expect(after.y - e.contentOffset == item.y - offset - dy, "step \(step), \(item.id), dy \(dy)")
                common += 1
            }
            if abs(dy) < 300 && e.contentOffset > 0 && e.contentOffset < e.contentHeight - 600 { #expect(common > 0) }
            // What it returns is what is shown, measured.
            #expect(now.map(\.id) == (try e.visibleItems()).map(\.id))
            for item in now { #expect(item.height == FakeMeasurer.height(of: Self.rows(3_000)[Int(item.id.dropFirst())!], width: 320)) }
            shown = now
        }
        #expect(e.unmeasuredCount > 0)       // only what came into view was measured
    }

    @Test func scrollByClampsAtTheEndsAndIgnoresNonFiniteDistances() throws {
        let e = try makeEngine([ListSection(rows: Self.rows(200))], viewport: 600)
        try e.scroll(by: -50)
        #expect(e.contentOffset == 0)
        try e.scroll(by: .nan)
        try e.scroll(by: .infinity)
        #expect(e.contentOffset == 0)
        try e.scroll(by: 1e9)
        let last = try #require(try e.visibleItems().last)
        #expect(last.index == e.itemCount - 1)
        #expect(e.contentOffset == e.contentHeight - 600)
        #expect(last.y + last.height - e.contentOffset == 600)
    }

    @Test func scrollByAndBackgroundResultsPumpedBetweenStepsNeverMoveWhatIsShown() throws {
        // The window's loop: background results applied on the UI thread between scroll steps
        // (pumped), estimates replaced above and below what is shown; the rows shown stay still
        // across each pump and move by exactly dy across each scroll.
        let pump = PumpedExecutor()
        let e = try makeEngine([ListSection(rows: Self.rows(20_000))], viewport: 600)
        e.callbackExecutor = pump.executor
        e.appliesResultsOnExecutor = true
        try e.scrollTo(path(0, 10_000))
        let done = Completion()
        e.startBackgroundMeasurement(chunkSize: 256, completion: done.callback)
        func screen(_ items: [VisibleItem<String>]) -> [String: Double] {
            let offset = e.contentOffset
            return Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.y - offset) })
        }
        var shown = screen(try e.visibleItems())
        var steps = 0
        while done.result == nil || steps < 100 {
            pump.pump()
            let still = screen(try e.visibleItems())
            for (id, y) in shown { if let now = still[id] { #expect(now == y, "pump \(steps), \(id)") } }
            let dy = Double(steps % 9) * 17.5 - 70
            let moved = screen(try e.scroll(by: dy))
            for (id, y) in still { if let now = moved[id] { #expect(now == y - dy, "step \(steps), \(id)") } }
            shown = moved
            steps += 1
            if steps > 50_000 { break }
        }
        #expect(done.result == .completed)
        #expect(e.unmeasuredCount == 0)
    }
}
