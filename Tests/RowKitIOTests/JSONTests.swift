import Foundation
import Testing
@testable import RowKitIO

/// The JSON reader (JSON/*.swift): exact numbers, strict grammar, positions, streaming.
@Suite struct JSONTests {
    func parse(_ text: String) throws -> JSONValue {
        try parseJSON(Array(text.utf8), source: "t.json")
    }

    func failure(_ text: String) -> InputError? {
        do { _ = try parseJSON(Array(text.utf8), source: "t.json"); return nil } catch { return error }
    }

    /// An array element over the record limit ended the whole read ("a JSON value is longer
    /// than the … record limit" and nothing after it); ``JSONReader/skipValue()`` passes over
    /// it, however long, so the elements after it are read, at their right places.
    @Test func anElementOverTheRecordLimitCanBeSkipped() throws {
        let long = String(repeating: #"x\"]}{["#, count: 40)
        let text = "[{\"a\": 1},\n {\"b\": \"\(long)\", \"c\": [1, {\"d\": 2}]},\n \"\(long)\",\n 12345678901234567890123456789012345678901234567890,\n {\"e\": \"é\"}]"
        let path = temporaryPath("long.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = JSONReader(BufferedInput(try InputFile(path), maximumRecord: 40))
        #expect(try reader.consume(UInt8(ascii: "[")))
        var read: [JSONValue] = [], skipped = 0
        var positions: [TextPosition] = []
        while true {
            if !read.isEmpty || skipped > 0 {
                if try reader.consume(UInt8(ascii: "]")) { break }
                try reader.expect(UInt8(ascii: ","), "','")
            }
            let next = Result { () throws(InputError) in try reader.readValue() }
            switch next {
            case .success(let (value, position)):
                read.append(value)
                positions.append(position)
            case .failure(let error):
                #expect(error.kind == .limitExceeded, "\(error)")
                skipped += 1
                try reader.skipValue()
            }
        }
        #expect(skipped == 3)
        #expect(read.count == 2)
        #expect(positions == [TextPosition(line: 1, column: 2), TextPosition(line: 5, column: 2)])
        guard case .object(let last) = read.last, case .string(let e) = last["e"]?.value else { Issue.record("\(read)"); return }
        #expect(e == "é")
        #expect(try reader.peek() == nil)
    }

    @Test func zeroAndOneAreNumbersNotBooleans() throws {
        #expect(try parse("0") == .number(JSONNumber(text: "0")))
        #expect(try parse("1") == .number(JSONNumber(text: "1")))
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        guard case .object(let object) = try parse(#"{"unread": 0, "flag": true}"#) else { Issue.record("not an object"); return }
        #expect(object["unread"]?.value == .number(JSONNumber(text: "0")))
        #expect(object["flag"]?.value == .bool(true))
    }

    @Test func numbersKeepTheirText() throws {
        for text in ["123456789012345678", "-0", "1.50", "1e400", "-12.5E-3", "0.1"] {
            #expect(try parse(text) == .number(JSONNumber(text: text)))
        }
        #expect(JSONNumber(text: "123456789012345678").intValue == 123_456_789_012_345_678)
        #expect(JSONNumber(text: "1.5").intValue == nil)
        #expect(JSONNumber(text: "1e400").doubleValue == .infinity)
    }

    @Test(arguments: [
        ("01", "leading zeros"), ("-", "expected a digit"), ("1.", "expected a digit after '.'"), ("1e", "exponent"),
        ("+1", "unexpected '+'"), (".5", "unexpected '.'"), ("NaN", "unexpected 'N'"), ("[1,]", "unexpected ']'"),
        ("{\"a\":1,}", "expected a string key"), ("{'a':1}", "unexpected '''"), ("tru", "end of input"), ("truex", "invalid literal"),
        ("\"a", "unterminated string"), ("\"\\x\"", "invalid escape"), ("\"\\ud800\"", "high surrogate"), ("\"\\udc00\"", "lone low surrogate"),
        ("\"\\u12\"", "four hex digits"), ("[1 2]", "expected ',' or ']'"), ("{\"a\" 1}", "expected ':'"), ("1 2", "end of the input"),
        ("", "end of input"), ("\"a\tb\"", "control character U+0009"), ("\"a\nb\"", "line break inside a string"),
        // What follows a number is named (each was only "invalid number").
        ("0x10", "invalid number: 'x' after '0' (JSON numbers are decimal)"), ("[12px]", "invalid number: 'p' after '12'"),
        ("1.5.2", "invalid number: '.' after '1.5'"), ("7é", "invalid number: a non-ASCII character after '7'"),
    ])
    func malformedJSONIsRejected(_ text: String, _ message: String) {
        let error = failure(text)
        #expect(error?.message.contains(message) == true, "\(text.debugDescription): \(String(describing: error))")
        #expect(error?.source == "t.json")
    }

    @Test func errorsHaveLineAndColumn() {
        let error = failure("{\n  \"a\": 1,\n  \"b\": tru\n}")
        #expect(error?.position == TextPosition(line: 3, column: 8), "\(String(describing: error))")
        // Columns count Unicode scalars, not bytes.
        let wide = failure("[\"漢字é\", x]")
        #expect(wide?.position == TextPosition(line: 1, column: 9), "\(String(describing: wide))")
        #expect(wide?.description.hasPrefix("t.json:1:9: ") == true)
    }

    @Test func memberPositions() throws {
        guard case .object(let object) = try parse("{\"a\": 1,\n \"é\": [2, 3]}") else { Issue.record("not an object"); return }
        #expect(object.members.map(\.key) == ["a", "é"])
        #expect(object["a"]?.keyPosition == TextPosition(line: 1, column: 2))
        #expect(object["a"]?.valuePosition == TextPosition(line: 1, column: 7))
        #expect(object["é"]?.keyPosition == TextPosition(line: 2, column: 2))
        #expect(object["é"]?.valuePosition == TextPosition(line: 2, column: 7))
    }

    @Test func stringsDecodeEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{c}\n\r\t"))
        #expect(try parse(#""\u00e9\u6f22\ud83d\ude00""#) == .string("é漢😀"))
        #expect(try parse("\"\u{1F600} plain\"") == .string("😀 plain"))
    }

    @Test func invalidUTF8IsAnError() {
        let error: InputError?
        do { _ = try parseJSON([0x22, 0x61, 0xFF, 0x22], source: "t.json"); error = nil } catch let e { error = e }
        #expect(error?.message.contains("invalid UTF-8") == true)
    }

    @Test func deepNestingIsRefused() throws {
        let ok = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        _ = try parse(ok)
        let deep = String(repeating: "[", count: 100_000)
        #expect(failure(deep)?.message.contains("nested deeper than 512") == true)
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        #expect(try parseJSON([0xEF, 0xBB, 0xBF] + Array("[1]".utf8), source: "t") == .array([.number(JSONNumber(text: "1"))]))
    }

    /// A byte order mark is skipped at the start of a text only: elsewhere it is not JSON white
    /// space, and the error names it where it is (it was "byte 0xEF", or skipped on any line).
    @Test func aSecondByteOrderMarkIsAnError() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        for (bytes, line, column) in [(bom + bom + Array("[1]".utf8), 1, 1), (bom + Array("[1,\n ".utf8) + bom + Array("2]".utf8), 2, 2)] {
            let error = #expect(throws: InputError.self) { _ = try parseJSON(bytes, source: "t") }
            #expect(error?.message.hasPrefix("unexpected byte order mark (U+FEFF)") == true, "\(String(describing: error))")
            #expect(error?.position == TextPosition(line: line, column: column))
        }
        // A line of a JSON Lines file: the input already dropped the file's own mark.
        let error = #expect(throws: InputError.self) {
            _ = try parseJSON(bom + Array("{}".utf8), source: "t", origin: TextPosition(line: 3, column: 1), skipsByteOrderMark: false)
        }
        #expect(error?.description == "t:3:1: unexpected byte order mark (U+FEFF): only the start of a file may have one")
    }

