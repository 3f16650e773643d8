import Synchronization
// Software prefetch (a one-instruction C inline: Swift has none); results never depend on it.
import CPrefetch
/// How the chunks of earlier paragraphs were analysed — a chunk being a word and the white
/// space after it, whose edges are breaks whatever surrounds them — so that a chunk met again
/// in the same circumstances costs a hash lookup and a copy instead of break analysis, font
/// choice, shaping and scaling.
///
/// One per thread (``PrepareScratch``), so lookups take no lock; each entry's key and analysis
/// are one record in a flat buffer (no reference counting per word but for its shaped runs). A value type, handed around `inout` while a
/// paragraph is prepared, so that no access to it needs a dynamic exclusivity check. Keyed by the chunk's text and everything
/// its analysis depends on: the style context (font library, shape cache, primary font, size,
/// weight, slant), the font-fallback state carried in (``FontFallback/CarriedState``) and the
/// chunk's bidi levels. Bounded: two generations (``defaultGenerations``) of at most ``entries``
/// entries (and 32 UTF-16 units per ``capacity``) each; when the young one fills, it becomes the
/// old one and the old one is dropped. Entries found in the old generation are copied to the
/// young one (their shaped runs moved).
struct WordCache {
    /// Each generation's table: `2 × capacity` slots (65,536 × 2 × 4 B = 512 KB, the only part
    /// made up front). A generation is full at ``entries``, three quarters of this.
    ///
    /// What a preparing thread's word cache costs: with the English-like words of the list
    /// benchmark a record takes ~150 B (a 48-byte header, the units, grapheme bytes, advances,
    /// one segment and one run: 152 B for a seven-letter word and its space) and its shaped run
    /// a slot; both full generations and the doorkeeper came to ~22 MB of array capacity in the
    /// one-core million-row run (docs/DESIGN.md, "Issue 8, twenty-second round"; 32,768 entries:
    /// ~14 MB; the shaped runs themselves are shared with the shape cache and not counted). At
    /// most, by construction: two 512 KB tables, the 64 KB doorkeeper, and per generation
    /// records below 2²² 8-byte words (32 MB: what the slots' offset bits address, reached only
    /// by chunks far longer than words) plus one 8-byte slot per glyph run (a run takes 24 bytes
    /// of a record: at most a third of the records' bytes); a generation's arrays are made at
    /// 9/8 of what the previous one filled to and grow by doubling only past that.
    static let capacity = 65_536
    /// Entries per generation: 49,152 (docs/DESIGN.md, "Issue 8, twenty-second round": against
    /// 32,768, 20% fewer misses in the million-row list for ~+30 B per row with two preparing
    /// threads; 65,536 cut misses by 32% but came to 973 B per row with three preparing threads,
    /// over the list's 960 B budget).
    static let entries = 49_152
    /// Benchmarks only: the entries of generations made from now on, when not 0 (any number;
    /// the table then has the power of two at or above twice as many slots), to compare sizes
    /// (`ROWKIT_WORD_CACHE_CAPACITY` in rowkit-bench).
    package static let capacityOverride = Atomic<Int>(0)
    /// Generations a cache keeps, the young one included. More, smaller generations (so a
    /// rotation drops a quarter, not half) were measured and held fewer hits: an entry found in
    /// any older generation is copied to the young one, so the words in use fill each young
    /// generation again with copies (docs/DESIGN.md, "Issue 8, twenty-second round").
    static let defaultGenerations = 2
    /// Benchmarks only: the generations of caches made from now on, when not 0 (2…4;
    /// `ROWKIT_WORD_CACHE_GENERATIONS` in rowkit-bench).
    package static let generationsOverride = Atomic<Int>(0)
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
    /// font library its context holds; the shaped glyphs by the generation's `shapedRuns`.
    struct Run {
        var start: Int32, end: Int32
        var level: UInt8
        var font: Unmanaged<Font>
    }

