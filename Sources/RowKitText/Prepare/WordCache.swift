import Synchronization
// Software prefetch (a one-instruction C inline: Swift has none); results never depend on it.
import CPrefetch
/// How the chunks of earlier paragraphs were analysed — a chunk being a word and the white
/// space after it, whose edges are breaks whatever surrounds them — so that a chunk met again
/// in the same circumstances costs a hash lookup and a copy instead of break analysis, font
/// choice, shaping and scaling.
///
/// One per thread (``PrepareScratch``), so lookups take no lock and entries reference their
/// data by index (no reference counting per word). A value type, handed around `inout` while a
/// paragraph is prepared, so that no access to it needs a dynamic exclusivity check. Keyed by the chunk's text and everything
/// its analysis depends on: the style context (font library, shape cache, primary font, size,
/// weight, slant), the font-fallback state carried in (``FontFallback/CarriedState``) and the
/// chunk's bidi levels. Bounded: two generations of at most ``capacity`` entries (and 32 UTF-16
/// units per entry) each; when the young one fills, it becomes the old one and the old one is
/// dropped. Entries found in the old generation are copied to the young one.
struct WordCache {
    /// Entries per generation: 32,768 (~300 B each with their data: ~10 MB per full generation,
    /// ~20 MB per preparing thread with both full and the doorkeeper). Only the 256 KB table is
    /// made up front; the entries' arrays grow as they are added. Larger sizes were measured
    /// (docs/DESIGN.md, "Issue 8, sixth round"): 65,536 and 131,072 entries cut a steady list
    /// row by 9% and 11% but cost ~20 and ~59 MB more per preparing thread, which a million-row
    /// list's 1,000 B-per-row budget has no room for.
    static let capacity = 32_768
    /// Benchmarks only: the capacity of generations made from now on, when not 0 (a power of
    /// two), to compare sizes (`ROWKIT_WORD_CACHE_CAPACITY` in rowkit-bench).
    package static let capacityOverride = Atomic<Int>(0)
    /// Chunks longer than this are analysed but not remembered.
    static let maximumLength = 64

    /// A chunk's bidi levels: all `low`, except the units in `mask` (bit u), which are `high`.
    struct Levels: Equatable {
        var mask: UInt64 = 0
        var low: UInt8 = 0, high: UInt8 = 0
    }

    /// One segment of a chunk (offsets relative to the chunk).
    struct Segment {
        var end: Int32, contentEnd: Int32
        var width: Int32, space: Int32
        var trim: Int32
        var flags: UInt8
    }

    /// One glyph run of a chunk (offsets relative to the chunk). The font is kept alive by the
    /// font library its context holds; the shaped glyphs by `shapedRuns`.
    struct Run {
        var start: Int32, end: Int32
        var level: UInt8
        var font: Unmanaged<Font>
    }

    /// A chunk's key and where its analysis lies in the generation's arrays (fields ordered so
    /// the entry packs into 72 bytes).
    struct Entry {
        /// The chunk's first four units (0 past its end), compared from the entry: a chunk of
        /// up to four units needs no read of `units` (the key's hash is not kept: the table's
        /// tag and the whole key's comparison decide).
        var head: UInt64
        var inFont: Unmanaged<Font>?
        var levels: Levels
        var context: Int32
        var inScript: Int32
        /// Where the chunk's kerning growths and cluster rests start in the generation's
        /// `extras` (with ``Flag/storedExtras``).
        var extrasStart: Int32 = 0
        /// Where the chunk's text (and per-unit advances and grapheme starts) start, and its length.
        var unitStart: Int32, length: Int32
        var segmentStart: Int32, segmentCount: Int32
        var runStart: Int32, runCount: Int32
        var flags: UInt8
        /// Where in the chunk a font-fallback plan starts (−1: none starts in it); a hit makes
        /// that plan again, so the chunks after it meet the state they would have met.
        var planStart: Int8 = -1
        /// Int32 values of kerning growths (pairs) and cluster rests (triples) in `extras`.
        var kernValues: UInt16 = 0, aloneValues: UInt16 = 0
    }

