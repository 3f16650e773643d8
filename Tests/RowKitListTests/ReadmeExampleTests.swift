import RowKitCells
import RowKitList
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

        let rows = (0..<1000).map { ListRow(id: "r\($0)", template: "label", data: ["text": "Row \($0)"]) }
        let newRow = ListRow(id: "new", template: "label", data: ["text": "New"])
        let list = try ListEngine(sections: [ListSection(id: "s", rows: rows)],
                                  measurer: CellMeasurer(ClassicCells.all), width: 320)
        list.viewportHeight = 640
        try list.scrollTo(IndexPath(section: 0, row: 500), position: .middle)
        let visible = try list.visibleItems()
        #expect(visible.contains { $0.row.id == "r500" })
        let before = visible.first { $0.row.id == "r500" }!.y - list.contentOffset
        try list.performBatchUpdates { $0.insert([newRow], at: IndexPath(section: 0, row: 0)) }
        let after = try list.offset(ofItem: list.index(of: IndexPath(section: 0, row: 501))) - list.contentOffset
        #expect(before == after, "the row on screen stays put when a row is inserted above it")
    }
}
