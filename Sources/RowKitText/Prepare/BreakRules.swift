/// Break rules the browser applies on top of ICU's UAX #14 line breaking.
///
/// Between two printable ASCII characters Chromium does not ask ICU: it uses a fixed table
/// (breaks before `( < [ {` after closing punctuation and symbols, after `-` and `?` before most
/// characters, nowhere else: never after `/`, `.`, `=`, `&`). The table below was measured from
/// Chromium itself, pair by pair (`Fidelity/ascii_breaks.py`, see docs/CHROMIUM.md §3(i)).
enum ASCIIBreakRules {
    /// Characters after which a break is allowed before an opening bracket `( < [ {`.
    private static let beforeOpener = Array("!\"#%&)*+,.:;=>\\]|}~".utf8)
    private static let openers = Array("(<[{".utf8)
    /// What may follow `-` across a break (digits are decided by context, see `allowsBreak`).
    private static let afterHyphen = Array("\"#%&'(*+-<=>@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\^_`abcdefghijklmnopqrstuvwxyz{|~".utf8)
    /// What may follow `?` across a break.
    private static let afterQuestion = Array("#$%&(*+-0123456789<=>@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\^_`abcdefghijklmnopqrstuvwxyz{|~".utf8)

    /// 128 rows of 128 bits: bit b of row a is set when a break is allowed between a and b.
    private static let table: [UInt64] = {
        var bits = [UInt64](repeating: 0, count: 256)
        func allow(_ a: UInt8, _ b: UInt8) { bits[Int(a) * 2 + Int(b >> 6)] |= 1 << UInt64(b & 63) }
        for a in beforeOpener { for b in openers { allow(a, b) } }
        for b in afterHyphen { allow(UInt8(ascii: "-"), b) }
        for b in afterQuestion { allow(UInt8(ascii: "?"), b) }
        return bits
    }()

    /// True when both units are printable ASCII (`!`...`~`): then this table decides, not ICU.
    @inline(__always) static func applies(_ a: UInt16, _ b: UInt16) -> Bool {
        a &- 0x21 < 0x5E && b &- 0x21 < 0x5E
    }

    /// Whether a line may break between `a` and `b` (both printable ASCII); `before` is the
    /// unit preceding `a` (0 at the start). A `-` before a digit allows a break only after a
    /// letter or digit, as in `ABCD-1234` but not in a minus sign.
    static func allowsBreak(before: UInt16, _ a: UInt16, _ b: UInt16) -> Bool {
        if a == 0x2D && b >= 0x30 && b <= 0x39 {
            return (before >= 0x30 && before <= 0x39) || (before | 0x20 >= 0x61 && before | 0x20 <= 0x7A)
        }
        return table[Int(a) * 2 + Int(b >> 6)] & (1 << UInt64(b & 63)) != 0
    }
}

/// Where a line may break: ICU's UAX #14 opportunities with Chromium's own decisions on top —
/// after every space, its table between printable ASCII pairs (``ASCIIBreakRules``), Unicode
/// 15.1's quotation rules (``QuotationRules``).
enum BreakOpportunities {
    /// The break offsets of `units` (the last is its end) and which are forced.
    static func find(_ units: UnsafeBufferPointer<UInt16>, language: String?) throws(TextError) -> (ends: [Int32], mandatory: [UInt8]) {
        var icu: [Int32] = []
        return try find(units, language: language, icu: &icu)
    }

    /// The same, handing back ICU's own opportunities (``UnicodeAnalysis/lineBreaks(_:language:)``) in `icu`.
    static func find(_ units: UnsafeBufferPointer<UInt16>, language: String?, icu: inout [Int32]) throws(TextError)
        -> (ends: [Int32], mandatory: [UInt8]) {
        var ends: [Int32] = [], mandatory: [UInt8] = []
        try find(units, language: language, icu: &icu, ends: &ends, mandatory: &mandatory)
        return (ends, mandatory)
    }

    /// The same into `ends` and `mandatory` (emptied first, capacity kept): callers that reuse
    /// the three arrays allocate nothing per call (four fresh arrays cost ~1.5 k instructions
    /// a call, as much as ICU's own work over a short word).
    static func find(_ units: UnsafeBufferPointer<UInt16>, language: String?, icu: inout [Int32], ends: inout [Int32],
                     mandatory: inout [UInt8]) throws(TextError) {
        try UnicodeAnalysis.lineBreaks(units, language: language, into: &icu)
        ends.removeAll(keepingCapacity: true)
        mandatory.removeAll(keepingCapacity: true)
        ends.reserveCapacity(icu.count + 4)
        mandatory.reserveCapacity(icu.count + 4)
        var k = 0
        for p in 1..<max(1, units.count) {
            var isBreak = false, forced: UInt8 = 0
            // ICU's break is forced after a kept newline (``UnicodeAnalysis/lineBreaks(_:language:)``).
            if k < icu.count && Int(icu[k]) == p { isBreak = true; forced = units[p - 1] == 0x0A ? 1 : 0; k += 1 }
            let a = units[p - 1], b = units[p]
            if forced == 0 && (a == 0x20 || a == 0x09) && b != 0x20 && b != 0x09 && b != 0x0A {
                // Chromium breaks after every space, even before `!` or `)` where UAX #14 would not.
                isBreak = true
            } else if forced == 0 && ASCIIBreakRules.applies(a, b) {
                isBreak = ASCIIBreakRules.allowsBreak(before: p >= 2 ? units[p - 2] : 0, a, b)
            } else if !isBreak && (a >= 0x80 || b >= 0x80) {
                isBreak = QuotationRules.allowsBreak(units, at: p)
            } else if isBreak && forced == 0 && isHyphen(a) {
                isBreak = !gluesWordInitialHyphen(units, at: p)
            }
            if isBreak { ends.append(Int32(p)); mandatory.append(forced) }
        }
        ends.append(Int32(units.count))
        mandatory.append(icu.last.map { Int($0) == units.count && units[units.count - 1] == 0x0A ? 1 : 0 } ?? 0)
    }

    /// The hyphens of Unicode 16's word-initial hyphen rule (UAX #14 LB20a, classes HY and HH):
    /// `-`, U+2010 and the dashes Chromium's ICU glues as it glues U+2010 (U+058A, U+2012,
    /// U+2013, U+2E17, measured; the system's ICU glues only `-` and U+2010).
    @inline(__always) static func isHyphen(_ unit: UInt16) -> Bool {
        unit == 0x2D || unit == 0x2010 || unit == 0x2013 || unit == 0x2012 || unit == 0x058A || unit == 0x2E17
    }

    /// UAX #14 LB20a as Chromium's ICU has it: no break between a hyphen that starts a word (at
    /// the start of the text or after a space, a newline, ZWSP or a no-break character) and a
    /// letter after it (AL or HL). DejaVu Sans 16 px at 30 px: `aa –abc` is `aa` / `–ab` / `c`,
    /// `aa ‐עבר` is `aa` / `‐עב` / `ר`, `aa x–αβγ` still breaks after the dash (docs/CHROMIUM.md
    /// §3(i)). Printable ASCII pairs are left to Chromium's table.
    static func gluesWordInitialHyphen(_ units: UnsafeBufferPointer<UInt16>, at p: Int) -> Bool {
        guard p >= 1, p < units.count, isHyphen(units[p - 1]), !ASCIIBreakRules.applies(units[p - 1], units[p]) else { return false }
        if p >= 2 {
            let (before, _) = QuotationRules.scalar(before: p - 1, in: units)
            guard ICU.precedesWordInitialHyphen(before) else { return false }
        }
        return ICU.isLetterAfterHyphen(UnicodeAnalysis.scalar(at: p, in: units).0)
    }

    /// The dashes whose break opportunity after them depends on what precedes them: `-` before
    /// a digit (Chromium's table: only after a letter or digit) and the hyphens and dashes ICU
    /// glues to a following letter when a boundary precedes them (its rule 20.9: `-`, U+2010,
    /// U+2012, U+2013, U+058A, U+2E17 among those measured; the em dash, U+30A0 and the
    /// fullwidth hyphens break anyway). Only these are looked at again from a line start.
    @inline(__always) static func mayJoinAtLineStart(_ unit: UInt16) -> Bool {
        unit == 0x2D || (mayBeDash(unit) && Unicode.Scalar(unit).map { $0.properties.generalCategory == .dashPunctuation } == true)
    }

    /// False only for units below U+D800 that are no dash punctuation (general category Pd) —
    /// the BMP's dashes there are U+058A, U+05BE, U+1400, U+1806, U+2010–U+2015, some of
    /// U+2E00–U+2E7F, U+301C, U+3030 and U+30A0 — and for ASCII: a filter before the
    /// standard library's category lookup (~300 instructions), which every segment end of
    /// non-Latin text asked. Checked for every unit (`CategoryFilterTests`).
    @inline(__always) static func mayBeDash(_ unit: UInt16) -> Bool {
        if unit < 0x2010 { return unit == 0x058A || unit == 0x05BE || unit == 0x1400 || unit == 0x1806 }
        return unit <= 0x2015 || (unit >= 0x2E00 && unit <= 0x2E7F) || unit == 0x301C || unit == 0x3030 || unit == 0x30A0
    }

    /// The units that, starting a line after an overflow-wrap split (a line start that is no
    /// break opportunity), lose the break opportunity right after their grapheme: Chromium
    /// looks for the next opportunity from the line start with nothing before it in view, as
    /// if the text began there (measured, docs/CHROMIUM.md §3(d)): DejaVu Sans 16 px at 60 px,
    /// `aaaaaaaaaaaa-1234567` is `aaaaaa` / `aaaaaa` / `-12345` / `67` (a `-` between a letter
    /// and a digit allows a break, a `-` at the start of the text does not), `…‐αβγδεζηθ` ends
    /// `‐αβγδε` / `ζηθ`; `…-abcdefg` still breaks after the `-`. Such a unit is the last
    /// grapheme of a segment that holds more than one, the segment ends at its content (a
    /// break not after white space), and the rules run on the text from the unit, with a few
    /// units after the break for context, find no break there. Sorted unit offsets.
    static func lineStartJoins(_ units: UnsafeBufferPointer<UInt16>, segmentEnds: UnsafeBufferPointer<Int32>,
                               contentEnds: UnsafeBufferPointer<Int32>, graphemeStartBits: UnsafeBufferPointer<UInt64>,
                               language: String?) -> [Int32] {
        var result: [Int32] = []
        let count = units.count
        var segmentStart = 0
        for i in segmentEnds.indices {
            let b = Int(segmentEnds[i])
            defer { segmentStart = b }
            guard b < count, Int(contentEnds[i]) == b, b - segmentStart >= 2 else { continue }
            var g = b - 1
            while g > segmentStart && graphemeStartBits[g >> 6] & (1 << UInt64(g & 63)) == 0 { g -= 1 }
            guard g > segmentStart, mayJoinAtLineStart(units[g]) else { continue }
            let window = UnsafeBufferPointer(rebasing: units[g..<min(count, b + 16)])
            guard let found = try? find(window, language: language) else { continue }
            if !found.ends.contains(Int32(b - g)) { result.append(Int32(g)) }
        }
        return result
    }
}

