import Testing
@testable import RowKitText

/// Break opportunities (Prepare/BreakOpportunities.swift and the ICU analysis behind it), checked
/// through layout with `observedBreaks`. Expectations are the `|` notation of
/// docs/CHROMIUM.md §3.
@Suite struct BreakRulesTests {
    // MARK: Reused arrays

    /// `BreakOpportunities.find` into reused arrays gives what it gives into fresh ones, text
    /// after text (long then short, newlines forced, a newline at the end, languages with
    /// rules of their own), whatever the arrays held before.
    @Test func findingIntoReusedArraysGivesTheFreshAnswer() throws {
        let texts = ["a long line of words, with “quotes” and — dashes —\nand a second line", "ab", "x\n", "\n", "漢字、かな。「引用」",
                     "ภาษาไทยไม่มีช่องว่าง ระหว่างคำ", "مرحبا بالعالم\n", "e\u{301} a\u{200D}b", "-123 ‐abc", "word"]
        var icu: [Int32] = [], ends: [Int32] = [], mandatory: [UInt8] = []
        for language in [nil, "ja", "zh"] as [String?] {
            for text in texts + texts.reversed() {
                let units = Array(text.utf16)
                try units.withUnsafeBufferPointer { (u) throws(TextError) in
                    var freshICU: [Int32] = []
                    let fresh = try BreakOpportunities.find(u, language: language, icu: &freshICU)
                    try BreakOpportunities.find(u, language: language, icu: &icu, ends: &ends, mandatory: &mandatory)
                    #expect(ends == fresh.ends, "\(text.debugDescription) \(language ?? "-")")
                    #expect(mandatory == fresh.mandatory, "\(text.debugDescription) \(language ?? "-")")
                    #expect(icu == freshICU, "\(text.debugDescription) \(language ?? "-")")
                    let (icuEnds, icuMandatory) = try UnicodeAnalysis.lineBreaks(u, language: language)
                    #expect(icuEnds == freshICU)
                    #expect(icuMandatory == icuEnds.map { units[Int($0) - 1] == 0x0A ? 1 : 0 })
                }
            }
        }
    }

    // MARK: Spaces

    @Test func breaksAfterEverySpace() throws {
        try expectBreaks("aaa |bbb |ccc")
    }

    /// Chromium breaks after a space even before `!` or `)`, where UAX #14 (LB13) would not.
    @Test func breaksAfterSpaceBeforeExclamationAndClosingParenthesis() throws {
        try expectBreaks("aaa |!bbb")
        try expectBreaks("aaa |)bbb")
        try expectBreaks("hello |! |world")
    }

    // MARK: No-break characters

    @Test func noBreakAroundNoBreakSpace() throws {
        try expectBreaks("aaa |bbb\u{A0}ccc |ddd")
        try expectBreaks("aaa |bbb\u{202F}ccc")
        try expectBreaks("aaa |bbb\u{2060}ccc")
    }

    @Test func noBreakSpaceMovesAsAUnit() throws {
        // "bbb ccc" (joined by NBSP) must move down whole even though "aaa bbb" alone would fit.
        let p = try prepare("aaa bbb\u{A0}ccc")
        let w = p.width(of: 0..<7) // "aaa bbb"
        #expect(try lineTexts(p, width: w) == ["aaa", "bbb\u{A0}ccc"])
    }

    @Test func zeroWidthSpaceIsABreakOpportunity() throws {
        let p = try prepare("aaa\u{200B}aaa")
        #expect(try lineTexts(p, width: p.width(of: 0..<3)) == ["aaa\u{200B}", "aaa"])
    }

    // MARK: URLs and ASCII punctuation (Chromium's ASCII table)

    @Test func urlBreaksOnlyAfterQuestionMarkAndHyphen() throws {
        try expectBreaks("https://example.com/a/b?|c=d&e=f#g-|h_i.j")
        try expectBreaks("www.example.org/path/to-|file.html")
    }

