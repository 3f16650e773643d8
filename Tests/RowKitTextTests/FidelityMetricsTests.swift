import Testing
import PropertyBased
@testable import RowKitText

/// Every browser rule the line breaker applies (Layout/LineEndRules.swift, Layout/OverflowBreaks.swift) reads only the compact
/// measuring form — break-word inside ligatures and stacked clusters (line-start widths shaped
/// alone), line ends kerned against the next cluster, soft hyphens, tab stops, trimmed CJK
/// punctuation, words found again inside Thai/Khmer/Myanmar — so a ``TextMetrics`` prepared on
/// its own breaks lines exactly as the ``PreparedText`` does, in every style a user writes.
@Suite struct FidelityMetricsTests {
    /// Pieces that exercise the rules: ligatures, kerning pairs, soft hyphens, tabs, dictionary
    /// scripts, stacked clusters, joining scripts, bidi, CJK punctuation, controls.
    static let pieces = textPieces + [
        "office", "Traffic", "overflow", "ﬁ", "AVATAR", "To", "Ty.", "un\u{AD}be\u{AD}liev\u{AD}able", "\t", "a\tb",
        "รายงานก่อนวันที่", "ความกว้าง", "များကို", "ပစ္စည်း", "ស្ត្រី", "ខ្មែរ", "مرحبا بالعالم", "لا", "שלום", "हिन्दी",
        "とギョーザ", "。」", "（注）", "、「", "\u{3000}", "x\u{2028}y", "\u{0}", "a\u{B}b", "e\u{301}", "Ấn Độ",
    ]

    static let families = ["DejaVu Sans", "Noto Sans", "Liberation Serif", "DejaVu Serif", "serif", "sans-serif", "monospace",
                           "Noto Sans Mono, serif", "Missing Family, Noto Sans", "Nonexistent Face"]
    static let languages: [String?] = [nil, "ja", "zh-Hans", "zh-Hant", "ko", "th", "en"]

    /// A random style from one number: family (lists, generics, missing), size (fractional),
    /// weight (synthetic bold), slant, line height, white space, direction and language.
    static func randomStyle(_ code: Int) -> TextStyle {
        var c = code
        func take(_ n: Int) -> Int { defer { c /= n }; return c % n }
        let family = families[take(families.count)]
        let size = [10, 12, 13.5, 16, 16.17, 22, 33.71][take(7)]
        let weight = [FontWeight.regular, .bold, FontWeight(300), FontWeight(900)][take(4)]
        let slant = [FontSlant.normal, .italic, .oblique][take(3)]
        let lineHeight: LineHeight = take(2) == 0 ? .normal : .pixels(size * 1.4)
        let whiteSpace: WhiteSpace = take(2) == 0 ? .normal : .preWrap
        let direction: TextDirection = [.ltr, .rtl, .auto][take(3)]
        let lang = languages[take(languages.count)]
        return TextStyle(font: FontDescriptor(family: family, weight: weight, slant: slant), size: size, lineHeight: lineHeight,
                         direction: direction, whiteSpace: whiteSpace, lang: lang)
    }

    static let styleCodes = Gen.int(in: 0...(10 * 7 * 4 * 3 * 2 * 2 * 3 * 7 - 1))
    static let texts = Gen.int(in: 0...(pieces.count - 1)).array(of: 0...30)
    /// Widths in 1/4 px from 0 to 400 px: narrow ones break words inside.
    static let widths = Gen.int(in: 0...1600)

    /// Lines (ranges, widths, hyphens), heights and line counts of a TextMetrics prepared alone
    /// (its own shape cache, no glyph runs kept) equal those of the PreparedText, with and
    /// without a line limit.
    @Test func compactFormBreaksAsTheDrawingFormInEveryStyle() async {
        await propertyCheck(count: 300, input: Self.texts, Self.styleCodes, Self.widths) { indices, code, w in
            let text = randomText(indices, from: Self.pieces)
            let style = Self.randomStyle(code)
            let metrics = try TextMetrics(text, style: style, cache: ShapeCache(capacity: 64))
            let prepared = try PreparedText(text, style: style, cache: ShapeCache(capacity: 64))
            let width = Double(w) / 4
            let layout = try prepared.layout(width: width)
            #expect(metrics.withView { $0.lines(width: width, maxLines: nil).lines } == layout.lines,
                    "\(text.debugDescription) in \(style) at \(width)")
            #expect(try metrics.measure(width: width) == prepared.measure(width: width))
            #expect(try metrics.measure(width: width).height == layout.height)
            let m2 = try metrics.measure(width: width, maxLines: 2)
            let l2 = try prepared.layout(width: width, maxLines: 2)
            #expect(m2.lineCount == l2.lines.count && m2.height == l2.height && m2.maxLineWidth == l2.maxLineWidth)
        }
    }

    /// Word by word through the word cache == whole paragraphs, byte for byte, in styles with a
    /// language, a direction, font lists, generics and synthesis.
    @Test func chunkedEqualsWholeInEveryStyle() async {
        await propertyCheck(count: 250, input: Self.texts, Self.styleCodes) { indices, code in
            let text = randomText(indices, from: Self.pieces)
            let style = Self.randomStyle(code)
            try ChunkedPreparationTests.expectSame(text, style)
            try ChunkedPreparationTests.expectSame(text, style)
        }
    }

    /// A line that starts inside a ligature measures its rest shaped alone, from the compact
    /// form: Noto Sans `overf|low` (the example, `fl` is one cluster), and a TextMetrics
    /// keeps what that needs (its extras part).
    @Test func breakInsideALigatureFromTheCompactForm() throws {
        let style = TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 12, lineHeight: .pixels(16))
        let p = try PreparedText("overflow", style: style)
        let m = try TextMetrics("overflow", style: style, cache: ShapeCache(capacity: 8))
        let full = p.width(of: 0..<8)
        let layout = try p.layout(width: (p.width(of: 0..<5) + p.width(of: 0..<6)) / 2)
        #expect(layout.lines.indices.map { layout.text(ofLine: $0) } == ["overf", "low"])
        for w in stride(from: 1.0, through: full + 1, by: 0.25) {
            #expect(m.withView { $0.lines(width: w, maxLines: nil).lines } == (try p.layout(width: w).lines))
        }
    }

    /// Thai words are found again from a line start inside one (ICU run over the kept text).
    @Test func dictionaryWordsFoundAgainFromTheCompactForm() throws {
        let style = TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 16, lineHeight: .pixels(20))
        let text = "รายงานก่อนวันที่ ความกว้าง"
        let p = try PreparedText(text, style: style)
        let m = try TextMetrics(text, style: style, cache: ShapeCache(capacity: 8))
        for w in stride(from: 1.0, through: 200, by: 1.5) {
            #expect(m.withView { $0.lines(width: w, maxLines: nil).lines } == (try p.layout(width: w).lines), "at \(w)")
        }
        #expect(m.withView { $0.extras.dictionaryRange(holding: 0) } != nil)
    }
}