    /// A chunk's key and the counts of its analysis: the header of its record (``Layout``), 48
    /// bytes (the bidi levels are kept flat and the carried script in a byte, so that the
    /// one-byte fields fill what ``Levels``' padding took: 56 bytes before).
    struct Entry {
        /// The chunk's first four units (0 past its end), compared from the header: a chunk of
        /// up to four units needs no read of its units (the key's hash is not kept: the table's
        /// tag and the whole key's comparison decide).
        var head: UInt64
        var inFont: Unmanaged<Font>?
        /// The chunk's bidi levels (``Levels``, kept flat): the units in the mask are at
        /// `levelHigh`, the others at `levelLow`.
        var levelMask: UInt64
        var context: Int32
        /// The chunk's first run in the generation's `shapedRuns`.
        var runStart: Int32
        /// The chunk's units, segments and glyph runs (at most ``maximumLength`` each).
        var length: UInt8, segmentCount: UInt8, runCount: UInt8
        var flags: UInt8
        /// Where in the chunk a font-fallback plan starts (−1: none starts in it); a hit makes
        /// that plan again, so the chunks after it meet the state they would have met.
        var planStart: Int8 = -1
        var levelLow: UInt8, levelHigh: UInt8
        /// The carried state's script (``FontFallback/CarriedState/script``: −1, 0 or 1).
        var inScript: Int8
        /// Int32 values of kerning growths (pairs) and cluster rests (triples) in the record's
        /// extras (with ``Flag/storedExtras``).
        var kernValues: UInt16 = 0, aloneValues: UInt16 = 0
        /// The record's length in 8-byte words (header, data and stored extras).
        var words: UInt16 = 0

        init(head: UInt64, inFont: Unmanaged<Font>?, levels: Levels, context: Int32, inScript: Int32, runStart: Int32,
             length: UInt8, segmentCount: UInt8, runCount: UInt8, flags: UInt8, words: UInt16) {
            precondition(inScript >= -1 && inScript <= 1, "a carried script the header's byte does not hold")
            self.head = head
            self.inFont = inFont
            levelMask = levels.mask
            levelLow = levels.low
            levelHigh = levels.high
            self.context = context
            self.inScript = Int8(inScript)
            self.runStart = runStart
            self.length = length
            self.segmentCount = segmentCount
            self.runCount = runCount
            self.flags = flags
            self.words = words
        }

        /// The chunk's bidi levels.
        var levels: Levels { Levels(mask: levelMask, low: levelLow, high: levelHigh) }
    }

    /// Where the parts of a chunk's record lie, in bytes from its start: the header
    /// (``Entry``), the units, their grapheme-start bytes (bit 0: starts a grapheme, bit 1:
    /// the chunk starts with an extender, bit 2: inside a HarfBuzz cluster), their advances,
    /// the segments, the runs, then the stored run extras. One record is one stretch of
    /// memory: a lookup and a hit read a few neighbouring cache lines, and moving an entry to
    /// the young generation is one copy.
    struct Layout {
        static let header = (MemoryLayout<Entry>.size + 7) & ~7
        static let units = header
        let starts: Int, advances: Int, segments: Int, runs: Int, extras: Int

        @inline(__always)
        init(length n: Int, segments s: Int, runs r: Int) {
            starts = Layout.units + 2 * n
            advances = (starts + n + 3) & ~3
            segments = advances + 4 * n
            runs = (segments + s * MemoryLayout<Segment>.stride + 7) & ~7
            extras = runs + r * MemoryLayout<Run>.stride
        }

        @inline(__always)
        init(_ e: Entry) { self.init(length: Int(e.length), segments: Int(e.segmentCount), runs: Int(e.runCount)) }
    }

    /// Entry flags.
    enum Flag {
        /// The first or last glyph run's font kerns across spaces: the paragraph's runs may
        /// join this chunk to its neighbour, so chunk-by-chunk analysis does not apply.
        static let joinsNeighbours: UInt8 = 1
        /// The chunk's runs carry kerning growths or cluster rests shaped alone (``RunExtras``).
        static let hasRunExtras: UInt8 = 2
        /// Some unit of the chunk is inside a HarfBuzz cluster (its grapheme-start byte has bit 2).
        static let hasClusterInner: UInt8 = 4
        /// The run extras, as the chunk's first use computed them (``RunExtras/collect``), are
        /// kept at the end of the record with units relative to the chunk, so a hit copies
        /// them instead of collecting them again (they depend only on the entry's runs, style
        /// and grapheme starts, all part of the entry).
        static let storedExtras: UInt8 = 8
        /// Every unit of the chunk starts a grapheme cluster (nearly every word of alphabetic
        /// text): a hit sets the chunk's grapheme bits a 64-bit word at a time.
        static let everyUnitStartsGrapheme: UInt8 = 16
        /// The chunk starts with a grapheme extender (its first grapheme-start byte has bit 1):
        /// kept in the header too, so that a hit after a space need not read those bytes.
        static let startsWithExtender: UInt8 = 32
    }

