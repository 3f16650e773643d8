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

    @Test func drawingFormsMadeAtDrawTimeHaveTheMeasuredGeometry() throws {
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

    /// Random rows (several scripts, lengths from empty to long, every classic cell) at random
    /// widths: the height the list keeps — from the compact measuring form, through width
    /// changes — is the height of the cell drawn from the drawing form made at draw time.
    @Test func measuredEqualsDrawnForRandomRowsAndWidths() throws {
        var rng = SeededRandom(seed: 0x4D65_6173_7572_6564)
        let vocabulary = ["list", "row", "height", "exact", "Zeilenhöhe", "ligne", "مرحبا", "بالعالم", "שלום", "नमस्ते", "こんにちは",
                     "世界", "안녕하세요", "สวัสดี", "😀", "supercalifragilisticexpialidocious", "a", "—", "12,345.67"]
        func text(_ count: Int) -> String {
            (0..<count).map { _ in rng.pick(vocabulary) }.joined(separator: rng.chance(0.1) ? "  " : " ")
        }
        var rows: [ListRow] = []
        for k in 0..<60 {
            switch k % 3 {
            case 0: rows.append(ListRow(id: "l\(k)", template: "label", data: ["text": text(rng.int(0...40))]))
            case 1: rows.append(ListRow(id: "c\(k)", template: "caption-text",
                                        data: ["caption": text(rng.int(1...4)), "body": text(rng.int(0...80))]))
            default: rows.append(ListRow(id: "f\(k)", template: "filter-list",
                                         data: ["title": text(rng.int(1...5)), "subtitle": text(rng.int(0...6)),
                                                "content": text(rng.int(0...60))]))
            }
        }
        let e = try ListEngine(sections: [ListSection(rows: rows)], measurer: CellMeasurer(ClassicCells.all), width: 320)
        e.viewportHeight = 100_000
        e.drawingCacheCapacity = 8
        try e.measureAll()
        for _ in 0..<6 {
            let width = Double(rng.int(120...900)) + (rng.chance(0.5) ? 0.5 : 0)
            try e.setWidthAndWait(width)
            #expect(e.unmeasuredCount == 0)
            for item in try e.visibleItems() {
                let cell = try e.drawingForm(for: item)
                #expect(Units.round(try cell.arrange(width: width).size.height) == item.height, "\(item.id) at \(width)")
            }
            // Drawing forms are kept for a bounded neighbourhood only; measuring forms for all.
            #expect(e.cachedDrawingFormCount <= 8)
            #expect(e.measuringFormBytes.items == rows.count)
        }
    }

    /// A row's constant-height width is never too small: at it and at every wider width the
    /// row measures the same (random rows of every classic cell in several scripts, one-line
    /// and wrapping, empty fields); it is finite for rows that can keep their height (a fixed
    /// column, texts that fit on one line), so a list skips them on width changes.
    @Test func constantHeightWidthIsABoundForEveryCell() throws {
        var rng = SeededRandom(seed: 0x436F_6E73_7461_6E74)
        let vocabulary = ["list", "row", "a", "exact", "Zeilenhöhe", "مرحبا", "שלום", "नमस्ते", "こんにちは", "世界", "😀",
                          "supercalifragilisticexpialidocious", "—", "12,345.67", "tab\there", "line\nbreak"]
        var finite = 0, checked = 0
        for template in ClassicCells.all + [ClassicCells.sectionHeader] {
            let layout = template.compile()
            let fields = Set(template.samples.flatMap(\.fields.keys))
            for _ in 0..<40 {
                var fieldValues: [String: FieldValue] = [:]
                for field in fields.sorted() {
                    let words = rng.chance(0.15) ? 0 : rng.chance(0.5) ? rng.int(1...3) : rng.int(4...40)
                    fieldValues[field] = .string((0..<words).map { _ in rng.pick(vocabulary) }.joined(separator: " "))
                }
                let data = RowData(fieldValues)
                let metrics = try layout.metrics(for: data)
                let from = metrics.constantHeightWidth
                #expect(from >= 0)
                guard from <= 100_000 else { continue }
                finite += 1
                let height = try metrics.height(width: from)
                for width in [from + 1.0 / 64, from + 0.3, from + 1, from * 1.5 + 7, from + 333, 100_000] where width <= 100_000 {
                    checked += 1
                    #expect(try metrics.height(width: width) == height, "\(template.name) \(data) from \(from) at \(width)")
                }
            }
        }
        #expect(finite >= 60 && checked >= 300, "too few rows with a constant-height width (\(finite)) to test the bound")
        // A fixed 220 px column in 15 px insets: the same height at every width from 250 px.
        let filter = try ClassicCells.filterList.compile().metrics(for: ["title": "T", "subtitle": "S", "content": "C"])
        #expect(filter.constantHeightWidth == 250)
    }
}
