import Testing
@testable import RowKitText

#if canImport(Glibc)
import Glibc
#endif

/// Font-fallback plans that read the thread's memo (Prepare/FontChoiceMemo.swift) — whether the
/// plan's font renders a hole, and the system's font for a hint character, remembered from
/// earlier paragraphs — choose exactly the fonts that plans without any memo choose: every
/// grapheme of every paragraph of the 17 corpora files, in three styles (one bold, whose hint
/// goes to the family at normal weight first), left to right and right to left (whose hint is
/// read from the segment's end), twice over with one memo (the second pass answers from it).
@Suite struct FontFallbackMemoTests {
    @Test(.enabled(if: Corpora.folder != nil, "the corpora are absent (ROWKIT_CORPORA, ../shared/corpora)"))
    func plansWithTheMemoChooseTheFontsOfPlansWithout() throws {
        let folder = try #require(Corpora.folder)
        let paragraphs = Corpora.paragraphs(folder)
        #expect(paragraphs.count > 5000)
        let styles = [TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 16, lineHeight: .normal),
                      TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: .bold), size: 13),
                      TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 15, lang: "ja")]
        let memo = FontChoiceMemo()
        var compared = 0, plans = 0
        for pass in 0..<2 {
            for (s, style) in styles.enumerated() {
                let resolved = try ResolvedStyle(style, fonts: .shared)
                var memoizedInitial = FontFallback(style: style, primary: resolved.primary, fonts: .shared)
                memoizedInitial.memo = memo
                memoizedInitial.memoContext = Int32(s)
                let plainInitial = FontFallback(style: style, primary: resolved.primary, fonts: .shared)
                for rightToLeft in [false, true] {
                    // Every paragraph in the first pass; every fourth in the second.
                    for (k, paragraph) in paragraphs.enumerated() where pass == 0 || k % 4 == s {
                        let units = Array(paragraph.text.utf16)
                        let levels = [UInt8](repeating: rightToLeft ? 1 : 0, count: units.count)
                        try units.withUnsafeBufferPointer { (text) throws(TextError) in
                            let graphemes = try UnicodeAnalysis.graphemeEnds(text)
                            var memoized = memoizedInitial, plain = plainInitial
                            memoized.paragraphGraphemes = graphemes
                            plain.paragraphGraphemes = graphemes
                            levels.withUnsafeBufferPointer { levels in
                                memoized.paragraphLevels = rightToLeft ? levels : nil
                                plain.paragraphLevels = rightToLeft ? levels : nil
                                var g0 = 0
                                for end in graphemes {
                                    let g1 = Int(end)
                                    let a = memoized.font(for: text, g0, g1), b = plain.font(for: text, g0, g1)
                                    if a !== b {
                                        Issue.record("\(paragraph.file): unit \(g0) takes \(a.family) with the memo, \(b.family) without")
                                        return
                                    }
                                    compared += 1
                                    g0 = g1
                                }
                                #expect(memoized.plansMade == plain.plansMade)
                                plans += plain.plansMade
                            }
                        }
                    }
                }
            }
        }
        #expect(compared > 1_000_000)
        #expect(plans > 10_000)
    }
}
