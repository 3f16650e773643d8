import Testing
@testable import RowKitText

/// Font-fallback plans made one after another on one thread's memo (issue 8, twenty-first round:
/// a plan's walk asks memory for its clusters' memo slots ahead of reading them) read their own
/// paragraph, whatever the plans before them met: the same segment start followed by other
/// text (more of the script, another script, an emoji, a combining mark that lengthens the last
/// cluster, the paragraph's end), other bidi levels (the same text right to left, a level change
/// where the script goes on), pre-wrap item boundaries, and segments longer than a plan's first
/// window (32 units) and than its limit (2048 units). Each paragraph's font for every grapheme,
/// the fallback state carried at it, and the number of plans are those a chooser without any
/// memo finds — so a plan remembered from another paragraph, used where it does not hold,
/// fails here.
@Suite struct FontFallbackPlanTests {
    /// Paragraphs sharing their first segment's start, in an order where each meets the memo as
    /// the ones before it left it.
    static func paragraphs() -> [(text: String, levels: (Int) -> UInt8)] {
        let hindi = "नमस्ते दुनिया यह एक वाक्य है"
        let arabic = "مرحبا بالعالم هذه جملة"
        let ltr: (Int) -> UInt8 = { _ in 0 }
        let rtl: (Int) -> UInt8 = { _ in 1 }
        let longHindi = String(repeating: "नमस्ते दुनिया ", count: 12)     // past a plan's first window
        let veryLongHindi = String(repeating: "नमस्ते ", count: 400)      // past the 2048-unit limit
        let hindiCount = hindi.utf16.count
        return [
            (hindi, ltr),
            (hindi + " hello world", ltr),                                  // ends at Latin after it
            (hindi + " और भी शब्द", ltr),                                  // goes on in Devanagari
            (hindi + " 😀 and", ltr),                                        // ends at an emoji
            (hindi + "\u{0951} आगे", ltr),                                  // a mark lengthens its last cluster
            (hindi + "\u{0964} आगे", ltr),                                  // a danda (script extensions)
            (hindi + "。中文", ltr),                                         // East Asian punctuation, then Han
            (hindi, rtl),                                                    // the same text right to left
            (hindi + " hello", { $0 < hindiCount ? 0 : 1 }),               // the level changes where Latin starts
            (hindi + " और", { $0 < hindiCount ? 0 : 2 }),                  // the level changes inside the script
            (arabic, rtl),
            (arabic + " abc", { $0 < arabic.utf16.count ? 1 : 0 }),
            (arabic + " والمزيد", rtl),                                     // a right-to-left hint is read from the end
            (arabic + " ☺\u{FE0F} نص", rtl),
            ("\u{1}" + hindi, ltr),                                          // a plan starting at a Common character
            ("a\u{1}" + hindi, ltr),
            (longHindi, ltr),
            (longHindi + "x", ltr),
            (veryLongHindi, ltr),
            (veryLongHindi + "ab", ltr),
            (hindi, ltr),                                                    // the first again, after all the others
        ]
    }

    /// Compares a chooser with the thread's memo against one without, grapheme by grapheme.
    /// Returns the plans the paragraph took.
    @discardableResult
    static func compare(_ text: String, levels level: (Int) -> UInt8, style: TextStyle, memo: FontChoiceMemo,
                        context: Int32, withGraphemes: Bool) throws -> Int {
        let resolved = try ResolvedStyle(style, fonts: .shared)
        var memoized = FontFallback(style: style, primary: resolved.primary, fonts: .shared)
        memoized.memo = memo
        memoized.memoContext = context
        var plain = FontFallback(style: style, primary: resolved.primary, fonts: .shared)
        let units = Array(text.utf16)
        let levels = (0..<units.count).map(level)
        let rightToLeftAnywhere = levels.contains { $0 != 0 }
        return try units.withUnsafeBufferPointer { (text) throws(TextError) -> Int in
            let graphemes = try UnicodeAnalysis.graphemeEnds(text)
            if withGraphemes {
                memoized.paragraphGraphemes = graphemes
                plain.paragraphGraphemes = graphemes
            }
            return levels.withUnsafeBufferPointer { levels -> Int in
                memoized.paragraphLevels = rightToLeftAnywhere ? levels : nil
                plain.paragraphLevels = rightToLeftAnywhere ? levels : nil
                var g0 = 0
                for end in graphemes {
                    let g1 = Int(end)
                    let a = memoized.font(for: text, g0, g1), b = plain.font(for: text, g0, g1)
                    #expect(a === b, "\(units.count) units: unit \(g0) takes \(a.family) with the memo, \(b.family) without")
                    #expect(memoized.carried(at: g0, through: g1) == plain.carried(at: g0, through: g1), "unit \(g0)")
                    #expect(memoized.plannedStart == plain.plannedStart, "unit \(g0)")
                    g0 = g1
                }
                #expect(memoized.plansMade == plain.plansMade)
                return plain.plansMade
            }
        }
    }

