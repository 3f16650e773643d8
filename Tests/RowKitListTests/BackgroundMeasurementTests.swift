import Foundation
import Testing
@testable import RowKitList

@Suite struct BackgroundMeasurementTests {
    @Test func measuresEverythingWhileTheListIsUpdatedAndScrolled() throws {
        let count = 50_000
        var rng = SeededRandom(seed: 2024)
        var nextID = 0
        func newRow(_ rng: inout SeededRandom) -> TestRow {
            nextID += 1
            return Rows.text("n\(nextID)", length: rng.int(0...600), template: rng.pick(["a", "b", "c"]))
        }
        var sections: [ListSection<TestRow>] = [
            ListSection(header: Rows.fixed("h0", 24, template: "hdr"), rows: (0..<300).map { _ in newRow(&rng) }),
            ListSection(header: Rows.text("h1", length: 30, template: "hdr"), rows: (0..<(count - 300)).map { _ in newRow(&rng) }),
        ]
        let gate = Gate(limit: 30_000)
        let g = gate
        let e = try makeEngine(sections, width: 360, viewport: 640,
                               measurer: FakeMeasurer(onForm: { g.pass() }))
        e.overscan = 100
        let completion = Completion(), second = Completion()
        e.startBackgroundMeasurement(chunkSize: 1_000, completion: completion.callback)
        e.startBackgroundMeasurement(chunkSize: 1_000, completion: second.callback)   // already running: joins it

        let deadline = Date().addingTimeInterval(3)
        var step = 0
        var widthChanged = false
        while step < 400 || (e.itemCount - e.unmeasuredCount < 5_000 && Date() < deadline) {
            step += 1
            // A batch of 1–3 random operations, mirrored on `sections`.
            for _ in 0..<rng.int(1...3) {
              try e.performBatchUpdates { batch in
                    let s = rng.chance(0.1) ? 0 : 1
                    switch rng.int(0..<4) {
                    case 0:
                        let rows = (0..<rng.int(1...3)).map { _ in newRow(&rng) }
                        let at = rng.int(0...sections[s].rows.count)
                        sections[s].rows.insert(contentsOf: rows, at: at)
                        batch.insert(rows, at: ListIndexPath(section: s, row: at))
                    case 1 where !sections[s].rows.isEmpty:
                        let at = rng.int(0..<sections[s].rows.count)
                        sections[s].rows.remove(at: at)
                        batch.delete(at: ListIndexPath(section: s, row: at))
                    case 2 where !sections[s].rows.isEmpty:
                        let at = rng.int(0..<sections[s].rows.count)
                        var row = newRow(&rng)
                        if rng.chance(0.5) { row.id = sections[s].rows[at].id }
                        sections[s].rows[at] = row
                        batch.reload(at: ListIndexPath(section: s, row: at), with: row)
                    case 3 where !sections[s].rows.isEmpty:
                        let from = rng.int(0..<sections[s].rows.count)
                        let row = sections[s].rows.remove(at: from)
                        let to = rng.int(0...sections[s].rows.count)
                        sections[s].rows.insert(row, at: to)
                        batch.move(from: ListIndexPath(section: s, row: from), to: ListIndexPath(section: s, row: to))
                    default:
                        break
                    }
                }
            }
            switch step % 5 {
            case 0: e.scroll(to: Double(rng.int(0...Int(e.contentHeight))))
            case 1: _ = try e.visibleItems()
            case 2: try e.scrollTo(ListIndexPath(section: 1, row: rng.int(0..<sections[1].rows.count)), position: .middle)
            default: break
            }
            if step == 200 && !widthChanged {
                try e.setWidth(412)   // non-blocking: the worker measures the rest
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
        #expect(Self.waitOrStall(completion, e), "background measurement stopped making progress with \(e.unmeasuredCount) rows unmeasured")
        #expect(completion.result == .completed)
        #expect(completion.calls == 1)
        #expect(second.wait(seconds: 5) && second.result == .completed)

        #expect(e.unmeasuredCount == 0)
        let unmeasured = try (0..<e.itemCount).filter { try !e.isMeasured($0) }
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

    /// A row reloaded while its chunk is being measured is measured again (regression: the
    /// background once spun forever on it).
    @Test func completesAfterAReloadDuringMeasurement() throws {
        let gate = Gate(limit: 0)                          // holds the first background row
        let g = gate
        let e = try makeEngine([ListSection(rows: Rows.uniform(10, height: 10))], viewport: 0,
                               measurer: FakeMeasurer(onForm: { g.pass() }))
        let completion = Completion()
        e.startBackgroundMeasurement(completion: completion.callback)
        gate.waitUntilHolding()                            // the first chunk (all ten rows) is taken
        try e.performBatchUpdates { $0.reload(at: ListIndexPath(section: 0, row: 5), with: Rows.fixed("p5", 20)) }
        gate.release()
        let finished = Self.waitOrStall(completion, e, limit: 10)
        let unmeasured = try (0..<10).filter { try !e.isMeasured($0) }
        #expect(finished, "unmeasured: \(unmeasured)")
        #expect(completion.result == .completed)
        #expect(e.unmeasuredCount == 0)
        #expect(e.contentHeight == 110)
    }

    @Test func reportsTheFirstError() throws {
        var rows = Rows.uniform(5_000, height: 10)
        rows[4_321] = Rows.fixed("bad", 10, template: "broken")
        let e = try makeEngine([ListSection(rows: rows)])
        let completion = Completion()
        e.startBackgroundMeasurement(chunkSize: 500, completion: completion.callback)
        try #require(completion.wait(seconds: 30))
        #expect(completion.result == .failed(.rowFailed(id: "bad", reason: BrokenRow(id: "bad"))))
        #expect(e.unmeasuredCount > 0)
        // The list stays usable and can be measured once the row is fixed.
        try e.performBatchUpdates { $0.reload(at: ListIndexPath(section: 0, row: 4_321), with: Rows.fixed("bad", 10)) }
        let again = Completion()
        e.startBackgroundMeasurement(completion: again.callback)
        try #require(again.wait(seconds: 30))
        #expect(again.result == .completed)
        #expect(e.unmeasuredCount == 0)
        #expect(e.contentHeight == 50_000)
    }

    @Test func emptyListCompletesAtOnce() throws {
        let e = try makeEngine([])
        let completion = Completion()
        e.startBackgroundMeasurement(completion: completion.callback)
        try #require(completion.wait(seconds: 10))
        #expect(completion.result == .completed)
    }
}
