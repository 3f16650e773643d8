import Foundation
import Testing
@testable import RowKitList

/// Width changes that never block: visible rows first, the rest in the background, no measuring
/// with the engine's lock held, a newer change superseding an older one.
@Suite struct WidthChangeTests {
    /// Counts measurer calls made while the engine's lock is held (there must be none).
    final class LockWatch: @unchecked Sendable {
        private let lock = NSLock()
        weak var engine: FakeEngine?
        private var _violations = 0, _checks = 0
        var violations: Int { lock.lock(); defer { lock.unlock() }; return _violations }
        var checks: Int { lock.lock(); defer { lock.unlock() }; return _checks }
        func check() {
            guard let engine else { return }
            let held = engine.state.isLockedForTesting
            lock.lock()
            _checks += 1
            if held { _violations += 1 }
            lock.unlock()
        }
    }

    static func rows(_ n: Int) -> [TestRow] { (0..<n).map { Rows.text("t\($0)", length: ($0 * 7919) % 900) } }

    @Test func setWidthReturnsWithTheVisibleRowsMeasuredAndTheRestFollows() throws {
        let rows = Self.rows(20_000)
        let slot = GateSlot()
        let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 600,
                               measurer: FakeMeasurer(onHeight: { slot.pass() }))
        try e.measureAll()
        let gate = Gate(limit: 0)
        slot.gate = gate
        e.scroll(to: 50_000)
        let anchor = e.item(atY: e.contentOffset)!
        let screenY = try e.offset(ofItem: anchor) - e.contentOffset
        let done = Completion()
        // The background is held at the gate: setWidth must return all the same.
        try e.setWidth(480, completion: done.callback)
        let visible = e.visibleRange()
        #expect(try visible.allSatisfy { try e.isMeasured($0) }, "visible rows are measured before setWidth returns")
        #expect(try visible.allSatisfy { try e.height(ofItem: $0) == Units.round(FakeMeasurer.height(of: rows[$0], width: 480)) })
        #expect(e.unmeasuredCount > 10_000, "the rest is left to the background")
        #expect(e.isMeasuringInBackground)
        #expect(try e.offset(ofItem: anchor) - e.contentOffset == screenY, "the top row did not move")
        #expect(done.calls == 0)
        gate.release()
        try #require(done.wait(seconds: 60))
        #expect(done.result == .completed)
        #expect(e.unmeasuredCount == 0)
        #expect(e.allHeights == rows.map { Units.round(FakeMeasurer.height(of: $0, width: 480)) })
        #expect(try e.offset(ofItem: anchor) - e.contentOffset == screenY, "nor while the rest landed")
    }

    @Test func nothingIsMeasuredWithTheLockHeld() throws {
        let watch = LockWatch()
        let w = watch
        let measurer = FakeMeasurer(onForm: { w.check() }, onHeight: { w.check() })
        let rows = Self.rows(5_000)
        let e = try FakeEngine(sections: [ListSection(rows: rows.map(\.id))], dataSource: CountingSource(rows), measurer: measurer, width: 300)
        watch.engine = e
        e.viewportHeight = 500
        e.overscan = 100
        _ = try e.visibleItems()
        try e.scrollTo(path(0, 2_500), position: .middle)
        try e.measureAll(chunkSize: 700)
        try e.setWidthAndWait(400)
        let done = Completion()
        try e.setWidth(250, completion: done.callback)
        try #require(done.wait(seconds: 60))
        e.reloadData()
        let background = Completion()
        e.startBackgroundMeasurement(chunkSize: 300, completion: background.callback)
        try #require(background.wait(seconds: 60))
        _ = try e.exactHeight(ofItem: 17)
        #expect(watch.checks > 20_000)
        #expect(watch.violations == 0)
    }

    @Test func aNewerWidthChangeSupersedesTheOlderOne() throws {
        let rows = Self.rows(10_000)
        let slot = GateSlot()
        let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 400, measurer: FakeMeasurer(onHeight: { slot.pass() }))
        try e.measureAll()
        let gate = Gate(limit: 0)
        slot.gate = gate
        let first = Completion(), second = Completion()
        try e.setWidth(480, completion: first.callback)
        try e.setWidth(200, completion: second.callback)
        try #require(first.wait(seconds: 10))
        #expect(first.result == .superseded)
        #expect(e.width == 200)
        gate.release()
        try #require(second.wait(seconds: 60))
        #expect(second.result == .completed)
        #expect(e.allHeights == rows.map { Units.round(FakeMeasurer.height(of: $0, width: 200)) })
        // The same width again: nothing to do, done at once.
        let again = Completion()
        try e.setWidth(200, completion: again.callback)
        try #require(again.wait(seconds: 10))
        #expect(again.result == .completed)
    }

    @Test func updatesAndScrollingDuringABackgroundWidthChange() throws {
        let rows = Self.rows(30_000)
        let slot = GateSlot()
        let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 500, measurer: FakeMeasurer(onHeight: { slot.pass() }))
        try e.measureAll()
        let gate = Gate(limit: 2_000)
        slot.gate = gate
        let done = Completion()
        try e.setWidth(410, completion: done.callback)
        gate.waitUntilHolding()
        var model = rows
        var rng = SeededRandom(seed: 5)
        for k in 0..<300 {
            let at = rng.int(0..<model.count)
            if k % 2 == 0 {
                let row = Rows.text("n\(k)", length: rng.int(0...800))
                model.insert(row, at: at)
                try e.performBatchUpdates { $0.insert([row], at: path(0, at)) }
            } else {
                model.remove(at: at)
                try e.performBatchUpdates { $0.delete(at: path(0, at)) }
            }
            e.scroll(to: Double(rng.int(0...Int(e.contentHeight))))
            _ = try e.visibleItems()
        }
        gate.release()
        try #require(done.wait(seconds: 60))
        #expect(done.result == .completed)
        // Rows inserted meanwhile were never measured: the background for them.
        try e.measureAll()
        #expect(e.allHeights == model.map { Units.round(FakeMeasurer.height(of: $0, width: 410)) })
    }
}
