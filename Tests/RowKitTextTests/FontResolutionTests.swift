import Testing
@testable import RowKitText

/// Font resolution as Chromium on Linux does it (Fonts/FamilyList.swift, BrowserSettings.swift,
/// FontLibrary.swift, FontFallback.swift, FontSynthesis.swift; docs/CHROMIUM.md §2). Every
/// expected font and width here was read from headless Chromium (DevTools
/// `CSS.getPlatformFontsForNode`, `getBoundingClientRect`) on the fonts scripts/setup.sh installs.
@Suite struct FontResolutionTests {
    @Test func aListEndingInMonospaceHasNoLastResortForANul() throws {
        // docs/CHROMIUM.md §3(n), twelfth round: Chromium's last-resort font is fontconfig's for
        // the list's last generic; `monospace` is DejaVu Sans Mono, which has no U+0000, so a
        // NUL is the primary's .notdef (6.93 px at 11.5 px; seed 2026's controls/0777), not Noto
        // Sans's empty `.null` — also after other families. A list without a generic, or whose
        // last generic is another, keeps the empty NUL (measured in the eighth round).
        func nul(_ family: String) throws -> Double {
            let s = TextStyle(font: FontDescriptor(family: family), size: 11.5, lineHeight: .pixels(19), whiteSpace: .preWrap)
            let p = try PreparedText("a\u{0}b", style: s)
            return p.width(of: 1..<2)
        }
        #expect(abs(try nul("monospace") - 6.93) < 0.01)
        #expect(abs(try nul("Foo, monospace") - 6.93) < 0.01)
        #expect(try nul("'DejaVu Sans', monospace") > 6)
        #expect(try nul("'DejaVu Sans Mono'") == 0)
        #expect(try nul("'DejaVu Sans', monospace, serif") == 0)
    }

    /// The file name and family of the font each run of `text` is shaped with.
    static func fonts(_ text: String, family: String, weight: Int = 400, slant: FontSlant = .normal,
                      lang: String? = nil, size: Double = 16) throws -> [String] {
        let style = TextStyle(font: FontDescriptor(family: family, weight: FontWeight(weight), slant: slant), size: size, lang: lang)
        return try PreparedText(text, style: style).runs.map { run in
            "\(run.font.path.split(separator: "/").last ?? "")|\(run.font.family)"
        }
    }

    static func primary(_ family: String, weight: Int = 400, slant: FontSlant = .normal, lang: String? = nil) throws -> String {
        let font = try FontLibrary.shared.primaryFont(for: TextStyle(font: FontDescriptor(family: family, weight: FontWeight(weight), slant: slant), lang: lang))
        return "\(font.path.split(separator: "/").last ?? "")|\(font.family)"
    }

    @Test(arguments: [
        ("serif", "LiberationSerif-Regular.ttf"),
        ("sans-serif", "LiberationSans-Regular.ttf"),
        ("monospace", "DejaVuSansMono.ttf"),
        ("cursive", "LiberationSerif-Regular.ttf"),
        ("fantasy", "LiberationSerif-Regular.ttf"),
        ("system-ui", "NotoSans-Regular.ttf"),
        ("ui-serif", "LiberationSerif-Regular.ttf"),
        ("ui-sans-serif", "LiberationSerif-Regular.ttf"),
        ("ui-monospace", "LiberationSerif-Regular.ttf"),
        ("\"Noto Sans Mono\"", "LiberationSerif-Regular.ttf"),
        ("Foo, \"Bar Baz\", sans-serif", "LiberationSans-Regular.ttf"),
        ("Foo, monospace", "DejaVuSansMono.ttf"),
        ("\"Noto Sans Mono\", serif", "LiberationSerif-Regular.ttf"),
        ("Arial", "LiberationSans-Regular.ttf"),
        ("Helvetica", "LiberationSans-Regular.ttf"),
        ("\"Times New Roman\"", "LiberationSerif-Regular.ttf"),
        ("Courier", "LiberationMono-Regular.ttf"),
        ("\"Liberation Sans Narrow\"", "LiberationSansNarrow-Regular.ttf"),
        ("DejaVu Sans Condensed", "DejaVuSansCondensed.ttf"),
    ])
    func familiesResolveAsChromiumResolvesThem(_ family: String, _ file: String) throws {
        #expect(try Self.primary(family).hasPrefix(file + "|"), "\(family)")
    }

