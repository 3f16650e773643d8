import Foundation
import Testing
import RowKitText
@testable import RowKitCells

/// Path of a file under `Samples/cells/` of the package.
func cellsSample(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/cells").appendingPathComponent(name).path
}

/// The error `body` throws, or nil if it succeeds.
func styleError(_ body: () throws(StyleError) -> Void) -> StyleError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// Checks an error's kind, location, key path, suggestion, and that its description names them all.
func expectError(_ error: StyleError?, _ kind: StyleError.Kind, file: String, line: Int, column: Int, key: String,
                 suggestion: String? = nil, message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error else {
        Issue.record("expected a \(kind) error, got none", sourceLocation: sourceLocation)
        return
    }
    #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
    #expect(error.file.hasSuffix(file), "\(error)", sourceLocation: sourceLocation)
    #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
    #expect(error.column == column, "\(error)", sourceLocation: sourceLocation)
    #expect(error.keyPath == key, "\(error)", sourceLocation: sourceLocation)
    #expect(error.suggestion == suggestion, "\(error)", sourceLocation: sourceLocation)
    let text = error.description
    #expect(text.contains("\(file):\(line):\(column): "), "\(text)", sourceLocation: sourceLocation)
    if !key.isEmpty { #expect(text.contains(" \(key): "), "\(text)", sourceLocation: sourceLocation) }
    if let suggestion { #expect(text.hasSuffix("(did you mean '\(suggestion)'?)"), "\(text)", sourceLocation: sourceLocation) }
    if let message { #expect(error.message.contains(message), "\(text)", sourceLocation: sourceLocation) }
}

func appearance(size: Double = 13, weight: FontWeight = .regular, color: Color = .black, lineHeight: Double? = nil,
                shadow: TextShadow? = nil) -> TextAppearance {
    TextAppearance(style: TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: weight), size: size,
                                    lineHeight: .pixels(lineHeight ?? (size * 1.25).rounded()), color: color, direction: .auto),
                   shadow: shadow, highlightedColor: .white)
}

@Suite("Stylesheets")
struct StylesheetTests {
    // MARK: Loading

    @Test func classicSheetResolvesEveryStyle() throws {
        let sheet = try Stylesheet(contentsOf: cellsSample("classic.yaml"))
        #expect(sheet.names == ["base", "caption", "body", "title", "subtitle", "content", "main", "sub",
                                "project-title", "description", "label"])
        #expect(try sheet.appearance(named: "caption") == appearance(weight: .bold))
        #expect(try sheet.appearance(named: "body") == appearance(color: Color(white: 1.0 / 3)))
        #expect(try sheet.appearance(named: "title") == appearance(size: 15, weight: .bold))
        #expect(try sheet.appearance(named: "subtitle") == appearance(color: Color(white: 0.5)))
        #expect(try sheet.appearance(named: "content") == appearance())
        let emboss = TextShadow(dx: 0, dy: 1, color: .white)
        #expect(try sheet.appearance(named: "main") == appearance(size: 16, weight: .bold, color: Color(white: 0.45), shadow: emboss))
        #expect(try sheet.appearance(named: "sub") == appearance(size: 14, color: Color(white: 0.55), shadow: emboss))
        #expect(try sheet.appearance(named: "project-title") == appearance(size: 17, lineHeight: 20))
        #expect(try sheet.appearance(named: "description") == appearance(size: 12, color: Color(white: 0.5), lineHeight: 15))
        #expect(try sheet.frame(named: "project-title") == StyleFrame(x: 50, y: 0, width: 245, height: 20))
        #expect(try sheet.frame(named: "description") == StyleFrame(x: 50, y: 20, width: 245, height: nil))
        #expect(try sheet.appearance(named: "label") == appearance(size: 14, lineHeight: 18))
        #expect(try sheet.padding(named: "label") == Insets(10))
        #expect(try sheet.padding(named: "caption") == nil)
        #expect(try sheet.maxLines(named: "caption") == nil)
        #expect(try sheet.maxLines(named: "sub") == 1)
    }

    @Test func defaultsFillUnsetFields() throws {
        let sheet = try Stylesheet(yaml: "styles:\n  plain: {}\n  big: {size: 20}\n  empty:\n", file: "d.yaml")
        let plain = try sheet.appearance(named: "plain")
        #expect(plain.style.font == FontDescriptor(family: "DejaVu Sans", weight: .regular, italic: false))
        #expect(plain.style.size == 13)
        #expect(plain.style.lineHeight == .pixels(16))
        #expect(plain.style.color == .black)
        #expect(plain.style.alignment == .natural)
        #expect(plain.shadow == nil)
        #expect(plain.highlightedColor == .white)
        #expect(try sheet.appearance(named: "big").style.lineHeight == .pixels(25))
        #expect(try sheet.appearance(named: "empty") == plain)
    }

    /// YAML 1.1 reads a plain `013` as octal (11) and `1:30` as base 60 (90): `size: 013` drew
    /// 11 px text and `size: 1:30` 90 px text without a word. Both are errors at their place
    /// now; the forms that say what they are (`0o13`, `0x0d`) and a quoted string are unchanged.
    @Test func numbersYAMLReadsUnlikeTheirLookAreRefused() throws {
        expectError(styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  s: {size: 013}\n", file: "o.yaml") },
                    .wrongType, file: "o.yaml", line: 2, column: 13, key: "styles.s.size",
                    message: "'013' is an octal number in YAML (11): write it without the leading 0, or 0o13 for octal")
        expectError(styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  s: {lineHeight: 1:30}\n", file: "b.yaml") },
                    .wrongType, file: "b.yaml", line: 2, column: 19, key: "styles.s.lineHeight",
                    message: "'1:30' is a base-60 number in YAML (90): write 90, or quote it")
        expectError(styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  s: {maxLines: 010}\n", file: "m.yaml") },
                    .wrongType, file: "m.yaml", line: 2, column: 17, key: "styles.s.maxLines", message: "(8)")
        let sheet = try Stylesheet(yaml: "styles:\n  a: {size: 0o13}\n  b: {size: 0x0d}\n  c: {size: 0.5}\n", file: "ok.yaml")
        #expect(try sheet.appearance(named: "a").style.size == 11)
        #expect(try sheet.appearance(named: "b").style.size == 13)
        #expect(try sheet.appearance(named: "c").style.size == 0.5)
        // A template's samples show such numbers as written (`1:30` was shown as 90).
        let template = try CellTemplate(yaml: "name: t\nlayout: {text: {field: a}}\nsamples:\n  - {a: 1:30}\n  - {a: 01234}\n", file: "t.yaml", stylesheet: nil)
        #expect(template.samples == [RowData(["a": .string("1:30")]), RowData(["a": .string("01234")])])
    }

    /// A tab indenting a line was "found character that cannot start any token", which does
    /// not say what the character is; the message names the tab now.
    @Test func aTabIndentIsNamed() {
        expectError(styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n\tbase: {size: 13}\n", file: "t.yaml") },
                    .malformedYAML, file: "t.yaml", line: 2, column: 1, key: "", message: ": a tab (YAML indents with spaces only)")
        #expect(YAMLReader.character(in: "ab\ncé\td", line: 2, column: 3) == "\t")
        #expect(YAMLReader.character(in: "ab", line: 3, column: 1) == nil && YAMLReader.character(in: "ab", line: 1, column: 3) == nil)
    }

    /// A style's font that is not installed was warned with the family quoted whole (a
    /// 100,000-letter name made a 100 KB warning), and a font file's name read as a family
    /// with no word that a style cannot name a file.
    @Test func aMissingFontIsQuotedShortAndAFileNameIsSaidToBeOne() throws {
        let long = String(repeating: "A", count: 100_000)
        let sheet = try Stylesheet(yaml: "styles:\n  a: {font: '\(long)'}\n  b: {font: fonts/My.ttf}\n", file: "f.yaml")
        #expect(sheet.warnings.count == 2)
        #expect(sheet.warnings.allSatisfy { $0.description.count < 400 }, "\(sheet.warnings.map(\.description.count))")
        #expect(sheet.warnings.contains { $0.description.contains("'fonts/My.ttf' is not installed") && $0.description.hasSuffix("(a style's font is a family name: font files are not read from stylesheets)") },
                "\(sheet.warnings)")
    }

    /// A file over the node limit without a single alias was asked "is an alias repeated inside
    /// another?"; the alias hint is given only when the file has aliases.
    @Test func theNodeLimitMentionsAliasesOnlyWhenThereAreSome() {
        let plain = "styles:\n" + (0..<50_001).map { "  s\($0): {}\n" }.joined()
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: plain, file: "many.yaml") }
        #expect(error?.kind == .limitExceeded && error?.message == "more than 100000 nodes (the limit for YAML files)", "\(String(describing: error))")
    }

    @Test func extendsChainsInheritUnsetFields() throws {
        let yaml = """
        styles:
          leaf:
            extends: middle
            color: red
          middle:
            extends: root
            weight: 600
            maxLines: 2
          root:
            font: DejaVu Serif
            size: 20
            italic: true
            color: blue
            alignment: center
            lineHeight: normal
            highlightedColor: "#ff000080"
            padding: {horizontal: 4, vertical: 2}
        """
        let sheet = try Stylesheet(yaml: yaml, file: "chain.yaml")
        let leaf = try sheet.appearance(named: "leaf")
        #expect(leaf.style.font == FontDescriptor(family: "DejaVu Serif", weight: FontWeight(600), italic: true))
        #expect(leaf.style.size == 20)
        #expect(leaf.style.color == Color(red: 1, green: 0, blue: 0))
        #expect(leaf.style.alignment == .center)
        #expect(leaf.style.lineHeight == .normal)
        #expect(leaf.highlightedColor == Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255))
        #expect(try sheet.maxLines(named: "leaf") == 2)
        #expect(try sheet.padding(named: "leaf") == Insets(top: 2, left: 4, bottom: 2, right: 4))
        #expect(try sheet.appearance(named: "middle").style.color == Color(red: 0, green: 0, blue: 1))
        #expect(sheet.definitions["leaf"]?.size == nil)
        #expect(sheet.styles["leaf"]?.size == 20)
    }

    @Test func colorForms() throws {
        let yaml = """
        styles:
          a: {color: "#abc"}
          b: {color: "#aabbcc"}
          c: {color: "#aabbcc80"}
          d: {color: {white: 0.45}}
          e: {color: {white: 0.5, alpha: 0.25}}
          f: {color: {red: 1, green: 0.5, blue: 0}}
          g: {color: DarkGray}
          h: {color: clear}
        """
        let sheet = try Stylesheet(yaml: yaml, file: "colors.yaml")
        func color(_ name: String) throws -> Color { try sheet.appearance(named: name).style.color }
        #expect(try color("a") == Color(hex: "#aabbcc"))
        #expect(try color("b") == Color(red: 170.0 / 255, green: 187.0 / 255, blue: 204.0 / 255))
        #expect(try color("c") == Color(red: 170.0 / 255, green: 187.0 / 255, blue: 204.0 / 255, alpha: 128.0 / 255))
        #expect(try color("d") == Color(white: 0.45))
        #expect(try color("e") == Color(white: 0.5, alpha: 0.25))
        #expect(try color("f") == Color(red: 1, green: 0.5, blue: 0))
        #expect(try color("g") == Color(white: 1.0 / 3))
        #expect(try color("h") == .clear)
    }

    @Test func paddingAndFrameForms() throws {
        let yaml = """
        styles:
          a: {padding: 3}
          b: {padding: {top: 1, left: 2, bottom: 3, right: 4}}
          c: {padding: {horizontal: 5}}
          d: {frame: {x: 1, y: 2, width: 3}}
          e: {frame: [1, 2, 3, 4]}
          f: {frame: [1, 2, 3, auto]}
        """
        let sheet = try Stylesheet(yaml: yaml, file: "geometry.yaml")
        #expect(try sheet.padding(named: "a") == Insets(3))
        #expect(try sheet.padding(named: "b") == Insets(top: 1, left: 2, bottom: 3, right: 4))
        #expect(try sheet.padding(named: "c") == Insets(top: 0, left: 5, bottom: 0, right: 5))
        #expect(try sheet.frame(named: "d") == StyleFrame(x: 1, y: 2, width: 3, height: nil))
        #expect(try sheet.frame(named: "e") == StyleFrame(x: 1, y: 2, width: 3, height: 4))
        #expect(try sheet.frame(named: "f") == StyleFrame(x: 1, y: 2, width: 3, height: nil))
    }

    @Test func mergedSheetRestylesChildrenOfOverriddenParents() throws {
        let base = try Stylesheet(contentsOf: cellsSample("classic.yaml"))
        let top = try Stylesheet(yaml: "styles:\n  base:\n    font: DejaVu Serif\n  extra:\n    extends: base\n", file: "top.yaml")
        let merged = try top.merged(over: base)
        #expect(try merged.appearance(named: "caption").style.font == FontDescriptor(family: "DejaVu Serif", weight: .bold))
        #expect(try merged.appearance(named: "caption").style.size == 13)
        #expect(try merged.appearance(named: "extra").style.font.family == "DejaVu Serif")
        #expect(merged.names.first == "base" && merged.names.last == "extra")
    }

    /// An overlay (`rowkit --stylesheet` over a template's own sheet) may extend a style only the
    /// sheet under it defines; `Stylesheet(contentsOf:)` refused it on its own ("'caption'
    /// extends unknown style 'base'") before it could be merged.
    @Test func anOverlayExtendsStylesOfTheSheetUnderIt() throws {
        let base = try Stylesheet(contentsOf: cellsSample("classic.yaml"))
        let top = try Stylesheet.overlay(yaml: "styles:\n  caption: {extends: base, size: 30}\n", file: "top.yaml")
        let merged = try top.merged(over: base)
        #expect(try merged.appearance(named: "caption").style.size == 30)
        #expect(try merged.appearance(named: "caption").style.font.family == "DejaVu Sans")
        // A parent neither sheet defines is reported by the merge, where the overlay wrote it.
        let lost = try Stylesheet.overlay(yaml: "styles:\n  caption: {extends: bsae}\n", file: "top.yaml")
        let error = styleError { () throws(StyleError) in _ = try lost.merged(over: base) }
        expectError(error, .unknownStyle, file: "top.yaml", line: 2, column: 22, key: "styles.caption.extends",
                    suggestion: "base", message: "unknown style 'bsae'")
        let alone = styleError { () throws(StyleError) in _ = try lost.merged(over: .empty) }
        #expect(alone?.kind == .unknownStyle && alone?.line == 2)
        // Everything else is still checked at once: a cycle, and a sheet that is not an overlay.
        let cycle = styleError { () throws(StyleError) in
            _ = try Stylesheet.overlay(yaml: "styles:\n  a: {extends: b}\n  b: {extends: a}\n", file: "c.yaml")
        }
        #expect(cycle?.kind == .extendsCycle)
        let strict = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  caption: {extends: base}\n", file: "s.yaml") }
        #expect(strict?.kind == .unknownStyle)
        // A template without a sheet of its own resolves the overlay alone.
        let noOwn = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  text: {field: a, style: caption}\n", file: "x.yaml", stylesheet: lost)
        }
        expectError(noOwn, .unknownStyle, file: "top.yaml", line: 2, column: 22, key: "styles.caption.extends",
                    message: "unknown style 'bsae'")
    }

    /// An `extends` chain written child first recursed once per style: 24,990 styles (within
    /// the YAML limits) crashed the loader with a stack overflow (signal 11).
    @Test func aLongChainWrittenChildFirstResolves() throws {
        let count = 24_990
        var yaml = "styles:\n"
        for i in 0..<(count - 1) { yaml += "  s\(i): {extends: s\(i + 1)}\n" }
        yaml += "  s\(count - 1): {size: 12, weight: bold}\n"
        let sheet = try Stylesheet(yaml: yaml, file: "chain.yaml")
        #expect(try sheet.style(named: "s0").size == 12)
        #expect(try sheet.style(named: "s12345").weight == .bold)
        #expect(try sheet.style(named: "s0").extends == "s1")
        // The same chain closed into a loop is a cycle, reported where it closes.
        let loop = yaml.replacingOccurrences(of: "s\(count - 1): {size: 12, weight: bold}", with: "s\(count - 1): {extends: s0}")
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: loop, file: "loop.yaml") }
        #expect(error?.kind == .extendsCycle && error?.line == count + 1, "\(String(describing: error).prefix(200))")
        // (Shown by its ends: QA-87.)
        #expect(error?.message.hasPrefix("extends cycle of \(count) styles: s0 → s1 → s2") == true && error?.message.hasSuffix("s\(count - 1) → s0") == true)
    }

    /// `size: 13px` (a CSS habit) said only "expected a number, got string '13px'".
    @Test func aLengthWithAUnitSaysHowToWriteIt() {
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {size: 13px}\n", file: "px.yaml") }
        expectError(error, .wrongType, file: "px.yaml", line: 2, column: 13, key: "styles.a.size",
                    message: "expected a number, got string '13px' (values are pixels without a unit: write 13)")
        let other = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {size: big}\n", file: "px.yaml") }
        #expect(other?.message == "expected a number, got string 'big'")
    }

    /// A YAML merge key (`<<: *base`, common in YAML files) was "unknown key '<<'", with no hint
    /// that merges are not supported or what to use.
    @Test func aMergeKeySaysWhatToUseInstead() {
        let error = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  base: &b {size: 13}\n  title:\n    <<: *b\n    weight: bold\n", file: "merge.yaml")
        }
        expectError(error, .unknownKey, file: "merge.yaml", line: 4, column: 5, key: "styles.title.<<",
                    message: "YAML merge keys ('<<') are not supported: write the keys out, or give styles a parent with 'extends'")
    }

    @Test func stylesMadeInSwift() throws {
        let sheet = try Stylesheet(styles: [("base", StyleDefinition(size: 15)), ("bold", StyleDefinition(weight: .bold, extends: "base"))])
        #expect(try sheet.appearance(named: "bold") == appearance(size: 15, weight: .bold, lineHeight: 19))
        let cycle = styleError { () throws(StyleError) in
            _ = try Stylesheet(styles: [("a", StyleDefinition(extends: "b")), ("b", StyleDefinition(extends: "a"))], file: "swift")
        }
        #expect(cycle?.kind == .extendsCycle)
        #expect(cycle?.message == "extends cycle: a → b → a")
    }

    // MARK: Errors, one per kind

    @Test func descriptionFormat() {
        let error = StyleError(kind: .unknownKey, file: "cells.yaml", line: 7, column: 12, keyPath: "styles.caption.colour",
                               message: "unknown key 'colour'", suggestion: "color")
        #expect(error.description == "cells.yaml:7:12: styles.caption.colour: unknown key 'colour' (did you mean 'color'?)")
        let bare = StyleError(kind: .unreadableFile, file: "x.yaml", line: 0, column: 0, keyPath: "", message: "no such file")
        #expect(bare.description == "x.yaml: no such file")
    }

    @Test func malformedYAML() {
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/malformed.yaml")) }
        expectError(error, .malformedYAML, file: "broken/malformed.yaml", line: 6, column: 7, key: "", message: "malformed YAML")
        #expect(error?.message.contains("flow mapping") == true, "\(String(describing: error))")

        let tabs = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: [1, 2\n", file: "inline.yaml") }
        #expect(tabs?.kind == .malformedYAML)
        #expect(tabs?.file == "inline.yaml" && (tabs?.line ?? 0) > 0 && (tabs?.column ?? 0) > 0, "\(String(describing: tabs))")

        let duplicate = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {size: 1}\n  a: {size: 2}\n", file: "dup.yaml") }
        #expect(duplicate?.kind == .malformedYAML)
        #expect(duplicate?.message.contains("duplicate key 'a'") == true, "\(String(describing: duplicate))")
    }

    /// A text file given as a stylesheet (`/etc/passwd`, a README) is one long scalar, and the
    /// error quoted all of it ("expected a mapping …, got string '<the whole file>'"): up to
    /// 8 MiB in one message. Quoted values are cut to 60 characters on one line.
    @Test func aLongValueIsQuotedShortInErrors() {
        let text = (0..<2000).map { "line \($0) of some notes" }.joined(separator: "\n")
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "|\n  " + text.replacingOccurrences(of: "\n", with: "\n  ") + "\n", file: "notes.txt") }
        #expect(error?.kind == .wrongType)
        let message = error?.message ?? ""
        #expect(message.count < 200, "\(message.count) characters: \(message.prefix(300))")
        #expect(message.hasSuffix("got string 'line 0 of some notes\\nline 1 of some notes\\nline 2 of some not…'"), "\(message)")
        #expect(!message.contains("\n"))
    }

    /// A template given as a stylesheet (`--stylesheet note.yaml`) was "name: unknown key
    /// 'name'"; it says what the file is, as a stylesheet given as a template does.
    @Test func aTemplateGivenAsAStylesheetIsNamed() {
        let error = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "name: note\nlayout: {text: {text: hi}}\n", file: "note.yaml")
        }
        expectError(error, .unknownKey, file: "note.yaml", line: 2, column: 1, key: "layout",
                    message: "this is a cell template, not a stylesheet (it has 'layout' and no 'styles')")
    }

    /// Explicit YAML tags were dropped silently: `!custom` and `!!binary` loaded as if absent
    /// (a template named "aGk=" from `name: !!binary aGk=`), `!!seq` on a mapping was a mapping,
    /// and `size: !!int abc` said "expected a number, got number abc". Tags the readers cannot
    /// honour are errors where they are written; the core ones that agree with the node load.
    @Test func explicitTagsAreCheckedWhereTheyAreWritten() throws {
        func load(_ yaml: String) -> StyleError? {
            styleError { () throws(StyleError) in _ = try CellTemplate(yaml: yaml, file: "tags.yaml", stylesheet: nil) }
        }
        expectError(load("name: t\nlayout: !custom {text: {text: hi}}\n"), .wrongType, file: "tags.yaml", line: 2, column: 9,
                    key: "layout", message: "the tag '!custom' is not supported")
        expectError(load("name: !!binary aGk=\nlayout: {text: {text: hi}}\n"), .wrongType, file: "tags.yaml", line: 1, column: 7,
                    key: "name", message: "the tag '!!binary' is not supported")
        expectError(load("name: t\nlayout: !!seq {text: {text: hi}}\n"), .wrongType, file: "tags.yaml", line: 2, column: 9,
                    key: "layout", message: "the tag '!!seq' does not fit a mapping")
        expectError(load("name: t\nlayout: {inset: !!int abc, child: {text: {text: hi}}}\n"), .wrongType, file: "tags.yaml",
                    line: 2, column: 17, key: "layout.inset", message: "'abc' is not a valid !!int value")
        expectError(load("name: t\nlayout: {text: {text: !!bool maybe}}\n"), .wrongType, file: "tags.yaml",
                    line: 2, column: 23, key: "layout.text.text", message: "'maybe' is not a valid !!bool value")
        let sheet = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  a: {size: 12}\n  b: !!set {extends: a}\n", file: "tags.yaml")
        }
        expectError(sheet, .wrongType, file: "tags.yaml", line: 3, column: 6, key: "styles.b", message: "the tag '!!set' is not supported")
        // The core tags that agree with their node, and the non-specific `!`, load as before.
        let template = try CellTemplate(yaml: """
            name: !!str t
            layout: !!map {inset: !!int 5, child: !!map {vstack: {spacing: !!float 2, children: !!seq [{text: {text: ! hi}}]}}}
            """, file: "tags.yaml", stylesheet: nil)
        #expect(template.name == "t")
        #expect(try template.bind([:]).measure(width: 100).height > 10)
    }

    /// A key written twice was reported at the first one, without a key path
    /// ("dup.yaml:2:3: malformed YAML: duplicate key 'a' in one mapping", however far below the
    /// repeat was), and keys with the same text but different YAML types (`1`, `"1"`) were
    /// both taken: the second style silently replaced the first.
    @Test func aDuplicateKeyIsReportedWhereItIsRepeated() {
        let styles = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  a: {size: 1}\n  b: {size: 2}\n\n  a: {size: 3}\n", file: "dup.yaml")
        }
        expectError(styles, .malformedYAML, file: "dup.yaml", line: 5, column: 3, key: "styles.a", message: "duplicate key 'a' (first at 2:3)")
        let inner = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  a:\n    size: 1\n    color: red\n    size: 2\n", file: "dup.yaml")
        }
        expectError(inner, .malformedYAML, file: "dup.yaml", line: 5, column: 5, key: "styles.a.size", message: "duplicate key 'size' (first at 3:5)")
        let typed = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  1: {size: 1}\n  \"1\": {size: 2}\n", file: "dup.yaml")
        }
        expectError(typed, .malformedYAML, file: "dup.yaml", line: 3, column: 3, key: "styles.1", message: "duplicate key '1'")
        let throughAlias = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  a: {font: &f b}\n  *f : {size: 2}\n  b: {}\n", file: "dup.yaml")
        }
        expectError(throughAlias, .malformedYAML, file: "dup.yaml", line: 4, column: 3, key: "styles.b", message: "duplicate key 'b' (first at 3:3)")
        let inList = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: t\nlayout:\n  vstack:\n    children:\n      - text: {field: a}\n      - text: {field: a, field: b}\n",
                                 file: "t.yaml", stylesheet: nil)
        }
        expectError(inList, .malformedYAML, file: "t.yaml", line: 6, column: 26, key: "layout.vstack.children[1].text.field",
                    message: "duplicate key 'field' (first at 6:16)")
        // The same key in different mappings, and an alias used as a value, are fine.
        #expect(styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  a: &s {size: 1}\n  b: *s\n  c: {size: 1}\n", file: "ok.yaml")
        } == nil)
    }

    /// A font value that names no family (",", "", "''") has nothing to fall back from: it
    /// loaded, then every text in the style failed when a row was bound ("no installed font
    /// matches ', 400'", no place in the file). It is an error where it was written; a list of
    /// families that are not installed is still a warning.
    @Test func aFontListWithNoFamilyIsAnErrorAtItsPlace() throws {
        for (value, column) in [(#"",""#, 13), (#""""#, 13), (#""''""#, 13), (#"" , ""#, 13)] {
            let error = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  s: {font: \(value)}\n", file: "f.yaml") }
            expectError(error, .wrongType, file: "f.yaml", line: 2, column: column, key: "styles.s.font", message: "names no font family")
        }
        let missing = try Stylesheet(yaml: "styles:\n  s: {font: \"No Such Family QA, Nor This One\"}\n", file: "m.yaml")
        #expect(missing.warnings.count == 1 && missing.warnings[0].line == 2, "\(missing.warnings)")
        #expect(try missing.style(named: "s").font == "No Such Family QA, Nor This One")
    }

    @Test func unknownParentStyle() {
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/unknown-parent.yaml")) }
        expectError(error, .unknownStyle, file: "broken/unknown-parent.yaml", line: 6, column: 14,
                    key: "styles.caption.extends", suggestion: "base", message: "unknown style 'bsae'")
    }

    @Test func unknownStyleByName() throws {
        let sheet = try Stylesheet(contentsOf: cellsSample("classic.yaml"))
        let error = styleError { () throws(StyleError) in _ = try sheet.appearance(named: "captoin") }
        #expect(error?.kind == .unknownStyle)
        #expect(error?.suggestion == "caption")
        #expect(error?.description.hasSuffix("styles: unknown style 'captoin' (did you mean 'caption'?)") == true, "\(String(describing: error))")
        // A prefix counts as close.
        #expect(styleError { () throws(StyleError) in _ = try sheet.appearance(named: "proj") }?.suggestion == "project-title")
        #expect(styleError { () throws(StyleError) in _ = try sheet.appearance(named: "zzz") }?.suggestion == nil)
    }

    @Test func extendsCycle() {
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/extends-cycle.yaml")) }
        expectError(error, .extendsCycle, file: "broken/extends-cycle.yaml", line: 9, column: 14, key: "styles.caption.extends",
                    message: "extends cycle: heading → title → caption → heading")
        let selfCycle = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a:\n    extends: a\n", file: "self.yaml") }
        expectError(selfCycle, .extendsCycle, file: "self.yaml", line: 3, column: 14, key: "styles.a.extends", message: "extends cycle: a → a")
    }

    @Test func badColor() {
        let name = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/bad-color.yaml")) }
        expectError(name, .badColor, file: "broken/bad-color.yaml", line: 5, column: 12, key: "styles.body.color",
                    suggestion: "darkgray", message: "unknown color 'dargray'")
        let hex = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/bad-hex-color.yaml")) }
        expectError(hex, .badColor, file: "broken/bad-hex-color.yaml", line: 4, column: 12, key: "styles.body.color", message: "bad color '#12345'")
        let unquoted = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a:\n    color: #fff\n", file: "c.yaml") }
        #expect(unquoted?.kind == .badColor)
        #expect(unquoted?.message.contains("quote hex colors") == true, "\(String(describing: unquoted))")
    }

    @Test func wrongType() {
        let size = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/wrong-type-size.yaml")) }
        expectError(size, .wrongType, file: "broken/wrong-type-size.yaml", line: 4, column: 11, key: "styles.caption.size",
                    message: "expected a number, got string 'big'")
        let weight = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/wrong-type-weight.yaml")) }
        expectError(weight, .wrongType, file: "broken/wrong-type-weight.yaml", line: 4, column: 13, key: "styles.caption.weight",
                    message: "expected a weight (regular, bold, … or a whole number 1…1000), got number 950.5")
        let named = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {weight: bolt}\n", file: "w.yaml") }
        expectError(named, .wrongType, file: "w.yaml", line: 2, column: 15, key: "styles.a.weight", suggestion: "bold")
        let italic = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {italic: maybe}\n", file: "i.yaml") }
        expectError(italic, .wrongType, file: "i.yaml", line: 2, column: 15, key: "styles.a.italic")
        let sheet = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles: [a, b]\n", file: "s.yaml") }
        expectError(sheet, .wrongType, file: "s.yaml", line: 1, column: 9, key: "styles", message: "got a list")
    }

    @Test func unknownKey() {
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/unknown-key.yaml")) }
        expectError(error, .unknownKey, file: "broken/unknown-key.yaml", line: 7, column: 5, key: "styles.caption.colour",
                    suggestion: "color", message: "unknown key 'colour'")
        let top = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "style:\n  a: {}\n", file: "t.yaml") }
        expectError(top, .unknownKey, file: "t.yaml", line: 1, column: 1, key: "style", suggestion: "styles")
        let shadow = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {shadow: {dx: 0, dz: 1, color: white}}\n", file: "sh.yaml") }
        expectError(shadow, .unknownKey, file: "sh.yaml", line: 2, column: 23, key: "styles.a.shadow.dz", suggestion: "dx")
    }

    @Test func outOfRange() {
        let size = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/out-of-range-size.yaml")) }
        expectError(size, .outOfRange, file: "broken/out-of-range-size.yaml", line: 4, column: 11, key: "styles.tiny.size",
                    message: "must be greater than 0")
        let nan = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/out-of-range-nan.yaml")) }
        expectError(nan, .outOfRange, file: "broken/out-of-range-nan.yaml", line: 4, column: 11, key: "styles.odd.size",
                    message: "not a finite number")
        let lineHeight = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/out-of-range-line-height.yaml")) }
        expectError(lineHeight, .outOfRange, file: "broken/out-of-range-line-height.yaml", line: 5, column: 17,
                    key: "styles.body.lineHeight", message: "-4 is out of range")
        let weight = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {weight: 1001}\n", file: "w.yaml") }
        expectError(weight, .outOfRange, file: "w.yaml", line: 2, column: 15, key: "styles.a.weight")
        let lines = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {maxLines: 0}\n", file: "m.yaml") }
        expectError(lines, .outOfRange, file: "m.yaml", line: 2, column: 17, key: "styles.a.maxLines")
        let padding = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {padding: {left: -1}}\n", file: "p.yaml") }
        expectError(padding, .outOfRange, file: "p.yaml", line: 2, column: 23, key: "styles.a.padding.left")
        let white = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {color: {white: 1.5}}\n", file: "c.yaml") }
        expectError(white, .outOfRange, file: "c.yaml", line: 2, column: 22, key: "styles.a.color.white")
    }

    @Test func missingSection() {
        let empty = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("broken/missing-styles.yaml")) }
        expectError(empty, .missingKey, file: "broken/missing-styles.yaml", line: 1, column: 1, key: "styles",
                    message: "missing required section 'styles'")
        let other = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "# sheet\nstyles:\n", file: "n.yaml") }
        expectError(other, .wrongType, file: "n.yaml", line: 2, column: 8, key: "styles", message: "got nothing")
        let shadow = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a:\n    shadow: {dx: 1}\n", file: "s.yaml") }
        expectError(shadow, .missingKey, file: "s.yaml", line: 3, column: 13, key: "styles.a.shadow", message: "missing required key 'color'")
    }

    @Test func unreadableFile() {
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(contentsOf: cellsSample("no-such-sheet.yaml")) }
        #expect(error?.kind == .unreadableFile)
        #expect(error?.description.hasSuffix("no-such-sheet.yaml: cannot open stylesheet: No such file or directory") == true, "\(String(describing: error))")
    }

    @Test func suggestions() {
        #expect(didYouMean("colour", among: ["color", "size"]) == "color")
        #expect(didYouMean("SIZE", among: ["color", "size"]) == "size")
        #expect(didYouMean("line", among: ["lineHeight", "size"]) == "lineHeight")
        #expect(didYouMean("fontsize", among: ["font", "size"]) == "font")
        #expect(didYouMean("x", among: ["color", "size"]) == nil)
        #expect(levenshtein("kitten", "sitting") == 3)
    }

    /// A `font` naming a family that is not installed is a warning at the value's line and
    /// column (it still draws, with the standard font); installed and generic families are not.
    @Test func missingFontFamiliesAreWarningsWithTheirPosition() throws {
        let yaml = """
            styles:
              title:
                font: Missing Sheet Family RowKit
              body:
                font: DejaVu Sans
              note:
                extends: title
                font: "Missing A RowKit, sans-serif"
            """
        let sheet = try Stylesheet(yaml: yaml, file: "s.yaml")
        #expect(sheet.warnings.map(\.description) == [
            "s.yaml:3:11: styles.title.font: font family 'Missing Sheet Family RowKit' is not installed; using '\(try FontLibrary.shared.font(for: FontDescriptor(family: "serif")).family)'",
        ])
        // Merging keeps both sheets' warnings, once each.
        let other = try Stylesheet(yaml: "styles:\n  caption:\n    font: Other Missing RowKit\n", file: "o.yaml")
        let merged = try other.merged(over: sheet)
        #expect(merged.warnings.map(\.file) == ["s.yaml", "o.yaml"])
        #expect(try sheet.merged(over: sheet).warnings.count == 1)
        #expect(try Stylesheet(styles: [("a", StyleDefinition(font: "Swift Missing RowKit"))]).warnings.isEmpty)
    }
}
