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