    /// Entry flags.
    enum Flag {
        /// The first or last glyph run's font kerns across spaces: the paragraph's runs may
        /// join this chunk to its neighbour, so chunk-by-chunk analysis does not apply.
        static let joinsNeighbours: UInt8 = 1
        /// The chunk's runs carry kerning growths or cluster rests shaped alone (``RunExtras``).
        static let hasRunExtras: UInt8 = 2
        /// Some unit of the chunk is inside a HarfBuzz cluster (its grapheme-start byte has bit 4).
        static let hasClusterInner: UInt8 = 4
        /// The run extras, as the chunk's first use computed them (``RunExtras/collect``), are
        /// kept in `extras` with units relative to the chunk, so a hit copies them instead of
        /// collecting them again (they depend only on the entry's runs, style and grapheme
        /// starts, all part of the entry).
        static let storedExtras: UInt8 = 8
        /// Every unit of the chunk starts a grapheme cluster (nearly every word of alphabetic
        /// text): a hit sets the chunk's grapheme bits a 64-bit word at a time.
        static let everyUnitStartsGrapheme: UInt8 = 16
    }

    /// One generation: an open-addressing table over entries, and the entries' data.
    struct Generation {
        /// Slots: −1 when empty, else an entry index (the low bits, ``indexMask``) and its
        /// key's tag (the bits above, ``tag(_:)``).
        var table: [Int32]
        var mask: Int
        /// The bits of a slot that hold the entry index (capacity − 1).
        let indexMask: Int32
        var entries: [Entry] = []
        var units: [UInt16] = []
        var advances: [Int32] = []
        var graphemeStarts: [UInt8] = []
        var segments: [Segment] = []
        var runs: [Run] = []
        var shapedRuns: [ShapedRun] = []
        /// Stored run extras (``Flag/storedExtras``): kerning pairs, then cluster-rest triples.
        var extras: [Int32] = []

        /// UTF-16 units of chunk text the generation takes (32 per entry on average).
        let unitCapacity: Int

        /// A generation of at most `capacity` entries (a power of two).
        init(capacity: Int) {
            table = [Int32](repeating: -1, count: 2 * capacity)
            mask = table.count - 1
            indexMask = Int32(capacity - 1)
            unitCapacity = 32 * capacity
        }

        /// Entries the generation takes.
        var capacity: Int { table.count / 2 }

        /// Heap bytes of the generation's arrays (by capacity; the shaped runs it references are
        /// shared with the shape cache and not counted).
        var byteCount: Int {
            table.capacity * 4 + entries.capacity * MemoryLayout<Entry>.stride + units.capacity * 2 + advances.capacity * 4
                + graphemeStarts.capacity + segments.capacity * MemoryLayout<Segment>.stride
                + runs.capacity * MemoryLayout<Run>.stride + shapedRuns.capacity * 8 + extras.capacity * 4
        }

        var isFull: Bool { 2 * entries.count >= table.count || units.count >= unitCapacity }

