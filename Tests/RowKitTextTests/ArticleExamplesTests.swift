import Testing
import RowKitText

/// The code samples of RowKitText's DocC articles (Sources/RowKitText/RowKitText.docc), run and
/// checked: every sample appears here line for line (scripts/check_article_examples.py checks
/// that), with what the article says about its result.
@Suite struct ArticleExamplesTests {
    // GettingStarted.md
    @Test func gettingStarted() throws {
        let style = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 16, lineHeight: .pixels(20))
        let text = try PreparedText("RowKit measures a text once, then lays it out at any width.", style: style)

        let narrow = try text.measure(width: 200)
        let wide = try text.measure(width: 600)
        print(narrow.lineCount, narrow.height)   // 3 60.0
        print(wide.lineCount, wide.height)       // 1 20.0
        #expect(narrow.lineCount == 3 && narrow.height == 60)
        #expect(wide.lineCount == 1 && wide.height == 20)

        let layout = try text.layout(width: 200)
        for i in layout.lines.indices {
            print(layout.text(ofLine: i))
        }
        // RowKit measures a text / once, then lays it out at / any width.
        #expect(layout.lines.indices.map { layout.text(ofLine: $0) } == ["RowKit measures a text", "once, then lays it out at", "any width."])
        #expect(layout.height == narrow.height && layout.lines.count == narrow.lineCount)

        let preview = try text.layout(width: 200, maxLines: 1)
        print(preview.isTruncated, preview.lines[0].ellipsized)   // true true
        #expect(preview.isTruncated && preview.lines[0].ellipsized)
        #expect(preview.lines[0].width <= 200)
    }
}