    @Test func weightsAndSlantsPickTheNearestFace() throws {
        #expect(try Self.primary("DejaVu Sans", weight: 300).hasPrefix("DejaVuSans-ExtraLight.ttf|"))
        #expect(try Self.primary("DejaVu Sans", weight: 500).hasPrefix("DejaVuSans.ttf|"))
        #expect(try Self.primary("DejaVu Sans", weight: 600).hasPrefix("DejaVuSans-Bold.ttf|"))
        #expect(try Self.primary("DejaVu Sans", slant: .italic).hasPrefix("DejaVuSans-Oblique.ttf|"))
        #expect(try Self.primary("Noto Sans", slant: .oblique).hasPrefix("NotoSans-Italic.ttf|"))
        #expect(try Self.primary("Noto Sans", weight: 900).hasPrefix("NotoSans-Bold.ttf|"))
    }

    @Test func theContentLanguagePicksTheCJKFont() throws {
        #expect(try Self.fonts("漢字", family: "serif", lang: "ja") == ["NotoSerifCJK-Regular.ttc|Noto Serif CJK JP"])
        #expect(try Self.fonts("漢字", family: "sans-serif", lang: "zh-Hant") == ["NotoSansCJK-Regular.ttc|Noto Sans CJK TC"])
        #expect(try Self.fonts("漢字", family: "sans-serif", lang: "ko") == ["NotoSansCJK-Regular.ttc|Noto Sans CJK KR"])
        #expect(try Self.fonts("漢字", family: "DejaVu Sans", lang: "zh-Hans") == ["NotoSansCJK-Regular.ttc|Noto Sans CJK SC"])
        #expect(try Self.fonts("漢字", family: "DejaVu Sans") == ["NotoSansCJK-Regular.ttc|Noto Sans CJK JP"])
    }

    @Test func chineseIsDisambiguatedForHanIdeographsOnly() throws {
        // Verdana (not installed) bold at 17.67 px: the primary is Noto Sans CJK SC/TC/JP, which
        // has `x` but not U+0305. Chromium asks fontconfig for `x` with the content language as
        // written: "zh-hans" is a tag no fontconfig rule knows, so it answers Noto Sans, which
        // renders `x̅` (9.34 px, Noto Sans Regular's `x`); zh-CN, zh-TW and zh-HK answer a CJK font
        // again, and the cluster falls to the last resort, Noto Sans Bold (10.22 px). Measured
        // (seed 3104's combining/0107). Han ideographs keep the disambiguated Chinese (SC, TC).
        func width(_ lang: String) throws -> Double {
            let style = TextStyle(font: FontDescriptor(family: "Verdana", weight: .bold), size: 17.67, lang: lang)
            return (try PreparedText("x\u{305}", style: style).layout(width: 10_000).maxLineWidth * 64).rounded(.up) / 64
        }
        for lang in ["zh-Hans", "zh-Hant", "zh", "zh-Hans-CN", "zh-Hant-TW", "yue", "ja-JP", "ko-KR"] {
            #expect(try width(lang) == 9.34375, "\(lang)")
        }
        for lang in ["zh-CN", "zh-TW", "zh-HK", "zh-SG"] {
            #expect(try width(lang) == 10.21875, "\(lang)")
        }
        #expect(try Self.fonts("漢字", family: "Verdana", lang: "zh-Hans") == ["NotoSansCJK-Regular.ttc|Noto Sans CJK SC"])
        #expect(try Self.fonts("漢字", family: "Verdana", lang: "zh-Hant") == ["NotoSansCJK-Regular.ttc|Noto Sans CJK TC"])
    }

    /// Width of `text` on one line, in Chromium's layout units (rounded up to 1/64 px).
    static func width(_ text: String, family: String, weight: Int = 400, size: Double = 16) throws -> Double {
        let style = TextStyle(font: FontDescriptor(family: family, weight: FontWeight(weight)), size: size)
        return (try PreparedText(text, style: style).layout(width: 10_000).maxLineWidth * 64).rounded(.up) / 64
    }

