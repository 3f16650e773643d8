/// Text whose every UTF-16 unit is a grapheme cluster of its own, recognised without ICU.
///
/// Preparing asks ICU for a paragraph's grapheme ends whenever it is not printable ASCII
/// (``UnicodeAnalysis/graphemeEnds(_:)`` asks this first); for
/// Chinese, Japanese and Korean prose (ideographs, kana, Hangul syllables and their
/// punctuation) the answer is "every unit", and ICU's iterator costs ~50 instructions a unit
/// to say so. A unit of the ranges below has the grapheme-break property Other or Control
/// (never Extend, ZWJ, SpacingMark, Prepend, a Hangul jamo, a regional indicator, a surrogate
/// or CR), so between two such units every rule of UAX #29 breaks (GB999, or GB4/GB5 around a
/// control). `SingleUnitGraphemeTests` checks every unit of the ranges against ICU.
enum SingleUnitGraphemes {
    /// Whether `unit` is in the ranges (see the type's documentation).
    @inline(__always) static func contains(_ unit: UInt16) -> Bool {
        if unit < 0x0300 { return unit >= 0x20 ? unit != 0x7F : unit == 0x09 || unit == 0x0A }
        if unit < 0x3000 { return (unit >= 0x2010 && unit <= 0x2027) || (unit >= 0x2030 && unit <= 0x205E) }
        if unit < 0xAC00 {
            // CJK punctuation (not the tone marks U+302A–302F), kana (not the combining voiced
            // marks U+3099–309A), CJK extension A and the unified ideographs.
            return unit <= 0x3029 || (unit >= 0x3030 && unit <= 0x303F) || (unit >= 0x3041 && unit <= 0x3096)
                || (unit >= 0x309B && unit <= 0x30FF) || (unit >= 0x3400 && unit <= 0x4DBF) || (unit >= 0x4E00 && unit <= 0x9FFF)
        }
        // Hangul syllables (LV and LVT: only jamo, not in the ranges, join them), compatibility
        // ideographs, fullwidth forms (not the halfwidth voiced marks U+FF9E–FF9F).
        return unit <= 0xD7A3 || (unit >= 0xF900 && unit <= 0xFAFF) || (unit >= 0xFF01 && unit <= 0xFF9D)
            || (unit >= 0xFFE0 && unit <= 0xFFEE)
    }

    /// Whether every unit of `units` is in the ranges: its grapheme ends are then 1, 2, … n.
    static func all(_ units: UnsafeBufferPointer<UInt16>) -> Bool {
        for unit in units where !contains(unit) { return false }
        return true
    }
}
