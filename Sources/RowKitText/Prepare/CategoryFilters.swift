/// Cheap range filters in front of the standard library's general-category lookup (a few
/// hundred instructions a call), which preparing asked for every character of every analysed
/// word: ~4% of preparing multilingual text. Each filter answers only where the answer is
/// certain; `CategoryFilterTests` checks every scalar against the unfiltered lookup, so a new
/// Unicode version that adds a bracket or mark elsewhere fails a test instead of a layout.
enum CategoryFilter {
    /// Whether `scalar` may be an opening or closing bracket (general category Ps or Pe): false
    /// outside the blocks that hold them (ASCII, Tibetan, Ogham, General Punctuation to
    /// Supplemental Punctuation, CJK Symbols and Punctuation, presentation and fullwidth forms).
    @inline(__always) static func mayBeBracket(_ scalar: UInt32) -> Bool {
        if scalar < 0x0F3A { return scalar < 0x80 }
        if scalar < 0x2000 { return scalar <= 0x0F3D || scalar == 0x169B || scalar == 0x169C }
        if scalar < 0x3008 { return scalar <= 0x2E5C }
        if scalar <= 0x301F { return true }
        return scalar >= 0xFD3E && scalar <= 0xFF63
    }

    /// Whether a chunk starting with UTF-16 `unit` surely starts with a letter that is not a
    /// grapheme extender: kana letters, CJK ideographs and Hangul syllables (most chunks of
    /// Chinese, Japanese and Korean text).
    @inline(__always) static func isPlainEastAsianLetter(_ unit: UInt16) -> Bool {
        (unit >= 0x4E00 && unit <= 0x9FFF) || (unit >= 0xAC00 && unit <= 0xD7A3)
            || (unit >= 0x3041 && unit <= 0x3096) || (unit >= 0x30A1 && unit <= 0x30FA)
    }

    /// Whether `unit` is a CJK unified ideograph (extension A or the main block): characters
    /// without any decomposition, so HarfBuzz shapes one alone to .notdef with any font whose
    /// character map lacks it — font fallback need not shape it to find out (`SingleUnitGraphemeTests`
    /// checks every one against HarfBuzz for the test fonts).
    @inline(__always) static func isUnifiedIdeograph(_ unit: UInt16) -> Bool {
        (unit >= 0x4E00 && unit <= 0x9FFF) || (unit >= 0x3400 && unit <= 0x4DBF)
    }
}
