import Testing
import RowKitText
@testable import RowKitCells

/// Text direction and language in cells: YAML `direction`/`lang`, the `.auto` default of
/// stylesheets, the Swift DSL and the classic cells, and what it does to a right-to-left row.
@Suite struct CellDirectionTests {
    @Test func yamlDirectionAndLangAreReadAndInherited() throws {
        let yaml = """
        styles:
          base: {size: 14, lang: ja}
          arabic: {extends: base, direction: rtl, lang: ar}
          left: {extends: base, direction: ltr}
          plain: {}
        """
        let sheet = try Stylesheet(yaml: yaml, file: "dir.yaml")
        #expect(try sheet.appearance(named: "arabic").style.direction == .rtl)
        #expect(try sheet.appearance(named: "arabic").style.lang == "ar")
        #expect(try sheet.appearance(named: "left").style.direction == .ltr)
        #expect(try sheet.appearance(named: "left").style.lang == "ja")
        #expect(try sheet.appearance(named: "plain").style.direction == .auto)
        #expect(try sheet.appearance(named: "plain").style.lang == nil)
    }

    @Test func yamlRejectsUnknownDirectionsAndMalformedLanguages() {
        let direction = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  a:\n    direction: rtll\n", file: "d.yaml")
        }
        expectError(direction, .wrongType, file: "d.yaml", line: 3, column: 16, key: "styles.a.direction", suggestion: "rtl")
        let lang = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  a:\n    lang: \"ja jp\"\n", file: "l.yaml")
        }
        expectError(lang, .wrongType, file: "l.yaml", line: 3, column: 11, key: "styles.a.lang", message: "language tag")
        let number = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  a:\n    direction: 1\n", file: "n.yaml")
        }
        #expect(number?.keyPath == "styles.a.direction")
    }

    @Test func swiftCellsDefaultToAuto() {
        #expect(TextAppearance().style.direction == .auto)
        for template in ClassicCells.all + [ClassicCells.sectionHeader] {
            for style in Self.textStyles(template.layout) {
                #expect(style.direction == .auto, "\(template.name)")
            }
        }
    }

    static func textStyles(_ layout: CellLayout) -> [TextStyle] {
        switch layout {
        case .text(let element): return [element.appearance.style]
        case .box: return []
        case .stack(let stack): return stack.children.flatMap(textStyles)
        case .inset(_, let child), .sized(_, let child), .background(_, let child): return textStyles(child)
        case .sideBySide(let pair): return textStyles(pair.first) + textStyles(pair.second)
        case .frames(let frames): return frames.flatMap { textStyles($0.child) }
        }
    }

    @Test func arabicRowReadsRightToLeft() throws {
        // A short Arabic label ends at the right edge (its "!" on the left); a Latin one starts
        // at the left; forcing ltr puts the Arabic text back at the left.
        func firstLineOffset(_ template: CellTemplate, _ text: String) throws -> (offset: Double, free: Double) {
            let arrangement = try template.bind(RowData(["text": .string(text)])).arrange(width: 320)
            for element in arrangement.elements {
                if case .text(let layout, _) = element.kind {
                    return (layout.lineOffset(0), element.frame.width - layout.lines[0].width)
                }
            }
            throw CellError.invalidWidth(-1)
        }
        let arabic = try firstLineOffset(ClassicCells.label, "مرحبا بالعالم!")
        #expect(arabic.free > 100)
        #expect(abs(arabic.offset - arabic.free) < 1e-9, "right-aligned: offset \(arabic.offset), free \(arabic.free)")
        let latin = try firstLineOffset(ClassicCells.label, "Hello, world!")
        #expect(latin.offset == 0)
        let forced = CellTemplate(name: "ltr-label") {
            CellLayout.text(field: "text", TextAppearance(style: TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 14, direction: .ltr)))
        }
        #expect(try firstLineOffset(forced, "مرحبا بالعالم!").offset == 0)
    }
}