    @Test func coverageIsDecidedByShaping() throws {
        // Noto Sans has no ≠ in its character map, but HarfBuzz decomposes it to "=" and the
        // combining long solidus overlay, which it has: Chromium keeps Noto Sans (16 glyphs).
        let notEqual = try Self.width("≠≠≠≠≠≠≠≠", family: "Noto Sans")
        #expect(abs(notEqual - 73.21875) < 1e-9, "\(notEqual)")
        #expect(try Self.fonts("≠≠≠≠≠≠≠≠", family: "Noto Sans") == ["NotoSans-Regular.ttf|Noto Sans"])
    }

    @Test func boldFallsBackToTheFamilysNormalWeightFirst() throws {
        // DejaVu Serif Bold lacks the double-struck letters; DejaVu Serif (regular) has them and
        // takes them before any system font, drawn with synthetic bold.
        #expect(abs(try Self.width("𝔸ℕ𝔸ℕ", family: "DejaVu Serif", weight: 700) - 54.078125) < 1e-9)
        let style = TextStyle(font: FontDescriptor(family: "DejaVu Serif", weight: .bold), size: 16)
        let run = try #require(try PreparedText("𝔸", style: style).runs.first)
        #expect(run.font.path.hasSuffix("DejaVuSerif.ttf"))
        #expect(FontLibrary.shared.synthesis(for: run.font, style: style) == FontSynthesis(bold: true, italic: false))
    }

    @Test(arguments: ["Helvetica", "Times", "Courier"])
    func theNormalWeightFallbackTakesTheAlternateName(_ family: String) throws {
        // "Helvetica" bold is Liberation Sans Bold through its alternate name Arial; its normal
        // weight is found the same way (Liberation Sans Regular). That font has `x` but not
        // U+0301, so the cluster `x\u{301}` stays a hole and goes to the last-resort font at the
        // style's weight, Noto Sans Bold: Chromium 10.797 px at 18.67 px. Without the alternate
        // name no normal-weight font is found, the system font for `x` (Noto Sans Regular)
        // takes it: 9.875 px.
        let size = 18.67
        #expect(abs(try Self.width("x\u{301}", family: family, weight: 700, size: size) - 10.796875) < 1e-9)
        #expect(abs(try Self.width("e\u{301}\u{301}", family: family, weight: 700, size: size) - 11.03125) < 1e-9)
        #expect(try Self.fonts("x\u{301}", family: family, weight: 700) == ["NotoSans-Bold.ttf|Noto Sans"])
    }

    @Test func syntheticBoldAndItalicFollowChromiumsRules() throws {
        let library = FontLibrary.shared
        func synthesis(_ text: String, family: String = "DejaVu Sans", weight: Int, slant: FontSlant = .normal) throws -> [FontSynthesis] {
            let style = TextStyle(font: FontDescriptor(family: family, weight: FontWeight(weight), slant: slant), size: 16)
            return try PreparedText(text, style: style).runs.map { library.synthesis(for: $0.font, style: style) }
        }
        // The family has bold and oblique faces: nothing to fake.
        #expect(try synthesis("Ab", weight: 700) == [.none])
        #expect(try synthesis("Ab", weight: 400, slant: .italic) == [.none])
        // 500 asks for more than 200 above DejaVu Sans ExtraLight? No: 500 picks the regular face.
        #expect(try synthesis("Ab", weight: 500) == [.none])
        // Thai and Han come from system fallback fonts with a regular face only: faked (Chromium
        // draws Noto Sans Thai Regular and Noto Sans CJK JP Regular emboldened or slanted).
        #expect(try synthesis("สวัสดี", weight: 700) == [FontSynthesis(bold: true, italic: false)])
        #expect(try synthesis("你好", weight: 700) == [FontSynthesis(bold: true, italic: false)])
        #expect(try synthesis("สวัสดี", weight: 400, slant: .italic) == [FontSynthesis(bold: false, italic: true)])
        #expect(try synthesis("สวัสดี", weight: 600, slant: .oblique) == [FontSynthesis(bold: true, italic: true)])
        // Color emoji are never faked.
        #expect(try synthesis("👍🏽", family: "Noto Sans", weight: 700, slant: .italic) == [.none])
    }

