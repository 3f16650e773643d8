import Testing
@testable import RowKitText

/// Greedy line breaking (Layout/LineBreaker.swift): one test per rule of docs/CHROMIUM.md §3.
/// Expected lines are derived from the rules and from `width(of:)` of the pieces involved.
@Suite struct LineBreakerTests {
    /// ceil to the 1/64 px layout unit, as Chromium reports widths.
    func ceil64(_ w: Double) -> Double { (w * 64).rounded(.up) / 64 }

    // MARK: Trailing spaces hang

    @Test func lineExactlyAsWideAsItsContentKeepsItAndMovesTheRest() throws {
        let p = try prepare("aaa bbb ccc")
        let w = p.width(of: 0..<7) // "aaa bbb", the hanging space excluded
        let layout = try p.layout(width: w)
        #expect(try lineTexts(p, width: w) == ["aaa bbb", "ccc"])
        #expect(layout.lines[0].width == w)
        #expect(layout.lines[0].end == 8, "the hanging space belongs to the first line")
        #expect(layout.lines[1].start == 8)
    }

    /// Found by a long run of the property tests (a crash): a soft hyphen followed by an
    /// ideographic space, too narrow for the hyphen. The soft hyphen's line is split off by
    /// overflow-wrap and what is left of its segment is the space that hangs; it hangs on that
    /// line (it used to start a line of its own, whose width was summed over a reversed range).
    /// Line counts as headless Chromium gives them (DejaVu Sans 22 px).
    @Test func spaceHangingAfterASplitSoftHyphenStaysOnItsLine() throws {
        let style = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 22)
        let cases: [(String, Double, Int)] = [
            ("\u{AD}\u{3000} รายงาน", 0.75, 7), ("\u{AD}\u{3000} รายงาน", 20, 6), ("\u{AD}\u{3000} รายงาน", 30, 4),
            ("ab\u{AD}\u{3000} cd", 10, 5), ("ab\u{AD}\u{3000}\u{3000} cd", 20, 5), ("ab\u{AD}\u{3000} cd", 30, 3),
            ("a\u{AD}\u{3000}b", 0.75, 3), ("a\u{AD}\u{3000}b", 30, 2),
        ]
        for (text, width, lineCount) in cases {
            let prepared = try PreparedText(text, style: style)
            let layout = try prepared.layout(width: width)
            #expect(layout.lines.count == lineCount, "\(text.debugDescription) at \(width)")
            for (a, b) in zip(layout.lines, layout.lines.dropFirst()) { #expect(a.end == b.start) }
            let metrics = try TextMetrics(text, style: style)
            #expect(metrics.withView { $0.lines(width: width, maxLines: nil).lines } == layout.lines)
        }
        // The text the property test crashed on (DejaVu Sans 900 oblique 22 px at 0.75 px).
        let found = "\n\u{AD}\u{3000}   รายงานก่อนวันที่officea สวัสดีहिन्दी」!the」ภาษาไทย\n(x)"
        let heavy = TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: FontWeight(900), slant: .oblique), size: 22)
        #expect(try PreparedText(found, style: heavy).layout(width: 0.75).lines.count > 20)
    }

    /// In `pre-wrap`, a tab right after a soft hyphen goes to the next stop from the pen plus the
    /// hyphen (5.7734 px, rounded up to the 1/64 px layout unit), and the pen after it is that
    /// stop less the hyphen (docs/CHROMIUM.md, twelfth round): DejaVu Sans 16 px
    /// `xxxx\u{AD}\tyy` is 37.875 + (81.375 − 43.65625) + 18.9375 = 94.53125 px, one line from
    /// a box of 94.515625 px in Chromium, two at 94.5.
    @Test func tabAfterASoftHyphenCountsItsStopWithTheHyphen() throws {
        let style = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 16, whiteSpace: .preWrap)
        let prepared = try PreparedText("xxxx\u{AD}\tyy", style: style)
        #expect(try prepared.layout(width: 94.515625).lines.map(\.width) == [94.53125])
        #expect(try prepared.layout(width: 94.5).lines.count == 2)
        let twoTabs = try PreparedText("xxxx\u{AD}\tyy\tz", style: style)
        #expect(try twoTabs.layout(width: 100).lines.count == 2, "the next tab counts from the pen after the first")
        #expect(try PreparedText("xxxx\tyy", style: style).layout(width: 60).lines.count == 1, "without the soft hyphen")
        for width in [94.5625, 100, 300] {
            let layout = try twoTabs.layout(width: width)
            let metrics = try TextMetrics("xxxx\u{AD}\tyy\tz", style: style)
            #expect(metrics.withView { $0.lines(width: width, maxLines: nil).lines } == layout.lines)
            for i in layout.lines.indices {
                let drawn = try #require(drawnWidth(layout, line: i))
                #expect(abs(drawn - layout.lines[i].width) < 0.001, "line \(i) at \(width)")
            }
        }
    }

    @Test func manyTrailingSpacesHangInPreWrap() throws {
        let s = style(.preWrap)
        let p = try prepare("aaa bbb      ccc", s)
        let w = p.width(of: 0..<7)
        let layout = try p.layout(width: w)
        #expect(layout.lines.count == 2)
        #expect(layout.text(ofLine: 0) == "aaa bbb")
        #expect(layout.lines[0].width == w, "hanging spaces do not count")
        #expect(layout.text(ofLine: 1) == "ccc")
    }

    @Test func fitRuleAllowsOneLayoutUnitOfOverflow() throws {
        // docs/CHROMIUM.md §3(a): fits at W = ceil64(width) − 1/64, never at − 2/64.
        let p = try prepare("i word")
        let w = ceil64(p.width(of: 0..<6))
        #expect(try p.lineCount(width: w - 1.0 / 64) == 1)
        #expect(try p.lineCount(width: w - 2.0 / 64) == 2)
        // The box width snaps down to 1/64 px first: anything in [w − 1/64, w) behaves like w − 1/64.
        #expect(try p.lineCount(width: w - 1.0 / 64 + 0.01) == 1)
        #expect(try p.lineCount(width: w - 1.0 / 64 - 0.001) == 2)
    }

    /// docs/CHROMIUM.md §3(e): a line whose end is shaped again alone (`と` kerned against `て`
    /// in Noto Sans CJK JP: 118.0156 px alone, 117.1 kerned) is measured by its start and end
    /// positions in the shaping item, each rounded up to 1/64 px: at the item's start (the
    /// text's, or after a `pre-wrap` newline) it gets no layout unit of allowance, after four
    /// kana (118.00006 px into the item) it does. Chromium 156, DejaVu Sans 500 29.5 px, 118 px.
    @Test func reshapedLineEndIsMeasuredByItsPositionsInTheItem() throws {
        var s = TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: FontWeight(500)), size: 29.5, lineHeight: .pixels(36))
        #expect(try lineTexts("今日はとて", width: 118, s) == ["今日は", "とて"])
        #expect(try lineTexts("ああああ今日はとて", width: 118, s) == ["ああああ", "今日はと", "て"])
        #expect(try lineTexts("今日はと", width: 118, s) == ["今日はと"])
        s.whiteSpace = .preWrap
        #expect(try lineTexts("ああああ\n今日はとて", width: 118, s).map { $0.filter { $0 != "\n" } } == ["ああああ", "今日は", "とて"])
        // Noto Sans CJK TC 15 px at 60 px: `ー` is kerned against `ザ`.
        let tc = TextStyle(font: FontDescriptor(family: "Noto Sans CJK TC"), size: 15, lineHeight: .pixels(19))
        #expect(try lineTexts("とギョーザ", width: 60, tc) == ["とギョ", "ーザ"])
        #expect(try lineTexts("ラーメンとギョーザ", width: 60, tc) == ["ラーメン", "とギョー", "ザ"])
    }

    // MARK: overflow-wrap: break-word

    @Test func longWordMovesDownThenBreaksBetweenGraphemes() throws {
        // docs/CHROMIUM.md §3(d): "aa " / 9 b / 9 b / 9 b / 3 b at W = 100 (DejaVu Sans 16).
        let word = String(repeating: "b", count: 30)
        let p = try prepare("aa " + word)
        let b = p.width(of: 3..<4)
        var perLine = 0
        while fits(Double(perLine + 1) * b, in: 100) { perLine += 1 }
        var expected = ["aa"]
        var left = 30
        while left > 0 { expected.append(String(repeating: "b", count: min(perLine, left))); left -= perLine }
        #expect(perLine == 9)
        #expect(try lineTexts(p, width: 100) == expected)
    }

    @Test func tailOfABrokenWordSharesItsLineWithFollowingWords() throws {
        let word = String(repeating: "b", count: 30)
        let p = try prepare("aa " + word + " c")
        let lines = try lineTexts(p, width: 100)
        // 30 = 9 + 9 + 9 + 3; "bbb c" fits in 100 px.
        #expect(lines.last == "bbb c")
        #expect(lines.count == 5)
    }

    @Test func wordBreakingNeverSplitsAGraphemeCluster() throws {
        // e + combining acute, ten times: at any width each line holds whole clusters.
        let text = String(repeating: "e\u{301}", count: 10)
        let p = try prepare(text)
        let cluster = p.width(of: 0..<2)
        for k in 1...4 {
            let lines = try lineTexts(p, width: Double(k) * cluster)
            #expect(lines.count == (10 + k - 1) / k)
            #expect(lines.allSatisfy { $0.unicodeScalars.first == "e" && $0.unicodeScalars.last == "\u{301}" })
        }
        #expect(try lineTexts(p, width: 1).count == 10)
    }

    @Test func emojiSequencesAndFlagsNeverSplitEvenAtWidthOne() throws {
        let clusters = ["👨‍👩‍👧", "🇫🇷", "👍🏽", "1️⃣", "❤️", "🏳️‍🌈"]
        let p = try prepare(clusters.joined())
        #expect(try lineTexts(p, width: 1) == clusters)
        #expect(try lineTexts(p, width: 0) == clusters)
    }

    @Test func thaiClustersStayWholeAtWidthOne() throws {
        let p = try prepare("ป็ที่")
        #expect(try lineTexts(p, width: 1) == ["ป็", "ที่"])
    }

    // MARK: Forced breaks

    @Test func newlineForcesABreakInPreWrapOnly() throws {
        let text = "aaa\nbbb"
        #expect(try prepare(text, style(.preWrap)).lineCount(width: 1000) == 2)
        #expect(try prepare(text, style(.normal)).lineCount(width: 1000) == 1)
    }

    @Test func newlineLineDoesNotCountTheNewline() throws {
        let p = try prepare("aaa\nbbbbbb", style(.preWrap))
        let layout = try p.layout(width: 1000)
        #expect(layout.lines.map(\.width) == [p.width(of: 0..<3), p.width(of: 4..<10)])
        #expect(layout.lines[0].end == 4 && layout.lines[1].start == 4)
    }

    @Test func tabsAdvanceToTheNextMultipleOfEightSpaces() throws {
        let s = style(.preWrap)
        let space = try width("a b") - width("a") - width("b")
        let p = try prepare("a\tb", s)
        let expected = 8 * space + (try width("b"))
        #expect(abs(try p.measure(width: 1000).maxLineWidth - expected) < 0.001)
    }

    @Test func aSpaceAfterATabIsMeasuredKernedAsDrawn() throws {
        // docs/CHROMIUM.md §3(n), twelfth round: Liberation Serif kerns ` W`; after a tab the
        // space is shaped with `Wikipedia` (the tab ends the item) and Chromium counts it kerned:
        // `a\t Wikipedia` at 60 px is 381.42 px, one line at 382 px, two at 381.4 px.
        let s = TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 60, lineHeight: .pixels(70), whiteSpace: .preWrap)
        let p = try prepare("a\t Wikipedia", s)
        #expect(abs(try p.measure(width: 1000).maxLineWidth - 381.421875) < 1.0 / 64)
        #expect(try lineTexts(p, width: 382) == ["a\t Wikipedia"])
        #expect(try p.lineCount(width: 381.4) == 2)
        // The same at 6 px (38.16 px; the font's plain space made it 38.25).
        var small = s
        small.size = 6
        #expect(try prepare("a\t Wikipedia", small).lineCount(width: 38.2) == 1)
    }

    // MARK: Soft hyphen

    @Test func softHyphenIsInvisibleWhenNotBroken() throws {
        #expect(try width("aaaa\u{AD}bbbb") == (try width("aaaabbbb")))
        #expect(try lineTexts("aaaa\u{AD}bbbb", width: 1000) == ["aaaabbbb"])
    }

    @Test func breakAtSoftHyphenAddsAHyphenThatMustFit() throws {
        // docs/CHROMIUM.md §3(b): "x aaaa‐|bbbb" when ceil64(text) + ceil64(hyphen) <= W + 1/64,
        // otherwise "x |aaaa‐|bbbb".
        let p = try prepare("x aaaa\u{AD}bbbb")
        let hyphen = try width("\u{2010}")
        #expect(hyphen > 0)
        let fitting = ceil64(p.width(of: 0..<6)) + ceil64(hyphen) - 1.0 / 64
        let layout = try p.layout(width: fitting)
        #expect(try lineTexts(p, width: fitting) == ["x aaaa", "bbbb"])
        #expect(layout.lines.map(\.hyphenated) == [true, false])
        #expect(abs(layout.lines[0].width - (p.width(of: 0..<6) + hyphen)) < 1e-9, "the hyphen counts in the line width")

        let tooNarrow = fitting - 1.0 / 64
        let narrow = try p.layout(width: tooNarrow)
        #expect(try lineTexts(p, width: tooNarrow) == ["x", "aaaa", "bbbb"])
        #expect(narrow.lines.map(\.hyphenated) == [false, true, false])
    }

    @Test func softHyphenLineNeverExceedsTheWidthBecauseOfItsHyphen() throws {
        // A narrow letter before the soft hyphen: the first line would fit "aa\u{AD}i" but not
        // "aai‐"; stepping back to "aa‐" must not produce a line wider than the box either
        // (the hyphen is wider than "i").
        let p = try prepare("aa\u{AD}i\u{AD}cccc")
        let limit = p.width(of: 0..<4) // "aa" + SHY + "i"
        let hyphen = try width("\u{2010}")
        try #require(hyphen > p.width(of: 3..<4), "the test needs a hyphen wider than 'i'")
        let layout = try p.layout(width: limit)
        for (i, line) in layout.lines.enumerated() {
            let graphemes = removingSoftHyphens(layout.text(ofLine: i)).count
            #expect(fits(line.width, in: limit) || graphemes <= 1, "line \(i) '\(layout.text(ofLine: i))' is \(line.width) px in \(limit) px")
        }
    }

    @Test func hyphenMustFitWhenTheSoftHyphenEndsTheOnlySegmentOnTheLine() throws {
        // "aaaa\u{AD}bbbb" at a width where "aaaa" fits but "aaaa‐" does not: breaking at the
        // soft hyphen would need the hyphen to fit, so the line must not be "aaaa‐".
        let p = try prepare("aaaa\u{AD}bbbb")
        let hyphen = try width("\u{2010}")
        let limit = ceil64(p.width(of: 0..<4)) + ceil64(hyphen) - 2.0 / 64
        let layout = try p.layout(width: limit)
        for (i, line) in layout.lines.enumerated() {
            #expect(fits(line.width, in: limit), "line \(i) '\(layout.text(ofLine: i))' hyphenated=\(line.hyphenated) is \(line.width) px in \(limit) px")
        }
    }


    @Test func restOfAWordBrokenAfterASoftHyphenIsBrokenAgainWhenItDoesNotFit() throws {
        // Chromium 156, DejaVu Sans 16 px, 25 px, overflow-wrap: break-word: "42­jumps" is
        // "42­j | u | m | ps" — the hyphen after "42" does not fit, so the word breaks between
        // graphemes, and what is left of it ("umps", 44 px) breaks again (found by the property
        // linesFitUnlessTheyHoldOneCluster; before, "umps" stayed one overflowing line).
        let p = try prepare("42\u{AD}jumps")
        #expect(try lineTexts(p, width: 25) == ["42j", "u", "m", "ps"])
        let layout = try p.layout(width: 25)
        for (i, line) in layout.lines.enumerated() where layout.text(ofLine: i).count > 1 {
            #expect(fits(line.width, in: 25), "line \(i) '\(layout.text(ofLine: i))' is \(line.width) px")
        }
        let metrics = try TextMetrics("42\u{AD}jumps", style: style())
        #expect(try metrics.measure(width: 25).lineCount == 4)
    }

    @Test func hyphenThatDoesNotFitIsTakenFromTheSpaceBeforeBreakingTheWordAgain() throws {
        // Chromium 156, Noto Sans CJK TC Bold 12 px (`Roboto` is not installed; `lang=zh-Hant`
        // makes it the standard font), whose U+2010 is a full em: `hensi­bil` at 33 px. The
        // furthest grapheme boundary that fits is after the soft hyphen (`hensi`, 31.9 px), where
        // the hyphen does not fit; Chromium then looks again in 33 − 12 px and ends the line
        // after `he`, not after `hens` (28.3 px, which fits). At 30 px the furthest boundary is
        // after `hens` and the line ends there (docs/CHROMIUM.md §3(b); random sample
        // soft-hyphen/1328 of seed 1597787627).
        let s = TextStyle(font: FontDescriptor(family: "Roboto", weight: .bold), size: 12, lineHeight: .normal, lang: "zh-Hant")
        #expect(try lineTexts("hensi\u{AD}bil", width: 33, s) == ["he", "nsibil"])
        #expect(try lineTexts("hen\u{AD}si\u{AD}bil", width: 33, s) == ["he", "nsibil"])
        #expect(try lineTexts("hen\u{AD}si\u{AD}bil", width: 30, s) == ["hens", "ibil"])
        #expect(try lineTexts("hen\u{AD}si\u{AD}bil", width: 28, s) == ["he", "n", "sibil"])
        // A boundary kerned in the text is checked shaped alone: `grenz` is 32.9 px kerned
        // against `u` but 33.06 alone, so the break moves back to the soft hyphen, whose hyphen
        // does not fit either.
        #expect(try lineTexts("gren\u{AD}zung", width: 33, s) == ["gre", "n", "zung"])
    }

    @Test func aLineEndingAtASoftHyphenIsMeasuredWithoutTheKerningAcrossIt() throws {
        // Chromium 156, Noto Sans Italic 13.5 px: HarfBuzz kerns `r` against `d` across the
        // invisible soft hyphen of `or­di` (0.27 px), but a line ending there is shaped again
        // alone: `or‐` is 17.20 px, so at 17 and 17.2 px the line is `o` / `r­di`, not `or‐` /
        // `di` (random sample soft-hyphen/1333 of seed 914562497; docs/CHROMIUM.md §3(b)).
        let s = TextStyle(font: FontDescriptor(family: "Noto Sans", slant: .italic), size: 13.5, lineHeight: .pixels(20.25))
        #expect(try lineTexts("or\u{AD}di", width: 17, s) == ["o", "rdi"])
        #expect(try lineTexts("or\u{AD}di", width: 17.2, s) == ["o", "rdi"])
        #expect(try lineTexts("or\u{AD}di", width: 17.22, s) == ["or", "di"])
    }

    @Test func aLineEndingAfterAZeroWidthSpaceIsMeasuredWithoutTheKerningThroughIt() throws {
        // Chromium 156, Noto Sans 700 10.45 px: HarfBuzz kerns `o` against `w` through the
        // default-ignorable ZWSP of `ro\u{200B}width` (0.20 px); a line breaking after the ZWSP
        // is shaped again alone, `ro` 10.98 px, so at 10.9 px the word is split `r` / `o`
        // (random sample unicode-spaces/1287 of seed 6106; docs/CHROMIUM.md §3(n), eighteenth
        // round). Chromium keeps `ro` from 703/64 px: the reshaped end (10.993 px) gets the
        // layout unit of allowance.
        let s = TextStyle(font: FontDescriptor(family: "Noto Sans", weight: .bold), size: 10.45, lineHeight: .pixels(15.67))
        func visible(_ text: String, _ width: Double) throws -> [String] {
            try lineTexts(text, width: width, s).map { $0.filter { $0 != "\u{200B}" && $0 != " " } }
        }
        #expect(try visible("zero\u{200B}width", 10.9) == ["z", "e", "r", "o", "w", "id", "t", "h"])
        #expect(try visible("ro\u{200B}width", 10.9) == ["r", "o", "w", "id", "t", "h"])
        #expect(try visible("ro\u{200B}width", 702.0 / 64) == ["r", "o", "w", "id", "t", "h"])
        #expect(try visible("ro\u{200B}width", 703.0 / 64) == ["ro", "w", "id", "t", "h"])
        // Liberation Serif 34.52 px: `AVATAR` (R kerned against T through the ZWSP) from 8212/64.
        let serif = TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 34.52)
        #expect(try lineTexts("AVATAR\u{200B}Tower", width: 8211.0 / 64, serif).map { $0.filter { $0 != "\u{200B}" } } == ["AVATA", "RTower"])
        #expect(try lineTexts("AVATAR\u{200B}Tower", width: 8212.0 / 64, serif).map { $0.filter { $0 != "\u{200B}" } } == ["AVATAR", "Tower"])
        // The line `r` ends where kerning tied it to `o`: measured shaped alone (Chromium's box,
        // rounded up to its 1/64 px layout unit: 4.75 px).
        let layout = try prepare("ro\u{200B}width", s).layout(width: 10.9)
        #expect(((layout.lines.first?.width ?? 0) * 64).rounded(.up) / 64 == 4.75)
        // After a space nothing is kerned across the break.
        #expect(try visible("ro\u{200B} width", 10.9) == ["r", "o", "w", "id", "t", "h"])
    }

    // MARK: CJK punctuation at the line end

    @Test func closingBracketIsTrimmedAtTheLineEndButFullStopIsNot() throws {
        // docs/CHROMIUM.md §3(e): 漢漢漢」 fits in 3.5 em, 漢漢漢。 needs 4 em.
        let bracket = try prepare("漢漢漢」")
        let em = bracket.width(of: 0..<1)
        let full = bracket.width(of: 0..<4)
        let trimmed = full - bracket.width(of: 3..<4) / 2
        #expect(abs(trimmed - 3.5 * em) < 0.05)
        // The line up to `」` and the trimmed `」` are each rounded up to the 1/64 px layout
        // unit (the em is 16.00003 px here): Chromium `漢漢` / `漢」` at 56 px, one line at
        // 56.015625 (§3(e)).
        let grid = (trimmed * 64).rounded(.up) / 64
        #expect(try bracket.lineCount(width: grid) == 1)
        #expect(try bracket.lineCount(width: grid - 1.0 / 64) == 2)

        let stop = try prepare("漢漢漢。")
        let stopFull = stop.width(of: 0..<4)
        #expect(try stop.lineCount(width: stopFull - stop.width(of: 3..<4) / 2) == 2)
        #expect(try stop.lineCount(width: stopFull) == 1)
    }

    @Test func ideographicSpaceAfterASpaceDoesNotEndALineItShares() throws {
        // docs/CHROMIUM.md §3(l): `ab 　 The` (DejaVu Sans 16 px) — the U+3000 is content after
        // the space; it never ends a line that holds `ab`: at 60 px `ab ` / `　 The` (although
        // `ab 　`, 41 px, fits), at 45 px `ab ` / `　 ` / `The`, at 80 px one line.
        func texts(_ text: String, _ width: Double) throws -> [String] {
            try lineTexts(text, width: width).map { $0.filter { $0 != " " && $0 != "\u{3000}" } }
        }
        #expect(try texts("ab 　 The", 60) == ["ab", "The"])
        #expect(try lineTexts("ab 　 The", width: 60)[1].hasPrefix("　"))
        #expect(try texts("ab 　 The", 45) == ["ab", "", "The"])
        #expect(try texts("ab 　 The", 80) == ["abThe"])
        #expect(try texts("x ab 　 The", 70) == ["xab", "The"])
        #expect(try lineTexts("x ab 　 The", width: 70)[1].hasPrefix("　"))
    }

    @Test func closingBracketIsNotTrimmedAtALineEndBeforeWhiteSpace() throws {
        // docs/CHROMIUM.md §3(e): at 56.1 px `漢漢漢）漢` is `漢漢漢）` / `漢` (the bracket gives up
        // its end half), but `漢漢漢） 漢` is `漢漢` / `漢） 漢` and pre-wrap `漢漢漢）\n漢` is three
        // lines: the bracket is trimmed only when the break follows it directly.
        #expect(try lineTexts("漢漢漢）漢", width: 56.1) == ["漢漢漢）", "漢"])
        #expect(try lineTexts("漢漢漢） 漢", width: 56.1) == ["漢漢", "漢） 漢"])
        #expect(try lineTexts("漢漢漢」 a", width: 56.1) == ["漢漢", "漢」 a"])
        #expect(try lineTexts("漢漢漢）\n漢", width: 56.1, style(.preWrap)).count == 3)
        // The end of the text still trims it.
        #expect(try lineTexts("漢漢漢）", width: 56.1) == ["漢漢漢）"])
    }

    @Test func overflowWrapLineStartingAtAnUnsafeOffsetEndsBeforeTheLastGraphemeUnchecked() throws {
        // docs/CHROMIUM.md §3(d): HarfBuzz flags every cluster start of `ကကနား` (Noto Sans
        // Myanmar) after the first unsafe to break; `နား` is one cluster of three graphemes.
        // A line starting at such an offset ends before the last grapheme of the cluster that
        // reaches past the limit, even when that overflows (`နာ`, 28.7 px > 18.58 px); from a
        // safe start (`နား` alone, or after a space) the break moves back until the line fits.
        let s = style(family: "Noto Sans", size: 28)
        #expect(try lineTexts("ကနား", width: 18.58, s) == ["က", "နာ", "း"])
        #expect(try lineTexts("ကကနား", width: 55, s) == ["က", "ကနာ", "း"])
        #expect(try lineTexts("နား", width: 18.58, s) == ["န", "ာ", "း"])
        #expect(try lineTexts("က နား", width: 18.58, s).suffix(3) == ["န", "ာ", "း"])
        // A cluster of two graphemes: the break before its last one fits anyway.
        #expect(try lineTexts("ကနာ", width: 18.58, s) == ["က", "န", "ာ"])
    }

    @Test func dictionaryWordBreaksInsideAGraphemeEndAndStartLinesShapedAlone() throws {
        // docs/CHROMIUM.md §3(d), Chromium 156, DejaVu Sans Mono (→ Noto Sans Myanmar) 27.82 px
        // weight 500: ICU's dictionary ends the word `သင်္` inside the kinzi grapheme `င်္က` (one
        // HarfBuzz cluster). A line may end there (`င်္` shaped alone, 16.5 px) and the next one
        // starts with `က` shaped alone (31.3 px) — but overflow-wrap, which breaks between
        // graphemes only, keeps `င်္က` whole (at 1 px). Random sample corpus-my/0651 of seed
        // 1597787627.
        let s = TextStyle(font: FontDescriptor(family: "monospace", weight: FontWeight(500)), size: 27.82, lineHeight: .normal)
        #expect(try lineTexts("သင်္ကန်း", width: 17.64, s) == ["သ", "င်္", "က", "န်", "း"])
        #expect(try lineTexts("သင်္ကန်း", width: 30, s) == ["သ", "င်္", "က", "န်း"])
        #expect(try lineTexts("သင်္ကန်း", width: 1, s) == ["သ", "င်္က", "န်", "း"])
        #expect(try lineTexts("ပစ္စည်း", width: 1, s) == ["ပ", "စ္စ", "ည်", "း"])
    }

    @Test func anOverflowWrapLineStartingWhereKerningTiedItTakesTheKernedCandidateUnchecked() throws {
        // docs/CHROMIUM.md §3(n), twelfth round: Liberation Serif 31.2 px kerns ` V`, `VA` and
        // `AT`. `VAT` alone at 40 px is `V` / `AT` (`VA` reshaped alone is 41.03 px, too wide);
        // after `de ` the line starts where kerning tied it to the space, so Chromium reshapes
        // from there and keeps the kerned candidate `VA` unchecked (seed 3102's
        // punctuation/0924). After only white space, after `.` (no kerning) or in DejaVu Sans
        // (no ` V` kerning) nothing changes.
        let s = TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 31.2, lineHeight: .pixels(36))
        #expect(try lineTexts("VAT", width: 40, s) == ["V", "AT"])
        #expect(try lineTexts("de VAT", width: 40, s) == ["de", "VA", "T"])
        #expect(try lineTexts("de VAVA", width: 40, s) == ["de", "VA", "V", "A"])
        #expect(try lineTexts("ab.VAT", width: 40, s) == ["ab.", "V", "AT"])
        var pre = s
        pre.whiteSpace = .preWrap
        #expect(try lineTexts("x VAT", width: 40, pre) == ["x", "VA", "T"])
        #expect(try lineTexts("  VAT", width: 40, pre) == ["", "V", "AT"])  // (hanging spaces are left out)
        var dejaVu = s
        dejaVu.font = FontDescriptor(family: "DejaVu Sans")
        #expect(try lineTexts("de VAT", width: 40, dejaVu) == ["de", "V", "AT"])
        // The overflowing line is as wide as `VA` shaped alone (Chromium: 41.03125 px).
        let layout = try prepare("de VAT", s).layout(width: 40)
        #expect(abs(layout.lines[1].width - 41.03125) < 1.0 / 64)
    }

    @Test func aClosingMarkInsideAWordIsTrimmedAtAnOverflowWrapLineEnd() throws {
        // docs/CHROMIUM.md §3(n), twelfth round: `fantasy` (Liberation Serif) with `zh-Hant`
        // draws `”` in Noto Sans CJK TC, full width (21.03 px at 21.04 px). No break follows it
        // before `.`, yet an overflow-wrap split after it trims it as at a segment end:
        // `ك”.` at 30 px is `ك”` / `.` (38.38 px untrimmed, 27.9 trimmed), `漢”.` at 36.85 px
        // `漢”` / `.` (seed 3101's bidi-mixed/0105). Where it is the segment's end anyway
        // (`ك”x`) nothing changes.
        var s = TextStyle(font: FontDescriptor(family: "fantasy"), size: 21.04, lineHeight: .normal)
        s.lang = "zh-Hant"
        #expect(try lineTexts("ك”.", width: 30, s) == ["ك”", "."])
        #expect(try lineTexts("ك”.", width: 25, s) == ["ك", "”", "."])
        #expect(try lineTexts("漢”.", width: 36.85, s) == ["漢”", "."])
        #expect(try lineTexts("漢漢”.漢", width: 40, s) == ["漢", "漢”", ".漢"])
        #expect(try lineTexts("a”.", width: 25, s) == ["a”", "."])
        #expect(try lineTexts("ك”x", width: 30, s) == ["ك”", "x"])
        // Drawn as measured: the mark's blank half is dropped.
        let layout = try prepare("漢”.", s).layout(width: 36.85)
        #expect(layout.lines[0].width < 36.85)
    }

    @Test func aClosingMarkInsideAJoinedRightToLeftWordIsTrimmedAtAnOverflowWrapLineEnd() throws {
        // docs/CHROMIUM.md §3(n), 2026-11-25: a right-to-left line broken inside a joined Arabic
        // word is checked again by positions (`rightToLeftJoinedBreak`); that check counts a
        // closing mark's in-word trim too. `ui-serif` (→ Noto Sans CJK SC for zh-Hans, Arabic in
        // DejaVu Sans) 24.5 px, pre-wrap, rtl — Chromium: `الجمعة”` / `.` from 81.45 to 93.7 px
        // (the same as in an ltr paragraph), `الجمعة` / `”.` below; `كتب”` / `،` from 55.4 px.
        let s = TextStyle(font: FontDescriptor(family: "ui-serif"), size: 24.5, lineHeight: .pixels(36.75),
                          direction: .rtl, whiteSpace: .preWrap, lang: "zh-Hans")
        #expect(try lineTexts("الجمعة”.", width: 85, s) == ["الجمعة”", "."])
        #expect(try lineTexts("الجمعة”.", width: 78, s) == ["الجمعة", "”."])
        #expect(try lineTexts("كتب”،", width: 60, s) == ["كتب”", "،"])
        #expect(try lineTexts("مرحبا」.", width: 72, s) == ["مرحبا」", "."])
    }

    @Test func aKernedEndOfAnOverflowWrapLineFitsByItsRoundedPositions() throws {
        // docs/CHROMIUM.md §3(d), "A reshaped line end in a split" (2026-11-25, the sample's
        // long-word/1346, seed 31001): `r` is kerned against `e` in `conference`, so a split
        // after it reshapes `r` alone, which must fit the space after the position of `confe`
        // rounded up to the layout unit — `confer` (82.52 px alone) does not fit 5281/64 px in
        // DejaVu Sans 26 px although its width is within the layout unit of allowance.
        // Chromium at every width of a sweep.
        let dejaVu = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 26, lineHeight: .pixels(32))
        #expect(try lineTexts("conference", width: 5281 / 64, dejaVu) == ["confe", "rence"])
        #expect(try lineTexts("conference", width: 5282 / 64, dejaVu) == ["confer", "ence"])
        let noto = TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 26, lineHeight: .pixels(32))
        #expect(try lineTexts("conference", width: 78.62, noto) == ["confe", "rence"])
        #expect(try lineTexts("conference", width: 5032 / 64, noto) == ["confer", "ence"])
        // A line starting inside the shaping item: both positions are rounded from the item's
        // start (`erAV` fits at 2454/64 px in DejaVu Sans 13 px, `erAVA` does not).
        let small = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 13, lineHeight: .pixels(32))
        #expect(try lineTexts("aa preferredveteransTypewriterAVATAR", width: 2454 / 64, small)
                == ["aa", "prefe", "rredv", "etera", "nsTyp", "ewrit", "erAV", "ATAR"])
        // And the whole line so shaped must fit as well: `onfer` (45.36 px) is too wide for
        // 2901/64 px however its positions round.
        let mid = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 17.3, lineHeight: .pixels(32))
        #expect(try lineTexts("TomorrowWaveformYellowyconference", width: 2901 / 64, mid)
                == ["Tom", "orro", "wWa", "vefor", "mYell", "owyc", "onfe", "renc", "e"])
    }

    @Test func aLineWhoseStartIsKernedToTheTextBeforeItFitsByItsRoundedPositions() throws {
        // docs/CHROMIUM.md §3(a), thirty-second session (the sample's long-mixed/1116, seed 31012):
        // Liberation Serif kerns ` T`, so a line starting at `This` is shaped again up to the
        // first safe offset, and Chromium narrows the space by ceil64(`T`) minus the distance of
        // the rounded positions — two roundings. `This function` (151.0112 px, within the layout
        // unit of allowance of 151 px) keeps one line where the positions round in its favour.
        let serif = TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 28.18, lineHeight: .pixels(35))
        #expect(try lineTexts("the nineties; This function", width: 151, serif) == ["the nineties;", "This", "function"])
        #expect(try lineTexts("nineties; This function", width: 151, serif) == ["nineties;", "This function"])
        #expect(try lineTexts("abcdefghij; This function", width: 151, serif) == ["abcdefghij;", "This function"])
        // Counting alone (the re-measure path) agrees with the lines.
        let p = try prepare("the nineties; This function returns", serif)
        #expect(try p.measure(width: 151).lineCount == 4)
        #expect(try p.layout(width: 151).lines.count == 4)
        // After an overflow-wrap split too (`hilariously.` broken after `y`, kerned against `.`):
        // the paragraph of The Great Gatsby that moved the layout digest, measured in Chromium.
        let bold = TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: .bold), size: 13, lineHeight: .pixels(16))
        #expect(try lineTexts("“It’s the funniest thing, old sport,” he said hilariously. “I can’t—When I try to—”", width: 77.25, bold)
                == ["“It’s the", "funniest", "thing, old", "sport,” he", "said", "hilariously", ". “I can’t", "—When I", "try to—”"])
    }

    @Test func aClosingMarkBeforeAPreWrapTabIsNotTrimmedAtALineEnd() throws {
        // docs/CHROMIUM.md §3(e), 2026-11-25 (the sample's multiline/1478, seed 31004): as before a
        // space, the break follows the tab, not the mark, so `）` keeps its full width — the line
        // `价格：¥128（含税）` fits 220 px only trimmed (213.64 px), and with a tab after it Chromium
        // breaks before `税` (Noto Sans CJK SC 24.5 px, pre-wrap; with or without text after the tab).
        let s = TextStyle(font: FontDescriptor(family: "Noto Sans CJK SC"), size: 24.5, lineHeight: .pixels(36), whiteSpace: .preWrap)
        #expect(try lineTexts("价格：¥128（含税）", width: 220, s) == ["价格：¥128（含税）"])
        #expect(try lineTexts("价格：¥128（含税）\t", width: 220, s).first == "价格：¥128（含")
        #expect(try lineTexts("价格：¥128（含税）\tab", width: 220, s).first == "价格：¥128（含")
        #expect(try TextMetrics("价格：¥128（含税）\t", style: s).measure(width: 220).lineCount == 2)
    }

    @Test func aClosingMarkAfterHebrewKeepsItsFullWidthAtALineEnd() throws {
        // docs/CHROMIUM.md §3(e), 2026-11-25: `”` after Hebrew is shaped in the Hebrew script,
        // and HarfBuzz applies no positioning to a Hebrew run in a font whose GPOS has no Hebrew
        // script (Noto Sans CJK): `halt` does nothing, so Chromium never trims it — not at a
        // segment's end, not inside a word, not at the text's end (the sample's bidi-mixed/1290,
        // seed 29003). Same style as above; Chromium: `בסדר` / `”.` up to 81.75 px, `בסדר”` / `.`
        // from 81.77 (the mark's full 24.5 px); `בסדר.` / `”` at 82.1.
        let s = TextStyle(font: FontDescriptor(family: "ui-serif"), size: 24.5, lineHeight: .pixels(36.75),
                          direction: .rtl, whiteSpace: .preWrap, lang: "zh-Hans")
        #expect(try lineTexts("בסדר”.", width: 75, s) == ["בסדר", "”."])
        #expect(try lineTexts("בסדר”.", width: 85, s) == ["בסדר”", "."])
        #expect(try lineTexts("בסדר.”", width: 82.1, s) == ["בסדר.", "”"])
        #expect(try lineTexts("ב”.", width: 30, s) == ["ב", "”", "."])
        // The font fact behind it.
        let cjk = try FontLibrary.shared.font(for: FontDescriptor(family: "Noto Sans CJK SC"))
        #expect(cjk.hasHalfWidthPunctuation)
        #expect(!cjk.halfWidthApplies(inScript: HarfBuzz.script(of: 0x05D1)))
        for scalar: UInt32 in [0x6F22, 0x0627, 0x0061, 0x3042] { #expect(cjk.halfWidthApplies(inScript: HarfBuzz.script(of: scalar))) }
        #expect(cjk.halfWidthApplies(inScript: 0))
    }

    @Test func kernedPunctuationStartingALineIsShapedAloneWithItsOwnFallbackFont() throws {
        // docs/CHROMIUM.md §3(e): `《` after `。` (kerned by text-spacing-trim) starts a line shaped
        // alone, with font fallback from `《` itself: Noto Sans Lisu's 0.46 em `《`, so `《漢` fits
        // 37 px at 24.5 px; after `漢` (not kerned) it stays Noto Sans CJK's full em.
        let s = style(size: 24.5)
        #expect(try lineTexts("漢漢漢。《漢漢", width: 37, s) == ["漢", "漢", "漢", "。", "《漢", "漢"])
        #expect(try lineTexts("漢漢漢漢《漢漢", width: 37, s) == ["漢", "漢", "漢", "漢", "《", "漢", "漢"])
        #expect(try lineTexts("漢漢漢」《漢漢", width: 37, s) == ["漢", "漢", "漢」", "《漢", "漢"])
        // `「` after `・` is trimmed on a line but full width again at a line start (here the
        // start of an overflow-wrap line), so `「漢` no longer fits.
        #expect(try lineTexts("漢漢漢・「漢漢", width: 37, s) == ["漢", "漢", "漢", "・", "「", "漢", "漢"])
        // `》` after `。` (the full stop trimmed): a break-word line starting at `》` reshapes it.
        #expect(try lineTexts("漢漢漢。》漢漢", width: 37, s) == ["漢", "漢", "漢。", "》漢", "漢"])
        // A closing `》` trimmed to fit a line end is shaped again alone too: Lisu's `》` (11.2 px)
        // instead of half of CJK's (12.25 px), so `漢》` fits 36 px; where it fits untrimmed
        // (50 px) nothing changes; `」` stays CJK, trimmed to half.
        #expect(try lineTexts("漢》漢", width: 36, s) == ["漢》", "漢"])
        #expect(try lineTexts("漢漢》", width: 36, s) == ["漢", "漢》"])
        #expect(try lineTexts("漢」漢", width: 36.7, s) == ["漢", "」", "漢"])
        #expect(try lineTexts("漢」漢", width: 36.8, s) == ["漢」", "漢"])
        // In Japanese, fontconfig's first font for `《` is Noto Sans CJK: nothing changes.
        var ja = s
        ja.lang = "ja"
        #expect(try lineTexts("漢漢漢。《漢漢", width: 37, ja) == ["漢", "漢", "漢", "。", "《", "漢", "漢"])
    }

    @Test func cjkPunctuationPairsAreTrimmed() throws {
        // docs/CHROMIUM.md §3(e): 。「」、 = 3 em (+ FreeType rounding), 」「 = 1.5 em, 「」 = 2 em.
        let em = try width("漢")
        #expect(abs(try width("。「」、") - 3 * em) < 0.01)
        #expect(abs(try width("」「") - 1.5 * em) < 0.01)
        #expect(abs(try width("「」") - 2 * em) < 0.01)
    }

    /// Curly quotes are proportional in Noto Sans CJK's Japanese and Korean glyphs, so they
    /// trim nothing: Chromium's `告。“你` is 81.671875 px in Noto Sans CJK KR 23.5 px (3 em + a
    /// 0.47 em quote), not 3 em (`。` trimmed before `“`). With `lang=zh-Hans` the quotes are
    /// fullwidth and `。“` is 1.5 em (docs/CHROMIUM.md §3(e)).
    @Test func curlyQuotesTrimOnlyWhereTheFontDrawsThemFullwidth() throws {
        var korean = style(family: "Noto Sans CJK KR", size: 23.5)
        korean.lang = "ko"
        #expect(ceil64(try width("告。“你", korean)) == 81.671875)
        #expect(ceil64(try width("好！”", korean)) == 58.171875)
        var chinese = style(family: "Noto Sans CJK SC")
        chinese.lang = "zh-Hans"
        let em = try width("漢", chinese)
        #expect(abs(try width("。“", chinese) - 1.5 * em) < 0.05)
        #expect(abs(try width("”“", chinese) - 1.5 * em) < 0.05)
    }

    /// The classes of CJK punctuation (Chromium's `GetHanKerningCharType` and the font's glyphs).
    @Test func punctuationClassesFollowTheFontInTheContentLanguage() throws {
        let library = FontLibrary.shared
        let font = try library.font(for: FontDescriptor(family: "Noto Sans CJK JP"))
        let japanese = font.punctuationSpacing(ShapingLanguage("ja"), size: 16, synthesis: .none)
        #expect(japanese.enabled && japanese.dot == .close && !japanese.quotesFullwidth)
        let simplified = font.punctuationSpacing(ShapingLanguage("zh-Hans"), size: 16, synthesis: .none)
        #expect(simplified.dot == .close && simplified.quotesFullwidth)
        let traditional = font.punctuationSpacing(ShapingLanguage("zh-Hant"), size: 16, synthesis: .none)
        #expect(traditional.dot != .close && traditional.quotesFullwidth)
        let latin = try library.font(for: FontDescriptor(family: "DejaVu Sans"))
        #expect(latin.punctuationSpacing(.none, size: 16, synthesis: .none) == .none)
        #expect(CJKPunctuation.kind(0x300C, in: japanese) == .open)
        #expect(CJKPunctuation.kind(0x0028, in: japanese) == .openNarrow)
        #expect(CJKPunctuation.kind(0xFF09, in: japanese) == .close)
        #expect(CJKPunctuation.kind(0xFF62, in: japanese) == .openNarrow)
        #expect(CJKPunctuation.kind(0x3000, in: japanese) == .middle)
        #expect(CJKPunctuation.kind(0xFF01, in: japanese) == .other)
        #expect(CJKPunctuation.kind(0x201C, in: japanese) == .openNarrow)
        #expect(CJKPunctuation.kind(0x201C, in: simplified) == .open)
    }

    /// Chromium shapes script runs apart, with spaces and punctuation in the run before them:
    /// Liberation Serif Bold kerns ` T` (`— T` alone), but after Hebrew the space belongs to
    /// the Hebrew run and is not kerned with the `T` (measured 89.53125 px, docs/CHROMIUM.md §1).
    @Test func textIsNotShapedAcrossAScriptChange() throws {
        var bold = style(family: "Liberation Serif", size: 24)
        bold.font = FontDescriptor(family: "Liberation Serif", weight: .bold)
        #expect(ceil64(try width("היום— T", bold)) == 89.53125)
        #expect(ceil64(try width("— Typography is", bold)) == 176.5)
    }

    @Test func commonScriptWordTakesTheScriptOfTheTextAroundIt() throws {
        // docs/CHROMIUM.md §1 "Script runs": Noto Sans CJK SC's `—` is 1 em shaped as Latin or
        // Han but 0.89 em as Common. A `—` shaped alone after a space (word by word) still takes
        // the script before it, else the one after it (Chromium 156, 34.5 px).
        var s = style(family: "Noto Sans CJK SC", size: 34.5)
        s.lang = "zh-Hans"
        #expect(ceil64(try width("—", s)) == 30.84375)
        #expect(ceil64(try width("x —", s)) == 59.421875)
        #expect(ceil64(try width("— x", s)) == 59.421875)
        #expect(ceil64(try width("漢 —", s)) == 76.734375)
        #expect(ceil64(try width("1 —", s)) == 57.71875)
        #expect(ceil64(try width("x — 1", s)) == 86.296875)
        // The same text in one paragraph after another: the word cache must not reuse `—`.
        #expect(ceil64(try width("x —", s)) == 59.421875)
    }

    @Test func emojiAfterKhmerTakesKhmerScriptAndBitmapGlyphsAdvanceOneByOne() throws {
        // docs/CHROMIUM.md §1: an emoji sequence is Common; after Khmer it is shaped as Khmer,
        // which does not ligate the ZWJ family (three emoji), each glyph a whole strike advance
        // (DejaVu Sans 16 px, Chromium 156). After Latin it stays one glyph.
        #expect(ceil64(try width("ខ្មែរ👨‍👩‍👧")) == 79.28125)
        #expect(ceil64(try width("ខ 1️⃣")) == 55.1875)
        #expect(ceil64(try width("a 👨‍👩‍👧")) == 34.859375)
    }

    /// Fonts are made at the size Chromium's font cache keeps, in hundredths truncated from a
    /// float product: an em dash (one em in Liberation Serif) is 19.953125 px at 19.97 px (a 19.96 px
    /// font), 20.28125 px at 20.3 px, but 19.984375 px at 19.99 px (measured, docs/CHROMIUM.md §1).
    @Test func fractionalSizesUseTheFontCacheSize() throws {
        for (size, em) in [(19.97, 19.953125), (20.3, 20.28125), (19.99, 19.984375), (10.3, 10.296875)] {
            #expect(ceil64(try width("—", style(family: "Liberation Serif", size: size))) == em, "\(size) px")
        }
    }

    // MARK: Widths

    @Test func infiniteWidthGivesOneLinePerParagraph() throws {
        let long = Array(repeating: "word", count: 500).joined(separator: " ")
        #expect(try prepare(long).lineCount(width: .infinity) == 1)
        #expect(try prepare("a\nb\nc", style(.preWrap)).lineCount(width: .infinity) == 3)
        let layout = try prepare(long).layout(width: .infinity)
        #expect(layout.lines[0].width == (try prepare(long)).width(of: 0..<long.utf16.count))
    }

    @Test func zeroWidthPutsEachWordOnItsOwnLine() throws {
        #expect(try lineTexts("a b c", width: 0) == ["a", "b", "c"])
    }

    @Test func spaceBeforeATabHangsInPreWrap() throws {
        // pre-wrap "a \t漢字" at 20 px: the first line is "a \t" and its trailing white space
        // (space and tab) hangs, so the line is as wide as "a".
        let p = try prepare("a \t漢字", style(.preWrap))
        let layout = try p.layout(width: 20)
        #expect(layout.text(ofLine: 0) == "a")
        #expect(layout.lines[0].width == p.width(of: 0..<1))
        // Leading " \t" before an ideograph: a line holding only white space has no width.
        let blank = try prepare(" \t漢", style(.preWrap)).layout(width: 6)
        #expect(blank.lines[0].width == 0)
    }
}