/// Unicode 15.1's rules for quotation marks between East Asian text (UAX #14 LB19, LB19a), which
/// the system ICU (Unicode 15.0) lacks and Chromium's ICU has: `汉“汉”汉` breaks as
/// `汉|“汉”|汉`, while quotes next to non-East-Asian text still glue to their neighbours.
enum QuotationRules {
    /// Whether a break is allowed at `p`, where ICU said no.
    static func allowsBreak(_ units: UnsafeBufferPointer<UInt16>, at p: Int) -> Bool {
        // Both rules need a quotation mark on one side: most pairs are letters, no need to ask ICU.
        if !mayBeQuotation(units[p]) && !mayBeQuotation(units[p - 1]) { return false }
        let (b, bLength) = UnicodeAnalysis.scalar(at: p, in: units)
        let (a, aStart) = scalar(before: p, in: units)
        if ICU.quotationKind(b) == 1 {
            // Before an opening quote: East Asian on both sides of it.
            guard ICU.isEastAsian(a), !ICU.forbidsBreakAfter(a), p + bLength < units.count else { return false }
            return ICU.isEastAsian(UnicodeAnalysis.scalar(at: p + bLength, in: units).0)
        }
        if ICU.quotationKind(a) == 2 {
            // After a closing quote: East Asian on both sides of it.
            guard aStart > 0, ICU.isEastAsian(b), !ICU.forbidsBreakBefore(b) else { return false }
            return ICU.isEastAsian(scalar(before: aStart, in: units).0)
        }
        return false
    }

    /// False only for units that are no quotation mark (UAX #14 class QU) and no surrogate half:
    /// below U+2018 the quotes are `"`, `'`, `«` and `»`; U+2E80–U+D7FF (CJK, kana, Hangul, Yi)
    /// holds none. A fast path before ICU's class lookup, checked for every unit against ICU
    /// (`PairedGraphemeTests.quotationFilterKeepsEveryQuotationMark`).
    @inline(__always) static func mayBeQuotation(_ unit: UInt16) -> Bool {
        unit < 0x2018 ? unit == 0x22 || unit == 0x27 || unit == 0xAB || unit == 0xBB : unit < 0x2E80 || unit >= 0xD800
    }

    /// The scalar ending at `p` and where it starts.
    static func scalar(before p: Int, in units: UnsafeBufferPointer<UInt16>) -> (UInt32, Int) {
        if p >= 2 && units[p - 1] >= 0xDC00 && units[p - 1] <= 0xDFFF && units[p - 2] >= 0xD800 && units[p - 2] <= 0xDBFF {
            return (UnicodeAnalysis.scalar(at: p - 2, in: units).0, p - 2)
        }
        return (UnicodeAnalysis.scalar(at: p - 1, in: units).0, p - 1)
    }
}

/// CJK punctuation classes for `text-spacing-trim: normal` (Chromium's default): fullwidth
/// punctuation next to other punctuation loses half its em box (Chromium's `HanKerning`, CSS Text 4
/// "fullwidth punctuation collapsing"; measured, docs/CHROMIUM.md §3(e)).
///
/// A character's class comes from its code point, except for full stops and commas, colons,
/// semicolons and curly quotes, whose class is read from the font's glyphs in the content
/// language (``PunctuationSpacing``): Noto Sans CJK's `。` sits in the left half of its box for
/// Japanese and Simplified Chinese (closing) but in the middle for Traditional Chinese; its
/// curly quotes are proportional for Japanese and Korean, so they trim nothing there.
enum CJKPunctuation {
    /// The text-spacing class of a character in a font.
    enum Kind: UInt8, Sendable { case other, open, close, middle, openNarrow, closeNarrow }

    /// The class of a character before the font is known: the font decides `dot`, `colon`,
    /// `semicolon` and the quotes.
    enum CodePointClass: Sendable, Equatable {
        case kind(Kind)
        case dot, colon, semicolon, openQuote, closeQuote
    }

    /// The class of `unit` from its code point alone (Chromium's `GetHanKerningCharType`):
    /// opening and closing brackets (general category Ps/Pe) are wide in the CJK Symbols and
    /// Punctuation block and among the fullwidth forms, narrow elsewhere.
    static func codePointClass(_ unit: UInt16) -> CodePointClass {
        // Kana, ideographs, Hangul and Yi (most units of CJK text) hold no bracket and, of the
        // marks below, only U+30FB (`CategoryFilterTests` checks every unit against the rules below).
        if unit >= 0x3040 && unit < 0xFD3E { return unit == 0x30FB ? .kind(.middle) : .kind(.other) }
        switch unit {
        case 0x2018, 0x201C: return .openQuote
        case 0x2019, 0x201D: return .closeQuote
        case 0x3000, 0x00B7, 0x2027, 0x30FB: return .kind(.middle)
        case 0x3001, 0x3002, 0xFF0C, 0xFF0E: return .dot
        case 0xFF1A: return .colon
        case 0xFF1B: return .semicolon
        default: break
        }
        guard unit >= 0x28, unit < 0xD800 || unit >= 0xE000, CategoryFilter.mayBeBracket(UInt32(unit)) else { return .kind(.other) }
        return bracketClass(unit)
    }

    /// The class of a unit that may be a bracket, from its general category. Kept out of
    /// ``codePointClass(_:)``: the standard library's property types are resilient, and a
    /// function holding them sets up their stack space through two metadata calls on every
    /// call (~40 instructions), before any test.
    @inline(never)
    private static func bracketClass(_ unit: UInt16) -> CodePointClass {
        guard let scalar = Unicode.Scalar(unit) else { return .kind(.other) }
        let wide = (unit >= 0x3000 && unit <= 0x303F) || (unit >= 0xFF01 && unit <= 0xFF60) || (unit >= 0xFFE0 && unit <= 0xFFE6)
        switch scalar.properties.generalCategory {
        case .openPunctuation: return .kind(wide ? .open : .openNarrow)
        case .closePunctuation: return .kind(wide ? .close : .closeNarrow)
        default: return .kind(.other)
        }
    }

    /// The class of `unit` in a font with the given spacing facts.
    static func kind(_ unit: UInt16, in spacing: PunctuationSpacing) -> Kind {
        switch codePointClass(unit) {
        case .kind(let kind): return kind
        case .dot: return spacing.dot
        case .colon: return spacing.colon
        case .semicolon: return spacing.semicolon
        case .openQuote: return spacing.quotesFullwidth ? .open : .openNarrow
        case .closeQuote: return spacing.quotesFullwidth ? .close : .closeNarrow
        }
    }

    /// Whether an opening mark of class `this` after one of class `previous` loses its start half.
    @inline(__always) static func trimsOpening(_ this: Kind, after previous: Kind) -> Bool {
        this == .open && (previous == .open || previous == .middle || previous == .close || previous == .openNarrow)
    }

    /// Whether a closing mark of class `this` before one of class `next` loses its end half.
    @inline(__always) static func trimsClosing(_ this: Kind, before next: Kind) -> Bool {
        this == .close && (next == .close || next == .middle || next == .closeNarrow)
    }

    /// A closing mark that may lose its end half at a line end to fit (brackets; quotes where
    /// the font draws them fullwidth, ``PunctuationSpacing/quotesTrimAtLineEnd``): full stops,
    /// commas and colons never are.
    static func trimsAtLineEnd(_ unit: UInt16, in spacing: PunctuationSpacing) -> Bool {
        switch codePointClass(unit) {
        case .kind(.close): return true
        case .closeQuote: return spacing.quotesTrimAtLineEnd
        default: return false
        }
    }

    /// A closing bracket or quote (drawing: how a line end that was trimmed to fit is painted).
    static func isClosingMark(_ unit: UInt16) -> Bool {
        let c = codePointClass(unit)
        return c == .kind(.close) || c == .closeQuote
    }

    /// A full stop, comma, colon or semicolon: trimmed before other punctuation, but full width
    /// again at a line end.
    static func growsAtLineEnd(_ unit: UInt16) -> Bool {
        switch codePointClass(unit) {
        case .dot, .colon, .semicolon: return true
        default: return false
        }
    }

    /// Whether the unit at `i` is trimmed by its neighbours in `run` (the same font): a closing
    /// mark before a closing, middle or narrow closing one loses its end half; otherwise an
    /// opening mark after an opening, middle, closing or narrow opening one loses its start half.
    /// Only neighbours inside `run` count.
    ///
    /// For a closing mark before an opening one (`。「`, `」「`) Chromium trims the opening mark;
    /// here the closing one takes the half instead (the same width on one line): a line may
    /// break between them, and Chromium trims neither at a line edge, which the closing mark's
    /// line-end rules (``growsAtLineEnd(_:)``, ``trimsAtLineEnd(_:in:)``) reproduce while an
    /// opening mark's trim would stay at the next line's start.
    static func isTrimmed(_ units: UnsafeBufferPointer<UInt16>, _ i: Int, run: Range<Int>, spacing: PunctuationSpacing) -> Bool {
        let this = kind(units[i], in: spacing)
        if this == .close, i + 1 < run.upperBound {
            let next = kind(units[i + 1], in: spacing)
            return trimsClosing(this, before: next) || next == .open
        }
        if this == .open, i > run.lowerBound {
            let previous = kind(units[i - 1], in: spacing)
            return previous != .close && trimsOpening(this, after: previous)
        }
        return false
    }
}

/// Scripts ICU breaks into words with a dictionary.
enum DictionaryScripts {
    /// Thai, Lao, Myanmar, Khmer, New Tai Lue, Tai Tham, Myanmar extensions.
    @inline(__always) static func contains(_ unit: UInt16) -> Bool {
        (unit >= 0x0E00 && unit <= 0x0EFF) || (unit >= 0x1000 && unit <= 0x109F) || (unit >= 0x1780 && unit <= 0x17FF)
            || (unit >= 0x19E0 && unit <= 0x19FF) || (unit >= 0x1A20 && unit <= 0x1AAF) || (unit >= 0xA9E0 && unit <= 0xA9FF)
            || (unit >= 0xAA60 && unit <= 0xAA7F)
    }