    /// Fallback fonts are planned per bidi run (Chromium's shaping items end at direction
    /// changes): in LTR the NEL and the VT of `\u{85}the\u{B}receipt in case` are holes of one
    /// run whose hint, U+0085, gets Noto Sans Symbols2, which draws the VT with no width; in RTL
    /// the NEL is a run of its own and the VT shows the primary's .notdef (docs/CHROMIUM.md §2.6).
    @Test func fallbackIsPlannedPerBidiRun() throws {
        let text = "\u{85}the\u{B}receipt in case"
        for (direction, firstLineEnd) in [(TextDirection.ltr, "in"), (.rtl, "receipt")] {
            var s = style(family: "Liberation Serif", size: 25, direction: direction)
            s.font = FontDescriptor(family: "Liberation Serif", weight: .bold)
            let lines = try lineTexts(text, width: 136, s)
            #expect(lines.count == 2 && lines[0].hasSuffix(firstLineEnd), "\(direction): \(lines)")
        }
    }

    /// Chromium queues a run's fallback holes in glyph order, so in a right-to-left run the hint
    /// is the first letter of the *last* hole: Urdu `ر ہ` (Liberation Sans, which has no Arabic)
    /// asks for ہ, which DejaVu Sans lacks, and Noto Kufi Arabic takes both words; `ہ ر` asks for
    /// ر, so DejaVu Sans takes ر and only ہ goes to Noto Kufi Arabic (docs/CHROMIUM.md §2.6).
    @Test func rightToLeftRunsAskForTheLastHolesLetter() throws {
        func families(_ text: String) throws -> [String] {
            var s = style(family: "Liberation Sans", size: 33, direction: .auto)
            s.lineHeight = .normal
            return try PreparedText(text, style: s).runs.filter { $0.shaped.glyphCount > 0 }.map(\.font.family)
        }
        #expect(try Set(families("ر ہ")).subtracting(["Liberation Sans"]) == ["Noto Kufi Arabic"])
        #expect(try Set(families("ر ن ہ")).subtracting(["Liberation Sans"]) == ["Noto Kufi Arabic"])
        #expect(try Set(families("ہ ر")).subtracting(["Liberation Sans"]) == ["Noto Kufi Arabic", "DejaVu Sans"])
        #expect(try Set(families("ر ن ہ ن")).subtracting(["Liberation Sans"]) == ["Noto Kufi Arabic", "DejaVu Sans"])
        // The corpus line that showed it (`corpus-ur`, 33 px at 224 px): three lines, as in Chromium.
        var s = style(family: "Helvetica, Arial, sans-serif", size: 33, direction: .auto)
        s.lineHeight = .normal
        let lines = try lineTexts("چودھری نے پوچھا۔ ’’ناکام رہا ہوگا۔‘‘", width: 224, s)
        #expect(lines.map { $0.filter { $0 != " " } } == ["چودھرینے", "پوچھا۔’’ناکام", "رہاہوگا۔‘‘"])
    }

    /// In `pre-wrap` a tab, a newline and a dropped CR or FF end Chromium's shaping item, so
    /// the text after them looks for fallback fonts with hints of its own: in `a\u{1F}b␣c\u{85}`
    /// (Liberation Serif 30.5 px, normal line height) the U+001F hint finds no font and the NEL
    /// shows the primary's .notdef (one 35 px line), but after a tab, newline, CR or FF the NEL
    /// is its own hint and takes Noto Sans Symbols2, whose line box is 52 px (docs/CHROMIUM.md §2.6).
    @Test func preWrapControlsEndFallbackItems() throws {
        var s = style(.preWrap, family: "Liberation Serif", size: 30.5)
        s.lineHeight = .normal
        func height(_ text: String, _ style: TextStyle) throws -> Double { try PreparedText(text, style: style).layout(width: 506).height }
        #expect(try height("a\u{1F}b c\u{85}", s) == 35)
        for separator in ["\t", "\u{C}", "\r"] {
            #expect(try height("a\u{1F}b\(separator)c\u{85}", s) == 52, "\(separator.unicodeScalars.first!.value)")
        }
        #expect(try height("a\u{1F}b\nc\u{85}", s) == 35 + 52)
        var normal = s
        normal.whiteSpace = .normal
        #expect(try height("a\u{1F}b\u{C}c\u{85}", normal) == 35)
    }

