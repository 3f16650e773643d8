import CPrefetch

/// Remembers what ``FontFallback`` found out about short grapheme clusters — the chain font
/// (or that none renders the cluster), the script of its base character and whether it is an
/// emoji cluster — keyed by the style context and the cluster's text, so that a cluster met
/// again is not looked up again (in a paragraph of Arabic, Hindi or Chinese the same letters
/// recur all the time, and each answer asks coverage questions — shaping — of several fonts,
/// and ICU for properties). Exact because all three are functions of the cluster and the style.
/// One per thread (it lives in the thread's reused builder), so its table is a plain buffer
/// (no exclusivity checks). Bounded: 16,384 cluster slots (512 KB) and 8,192 hint slots (128 KB),
/// each table emptied when half full.
///
/// Font-fallback plans also keep here, per cluster, whether the last system font a plan tried
/// for it renders it (a plan tries its first font on every hole of its script segment, and the
/// same letters recur from paragraph to paragraph: a character-map probe each), and per hint
/// character the font the system offers for it (behind the font library's lock otherwise):
/// both functions of the cluster or hint, the font and the style context.
final class FontChoiceMemo {
    /// 32 bytes.
    fileprivate struct Slot {
        var text: UInt64 = 0           // up to four UTF-16 units
        var font: Unmanaged<Font>?     // nil: a hole
        var context: Int32 = 0
        var planFontID: Int32 = -1     // the font a plan last asked about (``Font/id``), −1: none
        var script: Int16 = 0
        var length: UInt8 = 0          // 0: empty slot
        var emoji = false
        var planCovers = false         // whether that font renders the cluster
    }

    private struct HintSlot {
        var hint: UInt32 = 0
        var context: Int32 = -1        // −1: empty slot
        var font: Unmanaged<Font>?     // nil: the system offers none
    }

    private let slots = UnsafeMutablePointer<Slot>.allocate(capacity: size)
    nonisolated(unsafe) private var used = 0
    private static let size = 16_384
    /// Bumped whenever the table is emptied: a slot index is valid only within one generation.
    nonisolated(unsafe) private(set) var generation = 0
    private let hints = UnsafeMutablePointer<HintSlot>.allocate(capacity: hintSize)
    nonisolated(unsafe) private var hintsUsed = 0
    private static let hintSize = 8192

    init() {
        slots.initialize(repeating: Slot(), count: Self.size)
        hints.initialize(repeating: HintSlot(), count: Self.hintSize)
    }
    deinit {
        slots.deallocate()
        hints.deallocate()
    }

