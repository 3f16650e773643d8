import Foundation
import Testing
@testable import RowKitList
import RowKitCells

/// Example-based tests of the engine's rules: estimates, geometry, scrolling, anchoring,
/// width changes, the prepared-row budget.
@Suite struct EngineTests {
    // MARK: estimates

    @Test func unmeasuredRowsCountWithTheDefaultEstimate() throws {
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(10, height: 20))], defaultEstimate: 50)
        #expect(e.itemCount == 10)
        #expect(e.unmeasuredCount == 10)
        #expect(e.contentHeight == 500)
        #expect(e.allHeights == Array(repeating: 50, count: 10))
        #expect((0..<10).allSatisfy { !e.isMeasured($0) })
        #expect(e.offset(ofItem: 7) == 350)
    }

    @Test func estimateIsTheMeanOfMeasuredRowsOfTheTemplate() throws {
        let rows = [Rows.fixed("a1", 20), Rows.fixed("a2", 40), Rows.fixed("b1", 70, template: "b"), Rows.fixed("a3", 10)]
        let e = try makeEngine([ListSection(id: "s", rows: rows)], viewport: 0, defaultEstimate: 100)
        try e.scrollTo(IndexPath(section: 0, row: 0))     // measures exactly that row
        try e.scrollTo(IndexPath(section: 0, row: 1))
        #expect(e.allHeights == [20, 40, 100, 100])
        #expect(e.unmeasuredCount == 2)
        try e.performBatchUpdates { batch in
            batch.insert([Rows.fixed("a4", 999), Rows.fixed("c1", 5, template: "c")], at: IndexPath(section: 0, row: 4))
        }
        // "a" rows estimate (20 + 40) / 2; "c" has no measured row yet: the default.
        #expect(e.allHeights == [20, 40, 100, 100, 30, 100])
        try e.scrollTo(IndexPath(section: 0, row: 2))
        try e.scrollTo(IndexPath(section: 0, row: 3))     // a: 20, 40, 10 → 70/3
        try e.performBatchUpdates { batch in
            batch.insert([Rows.fixed("a5", 1), Rows.fixed("b2", 1, template: "b")], at: IndexPath(section: 0, row: 0))
        }
        #expect(e.height(ofItem: 0) == Units.round(70.0 / 3))   // 23.333… rounds to 1493/64
        #expect(e.height(ofItem: 0) == 1493.0 / 64)
        #expect(e.height(ofItem: 1) == 70)
        // Rows already counted with an estimate keep it until measured.
        #expect(e.height(ofItem: 6) == 30)
    }

    @Test func reloadCountsWithTheNewTemplatesEstimate() throws {
        let rows = [Rows.fixed("a1", 20), Rows.fixed("b1", 60, template: "b")]
        let e = try makeEngine([ListSection(id: "s", rows: rows)], viewport: 1000, defaultEstimate: 44)
        _ = try e.visibleItems()
        #expect(e.unmeasuredCount == 0)
        try e.performBatchUpdates { $0.reload(at: IndexPath(section: 0, row: 0), with: Rows.fixed("a1", 33, template: "b")) }
        #expect(e.isMeasured(0) == false)
        #expect(e.unmeasuredCount == 1)
        #expect(e.height(ofItem: 0) == 60)
        _ = try e.visibleItems()
        #expect(e.allHeights == [33, 60])
    }

    @Test func widthChangeResetsEstimatesToTheNewWidth() throws {
        // Two measured "a" rows and one unmeasured, far below the viewport.
        let rows = [Rows.text("m1", length: 100), Rows.text("m2", length: 300), Rows.fixed("gap", 5_000, template: "g"),
                    Rows.text("u1", length: 10)]
        let e = try makeEngine([ListSection(id: "s", rows: rows)], width: 200, viewport: 10, defaultEstimate: 44)
        try e.scrollTo(IndexPath(section: 0, row: 0))
        try e.scrollTo(IndexPath(section: 0, row: 1))
        try e.scrollTo(IndexPath(section: 0, row: 0))
        // At 200 px: ceil(700/200)·16+10 = 74, ceil(2100/200)·16+10 = 186.
        #expect(e.allHeights == [74, 186, 44, 44])
        try e.setWidth(700)
        // At 700 px: 26 and 58; the unmeasured rows take the new mean of their template.
        #expect(e.allHeights == [26, 58, 44, 42])
        #expect(e.isMeasured(0) && e.isMeasured(1) && !e.isMeasured(2) && !e.isMeasured(3))
        #expect(e.unmeasuredCount == 2)
    }

    // MARK: geometry and scrolling

    @Test func scrollClampsToTheContent() throws {
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(20, height: 50))], viewport: 300, defaultEstimate: 50)
        e.scroll(to: -10)
        #expect(e.contentOffset == 0)
        e.scroll(to: 123.5)
        #expect(e.contentOffset == 123.5)
        e.scroll(to: 5_000)
        #expect(e.contentOffset == 700)
        e.scroll(to: .nan)
        #expect(e.contentOffset == 0)
        e.viewportHeight = 2_000       // content shorter than the viewport
        e.scroll(to: 100)
        #expect(e.contentOffset == 0)
        e.viewportHeight = -5
        #expect(e.viewportHeight == 0)
        e.viewportHeight = .infinity
        #expect(e.viewportHeight == HeightIndex.maximumOffset, "an infinite viewport is clamped, not dropped")
    }

    @Test func scrollToInfinityGoesToTheEnd() throws {
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(20, height: 50))], viewport: 300, defaultEstimate: 50)
        e.scroll(to: 200)
        e.scroll(to: .infinity)
        #expect(e.contentOffset == 700)
    }

    @Test func scrollToPositions() throws {
        // 100 rows of 30 px (estimates of 50 until measured); viewport 200.
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(100, height: 30))], viewport: 200, defaultEstimate: 50)
        try e.scrollTo(IndexPath(section: 0, row: 10), position: .top)
        #expect(e.isMeasured(10))
        #expect(e.unmeasuredCount == 99)
        #expect(e.contentOffset == 500)                    // rows above still count 50 each
        try e.scrollTo(IndexPath(section: 0, row: 10), position: .middle)
        #expect(e.contentOffset == 500 + 15 - 100)
        try e.scrollTo(IndexPath(section: 0, row: 10), position: .bottom)
        #expect(e.contentOffset == 500 + 30 - 200)
        try e.scrollTo(IndexPath(section: 0, row: 0), position: .bottom)
        #expect(e.contentOffset == 0)                      // clamped at 0
        try e.scrollTo(IndexPath(section: 0, row: 99), position: .top)
        #expect(e.contentOffset == e.contentHeight - 200)  // clamped at the end
        try e.measureAll()
        #expect(e.contentHeight == 3_000)
        try e.scrollTo(IndexPath(section: 0, row: 50), position: .middle)
        #expect(e.contentOffset == 1_500 + 15 - 100)
    }

    @Test func visibleRangeEdges() throws {
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(50, height: 20))], viewport: 100, defaultEstimate: 20)
        try e.measureAll()
        #expect(e.visibleRange() == 0..<5)                 // row 4 ends at the bottom edge; row 5 starts there
        e.scroll(to: 10)
        #expect(e.visibleRange() == 0..<6)
        e.scroll(to: 20)
        #expect(e.visibleRange() == 1..<6)
        e.overscan = 30
        #expect(e.visibleRange() == 0..<8)                 // 0…150 with overscan
        e.overscan = 0
        e.viewportHeight = 0
        #expect(e.visibleRange() == 1..<2)                 // a zero-height viewport still has the row at its top
        let empty = try makeEngine([])
        #expect(empty.visibleRange() == 0..<0)
        #expect(try empty.visibleItems().isEmpty)
        #expect(empty.item(atY: 0) == nil)
    }

    @Test func visibleItemsHaveFramesKindsAndIndexPaths() throws {
        let sections = [
            ListSection(id: "s0", header: Rows.fixed("h0", 10, template: "hdr"), footer: Rows.fixed("f0", 5, template: "ftr"),
                        rows: [Rows.fixed("r0", 30), Rows.fixed("r1", 0), Rows.fixed("r2", 12.5)]),
            ListSection(id: "empty", rows: []),
            ListSection(id: "s2", header: Rows.fixed("h2", 0, template: "hdr"), rows: [Rows.fixed("r3", 40)]),
        ]
        let e = try makeEngine(sections, viewport: 1_000)
        let items = try e.visibleItems()
        #expect(items.map(\.row.id) == ["h0", "r0", "r1", "r2", "f0", "h2", "r3"])
        #expect(items.map(\.kind) == [.header, .row, .row, .row, .footer, .header, .row])
        #expect(items.map(\.index) == Array(0..<7))
        #expect(items.map(\.y) == [0, 10, 40, 40, 52.5, 57.5, 57.5])
        #expect(items.map(\.height) == [10, 30, 0, 12.5, 5, 0, 40])
        #expect(items.filter { $0.kind == .row }.map(\.indexPath) ==
                [IndexPath(section: 0, row: 0), IndexPath(section: 0, row: 1), IndexPath(section: 0, row: 2), IndexPath(section: 2, row: 0)])
        #expect(items.map(\.indexPath.section) == [0, 0, 0, 0, 0, 2, 2])
        #expect(try e.index(of: IndexPath(section: 2, row: 0)) == 6)
        #expect(e.contentHeight == 97.5)
        #expect(e.item(atY: 40) == 3)                      // r1 is zero tall
        #expect(e.numberOfRows(inSection: 1) == 0)
    }

    @Test func visibleRowsAreAllMeasuredEvenWhenEstimatesAreFarTooTall() throws {
        // 2 px rows counted at 100 px each: every round of measuring uncovers only ~10 more rows.
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(10_000, height: 2))], viewport: 1_000, defaultEstimate: 100)
        let items = try e.visibleItems()
        #expect(items.allSatisfy { e.isMeasured($0.index) })
        #expect(items.allSatisfy { $0.height == 2 })
        #expect(items.count == 500)
    }

    // MARK: anchoring (worked examples; the property tests check it at random)

    @Test func insertsAndDeletesAboveKeepTheTopRowInPlace() throws {
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(100, height: 30))], viewport: 200, defaultEstimate: 30)
        try e.measureAll()
        e.scroll(to: 310)                                  // row 10 at screen y −10
        try e.performBatchUpdates { $0.insert([Rows.fixed("n1", 7), Rows.fixed("n2", 7)], at: IndexPath(section: 0, row: 3)) }
        // The new rows count with the estimate (30) until measured.
        #expect(e.contentOffset == 370)
        #expect(e.offset(ofItem: 12) - e.contentOffset == -10)
        try e.measureAll()                                 // the two rows shrink to 7: anchor kept
        #expect(e.contentOffset == 324)
        try e.performBatchUpdates { $0.delete(at: IndexPath(section: 0, row: 0)) }
        #expect(e.contentOffset == 294)
        #expect(e.item(at: e.item(atY: e.contentOffset)!).row.id == "p10")
    }

    @Test func deletingTheTopRowPutsItsNeighbourInItsPlace() throws {
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(10, height: 30))], viewport: 100, defaultEstimate: 30)
        try e.measureAll()
        e.scroll(to: 95)                                   // row 3 at screen y −5
        try e.performBatchUpdates { $0.delete(at: IndexPath(section: 0, row: 3)) }
        #expect(e.contentOffset == 95)
        #expect(e.item(at: e.item(atY: 95)!).row.id == "p4")
        // The last row at the top, deleted: the row above takes its place.
        e.viewportHeight = 0
        e.scroll(to: 250)                                  // row 8 (p9) at −10
        #expect(e.item(at: e.item(atY: 250)!).row.id == "p9")
        try e.performBatchUpdates { $0.delete(at: IndexPath(section: 0, row: 8)) }
        #expect(e.contentOffset == 220)
        #expect(e.item(at: e.item(atY: 220)!).row.id == "p8")
    }

    @Test func moveKeepsTheRowsHeightMeasurementAndSelection() throws {
        let e = try makeEngine([ListSection(id: "s", rows: (0..<6).map { Rows.fixed("r\($0)", Double(10 + $0)) })],
                               viewport: 1_000, defaultEstimate: 44)
        try e.measureAll()
        try e.select(IndexPath(section: 0, row: 1))
        try e.performBatchUpdates { $0.move(from: IndexPath(section: 0, row: 1), to: IndexPath(section: 0, row: 4)) }
        #expect(e.item(at: 4).row.id == "r1")
        #expect(e.isMeasured(4))
        #expect(e.unmeasuredCount == 0)
        #expect(e.height(ofItem: 4) == 11)
        #expect(e.allHeights == [10, 12, 13, 14, 11, 15])
        #expect(e.selectedIndexPaths == [IndexPath(section: 0, row: 4)])
    }

    @Test func failedMoveLeavesTheListUnchanged() throws {
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(3, height: 10))])
        expectOutOfRange("move to a row past the end") {
            try e.performBatchUpdates { $0.move(from: IndexPath(section: 0, row: 0), to: IndexPath(section: 0, row: 5)) }
        }
        #expect(e.itemCount == 3)
        #expect(e.numberOfRows(inSection: 0) == 3)
    }

    // MARK: width changes and the prepared rows

    @Test func widthChangesReuseThePreparedRowsAndKeepTheAnchor() throws {
        let counter = MeasureCounter()
        let rows = (0..<300).map { Rows.text("t\($0)", length: ($0 * 37) % 500) }
        let e = try makeEngine([ListSection(id: "s", rows: rows)], width: 320, viewport: 500,
                               measurer: FakeMeasurer(counter: counter))
        try e.measureAll()
        #expect(counter.prepares == 300)
        try e.scrollTo(IndexPath(section: 0, row: 150))
        e.scroll(to: e.contentOffset + 3)
        let top = e.item(atY: e.contentOffset)!
        let screenY = e.offset(ofItem: top) - e.contentOffset
        for width in [100.0, 777, 1, 100_000, 320] {
            try e.setWidth(width)
            #expect(e.width == width)
            #expect(e.unmeasuredCount == 0)
            #expect(e.allHeights == rows.map { Units.round(FakeMeasurer.height(of: $0, width: width)) })
            #expect(e.offset(ofItem: top) - e.contentOffset == screenY, "width \(width)")
        }
        #expect(counter.prepares == 300)                   // never prepared again
        #expect(e.preparedCacheBytes.rows == 300)
        #expect(e.preparedCacheBytes.bytes == 300 * 16)
    }

    @Test func rowsBeyondThePreparedBudgetAreEstimatedAfterAWidthChange() throws {
        let rows = (0..<100).map { Rows.text("t\($0)", length: 50 + $0) }
        let e = try FakeEngine(sections: [ListSection(id: "s", rows: rows)], measurer: FakeMeasurer(), width: 200,
                               defaultEstimate: 44, cacheBudget: 16 * 10)
        e.viewportHeight = 300
        try e.measureAll()
        #expect(e.preparedCacheBytes.bytes <= 160)
        #expect(e.preparedCacheBytes.rows <= 10)
        try e.setWidth(400)
        #expect(e.unmeasuredCount >= 90)
        try e.measureAll()
        #expect(e.allHeights == rows.map { FakeMeasurer.height(of: $0, width: 400) })
        let none = try FakeEngine(sections: [ListSection(id: "s", rows: rows)], measurer: FakeMeasurer(), width: 200, cacheBudget: 0)
        try none.measureAll()
        #expect(none.preparedCacheBytes.rows == 0)
        try none.setWidth(300)
        #expect(none.unmeasuredCount == 100)
        #expect(none.allHeights == Array(repeating: 44, count: 100))   // estimates reset with the width
    }

    @Test func measureAllReportsProgress() throws {
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(1_000, height: 3))])
        var reports: [(Int, Int)] = []
        try e.measureAll(chunkSize: 300) { reports.append(($0, $1)) }
        #expect(reports.map(\.0) == [300, 600, 900, 1_000])
        #expect(reports.allSatisfy { $0.1 == 1_000 })
        #expect(e.contentHeight == 3_000)
        try e.measureAll()                                 // nothing left: returns at once
    }

    @Test func unmeasuredCountStaysConsistentAfterAFailedMeasurement() throws {
        // Row 0 is prepared, then row 1 fails: row 0 keeps its prepared form unmeasured.
        let rows = [Rows.fixed("ok", 20), Rows.fixed("bad", 20, template: "broken")]
        let e = try makeEngine([ListSection(id: "s", rows: rows)], viewport: 500)
        #expect(throws: ListError.self) { try e.visibleItems() }
        try e.performBatchUpdates { $0.reload(at: IndexPath(section: 0, row: 1), with: Rows.fixed("good", 30)) }
        try e.scrollTo(IndexPath(section: 0, row: 1))      // prepares and measures row 1 only
        try e.setWidth(400)
        let unmeasuredItems = (0..<e.itemCount).filter { !e.isMeasured($0) }.count
        #expect(e.unmeasuredCount == unmeasuredItems)
        _ = try e.visibleItems()
        #expect(e.unmeasuredCount == 0)
        #expect((0..<e.itemCount).allSatisfy { e.isMeasured($0) })
        #expect(e.allHeights == [20, 30])
    }
}
