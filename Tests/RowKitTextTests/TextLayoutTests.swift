import Testing
@testable import RowKitText

/// measure / lineCount / layout (Layout/TextLayout.swift): truncation with an ellipsis, heights,
/// and the number checks on widths.
@Suite struct TextLayoutTests {
    // MARK: maxLines and the ellipsis

    @Test func maxLinesKeepsThatManyLinesAndEllipsizesTheLast() throws {
        let p = try prepare("aaa bbb ccc ddd eee")
        let w = p.width(of: 0..<7) // "aaa bbb"
        let full = try p.layout(width: w)
        #expect(full.lines.count == 3)
        #expect(!full.isTruncated)

        let cut = try p.layout(width: w, maxLines: 2)
        #expect(cut.lines.count == 2)
        #expect(cut.isTruncated)
        #expect(cut.lines.map(\.ellipsized) == [false, true])
        #expect(cut.lines[0] == full.lines[0])
        #expect(cut.height == 2 * 16)

        // The last kept line is shortened at a grapheme boundary so that content + "…" fits:
        // the longest prefix of "ccc ddd" (not ending in a space) with that property.
        let ellipsis = try width("…")
        #expect(ellipsis > 0)
        let last = cut.lines[1]
        #expect(fits(last.width, in: w))
        var expectedEnd = last.start
        for end in (last.start + 1)...full.lines[1].end where p.units[end - 1] != 0x20 {
            if fits(p.width(of: last.start..<end) + ellipsis, in: w) { expectedEnd = end }
        }
        #expect(last.end == expectedEnd)
        #expect(abs(last.width - (p.width(of: last.start..<last.end) + ellipsis)) < 1e-9)
    }

    @Test func ellipsizedLineDrawsAnEllipsis() throws {
        let p = try prepare("aaa bbb ccc ddd eee")
        let layout = try p.layout(width: p.width(of: 0..<7), maxLines: 1)
        let glyphs = layout.glyphs(ofLine: 0)
        let ellipsisGlyph = p.primaryFont.nominalGlyph(0x2026)
        #expect(ellipsisGlyph != nil)
        #expect(glyphs.last?.glyphs == [ellipsisGlyph!])
    }

    @Test func maxLinesNotReachedMeansNoEllipsis() throws {
        let p = try prepare("aaa bbb")
        let layout = try p.layout(width: 1000, maxLines: 3)
        #expect(layout.lines.count == 1)
        #expect(!layout.isTruncated)
        #expect(!layout.lines[0].ellipsized)
    }

    @Test func maxLinesExactlyReachedMeansNoEllipsis() throws {
        let p = try prepare("aaa bbb")
        let layout = try p.layout(width: p.width(of: 4..<7), maxLines: 2) // "bbb" is the wider word
        #expect(layout.lines.count == 2)
        #expect(!layout.isTruncated)
        #expect(layout.lines.allSatisfy { !$0.ellipsized })
    }

