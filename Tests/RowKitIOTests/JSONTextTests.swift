import RowKitIO
import Testing

@Suite struct JSONTextTests {
    @Test(arguments: [
        (35.0, "35"), (-2.0, "-2"), (-0.0, "0"), (12.5, "12.5"), (1e-7, "1e-07"),
        (1e17, "100000000000000000"), (1e19, "1e+19"), (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
    ])
    func numbers(_ value: Double, _ expected: String) {
        #expect(JSONText.number(value) == expected)
    }

    @Test func stringsEscapeQuotesBackslashesAndControls() {
        #expect(JSONText.string("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONText.string("\n\t\r\u{0}\u{1F}\u{7F}") == #""\n\t\r\u0000\u001f\u007f""#)
        #expect(JSONText.string("Grüße 漢字 🙂 \u{2028}") == "\"Grüße 漢字 🙂 \u{2028}\"")
        #expect(JSONText.string("") == "\"\"")
    }

    /// What is written reads back as the same value.
    @Test func writtenTextReadsBack() throws {
        for text in ["plain", "quote \" and \\ and \u{1}", "tab\tnew\nline", "🙂"] {
            let value = try parseJSON(Array(JSONText.string(text).utf8), source: "test")
            #expect(value == .string(text))
        }
    }
}

/// The byte-writing forms used by `rowkit heights` write exactly what `JSONText.number` does.
@Suite struct JSONTextBytesTests {
    func text(_ append: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        append(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func integersAsNumberWritesThem() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 12_345, .max, .min, .max - 1, .min + 1]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 { values.append(Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...62, using: &generator)) }
        for value in values {
            #expect(text { JSONText.appendInteger(value, to: &$0) } == String(value), "\(value)")
        }
    }

    @Test func sixtyFourthsAsNumberWritesThem() {
        // Every fraction near zero, near the fast path's 2³⁹ limit and past it, and random
        // lengths up to 2⁴⁵ units.
        var values: [Int64] = Array(-200...200) + Array((1 << 39) - 200 ... (1 << 39) + 200) + [.max, .min, .min + 1, 1 << 53, -(1 << 39)]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 { values.append(Int64.random(in: -(1 << 45) ... (1 << 45), using: &generator)) }
        for units in values {
            #expect(text { JSONText.appendSixtyFourths(units, to: &$0) } == JSONText.number(Double(units) / 64), "\(units)")
        }
    }

    /// The in-place forms (`rowkit heights`' lines, which the appending ones wrap) write what
    /// `String` and `number` make, and say so for lengths they leave to `number` (nil, nothing
    /// written).
    @Test func inPlaceFormsWriteTheSame() {
        var generator = SystemRandomNumberGenerator()
        var integers: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, .max, .min, .max - 1, .min + 1]
        for _ in 0..<10_000 { integers.append(Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...62, using: &generator)) }
        var units: [Int64] = Array(-200...200) + Array((1 << 39) - 200 ... (1 << 39) + 200) + [.max, .min, .min + 1, -(1 << 39), -(1 << 39) + 1]
        for _ in 0..<20_000 { units.append(Int64.random(in: -(1 << 45) ... (1 << 45), using: &generator)) }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        defer { scratch.deallocate() }
        for value in integers {
            scratch.update(repeating: 0xFF, count: 64)
            let count = JSONText.writeInteger(value, to: scratch)
            #expect(Array(UnsafeBufferPointer(start: scratch, count: count)) == Array(String(value).utf8), "\(value)")
            #expect(scratch[count] == 0xFF, "wrote past its count: \(value)")
        }
        for value in units {
            scratch.update(repeating: 0xFF, count: 64)
            let expected = JSONText.number(Double(value) / 64)
            if let count = JSONText.writeSixtyFourths(value, to: scratch) {
                #expect(String(decoding: UnsafeBufferPointer(start: scratch, count: count), as: UTF8.self) == expected, "\(value)")
                #expect(scratch[count] == 0xFF, "wrote past its count: \(value)")
            } else {
                #expect(value.magnitude >= 1 << 39, "\(value)")
                #expect(scratch[0] == 0xFF)
            }
        }
    }
}