        /// The slot a key's probe starts at.
        @inline(__always)
        func firstSlot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash) & mask }

        /// The tag a key's slots hold above the entry index: hash bits that do not choose the
        /// slot (so a probe passes other keys' slots, and a lookup misses, without reading an
        /// entry: each read was a cache miss).
        @inline(__always)
        func tag(_ hash: UInt64) -> Int32 { Int32(truncatingIfNeeded: hash >> 33) & ~indexMask }

        /// The index of the entry matching the key, or nil; the probe starts at `slot`, whose
        /// value (`first`, read by the caller) is passed along.
        @inline(__always)
        func find(_ hash: UInt64, context: Int32, state: FontFallback.CarriedState, levels: Levels,
                  units chunk: UnsafeBufferPointer<UInt16>, at slot: Int, holding first: Int32) -> Int? {
            let tag = tag(hash)
            var slot = slot, value = first
            while value >= 0 {
                if value & ~indexMask == tag {
                    let index = Int(value & indexMask)
                    if matches(index, context: context, state: state, levels: levels, units: chunk) { return index }
                }
                slot = (slot + 1) & mask
                value = table[slot]
            }
            return nil
        }

        /// The index of the entry matching the key, or nil.
        @inline(__always)
        func find(_ hash: UInt64, context: Int32, state: FontFallback.CarriedState, levels: Levels,
                  units chunk: UnsafeBufferPointer<UInt16>) -> Int? {
            let slot = firstSlot(hash)
            return find(hash, context: context, state: state, levels: levels, units: chunk, at: slot, holding: table[slot])
        }

        /// Asks for the cache lines of the entry in `hash`'s first slot, when it holds the tag.
        @inline(__always)
        func prefetchEntry(_ hash: UInt64) {
            let value = table[firstSlot(hash)]
            guard value >= 0 && value & ~indexMask == tag(hash) else { return }
            let index = Int(value & indexMask)
            entries.withUnsafeBufferPointer {
                guard index < $0.count else { return }
                let entry = UnsafeRawPointer($0.baseAddress! + index)
                WordCache.prefetch(entry)
                WordCache.prefetch(entry + (MemoryLayout<Entry>.size - 1))
            }
        }

        /// Whether entry `index` has the key.
        @inline(__always)
        func matches(_ index: Int, context: Int32, state: FontFallback.CarriedState, levels: Levels,
                     units chunk: UnsafeBufferPointer<UInt16>) -> Bool {
            let e = entries[index]
            let n = chunk.count
            return e.head == WordCache.head(chunk) && e.context == context && Int(e.length) == n && e.inScript == state.script
                && e.inFont?.toOpaque() == state.fallback.map({ Unmanaged.passUnretained($0).toOpaque() }) && e.levels == levels
                && (n <= 4 || units.withUnsafeBufferPointer({
                    WordCache.equal($0.baseAddress! + Int(e.unitStart) + 4, chunk.baseAddress! + 4, count: n - 4)
                }))
        }

        /// Keeps entry `index`'s run extras, as collected for the chunk placed at unit `offset`
        /// (absolute units in `kerns` pairs and `alone` triples), relative to the chunk.
        mutating func storeExtras(_ index: Int, kerns: ArraySlice<Int32>, alone: ArraySlice<Int32>, offset: Int32) {
            guard kerns.count <= Int(UInt16.max), alone.count <= Int(UInt16.max) else { return }
            entries[index].extrasStart = Int32(extras.count)
            entries[index].kernValues = UInt16(kerns.count)
            entries[index].aloneValues = UInt16(alone.count)
            entries[index].flags |= Flag.storedExtras
            var k = kerns.startIndex
            while k < kerns.endIndex {
                extras.append(kerns[k] &- offset)
                extras.append(kerns[k + 1])
                k += 2
            }
            k = alone.startIndex
            while k < alone.endIndex {
                extras.append(alone[k] &- offset)
                extras.append(alone[k + 1] &- offset)
                extras.append(alone[k + 2])
                k += 3
            }
        }

        /// Links entry `index` (just appended, its key's hash `hash`) into the table.
        mutating func link(_ index: Int, hash: UInt64) {
            var slot = firstSlot(hash)
            while table[slot] >= 0 { slot = (slot + 1) & mask }
            table[slot] = tag(hash) | Int32(index)
        }

        /// Appends a copy of entry `index` of `other` (with its data; its key's hash `hash`) and
        /// returns its index here.
        mutating func copy(_ index: Int, from other: borrowing Generation, hash: UInt64) -> Int {
            var e = other.entries[index]
            let u = Int(e.unitStart), n = Int(e.length)
            e.unitStart = Int32(units.count)
            units.append(contentsOf: other.units[u..<(u + n)])
            advances.append(contentsOf: other.advances[u..<(u + n)])
            graphemeStarts.append(contentsOf: other.graphemeStarts[u..<(u + n)])
            let s = Int(e.segmentStart)
            e.segmentStart = Int32(segments.count)
            segments.append(contentsOf: other.segments[s..<(s + Int(e.segmentCount))])
            let r = Int(e.runStart)
            e.runStart = Int32(runs.count)
            runs.append(contentsOf: other.runs[r..<(r + Int(e.runCount))])
            shapedRuns.append(contentsOf: other.shapedRuns[r..<(r + Int(e.runCount))])
            if e.flags & Flag.storedExtras != 0 {
                let x = Int(e.extrasStart)
                e.extrasStart = Int32(extras.count)
                extras.append(contentsOf: other.extras[x..<(x + Int(e.kernValues) + Int(e.aloneValues))])
            }
            entries.append(e)
            link(entries.count - 1, hash: hash)
            return entries.count - 1
        }
    }

    var young = Generation(capacity: WordCache.generationCapacity)
    /// The previous young generation; an empty table until the first rotation (`hasOld`). Not
    /// an optional: reading an optional's payload copied the whole generation (a retain and
    /// release of each of its arrays) for every chunk the young one lacked.
    private(set) var old = Generation(capacity: 1)
    private(set) var hasOld = false
    /// Fingerprints of chunks missed once while the cache is under pressure (``admits(_:)``),
    /// direct-mapped by hash (256 KB, made at the first rotation).
    private var seenOnce: [UInt32] = []
    /// Lookups that found their chunk, and chunks analysed (since the thread started).
    var hits = 0, misses = 0
    /// Times the young generation filled and replaced the old one (since the thread started).
    var rotations = 0

    /// A tiny cache, holding the place of the thread's real one while that one is in use.
    static var empty: WordCache { WordCache(young: Generation(capacity: 8)) }

    /// The capacity of a new generation (``capacity`` unless a benchmark overrides it).
    static var generationCapacity: Int {
        let override = capacityOverride.load(ordering: .relaxed)
        return override > 0 ? override : capacity
    }

    /// Drops everything.
    mutating func removeAll() {
        young = Generation(capacity: WordCache.generationCapacity)
        old = Generation(capacity: 1)
        hasOld = false
        seenOnce = []
    }

    /// Whether a missed chunk (its key's `hash`) should be remembered. Always, until the young
    /// generation has filled once; after that only chunks missed before (a doorkeeper, as in
    /// TinyLFU): a list's long tail of words met once would otherwise fill the young generation
    /// every few thousand rows and push out the words that do come back. A chunk not admitted
    /// is analysed as any miss and not stored; its fingerprint is remembered until another
    /// chunk's takes its slot.
    @inline(__always)
    mutating func admits(_ hash: UInt64) -> Bool {
        guard hasOld else { return true }
        if seenOnce.isEmpty { seenOnce = [UInt32](repeating: 0, count: 1 << 16) }
        let slot = Int(truncatingIfNeeded: hash >> 48)
        let fingerprint = UInt32(truncatingIfNeeded: hash) | 1
        if seenOnce[slot] == fingerprint { return true }
        seenOnce[slot] = fingerprint
        return false
    }

    /// Entries held, over both generations.
    var count: Int { young.entries.count + (hasOld ? old.entries.count : 0) }

    /// Heap bytes held, over both generations (``Generation/byteCount``).
    var byteCount: Int { young.byteCount + (hasOld ? old.byteCount : 0) + 4 * seenOnce.count }

    /// The entry for the key (promoted to the young generation if found in the old one).
    @inline(__always)
    mutating func find(_ hash: UInt64, context: Int32, state: FontFallback.CarriedState, levels: Levels,
                       units: UnsafeBufferPointer<UInt16>) -> Int? {
        if let index = young.find(hash, context: context, state: state, levels: levels, units: units) { return index }
        guard hasOld, let index = old.find(hash, context: context, state: state, levels: levels, units: units) else { return nil }
        if young.isFull {
            // Rare: the rotation drops the generation the entry is in, so keep it for the copy.
            let previous = old
            rotateIfFull()
            return young.copy(index, from: previous, hash: hash)
        }
        return young.copy(index, from: old, hash: hash)
    }

    /// Asks the CPU for the cache line holding `address`.
    @inline(__always)
    static func prefetch(_ address: UnsafeRawPointer) { rowkit_prefetch(address) }

    /// Asks for the cache lines of the slots where a lookup of `hash` starts, in both
    /// generations (a hint: results do not depend on it).
    @inline(__always)
    func prefetchSlots(_ hash: UInt64) {
        let y = young.firstSlot(hash), o = old.firstSlot(hash)
        young.table.withUnsafeBufferPointer { WordCache.prefetch($0.baseAddress! + y) }
        old.table.withUnsafeBufferPointer { WordCache.prefetch($0.baseAddress! + o) }
    }

    /// Asks for the cache lines of the entry a lookup of `hash` would compare first, in both
    /// generations, when its first slot holds the key's tag (its slots asked for before).
    @inline(__always)
    func prefetchEntry(_ hash: UInt64) {
        young.prefetchEntry(hash)
        old.prefetchEntry(hash)
    }

    /// A chunk's first four units as one word (0 past its end), as ``Entry/head`` keeps them.
    @inline(__always)
    static func head(_ units: UnsafeBufferPointer<UInt16>) -> UInt64 {
        let n = units.count
        if n >= 4 { return UnsafeRawPointer(units.baseAddress!).loadUnaligned(as: UInt64.self) }
        var word: UInt64 = 0
        for k in 0..<n { word |= UInt64(units[k]) << UInt64(16 * k) }
        return word
    }

    /// Whether `count` UTF-16 units at `a` and at `b` are equal (inline: chunks are short, and
    /// a call to `memcmp` cost more than the comparison).
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>, count: Int) -> Bool {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        let bytes = 2 * count
        var k = 0
        while k + 8 <= bytes {
            if x.loadUnaligned(fromByteOffset: k, as: UInt64.self) != y.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
            k += 8
        }
        if k + 4 <= bytes {
            if x.loadUnaligned(fromByteOffset: k, as: UInt32.self) != y.loadUnaligned(fromByteOffset: k, as: UInt32.self) { return false }
            k += 4
        }
        return k == bytes || x.loadUnaligned(fromByteOffset: k, as: UInt16.self) == y.loadUnaligned(fromByteOffset: k, as: UInt16.self)
    }

    /// Makes room in the young generation: when full, it becomes the old one.
    mutating func rotateIfFull() {
        if young.isFull { rotate() }
    }

    /// The young generation becomes the old one (the old one is dropped).
    mutating func rotate() {
        rotations += 1
        old = young
        hasOld = true
        young = Generation(capacity: WordCache.generationCapacity)
    }

    /// A hash of the key (multiply-xor over the context, state, levels and text, four units at
    /// a time).
    @inline(__always)
    static func hash(context: Int32, state: FontFallback.CarriedState, levels: Levels, units: UnsafeBufferPointer<UInt16>) -> UInt64 {
        var h = UInt64(UInt32(bitPattern: context)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(units.count)
        h ^= UInt64(UInt32(bitPattern: state.script)) << 32
        if let font = state.fallback { h ^= UInt64(UInt32(bitPattern: font.id)) &* 0xC2B2_AE3D_27D4_EB4F }
        h ^= (levels.mask &* 0x1656_67B1_9E37_79F9) ^ UInt64(levels.low) << 8 ^ UInt64(levels.high) << 16
        var k = 0
        let n = units.count
        let base = UnsafeRawPointer(units.baseAddress!)
        while k + 4 <= n {
            let word = base.loadUnaligned(fromByteOffset: 2 * k, as: UInt64.self)
            h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            k += 4
        }
        while k < n {
            h = (h ^ UInt64(units[k])) &* 0x94D0_49BB_1331_11EB
            k += 1
        }
        h ^= h >> 29
        return h &* 0x9E37_79B9_7F4A_7C15
    }
}