    /// A line or paragraph separator after text of a fallback font, in the same shaping item
    /// (bidi level, script run, no emoji, no `pre-wrap` control between), is the primary font's
    /// space glyph in Chromium, not the primary's own glyph for it. Each figure is Chromium's
    /// width of the separator at 16 px (span widths with and without it, docs/CHROMIUM.md §3(m)):
    /// Noto Sans draws U+2028 9.61 px wide, its space is 4.16; DejaVu Sans 0 and 5.08.
    @Test(arguments: [
        // Noto Sans: after Han (also with Common text between), Thai, fallback text anywhere
        // earlier in the script run; not before it, not in a Latin or Cyrillic run after it.
        ("Noto Sans", TextDirection.ltr, "漢", "", 4.156), ("Noto Sans", .ltr, "漢漢", "", 4.156),
        ("Noto Sans", .ltr, "漢", "漢", 4.156), ("Noto Sans", .ltr, "漢1", "1", 4.156),
        ("Noto Sans", .ltr, "漢。", "", 4.156), ("Noto Sans", .ltr, "ก", "", 4.156),
        ("Noto Sans", .ltr, "ж漢", "", 4.156), ("Noto Sans", .ltr, "漢", "ж", 4.156),
        ("Noto Sans", .ltr, "a", "", 9.609), ("Noto Sans", .ltr, "漢a", "", 9.609),
        ("Noto Sans", .ltr, "漢ж", "", 9.609), ("Noto Sans", .ltr, "1", "漢", 9.609),
        ("Noto Sans", .ltr, "", "漢", 9.609), ("Noto Sans", .ltr, "😀", "", 9.609),
        // A right-to-left fallback run: the separator ending an LTR paragraph has level 0, a
        // run of its own; in an RTL paragraph it joins the Arabic or Hebrew run, and Han is apart.
        ("Noto Sans", .ltr, "س", "", 9.609), ("Noto Sans", .rtl, "س", "", 4.156),
        ("Noto Sans", .rtl, "ש", "ש", 4.156), ("Noto Sans", .rtl, "漢", "", 9.609),
        ("Noto Sans", .rtl, "漢", "漢", 4.156),
        // DejaVu Sans: its U+2028 has no width; after fallback text (Han, or U+AB30, a Latin
        // letter it lacks, with its own `a` between) it is DejaVu's space. Hebrew is DejaVu's own.
        ("DejaVu Sans", .ltr, "漢", "", 5.078), ("DejaVu Sans", .ltr, "ꬰa", "", 5.078),
        ("DejaVu Sans", .ltr, "a", "", 0), ("DejaVu Sans", .ltr, "漢ж", "", 0),
        ("DejaVu Sans", .rtl, "ש", "ש", 0),
        // A family of the list is a fallback as well; the space is the first family's.
        ("Noto Sans, Noto Sans CJK SC", .ltr, "漢", "", 4.156), ("Noto Serif", .ltr, "漢", "漢", 4.156),
    ])
    func separatorsAfterFallbackTextAreThePrimarysSpace(_ family: String, _ direction: TextDirection,
                                                         _ before: String, _ after: String, _ expected: Double) throws {
        let s = style(.preWrap, family: family, direction: direction)
        let separator = try Self.textWidth(before + "\u{2028}" + after, s) - Self.textWidth(before + after, s)
        #expect(abs(separator - expected) < 0.03, "\(family) \(direction) \(before)|\(after): \(separator)")
    }

