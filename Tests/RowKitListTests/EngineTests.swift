import Foundation
import Testing
@testable import RowKitList

/// Example-based tests of the engine's rules: estimates, geometry, scrolling, anchoring,
/// width changes, the measuring forms.
@Suite struct EngineTests {
    // MARK: estimates

    @Test func unmeasuredRowsCountWithTheDefaultEstimate() throws {
        let e = try makeEngine([ListSection(rows: Rows.uniform(10, height: 20))], defaultEstimate: 50)
        #expect(e.itemCount == 10)
        #expect(e.unmeasuredCount == 10)
        #expect(e.contentHeight == 500)
        #expect(e.allHeights == Array(repeating: 50, count: 10))
        #expect(try (0..<10).allSatisfy { try !e.isMeasured($0) })
        #expect(try e.offset(ofItem: 7) == 350)
    }

    @Test func estimateIsTheMeanOfMeasuredItemsOfTheirKind() throws {
        let rows = [Rows.fixed("a1", 20), Rows.fixed("a2", 40), Rows.fixed("b1", 70, template: "b"), Rows.fixed("a3", 10)]
        let e = try makeEngine([ListSection(header: Rows.fixed("h", 12, template: "hdr"), rows: rows)], viewport: 0, defaultEstimate: 100)
        try e.scrollTo(path(0, 0))     // a zero-height viewport: measures exactly that row
        try e.scrollTo(path(0, 1))
        #expect(e.allHeights == [100, 20, 40, 100, 100])
        #expect(e.unmeasuredCount == 3)
        try e.performBatchUpdates { batch in
            batch.insert([Rows.fixed("a4", 999), Rows.fixed("c1", 5, template: "c")], at: path(0, 4))
        }
        // Rows estimate (20 + 40) / 2, whatever their template; the header kind has no
        // measurement yet: the default.
        #expect(e.allHeights == [100, 20, 40, 100, 100, 30, 30])
        try e.scrollTo(path(0, 2))
        try e.scrollTo(path(0, 3))     // rows: 20, 40, 70, 10 → 35
        try e.performBatchUpdates { batch in
            batch.insert([Rows.fixed("a5", 1), Rows.fixed("b2", 1, template: "b")], at: path(0, 0))
            batch.insertSection(ListSection(header: Rows.fixed("h2", 1, template: "hdr"), rows: [Rows.fixed("x", 1)]), at: 1)
        }
        #expect(try e.height(ofItem: 1) == 35)
        #expect(try e.height(ofItem: 2) == 35)
        // Rows already counted with an estimate keep it until measured.
        #expect(try e.height(ofItem: 7) == 30)
        #expect(try e.height(ofItem: 9) == 100, "headers estimate apart from rows")
        #expect(try e.height(ofItem: 10) == 35)
        try e.scrollTo(path(0, 7))                          // c1
        #expect(try e.height(ofItem: 8) == 5)
        #expect(try e.height(ofItem: 7) == 30)
    }

    @Test func reloadCountsWithItsKindsEstimate() throws {
        let rows = [Rows.fixed("a1", 20), Rows.fixed("b1", 60, template: "b")]
        let e = try makeEngine([ListSection(rows: rows)], viewport: 1000, defaultEstimate: 44)
        _ = try e.visibleItems()
        #expect(e.unmeasuredCount == 0)
        try e.performBatchUpdates { $0.reload(at: path(0, 0), with: Rows.fixed("a1", 33, template: "b")) }
        #expect(try e.isMeasured(0) == false)
        #expect(e.unmeasuredCount == 1)
        #expect(try e.height(ofItem: 0) == 40)
        _ = try e.visibleItems()
        #expect(e.allHeights == [33, 60])
    }

    @Test func widthChangeResetsEstimatesToTheNewWidth() throws {
        // Two measured rows and two never measured, far below the viewport.
        let rows = [Rows.text("m1", length: 100), Rows.text("m2", length: 300), Rows.fixed("gap", 5_000, template: "g"),
                    Rows.text("u1", length: 10)]
        let e = try makeEngine([ListSection(rows: rows)], width: 200, viewport: 10, defaultEstimate: 44)
        try e.scrollTo(path(0, 0))
        try e.scrollTo(path(0, 1))
        try e.scrollTo(path(0, 0))
        // At 200 px: ceil(700/200)·16+10 = 74, ceil(2100/200)·16+10 = 186.
        #expect(e.allHeights == [74, 186, 44, 44])
        try e.setWidthAndWait(700)
        // At 700 px: 26 and 58; the rows never measured take the new mean of their kind.
        #expect(e.allHeights == [26, 58, 42, 42])
        #expect(try e.isMeasured(0) && e.isMeasured(1) && !e.isMeasured(2) && !e.isMeasured(3))
        #expect(e.unmeasuredCount == 2)
    }

