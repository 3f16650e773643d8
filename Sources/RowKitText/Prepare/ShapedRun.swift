import Synchronization

/// The glyphs HarfBuzz made for one run of text in one font and direction, in design units.
///
/// Runs are immutable and shared between every prepared text that contains the same run,
/// through ``ShapeCache``. Shaping happens at the font's units-per-em scale, so a run is valid
/// for every font size: widths scale linearly (no hinting, as in Chromium on Linux). One
/// allocation holds every array (glyph ids, advances, offsets, clusters, per-unit advances).
package final class ShapedRun: Sendable {
    /// Glyph count, UTF-16 unit count, kerning pairs and line-start widths, and every array in
    /// one block of Int32s: glyph ids, advances, x offsets, y offsets and clusters (a glyph
    /// count each), then per-unit advances, then the kerning pairs (``LineEndKerning``), then
    /// the line-start widths (``ClusterSplit``).
    private let counts: (glyphs: Int, units: Int, kerning: Int, alone: Int)
    nonisolated(unsafe) private let storage: UnsafeMutablePointer<Int32>
    /// Whether a cluster has two or more glyphs that advance (``ClusterAdvances``).
    let hasMultiAdvanceClusters: Bool

    private init(glyphs: Int, units: Int, kerning: Int = 0, alone: Int = 0, multiAdvance: Bool = false) {
        counts = (glyphs, units, kerning, alone)
        hasMultiAdvanceClusters = multiAdvance
        let size = max(1, 5 * glyphs + units + 2 * kerning + 3 * alone)
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
    }

    deinit { storage.deallocate() }

    @inline(__always) private func part(_ k: Int, _ count: Int) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(start: storage + k * counts.glyphs, count: count)
    }

    /// Number of glyphs.
    package var glyphCount: Int { counts.glyphs }
    /// Glyph ids, in visual order (HarfBuzz output order).
    package var glyphIDs: UnsafeBufferPointer<UInt32> {
        UnsafeBufferPointer(start: UnsafeRawPointer(storage).assumingMemoryBound(to: UInt32.self), count: counts.glyphs)
    }
    /// Horizontal advance of each glyph.
    package var glyphAdvances: UnsafeBufferPointer<Int32> { part(1, counts.glyphs) }
    /// Glyph offsets from the pen position.
    package var glyphOffsetsX: UnsafeBufferPointer<Int32> { part(2, counts.glyphs) }
    package var glyphOffsetsY: UnsafeBufferPointer<Int32> { part(3, counts.glyphs) }
    /// UTF-16 offset, within the run, of the cluster each glyph belongs to.
    package var glyphClusters: UnsafeBufferPointer<Int32> { part(4, counts.glyphs) }
    /// Advance credited to each UTF-16 unit of the run (a cluster's advance goes to its first
    /// unit; multi-grapheme clusters spread it over their graphemes, ``ClusterSplit``).
    var unitAdvances: UnsafeBufferPointer<Int32> { part(5, counts.units) }
    /// Clusters that HarfBuzz kerned against the next one: (run offset, kerning in design
    /// units) pairs, flat (``LineEndKerning``).
    var kerning: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(start: storage + 5 * counts.glyphs + counts.units, count: 2 * counts.kerning) }
    /// Widths of the rests of multi-grapheme clusters shaped alone, for lines that start inside
    /// such a cluster: (from, to, design units) triples, run offsets, flat (``ClusterSplit``).
    var aloneWidths: UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(start: storage + 5 * counts.glyphs + counts.units + 2 * counts.kerning, count: 3 * counts.alone)
    }

    /// The same, as arrays (for tests and tools).
    package var glyphs: [UInt32] { Array(glyphIDs) }
    package var advances: [Int32] { Array(glyphAdvances) }
    package var clusters: [Int32] { Array(glyphClusters) }

    /// Approximate heap bytes held by the run.
    var byteCount: Int { 48 + counts.glyphs * 20 + counts.units * 4 + counts.kerning * 8 + counts.alone * 12 }

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
        let n = shaped.count, u = item.count
        let lower = Int32(item.lowerBound)
        let kerning = LineEndKerning.collect(shaped, clusterOffset: lower, rightToLeft: rightToLeft, font: font)
        // One glyph per unit, in order (nearly every word): no cluster holds several graphemes.
        var oneGlyphPerUnit = n == u
        if oneGlyphPerUnit {
            for i in 0..<n where Int32(bitPattern: shaped.cluster(i)) - lower != Int32(rightToLeft ? n - 1 - i : i) {
                oneGlyphPerUnit = false
                break
            }
        }
        if oneGlyphPerUnit {
            let run = ShapedRun(glyphs: n, units: u, kerning: kerning.count / 2)
            let base = run.storage
            for i in 0..<n {
                base[i] = Int32(bitPattern: shaped.glyph(i))
                base[n + i] = shaped.xAdvance(i)
                base[2 * n + i] = shaped.xOffset(i)
                base[3 * n + i] = shaped.yOffset(i)
                let cluster = Int32(bitPattern: shaped.cluster(i)) - lower
                base[4 * n + i] = cluster
                base[5 * n + Int(cluster)] &+= shaped.xAdvance(i)
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
        let run = ShapedRun(glyphs: n, units: u, kerning: kerning.count / 2, alone: alone.count / 3, multiAdvance: multiAdvance)
        let base = run.storage
        for k in 0..<(5 * n) { base[k] = glyphs[k] }
        for k in 0..<u { base[5 * n + k] = unitAdvances[k] }
        for k in kerning.indices { base[5 * n + u + k] = kerning[k] }
        for k in alone.indices { base[5 * n + u + kerning.count + k] = alone[k] }
        return run
    }
}

