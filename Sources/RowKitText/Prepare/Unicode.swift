/// ICU analyses of a whole paragraph, as plain arrays.
enum UnicodeAnalysis {
    /// Line-break opportunities (end offsets) and whether each is forced, as Chromium finds
    /// them with ICU: the rules of the content language (``lineBreakRules(for:)``); a break is
    /// forced only after a kept newline (ICU's other hard breaks — U+2028, U+2029, U+0085, VT,
    /// FF — are plain opportunities in a browser); and between two characters that are both
    /// ASCII or NBSP ICU is not asked at all (the caller adds the breaks after spaces and
    /// Chromium's table for printable pairs), so controls such as VT glue to their neighbours.
    static func lineBreaks(_ units: UnsafeBufferPointer<UInt16>, language: String? = nil) throws(TextError) -> (ends: [Int32], mandatory: [UInt8]) {
        var ends: [Int32] = []
        try lineBreaks(units, language: language, into: &ends)
        // A break is forced only after a kept newline.
        var mandatory: [UInt8] = []
        mandatory.reserveCapacity(ends.count)
        for p in ends { mandatory.append(units[Int(p) - 1] == 0x0A ? 1 : 0) }
        return (ends, mandatory)
    }

    /// The break offsets of ``lineBreaks(_:language:)`` into `ends` (emptied first; its
    /// capacity is kept, so a caller reusing one array allocates nothing per call). Whether a
    /// break is forced follows from the unit before it (a kept newline).
    static func lineBreaks(_ units: UnsafeBufferPointer<UInt16>, language: String?, into ends: inout [Int32]) throws(TextError) {
        let capacity = units.count + 1
        ends.removeAll(keepingCapacity: true)
        ends.append(contentsOf: repeatElement(0, count: capacity))
        let rules = lineBreakRules(for: language)
        // ICU's own hard breaks are not asked for (`ubrk_getRuleStatus` per break): a break is
        // forced only after a kept newline, decided below from the unit.
        let count = ends.withUnsafeMutableBufferPointer { e in
            ICU.lineBreaks(units, rules: rules, breaks: e.baseAddress, mandatory: nil, capacity: Int32(capacity))
        }
        guard count >= 0 else { throw .unicodeAnalysisFailed("line breaks") }
        var kept = 0
        for k in 0..<Int(count) {
            let p = Int(ends[k])
            let before = units[p - 1]
            if p < units.count && before != 0x0A && before != 0x20 && before != 0x09
                && isASCIIOrNoBreakSpace(before) && isASCIIOrNoBreakSpace(units[p]) {
                continue
            }
            // VT and FF (mandatory breaks to UAX #14) are no break at all in Chromium, whatever
            // surrounds them: `ééé\u{C}éééééé` at 40 px is `ééééé` / `éééé` (docs/CHROMIUM.md §3(m)).
            if p < units.count && (before == 0x0B || before == 0x0C) { continue }
            // The other controls glue to what follows where ICU would break after them
            // (docs/CHROMIUM.md §3(m), eleventh round): a C0 control (not TAB, LF, CR) before
            // anything — `快\u{1}快` has no break in Chromium, ICU's UAX #14 LB9 gives one after
            // the control — and a C1 control (not NEL) before ASCII, a pair Chromium decides like
            // DEL's by its table (no break): `快\u{90}C` is one word, `快\u{90}ж` breaks.
            if p < units.count && (isGluingC0Control(before) || (isGluingC1Control(before) && units[p] < 0x80)) { continue }
            // The Khmer repetition sign U+17D7 stays with the word before it (Chromium's ICU;
            // the system's dictionary ends a word before it): DejaVu Serif Condensed 38.5 px,
            // `សត្វតូចៗដូចជា` at 120 px is `សត្វ` / `តូចៗ` / `ដូចជា` (docs/CHROMIUM.md §3(g)).
            if p < units.count && units[p] == 0x17D7 && before >= 0x1780 && before <= 0x17FF { continue }
            // Nor does a Khmer word end with two code points or fewer left in its run: Chromium's
            // dictionary breaks `សម្លា|ប់`, `បរិវា|រ`, `ផ្លែ|ឈើ` before a short rest no word of it
            // matches, its line breaker does not (docs/CHROMIUM.md §3(g), eighteenth round).
            if p < units.count && endsShortKhmerRest(units, at: p) { continue }
            ends[kept] = ends[k]
            kept += 1
        }
        ends.removeLast(capacity - kept)
    }

    /// Whether the break at `p` falls between two Khmer dictionary characters with at most two
    /// of them left in the run after it (Khmer is all in the BMP: units are code points).
    @inline(__always) static func endsShortKhmerRest(_ units: UnsafeBufferPointer<UInt16>, at p: Int) -> Bool {
        guard isKhmerDictionaryUnit(units[p - 1]) else { return false }
        var end = p
        while end < units.count && end - p <= 2 && isKhmerDictionaryUnit(units[end]) { end += 1 }
        return end > p && end - p <= 2
    }