    /// U+2029 takes the same path, and so do bold and `normal` white space; two separators
    /// after Han are two spaces. In an RTL paragraph U+2029 (bidi class B) is at the paragraph's
    /// level, apart from the Han run, so it keeps its own glyph (Chromium: 9.625).
    @Test func paragraphSeparatorsBoldAndNormalWhiteSpaceFollowTheRule() throws {
        var bold = style(family: "DejaVu Sans")
        bold.font = FontDescriptor(family: "DejaVu Sans", weight: .bold)
        #expect(abs(try Self.textWidth("漢\u{2028}漢", bold) - Self.textWidth("漢漢", bold) - 5.562) < 0.03)
        let noto = style(family: "Noto Sans")
        #expect(abs(try Self.textWidth("漢\u{2029}漢", noto) - Self.textWidth("漢漢", noto) - 4.156) < 0.03)
        #expect(abs(try Self.textWidth("漢\u{2028}\u{2028}漢", noto) - Self.textWidth("漢漢", noto) - 8.312) < 0.03)
        let rtl = style(family: "Noto Sans", direction: .rtl)
        #expect(abs(try Self.textWidth("漢\u{2029}漢", rtl) - Self.textWidth("漢漢", rtl) - 9.609) < 0.03)
        // So `漢漢\u{2028}` (36.17 px) fits a 38 px line in Chromium, as `漢` / `漢\u{2028}` did not.
        #expect(try lineTexts("漢漢\u{2028}", width: 38, noto) == ["漢漢\u{2028}"])
    }

    /// A hole anywhere in the separator's script run counts, a control or a Common symbol after
    /// the run's first letter too (Chromium 156, Noto Sans 16 px, one-line widths): but a Common
    /// character with script extensions (`。`) starts a script run of its own, so one in Latin
    /// text ends the walk, and font fallback plans it apart from the holes before it.
    @Test func separatorsAfterControlsInsideTheRunAreThePrimarysSpace() throws {
        let noto = style(family: "Noto Sans")
        for (text, expected) in [("a\u{90}b\u{2028}", 22.984), ("a\u{1}b\u{2029}", 32.578), ("a≠b\u{2028}", 32.141),
                                 ("a\u{85}b\u{2028}", 22.984), ("a\u{1}b c\u{2028}d", 54.266),
                                 ("T。é\u{2028}", 43.531), ("a\u{1}b。c\u{2028}", 61.703), ("漢。漢\u{2028}", 52.172),
                                 ("a\u{1}ж。", 46.578)] {
            let width = try Self.textWidth(text, noto)
            #expect(abs(width - expected) < 0.02, "\(text.unicodeScalars.map { String($0.value, radix: 16) }): \(width)")
        }
        // The sample's controls/1305 (seed 661087561): `n boat\u{2028}` fits 128 px after `built\u{90}the`.
        var oblique = style(family: "Noto Sans", size: 38, lineHeight: .normal)
        oblique.font = FontDescriptor(family: "Noto Sans", slant: .oblique)
        #expect(try lineTexts("built\u{90}the wooden boat\u{2028}by", width: 128, oblique).contains("n boat\u{2028}"))
    }

    /// docs/CHROMIUM.md §3(m), fifteenth round: Chromium's script segmenter runs over the whole
    /// paragraph, so a Common hole continues the script run before it, across bidi items: after
    /// `a`, `ж`, `吧` or `a。` a U+0001 is shaped apart from the Arabic or Thai after it (its own
    /// hint: the primary's .notdef), while at the start or after a space or digit it shares the
    /// run's hint (a DEL's: Noto Sans Symbols2, no width). Widths read from Chromium (DejaVu Sans
    /// 15.76 px, one `white-space: pre` span per page).
    @Test func aCommonHoleContinuesTheScriptRunBeforeIt() throws {
        let dejaVu = style(family: "DejaVu Sans", size: 15.76)
        for (text, expected) in [("ж\u{1}مرحبا\u{7F}ب", 74.906), ("a\u{1}ก\u{7F}", 28.562), ("a。\u{1}مرحبا\u{7F}ب", 86.109),
                                 ("مرحبا\u{1}a\u{7F}b", 65.531), ("1\u{1}مرحبا\u{7F}ب", 61.281), ("\u{1}ก\u{7F}", 28.359),
                                 ("吧\u{1}ก\u{7F}", 34.656), ("a\u{1} مرحبا\u{7F}ب", 75.375)] {
            let width = try Self.textWidth(text, dejaVu)
            #expect(abs(width - expected) < 0.02, "\(text.unicodeScalars.map { String($0.value, radix: 16) }): \(width)")
        }
        // The same word with no run before it (zero-width U+0001), then after `a `: a word cache
        // keyed on the word alone would give the second the first one's fonts.
        #expect(abs(try Self.textWidth("\u{1}مرحبا\u{7F}ب a", dejaVu) - 65.922) < 0.02)
        #expect(abs(try Self.textWidth("a \u{1}مرحبا\u{7F}ب a", dejaVu) - 90.047) < 0.02)
        // random/controls/0099 of seed 4202 (Roboto, not installed: Liberation Serif Bold).
        let roboto = TextStyle(font: FontDescriptor(family: "Roboto", weight: FontWeight(700)), size: 15.76,
                               lineHeight: .pixels(20), lang: "th")
        let lines = try lineTexts("今天天气很好，我们去公园散步吧。\u{1}مرحبا\u{7F}بكم في موقعنا\tCould", width: 59.57, roboto)
        #expect(lines.count == 10 && lines[5] == "吧。\u{1}مر", "\(lines)")
    }

