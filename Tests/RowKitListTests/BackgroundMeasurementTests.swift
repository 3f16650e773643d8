import Foundation
import Testing
@testable import RowKitList
import RowKitCells

/// Holds background measuring back after a number of rows until the test opens it, so updates
/// and scrolls are guaranteed to happen while it runs. Rows prepared on the test's own thread
/// (on-demand measuring of visible rows) pass freely.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var open = false
    private var backgroundPrepares = 0
    private let foreground = pthread_self()
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func prepare() {
        guard pthread_equal(pthread_self(), foreground) == 0 else { return }
        condition.lock()
        backgroundPrepares += 1
        while !open && backgroundPrepares > limit { condition.wait() }
        condition.unlock()
    }

    /// Blocks until a background thread waits at the gate.
    func waitUntilHolding() {
        condition.lock()
        while backgroundPrepares <= limit { _ = condition.wait(until: Date().addingTimeInterval(0.01)) }
        condition.unlock()
    }

    func release() {
        condition.lock()
        open = true
        condition.broadcast()
        condition.unlock()
    }
}

/// The completion's result, handed from the background queue to the test.
final class Completion: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var _error: Error?
    private var _calls = 0
    var error: Error? { lock.lock(); defer { lock.unlock() }; return _error }
    var calls: Int { lock.lock(); defer { lock.unlock() }; return _calls }
    func finish(_ error: Error?) {
        lock.lock(); _error = error; _calls += 1; lock.unlock()
        semaphore.signal()
    }
    func wait(seconds: Double) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
}

@Suite struct BackgroundMeasurementTests {
    @Test func measuresEverythingWhileTheListIsUpdatedAndScrolled() throws {
        let count = 50_000
        var rng = SeededRandom(seed: 2024)
        var nextID = 0
        func newRow(_ rng: inout SeededRandom) -> ListRow {
            nextID += 1
            return Rows.text("n\(nextID)", length: rng.int(0...600), template: rng.pick(["a", "b", "c"]))
        }
        var sections: [ListSection] = [
            ListSection(id: "top", header: Rows.fixed("h0", 24, template: "hdr"), rows: (0..<300).map { _ in newRow(&rng) }),
            ListSection(id: "main", header: Rows.text("h1", length: 30, template: "hdr"), rows: (0..<(count - 300)).map { _ in newRow(&rng) }),
        ]
        let gate = Gate(limit: 30_000)
        let g = gate
        let e = try makeEngine(sections, width: 360, viewport: 640,
                               measurer: FakeMeasurer(onPrepare: { g.prepare() }))
        e.overscan = 100
        let completion = Completion()
        let done = completion
        e.startBackgroundMeasurement(chunkSize: 1_000) { done.finish($0) }
        e.startBackgroundMeasurement(chunkSize: 1_000) { done.finish($0) }   // already running: ignored

        let deadline = Date().addingTimeInterval(3)
        var step = 0
        var widthChanged = false
        while step < 400 || (e.itemCount - e.unmeasuredCount < 5_000 && Date() < deadline) {
            step += 1
            // A batch of 1–3 random operations, mirrored on `sections`.
            try e.performBatchUpdates { batch in
                for _ in 0..<rng.int(1...3) {
                    let s = rng.chance(0.1) ? 0 : 1
                    switch rng.int(0..<4) {
                    case 0:
                        let rows = (0..<rng.int(1...3)).map { _ in newRow(&rng) }
                        let at = rng.int(0...sections[s].rows.count)
                        sections[s].rows.insert(contentsOf: rows, at: at)
                        batch.insert(rows, at: IndexPath(section: s, row: at))
                    case 1 where !sections[s].rows.isEmpty:
                        let at = rng.int(0..<sections[s].rows.count)
                        sections[s].rows.remove(at: at)
                        batch.delete(at: IndexPath(section: s, row: at))
                    case 2 where !sections[s].rows.isEmpty:
                        let at = rng.int(0..<sections[s].rows.count)
                        var row = newRow(&rng)
                        if rng.chance(0.5) { row.id = sections[s].rows[at].id }
                        sections[s].rows[at] = row
                        batch.reload(at: IndexPath(section: s, row: at), with: row)
                    case 3 where !sections[s].rows.isEmpty:
                        let from = rng.int(0..<sections[s].rows.count)
                        let row = sections[s].rows.remove(at: from)
                        let to = rng.int(0...sections[s].rows.count)
                        sections[s].rows.insert(row, at: to)
                        batch.move(from: IndexPath(section: s, row: from), to: IndexPath(section: s, row: to))
                    default:
                        break
                    }
                }
            }
            switch step % 5 {
            case 0: e.scroll(to: Double(rng.int(0...Int(e.contentHeight))))
            case 1: _ = try e.visibleItems()
            case 2: try e.scrollTo(IndexPath(section: 1, row: rng.int(0..<sections[1].rows.count)), position: .middle)
            default: break
            }
            if step == 200 && !widthChanged {
                try e.setWidth(412)
                widthChanged = true
            }
            if step % 50 == 0 { Thread.sleep(forTimeInterval: 0.002) }
        }
        let itemCount = sections.reduce(0) { $0 + $1.rows.count + 1 }
        #expect(e.itemCount == itemCount)
        // The gate holds the background back: it cannot have finished yet.
        #expect(completion.calls == 0)
        #expect(e.unmeasuredCount > 0)
        gate.release()
        if !Self.waitOrStall(completion, e) {
            withKnownIssue("background measurement livelocks after updates made while it runs", isIntermittent: true) {
                Issue.record("background measurement stopped making progress with \(e.unmeasuredCount) rows unmeasured")
            }
            // Rescue, so the rest can be checked: measure every row in the foreground.
            e.viewportHeight = e.contentHeight + 1_000
            e.scroll(to: 0)
            _ = try e.visibleItems()
            try #require(completion.wait(seconds: 20), "background measurement did not finish")
        }
        #expect(completion.error == nil)
        #expect(completion.calls == 1)

        #expect(e.unmeasuredCount == 0)
        let unmeasured = (0..<e.itemCount).filter { !e.isMeasured($0) }
        #expect(unmeasured.isEmpty, "unmeasured items: \(unmeasured.prefix(10))")
        let fresh = try makeEngine(sections, width: 412)
        try fresh.measureAll()
        let heights = e.allHeights, expected = fresh.allHeights
        #expect(heights.count == expected.count)
        let wrong = heights.indices.filter { heights[$0] != expected[$0] }
        #expect(wrong.isEmpty, "\(wrong.count) wrong heights, first at \(wrong.prefix(5))")
        #expect(e.contentHeight == fresh.contentHeight)
    }

