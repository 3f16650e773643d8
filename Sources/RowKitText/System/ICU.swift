import CICU

/// The only door from RowKitText to ICU (the CICU shim, Sources/CICU/include/rowkit_icu.h):
/// thin, inlined calls with Swift types. Nothing else in the module imports CICU. Every call that
/// can make ICU load data (break rules, dictionaries, emoji and locale data) first makes sure
/// Chromium's break dictionaries are installed (``BreakDictionaries/source``): ICU's data folder
/// must not change while it loads. Property lookups compiled into ICU's library do not.
enum ICU {
    /// Installs the break dictionaries on the first call of the process (the others wait for
    /// it); one load and a branch after.
    @inline(__always) static func ready() {
        if _slowPath(rk_data_folder_chosen() == 0) {
            _ = BreakDictionaries.source
            rk_mark_data_folder_chosen()
        }
    }

    /// UAX #14 break offsets of `units` with `rules` (0 CSS normal, 1 Japanese, 2 Chinese) into
    /// `breaks`/`mandatory` (at most `capacity`); the count, or -1 when ICU fails.
    @inline(__always)
    static func lineBreaks(_ units: UnsafeBufferPointer<UInt16>, rules: Int32, breaks: UnsafeMutablePointer<Int32>?,
                           mandatory: UnsafeMutablePointer<UInt8>?, capacity: Int32) -> Int32 {
        ready()
        return rk_line_breaks(units.baseAddress, Int32(units.count), rules, breaks, mandatory, capacity)
    }

    /// Extended grapheme cluster end offsets of `units` into `breaks` (`capacity` at least the
    /// unit count); the count, or -1. ICU's iterator runs only over the stretches where the
    /// units around a position leave the boundary open (`rk_grapheme_breaks_paired`).
    @inline(__always)
    static func graphemeBreaks(_ units: UnsafeBufferPointer<UInt16>, breaks: UnsafeMutablePointer<Int32>?, capacity: Int32) -> Int32 {
        ready()
        return rk_grapheme_breaks_paired(units.baseAddress, Int32(units.count), breaks, capacity)
    }

    /// The same as `graphemeBreaks` with ICU's iterator over the whole text (the reference the
    /// tests compare with).
    static func graphemeBreaksByIterator(_ units: UnsafeBufferPointer<UInt16>, breaks: UnsafeMutablePointer<Int32>?, capacity: Int32) -> Int32 {
        ready()
        return rk_grapheme_breaks(units.baseAddress, Int32(units.count), breaks, capacity)
    }

    /// Per UTF-16 unit, the pair classes the grapheme fast path decides by (`rk_grapheme_pair_classes`).
    static func graphemePairClasses() -> [UInt8] {
        ready()
        var classes = [UInt8](repeating: 0, count: 65536)
        classes.withUnsafeMutableBufferPointer { rk_grapheme_pair_classes($0.baseAddress) }
        return classes
    }

    /// Bidi embedding levels of `units` into `levels` (`paragraphLevel` 0 LTR, 1 RTL, 0xFE
    /// first strong); the resolved paragraph level, or -1.
    @inline(__always)
    static func bidiLevels(_ units: UnsafeBufferPointer<UInt16>, paragraphLevel: UInt8, levels: UnsafeMutablePointer<UInt8>?) -> Int32 {
        rk_bidi_levels(units.baseAddress, Int32(units.count), paragraphLevel, levels)
    }

    /// Visual order of `count` runs with `levels`: `visualToLogical[i]` is the run drawn i-th.
    @inline(__always)
    static func reorderVisual(_ levels: UnsafePointer<UInt8>?, count: Int32, visualToLogical: UnsafeMutablePointer<Int32>?) {
        rk_reorder_visual(levels, count, visualToLogical)
    }

    /// UTS #51 emoji properties of a code point.
    @inline(__always) static func isEmojiPresentation(_ scalar: UInt32) -> Bool { ready(); return rk_is_emoji_presentation(scalar) != 0 }
    @inline(__always) static func isEmojiModifier(_ scalar: UInt32) -> Bool { ready(); return rk_is_emoji_modifier(scalar) != 0 }
    @inline(__always) static func isRegionalIndicator(_ scalar: UInt32) -> Bool { ready(); return rk_is_regional_indicator(scalar) != 0 }
    /// Characters that never need a glyph of their own (format controls, variation selectors).
    @inline(__always) static func isDefaultIgnorable(_ scalar: UInt32) -> Bool { rk_is_default_ignorable(scalar) != 0 }

    /// UAX #14 quotation class: 1 initial (Pi), 2 final (Pf), 3 other quotes, 0 not a quote.
    @inline(__always) static func quotationKind(_ scalar: UInt32) -> Int32 { rk_quotation_kind(scalar) }
    /// East_Asian_Width F, W or H.
    @inline(__always) static func isEastAsian(_ scalar: UInt32) -> Bool { rk_is_east_asian(scalar) != 0 }
    /// No line break may come right before / right after the character (UAX #14 classes).
    @inline(__always) static func forbidsBreakBefore(_ scalar: UInt32) -> Bool { rk_forbids_break_before(scalar) != 0 }
    @inline(__always) static func forbidsBreakAfter(_ scalar: UInt32) -> Bool { rk_forbids_break_after(scalar) != 0 }

    /// What may come before a word-initial hyphen (UAX #14 LB20a: BK, CR, LF, NL, SP, ZW, CB, GL).
    @inline(__always) static func precedesWordInitialHyphen(_ scalar: UInt32) -> Bool { rk_precedes_word_initial_hyphen(scalar) != 0 }
    /// A letter a word-initial hyphen does not break from (LB20a: AL, HL, and AI, XX, SA letters).
    @inline(__always) static func isLetterAfterHyphen(_ scalar: UInt32) -> Bool { rk_is_letter_after_hyphen(scalar) != 0 }

    /// Khmer characters of line-break class SA: what ICU's Khmer dictionary engine segments
    /// (the reference the tests hold `UnicodeAnalysis.isKhmerDictionaryUnit` to).
    static func isKhmerDictionaryCharacter(_ scalar: UInt32) -> Bool { rk_is_khmer_dictionary_character(scalar) != 0 }

    /// ICU script code of a character (0 Common, 1 Inherited, 103 Unknown).
    @inline(__always) static func script(_ scalar: UInt32) -> Int32 { rk_script(scalar) }

    /// The likely script of a locale as its 4-letter code ("ja" → "Jpan"), nil when unknown or
    /// when ICU fails.
    static func likelyScript(_ locale: String) -> String? {
        ready()
        var buffer = [CChar](repeating: 0, count: 16)
        let n = locale.withCString { rk_likely_script($0, &buffer, 16) }
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
