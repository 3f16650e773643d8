import Synchronization
import Glibc

/// The glyphs HarfBuzz made for one run of text in one font and direction, in design units.
///
/// Runs are immutable and shared between every prepared text that contains the same run,
/// through ``ShapeCache``. Shaping happens at the font's units-per-em scale, so a run is valid
/// for every font size: widths scale linearly (no hinting, as in Chromium on Linux). One
/// allocation holds the counts and every array (glyph ids, advances, offsets, clusters,
/// per-unit advances), so making a run is one malloc and dropping it (a shape cache rotation
/// drops thousands) one free.
///
/// The class has no stored properties: `ManagedBufferPointer` allocates it with the counts as
/// its header and the arrays as its tail elements (a `ManagedBuffer` subclass would do the
/// same, but `ManagedBuffer` is not Sendable). Sendable because nothing writes a run after
/// `shape` returns it. The header and elements are trivial, so nothing needs deinitializing.
package final class ShapedRun: Sendable {
    /// Glyph count, UTF-16 unit count, kerning pairs and line-start widths, and whether a
    /// cluster has two or more glyphs that advance (``ClusterAdvances``). The tail is one block
    /// of Int32s: glyph ids, advances, x offsets, y offsets and clusters (a glyph count each),
    /// then per-unit advances, then the kerning pairs (``LineEndKerning``), then the line-start
    /// widths (``ClusterSplit``). Int32 counts: a run's offsets are Int32 already.
    struct Counts {
        let glyphs: Int32, units: Int32, kerning: Int32, alone: Int32
        let multiAdvance: Bool
    }

    private typealias Buffer = ManagedBufferPointer<Counts, Int32>

    /// Never called: runs are made by `make` (a stored property would break the tail layout).
    private init() {}

    /// A run with zeroed arrays of the given counts (not zeroed with `zeroed: false`: the
    /// caller writes every element; the elements are trivial).
    private static func make(glyphs: Int, units: Int, kerning: Int = 0, alone: Int = 0, multiAdvance: Bool = false,
                             zeroed: Bool = true) -> ShapedRun {
        let size = max(1, 5 * glyphs + units + 2 * kerning + 3 * alone)
        let counts = Counts(glyphs: Int32(glyphs), units: Int32(units), kerning: Int32(kerning), alone: Int32(alone),
                            multiAdvance: multiAdvance)
        let buffer = Buffer(bufferClass: ShapedRun.self, minimumCapacity: size) { _, _ in counts }
        if zeroed { buffer.withUnsafeMutablePointerToElements { $0.initialize(repeating: 0, count: size) } }
        return unsafeDowncast(buffer.buffer, to: ShapedRun.self)
    }

    @inline(__always) private var buffer: Buffer { Buffer(unsafeBufferObject: self) }
    /// The tail's first Int32 (valid while the run lives: the tail never moves).
    @inline(__always) private var storage: UnsafeMutablePointer<Int32> { buffer.withUnsafeMutablePointerToElements { $0 } }
    @inline(__always) private var counts: Counts { buffer.header }

    @inline(__always) private func part(_ k: Int, _ count: Int) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(start: storage + k * Int(counts.glyphs), count: count)
    }

    /// Whether a cluster has two or more glyphs that advance (``ClusterAdvances``).
    var hasMultiAdvanceClusters: Bool { counts.multiAdvance }
    /// Number of glyphs.
    package var glyphCount: Int { Int(counts.glyphs) }
    /// Glyph ids, in visual order (HarfBuzz output order).
    package var glyphIDs: UnsafeBufferPointer<UInt32> {
        UnsafeBufferPointer(start: UnsafeRawPointer(storage).assumingMemoryBound(to: UInt32.self), count: Int(counts.glyphs))
    }
    /// Horizontal advance of each glyph.
    package var glyphAdvances: UnsafeBufferPointer<Int32> { part(1, Int(counts.glyphs)) }
    /// Glyph offsets from the pen position.
    package var glyphOffsetsX: UnsafeBufferPointer<Int32> { part(2, Int(counts.glyphs)) }
    package var glyphOffsetsY: UnsafeBufferPointer<Int32> { part(3, Int(counts.glyphs)) }
    /// UTF-16 offset, within the run, of the cluster each glyph belongs to.
    package var glyphClusters: UnsafeBufferPointer<Int32> { part(4, Int(counts.glyphs)) }
    /// Advance credited to each UTF-16 unit of the run (a cluster's advance goes to its first
    /// unit; multi-grapheme clusters spread it over their graphemes, ``ClusterSplit``).
    var unitAdvances: UnsafeBufferPointer<Int32> { part(5, Int(counts.units)) }
    /// Clusters that HarfBuzz kerned against the next one: (run offset, kerning in design
    /// units) pairs, flat (``LineEndKerning``).
    var kerning: UnsafeBufferPointer<Int32> {
        let c = counts
        return UnsafeBufferPointer(start: storage + 5 * Int(c.glyphs) + Int(c.units), count: 2 * Int(c.kerning))
    }
    /// Widths of the rests of multi-grapheme clusters shaped alone, for lines that start inside
    /// such a cluster: (from, to, design units) triples, run offsets, flat (``ClusterSplit``).
    var aloneWidths: UnsafeBufferPointer<Int32> {
        let c = counts
        return UnsafeBufferPointer(start: storage + 5 * Int(c.glyphs) + Int(c.units) + 2 * Int(c.kerning), count: 3 * Int(c.alone))
    }

    /// The same, as arrays (for tests and tools).
    package var glyphs: [UInt32] { Array(glyphIDs) }
    package var advances: [Int32] { Array(glyphAdvances) }
    package var clusters: [Int32] { Array(glyphClusters) }

    /// Heap bytes held by the run: its one allocation (header, counts and arrays, as the
    /// allocator sized it) and the allocator's word of bookkeeping.
    var byteCount: Int {
        let head = (16 + MemoryLayout<Counts>.size + MemoryLayout<Int32>.alignment - 1) & ~(MemoryLayout<Int32>.alignment - 1)
        return head + buffer.capacity * MemoryLayout<Int32>.stride + MemoryLayout<Int>.size
    }

    /// Shapes `units[item]` (one run: one font, one direction) with HarfBuzz; the units around
    /// `item` are context only (Arabic joining across a font change).
    /// `halfWidth` lists run offsets shaped with the `halt` feature (trimmed CJK punctuation).
    /// `knownBreaks`: ICU's line breaks inside the item as found over the item alone, when known
    /// (``ClusterSplit/creditGraphemes(_:clusters:units:item:font:rightToLeft:language:buffer:knownBreaks:)``).
    static func shape(_ units: UnsafeBufferPointer<UInt16>, item: Range<Int>? = nil, font: Font, rightToLeft: Bool,
                      halfWidth: [UInt16], language: ShapingLanguage = .none, script: UInt32 = 0, buffer: HBBuffer,
                      knownBreaks: ParagraphLineBreaks.Share? = nil) -> ShapedRun {
        let item = item ?? 0..<units.count
        let shaped = HarfBuzz.shape(units.baseAddress, count: units.count, item: item, font: font.shapingFont(for: units),
                                    rightToLeft: rightToLeft, language: language.language, halfWidth: halfWidth, script: script,
                                    buffer: buffer)
        let n = shaped.count
        // The line-end kerning pairs (at most one a glyph), on the stack for most runs.
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * n + 2) { room in
            let count = LineEndKerning.collect(shaped, clusterOffset: Int32(item.lowerBound), rightToLeft: rightToLeft, font: font,
                                               into: room.baseAddress!)
            return finish(shaped, units, item: item, font: font, rightToLeft: rightToLeft, language: language, buffer: buffer,
                        knownBreaks: knownBreaks, kerning: UnsafeBufferPointer(start: room.baseAddress!, count: count))
        }
    }

    /// The run of HarfBuzz's output `shaped` for `units[item]`, with its line-end `kerning` pairs.
    private static func finish(_ shaped: HarfBuzz.Glyphs, _ units: UnsafeBufferPointer<UInt16>, item: Range<Int>, font: Font,
                             rightToLeft: Bool, language: ShapingLanguage, buffer: HBBuffer, knownBreaks: ParagraphLineBreaks.Share?,
                             kerning: UnsafeBufferPointer<Int32>) -> ShapedRun {
        let n = shaped.count, u = item.count
        let lower = Int32(item.lowerBound)
        // One glyph per unit, in order (nearly every word): no cluster holds several graphemes.
        var oneGlyphPerUnit = n == u
        if oneGlyphPerUnit {
            for i in 0..<n where Int32(bitPattern: shaped.cluster(i)) - lower != Int32(rightToLeft ? n - 1 - i : i) {
                oneGlyphPerUnit = false
                break
            }
        }
        if oneGlyphPerUnit {
            // Every element is written below (each unit is one glyph's cluster): not zeroed first.
            let run = ShapedRun.make(glyphs: n, units: u, kerning: kerning.count / 2, zeroed: false)
            let base = run.storage
            for i in 0..<n {
                base[i] = Int32(bitPattern: shaped.glyph(i))
                base[n + i] = shaped.xAdvance(i)
                base[2 * n + i] = shaped.xOffset(i)
                base[3 * n + i] = shaped.yOffset(i)
                let cluster = Int32(bitPattern: shaped.cluster(i)) - lower
                base[4 * n + i] = cluster
                base[5 * n + Int(cluster)] = shaped.xAdvance(i)
            }
            for k in kerning.indices { base[5 * n + u + k] = kerning[k] }
            return run
        }
        // Clusters of several units: copy the glyphs out (the buffer is reused to shape the
        // clusters' graphemes alone, ``ClusterSplit``).
        var glyphs = zeroFilledArray(Int32(0), count: 5 * n)
        var unitAdvances = zeroFilledArray(Int32(0), count: u)
        var clusters = zeroFilledArray(Int32(0), count: n)
        // Cluster starts HarfBuzz flags unsafe to break before (``UnsafeLineStart``).
        var unsafe = zeroFilledArray(false, count: u)
        // A cluster's glyphs are consecutive in HarfBuzz's output: two advancing glyphs in a
        // row with one cluster make a cluster of several advances.
        var multiAdvance = false
        var lastAdvancing: Int32 = -1
        for i in 0..<n {
            if shaped.xAdvance(i) != 0 {
                let c = Int32(bitPattern: shaped.cluster(i))
                if c == lastAdvancing { multiAdvance = true }
                lastAdvancing = c
            }
            if shaped.unsafeToBreak(i) { unsafe[Int(Int32(bitPattern: shaped.cluster(i)) - lower)] = true }
            glyphs[i] = Int32(bitPattern: shaped.glyph(i))
            glyphs[n + i] = shaped.xAdvance(i)
            glyphs[2 * n + i] = shaped.xOffset(i)
            glyphs[3 * n + i] = shaped.yOffset(i)
            let cluster = Int32(bitPattern: shaped.cluster(i)) - lower
            glyphs[4 * n + i] = cluster
            clusters[i] = cluster
            unitAdvances[Int(cluster)] &+= shaped.xAdvance(i)
        }
        var alone = ClusterSplit.creditGraphemes(&unitAdvances, clusters: clusters, units: units, item: item, font: font,
                                                 rightToLeft: rightToLeft, language: language, buffer: buffer,
                                                 knownBreaks: knownBreaks)
        if !rightToLeft { UnsafeLineStart.record(clusters: clusters, unsafe: unsafe, count: u, into: &alone) }
        let run = ShapedRun.make(glyphs: n, units: u, kerning: kerning.count / 2, alone: alone.count / 3, multiAdvance: multiAdvance)
        let base = run.storage
        for k in 0..<(5 * n) { base[k] = glyphs[k] }
        for k in 0..<u { base[5 * n + k] = unitAdvances[k] }
        for k in kerning.indices { base[5 * n + u + k] = kerning[k] }
        for k in alone.indices { base[5 * n + u + kerning.count + k] = alone[k] }
        return run
    }
}

