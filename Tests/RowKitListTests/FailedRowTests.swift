import Foundation
import Testing
@testable import RowKitList

/// A row that cannot be measured (a broken template, a row the data source lacks) must not keep
/// the rows after it from being measured: `visibleItems()` documents that "the others are
/// measured all the same".
@Suite struct FailedRowTests {
    @Test func aFailedRowDoesNotKeepTheVisibleRowsAfterItUnmeasured() throws {
        let rows = [Rows.fixed("a", 20), Rows.fixed("bad", 20, template: "broken"), Rows.fixed("c", 30), Rows.fixed("d", 40)]
        let e = try makeEngine([ListSection(rows: rows)], viewport: 500)
        #expect(throws: ListError.rowFailed(id: "bad", reason: BrokenRow(id: "bad"))) { try e.visibleItems() }
        // Before: every row after the broken one stayed at its estimate, call after call.
        #expect(try e.isMeasured(2) && e.isMeasured(3))
        #expect(e.allHeights == [20, 44, 30, 40])
        #expect(throws: ListError.rowFailed(id: "bad", reason: BrokenRow(id: "bad"))) { try e.visibleItems() }
        #expect(e.unmeasuredCount == 1)
    }

    @Test func aFailedRowDoesNotKeepLaterRoundsOfTheViewportUnmeasured() throws {
        // More rows in view than one foreground round measures (255): the broken row is in the
        // first round, the rest must still be measured by the same call.
        var rows = Rows.uniform(600, height: 1)
        rows[3] = Rows.fixed("bad", 1, template: "broken")
        let e = try makeEngine([ListSection(rows: rows)], viewport: 2_000, defaultEstimate: 1)
        #expect(throws: ListError.rowFailed(id: "bad", reason: BrokenRow(id: "bad"))) { try e.visibleItems() }
        #expect(e.unmeasuredCount == 1)
    }

    @Test func aRowMissingFromTheDataSourceDoesNotStopTheOthers() throws {
        let rows = Rows.uniform(10, height: 10)
        let source = CountingSource(rows)
        source.failing = ["p4"]
        let e = try ListEngine(sections: [ListSection(rows: rows.map(\.id))], dataSource: source, measurer: FakeMeasurer(), width: 320)
        e.viewportHeight = 1_000
        #expect(throws: ListError.self) { try e.visibleItems() }
        #expect(e.unmeasuredCount == 1)
        #expect(throws: ListError.self) { try e.measureAll() }
        #expect(e.unmeasuredCount == 1)
        #expect(e.allHeights == [10, 10, 10, 10, 44, 10, 10, 10, 10, 10])
    }
}

@Suite struct WrappedErrorMessageTests {
    @Test func anNSErrorFromTheAppReadsAsItsMessage() {
        // On Linux `String(describing:)` of an NSError is `Error Domain=… Code=7 "(null)"UserInfo={…}`.
        let error = NSError(domain: "store", code: 7, userInfo: [NSLocalizedDescriptionKey: "no row 'r2' in the store"])
        #expect(ListError.rowFailed(id: "r2", reason: error).description == "row 'r2': no row 'r2' in the store")
        // Swift errors keep their own description.
        #expect(ListError.rowFailed(id: "r", reason: BrokenRow(id: "x")).description == "row 'r': cannot measure 'x'")
    }
}
