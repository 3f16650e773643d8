import Testing
import RowKitList
import RowKitCells
import RowKitListCells
import RowKitText

/// QA-87: a row whose template (declared in Swift) has a NaN or negative box height was kept
/// by the list as 0 px tall without a word (and an infinite one at the list's maximum); now
/// measuring it fails, naming the row and the element.
@Suite struct HostileQA87ListTests {
    @Test(arguments: [Double.nan, -50, .infinity])
    func aRowWithABadLengthIsAnErrorNotAZeroHeight(_ height: Double) throws {
        let template = CellTemplate(name: "t", layout: .box(BoxElement(width: 10, height: height)))
        let list = try ListEngine(sections: [ListSection(rows: [ListRow(id: "a", template: "t", data: [:])])],
                                  measurer: CellMeasurer([template]), width: 200)
        do {
            try list.measureAll()
            Issue.record("measured: \(list.allHeights)")
        } catch {
            #expect("\(error)".contains("row 'a': invalid cell layout: box (element 0 in pre-order): height"), "\(error)")
        }
    }
}
