import Dispatch
import Foundation
import Testing
@testable import RowKitList

/// `setWidthAndWait` over many chunks: each chunk's results are applied while the next one is
/// measured (one more piece of its parallel work). Lists here are larger than a chunk (16,384
/// items) several times over, so that path runs.
@Suite struct PipelinedWidthChangeTests {
    /// Rows of varied lengths, some of a fixed height (kept through every width change).
    static func rows(_ n: Int, seed: UInt64) -> [TestRow] {
        var rng = SeededRandom(seed: seed)
        return (0..<n).map { i in
            rng.chance(0.1) ? Rows.fixed("p\(i)", Double(rng.int(20...90))) : Rows.text("p\(i)", length: rng.int(0...900))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func everyRowExactAnchoredAndMeasuredOnce(seed: UInt64) throws {
        let rows = Self.rows(60_000, seed: seed)
        let counter = MeasureCounter()
        let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 600, measurer: FakeMeasurer(counter: counter))
        try e.measureAll()
        var rng = SeededRandom(seed: seed &+ 100)
        // The viewport's top at a row's top: the row stays there whatever its new height (a row
        // cut at the top could shrink above the viewport and hand the anchor to the next one).
        let anchor = e.item(atY: Double(rng.int(100_000...2_000_000)))!
        e.scroll(to: try e.offset(ofItem: anchor))
        let screenY = try e.offset(ofItem: anchor) - e.contentOffset
        var width = 320.0
        for next in [240.0, 900, 241, 1200, 200] {
            let before = counter.heights
            try e.setWidthAndWait(next)
            // Rows whose height provably stays (fixed, or one line at both widths) are not measured;
            // every other row exactly once (a chunk taken twice would count twice).
            let floor = min(width, next)
            let changing = rows.filter { $0.fixed == nil && Double($0.length) * 7 > floor }.count
            #expect(counter.heights - before == changing, "width \(width) → \(next)")
            width = next
            #expect(e.unmeasuredCount == 0)
            #expect(e.allHeights == rows.map { Units.round(FakeMeasurer.height(of: $0, width: next)) }, "width \(next)")
            #expect(try e.offset(ofItem: anchor) - e.contentOffset == screenY, "the top row stays put at width \(next)")
            for _ in 0..<200 {
                let y = Double(rng.int(0...Int(e.contentHeight)))
                if let item = e.item(atY: y) { #expect(try e.offset(ofItem: item) <= y) }
            }
        }
    }

    @Test func editsFromAnotherThreadDuringTheWidthChange() throws {
        let rows = Self.rows(50_000, seed: 7)
        let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 600)
        try e.measureAll()
        let done = Completion()
        let editor = Thread {
            var rng = SeededRandom(seed: 8)
            var k = 0
            while done.calls == 0 || k < 50 {
                let count = (try? e.numberOfRows(inSection: 0)) ?? 0
                if rng.chance(0.5) || count < 10 {
                    let row = Rows.text("n\(k)", length: rng.int(0...900))
                    let path = ListIndexPath(section: 0, row: rng.int(0...count))
                    try? e.performBatchUpdates { $0.insert([row], at: path) }
                } else {
                    let path = ListIndexPath(section: 0, row: rng.int(0..<count))
                    try? e.performBatchUpdates { $0.delete(at: path) }
                }
                k += 1
            }
        }
        editor.start()
        for width in [240.0, 700, 260] {
            try e.setWidthAndWait(width)
            // Items inserted meanwhile may be measured by nobody yet; every item with a form is exact.
            #expect(e.state.withLock { $0.staleFormCount } == 0, "width \(width)")
        }
        done.callback(.completed)
        while !editor.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        try e.measureAll()
        let kept = e.state.withLock { s in (0..<s.ids.count).map { s.keptRows[s.ids[$0]]! } }
        #expect(e.allHeights == kept.map { Units.round(FakeMeasurer.height(of: $0, width: 260)) })
    }
}