    // MARK: geometry and scrolling

    @Test func scrollClampsToTheContent() throws {
        let e = try makeEngine([ListSection(rows: Rows.uniform(20, height: 50))], viewport: 300, defaultEstimate: 50)
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
        let e = try makeEngine([ListSection(rows: Rows.uniform(20, height: 50))], viewport: 300, defaultEstimate: 50)
        e.scroll(to: 200)
        e.scroll(to: .infinity)
        #expect(e.contentOffset == 700)
    }

    @Test func scrollToPositionsOnAMeasuredList() throws {
        // 100 rows of 30 px; viewport 200.
        let e = try makeEngine([ListSection(rows: Rows.uniform(100, height: 30))], viewport: 200, defaultEstimate: 50)
        try e.measureAll()
        #expect(e.contentHeight == 3_000)
        try e.scrollTo(path(0, 50), position: .top)
        #expect(e.contentOffset == 1_500)
        try e.scrollTo(path(0, 50), position: .middle)
        #expect(e.contentOffset == 1_500 + 15 - 100)
        try e.scrollTo(path(0, 50), position: .bottom)
        #expect(e.contentOffset == 1_500 + 30 - 200)
        try e.scrollTo(path(0, 0), position: .bottom)
        #expect(e.contentOffset == 0)                      // clamped at 0
        try e.scrollTo(path(0, 99), position: .top)
        #expect(e.contentOffset == 2_800)                  // clamped at the end
    }

    @Test func nearestScrollsJustEnough() throws {
        var rows = Rows.uniform(100, height: 30)
        rows[60] = Rows.fixed("tall", 500)
        let e = try makeEngine([ListSection(rows: rows)], viewport: 200, defaultEstimate: 30)
        try e.measureAll()
        e.scroll(to: 300)                                  // rows 10–16 visible, 16 cut at the bottom
        try e.scrollTo(path(0, 12), position: .nearest)
        #expect(e.contentOffset == 300, "a fully visible row: no scrolling")
        try e.scrollTo(path(0, 16), position: .nearest)
        #expect(e.contentOffset == 16 * 30 + 30 - 200, "below (partly): just enough to show its bottom")
        try e.scrollTo(path(0, 5), position: .nearest)
        #expect(e.contentOffset == 150, "above: to the top")
        try e.scrollTo(path(0, 60), position: .nearest)
        #expect(e.contentOffset == 1_800, "taller than the viewport: its top at the top")
    }