    @inline(__always) fileprivate static func key(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int, _ context: Int32) -> (UInt64, Int) {
        var text: UInt64 = 0
        for k in 0..<(g1 - g0) { text |= UInt64(units[g0 + k]) << UInt64(16 * k) }
        let h = (text ^ UInt64(UInt32(bitPattern: context)) &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        return (text, Int(truncatingIfNeeded: h >> 40) & (size - 1))
    }

    /// The slot of cluster `g0..<g1` in `context`, if it was stored (valid in this ``generation``).
    @inline(__always)
    func slot(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int, context: Int32) -> Int? {
        let (text, start) = Self.key(units, g0, g1, context)
        let length = UInt8(truncatingIfNeeded: g1 - g0)
        var index = start
        // Fields read in place (copying a whole slot out costs more than the three compared).
        while true {
            let slot = slots + index
            if slot.pointee.length == 0 { return nil }
            if slot.pointee.text == text && slot.pointee.context == context && slot.pointee.length == length { return index }
            index = (index + 1) & (Self.size - 1)
        }
    }

    /// Asks the CPU for the cache lines where lookups of clusters in one context start
    /// (``slot(_:_:_:context:)``'s first probe): hints, with no effect on any answer. The table
    /// is 512 KB and a cluster's slot is anywhere in it, so a lookup usually waits for memory
    /// (half of a plan's walk, measured with perf); a plan's walk, which knows its next
    /// clusters, asks for them a few clusters ahead. A plain value (the table's address and the
    /// context), so that asking costs no reference counting; valid while the memo lives.
    struct Prefetcher {
        fileprivate let slots: UnsafeRawPointer
        let context: Int32

        /// Asks for the first slot a lookup of cluster `g0..<g1` (at most four units) probes.
        @inline(__always)
        func prefetch(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) {
            let (_, start) = FontChoiceMemo.key(units, g0, g1, context)
            rowkit_prefetch(slots + start * MemoryLayout<Slot>.stride)
        }
    }

    /// A ``Prefetcher`` for lookups in `context`.
    func prefetcher(context: Int32) -> Prefetcher { Prefetcher(slots: UnsafeRawPointer(slots), context: context) }

    /// What slot `index` holds.
    @inline(__always)
    func info(at index: Int) -> (font: Font?, script: Int32, emoji: Bool) {
        let slot = slots + index
        return (slot.pointee.font?.takeUnretainedValue(), Int32(slot.pointee.script), slot.pointee.emoji)
    }

    /// What slot `index` holds, with only whether it has a chain font (a plan's walk needs no more).
    @inline(__always)
    func holeInfo(at index: Int) -> (hole: Bool, script: Int32, emoji: Bool) {
        let slot = slots + index
        return (slot.pointee.font == nil, Int32(slot.pointee.script), slot.pointee.emoji)
    }

    /// Stores what was found for cluster `g0..<g1` in `context` (fonts stay alive through the
    /// font library the context holds), and returns its slot.
    @discardableResult
    func store(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int, context: Int32, _ info: (font: Font?, script: Int32, emoji: Bool)) -> Int {
        if 2 * used >= Self.size {
            slots.update(repeating: Slot(), count: Self.size)
            used = 0
            generation += 1
        }
        let (text, start) = Self.key(units, g0, g1, context)
        var index = start
        while (slots + index).pointee.length != 0 { index = (index + 1) & (Self.size - 1) }
        slots[index] = Slot(text: text, font: info.font.map { .passUnretained($0) }, context: context,
                            script: Int16(truncatingIfNeeded: info.script), length: UInt8(truncatingIfNeeded: g1 - g0), emoji: info.emoji)
        used += 1
        return index
    }

    /// Whether `font` renders the cluster of slot `index`, if that was stored for this font (font
    /// ids are unique in the process).
    @inline(__always)
    func planCoverage(at index: Int, font: Font) -> Bool? {
        let slot = slots + index
        guard slot.pointee.planFontID == font.id else { return nil }
        return slot.pointee.planCovers
    }

    /// Stores whether `font` renders the cluster of slot `index` (replacing another font's answer).
    @inline(__always)
    func setPlanCoverage(at index: Int, font: Font, covers: Bool) {
        slots[index].planFontID = font.id
        slots[index].planCovers = covers
    }

    @inline(__always) private static func hintIndex(_ hint: UInt32, _ context: Int32) -> Int {
        let h = (UInt64(hint) ^ UInt64(UInt32(bitPattern: context)) << 32) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h >> 40) & (hintSize - 1)
    }

    /// Asks the CPU for the first hint slot of `hint` in `context` (a hint to the CPU, with no
    /// effect on any answer): a plan asks for it when it starts, and reads it after its walk.
    @inline(__always)
    func prefetchSystemFont(for hint: UInt32, context: Int32) {
        rowkit_prefetch(UnsafeRawPointer(hints + Self.hintIndex(hint, context)))
    }

    /// The system font stored for hint character `hint` in `context`: nil when none was stored,
    /// `.some(nil)` when the system offers none.
    @inline(__always)
    func systemFont(for hint: UInt32, context: Int32) -> Font?? {
        var index = Self.hintIndex(hint, context)
        while true {
            let slot = hints + index
            if slot.pointee.context < 0 { return nil }
            if slot.pointee.hint == hint && slot.pointee.context == context { return .some(slot.pointee.font?.takeUnretainedValue()) }
            index = (index + 1) & (Self.hintSize - 1)
        }
    }

    /// Stores the system font for `hint` in `context` (fonts stay alive through the font library).
    func storeSystemFont(_ font: Font?, for hint: UInt32, context: Int32) {
        if 2 * hintsUsed >= Self.hintSize {
            hints.update(repeating: HintSlot(), count: Self.hintSize)
            hintsUsed = 0
        }
        var index = Self.hintIndex(hint, context)
        while hints[index].context >= 0 { index = (index + 1) & (Self.hintSize - 1) }
        hints[index] = HintSlot(hint: hint, context: context, font: font.map { .passUnretained($0) })
        hintsUsed += 1
    }
}
