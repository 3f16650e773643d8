import RowKitCells
import RowKitList
import Testing
@testable import rowkit

/// `rowkit view --sample` keeps rows by number; the frame log names them by their rows' ids.
@Suite struct SampleRowIDTests {
    /// The name the window reports for an engine id is the id of the row the engine gets for it
    /// (rows and section headers from the data source, live rows made by the window).
    @Test func theReportedIDIsTheRowsOwn() throws {
        let rows = SampleRows(template: ClassicCells.captionText)
        for id in [-1, -3, 0, 5, 999_999] {
            let kind: ListItemKind = id < 0 ? .header : .row
            let row = try rows.row(for: id, kind: kind, at: ListIndexPath(section: 0, row: 0))
            #expect(SampleRows.rowID(id) == row.row.id, "engine id \(id)")
        }
        #expect(SampleRows.rowID(5) == "r5")
        #expect(SampleRows.rowID(-1) == "s0-header")
        #expect(SampleRows.rowID(SampleRows.liveIDs) == "live-0")
        #expect(SampleRows.rowID(SampleRows.liveIDs + 3) == "live-3")
    }
}
