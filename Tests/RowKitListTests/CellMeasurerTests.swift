import Testing
@testable import RowKitList
import RowKitCells
import RowKitListCells
import RowKitText

/// The engine with the real cells: heights are the templates' own measurements.
@Suite struct CellMeasurerTests {
    static func rows() -> [ListRow] {
        var rows: [ListRow] = []
        for (k, sample) in ClassicCells.label.samples.enumerated() { rows.append(ListRow(id: "label\(k)", template: "label", data: sample)) }
        for (k, sample) in ClassicCells.captionText.samples.enumerated() { rows.append(ListRow(id: "caption\(k)", template: "caption-text", data: sample)) }
        for (k, sample) in ClassicCells.filterList.samples.enumerated() { rows.append(ListRow(id: "filter\(k)", template: "filter-list", data: sample)) }
        return rows
    }

    static func expected(_ row: ListRow, width: Double) throws -> Double {
        let template = try #require(ClassicCells.named(row.template))
        return Units.round(try template.bind(row.data).measure(width: width).height)
    }

    @Test func heightsAreTheCellsMeasurementsAtEveryWidth() throws {
        let rows = Self.rows()
        let e = try ListEngine(sections: [ListSection(header: ListRow(id: "hdr", template: "label", data: ["text": "Header"]), rows: rows)],
                               measurer: CellMeasurer(ClassicCells.all), width: 320)
        e.viewportHeight = 480
        try e.measureAll()
        for width in [320.0, 568, 200] {
            try e.setWidthAndWait(width)
            #expect(e.unmeasuredCount == 0)
            let heights = e.allHeights
            #expect(heights[0] == (try Self.expected(ListRow(id: "hdr", template: "label", data: ["text": "Header"]), width: width)))
            for (k, row) in rows.enumerated() {
                #expect(heights[k + 1] == (try Self.expected(row, width: width)), "\(row.id) at \(width)")
            }
            // filter-list lays out in a 220 px column: at least 88 px and the same at every width.
            for (k, row) in rows.enumerated() where row.template == "filter-list" { #expect(heights[k + 1] >= 88) }
            #expect(e.contentHeight == heights.reduce(0, +))
        }
        // Labels wrap more when narrow.
        #expect(try Self.expected(rows[2], width: 200) > (try Self.expected(rows[2], width: 568)))
        #expect(e.measuringFormBytes.items == rows.count + 1)
        #expect(e.measuringFormBytes.bytes > 0)
    }

    @Test func visibleItemsMeasureOnDemand() throws {
        let rows = (0..<200).map { k in ListRow(id: "r\(k)", template: "label", data: ["text": String(repeating: "word ", count: k % 40 + 1)]) }
        let e = try ListEngine(sections: [ListSection(rows: rows)], measurer: CellMeasurer(ClassicCells.all), width: 320)
        e.viewportHeight = 400
        try e.scrollTo(ListIndexPath(section: 0, row: 120))
        let visible = try e.visibleItems()
        #expect(!visible.isEmpty)
        #expect(e.unmeasuredCount > 100)                   // only what was needed was measured
        for item in visible {
            #expect(try e.isMeasured(item.index))
            #expect(item.height == (try Self.expected(rows[Int(item.id.dropFirst())!], width: 320)))
            #expect(item.height >= 64)                     // 44 px minimum plus 10 px margins
        }
        #expect(visible.first!.y <= e.contentOffset)
        #expect(visible.last!.y + visible.last!.height >= e.contentOffset + 400)
    }

    @Test func drawingReusesTheMeasuredCellAndIsTheMeasuredGeometry() throws {
        let rows = Self.rows()
        let e = try ListEngine(sections: [ListSection(rows: rows)], measurer: CellMeasurer(ClassicCells.all), width: 320)
        e.viewportHeight = 2_000
        for item in try e.visibleItems() {
            let cell = try e.drawingForm(for: item)
            // Drawn at the list's width, the cell is exactly as tall as the list says.
            #expect(Units.round(try cell.arrange(width: 320).size.height) == item.height)
        }
        #expect(e.cachedDrawingFormCount > 0)
        #expect(CellState(ListItemState.selected) == .selected && CellState(.highlighted) == .highlighted && CellState(.normal) == .normal)
    }
}