/// ThreadSanitizer's happens-before annotations, when the process runs under it (the shape
/// cache's shards annotate their lock with them).
private struct ShapeCacheSanitizerHooks: Sendable {
    typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void
    let acquire: Hook
    let release: Hook

    static let shared: ShapeCacheSanitizerHooks? = {
        let handle = dlopen(nil, RTLD_NOW)
        guard let acquire = dlsym(handle, "__tsan_acquire"), let release = dlsym(handle, "__tsan_release") else { return nil }
        return ShapeCacheSanitizerHooks(acquire: unsafeBitCast(acquire, to: Hook.self), release: unsafeBitCast(release, to: Hook.self))
    }()
}

/// A bounded, thread-safe cache of shaped runs keyed by font, direction and text.
///
/// Two generations approximate LRU at O(1): lookups hit the young generation, then the old one
/// (copying the entry into the young one); when the young generation is full it becomes the old
/// one and the old one is dropped. At most `2 × capacity` runs are held. Once a generation has
/// filled, a missed run is stored on its second miss only.
public final class ShapeCache: Sendable {
    /// What a run is shaped from. Runs of up to 12 UTF-16 units without half-width positions,
    /// shaping context or context script (nearly every word) keep their text inline; longer ones
    /// point to their key text (``ShapeCache/withKey(font:rightToLeft:text:halfWidth:context:script:language:_:)``
    /// builds it on the stack), which the cache copies when it stores the run. A plain value:
    /// no arrays to copy, retain or release per lookup. Sendable because the cache copies a long
    /// key's text before the lookup or store that used it returns.
    struct Key: @unchecked Sendable {
        fileprivate var word0: UInt64 = 0, word1: UInt64 = 0, word2: UInt64 = 0
        /// Font id (bits 0–31), direction (bit 32), long key (bit 33), inline length (bits
        /// 40–47), language (48–63).
        fileprivate var meta: UInt64
        /// The long key's text (empty for inline keys): valid only while the key is used.
        fileprivate var long: UnsafeBufferPointer<UInt16>
        /// A multiply-xor mix of the key, computed once: it picks the shard and the slot.
        let mixed: UInt64

