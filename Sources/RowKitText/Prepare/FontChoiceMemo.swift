/// Remembers the chain fonts ``FontFallback`` found for short grapheme clusters, keyed by the
/// style context and the cluster's text, so that a cluster met again is not looked up again (in a
/// paragraph of Arabic, Hindi or Chinese, the same letters recur all the time, and each choice
/// asks coverage questions — shaping — of several fonts). Exact because a chain font is a
/// function of the cluster and the style; clusters the chain does not render (holes) and
/// clusters inside a fallback plan go to ``FontFallback`` every time. Bounded: 4096 slots,
/// emptied when half full.
struct FontChoiceMemo {
    private struct Slot {
        var text: UInt64 = 0           // up to four UTF-16 units
        var context: Int32 = 0
        var length: Int32 = 0          // 0: empty slot
        var font: Unmanaged<Font>?
    }

    private var slots: [Slot] = []
    private var used = 0
    private static let size = 4096

    /// The font for cluster `g0..<g1` of `units`, as `fallback.font(for:_:_:)` chooses it.
    @inline(__always)
    mutating func font(_ fallback: inout FontFallback, context: Int32, _ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> Font {
        let length = g1 - g0
        guard length <= 4, context >= 0 else { return fallback.font(for: units, g0, g1) }
        if let font = fallback.plannedFont(at: g0) { return font }
        var text: UInt64 = 0
        for k in 0..<length { text |= UInt64(units[g0 + k]) << UInt64(16 * k) }
        if slots.isEmpty { slots = [Slot](repeating: Slot(), count: Self.size) }
        let h = (text ^ UInt64(UInt32(bitPattern: context)) &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        var index = Int(truncatingIfNeeded: h >> 40) & (Self.size - 1)
        while true {
            let slot = slots[index]
            if slot.length == 0 { break }
            if slot.text == text && slot.context == context && Int(slot.length) == length {
                return slot.font!.takeUnretainedValue()
            }
            index = (index + 1) & (Self.size - 1)
        }
        let first = units[g0]
        if length == 1 && first < 0x7F && first >= 0x20 && fallback.primaryCoversASCII { return fallback.primary }
        guard let font = fallback.chainFont(units, g0, g1) else { return fallback.planFont(units, from: g0) }
        if 2 * used >= Self.size {
            slots = [Slot](repeating: Slot(), count: Self.size)
            used = 0
            index = Int(truncatingIfNeeded: h >> 40) & (Self.size - 1)
        }
        slots[index] = Slot(text: text, context: context, length: Int32(length), font: .passUnretained(font))
        used += 1
        return font
    }
}