    @Test func visibleRangeEdges() throws {
        let e = try makeEngine([ListSection(rows: Rows.uniform(50, height: 20))], viewport: 100, defaultEstimate: 20)
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
            ListSection(header: Rows.fixed("h0", 10, template: "hdr"),
                        rows: [Rows.fixed("r0", 30), Rows.fixed("r1", 0), Rows.fixed("r2", 12.5)],
                        footer: Rows.fixed("f0", 5, template: "ftr")),
            ListSection(rows: []),
            ListSection(header: Rows.fixed("h2", 0, template: "hdr"), rows: [Rows.fixed("r3", 40)]),
        ]
        let e = try makeEngine(sections, viewport: 1_000)
        let items = try e.visibleItems()
        #expect(items.map(\.id) == ["h0", "r0", "r1", "r2", "f0", "h2", "r3"])
        #expect(items.map(\.kind) == [.header, .row, .row, .row, .footer, .header, .row])
        #expect(items.map(\.index) == Array(0..<7))
        #expect(items.map(\.y) == [0, 10, 40, 40, 52.5, 57.5, 57.5])
        #expect(items.map(\.height) == [10, 30, 0, 12.5, 5, 0, 40])
        #expect(items.map(\.indexPath) == [path(0, -1), path(0, 0), path(0, 1), path(0, 2), path(0, 3), path(2, -1), path(2, 0)])
        #expect(items.map(\.indexPath) == items.map(\.indexPath).sorted(), "index paths sort in list order")
        #expect(try e.index(of: path(2, 0)) == 6)
        #expect(e.contentHeight == 97.5)
        #expect(e.item(atY: 40) == 3)                      // r1 is zero tall
        #expect(try e.numberOfRows(inSection: 1) == 0)
        #expect(try e.item(at: 4) == ListItem(index: 4, kind: .footer, indexPath: path(0, 3), id: "f0"))
        #expect(e.index(ofID: "r3") == 6 && e.index(ofID: "nope") == nil)
        #expect(e.contains(id: "h2") && !e.contains(id: "x"))
    }

    @Test func visibleRowsAreAllMeasuredEvenWhenEstimatesAreFarTooTall() throws {
        // 2 px rows counted at 100 px each: every round of measuring uncovers only ~10 more rows.
        let e = try makeEngine([ListSection(rows: Rows.uniform(10_000, height: 2))], viewport: 1_000, defaultEstimate: 100)
        let items = try e.visibleItems()
        #expect(try items.allSatisfy { try e.isMeasured($0.index) })
        #expect(items.allSatisfy { $0.height == 2 })
        #expect(items.count == 500)
    }

    // MARK: anchoring (worked examples; the property tests check it at random)

    @Test func insertsAndDeletesAboveKeepTheTopRowInPlace() throws {
        let e = try makeEngine([ListSection(rows: Rows.uniform(100, height: 30))], viewport: 200, defaultEstimate: 30)
        try e.measureAll()
        e.scroll(to: 310)                                  // row 10 at screen y −10
        try e.performBatchUpdates { $0.insert([Rows.fixed("n1", 7), Rows.fixed("n2", 7)], at: path(0, 3)) }
        // The new rows count with the estimate (30) until measured.
        #expect(e.contentOffset == 370)
        #expect(try e.offset(ofItem: 12) - e.contentOffset == -10)
        try e.measureAll()                                 // the two rows shrink to 7: anchor kept
        #expect(e.contentOffset == 324)
        try e.performBatchUpdates { $0.delete(at: path(0, 0)) }
        #expect(e.contentOffset == 294)
        #expect(try e.item(at: e.item(atY: e.contentOffset)!).id == "p10")
    }

    @Test func deletingTheTopRowPutsItsNeighbourInItsPlace() throws {
        let e = try makeEngine([ListSection(rows: Rows.uniform(10, height: 30))], viewport: 100, defaultEstimate: 30)
        try e.measureAll()
        e.scroll(to: 95)                                   // row 3 at screen y −5
        try e.performBatchUpdates { $0.delete(at: path(0, 3)) }
        #expect(e.contentOffset == 95)
        #expect(try e.item(at: e.item(atY: 95)!).id == "p4")
        // The last row at the top, deleted: the row above takes its place.
        e.viewportHeight = 0
        e.scroll(to: 250)                                  // row 8 (p9) at −10
        #expect(try e.item(at: e.item(atY: 250)!).id == "p9")
        try e.performBatchUpdates { $0.delete(at: path(0, 8)) }
        #expect(e.contentOffset == 220)
        #expect(try e.item(at: e.item(atY: 220)!).id == "p8")
    }

    @Test func moveKeepsTheRowsHeightMeasurementAndSelection() throws {
        let e = try makeEngine([ListSection(rows: (0..<6).map { Rows.fixed("r\($0)", Double(10 + $0)) })],
                               viewport: 1_000, defaultEstimate: 44)
        try e.measureAll()
        try e.select(path(0, 1))
        try e.performBatchUpdates { $0.move(from: path(0, 1), to: path(0, 4)) }
        #expect(try e.item(at: 4).id == "r1")
        #expect(try e.isMeasured(4))
        #expect(e.unmeasuredCount == 0)
        #expect(try e.height(ofItem: 4) == 11)
        #expect(e.allHeights == [10, 12, 13, 14, 11, 15])
        #expect(e.selectedIndexPaths == [path(0, 4)])
    }

    @Test func failedMoveLeavesTheListUnchanged() throws {
        let e = try makeEngine([ListSection(rows: Rows.uniform(3, height: 10))])
        expectOutOfRange("move to a row past the end") {
            try e.performBatchUpdates { $0.move(from: path(0, 0), to: path(0, 5)) }
        }
        #expect(e.itemCount == 3)
        #expect(try e.numberOfRows(inSection: 0) == 3)
    }

    // MARK: width changes and the measuring forms

    @Test func widthChangesReuseTheMeasuringFormsAndKeepTheAnchor() throws {
        let counter = MeasureCounter()
        let rows = (0..<300).map { Rows.text("t\($0)", length: ($0 * 37) % 500) }
        let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 500, measurer: FakeMeasurer(counter: counter))
        try e.measureAll()
        #expect(counter.forms == 300)
        try e.scrollTo(path(0, 150))
        e.scroll(to: e.contentOffset + 3)
        let top = e.item(atY: e.contentOffset)!
        let screenY = try e.offset(ofItem: top) - e.contentOffset
        for width in [100.0, 777, 1, 100_000, 320] {
            try e.setWidthAndWait(width)
            #expect(e.width == width)
            #expect(e.unmeasuredCount == 0)
            #expect(e.allHeights == rows.map { Units.round(FakeMeasurer.height(of: $0, width: width)) })
            #expect(try e.offset(ofItem: top) - e.contentOffset == screenY, "width \(width)")
        }
        #expect(counter.forms == 300)                      // never made again: no data asked for
        #expect(e.measuringFormBytes.items == 300)
        #expect(e.measuringFormBytes.bytes == 300 * 16)
    }

    @Test func aWidthChangeMeasuresEveryRowWithAFormAgainAndNoneFallsBack() throws {
        // Many rows, all measured: all exact at every width (no budget sends any back to estimates).
        let rows = (0..<20_000).map { Rows.text("t\($0)", length: ($0 * 7919) % 600) }
        let e = try makeEngine([ListSection(rows: rows)], width: 200, viewport: 300)
        try e.measureAll()
        try e.setWidthAndWait(400)
        #expect(e.unmeasuredCount == 0)
        #expect(e.allHeights == rows.map { Units.round(FakeMeasurer.height(of: $0, width: 400)) })
        // Half measured: those exact at the new width, the others the new estimates.
        let half = try makeEngine([ListSection(rows: Array(rows.prefix(1_000)))], width: 200, viewport: 0)
        for r in stride(from: 0, to: 1_000, by: 2) { try half.scrollTo(path(0, r)) }
        try half.setWidthAndWait(300)
        #expect(half.unmeasuredCount == 500)
        let measured = stride(from: 0, to: 1_000, by: 2).map { Units.round(FakeMeasurer.height(of: rows[$0], width: 300)) }
        let mean = stride(from: 0, to: 1_000, by: 2).map { FakeMeasurer.height(of: rows[$0], width: 300) }.reduce(0, +) / 500
        let heights = half.allHeights
        #expect(stride(from: 0, to: 1_000, by: 2).map { heights[$0] } == measured)
        #expect(stride(from: 1, to: 1_000, by: 2).allSatisfy { heights[$0] == Units.round(mean) })
    }

    @Test func measureAllReportsProgress() throws {
        let e = try makeEngine([ListSection(rows: Rows.uniform(1_000, height: 3))])
        var reports: [(Int, Int)] = []
        try e.measureAll(chunkSize: 300) { reports.append(($0, $1)) }
        #expect(reports.map(\.0) == [300, 600, 900, 1_000])
        #expect(reports.allSatisfy { $0.1 == 1_000 })
        #expect(e.contentHeight == 3_000)
        try e.measureAll()                                 // nothing left: returns at once
    }

    @Test func progressRunsWithoutTheLockHeld() throws {
        // The lock is not recursive: calling the engine from the callback would deadlock if it
        // were held; instead the callback sees the engine as it is.
        let e = try makeEngine([ListSection(rows: Rows.uniform(2_000, height: 3))])
        var seen: [Int] = []
        try e.measureAll(chunkSize: 500) { measured, _ in
            seen.append(e.itemCount - e.unmeasuredCount)
            #expect(!e.state.isLockedForTesting)
            _ = measured
        }
        #expect(seen == [500, 1_000, 1_500, 2_000])
    }

    @Test func unmeasuredCountStaysConsistentAfterAFailedMeasurement() throws {
        let rows = [Rows.fixed("ok", 20), Rows.fixed("bad", 20, template: "broken")]
        let e = try makeEngine([ListSection(rows: rows)], viewport: 500)
        #expect(throws: ListError.rowFailed(id: "bad", reason: BrokenRow(id: "bad"))) { try e.visibleItems() }
        try e.performBatchUpdates { $0.reload(at: path(0, 1), with: Rows.fixed("good", 30)) }
        try e.scrollTo(path(0, 1))
        try e.setWidthAndWait(400)
        let unmeasuredItems = try (0..<e.itemCount).filter { try !e.isMeasured($0) }.count
        #expect(e.unmeasuredCount == unmeasuredItems)
        _ = try e.visibleItems()
        #expect(e.unmeasuredCount == 0)
        #expect(e.allHeights == [20, 30])
    }
}
