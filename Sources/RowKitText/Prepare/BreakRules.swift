import CICU

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

/// Unicode 15.1's rules for quotation marks between East Asian text (UAX #14 LB19, LB19a), which
/// the system ICU (Unicode 15.0) lacks and Chromium's ICU has: `汉“汉”汉` breaks as
/// `汉|“汉”|汉`, while quotes next to non-East-Asian text still glue to their neighbours.
enum QuotationRules {
    /// Whether a break is allowed at `p`, where ICU said no.
    static func allowsBreak(_ units: UnsafeBufferPointer<UInt16>, at p: Int) -> Bool {
        let (b, bLength) = UnicodeAnalysis.scalar(at: p, in: units)
        let (a, aStart) = scalar(before: p, in: units)
        if rk_quotation_kind(b) == 1 {
            // Before an opening quote: East Asian on both sides of it.
            guard rk_is_east_asian(a) != 0, rk_forbids_break_after(a) == 0, p + bLength < units.count else { return false }
            return rk_is_east_asian(UnicodeAnalysis.scalar(at: p + bLength, in: units).0) != 0
        }
        if rk_quotation_kind(a) == 2 {
            // After a closing quote: East Asian on both sides of it.
            guard aStart > 0, rk_is_east_asian(b) != 0, rk_forbids_break_before(b) == 0 else { return false }
            return rk_is_east_asian(scalar(before: aStart, in: units).0) != 0
        }
        return false
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
/// punctuation next to other punctuation loses half its em box.
enum CJKPunctuation {
    enum Kind { case open, close, dot, comma, middle }

    static func kind(_ unit: UInt16) -> Kind? {
        switch unit {
        case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0xFF08, 0xFF3B, 0xFF5B, 0x2018, 0x201C:
            return .open
        case 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0xFF09, 0xFF3D, 0xFF5D, 0x2019, 0x201D:
            return .close
        case 0x3002, 0xFF0E: return .dot
        case 0x3001, 0xFF0C: return .comma
        case 0x30FB: return .middle
        default: return nil
        }
    }

    /// Whether the unit at `i` is trimmed by its neighbours: a closing mark (bracket, `。`, `、`)
    /// followed by any punctuation loses its end half; an opening bracket preceded by any
    /// punctuation loses its start half, unless the mark before it was already trimmed.
    /// Only neighbours inside `run` (the same font) count, as in Chromium.
    static func isTrimmed(_ units: UnsafeBufferPointer<UInt16>, _ i: Int, run: Range<Int>) -> Bool {
        guard let this = kind(units[i]) else { return false }
        let next = i + 1 < run.upperBound ? kind(units[i + 1]) : nil
        if this != .open && this != .middle && next != nil { return true }
        if this == .open, i > run.lowerBound, let previous = kind(units[i - 1]) {
            // A closing mark before us is trimmed already (it is followed by punctuation).
            return previous == .open || previous == .middle
        }
        return false
    }
}
