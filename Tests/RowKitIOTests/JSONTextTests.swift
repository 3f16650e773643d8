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