/// A bounded, thread-safe cache of shaped runs keyed by font, direction and text.
///
/// Two generations approximate LRU at O(1): lookups hit the young generation, then the old one
/// (copying the entry into the young one); when the young generation is full it becomes the old
/// one and the old one is dropped. At most `2 × capacity` runs are held.
public final class ShapeCache: Sendable {
    /// What a run is shaped from. Runs of up to 12 UTF-16 units without half-width positions
    /// (nearly every word) keep their text inline, so a lookup allocates nothing and compares
    /// four words; longer runs keep arrays.
    struct Key: Hashable {
        private var word0: UInt64 = 0, word1: UInt64 = 0, word2: UInt64 = 0
        /// Font id (bits 0–31), direction (bit 32), inline length (bits 40–47), language (48–63).
        private var meta: UInt64
        private var long: LongText?
        /// A cheap multiply-xor mix of the key, computed once: the dictionary hashes only this
        /// (SipHash over the whole key cost more than the rest of a lookup), and it picks the shard.
        let mixed: UInt64

        struct LongText: Hashable {
            var text: [UInt16]
            var halfWidth: [UInt16]
            /// The run with its shaping context, when it has one.
            var context: [UInt16] = []
        }

        init(font: Int32, rightToLeft: Bool, text: UnsafeBufferPointer<UInt16>, halfWidth: [UInt16], context: [UInt16] = [],
             language: UInt16 = 0) {
            meta = UInt64(UInt32(bitPattern: font)) | (rightToLeft ? 1 << 32 : 0) | UInt64(language) << 48
            if text.count <= 12 && halfWidth.isEmpty && context.isEmpty {
                meta |= UInt64(text.count) << 40
                for (i, unit) in text.enumerated() {
                    let shift = UInt64((i & 3) * 16)
                    switch i >> 2 {
                    case 0: word0 |= UInt64(unit) << shift
                    case 1: word1 |= UInt64(unit) << shift
                    default: word2 |= UInt64(unit) << shift
                    }
                }
            } else {
                long = LongText(text: Array(text), halfWidth: halfWidth, context: context)
            }
            var h = meta &* 0x9E37_79B9_7F4A_7C15
            if let long {
                for unit in long.text { h = (h ^ UInt64(unit)) &* 0x0000_0100_0000_01B3 }
                for unit in long.halfWidth { h = (h ^ UInt64(unit) ^ 0xFFFF) &* 0x0000_0100_0000_01B3 }
                for unit in long.context { h = (h ^ UInt64(unit) ^ 0x1_0000) &* 0x0000_0100_0000_01B3 }
            } else {
                h = (h ^ word0) &* 0xBF58_476D_1CE4_E5B9
                h = (h ^ (h >> 29) ^ word1) &* 0x94D0_49BB_1331_11EB
                h = (h ^ (h >> 32) ^ word2) &* 0x9E37_79B9_7F4A_7C15
            }
            mixed = h ^ (h >> 31)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(mixed) }

        static func == (a: Key, b: Key) -> Bool {
            a.mixed == b.mixed && a.meta == b.meta && a.word0 == b.word0 && a.word1 == b.word1 && a.word2 == b.word2 && a.long == b.long
        }

        var rightToLeft: Bool { meta & (1 << 32) != 0 }
    }

    private struct Generations {
        var young: [Key: ShapedRun] = [:]
        var old: [Key: ShapedRun] = [:]
        var hits = 0, misses = 0
    }

    /// One lock and two generations; keys are spread over several shards so that threads
    /// preparing texts in parallel rarely wait for each other.
    private final class Shard: Sendable {
        let generations = Mutex(Generations())
    }

    /// The process-wide cache used by ``PreparedText`` unless another is given.
    public static let shared = ShapeCache(capacity: 50_000)

    /// Runs per generation, over all shards.
    public let capacity: Int
    private let shards: [Shard]
    private let shardCapacity: Int
    /// Bumped by ``removeAll()``: each thread's word cache (WordCache.swift), which remembers
    /// what texts prepared through this cache looked like, empties itself when it changes.
    private let clearCount = Atomic<UInt64>(0)
    var generation: UInt64 { clearCount.load(ordering: .acquiring) }

    /// A cache holding at most about `2 × capacity` shaped runs (two generations).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        let count = capacity >= 1024 ? 16 : 1
        self.shards = (0..<count).map { _ in Shard() }
        self.shardCapacity = max(1, self.capacity / count)
    }

    @inline(__always) private func shard(_ key: Key) -> Shard {
        shards.count == 1 ? shards[0] : shards[Int((key.mixed >> 40) % UInt64(shards.count))]
    }

    func run(for key: Key) -> ShapedRun? {
        shard(key).generations.withLock { g in
            if let run = g.young[key] { g.hits += 1; return run }
            if let run = g.old[key] {
                // Copy (not move) into the young generation: the old one is dropped whole later.
                g.hits += 1
                insert(key, run, into: &g)
                return run
            }
            g.misses += 1
            return nil
        }
    }

    func store(_ run: ShapedRun, for key: Key) {
        shard(key).generations.withLock { insert(key, run, into: &$0) }
    }

    private func insert(_ key: Key, _ run: ShapedRun, into g: inout Generations) {
        if g.young.count >= shardCapacity {
            g.old = g.young
            g.young = [:]
            g.young.reserveCapacity(shardCapacity)
        }
        g.young[key] = run
    }

    /// Number of runs held and the hit/miss counts so far.
    public var statistics: (runs: Int, hits: Int, misses: Int) {
        var total = (runs: 0, hits: 0, misses: 0)
        for shard in shards {
            shard.generations.withLock { g in
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
        for shard in shards { shard.generations.withLock { $0 = Generations() } }
        clearCount.add(1, ordering: .releasing)
    }
}
