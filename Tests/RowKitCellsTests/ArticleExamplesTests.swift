import Testing
import RowKitText
import RowKitCells

/// The code samples of RowKitCells' DocC articles (Sources/RowKitCells/RowKitCells.docc), run
/// and checked: every sample appears here line for line (scripts/check_article_examples.py
/// checks that), with what the article says about its result.
@Suite struct CellsArticleExamplesTests {
    // Stylesheets.md
    @Test func stylesheets() throws {
        let sheet = try Stylesheet(yaml: """
            styles:
              base: {font: DejaVu Sans, size: 13, color: darkgray}
              title: {extends: base, size: 15, weight: bold, color: black}
              note: {extends: base, maxLines: 1, shadow: {dx: 0, dy: 1, color: white}}
            """, file: "styles.yaml")

        let title = try sheet.style(named: "title")
        print(title.font ?? "", title.size ?? 0, title.weight == .bold)   // DejaVu Sans 15.0 true
        #expect(title.font == "DejaVu Sans" && title.size == 15 && title.weight == .bold && title.color == .black)
        let note = try sheet.appearance(named: "note")
        #expect(note.shadow == TextShadow(dx: 0, dy: 1, color: .white))
        #expect(try sheet.maxLines(named: "note") == 1)

        let template = try CellTemplate(yaml: """
            name: note
            layout:
              inset: 10
              child:
                vstack:
                  spacing: 4
                  children:
                    - text: {field: title, style: title}
                    - text: {field: note, style: note}
            """, file: "note.yaml", stylesheet: sheet)
        let cell = try template.bind(["title": "Groceries", "note": "Milk, eggs, bread and a very long list of other things"])
        let size = try cell.measure(width: 320)
        print(size)   // 320.0×59.0
        // 10 + one 19 px title line + 4 + one 16 px note line (ellipsized) + 10.
        #expect(size == Size(width: 320, height: 10 + 19 + 4 + 16 + 10))

        do {
            _ = try Stylesheet(yaml: "styles:\n  title: {colour: red}\n", file: "bad.yaml")
        } catch {
            print(error)   // bad.yaml:2:11: styles.title.colour: unknown key 'colour' (did you mean 'color'?)
            #expect(error.description == "bad.yaml:2:11: styles.title.colour: unknown key 'colour' (did you mean 'color'?)")
        }
        #expect(throws: StyleError.self) { try Stylesheet(yaml: "styles:\n  title: {colour: red}\n", file: "bad.yaml") }
    }

    // Stylesheets.md: the same cell in Swift.
    @Test func stylesInSwift() throws {
        let title = TextAppearance(style: TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: .bold), size: 15,
                                                    lineHeight: .pixels(19)))
        let note = TextAppearance(style: TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 13, lineHeight: .pixels(16),
                                                   color: Color(white: 1.0 / 3)),
                                  shadow: TextShadow(dx: 0, dy: 1, color: .white))
        let template = CellTemplate(name: "note") {
            CellLayout.vstack(spacing: 4) {
                CellLayout.text(field: "title", title)
                CellLayout.text(field: "note", note, maxLines: 1)
            }
            .padding(Insets(10))
        }
        let size = try template.bind(["title": "Groceries", "note": "Milk, eggs, bread and a very long list of other things"]).measure(width: 320)
        print(size)   // 320.0×59.0
        #expect(size == Size(width: 320, height: 59))
    }
}
