import Foundation
import Testing
import RowKitCells
import RowKitDraw
import RowKitList
import RowKitListCells
import RowKitText
import RowKitView
import RowKitWindow

/// The code samples of the "Build a table view" article
/// (Sources/RowKitListCells/RowKitListCells.docc/BuildATableView.md), run and checked: every
/// sample appears here line for line (scripts/check_article_examples.py checks that), with what
/// the article says about its result. The window itself is opened only with
/// ROWKIT_ARTICLE_WINDOW=1 and a display (the GUI tests drive `rowkit view`, which is built
/// the same way).
@Suite struct TableViewArticleTests {
    @Test func buildATableView() throws {
        let notes = (0..<1_000).map { i in
            ListRow(id: "note-\(i)", template: "label",
                    data: ["text": "Note \(i): " + String(repeating: "remember the milk ", count: i % 12)])
        }
        let list = try ListEngine(sections: [ListSection(rows: notes)],
                                  measurer: CellMeasurer([ClassicCells.label]), width: 390)
        list.viewportHeight = 844

        let visible = try list.visibleItems()
        print(visible.count, visible[0].height)   // 12 64.0
        #expect(visible.count == 12 && visible[0].height == 64)

        let height = try list.exactHeight(ofItem: 500)
        let cell = try ClassicCells.label.bind(notes[500].data).measure(width: 390)
        print(height == cell.height)   // true
        #expect(height == cell.height)

        try list.measureAll()
        print(list.contentHeight)   // 78774.0
        #expect(list.contentHeight == (0..<1_000).reduce(0.0) { $0 + (try! list.height(ofItem: $1)) })
        #expect(list.contentHeight == 78774)

        let model = ListViewModel(list: EngineSeam(list), width: 390, height: 844)
        let painter = ViewportPainter(engine: list, images: ImageStore())
        var options = WindowOptions()
        options.title = "Notes"
        // What the window paints each frame, without a display: the first 12 rows.
        let frame = try model.makeFrame()
        #expect(model.width == 390 && frame.items.count >= 12)
        try painter.paint(frame, into: try Canvas(offscreenWidth: 390, height: 844))
        if ProcessInfo.processInfo.environment["ROWKIT_ARTICLE_WINDOW"] == "1" {
            try ListWindow.openDisplay()
            let window = ListWindow(model: model, painter: painter, options: options)
            try window.run()
        }
    }
}