        fileprivate static let longBit: UInt64 = 1 << 33

        /// An inline key (`text.count <= 12`), or a long one pointing at `long`.
        fileprivate init(font: Int32, rightToLeft: Bool, language: UInt16, inline text: UnsafeBufferPointer<UInt16>?,
                         long: UnsafeBufferPointer<UInt16>) {
            meta = UInt64(UInt32(bitPattern: font)) | (rightToLeft ? 1 << 32 : 0) | UInt64(language) << 48
            self.long = long
            var h = meta
            if let text {
                meta |= UInt64(text.count) << 40
                for i in 0..<text.count {
                    let unit = UInt64(text[i]), shift = UInt64((i & 3) * 16)
                    switch i >> 2 {
                    case 0: word0 |= unit << shift
                    case 1: word1 |= unit << shift
                    default: word2 |= unit << shift
                    }
                }
                h = meta &* 0x9E37_79B9_7F4A_7C15
                h = (h ^ word0) &* 0xBF58_476D_1CE4_E5B9
                h = (h ^ (h >> 29) ^ word1) &* 0x94D0_49BB_1331_11EB
                h = (h ^ (h >> 32) ^ word2) &* 0x9E37_79B9_7F4A_7C15
            } else {
                meta |= Self.longBit
                h = (meta ^ UInt64(long.count)) &* 0x9E37_79B9_7F4A_7C15
                for unit in long { h = (h ^ UInt64(unit)) &* 0x0000_0100_0000_01B3 }
                h = (h ^ (h >> 32)) &* 0xBF58_476D_1CE4_E5B9
            }
            mixed = h ^ (h >> 31)
        }