    /// One generation: an open-addressing table over records, and the records, one after
    /// another in `data`.
    struct Generation {
        /// Slots: −1 when empty, else a record's offset in `data` in 8-byte words (the low
        /// ``offsetBits``) and its key's tag (the bits above, ``tag(_:)``).
        var table: [Int32]
        var mask: Int
        /// The records (``Layout``), each starting on an 8-byte word.
        var data: [UInt64] = []
        /// The runs' shaped glyphs, by the headers' `runStart`; nil once moved to the young
        /// generation by ``copy(_:from:hash:)`` (such a record is never read here again: the
        /// young one is found first, and this generation is dropped at the next rotation).
        var shapedRuns: [ShapedRun?] = []
        /// Records held, and their units.
        private(set) var count = 0, unitCount = 0

        /// UTF-16 units of chunk text the generation takes (32 per table capacity: ~43 per entry
        /// on average with the default ``WordCache/entries``).
        let unitCapacity: Int

        /// Bits of a slot holding the record's offset (in words: 32 MB of records), and the
        /// mask of them; the 9 bits above hold the tag.
        static let offsetBits = 22
        static let offsetMask = Int32(1 << offsetBits) - 1
        /// Words of records after which the generation is full (room below 2²² for the
        /// largest record, ~5 KB).
        static let dataLimit = (1 << offsetBits) - 2048

        /// A generation whose table has `2 × capacity` slots (a power of two) and which is full
        /// at `entries` entries (at most `capacity`; all of it unless given).
        init(capacity: Int, entries: Int? = nil) {
            precondition(capacity > 0 && capacity & (capacity - 1) == 0, "a word-cache table's capacity is a power of two")
            table = [Int32](repeating: -1, count: 2 * capacity)
            mask = table.count - 1
            entryLimit = min(capacity, entries ?? capacity)
            unitCapacity = 32 * capacity
        }

        /// Half the table's slots.
        var capacity: Int { table.count / 2 }

        /// Entries after which the generation is full (the table's load then at most 3/8 with
        /// the default ``WordCache/entries``, 1/2 at most).
        let entryLimit: Int

        /// Heap bytes of the generation's arrays (by capacity; the shaped runs it references are
        /// shared with the shape cache and not counted).
        var byteCount: Int { table.capacity * 4 + data.capacity * 8 + shapedRuns.capacity * 8 }

        var isFull: Bool { count >= entryLimit || unitCount >= unitCapacity || data.count >= Generation.dataLimit }

