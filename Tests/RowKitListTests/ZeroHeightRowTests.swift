import Foundation
import Testing
@testable import RowKitList

/// Rows of zero height all lie in the viewport: the engine measures a bounded number of them
/// on the caller's thread (its foreground budget), not the whole list before a frame.
@Suite struct ZeroHeightRowTests {
    static let count = 100_000

    /// `count` zero-height rows, then one 30 px row.
    static func engine(viewport: Double = 400, counter: MeasureCounter? = nil) throws -> FakeEngine {
        let rows = (0..<count).map { Rows.fixed("z\($0)", 0) } + [Rows.fixed("last", 30)]
        return try makeEngine([ListSection(rows: rows)], viewport: viewport, measurer: FakeMeasurer(counter: counter))
    }

    /// The viewport of a list of zero-height rows measured every row (100,000 here; 200,000
    /// empty rows took 4.8 s before `rowkit view`'s first frame). Now one call measures at most
    /// the budget, returns only measured items, and each further call goes on from there.
    @Test func theViewportMeasuresABoundedNumberOfZeroHeightRows() throws {
        let counter = MeasureCounter()
        let e = try Self.engine(counter: counter)
        let budget = e.state.withLock { $0.foregroundBudget }
        #expect(budget < Self.count / 10)
        let first = try e.visibleItems()
        #expect(counter.heights <= budget)
        #expect(e.unmeasuredCount >= Self.count + 1 - budget)
        for item in first { #expect(try e.isMeasured(item.index), "item \(item.index) returned unmeasured") }
        // Later calls (frames) continue where the first stopped, a budget at a time.
        _ = try e.visibleItems()
        #expect(counter.heights > budget && counter.heights <= 2 * budget)
        // Once everything is measured, the viewport shows the 30 px row, exact.
        try e.measureAll()
        let all = try e.visibleItems()
        #expect(all.contains { $0.id == "last" && $0.height == 30 })
        #expect(e.contentHeight == 30)
    }

    /// Rows with height never reach the budget: a viewport of 1 px rows is measured whole.
    @Test func rowsOneTallFillTheViewportWhole() throws {
        let rows = (0..<5_000).map { Rows.fixed("p\($0)", 1) }
        let e = try makeEngine([ListSection(rows: rows)], viewport: 1_500)
        let items = try e.visibleItems()
        #expect(items.count == 1_500)
        #expect(items.allSatisfy { $0.height == 1 })
    }

    /// scrollTo a row among zero-height rows measures at most a budget of its window too, and
    /// puts the row at the top.
    @Test func scrollToAmongZeroHeightRowsIsBounded() throws {
        let counter = MeasureCounter()
        let e = try Self.engine(counter: counter)
        let budget = e.state.withLock { $0.foregroundBudget }
        try e.scrollTo(ListIndexPath(section: 0, row: 50_000), position: .top)
        #expect(counter.heights <= budget + 1)
        #expect(e.contentOffset == (try e.offset(ofItem: 50_000)))
    }

    /// The window's call leaves zero-height items out and keeps everything else as
    /// `visibleItems()` gives it (frames, order, states).
    @Test func omittingEmptyItemsKeepsTheOthers() throws {
        var random = SeededRandom(seed: 16)
        let rows = (0..<3_000).map { Rows.fixed("m\($0)", random.chance(0.8) ? 0 : Double(random.int(1...40))) }
        let e = try makeEngine([ListSection(rows: rows)], viewport: 700)
        try e.measureAll()
        for offset in [0.0, 333.5, 2_000, 1e9] {
            e.scroll(to: offset)
            let all = try e.visibleItems()
            #expect(try e.visibleItems(omittingEmpty: true) == all.filter { $0.height > 0 }, "offset \(offset)")
            #expect(all.contains { $0.height == 0 })
        }
    }

    /// `HeightIndex.heights(in:)` walks the blocks once and gives what `height(at:)` gives.
    @Test func heightsInARangeMatchTheRowByRowHeights() {
        var random = SeededRandom(seed: 61)
        let heights = (0..<5_000).map { _ in random.chance(0.3) ? 0 : Double(random.int(1...4_000)) / 64 }
        var index = HeightIndex(heights: heights)
        index.insert([7, 0, 9], at: 1_234)   // blocks of unequal sizes
        for _ in 0..<200 {
            let lower = random.int(0...index.count), upper = random.int(lower...index.count)
            #expect(index.heights(in: lower..<upper) == (lower..<upper).map { index.height(at: $0) })
        }
    }
}
