import CICU

/// ICU analyses of a whole paragraph, as plain arrays.
enum UnicodeAnalysis {
    /// Line-break opportunities (end offsets) and whether each is mandatory.
    static func lineBreaks(_ units: UnsafeBufferPointer<UInt16>) throws(TextError) -> (ends: [Int32], mandatory: [UInt8]) {
        let capacity = units.count + 1
        var ends = [Int32](repeating: 0, count: capacity)
        var mandatory = [UInt8](repeating: 0, count: capacity)
        let count = ends.withUnsafeMutableBufferPointer { e in
            mandatory.withUnsafeMutableBufferPointer { m in
                rk_line_breaks(units.baseAddress, Int32(units.count), e.baseAddress, m.baseAddress, Int32(capacity))
            }
        }
        guard count >= 0 else { throw .unicodeAnalysisFailed("line breaks") }
        ends.removeLast(capacity - Int(count))
        mandatory.removeLast(capacity - Int(count))
        return (ends, mandatory)
    }

    /// Grapheme cluster end offsets.
    static func graphemeEnds(_ units: UnsafeBufferPointer<UInt16>) throws(TextError) -> [Int32] {
        let capacity = units.count + 1
        var ends = [Int32](repeating: 0, count: capacity)
        let count = ends.withUnsafeMutableBufferPointer {
            rk_grapheme_breaks(units.baseAddress, Int32(units.count), $0.baseAddress, Int32(capacity))
        }
        guard count >= 0 else { throw .unicodeAnalysisFailed("grapheme clusters") }
        ends.removeLast(capacity - Int(count))
        return ends
    }

    /// Bidi levels per unit, or nil when the paragraph is entirely left-to-right at level 0.
    static func bidiLevels(_ units: UnsafeBufferPointer<UInt16>, direction: TextDirection) throws(TextError) -> (levels: [UInt8]?, paragraphLevel: UInt8) {
        if direction == .ltr && !units.contains(where: mayBeRightToLeft) { return (nil, 0) }
        var levels = [UInt8](repeating: 0, count: units.count)
        let requested: UInt8 = direction == .ltr ? 0 : direction == .rtl ? 1 : 0xFE
        let paragraph = levels.withUnsafeMutableBufferPointer {
            rk_bidi_levels(units.baseAddress, Int32(units.count), requested, $0.baseAddress)
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