    @Test(arguments: [0, -1, Int.min])
    func maxLinesBelowOneIsRejected(_ maxLines: Int) throws {
        let p = try prepare("aaa")
        #expect(throws: TextError.invalidNumber(name: "maxLines", value: Double(maxLines))) {
            try p.layout(width: 100, maxLines: maxLines)
        }
    }

    // MARK: measure == layout

    @Test func measureAgreesWithLayout() throws {
        let p = try prepare("The quick brown fox jumps over the lazy dog. 漢字かな交じり文 👍🏽 ภาษาไทย")
        for w in stride(from: 0.0, through: 600, by: 7.5) {
            let m = try p.measure(width: w)
            let l = try p.layout(width: w)
            #expect(m.lineCount == l.lines.count)
            #expect(m.lineCount == (try p.lineCount(width: w)))
            #expect(m.height == l.height)
            #expect(m.maxLineWidth == l.maxLineWidth)
        }
    }

    // MARK: Line height

    @Test func explicitLineHeightTimesLineCount() throws {
        let p = try prepare("aaa aaa aaa", style(lineHeight: .pixels(20)))
        let m = try p.measure(width: p.width(of: 0..<3))
        #expect(m.lineCount == 3)
        #expect(m.height == 60)
    }

    @Test func explicitLineHeightIsNotGrownByFallbackFonts() throws {
        // docs/CHROMIUM.md §4: with an explicit line height, CJK/Thai/emoji never grow a line.
        let p = try prepare("abc 漢字 ภาษาไทย 👍 नमस्ते", style(size: 20, lineHeight: .pixels(16)))
        #expect(try p.measure(width: 1000).height == 16)
    }

    @Test(arguments: [
        ("DejaVu Sans", 11.0, 13.0), ("DejaVu Sans", 13, 15), ("DejaVu Sans", 16, 19), ("DejaVu Sans", 24, 28),
        ("DejaVu Serif", 16, 19),
        ("Noto Sans", 11, 15), ("Noto Sans", 16, 22), ("Noto Sans", 17.5, 24), ("Noto Sans", 24, 33),
        ("Liberation Serif", 13, 16), ("Liberation Serif", 16, 18), ("Liberation Serif", 20, 23),
        ("Liberation Sans", 15, 17), ("Liberation Sans", 24, 28),
        // At the size the font is made at (Font.platformSize): 37.17 px is 37.16, 36.1 is 36.09,
        // 16.38 is 16.37 — measured in Chromium; the unsnapped size gives 44, 43 and 23.
        ("DejaVu Sans Mono", 37.17, 43), ("DejaVu Sans Mono", 36.1, 42), ("Noto Sans", 16.38, 22),
    ])
    func normalLineHeightRoundsEachMetric(_ family: String, _ size: Double, _ expected: Double) throws {
        // docs/CHROMIUM.md §5 table: round(ascent) + round(descent) + round(lineGap).
        let p = try prepare("Hamburgefonstiv", style(family: family, size: size, lineHeight: .normal))
        #expect(p.lineHeight == expected)
        let m = try p.measure(width: 1000)
        #expect(m.height == expected)
        let two = try p.measure(width: 1)
        #expect(two.height == Double(two.lineCount) * expected)
    }

    @Test func normalLineHeightGrowsWithFallbackFonts() throws {
        // docs/CHROMIUM.md §5: with line-height: normal each line is as tall as the tallest
        // font on it: DejaVu Sans 16 alone = 19, a line with CJK (Noto Sans CJK JP) = 24.
        let latin = try prepare("abc", style(lineHeight: .normal))
        #expect(try latin.measure(width: 1000).height == 19)
        let mixed = try prepare("abc 漢字", style(lineHeight: .normal))
        #expect(try mixed.measure(width: 1000).height == 24)
        #expect(try mixed.layout(width: 1000).height == 24)
        // Other examples measured in Chromium (§5): with Thai 24, with Devanagari 22.
        #expect(try prepare("abc ภาษาไทย", style(lineHeight: .normal)).measure(width: 1000).height == 24)
        #expect(try prepare("abc हिन्दी", style(lineHeight: .normal)).measure(width: 1000).height == 22)
        // Each wrapped line is computed on its own: a Latin line stays 19, a CJK line is 24.
        let wrapped = try prepare("abc 漢字", style(lineHeight: .normal)).layout(width: 35)
        #expect(wrapped.lines.count == 2)
        #expect(wrapped.height(ofLine: 0) == 19 && wrapped.height(ofLine: 1) == 24)
        #expect(wrapped.top(ofLine: 1) == 19 && wrapped.height == 43)
        #expect(try prepare("abc 漢字", style(lineHeight: .normal)).measure(width: 35).height == 43)
        // Explicit line heights never grow.
        #expect(try prepare("abc 漢字", style(lineHeight: .pixels(16))).measure(width: 1000).height == 16)
    }

    @Test func aClosingMarkTrimmedToFitALineEndCountsInItsReshapedFont() throws {
        // docs/CHROMIUM.md §5, twelfth round: a `》` trimmed to fit a line end is shaped again
        // alone in Noto Sans Lisu (fontconfig's first font for it), and the line box counts
        // Lisu's metrics, not Noto Sans CJK's. DejaVu Sans Bold Oblique 29.1 px: `梦》` at
        // 43.5 px is one trimmed line, 43 px tall (CJK ascent 34, Lisu descent 9); at 60 px it
        // fits untrimmed and stays CJK, 42 px. Seed 3107's cjk-chinese/0544.
        let bold = TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: FontWeight(700), italic: true), size: 29.1, lineHeight: .normal)
        let p = try prepare("梦》", bold)
        #expect(try p.measure(width: 43.5).height == 43)
        #expect(try p.layout(width: 43.5).height == 43)
        #expect(try p.measure(width: 60).height == 42)
        #expect(try p.layout(width: 60).height == 42)
        // Liberation Serif Bold 40 px at 24.78 px: the trimmed lone `》` line is Lisu's 55 px,
        // not CJK's 58; `梦` stays 58 (seed 3107's cjk-chinese/1203, whose "Noto Sans Mono" is
        // not installed and falls back to Liberation Serif).
        let mono = TextStyle(font: FontDescriptor(family: "Liberation Serif", weight: FontWeight(700)), size: 40, lineHeight: .normal)
        let q = try prepare("梦》", mono)
        #expect(try q.measure(width: 24.78).height == 113)
        #expect(try q.layout(width: 24.78).height == 113)
        #expect(try q.layout(width: 24.78).height(ofLine: 1) == 55)
        #expect(try q.measure(width: 45).height == 116)
        // The same inside a longer text, through the word cache's chunked path.
        let long = String(repeating: "《红楼梦》是中国古典小说的代表作之一。", count: 3)
        for _ in 0..<2 {  // the second time, the chunks are in this thread's word cache
            let r = try prepare(long, bold)
            let whole = try PreparedText(long, style: bold, fonts: .shared, cache: .shared, wholeParagraph: true)
            let lines = try whole.layout(width: 43.5)
            let trimmed = lines.lines.indices.filter { lines.text(ofLine: $0) == "梦》" }
            #expect(trimmed.count == 3 && trimmed.allSatisfy { lines.height(ofLine: $0) == 43 })
            #expect(try r.measure(width: 43.5).height == whole.measure(width: 43.5).height)
            #expect(try r.layout(width: 43.5).height == lines.height)
        }
    }

    // MARK: Width validation

    @Test(arguments: [Double.nan, -1, -0.5, -Double.infinity, -Double.ulpOfOne])
    func invalidWidthsThrow(_ w: Double) throws {
        let p = try prepare("some text")
        func check(_ body: () throws(TextError) -> Void) {
            do throws(TextError) {
                try body()
                Issue.record("width \(w) accepted")
            } catch {
                guard case .invalidNumber(let name, let value) = error else {
                    Issue.record("unexpected error \(error)"); return
                }
                #expect(name == "width")
                #expect(value.isNaN == w.isNaN && (w.isNaN || value == w))
            }
        }
        check { () throws(TextError) in _ = try p.measure(width: w) }
        check { () throws(TextError) in _ = try p.lineCount(width: w) }
        check { () throws(TextError) in _ = try p.layout(width: w) }
        check { () throws(TextError) in _ = try p.layout(width: w, maxLines: 1) }
    }

    @Test func infiniteAndHugeWidthsAreAllowed() throws {
        let p = try prepare("a b c")
        #expect(try p.measure(width: .infinity).lineCount == 1)
        #expect(try p.measure(width: .greatestFiniteMagnitude).lineCount == 1)
        #expect(try p.measure(width: 1e300).lineCount == 1)
        #expect(try p.layout(width: .infinity).lineOffset(0) == 0)
    }

    @Test func negativeZeroWidthIsZero() throws {
        let p = try prepare("a b")
        #expect(try p.lineCount(width: -0.0) == 2)
    }
}
