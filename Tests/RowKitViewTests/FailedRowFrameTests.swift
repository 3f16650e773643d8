import Testing
import RowKitCells
import RowKitList
import RowKitListCells
@testable import RowKitView

/// A row the app's measurer cannot measure, on screen: the view shows the list with that row
/// at its estimate and says what went wrong once (it threw on every frame, and the window
/// closed on the first).
@Suite struct FailedRowFrameTests {
    struct FailingMeasurer: RowMeasurer {
        struct Broken: Error, CustomStringConvertible { var description: String { "no such template" } }
        func measuringForm(of row: ListRow) throws -> FieldHeightMeasurer.Height {
            if row.id == "r3" || row.id == "h1" { throw Broken() }
            return try FieldHeightMeasurer().measuringForm(of: row)
        }
        func height(of form: FieldHeightMeasurer.Height, width: Double) -> Double { form.value }
        func drawingForm(of row: ListRow, measuring: FieldHeightMeasurer.Height?) throws -> Double {
            try (measuring ?? measuringForm(of: row)).value
        }
    }

    @Test func aVisibleRowThatCannotBeMeasuredKeepsItsEstimateAndIsReportedOnce() throws {
        let list = (0..<100).map { ListRow(id: "r\($0)", template: "t", data: RowData(["h": .number(30)])) }
        let engine = try ListEngine(sections: [ListSection(rows: list)], measurer: FailingMeasurer(), width: 400, defaultEstimate: 50)
        let model = ListViewModel(list: EngineSeam(engine), width: 400, height: 600)
        var warnings: [String] = []
        model.onWarning = { warnings.append($0) }
        let frame = try model.makeFrame()
        let failed = try #require(frame.items.first { $0.id == "r3" })
        #expect(failed.height == 50)
        #expect(frame.items.filter { $0.id != "r3" && $0.kind == .row }.allSatisfy { $0.height == 30 })
        _ = try model.makeFrame()
        // Scrolling goes on past it (it stopped at the row before).
        try model.scroll(by: 300)
        let scrolled = try model.makeFrame()
        #expect(scrolled.offset == 300)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("no such template") == true)
    }

    /// A section header that cannot be measured is not pinned (pinning it threw on every frame).
    @Test func aHeaderThatCannotBeMeasuredIsNotPinned() throws {
        func rows(_ s: Int) -> [ListRow] { (0..<40).map { ListRow(id: "s\(s)r\($0)", template: "t", data: RowData(["h": .number(30)])) } }
        let sections = (0..<3).map { s in
            ListSection(header: ListRow(id: "h\(s)", template: "t", data: RowData(["h": .number(20)])), rows: rows(s))
        }
        let engine = try ListEngine(sections: sections, measurer: FailingMeasurer(), width: 400, defaultEstimate: 50)
        let model = ListViewModel(list: EngineSeam(engine), width: 400, height: 600)
        var warnings: [String] = []
        model.onWarning = { warnings.append($0) }
        _ = try model.makeFrame()
        // Into section 1, its header scrolled off the top (rows measure as they come into view).
        var frame = try model.makeFrame()
        for _ in 0..<100 where !(frame.items.first.map { $0.indexPath.section == 1 && $0.indexPath.row >= 5 } ?? false) {
            try model.scroll(by: 100)
            frame = try model.makeFrame()
        }
        #expect(frame.items.first?.indexPath.section == 1)
        #expect(frame.sticky == nil)
        #expect(warnings.count == 1)
    }
}
