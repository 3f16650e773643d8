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

    /// Whether the table's row for `a` may allow a break (the rows of `beforeOpener`, `-` and
    /// `?`); false for every other ASCII unit, whatever follows it (letters, digits, most
    /// punctuation), and true beyond ASCII (the caller asks `applies` and the table then). Two
    /// constants, no table: the table's lazy global costs a check a call, nine a missed word.
    /// `ASCIIBreakRulesTests` checks the constants against the table.
    @inline(__always) static func mayAllowBreak(after a: UInt16) -> Bool {
        if a < 64 { return (0xEC00_7E6E_0000_0000 as UInt64) >> UInt64(a) & 1 != 0 }
        if a < 128 { return (0x7000_0000_3000_0000 as UInt64) >> UInt64(a - 64) & 1 != 0 }
        return true
    }

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