    /// Chromium 156, DejaVu Sans 16 px at 60 px: after overflow-wrap splits `aaaaaaaaaaaa-…`
    /// before the `-`, the break opportunity after it is looked for again from the line start,
    /// with nothing before it: a `-` before a digit (a break only after a letter or digit) and a
    /// word-initial hyphen before a letter (UAX #14 LB20a) no longer allow one. The random
    /// samples' `rowkit-1.0.0.tar.gz` lines (url/0448, url/1111 of seed 31337).
    @Test func overflowWrapLineStartSeesNoContextBeforeIt() throws {
        let cases: [(String, [String])] = [
            ("aaaaaaaaaaaa-1234567", ["aaaaaa", "aaaaaa", "-12345", "67"]),
            ("aaaaaaaaaaaa-1.0.0.tar", ["aaaaaa", "aaaaaa", "-1.0.0.t", "ar"]),
            ("aaaaaaaaaaaa\u{2010}αβγδεζηθ", ["aaaaaa", "aaaaaa", "\u{2010}αβγδε", "ζηθ"]),
            ("aaaaaaaaaaaa\u{2013}abcdefgh", ["aaaaaa", "aaaaaa", "\u{2013}abcde", "fgh"]),
            // Still a break: `-` before a letter (Chromium's table), a hyphen before a digit,
            // an em dash.
            ("aaaaaaaaaaaa-abcdefg", ["aaaaaa", "aaaaaa", "-", "abcdef", "g"]),
            ("aaaaaaaaaaaa\u{2010}12345678", ["aaaaaa", "aaaaaa", "\u{2010}", "12345", "678"]),
            ("aaaaaaaaaaaa\u{2014}αβγδεζηθ", ["aaaaaa", "aaaaaa", "\u{2014}", "αβγδεζ", "ηθ"]),
        ]
        for (text, lines) in cases {
            #expect(try lineTexts(text, width: 60) == lines, "\(text)")
        }
    }

    /// UAX #14 LB20a as Chromium's ICU has it (DejaVu Sans 16 px at 30 px): a hyphen after a
    /// space does not break from the letter after it, also for the en and figure dashes, the
    /// Armenian hyphen and U+2E17 and before Hebrew letters (the system's ICU glues only `-`
    /// and U+2010, and not before Hebrew); after a letter, or before a digit, it still breaks.
    @Test func wordInitialHyphenStaysWithTheLetterAfterIt() throws {
        try expectBreaks("aa |\u{2013}αβγ")
        try expectBreaks("aa |\u{2012}αβγ")
        try expectBreaks("aa |\u{58A}αβγ")
        try expectBreaks("aa |\u{2010}עבר")
        try expectBreaks("aa |\u{2013}abc")
        try expectBreaks("aa |x\u{2013}|αβγ")
        try expectBreaks("aa |\u{2013}|123")
        #expect(try lineTexts("aa \u{2013}abc", width: 30) == ["aa", "\u{2013}ab", "c"])
    }

    /// The Khmer repetition sign U+17D7 stays with the word before it in Chromium (its ICU; the
    /// system's dictionary ends a word before it): DejaVu Serif Condensed 38.5 px at 120 px
    /// (→ Noto Sans Khmer), `សត្វតូចៗដូចជា` is `សត្វ` / `តូចៗ` / `ដូចជា`; after a space it starts
    /// a line as before. The sample's corpus-km/1415 (seed 1541130422).
    @Test func khmerRepetitionSignStaysWithItsWord() throws {
        let s = TextStyle(font: FontDescriptor(family: "DejaVu Serif Condensed"), size: 38.5, lineHeight: .pixels(50))
        #expect(try lineTexts("សត្វតូចៗដូចជា", width: 120, s) == ["សត្វ", "តូចៗ", "ដូចជា"])
        #expect(try lineTexts("សត្វតូច ៗ ដូចជា", width: 120, s).map { $0.filter { $0 != " " } } == ["សត្វតូច", "ៗដូចជា"])
    }

    /// A soft hyphen inside an Arabic word is transparent to joining: taken by the primary font
    /// (Liberation Sans Bold for Helvetica) between letters DejaVu Sans draws, it leaves them
    /// joined, as Chromium shapes them with the paragraph as context (21.91 px: `بكم\u{AD}في`
    /// is 60.20 px like `بكمفي`, RowKit had 61.52 with a final `م`); so the sample's controls/0889
    /// (seed 5555) is one line at 210 px.
    @Test func softHyphenInsideAnArabicWordKeepsItJoined() throws {
        let s = TextStyle(font: FontDescriptor(family: "Helvetica, Arial, sans-serif", weight: FontWeight(700)), size: 21.91,
                          lineHeight: .pixels(27), whiteSpace: .preWrap)
        #expect(try width("بكم\u{AD}في", s) == width("بكمفي", s))
        #expect(try lineTexts("مرحبا\u{200B}بكم\u{AD}في موقعنا An\u{2060}", width: 210, s).count == 1)
    }