    /// Joiners and combining marks, which continue a dictionary run.
    @inline(__always) static func isMark(_ unit: UInt16) -> Bool {
        unit == 0x200C || unit == 0x200D || (unit >= 0x0300 && unit <= 0x036F)
    }
}

/// Line-end rules of Chromium's line breaker that depend on where a line ends (used by
/// `forEachLine`; measured, docs/CHROMIUM.md §3(b, e, n)). They read only the measuring form,
/// so a ``TextMetrics`` breaks lines exactly as its ``PreparedText`` does.
extension MetricsBlock.View {
    /// How much wider segment `i` (flagged `endTrim`) is when it ends a line: a fullwidth `。`
    /// or `、` shaped half-width because punctuation follows it is full width again when the line
    /// breaks between them (Chromium trims only pairs on one line, and never trims a full stop
    /// or comma at a line end); a segment kerned against the next one measures as shaped alone.
    func lineEndGrowth(segment i: Int) -> Int64 {
        max(0, -Int64(special(i).trimAmount))
    }

    /// How much wider the line ending with segment `i` is when it breaks at its soft hyphen: the
    /// end is shaped again alone, without the kerning HarfBuzz applied across the (invisible)
    /// soft hyphen (Noto Sans Italic 13.5 px: `or‐` is 17.20 px, `r` kerned against `d` in
    /// `or­di` 0.27 px less, so at 17 px Chromium breaks `o` / `r­di`; docs/CHROMIUM.md §3(b)).
    func softHyphenGrowth(segment i: Int) -> Int64 {
        let e = Int(end(i))
        guard e > 0, e < unitCount, units.isSoftHyphen(e - 1) else { return 0 }
        return extras.kerningGrowth(at: e - 1)
    }

    /// Whether a line of content width `width` (16.16 px) whose end is shaped again alone (a
    /// break HarfBuzz flags unsafe, or a full stop full width again at the end) fits `limit`
    /// (``fitLimit``). Chromium measures such a line by positions in its shaping item: the
    /// line's start and end, each rounded up to the 1/64 px layout unit, are at most the box
    /// width apart — no layout unit of allowance. `itemX` is the pen at the line start from
    /// the item's start (the text's start, or in `pre-wrap` the last newline or tab). So a line
    /// starting on the layout grid (the item's start) gets no allowance, one starting between
    /// two grid points usually does (measured, docs/CHROMIUM.md §3(e)): Noto Sans CJK 29.5 px at
    /// 118 px, `今日はとて` is `今日は` / `とて` (`と` kerned against `て`, 118.0156 px alone) but
    /// `ああああ今日はとて` keeps `今日はと`; `とギョーザ` at 60 px is `とギョ` / `ーザ`,
    /// `ラーメンとギョーザ` keeps `とギョー`.
    static func reshapedEndFits(_ width: Int64, itemX: Int64, limit: Int64) -> Bool {
        ceilToLayoutUnit(itemX + width) - ceilToLayoutUnit(itemX) <= limit - 1024
    }

    /// Whether a line of content width `width` (16.16 px) whose last glyph, a closing mark of
    /// advance `lastAdvance`, gives up `trim` at the line end fits `limit` (``fitLimit``).
    /// Chromium shapes the mark again with `halt` as a part of its own: the line up to the mark
    /// is measured by its positions in the shaping item (as in ``reshapedEndFits(_:itemX:limit:)``)
    /// and the trimmed mark alone, each rounded up to the 1/64 px layout unit, with the layout
    /// unit of allowance. So `好”` at 16 px (the em 16.00003 px) needs 24.015625 px, at 10 px
    /// (9.99998) 14.984375 (measured at 32 sizes, docs/CHROMIUM.md §3(e)).
    static func trimmedEndFits(_ width: Int64, lastAdvance: Int64, trim: Int64, itemX: Int64, limit: Int64) -> Bool {
        ceilToLayoutUnit(itemX + width - lastAdvance) - ceilToLayoutUnit(itemX) + ceilToLayoutUnit(lastAdvance - trim) <= limit
    }

    /// The pen at unit `u` from the start of its shaping item: the text's start, or the last
    /// newline or tab before `u` in `pre-wrap` (each ends an item, docs/CHROMIUM.md §2.6).
    /// `cache` carries the last answer, so that a walk over increasing units reads each unit
    /// once.
    func itemPen(at u: Int, cache: inout (unit: Int, x: Int64)) -> Int64 {
        let units = self.units
        if u < cache.unit { cache = (0, 0) }
        var (k, x) = cache
        while k < u {
            let kind = units.kind(k)
            let a = units.attributes(k)
            if (kind == MetricsBlock.Attribute.newline && a & MetricsBlock.Attribute.ideographicSpace == 0)
                || kind == MetricsBlock.Attribute.tab {
                x = 0
            } else {
                x += units.advance(k)
            }
            k += 1
        }
        cache = (k, x)
        return x
    }

    /// Whether a line of content width `width` that ends the text (or a forced line) with a soft
    /// hyphen fits: Chromium counts the hyphen there although it draws none (measured,
    /// docs/CHROMIUM.md §3(b)): DejaVu Sans 16 px, `er\u{AD}` (16.42 px, hyphen 5.78) at 18 px is
    /// `e` / `r\u{AD}`, at 30 px one line 16.42 px wide.
    @inline(__always) static func endingSoftHyphenFits(_ width: Int64, hyphen: Int64, limit: Int64) -> Bool {
        ceilToLayoutUnit(width) + ceilToLayoutUnit(hyphen) <= limit
    }

    /// How much segment `i`'s (flagged `endTrim`) closing bracket may shrink at a line end.
    func lineEndTrim(segment i: Int) -> Int64 {
        max(0, Int64(special(i).trimAmount))
    }

    /// Where Chromium ends a line whose last break is a soft hyphen that does not fit with its
    /// hyphen and that has no earlier break that fits: overflow-wrap breaks the word between
    /// graphemes, through the following soft hyphens too. The break goes at the furthest
    /// grapheme boundary whose position in the shaped text fits (a soft hyphen has no width, so
    /// that is never just before one); a boundary where kerning tied two clusters is checked
    /// with the end shaped alone and, when that no longer fits, the break moves back a grapheme
    /// at a time. When the break follows a soft hyphen whose hyphen does not fit, Chromium takes
    /// the hyphen's width from the space and looks again, so the line can end well short of the
    /// limit (Noto Sans CJK TC Bold 12 px, whose hyphen is 1 em: `hensi‐bil` at 33 px is `he` /
    /// `nsi‐bil`, at 30 px `hens` / `i‐bil`; `gren‐zung` at 33 px is `gre` / `n‐` / `zung`, as
    /// `grenz` is 32.9 px kerned but 33.06 alone; DejaVu Sans Bold 31.5 px `un‐be‐liev` at 55 px:
    /// `u` / `n‐` / `bel`; docs/CHROMIUM.md §3(b)). When none fits, the line takes its first
    /// grapheme (`m` / `‐`). Returns the line's end, width (hyphen included) and whether it
    /// shows a hyphen; nil when the line starts at the end of the text.
    func softHyphenOverflowBreak(lineStart: Int, limit: Int64, hyphenWidth: Int64) -> (end: Int, width: Int64, hyphen: Bool)? {
        let units = self.units
        let extras = self.extras
        let count = unitCount
        // Grapheme boundaries whose shaped position fits, with the growth of a line ending there.
        var boundaries: [(end: Int, x: Int64, growth: Int64, afterSoftHyphen: Bool)] = []
        var first: (end: Int, width: Int64, hyphen: Bool)?
        // A bidi level run ending inside the word, the line starting inside it: its part from
        // the line start is rounded up on its own, not with the whole run's folded pad
        // (BidiItemRounding), as in `breakWordLine`.
        var runLast = -1
        var runPad: Int32 = 0
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0, let run = bidiRunTable.run(endingAtOrAfter: lineStart)?.run,
           lineStart > Int(run.start) {
            runLast = Int(run.last)
            runPad = run.pad
        }
        var x: Int64 = 0
        var u = lineStart
        while u < count {
            if units.endsWord(u) { break }
            var v = u + 1
            var w = units.advance(u)
            while v < count && !units.isGraphemeStart(v) { w += units.advance(v); v += 1 }
            // CJK punctuation starting the line is shaped again alone (``LineStartReshape``), as drawn.
            if u == lineStart && u > 0 && units.isClusterStart(u) && units.isGraphemeStart(u) { w = lineStartWidth(u, v) }
            x += w
            if u <= runLast && runLast < v {
                var part = x - Int64(runPad)
                for k in runLast + 1..<v { part -= units.advance(k) }
                x += BidiItemRounding.correction(part: part, pad: runPad)
            }
            let afterSoftHyphen = units.isSoftHyphen(v - 1)
            if first == nil { first = (v, afterSoftHyphen ? x + hyphenWidth : x, afterSoftHyphen) }
            if x > limit { break }
            // A break after a soft hyphen: the kerning that tied the cluster before it to the next.
            let tie = afterSoftHyphen ? v - 1 : v
            boundaries.append((v, x, tie < count ? extras.kerningGrowth(at: tie) : 0, afterSoftHyphen))
            u = v
        }
        var space = limit
        var k = boundaries.count - 1
        while k >= 0 {
            let b = boundaries[k]
            if b.x > space { k -= 1; continue }
            if b.afterSoftHyphen {
                if Self.ceilToLayoutUnit(b.x + b.growth) + Self.ceilToLayoutUnit(hyphenWidth) <= limit {
                    return (b.end, b.x + b.growth + hyphenWidth, true)
                }
                // The hyphen does not fit: look again in the space left for it.
                space = limit - Self.ceilToLayoutUnit(hyphenWidth)
            } else if b.x + b.growth <= space {
                return (b.end, b.x + b.growth, false)
            }
            k -= 1
        }
        return first
    }

