import Testing
import RowKitIO
@testable import RowKitCells

/// The reader's compact set of row ids (Data/RowIDSet.swift): every duplicate found, with the
/// first row's place, and no distinct ids taken for one another.
@Suite struct RowIDSetTests {
    /// Ids much alike (same lengths, shared prefixes, small and heap strings), through many
    /// growths of the table: each is found once, at its own place, and a second insert reports it.
    @Test func everyDuplicateIsFoundWithItsFirstPlace() {
        var set = RowIDSet()
        let count = 30_000
        func id(_ i: Int) -> String { i % 3 == 0 ? "row-\(i)" : i % 3 == 1 ? "r\(i)" : "a-long-row-identifier-over-fifteen-bytes-\(i)" }
        for i in 0..<count {
            #expect(set.position(of: id(i)) == nil)
            #expect(set.insert(id(i), at: TextPosition(line: i + 1, column: i % 7 + 1)) == nil)
        }
        #expect(set.count == count)
        for i in stride(from: 0, to: count, by: 1) {
            let expected = TextPosition(line: i + 1, column: i % 7 + 1)
            #expect(set.position(of: id(i)) == expected)
            #expect(set.insert(id(i), at: TextPosition(line: 1, column: 1)) == expected)
        }
        #expect(set.count == count)
        // Near misses are not duplicates.
        for probe in ["row-", "row-0 ", "r", "row-30000", "a-long-row-identifier-over-fifteen-bytes-1", "ROW-3", "row-03"] {
            #expect(set.position(of: probe) == nil, "\(probe)")
        }
    }

    /// Ids are compared as strings are: canonically equivalent spellings are one id (as in
    /// the list engine's dictionaries), distinct ones are not.
    @Test func idsAreComparedAsStrings() {
        let pairs: [(String, String)] = [
            ("caf\u{E9}", "cafe\u{301}"),       // precomposed and decomposed
            ("K", "\u{212A}"),                    // KELVIN SIGN: canonically K
            ("\u{1E0B}\u{323}", "\u{1E0D}\u{307}"), // reordered marks
            ("caf\u{E9}", "cafe"),
            ("\u{5B57}", "\u{5B58}"),
        ]
        for (a, b) in pairs {
            var set = RowIDSet()
            set.insert(a, at: TextPosition(line: 3, column: 2))
            #expect((set.position(of: b) != nil) == (a == b), "\(a) \(b)")
            #expect((set.insert(b, at: TextPosition(line: 4, column: 1)) == TextPosition(line: 3, column: 2)) == (a == b))
        }
    }

    /// Ids filling the arena's 1 MiB chunks, and ids longer than a chunk, are all kept whole.
    @Test func longIDsFillChunksAndHaveTheirOwn() {
        var set = RowIDSet()
        var ids: [String] = []
        for i in 0..<3_000 { ids.append(String(repeating: "abcdefghij", count: 100) + "-\(i)") } // ~2.9 MiB
        ids.insert(String(repeating: "\u{6F22}", count: 1_200_000), at: 1_500) // 3.6 MB: a chunk of its own
        ids.append(String(repeating: "z", count: 1 << 20)) // one byte more than a chunk with its length
        for (i, id) in ids.enumerated() { #expect(set.insert(id, at: TextPosition(line: i + 1, column: 9)) == nil) }
        for (i, id) in ids.enumerated() { #expect(set.position(of: id) == TextPosition(line: i + 1, column: 9), "\(i)") }
        #expect(set.position(of: String(repeating: "\u{6F22}", count: 1_199_999)) == nil)
        #expect(set.position(of: String(repeating: "z", count: (1 << 20) - 1)) == nil)
    }

    /// The point of the set: short ids take tens of bytes each, not the ~100–180 of a
    /// `[String: TextPosition]` (table and chunks counted at their capacity).
    @Test func idsAreCompact() {
        var set = RowIDSet()
        let count = 120_000
        for i in 0..<count { set.insert("row-\(i)", at: TextPosition(line: i + 1, column: 1)) }
        #expect(set.byteCount < count * 40, "\(set.byteCount / count) bytes an id")
        #expect(set.position(of: "row-119999") == TextPosition(line: 120_000, column: 1))
    }

    @Test func largePositionsAreKept() {
        var set = RowIDSet()
        let far = TextPosition(line: 1 << 40, column: (1 << 33) + 5)
        set.insert("x", at: far)
        #expect(set.position(of: "x") == far)
    }

    /// Through the reader: a duplicate far into a JSON Lines file is reported with both places.
    @Test func theReaderReportsADuplicateAfterManyIDs() throws {
        var lines: [String] = []
        for i in 0..<10_000 { lines.append(#"{"caption": "c", "id": "id-\#(i)"}"#) }
        lines.append(#"{"caption": "d", "id": "id-2345"}"#)
        lines.append(#"  {"caption": "e", "id": 9999}"#)
        lines.append(#"{"caption": "f", "id": "id-10000"}"#)
        let items = try RowFileTests.read(lines.joined(separator: "\n")).items
        #expect(RowFileTests.errors(items) == [
            "rows:10001:1: duplicate row id 'id-2345' (first used by the row at rows:2346:1)",
        ])
        #expect(RowFileTests.rows(items).count == 10_002)
        let numbers = try RowFileTests.read("{\"caption\": \"a\", \"id\": 7}\n\n  {\"caption\": \"b\", \"id\": \"7\"}").items
        #expect(RowFileTests.errors(numbers) == ["rows:3:3: duplicate row id '7' (first used by the row at rows:1:1)"])
    }
}