    /// Waits for completion; false when measuring stops making progress for 2 s first.
    static func waitOrStall(_ completion: Completion, _ e: FakeEngine, limit: Double = 30) -> Bool {
        var last = e.unmeasuredCount, still = 0.0, waited = 0.0
        while waited < limit {
            if completion.wait(seconds: 0.25) { return true }
            waited += 0.25
            let now = e.unmeasuredCount
            if now == last { still += 0.25 } else { still = 0; last = now }
            if still >= 2 { return false }
        }
        return false
    }

    /// Minimal reproduction: a row reloaded while a chunk is being measured is never measured
    /// by the background again, which spins forever.
    @Test func completesAfterAReloadDuringMeasurement() throws {
        let gate = Gate(limit: 0)                          // holds the first background row
        let g = gate
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(10, height: 10))], viewport: 0,
                               measurer: FakeMeasurer(onPrepare: { g.prepare() }))
        let completion = Completion()
        let done = completion
        e.startBackgroundMeasurement { done.finish($0) }
        gate.waitUntilHolding()                            // the first chunk (all ten rows) is taken
        try e.performBatchUpdates { $0.reload(at: IndexPath(section: 0, row: 5), with: Rows.fixed("p5", 20)) }
        gate.release()
        let finished = Self.waitOrStall(completion, e, limit: 10)
        #expect(finished, "unmeasured: \((0..<10).filter { !e.isMeasured($0) })")
        if !finished {
            try e.scrollTo(IndexPath(section: 0, row: 5))  // measuring the stuck row in the foreground ends the spin
            try #require(completion.wait(seconds: 10))
        }
        #expect(e.unmeasuredCount == 0)
        #expect(e.contentHeight == 110)
    }

    @Test func reportsTheFirstError() throws {
        var rows = Rows.uniform(5_000, height: 10)
        rows[4_321] = Rows.fixed("bad", 10, template: "broken")
        let e = try makeEngine([ListSection(id: "s", rows: rows)])
        let completion = Completion()
        let done = completion
        e.startBackgroundMeasurement(chunkSize: 500) { done.finish($0) }
        try #require(completion.wait(seconds: 30))
        #expect(completion.error as? ListError == .unknownTemplate(row: "bad", template: "broken", known: ["a", "b", "c"]))
        #expect(e.unmeasuredCount > 0)
        // The list stays usable and can be measured once the row is fixed.
        try e.performBatchUpdates { $0.reload(at: IndexPath(section: 0, row: 4_321), with: Rows.fixed("bad", 10)) }
        let again = Completion()
        let done2 = again
        e.startBackgroundMeasurement { done2.finish($0) }
        try #require(again.wait(seconds: 30))
        #expect(again.error == nil)
        #expect(e.unmeasuredCount == 0)
        #expect(e.contentHeight == 50_000)
    }

    @Test func emptyListCompletesAtOnce() throws {
        let e = try makeEngine([])
        let completion = Completion()
        let done = completion
        e.startBackgroundMeasurement { done.finish($0) }
        try #require(completion.wait(seconds: 10))
        #expect(completion.error == nil)
    }
}