    /// A soft hyphen that ends the text, or a forced line, must fit with its hyphen, which is not
    /// drawn (Chromium 156, DejaVu Sans 16 px: `er\u{AD}` is 16.42 px, the hyphen 5.78): at 18 px
    /// `e` / `r\u{AD}`, at 30 px one line; in `pre-wrap` before a newline the same. The sample's
    /// controls/1104 (seed 5555).
    @Test func softHyphenEndingTheTextFitsWithItsHyphen() throws {
        #expect(try lineTexts("er\u{AD}", width: 18) == ["e", "r"])
        #expect(try lineTexts("er\u{AD}", width: 30) == ["er"])
        #expect(try lineTexts("er", width: 18) == ["er"])
        #expect(try lineTexts("er\u{AD}\nab", width: 18, style(.preWrap)).map { $0.filter { $0 != "\n" } } == ["e", "r", "a", "b"])
        let p = try prepare("er\u{AD}")
        #expect(try p.layout(width: 30).lines[0].hyphenated == false)
        // The measuring form's one-line shortcut does not skip the rule.
        #expect(try p.measure(width: 18).lineCount == 2)
        #expect(try TextMetrics("er\u{AD}", style: style()).measure(width: 18).lineCount == 2)
    }

    /// When the text's last grapheme fits but not with the hyphen of the soft hyphen ending the
    /// text, the soft hyphen makes a line of its own, an empty line that counts (Chromium 156,
    /// DejaVu Sans 16 px: `r\u{AD}` is two lines from 6.58 px, `r`, to 12.33 px, one from 12.36,
    /// `r‐`); two soft hyphens stay together. The sample's controls/0555 (seed 31001).
    @Test func softHyphenEndingTheTextMakesALineOfItsOwnWhenItsHyphenDoesNotFit() throws {
        #expect(try lineTexts("r\u{AD}", width: 10) == ["r", ""])
        #expect(try lineTexts("r\u{AD}", width: 13) == ["r"])
        #expect(try lineTexts("mmr\u{AD}", width: 12) == ["m", "m", "r", ""])
        #expect(try lineTexts("abc\u{AD}\u{AD}", width: 5) == ["a", "b", "c", ""])
        #expect(try lineTexts("r\u{AD}\nab", width: 10, style(.preWrap)).map { $0.filter { $0 != "\n" } } == ["r", "", "a", "b"])
        #expect(try TextMetrics("r\u{AD}", style: style()).measure(width: 10).lineCount == 2)
    }

    /// A soft hyphen that starts a line after an overflow-wrap split is a break opportunity like
    /// any other, taken before the word is split between graphemes (Chromium 156, Liberation Sans
    /// 100 38 px at 21 px: `l\u{AD}i\u{AD}ty` is `l` / `‐` / `it` / `y` — `l‐` and `i‐`, 21.11 px,
    /// do not fit, the hyphen alone, 12.66, does; the sample's soft-hyphen/0395 of seed 7001).
    @Test func softHyphenStartingALineAfterAnOverflowSplitIsABreak() throws {
        let s = TextStyle(font: FontDescriptor(family: "Liberation Sans", weight: FontWeight(100)), size: 38, lineHeight: .pixels(48))
        let p = try prepare("l\u{AD}i\u{AD}ty", s)
        #expect(try lineTexts(p, width: 21) == ["l", "", "it", "y"])
        #expect(try p.layout(width: 21).lines[1].hyphenated)
        #expect(try TextMetrics("l\u{AD}i\u{AD}ty", style: s).measure(width: 21).lineCount == 4)
        // Neighbours that agreed before: the rest fits whole; a single soft hyphen.
        #expect(try lineTexts("l\u{AD}i\u{AD}t", width: 21, s) == ["l", "it"])
        #expect(try lineTexts("l\u{AD}put\u{AD}er", width: 21, s) == ["l", "", "p", "u", "t", "", "e", "r"])
    }

