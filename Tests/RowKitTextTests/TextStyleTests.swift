import Testing
@testable import RowKitText

/// Style values (Style/TextStyle.swift) and error messages (TextError.swift).
@Suite struct TextStyleTests {
    @Test func fontWeightParsingAndClamping() {
        #expect(FontWeight(parsing: "regular") == .regular)
        #expect(FontWeight(parsing: "Normal") == .regular)
        #expect(FontWeight(parsing: "BOLD") == .bold)
        #expect(FontWeight(parsing: "550")?.value == 550)
        #expect(FontWeight(parsing: "0") == nil)
        #expect(FontWeight(parsing: "1001") == nil)
        #expect(FontWeight(parsing: "heavy") == nil)
        #expect(FontWeight(parsing: "") == nil)
        #expect(FontWeight(-5).value == 1)
        #expect(FontWeight(5000).value == 1000)
        #expect(FontWeight.regular < .bold)
    }

    @Test func colorHexParsing() {
        #expect(Color(hex: "#fff") == .white)
        #expect(Color(hex: "#000000") == .black)
        #expect(Color(hex: "#ff000080") == Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255))
        #expect(Color(hex: "fff") == nil)
        #expect(Color(hex: "#ffff") == nil)
        #expect(Color(hex: "#gggggg") == nil)
        #expect(Color(hex: "#") == nil)
        #expect(Color(hex: "") == nil)
        // A sign is not a digit (`UInt64(_:radix:)` takes one: `#+12345` was #012345; QA-87).
        #expect(Color(hex: "#+12345") == nil)
        #expect(Color(hex: "#-12345") == nil)
        #expect(Color(hex: "#+ff") == nil)
        #expect(Color(hex: "#１２３") == nil)
    }

    @Test func fontDescriptorDescription() {
        #expect(FontDescriptor(family: "DejaVu Sans").description == "DejaVu Sans 400")
        #expect(FontDescriptor(family: "X", weight: .bold, italic: true).description == "X 700 italic")
        #expect(FontDescriptor.file("/a/b.ttf").description == "/a/b.ttf")
    }

    @Test func errorDescriptionsNameTheValue() {
        #expect(TextError.fontFileUnreadable("/x.ttf").description.contains("/x.ttf"))
        #expect(TextError.invalidNumber(name: "width", value: -1).description.contains("width"))
        #expect(TextError.textTooLong(length: 99).description.contains("99"))
    }

    @Test func equalStylesAreEqual() {
        #expect(style() == style())
        #expect(style(.preWrap) != style())
        #expect(Set([style(), style(), style(size: 12)]).count == 2)
    }
}