    @Test(arguments: [false, true])
    func plansAfterOthersOnTheSameMemoReadTheirOwnParagraph(withGraphemes: Bool) throws {
        let styles = [TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 16, lineHeight: .normal),
                      TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: .bold), size: 13, whiteSpace: .preWrap),
                      TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 15, lang: "ja")]
        let memo = FontChoiceMemo()
        for pass in 0..<2 {
            for (s, style) in styles.enumerated() {
                // (DejaVu Sans has Arabic: those paragraphs take no plan in its style.)
                var planned = 0
                for paragraph in Self.paragraphs() {
                    let plans = try Self.compare(paragraph.text, levels: paragraph.levels, style: style, memo: memo,
                                                 context: Int32(s), withGraphemes: withGraphemes)
                    if plans > 0 { planned += 1 }
                }
                #expect(planned >= Self.paragraphs().count - 4, "style \(s)")
                // Pre-wrap item boundaries inside the segment (tabs and newlines end it).
                if pass == 1 {
                    try Self.compare("नमस्ते\tदुनिया\nयह", levels: { _ in 0 }, style: style, memo: memo, context: Int32(s),
                                     withGraphemes: withGraphemes)
                }
            }
        }
    }

    /// The fallback state at a unit tells whether a plan covers the word there, so the plan's
    /// end must be where its own paragraph's segment ends: after a paragraph whose segment went
    /// on, one whose segment stops earlier is outside the plan past its end.
    @Test func aPlanEndsWhereItsOwnSegmentEnds() throws {
        let style = TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 16)
        let resolved = try ResolvedStyle(style, fonts: .shared)
        let memo = FontChoiceMemo()
        func planEnd(_ text: String) throws -> Int {
            var chooser = FontFallback(style: style, primary: resolved.primary, fonts: .shared)
            chooser.memo = memo
            chooser.memoContext = 0
            let units = Array(text.utf16)
            return try units.withUnsafeBufferPointer { (text) throws(TextError) -> Int in
                chooser.paragraphGraphemes = try UnicodeAnalysis.graphemeEnds(text)
                _ = chooser.planFont(text, from: 0)
                // The first unit the plan does not cover.
                var end = 0
                while end < text.count && chooser.carried(at: end, through: end + 1) != .outsidePlan { end += 1 }
                return end
            }
        }
        let hindi = "नमस्ते दुनिया"
        let n = hindi.utf16.count
        #expect(try planEnd(hindi + " और भी") == n + " और भी".utf16.count)
        #expect(try planEnd(hindi + " hello") == n + 1)                     // the space joins the Devanagari run
        #expect(try planEnd(hindi + " और भी") == n + " और भी".utf16.count)
        #expect(try planEnd(hindi) == n)
        #expect(try planEnd(hindi + " 😀") == n + 1)
    }

    /// The measuring form's unit codes, packed four bytes at a time (``MetricsBlock/Planner/pack(_:count:bits:to:)``),
    /// are the bytes a byte-at-a-time loop writes, and nothing after them, for every code width.
    @Test func packedUnitCodesAreTheBytesOfAByteAtATimeLoop() {
        var state: UInt64 = 0x1234_5678_9ABC_DEF0
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 16
        }
        for bits in 1...32 {
            for count in [0, 1, 2, 3, 7, 8, 31, 32, 33, 64, 65, 100, 257] {
                let codes = (0..<count).map { _ in UInt32(truncatingIfNeeded: next() & ((1 << UInt64(bits)) - 1)) }
                var expected = [UInt8](repeating: 0, count: (count * bits + 7) / 8)
                var acc: UInt64 = 0, filled = 0, byte = 0
                for code in codes {
                    acc |= UInt64(code) << UInt64(filled)
                    filled += bits
                    while filled >= 8 { expected[byte] = UInt8(truncatingIfNeeded: acc); acc >>= 8; filled -= 8; byte += 1 }
                }
                if filled > 0 { expected[byte] = UInt8(truncatingIfNeeded: acc) }
                // Written at an odd offset (codes follow the attribute bytes), with guard bytes after.
                var out = [UInt8](repeating: 0, count: expected.count + 16)
                out.withUnsafeMutableBytes { raw in
                    for k in (1 + expected.count)..<raw.count { raw[k] = 0xA5 }
                    MetricsBlock.Planner.pack(codes, count: count, bits: bits, to: raw.baseAddress! + 1)
                }
                #expect(Array(out[1..<(1 + expected.count)]) == expected, "\(bits) bits, \(count) codes")
                #expect(out[0] == 0 && out[(1 + expected.count)...].allSatisfy { $0 == 0xA5 }, "\(bits) bits, \(count) codes")
            }
        }
    }
}
