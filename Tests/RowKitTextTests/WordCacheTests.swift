import Testing
@testable import RowKitText

/// The word cache's table and records (Prepare/WordCache.swift): slots hold a record's offset
/// and a tag from the key's hash, so probes skip other keys without reading their records; a
/// lookup still compares the whole key. Keys are placed with chosen hashes to make slots and
/// tags collide.
@Suite struct WordCacheTests {
    /// Adds a record for `text` under `hash` (no segments or runs: the lookup reads only the key).
    static func add(_ text: String, hash: UInt64, context: Int32 = 7, to g: inout WordCache.Generation) -> Int {
        Array(text.utf16).withUnsafeBufferPointer { units in
            g.insert(units, hash: hash, context: context, in: .outsidePlan, levels: WordCache.Levels(),
                     flags: WordCache.Flag.everyUnitStartsGrapheme, segmentCount: 0, runs: 0, fill: { _, _ in }, shaped: { _ in fatalError() })
        }
    }

    static func find(_ text: String, hash: UInt64, context: Int32 = 7, in g: WordCache.Generation) -> Int? {
        Array(text.utf16).withUnsafeBufferPointer {
            g.find(hash, context: context, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        }
    }

    /// The units of the record at `offset`.
    static func units(at offset: Int, in g: WordCache.Generation) -> [UInt16] {
        let n = Int(g.entry(at: offset).length)
        return g.data.withUnsafeBytes { raw in
            (0..<n).map { raw.load(fromByteOffset: 8 * offset + WordCache.Layout.units + 2 * $0, as: UInt16.self) }
        }
    }

    /// The hash the chunked builder gives `text` (context 7, outside any plan, no bidi levels):
    /// records carried at a rotation are linked under it, recomputed from the record.
    static func keyHash(_ text: String, context: Int32 = 7) -> UInt64 {
        Array(text.utf16).withUnsafeBufferPointer {
            WordCache.hash(context: context, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        }
    }

    /// A hash choosing slot `slot` with tag `tag` (0..<512: the nine bits above the offset's,
    /// taken from bits 55… of the hash).
    static func hash(slot: UInt64, tag: UInt64) -> UInt64 { tag << 55 | slot }

    @Test func keysSharingASlotAreTellApartByTagAndKey() {
        var g = WordCache.Generation(capacity: 64)
        let a = Self.hash(slot: 5, tag: 0x12), b = Self.hash(slot: 5, tag: 0x56), c = Self.hash(slot: 5, tag: 0x9A)
        #expect(g.tag(a) != g.tag(b) && g.tag(b) != g.tag(c) && g.tag(a) != g.tag(c))
        let first = Self.add("alpha ", hash: a, to: &g), second = Self.add("beta ", hash: b, to: &g)
        #expect(Self.find("alpha ", hash: a, in: g) == first)
        #expect(Self.find("beta ", hash: b, in: g) == second)
        #expect(Self.find("gamma ", hash: c, in: g) == nil, "a third tag in the same chain")
        #expect(Self.find("alpha ", hash: b, in: g) == nil, "the right slot and tag but another key")
        // Same slot and same tag, different text: the tag is a filter, the key decides.
        let third = Self.add("delta ", hash: a, to: &g)
        #expect(Self.find("delta ", hash: a, in: g) == third)
        #expect(Self.find("alpha ", hash: a, in: g) == first)
        #expect(Self.find("alpha ", hash: a, context: 8, in: g) == nil)
        // Slots hold the tag above the offset, and the offset still fits below it.
        let mask = WordCache.Generation.offsetMask
        #expect(g.table.contains { $0 >= 0 && Int($0 & mask) == third && $0 & ~mask == g.tag(a) })
        #expect(g.count == 3 && g.entries.count == 3)
    }

    /// Keys under one hash that differ only in the first four units (kept in the header), in
    /// their length, or only after the fourth unit (compared in the record's units).
    @Test func keysDifferingAnywhereAreTellApart() {
        var g = WordCache.Generation(capacity: 64)
        let h = Self.hash(slot: 9, tag: 0x1AB)
        let texts = ["ab", "ab ", "abc ", "abd ", "abcde", "abcdf", "abcdefgh ", "abcdefgi "]
        let offsets = texts.map { Self.add($0, hash: h, to: &g) }
        for (text, offset) in zip(texts, offsets) {
            #expect(Self.find(text, hash: h, in: g) == offset, "\(text)")
            #expect(Self.units(at: offset, in: g) == Array(text.utf16))
        }
        #expect(Self.find("abe ", hash: h, in: g) == nil)
        #expect(Self.find("abcdg", hash: h, in: g) == nil)
        #expect(Self.find("a", hash: h, in: g) == nil)
    }

    @Test func aFullGenerationsRecordsKeepTheirTags() {
        var g = WordCache.Generation(capacity: 8)
        var offsets: [Int] = []
        for k in 0..<8 { offsets.append(Self.add("w\(k) ", hash: Self.hash(slot: UInt64(k % 3), tag: 0x1F8 | UInt64(k)), to: &g)) }
        #expect(g.isFull)
        for k in 0..<8 {
            #expect(Self.find("w\(k) ", hash: Self.hash(slot: UInt64(k % 3), tag: 0x1F8 | UInt64(k)), in: g) == offsets[k])
        }
    }

    /// A record at the largest offset a generation takes before it is full keeps its tag (the
    /// offset's bits stay below the tag's), and the generation is full after it.
    @Test func theLastOffsetBeforeTheLimitKeepsItsTag() {
        var g = WordCache.Generation(capacity: 8)
        g.data = [UInt64](repeating: 0, count: WordCache.Generation.dataLimit - 1)
        #expect(!g.isFull)
        let h = Self.hash(slot: 3, tag: 0x1FF)
        let offset = Self.add("last ", hash: h, to: &g)
        #expect(offset == WordCache.Generation.dataLimit - 1 && offset <= Int(WordCache.Generation.offsetMask))
        #expect(Self.find("last ", hash: h, in: g) == offset)
        #expect(Self.find("last ", hash: Self.hash(slot: 3, tag: 0x1FE), in: g) == nil)
        #expect(g.isFull)
    }

    /// An entry found in the old generation is read there (not copied to the young one) and
    /// flagged; at the next rotation, when the old generation is dropped, it is carried into the
    /// young one, and an entry of the same generation that was not found is dropped.
    @Test func entriesFoundInTheOldGenerationAreReadInPlaceAndCarriedWhenItIsDropped() throws {
        var cache = WordCache()
        let h = Self.keyHash("moved "), other = Self.keyHash("unused ")
        let offset = Self.add("moved ", hash: h, to: &cache.young)
        let unused = Self.add("unused ", hash: other, to: &cache.young)
        #expect(offset == 0 && unused > 0)
        cache.rotate()
        #expect(Self.find("moved ", hash: h, in: cache.young) == nil)
        let found = Self.find("moved ", hash: h, in: &cache)
        #expect(found == WordCache.Found(generation: 1, offset: 0), "read where it is")
        #expect(cache.young.count == 0 && cache.old.entry(at: 0).flags & WordCache.Flag.referenced != 0)
        #expect(cache.old.entry(at: unused).flags & WordCache.Flag.referenced == 0)
        #expect(cache.entry(found!).length == 6)
        #expect(Self.find("other ", hash: h, in: &cache) == nil)
        _ = Self.add("young ", hash: Self.keyHash("young "), to: &cache.young)
        cache.rotate()
        // The old generation was dropped: "moved " is carried into the new young one, "unused " is gone.
        #expect(cache.carried == 1 && cache.young.count == 1)
        #expect(Self.units(at: 0, in: cache.young) == Array("moved ".utf16))
        #expect(cache.young.entry(at: 0).flags & WordCache.Flag.referenced == 0, "carried with its flag cleared")
        #expect(Self.find("moved ", hash: h, in: &cache) == WordCache.Found(generation: 0, offset: 0))
        #expect(Self.find("unused ", hash: other, in: &cache) == nil)
        // "young " (never found) is in `old` now, found there.
        #expect(Self.find("young ", hash: Self.keyHash("young "), in: &cache)?.generation == 1)
    }

    /// A hit in the young generation flags the entry too: it is carried when its generation is
    /// dropped two rotations later, without being found in between; one never found is not.
    @Test func entriesFoundWhileYoungAreCarriedToo() throws {
        var cache = WordCache()
        let a = Self.keyHash("early "), b = Self.keyHash("never ")
        _ = Self.add("early ", hash: a, to: &cache.young)
        _ = Self.add("never ", hash: b, to: &cache.young)
        #expect(Self.find("early ", hash: a, in: &cache) == WordCache.Found(generation: 0, offset: 0))
        cache.rotate()
        cache.rotate()
        #expect(cache.carried == 1 && Self.find("early ", hash: a, in: &cache)?.generation == 0)
        #expect(Self.find("never ", hash: b, in: &cache) == nil)
    }

    /// A rotation carries flagged records, oldest first, until the young generation holds seven
    /// eighths of its entries: the rest are dropped, so the young one keeps room for new ones.
    @Test func aRotationCarriesAtMostSevenEighthsOfTheYoungGenerationsEntries() throws {
        var cache = WordCache()
        var dropped = WordCache.Generation(capacity: 32)
        var hashes: [UInt64] = []
        for k in 0..<20 {
            let h = Self.keyHash("w\(k) ")
            hashes.append(h)
            let offset = Self.add("w\(k) ", hash: h, to: &dropped)
            if k != 3 { dropped.markReferenced(offset) }
        }
        cache.young = WordCache.Generation(capacity: 16)
        cache.carry(from: &dropped)
        #expect(cache.young.count == 14 && cache.carried == 14, "7/8 of 16")
        for k in 0..<20 {
            let carried = Self.find("w\(k) ", hash: hashes[k], in: cache.young) != nil
            #expect(carried == (k != 3 && k <= 14), "w\(k)")
        }
    }

    /// A record with segments, runs and stored extras is carried out of a dropped generation
    /// byte for byte (but for its first run's index and its flag of being found), after another
    /// record, and its shaped runs are moved, not shared: the dropped generation no longer holds
    /// them.
    @Test func movedRecordsKeepTheirDataAndTakeTheirRuns() throws {
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        let runs = try ["ab", "cd"].map { try ShapedRunTests.shape($0, buffer: buffer) }
        let font = try FontLibrary.shared.font(for: FontDescriptor(family: "DejaVu Sans"))
        var cache = WordCache()
        let h = Self.keyHash("abcd ")
        _ = Self.add("first ", hash: Self.hash(slot: 2, tag: 1), to: &cache.young)
        let units = Array("abcd ".utf16)
        let offset = units.withUnsafeBufferPointer { chunk in
            cache.young.insert(chunk, hash: h, context: 7, in: .outsidePlan, levels: WordCache.Levels(), flags: WordCache.Flag.hasRunExtras,
                               segmentCount: 2, runs: 2, fill: { record, layout in
                for k in 0..<5 {
                    record.storeBytes(of: UInt8(k == 3 ? 0 : 1), toByteOffset: layout.starts + k, as: UInt8.self)
                    record.storeBytes(of: Int32(100 * k + 1), toByteOffset: layout.advances + 4 * k, as: Int32.self)
                }
                for k in 0..<2 {
                    record.storeBytes(of: WordCache.Segment(end: Int32(2 + 3 * k), contentEnd: Int32(2 + 2 * k), width: Int32(7 + k),
                                                            space: Int32(k), trim: 0, flags: UInt8(k)),
                                      toByteOffset: layout.segments + k * MemoryLayout<WordCache.Segment>.stride, as: WordCache.Segment.self)
                    record.storeBytes(of: WordCache.Run(start: Int32(2 * k), end: Int32(2 * k + 2), level: 0, font: .passUnretained(font)),
                                      toByteOffset: layout.runs + k * MemoryLayout<WordCache.Run>.stride, as: WordCache.Run.self)
                }
            }, shaped: { runs[$0] })
        }
        cache.young.storeExtras(offset, kerns: [12, -3], alone: [11, 13, 40], offset: 10)
        let stored = cache.young.entry(at: offset)
        #expect(stored.flags & WordCache.Flag.storedExtras != 0 && stored.kernValues == 2 && stored.aloneValues == 3)
        #expect(Int(stored.words) * 8 >= WordCache.Layout(stored).extras + 20 && offset + Int(stored.words) == cache.young.data.count)
        let before = Array(cache.young.data[offset..<(offset + Int(stored.words))])
        cache.rotate()
        #expect(units.withUnsafeBufferPointer {
            cache.find(h, context: 7, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        } == WordCache.Found(generation: 1, offset: offset))
        _ = Self.add("young ", hash: Self.hash(slot: 5, tag: 2), to: &cache.young)
        cache.rotate()
        let found = try #require(units.withUnsafeBufferPointer {
            cache.find(h, context: 7, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        })
        #expect(found.generation == 0 && found.offset == 0 && cache.young.count == 1 && cache.carried == 1)
        let moved = cache.young.entry(at: found.offset)
        var after = Array(cache.young.data[found.offset..<(found.offset + Int(moved.words))])
        #expect(moved.runStart == 0 && stored.runStart == 0)
        #expect(after.count == before.count)
        after.withUnsafeMutableBytes {
            $0.storeBytes(of: stored.runStart, toByteOffset: MemoryLayout<WordCache.Entry>.offset(of: \.runStart)!, as: Int32.self)
            // Found again after the carry: flagged, as the stored copy was not.
            $0.storeBytes(of: stored.flags, toByteOffset: MemoryLayout<WordCache.Entry>.offset(of: \.flags)!, as: UInt8.self)
        }
        #expect(moved.flags == stored.flags | WordCache.Flag.referenced)
        #expect(after == before)
        #expect(cache.young.shapedRuns.count == 2 && cache.young.shapedRuns[0] === runs[0] && cache.young.shapedRuns[1] === runs[1])
        let extras = cache.young.data.withUnsafeBytes { raw in
            (0..<5).map { raw.load(fromByteOffset: 8 * found.offset + WordCache.Layout(moved).extras + 4 * $0, as: Int32.self) }
        }
        #expect(extras == [2, -3, 1, 3, 40])
    }