        /// The slot a key's probe starts at.
        @inline(__always)
        func firstSlot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash) & mask }

        /// The tag a key's slots hold above the record offset: hash bits that do not choose the
        /// slot (so a probe passes other keys' slots, and a lookup misses, without reading a
        /// record: each read was a cache miss).
        @inline(__always)
        func tag(_ hash: UInt64) -> Int32 { Int32(truncatingIfNeeded: hash >> 33) & ~Generation.offsetMask }

        /// The header of the record at `offset`.
        @inline(__always)
        func entry(at offset: Int) -> Entry {
            data.withUnsafeBytes { $0.load(fromByteOffset: 8 * offset, as: Entry.self) }
        }

        /// Every record's header, in order (for tests).
        var entries: [Entry] {
            var result: [Entry] = []
            var offset = 0
            while offset < data.count {
                let e = entry(at: offset)
                result.append(e)
                offset += Int(e.words)
            }
            return result
        }

        /// The record of the entry matching the key (its offset), or nil; the probe starts at
        /// `slot`, whose value (`first`, read by the caller) is passed along.
        @inline(__always)
        func find(_ hash: UInt64, context: Int32, state: FontFallback.CarriedState, levels: Levels,
                  units chunk: UnsafeBufferPointer<UInt16>, at slot: Int, holding first: Int32) -> Int? {
            let tag = tag(hash)
            var slot = slot, value = first
            while value >= 0 {
                if value & ~Generation.offsetMask == tag {
                    let offset = Int(value & Generation.offsetMask)
                    if matches(offset, context: context, state: state, levels: levels, units: chunk) { return offset }
                }
                slot = (slot + 1) & mask
                value = table[slot]
            }
            return nil
        }

        /// The record of the entry matching the key (its offset), or nil.
        @inline(__always)
        func find(_ hash: UInt64, context: Int32, state: FontFallback.CarriedState, levels: Levels,
                  units chunk: UnsafeBufferPointer<UInt16>) -> Int? {
            let slot = firstSlot(hash)
            return find(hash, context: context, state: state, levels: levels, units: chunk, at: slot, holding: table[slot])
        }

        /// Asks for the cache line of the slot where a lookup of `hash` starts.
        @inline(__always)
        func prefetchSlot(_ hash: UInt64) {
            let slot = firstSlot(hash)
            table.withUnsafeBufferPointer { WordCache.prefetch($0.baseAddress! + slot) }
        }

        /// Asks for the first cache lines of the record named by `hash`'s first slot, when it
        /// holds the tag (the header, units and advances of most words).
        @inline(__always)
        func prefetchEntry(_ hash: UInt64) {
            let value = table[firstSlot(hash)]
            guard value >= 0 && value & ~Generation.offsetMask == tag(hash) else { return }
            let offset = Int(value & Generation.offsetMask)
            data.withUnsafeBufferPointer {
                guard offset < $0.count else { return }
                let record = UnsafeRawPointer($0.baseAddress! + offset)
                WordCache.prefetch(record)
                WordCache.prefetch(record + 64)
                WordCache.prefetch(record + 128)
            }
        }

        /// Whether the record at `offset` has the key.
        @inline(__always)
        func matches(_ offset: Int, context: Int32, state: FontFallback.CarriedState, levels: Levels,
                     units chunk: UnsafeBufferPointer<UInt16>) -> Bool {
            data.withUnsafeBytes { raw in
                let record = raw.baseAddress! + 8 * offset
                let e = record.load(as: Entry.self)
                let n = chunk.count
                return e.head == WordCache.head(chunk) && e.context == context && Int(e.length) == n && Int32(e.inScript) == state.script
                    && e.inFont?.toOpaque() == state.fallback.map({ Unmanaged.passUnretained($0).toOpaque() })
                    && e.levelMask == levels.mask && e.levelLow == levels.low && e.levelHigh == levels.high
                    && (n <= 4 || WordCache.equal(record + (Layout.units + 8), UnsafeRawPointer(chunk.baseAddress! + 4), bytes: 2 * (n - 4)))
            }
        }

        /// Appends a record for `chunk` (its key's hash `hash`) with `segmentCount` segments and
        /// `runs` (their shaped glyphs), whose data `fill` writes (the units and header are
        /// written here), and links it; returns its offset.
        @inline(__always)
        mutating func insert(_ chunk: UnsafeBufferPointer<UInt16>, hash: UInt64, context: Int32, in state: FontFallback.CarriedState,
                             levels: Levels, flags: UInt8, segmentCount: Int, runs: Int,
                             fill: (UnsafeMutableRawPointer, Layout) -> Void, shaped: (Int) -> ShapedRun) -> Int {
            let n = chunk.count
            let layout = Layout(length: n, segments: segmentCount, runs: runs)
            let words = (layout.extras + 7) / 8
            let offset = data.count
            data.append(contentsOf: repeatElement(0, count: words))
            let runStart = Int32(shapedRuns.count)
            data.withUnsafeMutableBytes { raw in
                let record = raw.baseAddress! + 8 * offset
                record.storeBytes(of: Entry(head: WordCache.head(chunk), inFont: state.fallback.map { .passUnretained($0) },
                                            levels: levels, context: context, inScript: state.script, runStart: runStart,
                                            length: UInt8(n), segmentCount: UInt8(segmentCount), runCount: UInt8(runs), flags: flags,
                                            words: UInt16(words)), as: Entry.self)
                if n > 0 { (record + Layout.units).copyMemory(from: chunk.baseAddress!, byteCount: 2 * n) }
                fill(record, layout)
            }
            for k in 0..<runs { shapedRuns.append(shaped(k)) }
            count += 1
            unitCount += n
            link(offset, hash: hash)
            return offset
        }

        /// Sets the record's plan start (``Entry/planStart``).
        mutating func setPlanStart(_ offset: Int, _ start: Int8) {
            data.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: start, toByteOffset: 8 * offset + MemoryLayout<Entry>.offset(of: \.planStart)!, as: Int8.self)
            }
        }

        /// Keeps the run extras of the record at `offset` (the last one), as collected for the
        /// chunk placed at unit `at` (absolute units in `kerns` pairs and `alone` triples),
        /// relative to the chunk, at the record's end.
        mutating func storeExtras(_ offset: Int, kerns: ArraySlice<Int32>, alone: ArraySlice<Int32>, offset at: Int32) {
            var e = entry(at: offset)
            guard kerns.count <= Int(UInt16.max), alone.count <= Int(UInt16.max), offset + Int(e.words) == data.count else { return }
            let layout = Layout(e)
            let values = kerns.count + alone.count
            let words = (layout.extras + 4 * values + 7) / 8
            guard words <= Int(UInt16.max) else { return }
            if words > Int(e.words) { data.append(contentsOf: repeatElement(0, count: words - Int(e.words))) }
            e.kernValues = UInt16(kerns.count)
            e.aloneValues = UInt16(alone.count)
            e.flags |= Flag.storedExtras
            e.words = UInt16(words)
            data.withUnsafeMutableBytes { raw in
                let record = raw.baseAddress! + 8 * offset
                record.storeBytes(of: e, as: Entry.self)
                var x = record + layout.extras
                func put(_ value: Int32) {
                    x.storeBytes(of: value, as: Int32.self)
                    x += 4
                }
                var k = kerns.startIndex
                while k < kerns.endIndex {
                    put(kerns[k] &- at)
                    put(kerns[k + 1])
                    k += 2
                }
                k = alone.startIndex
                while k < alone.endIndex {
                    put(alone[k] &- at)
                    put(alone[k + 1] &- at)
                    put(alone[k + 2])
                    k += 3
                }
            }
        }

        /// Links the record at `offset` (just appended, its key's hash `hash`) into the table.
        mutating func link(_ offset: Int, hash: UInt64) {
            var slot = firstSlot(hash)
            while table[slot] >= 0 { slot = (slot + 1) & mask }
            table[slot] = tag(hash) | Int32(offset)
        }

        /// Appends a copy of the record at `offset` in `other` (its key's hash `hash`) and
        /// returns its offset here: one copy of the record, whose shaped runs are moved, not
        /// copied (retaining each — a cache miss on the run's header, long untouched — and
        /// releasing it when `other` is dropped were ~2% of a long list's cold pass).
        mutating func copy(_ offset: Int, from other: inout Generation, hash: UInt64) -> Int {
            var e = other.entry(at: offset)
            let here = data.count
            other.data.withUnsafeBufferPointer { data.append(contentsOf: UnsafeBufferPointer(rebasing: $0[offset..<(offset + Int(e.words))])) }
            let r = Int(e.runStart)
            e.runStart = Int32(shapedRuns.count)
            for k in r..<(r + Int(e.runCount)) { shapedRuns.append(other.shapedRuns[k].take()) }
            data.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: e.runStart, toByteOffset: 8 * here + MemoryLayout<Entry>.offset(of: \.runStart)!, as: Int32.self)
            }
            count += 1
            unitCount += Int(e.length)
            link(here, hash: hash)
            return here
        }
    }

    var young = WordCache.newGeneration()
    /// The older generations, newest first: `old` (the previous young one), then `older` and
    /// `oldest` when the cache keeps more than two (``generations``). Empty tables until
    /// rotations fill them (`oldCount`). Not optionals, nor an array: reading an optional's
    /// payload copied the whole generation (a retain and release of each of its arrays) for
    /// every chunk the young one lacked.
    private(set) var old = Generation(capacity: 1)
    private(set) var older = Generation(capacity: 1)
    private(set) var oldest = Generation(capacity: 1)
    /// How many of `old`, `older`, `oldest` hold a generation (at most ``generations`` − 1).
    private(set) var oldCount = 0
    /// Generations kept, the young one included (2…4).
    let generations: Int
    var hasOld: Bool { oldCount > 0 }
    /// Fingerprints of chunks missed once while the cache is under pressure (``admits(_:)``),
    /// direct-mapped by hash (``doorkeeperBits``: 64 KB, made at the first rotation).
    private var seenOnce: [UInt32] = []
    /// The doorkeeper has 2^14 slots. A chunk is admitted if missed again before another missed
    /// chunk takes its slot: fewer slots admit fewer chunks met once, and the million-row list
    /// missed least at 2^13–2^14 (docs/DESIGN.md, "Issue 8, twenty-second round": 2^16, the
    /// sixth round's size, missed 2.5% more and rotated 40 times instead of 26; 2^18 6.6% more).
    static let doorkeeperBits = 14
    /// Lookups that found their chunk, and chunks analysed (since the thread started).
    var hits = 0, misses = 0
    /// Times the young generation filled and replaced the old one (since the thread started).
    var rotations = 0

    /// An empty cache keeping `generations` (2…4) generations.
    init(generations: Int = WordCache.generationCount) {
        precondition((2...4).contains(generations), "a word cache keeps 2, 3 or 4 generations")
        self.generations = generations
    }

    init(young: Generation) {
        self.init()
        self.young = young
    }

    /// A tiny cache, holding the place of the thread's real one while that one is in use.
    static var empty: WordCache { WordCache(young: Generation(capacity: 8)) }

    /// A new generation: ``capacity`` and ``entries`` unless a benchmark overrides the entries
    /// (then its table has the power of two at or above twice that many slots).
    static func newGeneration() -> Generation {
        let override = capacityOverride.load(ordering: .relaxed)
        guard override > 0 else { return Generation(capacity: capacity, entries: entries) }
        var table = 1
        while table < override { table *= 2 }
        return Generation(capacity: table, entries: override)
    }

    /// The generations a new cache keeps (``defaultGenerations`` unless a benchmark overrides it).
    static var generationCount: Int {
        let override = generationsOverride.load(ordering: .relaxed)
        return override > 0 ? override : defaultGenerations
    }

    /// Drops everything.
    mutating func removeAll() {
        let (hits, misses, rotations) = (self.hits, self.misses, self.rotations)
        self = WordCache(generations: generations)
        (self.hits, self.misses, self.rotations) = (hits, misses, rotations)
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
        if seenOnce.isEmpty { seenOnce = [UInt32](repeating: 0, count: 1 << WordCache.doorkeeperBits) }
        let slot = Int(truncatingIfNeeded: hash >> UInt64(64 - WordCache.doorkeeperBits))
        let fingerprint = UInt32(truncatingIfNeeded: hash) | 1
        if seenOnce[slot] == fingerprint { return true }
        seenOnce[slot] = fingerprint
        return false
    }

    /// Asks for the cache line of the doorkeeper's slot for `hash` (a hint: the slot is read by
    /// ``admits(_:)`` after the missed chunk's analysis, long enough for the line to arrive;
    /// that read was a cache miss in the array for every missed chunk).
    @inline(__always)
    func prefetchAdmission(_ hash: UInt64) {
        guard hasOld else { return }
        seenOnce.withUnsafeBufferPointer { slots in
            guard let base = slots.baseAddress else { return }
            WordCache.prefetch(base + Int(truncatingIfNeeded: hash >> UInt64(64 - WordCache.doorkeeperBits)))
        }
    }

    /// Entries held, over every generation.
    var count: Int {
        young.count + (oldCount > 0 ? old.count : 0) + (oldCount > 1 ? older.count : 0) + (oldCount > 2 ? oldest.count : 0)
    }

    /// Heap bytes held, over every generation (``Generation/byteCount``) and the doorkeeper.
    var byteCount: Int {
        young.byteCount + (oldCount > 0 ? old.byteCount : 0) + (oldCount > 1 ? older.byteCount : 0)
            + (oldCount > 2 ? oldest.byteCount : 0) + 4 * seenOnce.count
    }

    /// The entry for the key (promoted to the young generation if found in an older one).
    @inline(__always)
    mutating func find(_ hash: UInt64, context: Int32, state: FontFallback.CarriedState, levels: Levels,
                       units: UnsafeBufferPointer<UInt16>) -> Int? {
        if let index = young.find(hash, context: context, state: state, levels: levels, units: units) { return index }
        guard oldCount > 0 else { return nil }
        if let index = old.find(hash, context: context, state: state, levels: levels, units: units) {
            return promote(index, from: 1, hash: hash)
        }
        guard oldCount > 1 else { return nil }
        if let index = older.find(hash, context: context, state: state, levels: levels, units: units) {
            return promote(index, from: 2, hash: hash)
        }
        guard oldCount > 2, let index = oldest.find(hash, context: context, state: state, levels: levels, units: units) else { return nil }
        return promote(index, from: 3, hash: hash)
    }

    /// Copies the record at `index` in older generation `k` (1: `old`) to the young one and
    /// returns its offset there.
    mutating func promote(_ index: Int, from k: Int, hash: UInt64) -> Int {
        if young.isFull {
            // Rare: the rotation shifts or drops the generation the entry is in, so keep it for the copy.
            var previous = k == 1 ? old : k == 2 ? older : oldest
            rotate()
            return young.copy(index, from: &previous, hash: hash)
        }
        switch k {
        case 1: return young.copy(index, from: &old, hash: hash)
        case 2: return young.copy(index, from: &older, hash: hash)
        default: return young.copy(index, from: &oldest, hash: hash)
        }
    }

    /// Asks the CPU for the cache line holding `address`.
    @inline(__always)
    static func prefetch(_ address: UnsafeRawPointer) { rowkit_prefetch(address) }

    /// Asks for the cache lines of the slots where a lookup of `hash` starts, in both
    /// generations (a hint: results do not depend on it).
    @inline(__always)
    func prefetchSlots(_ hash: UInt64) {
        young.prefetchSlot(hash)
        old.prefetchSlot(hash)
        if oldCount > 1 {
            older.prefetchSlot(hash)
            if oldCount > 2 { oldest.prefetchSlot(hash) }
        }
    }

    /// Asks for the cache lines of the entry a lookup of `hash` would compare first, in both
    /// generations, when its first slot holds the key's tag (its slots asked for before).
    @inline(__always)
    func prefetchEntry(_ hash: UInt64) {
        young.prefetchEntry(hash)
        old.prefetchEntry(hash)
        if oldCount > 1 {
            older.prefetchEntry(hash)
            if oldCount > 2 { oldest.prefetchEntry(hash) }
        }
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

    /// Whether `count` UTF-16 units at `a` and at `b` are equal.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>, count: Int) -> Bool {
        equal(UnsafeRawPointer(a), UnsafeRawPointer(b), bytes: 2 * count)
    }

    /// Whether `bytes` (even) bytes at `x` and at `y` are equal (inline: chunks are short, and
    /// a call to `memcmp` cost more than the comparison).
    @inline(__always)
    static func equal(_ x: UnsafeRawPointer, _ y: UnsafeRawPointer, bytes: Int) -> Bool {
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

    /// The young generation becomes the old one, each older one moves one place down, and the
    /// oldest of ``generations`` is dropped.
    mutating func rotate() {
        rotations += 1
        if generations > 3 { oldest = older }
        if generations > 2 { older = old }
        let words = young.data.count, runs = young.shapedRuns.count
        old = young
        oldCount = min(oldCount + 1, generations - 1)
        young = WordCache.newGeneration()
        // The new generation's arrays are made once, at what the last one filled to and an
        // eighth more (the next fills much as it did): grown by doubling, each generation
        // copied its records ~8 times, and the buffers it left were heap the process kept.
        if words > 0 && young.entryLimit == old.entryLimit {
            young.data.reserveCapacity(min(words + words / 8, Generation.dataLimit + 1024))
            young.shapedRuns.reserveCapacity(runs + runs / 8)
        }
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