        var rightToLeft: Bool { meta & (1 << 32) != 0 }
    }

    /// Calls `body` with the key of a run: `text` in the font with id `font`, shaped in
    /// `rightToLeft` direction with the `halt` feature at the run offsets `halfWidth`, with the
    /// units of `context` (the run with `before` units of joining context before it and some
    /// after; nil: none) and a context `script` (0: none), in `language`. A long key's text is
    /// laid out as a header (text length in two units, half-width count, `before`, context
    /// length in two units, whether a script follows), the text, the half-width offsets, the
    /// context and the script's two halves: unambiguous, so equal texts mean equal keys.
    @inline(__always)
    static func withKey<R>(font: Int32, rightToLeft: Bool, text: UnsafeBufferPointer<UInt16>, halfWidth: [UInt16],
                           context: (units: UnsafeBufferPointer<UInt16>, before: Int)?, script: UInt32, language: UInt16,
                           _ body: (Key) -> R) -> R {
        if text.count <= 12 && halfWidth.isEmpty && context == nil && script == 0 {
            return body(Key(font: font, rightToLeft: rightToLeft, language: language, inline: text, long: UnsafeBufferPointer(start: nil, count: 0)))
        }
        let contextCount = context?.units.count ?? 0
        let count = 7 + text.count + halfWidth.count + contextCount + (script != 0 ? 2 : 0)
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) { buffer in
            let p = buffer.baseAddress!
            p[0] = UInt16(truncatingIfNeeded: text.count)
            p[1] = UInt16(truncatingIfNeeded: text.count >> 16)
            p[2] = UInt16(truncatingIfNeeded: halfWidth.count)
            p[3] = UInt16(truncatingIfNeeded: context?.before ?? 0)
            p[4] = UInt16(truncatingIfNeeded: contextCount)
            p[5] = UInt16(truncatingIfNeeded: contextCount >> 16)
            p[6] = script != 0 ? 1 : 0
            var k = 7
            if let base = text.baseAddress { (p + k).update(from: base, count: text.count) }
            k += text.count
            for offset in halfWidth { p[k] = offset; k += 1 }
            if let context, let base = context.units.baseAddress { (p + k).update(from: base, count: contextCount) }
            k += contextCount
            if script != 0 {
                p[k] = UInt16(truncatingIfNeeded: script >> 16)
                p[k + 1] = UInt16(truncatingIfNeeded: script)
            }
            return body(Key(font: font, rightToLeft: rightToLeft, language: language, inline: nil,
                            long: UnsafeBufferPointer(start: p, count: count)))
        }
    }

    /// One generation: open addressing with linear probing over slots that hold the key
    /// itself (a long key's text in `longText`), at most half full. Its slots are made once, for
    /// the generation's whole capacity, on the first insert: a table never grows, so no insert
    /// (made under the shard's lock) rehashes and frees. Sendable by ownership: a table belongs
    /// to one shard's lock until a rotation swaps it out, then to the thread that destroys it.
    fileprivate struct Table: @unchecked Sendable {
        struct Slot {
            var mixed: UInt64
            /// ``Key``'s `meta`; for a long key, `word0` is where its text starts in `longText`
            /// and `word1` its length.
            var meta: UInt64
            var word0: UInt64, word1: UInt64, word2: UInt64
            /// nil: an empty slot (all bits zero: `calloc` makes empty slots). Retained by the table.
            var run: Unmanaged<ShapedRun>?
        }

        private(set) var slots: UnsafeMutablePointer<Slot>?
        /// Entries the table may hold: its slots are the next power of two at least twice that.
        let capacity: Int
        private let mask: Int
        private(set) var count = 0
        private var longText = RawBuffer<UInt16>()

        init(capacity: Int) {
            self.capacity = max(1, capacity)
            var slotCount = 16
            while slotCount < 2 * self.capacity { slotCount *= 2 }
            mask = slotCount - 1
        }

        var isFull: Bool { count >= capacity }

        /// The run stored for `key`, if any.
        @inline(__always)
        func find(_ key: Key) -> ShapedRun? {
            guard let slots else { return nil }
            var i = Int(truncatingIfNeeded: key.mixed) & mask
            while let run = slots[i].run {
                if slots[i].mixed == key.mixed && matches(slots[i], key) { return run.takeUnretainedValue() }
                i = (i + 1) & mask
            }
            return nil
        }

        @inline(__always)
        private func matches(_ slot: Slot, _ key: Key) -> Bool {
            guard slot.meta == key.meta else { return false }
            if key.meta & Key.longBit == 0 {
                return slot.word0 == key.word0 && slot.word1 == key.word1 && slot.word2 == key.word2
            }
            guard Int(slot.word1) == key.long.count, let base = key.long.baseAddress else { return false }
            return memcmp(longText.base! + Int(slot.word0), base, 2 * key.long.count) == 0
        }

        /// Stores `run` for `key` (not in the table yet; the table not full).
        mutating func insert(_ key: Key, _ run: ShapedRun) {
            if slots == nil {
                // Zeroed pages from the allocator, touched as slots fill.
                slots = calloc(mask + 1, MemoryLayout<Slot>.stride)!.bindMemory(to: Slot.self, capacity: mask + 1)
            }
            var slot = Slot(mixed: key.mixed, meta: key.meta, word0: key.word0, word1: key.word1, word2: key.word2,
                            run: .passRetained(run))
            if key.meta & Key.longBit != 0 {
                slot.word0 = UInt64(longText.count)
                slot.word1 = UInt64(key.long.count)
                if let base = key.long.baseAddress { longText.append(from: base, count: key.long.count) }
            }
            var i = Int(truncatingIfNeeded: slot.mixed) & mask
            while slots![i].run != nil { i = (i + 1) & mask }
            slots![i] = slot
            count += 1
        }

        /// Releases every run and frees the memory.
        mutating func destroy() {
            if let slots {
                for i in 0...mask { slots[i].run?.release() }
                free(slots)
            }
            slots = nil
            count = 0
            longText.deallocate()
        }
    }

    /// Fingerprints of runs missed and not stored, one per slot (a doorkeeper, as in TinyLFU and
    /// the word cache): once a shard's young generation has filled, a run is stored on its
    /// second miss only, so that runs met once (a list's long tail: invented words, numbers,
    /// rare punctuation and capital variants) do not fill the young generation and push out the
    /// runs that come back. Its slots are made on the first use. Sendable by ownership, as
    /// `Table`.
    fileprivate struct Doorkeeper: @unchecked Sendable {
        private var fingerprints: UnsafeMutablePointer<UInt32>?
        private let mask: Int

        /// A doorkeeper of the next power of two at least `slots` (16 or more).
        init(slots: Int) {
            var count = 16
            while count < slots { count *= 2 }
            mask = count - 1
        }

        /// Whether `key`'s fingerprint is in its slot (a miss since another key took the slot);
        /// if not, puts it there.
        @inline(__always)
        mutating func admits(_ key: Key) -> Bool {
            if fingerprints == nil {
                fingerprints = calloc(mask + 1, MemoryLayout<UInt32>.stride)!.bindMemory(to: UInt32.self, capacity: mask + 1)
            }
            // The shard came from bits 40–43 and the table slot from the low bits.
            let slot = Int(truncatingIfNeeded: key.mixed >> 44) & mask
            let fingerprint = UInt32(truncatingIfNeeded: key.mixed) | 1
            if fingerprints![slot] == fingerprint { return true }
            fingerprints![slot] = fingerprint
            return false
        }

        mutating func destroy() {
            free(fingerprints)
            fingerprints = nil
        }
    }

    private struct Generations {
        var young: Table
        var old: Table
        /// Whether the young generation has filled once (the doorkeeper is in use from then on).
        var hasOld = false
        var doorkeeper: Doorkeeper
        var hits = 0, misses = 0

        /// Generations of `capacity` runs, with a doorkeeper of as many slots.
        init(capacity: Int) {
            young = Table(capacity: capacity)
            old = Table(capacity: capacity)
            doorkeeper = Doorkeeper(slots: capacity)
        }

        mutating func destroy() {
            young.destroy()
            old.destroy()
            doorkeeper.destroy()
        }
    }

    /// One lock and two generations; keys are spread over several shards so that threads
    /// preparing texts in parallel rarely wait for each other.
    ///
    /// ThreadSanitizer does not see the futex inside `Mutex` on Linux; under it (only there: the
    /// hooks are looked up once and absent otherwise) each hold is annotated as an acquire and a
    /// release on the shard's address, as the list engine's `StateLock` does, so that TSan
    /// checks the cache instead of reporting every access made under the lock.
    private final class Shard: Sendable {
        private let generations: Mutex<Generations>
        private let hooks = ShapeCacheSanitizerHooks.shared

        init(capacity: Int) { generations = Mutex(Generations(capacity: capacity)) }

        /// Runs `body` with the generations, the lock held.
        @inline(__always)
        func withLock<Result>(_ body: (inout sending Generations) -> sending Result) -> sending Result {
            generations.withLock { g -> sending Result in
                guard let hooks else { return body(&g) }
                let address = Unmanaged.passUnretained(self).toOpaque()
                hooks.acquire(address)
                defer { hooks.release(address) }
                return body(&g)
            }
        }

        deinit {
            withLock { g in g.destroy() }
        }
    }

    /// The process-wide cache used by ``PreparedText`` unless another is given.
    public static let shared = ShapeCache(capacity: 65_536)

    /// Runs per generation, over all shards.
    public let capacity: Int
    private let shards: [Shard]
    /// Bumped by ``removeAll()``: each thread's word cache (WordCache.swift), which remembers
    /// what texts prepared through this cache looked like, empties itself when it changes.
    private let clearCount = Atomic<UInt64>(0)
    var generation: UInt64 { clearCount.load(ordering: .acquiring) }

    /// A cache holding at most about `2 × capacity` shaped runs (two generations).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        let count = capacity >= 1024 ? 16 : 1
        let shardCapacity = max(1, self.capacity / count)
        self.shards = (0..<count).map { _ in Shard(capacity: shardCapacity) }
    }

    @inline(__always) private func shard(_ key: Key) -> Shard {
        shards.count == 1 ? shards[0] : shards[Int((key.mixed >> 40) % UInt64(shards.count))]
    }

    func run(for key: Key) -> ShapedRun? {
        var (run, dropped) = shard(key).withLock { g -> (ShapedRun?, Table?) in
            if let run = g.young.find(key) { g.hits += 1; return (run, nil) }
            if let run = g.old.find(key) {
                // Copy (not move) into the young generation: the old one is dropped whole later.
                g.hits += 1
                return (run, Self.insert(key, run, into: &g))
            }
            g.misses += 1
            return (nil, nil)
        }
        dropped?.destroy()
        return run
    }

    func store(_ run: ShapedRun, for key: Key) {
        var dropped = shard(key).withLock { g -> Table? in
            // Another thread may have stored the same run meanwhile.
            guard g.young.find(key) == nil else { return nil }
            // After the first rotation, only a run missed before (`Doorkeeper`).
            if g.hasOld && !g.doorkeeper.admits(key) { return nil }
            return Self.insert(key, run, into: &g)
        }
        dropped?.destroy()
    }

    /// Inserts into the young generation; when it is full, it becomes the old one first and
    /// the old one is returned, for the caller to destroy after unlocking (releasing a
    /// generation's runs, thousands of frees, would hold the shard's lock for a millisecond).
    private static func insert(_ key: Key, _ run: ShapedRun, into g: inout Generations) -> Table? {
        var dropped: Table?
        if g.young.isFull {
            dropped = g.old
            g.old = g.young
            g.young = Table(capacity: g.old.capacity)
            g.hasOld = true
        }
        g.young.insert(key, run)
        return dropped
    }

    /// Number of runs held and the hit/miss counts so far.
    public var statistics: (runs: Int, hits: Int, misses: Int) {
        var total = (runs: 0, hits: 0, misses: 0)
        for shard in shards {
            shard.withLock { g in
                total.runs += g.young.count + g.old.count
                total.hits += g.hits
                total.misses += g.misses
            }
        }
        return total
    }

    /// Drops every cached run, and every thread's memory of the words prepared through this
    /// cache (the next texts are prepared from scratch).
    public func removeAll() {
        for shard in shards {
            var dropped = shard.withLock { g -> Generations in
                let dropped = g
                g = Generations(capacity: g.young.capacity)
                return dropped
            }
            dropped.destroy()
        }
        clearCount.add(1, ordering: .releasing)
    }
}