    /// Finds `text` under `hash` through the whole cache (flagging it).
    static func find(_ text: String, hash: UInt64, in cache: inout WordCache) -> WordCache.Found? {
        Array(text.utf16).withUnsafeBufferPointer {
            cache.find(hash, context: 7, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        }
    }

    /// An entry never found lives through one rotation fewer than the cache keeps generations:
    /// with two, it is gone after the second; with four, it is found after the third, in the
    /// oldest generation, read there, and carried into the young one when that is dropped.
    @Test func anEntryLivesAsManyRotationsAsTheCacheHasOlderGenerations() throws {
        let h = Self.keyHash("kept ")
        var two = WordCache(generations: 2)
        _ = Self.add("kept ", hash: h, to: &two.young)
        two.rotate()
        two.rotate()
        #expect(two.oldCount == 1 && Self.find("kept ", hash: h, in: &two) == nil, "two generations: dropped at the second rotation")

        var four = WordCache(generations: 4)
        _ = Self.add("kept ", hash: h, to: &four.young)
        for k in 0..<3 { _ = Self.add("filler\(k) ", hash: Self.keyHash("filler\(k) "), to: &four.young); four.rotate() }
        #expect(four.oldCount == 3 && four.oldest.count == 2 && four.count == 4)
        let found = try #require(Self.find("kept ", hash: h, in: &four), "four generations: still held after three rotations")
        #expect(found.generation == 3 && four.young.count == 0)
        #expect(Self.units(at: found.offset, in: four.oldest) == Array("kept ".utf16))
        four.rotate()
        // Carried: the oldest generation, now dropped, held it; it is in the young one.
        #expect(four.oldCount == 3 && four.carried == 1 && Self.find("kept ", hash: h, in: &four)?.generation == 0)
        #expect(Self.find("filler0 ", hash: Self.keyHash("filler0 "), in: &four) == nil, "the first filler was dropped")
        four.removeAll()
        #expect(four.generations == 4 && four.oldCount == 0 && four.count == 0)
    }

    /// After a rotation the young generation's arrays are made once, for what the last one
    /// held and an eighth more (not grown by doubling); an empty one reserves nothing.
    @Test func aRotationMakesTheNextGenerationsArraysAtTheLastOnesSize() {
        var cache = WordCache()
        cache.rotate()
        #expect(cache.young.data.capacity == 0 && cache.young.shapedRuns.capacity == 0)
        for k in 0..<200 { _ = Self.add("word\(k) ", hash: Self.hash(slot: UInt64(k), tag: 5), to: &cache.young) }
        let used = cache.young.data.count
        cache.rotate()
        #expect(cache.young.data.capacity >= used + used / 8 && cache.young.data.capacity < used + used / 4)
        #expect(cache.young.data.isEmpty && cache.old.data.count == used)
    }

    /// The header is 48 bytes, and every part of the key it holds — bidi levels (mask, low,
    /// high), carried script, context, length — still tells keys apart.
    @Test func theNarrowHeaderKeepsEveryPartOfTheKey() {
        #expect(WordCache.Layout.header == 48 && MemoryLayout<WordCache.Entry>.size <= 48)
        var g = WordCache.Generation(capacity: 64)
        let h = Self.hash(slot: 12, tag: 0x077)
        let keys: [(WordCache.Levels, FontFallback.CarriedState)] = [
            (WordCache.Levels(), .outsidePlan),
            (WordCache.Levels(mask: 0, low: 1, high: 1), .outsidePlan),
            (WordCache.Levels(mask: 0b10, low: 0, high: 1), .outsidePlan),
            (WordCache.Levels(mask: 0b10, low: 0, high: 2), .outsidePlan),
            (WordCache.Levels(mask: 0b100, low: 0, high: 1), .outsidePlan),
            (WordCache.Levels(), FontFallback.CarriedState(script: 0, fallback: nil)),
            (WordCache.Levels(), FontFallback.CarriedState(script: 1, fallback: nil)),
        ]
        let units = Array("mixed ".utf16)
        let offsets = units.withUnsafeBufferPointer { chunk in
            keys.map { levels, state in
                g.insert(chunk, hash: h, context: 7, in: state, levels: levels, flags: 0, segmentCount: 0, runs: 0,
                         fill: { _, _ in }, shaped: { _ in fatalError() })
            }
        }
        units.withUnsafeBufferPointer { chunk in
            for (k, (levels, state)) in keys.enumerated() {
                #expect(g.find(h, context: 7, state: state, levels: levels, units: chunk) == offsets[k], "key \(k)")
                #expect(g.entry(at: offsets[k]).levels == levels && Int32(g.entry(at: offsets[k]).inScript) == state.script)
            }
            #expect(g.find(h, context: 8, state: .outsidePlan, levels: WordCache.Levels(), units: chunk) == nil)
            #expect(g.find(h, context: 7, state: .outsidePlan, levels: WordCache.Levels(mask: 0b1000, low: 0, high: 1), units: chunk) == nil)
        }
    }

    /// A generation is full at its entry limit, below its table's capacity (the default: three
    /// quarters of it), and every entry stays findable; the table is not made larger for it.
    @Test func aGenerationFillsAtItsEntriesNotItsTable() {
        let fresh = WordCache(generations: 2)
        #expect(fresh.young.capacity == WordCache.capacity && fresh.young.entryLimit == WordCache.entries)
        #expect(4 * WordCache.entries == 3 * WordCache.capacity && fresh.young.table.count == 2 * WordCache.capacity)
        var g = WordCache.Generation(capacity: 16, entries: 12)
        #expect(g.table.count == 32 && g.capacity == 16 && g.entryLimit == 12)
        var offsets: [Int] = []
        for k in 0..<12 {
            #expect(!g.isFull, "full after \(k) entries")
            offsets.append(Self.add("e\(k) ", hash: Self.hash(slot: UInt64(k % 5), tag: UInt64(k)), to: &g))
        }
        #expect(g.isFull && g.count == 12)
        for k in 0..<12 { #expect(Self.find("e\(k) ", hash: Self.hash(slot: UInt64(k % 5), tag: UInt64(k)), in: g) == offsets[k]) }
        // Without a limit a generation takes its whole capacity, as before.
        #expect(WordCache.Generation(capacity: 16).entryLimit == 16)
    }

    /// The doorkeeper has 2^16 slots, chosen by the hash's top 16 bits: two chunks whose hashes
    /// share them (differing in bit 47, which a 2^17-slot doorkeeper would read) take one slot,
    /// so the second's miss makes the first's next miss a first one again; a chunk in another
    /// slot (bit 48: the lowest bit a 2^16-slot doorkeeper reads) does not.
    @Test func theDoorkeepersSlotIsTheHashsTopSixteenBits() {
        #expect(WordCache.doorkeeperBits == 16)
        var cache = WordCache(generations: 2)
        cache.rotate()
        // y shares x's slot (another fingerprint: the low bits differ); z has another slot.
        let x: UInt64 = 0xABCD_0000_1111_2222, y = x ^ (1 << 47) ^ 0x10, z = x ^ (1 << 48)
        let first = cache.admits(x), other = cache.admits(y)
        #expect(!first && !other, "first misses")
        let again = cache.admits(x)
        #expect(!again, "y took x's slot: x's next miss is a first one again")
        let elsewhere = cache.admits(z), second = cache.admits(x)
        #expect(!elsewhere && second, "z's slot is another: x's second miss in a row is admitted")
        #expect(cache.byteCount - cache.young.byteCount - cache.old.byteCount == 4 << WordCache.doorkeeperBits)
    }

    /// The inline comparison of units agrees with element-wise equality for every length up to
    /// the longest cached chunk, with a difference at every position.
    @Test func unitComparisonFindsEveryDifference() {
        for count in 1...WordCache.maximumLength {
            let a = (0..<count).map { UInt16(0x61 + $0 % 26) }
            a.withUnsafeBufferPointer { x in
                var same = a
                same.withUnsafeBufferPointer { y in #expect(WordCache.equal(x.baseAddress!, y.baseAddress!, count: count)) }
                for k in 0..<count {
                    same = a
                    same[k] ^= 0x100
                    same.withUnsafeBufferPointer { y in
                        #expect(!WordCache.equal(x.baseAddress!, y.baseAddress!, count: count), "length \(count), unit \(k)")
                    }
                }
            }
        }
    }
}