    /// Where Chromium ends a line holding one word that ends in a full stop or comma shaped
    /// half-width before the punctuation that follows it, when the line breaks between them and
    /// the stop, full width again, no longer fits: overflow-wrap breaks the word between
    /// graphemes before the stop, at the last boundary that fits (at least one grapheme), and
    /// the stop starts the next line (measured: DejaVu Sans 16 px `a。「` at 18 px is `a` / `。` /
    /// `「`, `aa。「` at 30 px is `aa` / `。「`, docs/CHROMIUM.md §3(e)). Nil when the stop is
    /// the line's only grapheme. The same for a word kerned against the next one (a line end
    /// shaped again alone): when the line up to the last grapheme ends where kerning tied it to
    /// that grapheme, that end is shaped alone too and the break moves back a grapheme more if it
    /// no longer fits (Noto Sans 700 10.45 px `ro\u{200B}width` at 10.9 px: `r` / `o\u{200B}`,
    /// `ro` alone being 10.98 px; docs/CHROMIUM.md §3(n), eighteenth round).
    func grownEndOverflowBreak(lineStart: Int, contentEnd: Int, limit: Int64) -> (end: Int, width: Int64, hyphen: Bool)? {
        let units = self.units
        // Zero-width graphemes at the end (a zero width space) stay with the grapheme before
        // them: the line up to them is shaped alone as wide as with them, so breaking before
        // them gains nothing (Chromium keeps `T\u{200B}` whole when `T` alone overflows).
        var e = contentEnd
        while e - 1 > lineStart && units.advance(e - 1) == 0 && units.isGraphemeStart(e - 1) { e -= 1 }
        var g = e - 1
        while g > lineStart && !units.isGraphemeStart(g) { g -= 1 }
        guard g > lineStart else { return nil }
        let piece = breakWordLine(from: lineStart, contentEnd: g, limit: limit, endTrim: 0)
        guard piece.end == g, case let growth = extras.kerningGrowth(at: g), growth > 0 else { return (piece.end, piece.width, false) }
        if piece.width + growth > limit, let earlier = grownEndOverflowBreak(lineStart: lineStart, contentEnd: g, limit: limit) {
            return earlier
        }
        return (piece.end, piece.width + growth, false)
    }

