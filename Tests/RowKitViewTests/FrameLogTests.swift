import Foundation
import RowKitCells
import RowKitList
import RowKitListCells
import Testing
@testable import RowKitView

/// Rows kept by number (a data source's ids), whose users know them by names.
private struct NumberedRow: Identifiable, Sendable {
    let id: Int
    let row: ListRow
}

private struct NumberedMeasurer: RowMeasurer {
    let inner = FieldHeightMeasurer()
    func measuringForm(of row: NumberedRow) throws -> FieldHeightMeasurer.Height { try inner.measuringForm(of: row.row) }
    func height(of form: FieldHeightMeasurer.Height, width: Double) -> Double { inner.height(of: form, width: width) }
    func drawingForm(of row: NumberedRow, measuring: FieldHeightMeasurer.Height?) throws -> Double {
        try inner.drawingForm(of: row.row, measuring: measuring)
    }
}

private struct NumberedSource: ListDataSource {
    func row(for id: Int, kind: ListItemKind, at indexPath: ListIndexPath) throws -> NumberedRow {
        NumberedRow(id: id, row: ListRow(id: "row-\(id)", template: "t", data: RowData(["h": .number(40)])))
    }
}

/// The frame log (`rowkit view --frame-log`) names rows by the ids their users gave them.
@Suite struct FrameLogTests {
    private func firstID(_ line: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["firstId"] as? String
    }

    /// A seam given `idText` names the items it reports and the frame log's top row with it,
    /// not with the number the engine keeps (`rowkit view --sample` printed "5" for row "r5" and
    /// 1099511627776 for the first live row).
    @Test func theFrameLogNamesRowsByTheirOwnIDs() throws {
        let engine = try ListEngine(sections: [ListSection(rows: Array(0..<100))], dataSource: NumberedSource(),
                                    measurer: NumberedMeasurer(), width: 400)
        let seam = EngineSeam(engine, idText: { "row-\($0)" })
        let model = ListViewModel(list: seam, width: 400, height: 300)
        try model.scrollTo(item: 10, position: .top)
        let frame = try model.makeFrame()
        #expect(frame.items.map(\.id).contains("row-10"))
        #expect(frame.items.allSatisfy { $0.id.hasPrefix("row-") })
        #expect(try firstID(model.frameLogLine(frame, number: 1, time: 0, paintMilliseconds: 1)) == "row-10")
        #expect(seam.item(at: 3).id == "row-3")
    }

    /// Without `idText`, an id is written as it is (string ids are the users' own).
    @Test func idsAreWrittenAsTheyAreByDefault() throws {
        let (model, _) = try makeModel(count: 50)
        let frame = try model.makeFrame()
        #expect(try firstID(model.frameLogLine(frame, number: 1, time: 0, paintMilliseconds: 1)) == "r0")
    }
}
