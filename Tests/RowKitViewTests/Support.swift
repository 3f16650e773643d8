import Foundation
import RowKitCells
import RowKitList
import RowKitListCells
@testable import RowKitView

/// A measurer whose rows say their height: field `h` (px at width 400), scaled by 400/width so
/// that width changes move rows; `slow` makes preparing take time (background races).
struct FieldHeightMeasurer: RowMeasurer {
    /// The list engine keeps measuring forms by reference.
    final class Height: Sendable { let value: Double; init(_ value: Double) { self.value = value } }
    var slowMicroseconds: UInt32 = 0
    func measuringForm(of row: ListRow) throws -> Height {
        if slowMicroseconds > 0 { usleep(slowMicroseconds) }
        if case .number(let h)? = row.data["h"] { return Height(h) }
        return Height(44)
    }
    func height(of form: Height, width: Double) -> Double { (form.value * 400 / width).rounded() }
    func drawingForm(of row: ListRow, measuring: Height?) throws -> Double { try (measuring ?? measuringForm(of: row)).value }
}

/// Deterministic row heights between 20 and 200 px.
func heights(_ count: Int, seed: UInt64 = 1) -> [Double] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(20 + Int((state >> 33) % 181))
    }
}

func rows(_ heights: [Double], prefix: String = "r") -> [ListRow] {
    heights.enumerated().map { ListRow(id: "\(prefix)\($0.offset)", template: "t", data: RowData(["h": .number($0.element)])) }
}

/// A view model over a real engine with `count` rows (optionally in sections with headers);
/// inserted rows are 50 px tall, with ids new0, new1…
func makeModel(count: Int = 500, sections: Int = 1, width: Double = 400, height: Double = 600,
               configuration: ViewConfiguration = ViewConfiguration(), slow: UInt32 = 0) throws -> (ListViewModel, ListEngine<FieldHeightMeasurer>) {
    let all = rows(heights(count))
    let per = (count + sections - 1) / sections
    let listSections: [ListSection<ListRow>] = (0..<sections).map { s in
        let slice = Array(all[min(count, s * per)..<min(count, (s + 1) * per)])
        let header = sections > 1 ? ListRow(id: "h\(s)", template: "t", data: RowData(["h": .number(30)])) : nil
        return ListSection(header: header, rows: slice)
    }
    let engine = try ListEngine(sections: listSections, measurer: FieldHeightMeasurer(slowMicroseconds: slow), width: width)
    var inserted = 0
    let seam = EngineSeam(engine) { n in
        defer { inserted += n }
        return (0..<n).map { ListRow(id: "new\(inserted + $0)", template: "t", data: RowData(["h": .number(50)])) }
    }
    let model = ListViewModel(list: seam, width: width, height: height, configuration: configuration)
    return (model, engine)
}

extension ViewFrame {
    /// Screen y of the item with row id `id`, if visible.
    func screenY(ofID id: String, in engine: ListEngine<FieldHeightMeasurer>) -> Double? {
        items.first { $0.id == id }.map { $0.y - offset }
    }
}