    @Test func duplicateKeysAreFound() throws {
        guard case .object(let object) = try parse(#"{"a": 1, "b": 2, "a": 3}"#) else { Issue.record("not an object"); return }
        let duplicate = try #require(object.firstDuplicateKey)
        #expect(duplicate.first.keyPosition.column == 2 && duplicate.second.keyPosition.column == 18)
    }

    /// Streaming: values split across tiny reads give the same values and positions as reading
    /// the text whole.
    @Test func streamingMatchesWholeParsing() throws {
        var text = "[\n"
        for i in 0..<300 {
            // "plain" has no escape (the scanner's fast path), its multi-byte characters shifted
            // by 0–12 bytes from row to row so that some are cut at a window's end.
            let pad = String(repeating: "x", count: i % 13)
            text += "  {\"id\": \(i), \"text\": \"row \(i) é漢😀 \\u00e9 \\n\", \"plain\": \"\(pad)é漢😀é漢😀\", \"n\": -\(i).5e1, \"ok\": \(i % 2 == 0), \"z\": null}"
            text += i < 299 ? ",\n" : "\n"
        }
        text += "]\n"
        let path = NSTemporaryDirectory() + "rowkit-json-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard case .array(let whole) = try parse(text) else { Issue.record("not an array"); return }
        for recordLimit in [160, 200, 1 << 20] {
            let reader = JSONReader(BufferedInput(try InputFile(path), maximumRecord: recordLimit))
            try reader.expect(UInt8(ascii: "["), "[")
            var streamed: [(JSONValue, TextPosition)] = []
            while true {
                if try reader.consume(UInt8(ascii: "]")) { break }
                if !streamed.isEmpty { try reader.expect(UInt8(ascii: ","), ",") }
                streamed.append(try reader.readValue())
            }
            #expect(try reader.peek() == nil)
            #expect(streamed.map(\.0) == whole, "record limit \(recordLimit)")
            #expect(streamed.enumerated().allSatisfy { $0.element.1 == TextPosition(line: $0.offset + 2, column: 3) })
        }
    }

    @Test func aValueOverTheRecordLimitIsAnError() throws {
        let path = NSTemporaryDirectory() + "rowkit-json-\(UUID().uuidString).json"
        try ("[\"" + String(repeating: "x", count: 5000) + "\"]").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = JSONReader(BufferedInput(try InputFile(path), maximumRecord: 1000))
        try reader.expect(UInt8(ascii: "["), "[")
        let error = #expect(throws: InputError.self) { _ = try reader.readValue() }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.message.contains("1000 bytes") == true, "\(String(describing: error))")
    }

    /// Columns after long strings count their scalars (the scanner sums continuation bytes
    /// eight at a time and adds them up every 255 words).
    @Test func columnsAfterLongStringsCountScalars() throws {
        for (piece, repeats) in [("\u{E9}", 5_000), ("\u{6F22}", 2_100), ("\u{1F600}a", 777), ("ab", 4_099)] {
            for shift in 0..<9 {
                let text = String(repeating: "x", count: shift) + String(repeating: piece, count: repeats)
                guard case .object(let object) = try parse(#"{"k": ""# + text + #"", "z": 1}"#) else { Issue.record("not an object"); continue }
                #expect(object["k"]?.value == .string(text))
                #expect(object["z"]?.keyPosition == TextPosition(line: 1, column: 11 + text.unicodeScalars.count), "\(piece) \(shift)")
            }
        }
    }

    /// A string's bytes are accepted exactly when `String(validating:)` accepts them, and the
    /// columns after it count its scalars: near-valid byte strings (lead bytes at every
    /// boundary, truncated and overlong sequences, surrogates, values past U+10FFFF), random and
    /// systematic, each after 0 to 9 ASCII bytes (so that they fall at every place of the
    /// scanner's eight-byte steps) and each written in a string with an escape too (the slow path).
    @Test func utf8CheckAgreesWithTheStandardLibrary() {
        let interesting: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                                    0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF]
        func check(_ bytes: [UInt8], shifts: ClosedRange<Int> = 0...9) {
            for shift in shifts {
                for escaped in [false, true] {
                    let content = Array(repeating: UInt8(ascii: "a"), count: shift) + bytes + (escaped ? Array(#"\n"#.utf8) : [])
                    let json = Array(#"{"k": ""#.utf8) + content + Array(#"", "z": 1}"#.utf8)
                    let result = Result { () throws(InputError) -> JSONValue in try parseJSON(json, source: "t.json") }
                    let described = "\(bytes.map { String($0, radix: 16) }) after \(shift), escaped: \(escaped)"
                    if bytes.contains(where: { $0 < 0x20 }) {
                        #expect(throws: InputError.self, "\(described)") { try result.get() }
                        continue
                    }
                    let plain = Array(repeating: UInt8(ascii: "a"), count: shift) + bytes + (escaped ? [0x0A] : [])
                    guard let expected = String(validating: plain, as: UTF8.self) else {
                        let error = #expect(throws: InputError.self, "\(described)") { try result.get() }
                        #expect(error?.message == "invalid UTF-8 in a string", "\(described)")
                        continue
                    }
                    guard case .object(let object)? = try? result.get() else {
                        Issue.record("not read: \(described)")
                        continue
                    }
                    #expect(object["k"]?.value == .string(expected), "\(described)")
                    let written = expected.unicodeScalars.count + (escaped ? 1 : 0) // the escape is two scalars written, one read
                    #expect(object["z"]?.keyPosition == TextPosition(line: 1, column: 11 + written), "\(described)")
                }
            }
        }
        // Every pair and triple of interesting bytes, and each of them followed by "A".
        for a in interesting {
            for b in interesting {
                let shift = Int(a &+ b) % 10
                check([a, b])
                check([a, b, 0x41], shifts: shift...shift)
                for c in interesting { let shift = Int(a &+ b &+ c) % 10; check([a, b, c], shifts: shift...shift) }
            }
        }
        // Four-byte sequences around the boundaries.
        for a: UInt8 in [0xF0, 0xF4, 0xF5] {
            for b in interesting { for c: UInt8 in [0x80, 0xBF, 0x41] { for d: UInt8 in [0x80, 0xBF, 0x41] { let shift = Int(b &+ c &+ d) % 10; check([a, b, c, d], shifts: shift...shift) } } }
        }
        // Random near-valid strings: valid text with bytes changed or cut.
        var generator = SystemRandomNumberGenerator()
        let characters = Array("aé€😀 ש中𐍈")
        for _ in 0..<8_000 {
            var bytes = Array(String((0..<Int.random(in: 0...6, using: &generator)).map { _ in characters.randomElement(using: &generator)! }).utf8)
            if !bytes.isEmpty, Bool.random(using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = interesting.randomElement(using: &generator)!
            }
            let shift = Int.random(in: 0...9, using: &generator)
            check(bytes, shifts: shift...shift)
        }
    }
}
