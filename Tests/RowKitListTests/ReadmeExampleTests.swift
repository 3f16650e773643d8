import RowKitCells
import RowKitList
import RowKitListCells
import RowKitText
import Testing

/// The README's library example, compiled and run, so the documentation stays true.
@Suite struct ReadmeExampleTests {
    @Test func libraryExampleWorks() throws {
        let style = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 13, lineHeight: .pixels(16))
        let text = try PreparedText("Any text, any script: 你好, مرحبا, 👨‍👩‍👧", style: style)
        let m = try text.measure(width: 320)
        let lines = try text.layout(width: 480, maxLines: 2).lines
        #expect(m.lineCount >= 1 && m.height == Double(m.lineCount) * 16)
        #expect(!lines.isEmpty && lines.count <= 2)

        let cell = CellTemplate(name: "note") {
            CellLayout.vstack(spacing: 4) {
                CellLayout.text(field: "title", TextAppearance(style: TextStyle(font: FontDescriptor(weight: .bold))))
                CellLayout.text(field: "body", TextAppearance())
            }
            .padding(Insets(10))
        }
        let bound = try cell.bind(["title": "Hello", "body": "World"])
        let height = try bound.measure(width: 320).height
        let frames = try bound.arrange(width: 320)
        #expect(height > 20 && frames.size.height == height)

        // A list of rows given as values (the engine keeps them; for large lists give ids and
        // a ListDataSource instead).
        let rows = (0..<1000).map { ListRow(id: "r\($0)", template: "label", data: ["text": "Row \($0)"]) }
        let list = try ListEngine(sections: [ListSection(rows: rows)], measurer: CellMeasurer(ClassicCells.all), width: 320)
        list.viewportHeight = 640
        try list.scrollTo(ListIndexPath(section: 0, row: 500), position: .middle)
        let visible = try list.visibleItems()
        let row500 = try #require(visible.first { $0.id == "r500" })
        #expect(row500.y - list.contentOffset == (640 - row500.height) / 2, "exactly in the middle")
        let drawn = try list.drawingForm(for: row500).arrange(width: 320)   // what a painter draws
        #expect(drawn.size.height == row500.height)

        // Batch updates with UIKit's index rule: deletes refer to rows before the update,
        // inserts to rows after it.
        let before = row500.y - list.contentOffset
        try list.performBatchUpdates { batch in
            batch.delete(at: ListIndexPath(section: 0, row: 3))
            batch.insert([ListRow(id: "new", template: "label", data: ["text": "New"])], at: ListIndexPath(section: 0, row: 0))
        }
        let after = try list.offset(ofItem: list.index(of: ListIndexPath(section: 0, row: 500))) - list.contentOffset
        #expect(before == after, "the row on screen stays put when rows change above it")

        // Width changes never block: visible rows now, the rest in the background.
        try list.setWidth(480)
        #expect(try list.visibleItems().allSatisfy { $0.height > 0 })
    }
}
