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
            if row.id == "r3" { throw Broken() }
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
}