    /// Khmer letters, vowels and signs of line-break class SA (U+1780–U+17D3, U+17D7, U+17DC,
    /// U+17DD): the characters ICU's Khmer engine segments, as ICU's properties give them
    /// (`ICU.isKhmerDictionaryCharacter`, checked against this in the tests).
    @inline(__always) static func isKhmerDictionaryUnit(_ unit: UInt16) -> Bool {
        unit &- 0x1780 <= 0x53 || unit == 0x17D7 || unit == 0x17DC || unit == 0x17DD
    }

    @inline(__always) private static func isASCIIOrNoBreakSpace(_ unit: UInt16) -> Bool {
        unit < 0x80 || unit == 0xA0
    }

    /// C0 controls after which Chromium never breaks: all but TAB, LF and CR (white space)
    /// and VT, FF (handled above).
    @inline(__always) static func isGluingC0Control(_ unit: UInt16) -> Bool {
        unit < 0x20 && unit != 0x09 && unit != 0x0A && unit != 0x0D
    }

    /// C1 controls, which Chromium treats like DEL before ASCII: all but NEL (a break).
    @inline(__always) static func isGluingC1Control(_ unit: UInt16) -> Bool {
        unit &- 0x80 < 0x20 && unit != 0x85
    }

    /// Which ICU line-break rules Chromium uses for a content language with `line-break: auto`:
    /// Japanese ("ja…") its own, Chinese ("zh…", "yue") `lb=normal` for Chinese, anything else
    /// CSS `normal` (docs/CHROMIUM.md §3(e)).
    static func lineBreakRules(for language: String?) -> Int32 {
        guard let language else { return 0 }
        let primary = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? ""
        switch primary {
        case "ja": return 1
        case "zh", "yue": return 2
        default: return 0
        }
    }

    /// Grapheme cluster end offsets.
    static func graphemeEnds(_ units: UnsafeBufferPointer<UInt16>) throws(TextError) -> [Int32] {
        // CJK and Hangul prose, among others: every unit is a grapheme, no need to ask ICU.
        if SingleUnitGraphemes.all(units) { return (0..<Int32(units.count)).map { $0 + 1 } }
        let capacity = units.count + 1
        var ends = zeroFilledArray(Int32(0), count: capacity)
        let count = ends.withUnsafeMutableBufferPointer {
            ICU.graphemeBreaks(units, breaks: $0.baseAddress, capacity: Int32(capacity))
        }
        guard count >= 0 else { throw .unicodeAnalysisFailed("grapheme clusters") }
        ends.removeLast(capacity - Int(count))
        return ends
    }

    /// Bidi levels per unit, or nil when the paragraph is entirely left-to-right at level 0.
    static func bidiLevels(_ units: UnsafeBufferPointer<UInt16>, direction: TextDirection) throws(TextError) -> (levels: [UInt8]?, paragraphLevel: UInt8) {
        // Without a unit of a right-to-left script or a bidi control, `auto` resolves to a
        // left-to-right paragraph (no strong R/AL character) with every level 0, as `ltr` does.
        if direction != .rtl && !units.contains(where: mayBeRightToLeft) { return (nil, 0) }
        var levels = zeroFilledArray(UInt8(0), count: units.count)
        let requested: UInt8 = direction == .ltr ? 0 : direction == .rtl ? 1 : 0xFE
        let paragraph = levels.withUnsafeMutableBufferPointer {
            ICU.bidiLevels(units, paragraphLevel: requested, levels: $0.baseAddress)
        }
        guard paragraph >= 0 else { throw .unicodeAnalysisFailed("bidi levels") }
        if paragraph == 0 && !levels.contains(where: { $0 != 0 }) { return (nil, 0) }
        return (levels, UInt8(paragraph))
    }

    /// True for units that can start right-to-left text: Hebrew, Arabic and neighbours, RTL
    /// presentation forms, bidi controls, and surrogates (supplementary RTL scripts).
    @inline(__always) static func mayBeRightToLeft(_ unit: UInt16) -> Bool {
        unit >= 0x0590 && (unit <= 0x08FF || (unit >= 0xD800 && unit <= 0xDFFF) || (unit >= 0xFB1D && unit <= 0xFDFF)
            || (unit >= 0xFE70 && unit <= 0xFEFF) || unit == 0x200F || (unit >= 0x202A && unit <= 0x202E)
            || (unit >= 0x2066 && unit <= 0x2069))
    }

