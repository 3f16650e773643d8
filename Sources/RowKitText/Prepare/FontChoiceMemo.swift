/// Remembers the fonts ``FontFallback`` chose for short grapheme clusters, keyed by everything
/// the choice depends on — the style context, the state carried in and the cluster's text — so
/// that a cluster met again in the same state is not looked up again (in a paragraph of Arabic,
/// Hindi or Chinese, the same letters recur all the time, and each choice asks fontconfig-backed
/// coverage questions of several fonts). Exact because `font(for:_:_:)` is a function of its
/// cluster and ``FontFallback/CarriedState``. Bounded: 4096 slots, emptied when half full.
struct FontChoiceMemo {
    private struct Slot {
        var text: UInt64 = 0           // up to four UTF-16 units
        var key: UInt64 = 0            // context id (bits 32…63), state script (bits 0…31)
        var length: Int32 = 0          // 0: empty slot
        var stateFont: UnsafeMutableRawPointer?
        var font: Unmanaged<Font>?
        var outScript: Int32 = 0
        var outFont: UnsafeMutableRawPointer?
    }

    private var slots: [Slot] = []
    private var used = 0
    private static let size = 4096

    /// The font for cluster `g0..<g1` of `units`, as `fallback.font(for:_:_:)` chooses it, with
    /// `fallback`'s state carried on exactly as that call would.
    @inline(__always)
    mutating func font(_ fallback: inout FontFallback, context: Int32, _ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> Font {
        let length = g1 - g0
        guard length <= 4, context >= 0 else { return fallback.font(for: units, g0, g1) }
        var text: UInt64 = 0
        for k in 0..<length { text |= UInt64(units[g0 + k]) << UInt64(16 * k) }
        let state = fallback.carried
        let key = UInt64(UInt32(bitPattern: context)) << 32 | UInt64(UInt32(bitPattern: state.script))
        let stateFont = state.fallback.map { Unmanaged.passUnretained($0).toOpaque() }
        if slots.isEmpty { slots = [Slot](repeating: Slot(), count: Self.size) }
        var h = (text ^ key &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        if let stateFont { h ^= UInt64(UInt(bitPattern: stateFont)) &* 0x94D0_49BB_1331_11EB }
        var index = Int(truncatingIfNeeded: h >> 40) & (Self.size - 1)
        while true {
            let slot = slots[index]
            if slot.length == 0 { break }
            if slot.text == text && slot.key == key && Int(slot.length) == length && slot.stateFont == stateFont {
                fallback.carried = FontFallback.CarriedState(
                    script: slot.outScript, fallback: slot.outFont.map { Unmanaged<Font>.fromOpaque($0).takeUnretainedValue() })
                return slot.font!.takeUnretainedValue()
            }
            index = (index + 1) & (Self.size - 1)
        }
        let font = fallback.font(for: units, g0, g1)
        if 2 * used >= Self.size {
            slots = [Slot](repeating: Slot(), count: Self.size)
            used = 0
            index = Int(truncatingIfNeeded: h >> 40) & (Self.size - 1)
        }
        let out = fallback.carried
        slots[index] = Slot(text: text, key: key, length: Int32(length), stateFont: stateFont, font: .passUnretained(font),
                            outScript: out.script, outFont: out.fallback.map { Unmanaged.passUnretained($0).toOpaque() })
        used += 1
        return font
    }
}
