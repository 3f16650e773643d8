/// Remembers what ``FontFallback`` found out about short grapheme clusters — the chain font
/// (or that none renders the cluster), the script of its base character and whether it is an
/// emoji cluster — keyed by the style context and the cluster's text, so that a cluster met
/// again is not looked up again (in a paragraph of Arabic, Hindi or Chinese the same letters
/// recur all the time, and each answer asks coverage questions — shaping — of several fonts,
/// and ICU for properties). Exact because all three are functions of the cluster and the style.
/// One per thread (it lives in the thread's reused builder), so its table is a plain buffer
/// (no exclusivity checks). Bounded: 16,384 slots, emptied when half full.
final class FontChoiceMemo {
    private struct Slot {
        var text: UInt64 = 0           // up to four UTF-16 units
        var context: Int32 = 0
        var length: Int32 = 0          // 0: empty slot
        var script: Int32 = 0
        var emoji = false
        var font: Unmanaged<Font>?     // nil: a hole
    }

    private let slots = UnsafeMutablePointer<Slot>.allocate(capacity: size)
    nonisolated(unsafe) private var used = 0
    private static let size = 16_384

    init() { slots.initialize(repeating: Slot(), count: Self.size) }
    deinit { slots.deallocate() }

    @inline(__always) private static func key(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int, _ context: Int32) -> (UInt64, Int) {
        var text: UInt64 = 0
        for k in 0..<(g1 - g0) { text |= UInt64(units[g0 + k]) << UInt64(16 * k) }
        let h = (text ^ UInt64(UInt32(bitPattern: context)) &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        return (text, Int(truncatingIfNeeded: h >> 40) & (size - 1))
    }

    /// What was stored for cluster `g0..<g1` (at most four units) in `context`, if anything.
    @inline(__always)
    func lookup(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int, context: Int32) -> (font: Font?, script: Int32, emoji: Bool)? {
        let (text, start) = Self.key(units, g0, g1, context)
        let length = Int32(g1 - g0)
        var index = start
        while true {
            let slot = slots[index]
            if slot.length == 0 { return nil }
            if slot.text == text && slot.context == context && slot.length == length {
                return (slot.font?.takeUnretainedValue(), slot.script, slot.emoji)
            }
            index = (index + 1) & (Self.size - 1)
        }
    }

    /// Stores what was found for cluster `g0..<g1` in `context` (fonts stay alive through the
    /// font library the context holds).
    func store(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int, context: Int32, _ info: (font: Font?, script: Int32, emoji: Bool)) {
        if 2 * used >= Self.size {
            slots.update(repeating: Slot(), count: Self.size)
            used = 0
        }
        let (text, start) = Self.key(units, g0, g1, context)
        var index = start
        while slots[index].length != 0 { index = (index + 1) & (Self.size - 1) }
        slots[index] = Slot(text: text, context: context, length: Int32(g1 - g0), script: info.script, emoji: info.emoji,
                            font: info.font.map { .passUnretained($0) })
        used += 1
    }
}
