import Testing
@testable import RowKitText

/// The ranges `SingleUnitGraphemes` answers for without ICU hold only units that are grapheme
/// clusters of their own next to each other and to ASCII letters: checked for every unit
/// against ICU itself (a Unicode update that makes one of them a mark or a joiner fails here).
@Suite struct SingleUnitGraphemeTests {
    /// ICU's grapheme ends, without the shortcut.
    static func icuEnds(_ units: [UInt16]) -> [Int32] {
        var ends = [Int32](repeating: 0, count: units.count + 1)
        let count = units.withUnsafeBufferPointer { u in
            ends.withUnsafeMutableBufferPointer { ICU.graphemeBreaksByIterator(u, breaks: $0.baseAddress, capacity: Int32(units.count + 1)) }
        }
        return Array(ends.prefix(Int(max(0, count))))
    }

    @Test func everyUnitOfTheRangesIsAGraphemeOfItsOwn() {
        var checked = 0
        for value in 0...0xFFFF {
            let unit = UInt16(value)
            guard SingleUnitGraphemes.contains(unit) else { continue }
            checked += 1
            // After and before a letter (not an extender, joiner or prepended mark) and twice in
            // a row (not a Hangul jamo or half of a pair).
            let ends = Self.icuEnds([0x41, unit, 0x41, unit, unit])
            #expect(ends == [1, 2, 3, 4, 5], "U+\(String(value, radix: 16, uppercase: true))")
        }
        #expect(checked > 40_000)  // the loop did look: ASCII, Latin, CJK, kana, Hangul
        // Units the ranges leave to ICU.
        for unit: UInt16 in [0x0D, 0x0300, 0x200D, 0x3099, 0x302A, 0xFF9E, 0x1100, 0xD83D, 0x0E33, 0x0915] {
            #expect(!SingleUnitGraphemes.contains(unit))
        }
    }

    @Test func graphemeEndsAgreeWithICU() throws {
        for text in ["漢字かなカナ、한국어 문장입니다。", "ＡＢＣ（注）「引用」", "plain ASCII, tabs\tand\nnewlines", "é ü ß — “quotes” …",
                     "e\u{301}漢", "한\u{11A8}", "👍🏽 ok", "\r\n漢", "क्षि"] {
            let units = Array(text.utf16)
            let ends = try units.withUnsafeBufferPointer { (u) throws(TextError) in try UnicodeAnalysis.graphemeEnds(u) }
            #expect(ends == Self.icuEnds(units), "\(text.debugDescription)")
        }
    }
}

extension SingleUnitGraphemeTests {
    /// Font fallback skips shaping a lone unified ideograph the font's character map lacks
    /// (`CategoryFilter.isUnifiedIdeograph`): HarfBuzz gives .notdef for every one of them in
    /// fonts without CJK — checked against HarfBuzz itself.
    @Test func loneIdeographsAFontLacksShapeToNotdef() throws {
        var checked = 0
        for family in ["Noto Sans", "DejaVu Sans", "Liberation Serif"] {
            let font = try FontLibrary.shared.font(for: FontDescriptor(family: family))
            for value in UInt16(0x3400)...UInt16(0x9FFF) where CategoryFilter.isUnifiedIdeograph(value) {
                guard !font.covers(UInt32(value)) else { continue }
                checked += 1
                let unit = [value]
                let shaped = unit.withUnsafeBufferPointer { font.shapes(cluster: $0) }
                #expect(!shaped, "U+\(String(value, radix: 16, uppercase: true)) in \(family)")
                if shaped { return }
            }
        }
        #expect(checked > 20_000)
        #expect(!CategoryFilter.isUnifiedIdeograph(0xF900) && !CategoryFilter.isUnifiedIdeograph(0x3041))
    }
}