    /// docs/CHROMIUM.md §3(n), sixteenth round (the fifteenth round's open `\u{1}。`): a segment
    /// of holes with no definite script whose script East Asian punctuation decides (Han) gets
    /// the CJK font, though its first hole, the hint, is a control no font has; the control stays
    /// the primary's .notdef. Chromium 156, Noto Sans 16 px: `\u{1}。` 25.609 (9.594 + 16.016),
    /// `\u{1f}、` the same, `\u{1}\u{1}。` 35.203; a Common hole without East Asian width keeps
    /// the control's hint: `\u{1}⚀` and `\u{1}①` are two .notdef (19.203).
    @Test func aControlHintInAnEastAsianRunAsksForTheCJKFont() throws {
        let noto = style(family: "Noto Sans", size: 16)
        for (text, expected) in [("\u{1}。", 25.609), ("\u{1F}、", 25.609), ("\u{1}\u{1}。", 35.203), ("\u{1}。a", 34.578),
                                 ("\u{1}⚀", 19.203), ("\u{1}\u{2460}", 19.203), ("a\u{1}。", 34.578)] {
            let width = try Self.textWidth(text, noto)
            #expect(abs(width - expected) < 0.02, "\(text.unicodeScalars.map { String($0.value, radix: 16) }): \(width)")
        }
    }

    /// The summed advances of `text` in `style`.
    static func textWidth(_ text: String, _ style: TextStyle) throws -> Double {
        let p = try PreparedText(text, style: style)
        return p.width(of: 0..<p.units.count)
    }

    /// A space character the font lacks is drawn by HarfBuzz with the space glyph and a fraction
    /// of the em at HarfBuzz's scale, which Chromium sets from the size itself rather than
    /// FreeType's 26.6 size: four U+2003 in Liberation Serif Bold (which has no U+2003) at 16.08 px
    /// are 64.328125 px in Chromium (4 × 16.08), not 4 × 16.078125; U+2009 is 16.08 / 5, U+2002
    /// half the em. So `em\u{2003}space` (36.625 px to the space) no longer fits 36.6 px.
    @Test func fallbackSpacesTakeTheirWidthFromTheUnroundedSize() throws {
        func ceil64(_ w: Double) -> Double { (w * 64).rounded(.up) / 64 }
        func spaces(_ text: String, _ style: TextStyle) throws -> Double {
            let p = try PreparedText(text, style: style)
            return ceil64(p.width(of: 0..<p.units.count))
        }
        var s = style(family: "Liberation Serif", size: 16.08)
        s.font = FontDescriptor(family: "Liberation Serif", weight: .bold)
        #expect(try spaces("\u{2003}\u{2003}\u{2003}\u{2003}", s) == 64.328125)
        #expect(try spaces("\u{2009}", s) == 3.21875)
        #expect(try spaces("\u{2002}", s) == 8.046875)
        #expect(try lineTexts("em\u{2003}space", width: 36.6, s).count == 4)
        // A font that has the character keeps its own advance (DejaVu Sans).
        #expect(try spaces("\u{2003}", style(size: 16.08)) == ceil64(16.078125))
    }
}