    /// How many units before `start` and after `end` a run must be shaped with as context, as
    /// Chromium gives HarfBuzz the whole paragraph: Arabic-style joining (Arabic, Syriac, N'Ko,
    /// Mongolian) picks a letter's form from its neighbours, also across a font change inside a
    /// word. Other scripts need none (so their runs share the shape cache freely).
    static func joiningContext(_ units: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) -> (before: Int, after: Int) {
        var before = 0, after = 0
        while before < 4 && start - before > 0 && joins(units[start - before - 1]) { before += 1 }
        while after < 4 && end + after < units.count && joins(units[end + after]) { after += 1 }
        if before > 0 || after > 0 {
            // The run's own edges must join too, else the context changes nothing.
            if !(joins(units[start]) || joins(units[end - 1])) { return (0, 0) }
        }
        return (before, after)
    }

    /// Units of scripts whose letters join, the joiners themselves, and the format characters
    /// transparent to joining (Joining_Type T): a soft hyphen inside an Arabic word, taken by
    /// the primary font, leaves the letters around it joined (Helvetica bold 21.91 px → DejaVu
    /// Sans: `بكم\u{AD}في` is 60.20 px like `بكمفي`, docs/CHROMIUM.md §3(b)), and so do ZWSP, LRM,
    /// RLM, the bidi embeddings and overrides, the word joiner and the invisible operators
    /// (Times 34.5 px: `ب\u{2060}ب` 43.48 px like `بب`; eleventh round) — but not the bidi isolates,
    /// which end Chromium's shaping item.
    @inline(__always) static func joins(_ unit: UInt16) -> Bool {
        (unit >= 0x0600 && unit <= 0x08FF) || (unit >= 0xFB50 && unit <= 0xFDFF) || (unit >= 0xFE70 && unit <= 0xFEFF)
            || (unit >= 0x1800 && unit <= 0x18AF) || unit == 0x00AD
            || (unit >= 0x200B && unit <= 0x200F) || (unit >= 0x202A && unit <= 0x202E) || (unit >= 0x2060 && unit <= 0x2064)
    }

    /// The scalar starting at `index` and its length in units (lone surrogates read as U+FFFD).
    @inline(__always) static func scalar(at index: Int, in units: UnsafeBufferPointer<UInt16>) -> (UInt32, Int) {
        let unit = units[index]
        if unit >= 0xD800 && unit <= 0xDBFF && index + 1 < units.count {
            let low = units[index + 1]
            if low >= 0xDC00 && low <= 0xDFFF {
                return (0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00), 2)
            }
        }
        if unit >= 0xD800 && unit <= 0xDFFF { return (0xFFFD, 1) }
        return (UInt32(unit), 1)
    }
}

/// Script runs as Chromium segments a paragraph before shaping (`RunSegmenter`'s script
/// iterator over the whole text, across direction changes): a character of a definite script
/// starts a new shaping run when the run so far has another one, and Common and Inherited
/// characters (spaces, punctuation, marks) belong to the run before them. So nothing is shaped
/// across such a boundary: Liberation Serif Bold kerns ` T`, but in `היום— T` the space
/// follows Hebrew and is not kerned with the `T` (measured: 89.53 px, not 89.09 px).
enum ScriptRuns {
    /// ICU's code for Latin.
    static let latin: Int32 = 25

    /// The run script of `scalar`: -1 for Common, Inherited and Unknown (they join the run
    /// before them; an opening bracket also ends the script so far, as it takes the script of
    /// what it encloses — ``isOpening(_:)``); Han, Hiragana, Katakana, Bopomofo and Hangul count as one script (East
    /// Asian text is not split between them here).
    @inline(__always) static func script(of scalar: UInt32) -> Int32 {
        // ASCII without ICU: letters are Latin, everything else Common (`ScriptRunsASCIITests`
        // checks all 128 against ICU). A missed word's first letter asked ICU (~60 instructions).
        if scalar < 0x80 { return (scalar | 0x20) &- 0x61 < 26 ? latin : -1 }
        return scriptFromICU(scalar)
    }

    /// ``script(of:)`` as ICU answers it, for every scalar (the ASCII fast path's reference).
    @inline(__always) static func scriptFromICU(_ scalar: UInt32) -> Int32 {
        let s = ICU.script(scalar)
        switch s {
        case ..<2, 103: return -1
        case 5, 17, 18, 20, 22: return 17
        default: return s
        }
    }

    /// An opening bracket (general category Ps): the script so far ends before it.
    @inline(__always) static func isOpening(_ scalar: UInt32) -> Bool {
        // ASCII's Ps are `(`, `[` and `{` (`CategoryFilterTests` checks every scalar against the
        // category): the standard library's lookup cost a missed word ~800 instructions.
        if scalar < 0x80 { return scalar == 0x28 || scalar == 0x5B || scalar == 0x7B }
        guard CategoryFilter.mayBeBracket(scalar) else { return false }
        return isOpenPunctuation(scalar)
    }

    /// The category lookup of ``isOpening(_:)``, out of line: the standard library's resilient
    /// property types cost their caller two metadata calls on every entry.
    @inline(never) private static func isOpenPunctuation(_ scalar: UInt32) -> Bool {
        Unicode.Scalar(scalar)?.properties.generalCategory == .openPunctuation
    }
}
