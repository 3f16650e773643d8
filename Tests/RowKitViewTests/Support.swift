import Foundation
import RowKitCells
import RowKitList
@testable import RowKitView

/// A measurer whose rows say their height: field `h` (px at width 400), scaled by 400/width so
/// that width changes move rows; `slow` makes preparing take time (background races).
struct FieldHeightMeasurer: RowMeasurer {
    var slowMicroseconds: UInt32 = 0
    func prepare(_ row: ListRow) throws -> Double {
        if slowMicroseconds > 0 { usleep(slowMicroseconds) }
        if case .number(let h)? = row.data["h"] { return h }
        return 44
    }
    func height(of prepared: Double, width: Double) -> Double { (prepared * 400 / width).rounded() }
    func byteCount(of prepared: Double) -> Int { 8 }
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

/// A view model over a real engine with `count` rows (optionally in sections with headers).
func makeModel(count: Int = 500, sections: Int = 1, width: Double = 400, height: Double = 600,
               configuration: ViewConfiguration = ViewConfiguration(), slow: UInt32 = 0) throws -> (ListViewModel, ListEngine<FieldHeightMeasurer>) {
    let all = rows(heights(count))
    let per = (count + sections - 1) / sections
    let listSections: [ListSection] = (0..<sections).map { s in
        let slice = Array(all[min(count, s * per)..<min(count, (s + 1) * per)])
        let header = sections > 1 ? ListRow(id: "h\(s)", template: "t", data: RowData(["h": .number(30)])) : nil
        return ListSection(id: "s\(s)", header: header, rows: slice)
    }
    let engine = try ListEngine(sections: listSections, measurer: FieldHeightMeasurer(slowMicroseconds: slow), width: width)
    let model = ListViewModel(list: EngineSeam(engine), width: width, height: height, configuration: configuration)
    return (model, engine)
}

extension ViewFrame {
    /// Screen y of the item with row id `id`, if visible.
    func screenY(ofID id: String, in engine: ListEngine<FieldHeightMeasurer>) -> Double? {
        items.first { $0.id == id }.map { $0.y - offset }
    }
}
