import Foundation
import Testing
import RowKitIO
@testable import RowKitCells

/// Row files (Data/RowFile.swift) and row data (Model/RowData.swift): formats, checks, ids.
@Suite struct RowFileTests {
    static let options = RowFileOptions(templates: ClassicCells.all + [ClassicCells.sectionHeader], defaultTemplate: "caption-text")

    static func read(_ text: String, options: RowFileOptions = options) throws -> (items: [RowFileItem], format: RowFileReader.Format?) {
        let reader = RowFileReader(bytes: Array(text.utf8), name: "rows", options: options)
        var items: [RowFileItem] = []
        while let item = try reader.next() { items.append(item) }
        return (items, reader.format)
    }

    static func rows(_ items: [RowFileItem]) -> [RowFileRow] {
        items.compactMap { if case .row(let row) = $0 { return row } else { return nil } }
    }

    static func errors(_ items: [RowFileItem]) -> [String] {
        items.compactMap { if case .error(let error) = $0 { return error.description } else { return nil } }
    }

    @Test func theFormatComesFromTheContent() throws {
        #expect(try Self.read(#"[{"caption": "a"}]"#).format == .array)
        #expect(try Self.read(#"{"caption": "a"}"# + "\n" + #"{"caption": "b"}"#).format == .jsonLines)
        #expect(try Self.read(#"{"sections": []}"#).format == .sections)
        #expect(try Self.read("").format == .jsonLines)
        #expect(Self.rows(try Self.read("").items).isEmpty)
        // A single-line sections document is one too.
        let one = try Self.read(#"{"sections": [{"title": "T", "rows": [{"caption": "a"}]}]}"#)
        #expect(Self.rows(one.items).count == 1)
    }

    /// A template may read a field named `sections`; JSON Lines whose first row starts with it
    /// were taken for a sections document ("expected '[' (a list of sections)"), every row lost.
    @Test func aFirstRowWithAFieldNamedSectionsIsJSONLines() throws {
        let template = CellTemplate(name: "courses", layout: .text(TextElement(.field("sections"))))
        let options = RowFileOptions(templates: [template], defaultTemplate: "courses")
        for first in [#"{"sections": "Physics, Chemistry"}"#, #"{ "sections" : 12}"#, #"{"sections": null, "id": "x"}"#] {
            let read = try Self.read(first + "\n" + #"{"sections": "Art"}"# + "\n", options: options)
            #expect(read.format == .jsonLines, "\(first)")
            #expect(Self.rows(read.items).count == 2 && Self.errors(read.items).isEmpty, "\(first): \(Self.errors(read.items))")
        }
        // A document is still one when its "sections" value is a list, spread over lines or not;
        // a mistaken object keeps the document's own error.
        #expect(try Self.read("{\n  \"sections\":\n  [{\"rows\": []}]\n}").format == .sections)
        #expect(throws: InputError.self) { try Self.read(#"{"sections": {"rows": []}}"#) }
    }

    @Test func numbersShowExactlyAsWritten() throws {
        let items = try Self.read(#"[{"caption": 0, "body": 123456789012345678}, {"caption": 1.50, "body": 1e3}, {"caption": 2.5, "body": -7}]"#).items
        let rows = Self.rows(items)
        #expect(rows.map { $0.data["caption"] } == [.number(0), .string("1.50"), .number(2.5)])
        #expect(rows.map { $0.data["body"] } == [.string("123456789012345678"), .string("1e3"), .number(-7)])
        #expect(FieldValue.number(1e17).description == "100000000000000000")
        #expect(FieldValue.number(0.1).description == "0.1")
        #expect(FieldValue(numberText: "1e400") == nil)
    }

    @Test func nullFieldsAreLeftOut() throws {
        let rows = Self.rows(try Self.read(#"[{"caption": "a", "body": null}]"#).items)
        #expect(rows.first?.data.fields.keys.sorted() == ["caption"])
    }

    /// "null leaves a field out" held for fields and a section's "title", but `"id": null`
    /// and `"cell": null` (what many JSON writers emit for a missing value) were errors.
    @Test func nullIDsAndCellsAreLeftOut() throws {
        let read = try Self.read(#"{"sections": [{"title": "T", "id": null, "rows": [{"caption": "a", "id": null, "cell": null}, {"text": "b", "cell": "label", "id": null}]}]}"#)
        #expect(Self.errors(read.items) == [])
        let rows = Self.rows(read.items)
        #expect(rows.map(\.id) == ["s0-r0", "s0-r1"])
        #expect(rows.map(\.template) == ["caption-text", "label"])
    }

    @Test func boundFieldsListWhatATemplateReads() {
        #expect(ClassicCells.captionText.boundFields.all == ["caption", "body"])
        #expect(ClassicCells.project.boundFields.images == ["icon", "logo1", "logo2"])
        #expect(ClassicCells.project.boundFields.text == ["project", "description"])
        #expect(ClassicCells.sectionHeader.boundFields.all == ["title"])
    }

    @Test func idsAreUniqueIncludingTheAutomaticOnes() throws {
        let items = try Self.read("""
        [{"caption": "a", "id": "x"},
         {"caption": "b", "id": 7},
         {"caption": "c", "id": "s0-r0"},
         {"caption": "d"},
         {"caption": "e", "id": "s0-r5"},
         {"caption": "f"},
         {"caption": "g", "id": "x"},
         {"caption": "h", "id": "s0-r3"}]
        """).items
        // Row 0 has an id, so "s0-r0" is free; row 3 has none, so "s0-r3" is taken.
        #expect(Self.rows(items).map(\.id) == ["x", "7", "s0-r0", "s0-r3", "s0-r5"])
        #expect(Self.errors(items) == [
            "rows:6:2: this row has no \"id\" and its automatic id 's0-r5' is used by the row at rows:5:2",
            "rows:7:2: duplicate row id 'x' (first used by the row at rows:1:2)",
            "rows:8:2: row id 's0-r3' is already the automatic id of row 3 of section 0, which has no \"id\"",
        ])
    }

    /// A titled section's title row has the id `<section id>-header`, which no row may take —
    /// checked by the reader, so `heights` refuses what `render` refuses (only `render` and
    /// `view` checked it). The row may come before or after the title (and its section).
    @Test func noRowTakesTheIDOfATitleRow() throws {
        let items = try Self.read("""
        {"sections": [
          {"rows": [{"caption": "a", "id": "late-header"}, {"caption": "b", "id": "s1-header"}], "title": "Late", "id": "late"},
          {"title": "T", "rows": [{"caption": "c", "id": "s1-header"}, {"caption": "d", "id": "late-header"}]},
          {"rows": [{"caption": "e", "id": "s2-header"}]}
        ]}
        """).items
        #expect(Self.errors(items) == [
            "rows:2:13: row id 'late-header' is the id of the title row of section 'late'",
            "rows:3:27: duplicate row id 's1-header' (first used by the row at rows:2:52)",
            "rows:3:64: duplicate row id 'late-header' (first used by the row at rows:2:13)",
            "rows:2:52: row id 's1-header' is the id of the title row of section 's1'",
        ])
        // An untitled section has no title row: its "-header" id is free.
        #expect(Self.rows(items).map(\.id).last == "s2-header")
        let after = try Self.read(#"{"sections": [{"id": "a", "title": "T", "rows": []}, {"rows": [{"caption": "x", "id": "a-header"}]}]}"#).items
        #expect(Self.errors(after) == ["rows:1:64: row id 'a-header' is the id of the title row of section 'a'"])
        #expect(Self.rows(after).isEmpty, "a row after the title is refused")
        // The section's own rows, when its id and title come first, are refused as read.
        let inside = try Self.read(#"{"sections": [{"id": "a", "title": "T", "rows": [{"caption": "x", "id": "a-header"}, {"caption": "y"}]}]}"#).items
        #expect(Self.errors(inside) == ["rows:1:50: row id 'a-header' is the id of the title row of section 'a'"])
        #expect(Self.rows(inside).map(\.id) == ["s0-r1"])
    }

    /// A second byte order mark made the file JSON Lines, whose line then skipped it: a JSON
    /// array was "a row must be a JSON object of fields, not an array". It is an error that
    /// says what and where, and ends reading (the format cannot be told).
    @Test func aSecondByteOrderMarkIsNamed() throws {
        for text in ["\u{FEFF}\u{FEFF}[{\"caption\": \"x\"}]", "\u{FEFF}\n  \u{FEFF}{\"caption\": \"x\"}"] {
            let error = #expect(throws: InputError.self) { _ = try Self.read(text) }
            let at = text.hasPrefix("\u{FEFF}\n") ? "2:3" : "1:1"
            #expect(error?.description == "rows:\(at): unexpected byte order mark (U+FEFF): only the start of a file may have one")
        }
        // On a later JSON Lines line it is that line's error; the other rows are read.
        let items = try Self.read("{\"caption\": \"a\"}\n\u{FEFF}{\"caption\": \"b\"}\n{\"caption\": \"c\"}\n").items
        #expect(Self.errors(items) == ["rows:2:1: unexpected byte order mark (U+FEFF): only the start of a file may have one"])
        #expect(Self.rows(items).count == 2)
        // The file's own mark is still skipped.
        #expect(Self.rows(try Self.read("\u{FEFF}[{\"caption\": \"x\"}]").items).count == 1)
    }

    @Test func lateTitlesAreFinalAtTheSectionsEnd() throws {
        let items = try Self.read(#"{"sections": [{"rows": [{"caption": "a"}], "title": "Late", "id": "first"}, {"title": "Early", "rows": []}]}"#).items
        var starts: [RowFileSection] = [], ends: [RowFileSection] = []
        for item in items {
            if case .sectionStart(let s) = item { starts.append(s) }
            if case .sectionEnd(let s) = item { ends.append(s) }
        }
        #expect(starts.map(\.titleIsFinal) == [false, true])
        #expect(starts.map(\.title) == [nil, "Early"])
        #expect(ends.map(\.title) == ["Late", "Early"])
        #expect(ends.map(\.id) == ["first", "s1"])
        #expect(ends.allSatisfy { $0.titleIsFinal })
    }

    @Test func malformedDocumentsThrowWithAPosition() {
        let error = #expect(throws: InputError.self) { _ = try Self.read("[\n {\"caption\": \"a\"}\n {\"caption\": \"b\"}\n]") }
        #expect(error?.description == "rows:3:2: unexpected '{', expected ',' or ']' after a row")
        let trailing = #expect(throws: InputError.self) { _ = try Self.read("[{\"caption\": \"a\"}] x") }
        #expect(trailing?.message.contains("after the end of the JSON document") == true)
    }

    @Test func everyRowOfALargeFileStreamsWithItsPosition() throws {
        var text = "{\"sections\": [\n"
        for s in 0..<3 {
            text += " {\"title\": \"S\(s)\", \"rows\": [\n"
            for r in 0..<2000 { text += "  {\"caption\": \"row \(r) é\", \"body\": \(r)}\(r < 1999 ? "," : "")\n" }
            text += " ]}\(s < 2 ? "," : "")\n"
        }
        text += "]}\n"
        let path = NSTemporaryDirectory() + "rowkit-rows-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RowFileReader(path: path, options: Self.options)
        var rows: [RowFileRow] = []
        while let item = try reader.next() {
            if case .row(let row) = item { rows.append(row) }
            if case .error(let error) = item { Issue.record("\(error)") }
        }
        #expect(rows.count == 6000)
        #expect(rows[2001].position == TextPosition(line: 2 + 2001 + 2 + 1, column: 3), "\(rows[2001].position)")
        #expect(rows[5999].data["body"] == .number(1999))
        #expect(reader.bytesRead == text.utf8.count)
    }

    /// Automatic ids written digit by digit are the interpolated ones, and parse back.
    @Test func automaticIDTextIsTheInterpolatedID() {
        var pairs: [(Int, Int)] = [(0, 0), (0, 9), (9, 10), (10, 99), (123, 1_000_000), (.max, .max), (0, .max)]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 { pairs.append((Int.random(in: 0...1_000, using: &generator), Int.random(in: 0 ... .max, using: &generator) >> Int.random(in: 0...62, using: &generator))) }
        for (section, row) in pairs {
            let text = RowFileReader.automaticIDText(section: section, row: row)
            #expect(text == "s\(section)-r\(row)")
            #expect(RowFileReader.automaticID(text).map { [$0.0, $0.1] } == [section, row])
        }
    }
}