    @Test func verticalTabAndFormFeedAreNoBreakOpportunity() throws {
        // Chromium 156, Liberation Serif 500 14 px, 40 px: UAX #14 makes VT and FF mandatory
        // breaks, Chromium no break at all, whatever surrounds them: `ééé\u{C}éééééé` is
        // `ééééé` / `éééé` (overflow-wrap through the FF), also with VT and in pre-wrap (VT);
        // the sample's controls/0154 (seed 1928040167) had an FF between Arabic words.
        let s = TextStyle(font: FontDescriptor(family: "Liberation Serif", weight: FontWeight(500)), size: 14, lineHeight: .pixels(18))
        var pre = s
        pre.whiteSpace = .preWrap
        for (control, style) in [("\u{B}", s), ("\u{C}", s), ("\u{B}", pre)] {
            let lines = try lineTexts("ééé\(control)éééééé", width: 40, style).map { $0.filter { !$0.isASCII } }
            #expect(lines == ["ééééé", "éééé"], "\(control.unicodeScalars.first!.value) \(style.whiteSpace)")
        }
        #expect(try lineTexts("abc\u{C}éééééé", width: 40, s).map { $0.filter { $0 != "\u{C}" } } == ["abcéé", "éééé"])
    }

    @Test func hyphenBreaks() throws {
        try expectBreaks("foo-|bar")
        try expectBreaks("ABCD-|1234")
        // A minus sign (hyphen after a space, before a digit) does not open a break.
        try expectBreaks("a |-1234")
    }

    @Test func emDashBreaksOnBothSides() throws {
        try expectBreaks("foo|—|bar")
    }

    @Test(arguments: ["foo/bar", "(foo)bar", "foo.bar", "foo,bar", "foo:bar", "10%", "$10", "a+b", "a=b", "a&b", "a_b", "a#b"])
    func noBreakInsideASCIIPunctuation(_ text: String) throws {
        try expectBreaks(text)
    }

    // MARK: CJK, Korean, Thai

    @Test func cjkBreaksBetweenIdeographsButNotAroundPunctuation() throws {
        // Never before 、。」）！？, never after 「（ (docs/CHROMIUM.md §3e).
        try expectBreaks("漢|字、|漢|字。|「漢|字」|（漢）|漢|字！|漢？")
    }

    @Test func cjkLineBreakNormalAllowsBreakBeforeSmallKanaAndProlongedSoundMark() throws {
        try expectBreaks("カ|ー|テ|ン|ァ|ィ|ゥ|ャ|ュ|ョ|ッ|ー々ゝ〜|あ|ぁ")
    }

    @Test func cjkMixedWithLatin() throws {
        try expectBreaks("日|本|語|English|日|本|語 |text |漢|字|123|漢|字")
    }

    @Test func cjkWrapsAtIdeographs() throws {
        // Five ideographs, room for exactly two: 2 + 2 + 1.
        let p = try prepare("漢字漢字漢")
        let two = p.width(of: 0..<2)
        #expect(try lineTexts(p, width: two) == ["漢字", "漢字", "漢"])
    }

    @Test func cjkNeverStartsALineWithAClosingMark() throws {
        // "漢字。" does not fit after "漢"? Then "字。" moves as a unit: the line never starts with "。".
        let p = try prepare("漢字。漢")
        let w = p.width(of: 0..<2) // room for 漢字 but not 漢字。
        let lines = try lineTexts(p, width: w)
        #expect(lines.allSatisfy { !$0.hasPrefix("。") })
        #expect(lines.first == "漢")
    }

    @Test func koreanBreaksBetweenSyllables() throws {
        try expectBreaks("한|국|어 |텍|스|트")
    }

    @Test func thaiBreaksAtDictionaryWordBoundaries() throws {
        try expectBreaks("ภาษา|ไทย|เป็น|ภาษา|ที่|สวยงาม")
    }

    // MARK: Emoji

    @Test func emojiBreaksBetweenClustersNotInside() throws {
        try expectBreaks("👨‍👩‍👧|👨‍👩‍👧|🇫🇷|🇩🇪|😀|😀|👍🏽|👍🏽")
    }

    @Test func keycapsBehaveLikeDigits() throws {
        try expectBreaks("1️⃣1️⃣")
    }

    // MARK: Opening brackets after punctuation (ASCII table)

    @Test func breakBeforeOpeningBracketAfterClosingPunctuation() throws {
        // The table allows a break before ( < [ { after ! " # % & ) * + , . : ; = > \ ] | } ~.
        try expectBreaks("a)|(b")
        try expectBreaks("a,|[b")
    }
}
