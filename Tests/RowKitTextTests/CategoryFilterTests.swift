import Testing
@testable import RowKitText

/// The range filters in front of the general-category lookup never change an answer: checked for
/// every scalar against the standard library (a Unicode update that adds a bracket or mark
/// outside the filtered ranges fails here).
@Suite struct CategoryFilterTests {
    @Test func everyBracketPassesTheBracketFilter() {
        var brackets = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            guard category == .openPunctuation || category == .closePunctuation else { continue }
            brackets += 1
            #expect(CategoryFilter.mayBeBracket(value), "U+\(String(value, radix: 16, uppercase: true)) is a bracket")
        }
        #expect(brackets > 100)  // the loop did look
    }

    @Test func openingAndCodePointClassAgreeWithTheCategory() {
        let special: Set<UInt32> = [0x2018, 0x201C, 0x2019, 0x201D, 0x3000, 0x00B7, 0x2027, 0x30FB, 0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B]
        for value in UInt32(0x28)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            #expect(ScriptRuns.isOpening(value) == (category == .openPunctuation), "U+\(String(value, radix: 16))")
            guard !special.contains(value) else { continue }
            let wide = (0x3000...0x303F).contains(value) || (0xFF01...0xFF60).contains(value) || (0xFFE0...0xFFE6).contains(value)
            let expected: CJKPunctuation.CodePointClass = switch category {
            case .openPunctuation: .kind(wide ? .open : .openNarrow)
            case .closePunctuation: .kind(wide ? .close : .closeNarrow)
            default: .kind(.other)
            }
            #expect(CJKPunctuation.codePointClass(UInt16(value)) == expected, "U+\(String(value, radix: 16))")
        }
    }

    /// The unfiltered rule `ChunkedBuilder.mayStartWithExtender` had before the filter.
    static func mayStartWithExtenderModel(_ unit: UInt16) -> Bool {
        guard unit >= 0x300 else { return false }
        if unit == 0x200C || unit == 0x200D || unit == 0x0E33 || unit == 0x0EB3 || (unit >= 0xD800 && unit <= 0xDFFF)
            || (unit >= 0xFE00 && unit <= 0xFE0F) { return true }
        guard let scalar = Unicode.Scalar(unit) else { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return scalar.properties.isGraphemeExtend
        }
    }

    /// The remembered answers are the filter's, whichever units shared a memo slot before:
    /// every unit asked twice in two orders.
    @Test func rememberedExtenderAnswersAreTheFilters() {
        var builder = ChunkedBuilder()
        defer { builder.deallocate() }
        let units = Array(UInt16(0)...UInt16.max)
        for unit in units + units.reversed() + units {
            if builder.mayStartWithExtenderRemembered(unit) != ChunkedBuilder.mayStartWithExtender(unit) {
                Issue.record("U+\(String(unit, radix: 16, uppercase: true))")
            }
        }
    }

    /// The dash filter in front of the category lookup of `BreakOpportunities.mayJoinAtLineStart`
    /// passes every dash punctuation below U+D800.
    @Test func dashFilterPassesEveryDash() {
        var dashes = 0
        for value in UInt16(0x80)..<0xD800 {
            let isDash = Unicode.Scalar(value)?.properties.generalCategory == .dashPunctuation
            if isDash { dashes += 1 }
            #expect(BreakOpportunities.mayJoinAtLineStart(value) == isDash, "U+\(String(value, radix: 16, uppercase: true))")
        }
        #expect(dashes >= 15)  // the loop did look (19 in Unicode 15)
        #expect(BreakOpportunities.mayJoinAtLineStart(0x2D))
        #expect(!BreakOpportunities.mayJoinAtLineStart(0x61))
    }

    @Test func extenderFilterAgreesWithTheCategory() {
        for value in UInt16(0)...UInt16.max {
            #expect(ChunkedBuilder.mayStartWithExtender(value) == Self.mayStartWithExtenderModel(value),
                    "U+\(String(value, radix: 16, uppercase: true))")
        }
    }
}