    /// The first segment ending at or after unit `p`.
    func segment(endingAtOrAfter p: Int) -> Int {
        var low = 0, high = segmentCount - 1
        while low < high {
            let mid = (low + high) / 2
            if Int(end(mid)) < p { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// For a line that starts inside a word of a script ICU segments with a dictionary (Thai,
    /// Lao, Khmer, Myanmar…) after overflow-wrap split the word: Chromium runs its break
    /// iterator again on the text from the line start, which finds other words than it found in
    /// the whole text (`รายงานก่อน` split as `รายง` continues `า|นก่อ|นวัน`; measured: without
    /// context before the line start, `ควา` continues `มก|ว้าง`, not `ม|กว้าง`). Returns the new
    /// break offsets after `lineStart`, up to the end of the dictionary run (an original break),
    /// or nil when the text there is not such a script. The text comes from the block's extras
    /// (the dictionary ranges are kept for this).
    func dictionaryBreaks(from lineStart: Int) -> [Int32]? {
        let extras = self.extras
        guard lineStart < unitCount, let (range, textStart) = extras.dictionaryRange(holding: lineStart) else { return nil }
        @inline(__always) func unit(_ k: Int) -> UInt16 { extras.textUnit(textStart + k - range.lowerBound) }
        guard DictionaryScripts.contains(unit(lineStart)) else { return nil }
        var p = lineStart
        while p < range.upperBound && (DictionaryScripts.contains(unit(p)) || DictionaryScripts.isMark(unit(p))) { p += 1 }
        // Extend to the original break at or after the run's end (inside the kept range).
        let runEnd = min(Int(end(segment(endingAtOrAfter: p))), range.upperBound)
        let text = (lineStart..<runEnd).map(unit)
        let language = extras.language
        let found = text.withUnsafeBufferPointer { buffer in try? UnicodeAnalysis.lineBreaks(buffer, language: language) }
        guard let found else { return nil }
        var result = found.ends.map { $0 + Int32(lineStart) }.filter { Int($0) > lineStart }
        if result.last.map({ Int($0) }) != runEnd { result.append(Int32(runEnd)) }
        return result
    }

    /// For a line that starts at an ordinary break inside a dictionary-script run (between two
    /// of its words): Chromium runs its break iterator from every line start, so the rest of the
    /// run is segmented again from there, and ICU's dictionary engines find no break in a range
    /// of at most four code points (their minimum span for two words): `မရပေ။` at 1 px is
    /// `မ` / `ရပေ။` in Chromium, not `မ` / `ရ` / `ပေ။` (docs/CHROMIUM.md §3(g), sixteenth
    /// round). Returns the breaks found again from `p` (``dictionaryBreaks(from:)``) when they
    /// differ from the stored ones (preparing lists such starts), else nil. Only a short rest
    /// of a run is asked about: over the Thai, Khmer and Myanmar corpora every difference had a
    /// rest of at most four units, and a run's words found from one of its word starts are
    /// otherwise the words found from its start.
    func refoundDictionaryBreaks(at p: Int) -> [Int32]? {
        guard extras.isRefoundStart(p) else { return nil }
        return dictionaryBreaks(from: p)
    }

    /// The longest rest of a dictionary run (UTF-16 units) that ``refoundDictionaryBreaks(at:)``
    /// asks ICU about again: twice ICU's four code points, for marks.
    static var refoundRestLimit: Int { 8 }

    /// Width of the hanging white space `a..<b` after content ending at pen `x`: its advances,
    /// or with a tab (or `tabbed`), the spaces' advances and tab stops (``TabStop``). A space's
    /// advance is its shaped one, kerned as drawn: Chromium's `a\t Wikipedia` (Liberation Serif
    /// 60 px) has the space after the tab 13.92 px wide, kerned before `W`, not the font's
    /// 15 px space (docs/CHROMIUM.md §3(n), twelfth round).
    func trailingWidth(_ a: Int, _ b: Int, from x: Int64, tabbed: Bool = false) -> Int64 {
        let units = self.units
        var hasTab = tabbed
        if !hasTab { for u in a..<b where units.kind(u) == MetricsBlock.Attribute.tab { hasTab = true; break } }
        guard hasTab else { return advanceSum(a..<b) }
        var pen = x
        for u in a..<b {
            switch units.kind(u) {
            case MetricsBlock.Attribute.space: pen += units.advance(u)
            case MetricsBlock.Attribute.tab:
                pen = u > 0 && units.isSoftHyphen(u - 1) ? TabStop.end(from: pen, spaceWidth: spaceWidth, afterHyphen: Int64(hyphenWidth))
                    : TabStop.end(from: pen, spaceWidth: spaceWidth)
            default: break
            }
        }
        return pen - x
    }

    /// Lays out a dictionary-script run from a line start inside one of its words with the break
    /// offsets ``dictionaryBreaks(from:)`` found (the last is an original break), greedily and
    /// with overflow-wrap, finding the words again after every split inside a word. On return
    /// the line holding the run's last piece is still open: `lineStart`, `content` and `x`
    /// describe it. Returns the index of the first segment after the run, or nil when `emit`
    /// asked to stop.
    func layOutDictionaryRun(_ firstBreaks: [Int32], lineStart: inout Int32, content: inout Int64, x: inout Int64,
                             limit: Int64, _ emit: (Int32, Int32, Int64, Bool) -> Bool) -> Int? {
        let units = self.units
        let levelRuns = bidiRunTable
        var breaks = firstBreaks
        var k = 0
        var a = Int(lineStart)
        var placed = false
        content = 0
        x = 0
        while k < breaks.count {
            let b = Int(breaks[k])
            var contentEnd = b
            while contentEnd > a && units.isHanging(contentEnd - 1) { contentEnd -= 1 }
            var w = a == Int(lineStart) && !placed ? lineStartWidth(a, contentEnd) : advanceSum(a..<contentEnd)
            // A bidi level run the line starts inside, ending in this word: its part rounded on
            // its own (BidiItemRounding), as the general loop's `levelRunEndCorrection`.
            var growth = dictionaryWordRunGrowth(levelRuns, lineStart: Int(lineStart), word: a, contentEnd: contentEnd, end: b)
            w += growth.content
            if placed && x + w > limit {
                if !emit(lineStart, Int32(a), content, false) { return nil }
                lineStart = Int32(a)
                placed = false
                // The new line finds the run's words again from its start (these breaks were
                // found from an earlier line start, so ICU is asked again here, on this rare path:
                // `เวตาลกล่าวว่า` split at `ล่า|ว` sees `วว่า` from `ว`).
                if let again = dictionaryBreaks(from: a), !again.elementsEqual(breaks[k...]) {
                    breaks = again
                    k = 0
                    continue
                }
                // The word now starts a line: inside a cluster it is shaped again from there.
                growth = dictionaryWordRunGrowth(levelRuns, lineStart: a, word: a, contentEnd: contentEnd, end: b)
                w = lineStartWidth(a, contentEnd) + growth.content
            }
            if !placed && w > limit {
                // Overflow-wrap breaks only between graphemes: a word that the dictionary ends
                // inside one (Myanmar `စ္|စ`, `င်္|က`: ICU words, one Unicode 16 grapheme) is
                // split up to that grapheme's end, into the next word (Chromium at 1 px:
                // `ပ` / `စ္စ` / `ည်` / `း`; docs/CHROMIUM.md §3(d)).
                let wordEnd = contentEnd
                if contentEnd == b {
                    let last = Int(breaks[breaks.count - 1])
                    while contentEnd < last && !units.isGraphemeStart(contentEnd) { contentEnd += 1 }
                    if contentEnd > wordEnd {
                        while k + 1 < breaks.count && Int(breaks[k]) < contentEnd { k += 1 }
                    }
                }
                var gx: Int64 = 0, u = a
                var again: [Int32]?
                while u < contentEnd {
                    let piece = breakWordLine(from: u, contentEnd: contentEnd, limit: limit, endTrim: 0)
                    if piece.end == contentEnd { gx = piece.width; break }
                    if !emit(lineStart, Int32(piece.end), piece.width, false) { return nil }
                    lineStart = Int32(piece.end)
                    u = piece.end
                    if let found = dictionaryBreaks(from: u) { again = found; break }
                }
                if let again {
                    breaks = again
                    k = 0
                    a = Int(lineStart)
                    continue
                }
                content = gx
                // The last piece's content is corrected by `breakWordLine`; its hanging white
                // space, on the line the last piece starts, here.
                growth = dictionaryWordRunGrowth(levelRuns, lineStart: Int(lineStart), word: a, contentEnd: contentEnd, end: b)
                growth.content = 0
                if contentEnd > wordEnd {
                    // The line goes on inside word k, after the grapheme.
                    x = content
                    placed = true
                    a = contentEnd
                    continue
                }
            } else {
                content = placed ? x + w : w
            }
            x = content + trailingWidth(contentEnd, b, from: content) + growth.trailing
            placed = true
            a = b
            k += 1
        }
        // The segment that ends where the run ends.
        return segment(endingAtOrAfter: a) + 1
    }

    /// How much the dictionary word `a..<end` (content up to `contentEnd`) grows, in its content
    /// or its hanging white space, on a line starting at unit `lineStart`: nonzero when it holds
    /// the last unit of the bidi level run the line starts inside (after the run's start).
    /// Chromium rounds the run's part from the line start, `ceil64(part) − part`, where the
    /// stored advances carry the whole run's pad. Rejects in a compare or two (no runs; the run
    /// ends outside the word); otherwise sums the line's units up to the run's end once, as
    /// this path sums every word it places (lines after an overflow-wrap split, rare).
    @inline(__always)
    func dictionaryWordRunGrowth(_ runs: MetricsBlock.BidiRunTable, lineStart: Int, word a: Int, contentEnd: Int,
                                 end: Int) -> (content: Int64, trailing: Int64) {
        guard runs.count > 0, let (run, _, _) = runs.run(endingAtOrAfter: max(lineStart, a)), lineStart > Int(run.start) else { return (0, 0) }
        let last = Int(run.last)
        guard last >= a && last < end else { return (0, 0) }
        let part = advanceSum(lineStart..<last + 1) - Int64(run.pad)
        let amount = BidiItemRounding.correction(part: part, pad: run.pad)
        return last < contentEnd ? (amount, 0) : (0, amount)
    }
}

extension MetricsBlock.View {
    /// Where a line that starts at unit `u` of an overflowing word ends when overflow-wrap
    /// breaks the word (`u..<contentEnd` is the rest of the word), as Chromium's shaping line
    /// breaker finds it (docs/CHROMIUM.md §3(h)): the candidate is the cluster that reaches past
    /// the limit; a break before it when it starts after `u`, or inside it before one of its
    /// graphemes, the last whose prefix (shaped alone, see ``ClusterSplit``) still fits; a line
    /// that fits nothing keeps the first cluster but its last grapheme, or the first grapheme.
    /// `endTrim` is what a closing bracket ending the word may give up to fit
    /// (``trimmedEndFits(_:lastAdvance:trim:itemX:limit:)``). Returns the end,
    /// the line's width there (untrimmed) and whether the bracket's trim made it fit.
    func breakWordLine(from u: Int, contentEnd: Int, limit: Int64, endTrim: Int64) -> (end: Int, width: Int64, trimmed: Bool) {
        var itemPens: (unit: Int, x: Int64) = (0, 0)
        var itemRest = ItemRest()
        return breakWordLine(from: u, contentEnd: contentEnd, limit: limit, endTrim: endTrim, itemPens: &itemPens, itemRest: &itemRest)
    }

    /// ``breakWordLine(from:contentEnd:limit:endTrim:)`` with the caller's `itemPen(at:cache:)`
    /// and `itemRest(from:cache:)` caches, so that the pens of one text's lines are walked once,
    /// not from the start per word.
    func breakWordLine(from u: Int, contentEnd: Int, limit: Int64, endTrim: Int64,
                       itemPens: inout (unit: Int, x: Int64), itemRest: inout ItemRest) -> (end: Int, width: Int64, trimmed: Bool) {
        let piece = breakWordLineByAdvances(from: u, contentEnd: contentEnd, limit: limit, endTrim: endTrim, itemPens: &itemPens)
        // A break inside a joined Arabic word is checked again as Chromium checks it (it can only
        // come earlier: `rightToLeftJoinedBreak`).
        guard !piece.trimmed, piece.end > u,
              let b = rightToLeftJoinedBreak(from: u, contentEnd: contentEnd, before: piece.end, limit: limit, cache: &itemRest),
              b < piece.end else { return piece }
        return (b, lineStartWidth(u, b), false)
    }

    /// `breakWordLine(from:contentEnd:limit:endTrim:itemPens:itemRest:)` by the measured advances,
    /// before the right-to-left check.
    private func breakWordLineByAdvances(from u: Int, contentEnd: Int, limit: Int64, endTrim: Int64,
                                         itemPens: inout (unit: Int, x: Int64)) -> (end: Int, width: Int64, trimmed: Bool) {
        let units = self.units
        let extras = self.extras
        @inline(__always) func boundary(_ k: Int) -> Bool { k >= contentEnd || (units.isClusterStart(k) && units.isGraphemeStart(k)) }
        // A line that starts inside a cluster (after a break inside it) begins with the rest of
        // the cluster shaped alone, as Chromium reshapes a line start that is not safe to break
        // (a lone Myanmar vowel sign then gets HarfBuzz's dotted circle).
        let startsInside = !boundary(u)
        if u > 0 && headerFlags & MetricsBlock.HeaderFlag.extras != 0,
           let unsafe = unsafeStartBreak(from: u, contentEnd: contentEnd, limit: limit) {
            return (unsafe.end, unsafe.width, false)
        }
        if u > 0 && headerFlags & MetricsBlock.HeaderFlag.extras != 0,
           let kerned = kernedStartBreak(from: u, contentEnd: contentEnd, limit: limit) {
            return (kerned.end, kerned.width, false)
        }
        // A bidi level run ending inside the word, the line starting inside it: its part from
        // `u` is rounded up on its own, not with the whole run's folded pad (BidiItemRounding).
        var runLast = -1
        var runCorrection: Int64 = 0
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0, let run = bidiRunTable.run(endingAtOrAfter: u)?.run,
           u > Int(run.start), Int(run.last) < contentEnd {
            runLast = Int(run.last)
            var padded: Int64 = 0
            for k in u...runLast { padded += units.advance(k) }
            runCorrection = BidiItemRounding.correction(part: padded - Int64(run.pad), pad: run.pad)
        }
        // Every grapheme boundary after `u` so far, with the width of the line ending there as
        // Chromium checks it: inside a cluster its prefix shaped alone; at a cluster end the
        // cluster's own width when kerning tied it to the next one.
        var candidates: [(end: Int, width: Int64)] = []
        var x: Int64 = 0
        var c = u
        while c < contentEnd {
            var c1 = c + 1
            while !boundary(c1) { c1 += 1 }
            // A line start inside a cluster, or at CJK punctuation reshaped there (``LineStartReshape``).
            let alone = c == u && (startsInside || (u > 0 && headerFlags & MetricsBlock.HeaderFlag.extras != 0
                                                        && extras.aloneWidth(u, c1) != nil))
            var total: Int64 = 0
            if alone { total = shapedAlone(u..<c1) } else { for k in c..<c1 { total += units.advance(k) } }
            if c <= runLast && runLast < c1 { total += runCorrection }
            var prefix: Int64 = 0
            var k = c
            for g in c + 1..<c1 where units.isGraphemeStart(g) {
                if alone {
                    prefix = shapedAlone(u..<g)
                } else {
                    while k < g { prefix += units.advance(k); k += 1 }
                }
                candidates.append((g, x + prefix))
            }
            if x + total > limit {
                if c1 == contentEnd && endTrim > 0 {
                    if Self.trimmedEndFits(x + total, lastAdvance: units.advance(contentEnd - 1), trim: endTrim,
                                           itemX: itemPen(at: u, cache: &itemPens), limit: limit) { return (contentEnd, x + total, true) }
                }
                // A closing mark inside the word trims at the line end (a negative line-end
                // kerning entry, ``collectInWordLineEndTrims``): the line may end after it.
                if c1 < contentEnd, case let g = extras.kerningGrowth(at: c1), g < 0, x + total + g <= limit {
                    candidates.append((c1, x + total + g))
                }
                // The latest boundary up to the cluster reaching past the limit whose line fits.
                if let fit = candidates.last(where: { $0.width <= limit }) { return (fit.end, fit.width, false) }
                // Nothing fits: the line overflows up to the latest boundary, or takes the first grapheme.
                if let last = candidates.last { return (last.end, last.width, false) }
                return (c1, total, false)
            }
            x += total
            c = c1
            if c < contentEnd { candidates.append((c, x + extras.kerningGrowth(at: c))) }
        }
        return (contentEnd, x, false)
    }

    /// The end of the shaping item holding unit `s` (the bidi level run's end, or a `pre-wrap`
    /// newline or tab before it, or the text's end) and the width of the item's units from `s`
    /// on, without the run's folded pad (`BidiItemRounding`). `cache` holds the last answer: a
    /// later unit of the same item is found from it by the advances in between.
    func itemRest(from s: Int, cache: inout ItemRest) -> ItemRest {
        if cache.unit >= 0 && cache.unit <= s && s < cache.end {
            cache.rest -= advanceSum(cache.unit..<s)
            cache.unit = s
            return cache
        }
        let units = self.units
        var e = unitCount
        var pad: Int64 = 0
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0, let run = bidiRunTable.run(endingAtOrAfter: s)?.run {
            e = Int(run.last) + 1
            pad = Int64(run.pad)
        }
        var rest: Int64 = 0
        var k = s
        while k < e {
            let kind = units.kind(k)
            if (kind == MetricsBlock.Attribute.newline && units.attributes(k) & MetricsBlock.Attribute.ideographicSpace == 0)
                || kind == MetricsBlock.Attribute.tab { break }
            rest += units.advance(k)
            k += 1
        }
        if k < e { pad = 0 }
        cache = ItemRest(unit: s, end: k, rest: rest - pad, pad: pad)
        return cache
    }

    /// Where Chromium ends an overflow-wrap line starting at `s` inside or at an Arabic word
    /// whose letters join (measured and read from its source, docs/CHROMIUM.md §3(n), thirteenth
    /// and fourteenth rounds), when that is before `before` (the caller's break by advances, at
    /// most `contentEnd`, the word's end) — nil otherwise, or when the rule does not apply (no
    /// joined letter up to `before`: then Chromium's break is not earlier).
    /// `ShapingLineBreaker::ShapeLine` finds breaks by positions in the item's shape result: in a
    /// right-to-left item, position `pos(o)` is the width of the item from `o` to its end,
    /// rounded up to the layout unit. Then:
    /// - A line that starts before a joined letter (unsafe to break) is shaped again up to the
    ///   first safe offset `fs`; the available width `A` (``fitLimit``) becomes
    ///   `A + (pos(s) − pos(fs)) − ceil(width(s, fs))`.
    /// - The candidate is the last offset whose position is at most that from the line start's;
    ///   the break, the last grapheme boundary up to it.
    /// - A break before a joined letter, when a safe offset lies between the line start and it,
    ///   is shaped again from the last safe offset `ls` before it and kept only if
    ///   `width(ls, b) ≤ pos(ls) − pos(s) + A` (the exact width against rounded positions);
    ///   otherwise the boundary before is tried the same way. With no safe offset in between
    ///   the line is taken unchecked.
    /// The line breaker then still requires the line's own width, rounded up, to fit (the
    /// caller's break by advances): the earlier of the two wins. DejaVu Sans 12.73 px, `rtl`:
    /// `المساء ذهب` needs 1671/64 px for the first line `المس` where `المساء ذ` needs 1670/64
    /// (the text after the word moves the rounding of the positions).
    func rightToLeftJoinedBreak(from lineStart: Int, contentEnd: Int, before: Int, limit lineLimit: Int64, cache: inout ItemRest) -> Int? {
        let units = self.units
        // Only units up to the caller's break are read here: a word's lines read it once.
        var joined = false
        for k in lineStart..<min(before + 1, contentEnd) where units.isJoinedToPrevious(k) { joined = true; break }
        guard joined else { return nil }
        // A word that goes on into other items (`吧。مرحبا`): the items that fit are placed whole,
        // each rounded up, and the first that does not is broken in the width left.
        var s = lineStart, limit = lineLimit
        var item = itemRest(from: s, cache: &cache)
        while item.end < contentEnd {
            guard item.end > s else { return nil }
            let part = Self.ceilToLayoutUnit(lineStartWidth(s, item.end) - item.pad)
            if part > limit { break }
            limit -= part
            s = item.end
            item = itemRest(from: s, cache: &cache)
        }
        let e = item.end
        let contentEnd = min(contentEnd, e)
        joined = false
        for k in s..<min(before + 1, contentEnd) where units.isJoinedToPrevious(k) { joined = true; break }
        guard joined, s < before else { return nil }
        @inline(__always) func advance(_ k: Int) -> Int64 { units.advance(k) - (k == e - 1 ? item.pad : 0) }
        @inline(__always) func safe(_ k: Int) -> Bool { k >= e || (units.isClusterStart(k) && !units.isJoinedToPrevious(k)) }
        @inline(__always) func boundary(_ k: Int) -> Bool { k >= contentEnd || (units.isClusterStart(k) && units.isGraphemeStart(k)) }
        @inline(__always) func width(_ a: Int, _ b: Int) -> Int64 {
            var w: Int64 = 0
            for k in a..<b { w += advance(k) }
            return w
        }
        // The position of offset `o` (16.16, a multiple of 1/64 px).
        @inline(__always) func position(_ o: Int) -> Int64 { o >= e ? 0 : Self.ceilToLayoutUnit(item.rest - width(s, o)) }
        let start = position(s)
        var available = limit
        var firstSafe = s
        if !safe(s) {
            // (A joined stretch running far past the line is left to the advances: each line
            // would walk it again.)
            repeat { firstSafe += 1 } while !safe(firstSafe) && firstSafe < before + 256
            guard safe(firstSafe) else { return nil }
            available += (start - position(firstSafe)) - Self.ceilToLayoutUnit(width(s, firstSafe))
            available = max(available, 0)
        }
        // The candidate: the last cluster boundary whose position fits (CachedOffsetForPosition).
        var candidate = s
        var x: Int64 = 0
        while candidate < contentEnd {
            var next = candidate + 1
            while next < contentEnd && !units.isClusterStart(next) { next += 1 }
            var w: Int64 = 0
            for k in candidate..<next { w += advance(k) }
            let p = next >= e ? 0 : Self.ceilToLayoutUnit(item.rest - x - w)
            if start - p > available { break }
            x += w
            candidate = next
        }
        guard candidate < contentEnd else { return nil }
        var b = candidate
        while b > s && !boundary(b) { b -= 1 }
        guard b > s else { return nil }
        if firstSafe >= b { return b }
        while b > s {
            var lastSafe = b
            while lastSafe > s && !safe(lastSafe) { lastSafe -= 1 }
            if lastSafe == b { return b }
            if lastSafe < firstSafe { lastSafe = s }
            if width(lastSafe, b) <= position(lastSafe) - start + available { return b }
            b -= 1
            while b > s && !boundary(b) { b -= 1 }
        }
        // Nothing fits after reshaping: Chromium lets the line overflow; the caller's break stands.
        return nil
    }

    /// Where Chromium ends a line that starts at `s`, a joined Arabic letter after an
    /// overflow-wrap split, when the word's rest ends in segment `i` and the words after it
    /// would fit by their advances (docs/CHROMIUM.md §3(n), fourteenth round): the line's
    /// candidate is found once, by positions, with the width its reshaped start left
    /// (`rightToLeftJoinedBreak`), so a word after the rest goes on the line only if it ends by
    /// that candidate. `pen`: the pen after segment `i`, its hanging white space included;
    /// `content`: the line's width up to segment `i`'s content. Returns the last segment the
    /// line keeps and the line's width, when that is before where the advances would end it;
    /// nil otherwise or where not modelled (a segment that is not plain, the item's end).
    func resumedJoinedLineEnd(from s: Int, after i: Int, pen: Int64, content: Int64, limit: Int64,
                              cache: inout ItemRest) -> (segment: Int, width: Int64)? {
        let units = self.units
        guard s > 0, s < unitCount, units.isJoinedToPrevious(s) else { return nil }
        let item = itemRest(from: s, cache: &cache)
        let e = item.end
        @inline(__always) func safe(_ k: Int) -> Bool { k >= e || (units.isClusterStart(k) && !units.isJoinedToPrevious(k)) }
        // The positions from the line start: pos(o) = ceil64(rest − width(s, o)).
        var firstSafe = s
        var w: Int64 = 0
        repeat { w += units.advance(firstSafe); firstSafe += 1 } while !safe(firstSafe) && firstSafe < s + 256
        guard safe(firstSafe), firstSafe < e else { return nil }
        let start = Self.ceilToLayoutUnit(item.rest)
        let available = max(0, limit + (start - Self.ceilToLayoutUnit(item.rest - w)) - Self.ceilToLayoutUnit(w))
        var j = i + 1
        var pen = pen, content = content
        var x = w                       // width(s, o) for the walk below
        var o = firstSafe
        while j < segmentCount {
            guard codes[j] & MetricsBlock.Code.special == 0, Int(end(j)) < e else { return nil }
            let next = pen + Int64(widths[j])
            if next > limit { return nil }
            // Segment j ends the line by positions if its content end is past the candidate.
            let ce = contentEnd(j)
            while o < ce { x += units.advance(o); o += 1 }
            if start - Self.ceilToLayoutUnit(item.rest - x) > available { return (j - 1, content) }
            content = next
            pen = next + trailing(j)
            j += 1
        }
        return nil
    }

    /// The break of an overflow-wrap line starting at `u` when Chromium takes it unchecked
    /// (``UnsafeLineStart``): positions as in the shaped text (a cluster's characters at its
    /// start, so a line starting inside a cluster starts at the cluster's start); the cluster
    /// reaching past the limit has several graphemes, and no offset from `u` up to its start is
    /// safe to break. The line then ends before that cluster's last grapheme. Nil otherwise.
    /// The limit is moved by what shaping the line's start again changes (Chromium widens the
    /// available space by the stretch's width in context minus its width alone): a line starting
    /// inside a cluster counts the cluster's rest shaped alone, not the whole cluster — Noto Sans
    /// Myanmar `လာရာ` at 45 px is `လ` / `ာရ` / `ာ` (the lone `ာ`, 37.25 px alone, where `လာ` is
    /// 56.14 in context; docs/CHROMIUM.md §3(n), eighteenth round).
    func unsafeStartBreak(from u: Int, contentEnd: Int, limit: Int64) -> (end: Int, width: Int64)? {
        let units = self.units
        let extras = self.extras
        @inline(__always) func boundary(_ k: Int) -> Bool { k >= contentEnd || (units.isClusterStart(k) && units.isGraphemeStart(k)) }
        var p = u
        while p > 0 && !boundary(p) { p -= 1 }
        let first = p
        var x: Int64 = 0
        while p < contentEnd {
            var q = p + 1
            while !boundary(q) { q += 1 }
            var advance: Int64 = 0
            if p < u { advance = shapedAlone(u..<q) } else { for k in p..<q { advance += units.advance(k) } }
            if x + advance > limit {
                guard p > first || p == u, let distance = extras.aloneWidth(p, p), p - Int(distance) < u else { return nil }
                var last = -1
                for g in p + 1..<q where units.isGraphemeStart(g) { last = g }
                guard last > p else { return nil }
                return (last, lineStartWidth(u, p) + shapedAlone(p..<last))
            }
            x += advance
            p = q
        }
        return nil
    }

    /// The break of an overflow-wrap line starting at `u` where kerning tied the cluster before
    /// to `u` (HarfBuzz: not safe to break before `u`), when Chromium takes it unchecked
    /// (docs/CHROMIUM.md §3(n), twelfth round): `ShapingLineBreaker::ShapeLine` reshapes such a
    /// line from `u` up to the next offset safe to break, and a candidate break (the furthest
    /// cluster end whose position in the shaped text, kerned, fits) inside that stretch is the
    /// line, its reshaped width not checked again — Liberation Serif 31.2 px `de VAT` at 40 px
    /// is `de` / `VA` (41.03 px) / `T`, where `VAT` alone is `V` / `AT`. Not after only white
    /// space from the paragraph's start (`  VAT` in pre-wrap is `  ` / `V` / `AT`). Nil otherwise.
    func kernedStartBreak(from u: Int, contentEnd: Int, limit: Int64) -> (end: Int, width: Int64)? {
        let units = self.units
        let extras = self.extras
        guard extras.kerningGrowth(at: u) > 0, units.isClusterStart(u) && units.isGraphemeStart(u) else { return nil }
        var p = u - 1
        while p >= 0 && units.isHanging(p) { p -= 1 }
        guard p >= 0 else { return nil }
        var best: (end: Int, width: Int64)? = nil
        var x: Int64 = 0
        var c = u
        while c < contentEnd {
            var c1 = c + 1
            while c1 < contentEnd && !(units.isClusterStart(c1) && units.isGraphemeStart(c1)) { c1 += 1 }
            for k in c..<c1 { x += units.advance(k) }
            // The whole rest fits, or the stretch ends at a safe offset up to the candidate.
            if x > limit || c1 >= contentEnd { break }
            let growth = extras.kerningGrowth(at: c1)
            guard growth > 0 else { return nil }
            best = (c1, x + growth)
            c = c1
        }
        return x > limit ? best : nil
    }

    /// Width of `a..<b` at the start of a line: when `a` is inside a cluster (a break inside it
    /// ended the previous line), the rest of the cluster counts shaped alone (``shapedAlone(_:)``).
    /// CJK punctuation a line start shapes again alone (``LineStartReshape``) counts with its
    /// recorded width too.
    func lineStartWidth(_ a: Int, _ b: Int) -> Int64 {
        let units = self.units
        guard a > 0, a < b else { return advanceSum(a..<b) }
        let atCluster = units.isClusterStart(a) && units.isGraphemeStart(a)
        if atCluster && headerFlags & MetricsBlock.HeaderFlag.extras == 0 { return advanceSum(a..<b) }
        var c1 = a + 1
        while c1 < b && !(units.isClusterStart(c1) && units.isGraphemeStart(c1)) { c1 += 1 }
        if atCluster {
            guard let reshaped = extras.aloneWidth(a, c1) else { return advanceSum(a..<b) }
            return reshaped + advanceSum(c1..<b)
        }
        return shapedAlone(a..<c1) + advanceSum(c1..<b)
    }

    /// Width of `range` (the rest of a cluster from a grapheme inside it) shaped alone with its
    /// run's font, 16.16 px, as recorded when the text was prepared (``ClusterSplit``); the sum
    /// of its advances when not recorded.
    func shapedAlone(_ range: Range<Int>) -> Int64 {
        extras.aloneWidth(range.lowerBound, range.upperBound) ?? advanceSum(range)
    }
}

/// The end of a shaping item and the width of its units from `unit` to there
/// (`itemRest(from:cache:)`); `unit` -1: nothing known yet.
struct ItemRest {
    var unit = -1, end = 0
    var rest: Int64 = 0, pad: Int64 = 0
}

/// Kerning a line end gives back: Chromium shapes a line's end again alone when the break is
/// not safe to break (HarfBuzz kerned across it), and checks that the line still fits
/// (ShapingLineBreaker::ShapeLine, docs/CHROMIUM.md §3(h)). A cluster that kerning tightened
/// against the next one is wider at a line end by what the kerning took away.
enum LineEndKerning {
    /// (run offset, kerning in design units) of each cluster whose last glyph GPOS tightened
    /// against a next cluster that HarfBuzz marks unsafe to break before, flat, read from
    /// HarfBuzz's output (`clusterOffset`: where the run starts in the shaped text). Zero-width
    /// glyphs (marks) are left out. Empty (no allocation) for most words.
    static func collect(_ glyphs: HarfBuzz.Glyphs, clusterOffset: Int32, rightToLeft: Bool, font: Font) -> [Int32] {
        let n = glyphs.count
        var pairs: [Int32] = []
        for i in 0..<n where glyphs.xAdvance(i) != 0 {
            // The glyph that follows in logical order, and whether it starts another cluster.
            let next = rightToLeft ? i - 1 : i + 1
            guard next >= 0 && next < n, glyphs.cluster(next) != glyphs.cluster(i), glyphs.unsafeToBreak(next) else { continue }
            // Only the cluster's last glyph in logical order.
            let own = HarfBuzz.advance(font.hbFont, glyph: glyphs.glyph(i))
            let kern = glyphs.xAdvance(i) &- own
            guard kern < 0, own > 0 else { continue }
            pairs.append(Int32(bitPattern: glyphs.cluster(i)) - clusterOffset)
            pairs.append(kern)
        }
        return pairs
    }
}

/// Line starts Chromium shapes again (docs/CHROMIUM.md §3(e), "Line starts that are reshaped"):
/// CJK punctuation that `text-spacing-trim` kerned against the character before it (an opening
/// mark after an opening, middle, closing or narrow opening one; a closing mark after a closing
/// one that it trims) is not safe to break before. When a line starts there, Chromium shapes
/// the mark again **alone**, untrimmed, with font fallback started afresh from the mark — so
/// `《` after `。` takes fontconfig's first font for `《` (Noto Sans Lisu, 0.46 em), `「` after
/// `・` is full width again. After U+3000 nothing is reshaped (the break follows a space).
enum LineStartReshape {
    /// Whether the pair `previous`, `this` (UTF-16 units in one font with `spacing`) is kerned
    /// by text-spacing-trim, so that a line starting at `this` reshapes it.
    static func kerned(_ previous: UInt16, _ this: UInt16, spacing: PunctuationSpacing) -> Bool {
        guard previous != 0x3000 else { return false }
        let p = CJKPunctuation.kind(previous, in: spacing), t = CJKPunctuation.kind(this, in: spacing)
        return CJKPunctuation.trimsOpening(t, after: p) || CJKPunctuation.trimsClosing(p, before: t)
    }
}

/// A closing mark trimmed to fit a line end is shaped again alone with font fallback afresh
/// (``Builder/lineEndTrimAmount``); with `line-height: normal` the line box of a line trimmed
/// there counts the mark with that font, not its run's (`》` in Noto Sans Lisu, whose descent
/// is larger than Noto Sans CJK's at some sizes and whose ascent is smaller).
enum LineEndReshape {
    /// Marks a ``ParagraphArrays/reshapedFonts`` entry as a line end's (the unit is in the
    /// other bits; texts are at most 2^24 units).
    static let unitFlag: Int32 = 0x4000_0000
}

extension Builder {
    /// How `font` spaces CJK punctuation in this text: in its language, at its size, slanted and
    /// emboldened as the font draws this style (Chromium classes punctuation from the glyphs as
    /// drawn, synthetic italic and bold included, docs/CHROMIUM.md §3(e)).
    func punctuationSpacing(of font: Font) -> PunctuationSpacing {
        let synthesis = fonts.synthesis(for: font, style: style)
        return font.punctuationSpacing(language, size: style.size, synthesis: synthesis)
    }

    /// `units[range]` shaped alone with font fallback started afresh from it (a chooser that
    /// sees only these units, so they are their own hint character): the font and the width.
    mutating func shapedAfresh(_ units: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, rightToLeft: Bool,
                               buffer: HBBuffer) -> (font: Font, width: Int32) {
        let piece = UnsafeBufferPointer(rebasing: units[range])
        let font = afreshFont(piece)
        let designUnits = ClusterSplit.width(units, range, font: font, rightToLeft: rightToLeft, language: language, buffer: buffer)
        return (font, clamp(font.fixedAdvance(designUnits, scale: font.fixedScale(size: style.size), size: style.size)))
    }

    /// The font a chooser started afresh takes for `piece` (seeing only it). A fresh
    /// `FontFallback` costs ~20 k instructions to set up and ask; its answer depends only on
    /// the piece and the style context, so pieces of up to three units are remembered with the
    /// context's id (``afreshFonts``; not for a builder outside any context, `contextID` −1).
    /// Keyed by context rather than emptied when it changes: a list's cells alternate styles.
    mutating func afreshFont(_ piece: UnsafeBufferPointer<UInt16>) -> Font {
        guard piece.count <= 3, contextID >= 0 else {
            var fresh = FontFallback(style: style, primary: primary, fonts: fonts)
            return fresh.font(for: piece, 0, piece.count)
        }
        var key = UInt64(piece.count) << 60
        for i in 0..<piece.count { key |= UInt64(piece[i]) << UInt64(16 * i) }
        for entry in afreshFonts where entry.piece == key && entry.context == contextID { return entry.font }
        var fresh = FontFallback(style: style, primary: primary, fonts: fonts)
        let font = fresh.font(for: piece, 0, piece.count)
        if afreshFonts.count >= 64 { afreshFonts.removeAll() }
        afreshFonts.append((key, contextID, font))
        return font
    }

    /// What the closing mark at `last` (in `run`, whose font trims it) gives up when a line
    /// ending there must be trimmed to fit (16.16 px): Chromium shapes the mark again alone,
    /// with font fallback afresh, trimmed when that font trims it — half its advance in the
    /// same CJK font, but `》` becomes Noto Sans Lisu's 0.46 em (docs/CHROMIUM.md §3(e)).
    ///
    /// The half is HarfBuzz's `halt` adjustment: half the mark's design advance at the font's
    /// linear scale, not at FreeType's rounded one (16 px: 8 px off a 16.00003 px mark, 21.1 px:
    /// 10.55 px; docs/CHROMIUM.md §3(e)).
    /// `recordsReshape`: record the reshaped font for the line box (a segment's end; not a mark
    /// inside a word, whose line box is not followed).
    mutating func lineEndTrimAmount(_ units: UnsafeBufferPointer<UInt16>, last: Int, run: GlyphRun, buffer: HBBuffer,
                                    recordsReshape: Bool = true) -> Int32 {
        // Below 1/64 px the font's scale is 0: no design advance to recover (and no room to save).
        let scale = run.font.fixedScale(size: style.size)
        guard scale > 0 else { return unitAdvances[last] / 2 }
        let designUnits = (Double(unitAdvances[last]) * 64 / Double(scale)).rounded()
        let half = clamp(Int64((designUnits * Double(Font.platformSize(style.size)) / Double(run.font.unitsPerEm) * 32768).rounded()))
        guard units[last] < 0xD800 || units[last] >= 0xE000 else { return half }
        let (font, width) = shapedAfresh(units, last..<(last + 1), rightToLeft: run.bidiLevel & 1 == 1, buffer: buffer)
        if font === run.font { return half }
        if recordsReshape && style.lineHeight == .normal {
            // A line trimmed here counts the mark in its line box with the font it is reshaped
            // in (docs/CHROMIUM.md §5, twelfth round). Not derived from the shaped runs.
            reshapedFonts.append((Int32(last) | LineEndReshape.unitFlag, font))
            recordsBeyondRuns = true
        }
        let trims = font.hasHalfWidthPunctuation && CJKPunctuation.trimsAtLineEnd(units[last], in: punctuationSpacing(of: font))
        return max(0, unitAdvances[last] - (trims ? width / 2 : width))
    }

    /// After the runs are shaped (``trimmed`` known): the widths of the punctuation marks a line
    /// start would reshape (``LineStartReshape``), recorded as (mark, grapheme end, width) in
    /// ``alone`` where they differ from the mark's width in context, in order. Returns the units
    /// that got one (segments starting there are flagged ``MetricsBlock/Flag/lineStartAlone``).
    mutating func collectReshapedLineStarts(_ units: UnsafeBufferPointer<UInt16>, buffer: HBBuffer) -> Set<Int> {
        if !reshapedFonts.isEmpty { reshapedFonts.removeAll() }
        collectInWordLineEndTrims(units, buffer: buffer)
        guard !trimmed.isEmpty else { return [] }
        var candidates = Set<Int>()
        for t in trimmed {
            if t > 0 { candidates.insert(t) }
            if t + 1 < units.count { candidates.insert(t + 1) }
        }
        var found = Set<Int>()
        for u in candidates.sorted() {
            guard let run = runs.last(where: { Int($0.start) <= u - 1 }), Int(run.end) > u, run.font.hasHalfWidthPunctuation,
                  LineStartReshape.kerned(units[u - 1], units[u], spacing: punctuationSpacing(of: run.font)) else { continue }
            var g1 = u + 1
            while g1 < units.count && graphemeStartBits[g1 >> 6] & (1 << UInt64(g1 & 63)) == 0 { g1 += 1 }
            let (font, width) = shapedAfresh(units, u..<g1, rightToLeft: run.bidiLevel & 1 == 1, buffer: buffer)
            var inContext: Int64 = 0
            for k in u..<g1 { inContext += Int64(unitAdvances[k]) }
            guard Int64(width) != inContext else { continue }
            // Keep `alone` ordered by (from, to): the entries so far are a run's cluster rests.
            var p = alone.count
            while p >= 3 && (alone[p - 3] > Int32(u) || (alone[p - 3] == Int32(u) && alone[p - 2] > Int32(g1))) { p -= 3 }
            alone.insert(contentsOf: [Int32(u), Int32(g1), width], at: p)
            found.insert(u)
            reshapedFonts.append((Int32(u), font))
        }
        if !found.isEmpty { recordsBeyondRuns = true }
        return found
    }

    /// A closing mark inside a word (no break after it: `ك”.`) that an overflow-wrap split right
    /// after it trims as at a segment end (docs/CHROMIUM.md §3(n), twelfth round): recorded as
    /// a negative entry of the line-end kerning table at the unit after it, which the split's
    /// candidates add. Not derived from the shaped runs (``recordsBeyondRuns``).
    mutating func collectInWordLineEndTrims(_ units: UnsafeBufferPointer<UInt16>, buffer: HBBuffer) {
        // A mark's trim depends on the mark, its advance, its font and direction: shaped afresh
        // once per paragraph (most texts repeat a few quotes and brackets).
        var known: [(unit: UInt16, advance: Int32, font: ObjectIdentifier, rtl: Bool, amount: Int32)] = []
        // By index: copying every run (its font and shaped arrays) cost ~180,000 retains and
        // releases over the multilingual corpus.
        for k in runs.indices where runs[k].font.hasHalfWidthPunctuation {
            let run = runs[k]
            var spacing: PunctuationSpacing?
            for u in Int(run.start)..<Int(run.end) where u + 1 < units.count && CJKPunctuation.isClosingMark(units[u]) {
                let next = units[u + 1]
                // After it: a break (white space), a soft hyphen (the hyphen ends the line) or
                // punctuation the pair rules trim against; and only at a grapheme boundary.
                guard next != 0x20, next != 0x09, next != 0x0A, next != 0x0D, next != 0x3000, next != 0xAD, next >= 0x20,
                      !trimmed.contains(u), graphemeStartBits[(u + 1) >> 6] & (1 << UInt64((u + 1) & 63)) != 0,
                      !CJKPunctuation.isClosingMark(next) else { continue }
                if spacing == nil { spacing = punctuationSpacing(of: run.font) }
                guard CJKPunctuation.trimsAtLineEnd(units[u], in: spacing!) else { continue }
                let key = (unit: units[u], advance: unitAdvances[u], font: ObjectIdentifier(run.font), rtl: run.bidiLevel & 1 == 1)
                let amount: Int32
                if let hit = known.first(where: { $0.unit == key.unit && $0.advance == key.advance && $0.font == key.font && $0.rtl == key.rtl }) {
                    amount = hit.amount
                } else {
                    amount = lineEndTrimAmount(units, last: u, run: run, buffer: buffer, recordsReshape: false)
                    known.append((key.unit, key.advance, key.font, key.rtl, amount))
                }
                guard amount > 0 else { continue }
                var p = kerns.count
                while p >= 2 && kerns[p - 2] > Int32(u + 1) { p -= 2 }
                if p >= 2 && kerns[p - 2] == Int32(u + 1) { continue }
                kerns.insert(contentsOf: [Int32(u + 1), -amount], at: p)
                recordsBeyondRuns = true
            }
        }
    }
}

/// Overflow-wrap lines that start where HarfBuzz says a break is not safe (docs/CHROMIUM.md
/// §3(d), "Unsafe line starts"). Chromium's `ShapingLineBreaker::ShapeLine` shapes a line that
/// starts at an unsafe offset again from there up to the next safe-to-break offset; when the
/// candidate break lies inside that stretch, the stretch up to the candidate is the line — its
/// width is not checked again and the break does not move back. With every character of a
/// cluster at the cluster's start, the candidate inside the cluster that reaches past the limit
/// is before its last grapheme: Noto Sans Myanmar `ကနား` at 18.58 px is `က` / `နာ` / `း` (`နာ`,
/// 28.7 px, overflows), while `နား` alone (safe start) moves back to `န` / `ာ` / `း`.
enum UnsafeLineStart {
    /// Appends, for each multi-unit cluster of a run whose start is unsafe to break before, a
    /// `(c, c, d)` triple to the run's line-start table: `c - d` is the latest safe offset
    /// before `c` (the run start counts as safe). Keeps the table ordered by (from, to).
    static func record(clusters: [Int32], unsafe: [Bool], count: Int, into table: inout [Int32]) {
        guard count > 1 else { return }
        // The cluster starts, on the stack (a heap array through the unspecialized
        // `init(repeating:count:)` cost more than the rest).
        let found: [(Int32, Int32, Int32)] = withUnsafeTemporaryAllocation(of: Bool.self, capacity: count + 1) { isStart in
            isStart.initialize(repeating: false)
            for c in clusters where c >= 0 && Int(c) < count { isStart[Int(c)] = true }
            isStart[count] = true
            var entries: [(Int32, Int32, Int32)] = []
            var safe = 0
            var c0 = 0
            while c0 < count {
                var c1 = c0 + 1
                while !isStart[c1] { c1 += 1 }
                if !unsafe[c0] || c0 == 0 {
                    safe = c0
                } else if c1 - c0 > 1 {
                    entries.append((Int32(c0), Int32(c0), Int32(c0 - safe)))
                }
                c0 = c1
            }
            return entries
        }
        guard !found.isEmpty else { return }
        var entries = found
        for t in stride(from: 0, to: table.count, by: 3) { entries.append((table[t], table[t + 1], table[t + 2])) }
        entries.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        table.removeAll(keepingCapacity: true)
        for e in entries { table.append(e.0); table.append(e.1); table.append(e.2) }
    }
}

/// The script a run of only Common and Inherited characters (punctuation, digits, symbols) is
/// shaped in: Chromium's run segmenter gives such characters the script of the nearest
/// character before them in the paragraph that has one, else of the nearest after
/// (docs/CHROMIUM.md §1, "Script runs"). It matters where a font's glyph depends on the script:
/// Noto Sans CJK's `—` is 1 em shaped as Latin or Han but 0.89 em as Common (`x —`, `— x`,
/// `漢 —` at 34.5 px: 59.42, 59.42, 76.73 px; `—` alone 30.84).
enum CommonScript {
    /// Whether `scalar` has a definite script (not Common, Inherited or Unknown).
    @inline(__always) static func isDefinite(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return (scalar | 0x20) &- 0x61 < 26 }
        return ScriptRuns.script(of: scalar) >= 0
    }

    /// HarfBuzz's script for the run `units[start..<end]` when the run has no definite script
    /// of its own (searched in `paragraph` at `offset` when given: the run is in a chunk of it):
    /// 0 when the text around it has none either; nil when the run has one (HarfBuzz guesses it).
    /// `outside` is false only when the answer is a definite character before the run inside
    /// `units` itself: anything else (found after the run, or not at all) could change with
    /// text before the chunk in another paragraph, so such a chunk cannot be word-cached.
    /// `memo` keeps the last searches' answers for one text (`paragraph ?? units`), so that the
    /// runs of a long stretch without a definite script (`1 2 3 …`, a letter under thousands of
    /// marks shaped in pieces) do not each search the whole stretch again: the caller resets it
    /// (``Memo/init()``) whenever the text changes.
    static func script(ofRun units: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int,
                       paragraph: UnsafeBufferPointer<UInt16>?, offset: Int, memo: inout Memo) -> (script: UInt32, outside: Bool)? {
        var i = start
        while i < end {
            let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
            if isDefinite(scalar) { return nil }
            i += length
        }
        let text = paragraph ?? units
        let base = paragraph == nil ? 0 : offset
        // The nearest definite character before the run.
        let from = base + start
        var p = from
        var before: (scalar: UInt32, at: Int)? = nil
        while p > 0 {
            if memo.behindFrom >= 0 && p <= memo.behindFrom {
                // Nothing definite from here to the last search's start: its answer holds.
                before = memo.behind
                break
            }
            let (scalar, q) = QuotationRules.scalar(before: p, in: text)
            if isDefinite(scalar) { before = (scalar, q); break }
            p = q
        }
        if memo.behindFrom <= from {
            memo.behindFrom = from
            memo.behind = before
        }
        if let before { return (HarfBuzz.script(of: before.scalar), before.at < base) }
        // Else the nearest after it.
        let after = base + end
        if memo.aheadFrom >= 0 && memo.aheadFrom <= after && (memo.ahead.map { $0.at >= after } ?? true) {
            return (memo.ahead.map { HarfBuzz.script(of: $0.scalar) } ?? 0, true)
        }
        p = after
        var ahead: (scalar: UInt32, at: Int)? = nil
        while p < text.count {
            let (scalar, length) = UnicodeAnalysis.scalar(at: p, in: text)
            if isDefinite(scalar) { ahead = (scalar, p); break }
            p += length
        }
        memo.aheadFrom = after
        memo.ahead = ahead
        return (ahead.map { HarfBuzz.script(of: $0.scalar) } ?? 0, true)
    }

    /// The last searches of ``script(ofRun:_:_:paragraph:offset:memo:)`` in one text: the nearest
    /// definite character before `behindFrom` (nil: none) and at or after `aheadFrom`; -1: none yet.
    struct Memo {
        var behindFrom = -1
        var behind: (scalar: UInt32, at: Int)? = nil
        var aheadFrom = -1
        var ahead: (scalar: UInt32, at: Int)? = nil
    }
}

extension PreparedText {
    /// How much wider (negative: narrower) the cluster at unit `u` is when a line starts there
    /// than in context, 16.16 px: nonzero for CJK punctuation reshaped at a line start
    /// (``LineStartReshape``), so that drawing moves its glyph into the width that was measured.
    func lineStartDelta(at u: Int) -> Int64 {
        withView { view in
            guard u > 0, u < view.unitCount, view.headerFlags & MetricsBlock.HeaderFlag.extras != 0 else { return 0 }
            let units = view.units
            guard units.isClusterStart(u) && units.isGraphemeStart(u) else { return 0 }
            var c1 = u + 1
            while c1 < view.unitCount && !(units.isClusterStart(c1) && units.isGraphemeStart(c1)) { c1 += 1 }
            guard let reshaped = view.extras.aloneWidth(u, c1) else { return 0 }
            return reshaped - view.advanceSum(u..<c1)
        }
    }
}
