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

    @Test func entriesFoundInTheOldGenerationMoveToTheYoungOne() throws {
        var cache = WordCache()
        let h = Self.hash(slot: 77, tag: 0x142)
        let offset = Self.add("moved ", hash: h, to: &cache.young)
        #expect(offset == 0)
        cache.rotate()
        #expect(Self.find("moved ", hash: h, in: cache.young) == nil)
        let found = Array("moved ".utf16).withUnsafeBufferPointer {
            cache.find(h, context: 7, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        }
        #expect(found == 0 && cache.young.count == 1)
        #expect(Self.units(at: 0, in: cache.young) == Array("moved ".utf16))
        #expect(Self.find("moved ", hash: h, in: cache.young) == 0)
        let missing = Array("other ".utf16).withUnsafeBufferPointer {
            cache.find(h, context: 7, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        }
        #expect(missing == nil)
    }

    /// A record with segments, runs and stored extras comes out of the old generation byte for
    /// byte (but for its first run's index), after another record, and its shaped runs are
    /// moved, not shared: the old generation no longer holds them.
    @Test func movedRecordsKeepTheirDataAndTakeTheirRuns() throws {
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        let runs = try ["ab", "cd"].map { try ShapedRunTests.shape($0, buffer: buffer) }
        let font = try FontLibrary.shared.font(for: FontDescriptor(family: "DejaVu Sans"))
        var cache = WordCache()
        let h = Self.hash(slot: 21, tag: 0x0F0)
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
        _ = Self.add("young ", hash: Self.hash(slot: 5, tag: 2), to: &cache.young)
        let found = try #require(units.withUnsafeBufferPointer {
            cache.find(h, context: 7, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        })
        let moved = cache.young.entry(at: found)
        var after = Array(cache.young.data[found..<(found + Int(moved.words))])
        #expect(moved.runStart == 0 && stored.runStart == 0)
        #expect(after.count == before.count)
        after.withUnsafeMutableBytes { $0.storeBytes(of: stored.runStart, toByteOffset: MemoryLayout<WordCache.Entry>.offset(of: \.runStart)!, as: Int32.self) }
        #expect(after == before)
        #expect(cache.young.shapedRuns.count == 2 && cache.young.shapedRuns[0] === runs[0] && cache.young.shapedRuns[1] === runs[1])
        #expect(cache.old.shapedRuns.allSatisfy { $0 == nil })
        let extras = cache.young.data.withUnsafeBytes { raw in
            (0..<5).map { raw.load(fromByteOffset: 8 * found + WordCache.Layout(moved).extras + 4 * $0, as: Int32.self) }
        }
        #expect(extras == [2, -3, 1, 3, 40])
    }

    /// Finds `text` under `hash` through the whole cache (promoting it to the young generation).
    static func find(_ text: String, hash: UInt64, in cache: inout WordCache) -> Int? {
        Array(text.utf16).withUnsafeBufferPointer {
            cache.find(hash, context: 7, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        }
    }

    /// An entry lives through one rotation fewer than the cache keeps generations: with two,
    /// it is gone after the second; with four, it is found (and moved to the young generation)
    /// after the third, from the oldest one, and is then as young as a new entry.
    @Test func anEntryLivesAsManyRotationsAsTheCacheHasOlderGenerations() throws {
        let h = Self.hash(slot: 40, tag: 0x0AA)
        var two = WordCache(generations: 2)
        _ = Self.add("kept ", hash: h, to: &two.young)
        two.rotate()
        two.rotate()
        #expect(two.oldCount == 1 && Self.find("kept ", hash: h, in: &two) == nil, "two generations: dropped at the second rotation")

        var four = WordCache(generations: 4)
        _ = Self.add("kept ", hash: h, to: &four.young)
        for k in 0..<3 { _ = Self.add("filler\(k) ", hash: Self.hash(slot: 41, tag: UInt64(k)), to: &four.young); four.rotate() }
        #expect(four.oldCount == 3 && four.oldest.count == 2 && four.count == 4)
        let found = try #require(Self.find("kept ", hash: h, in: &four), "four generations: still held after three rotations")
        #expect(Self.units(at: found, in: four.young) == Array("kept ".utf16) && four.young.count == 1)
        four.rotate()
        // Moved: the oldest generation, now dropped, held it; it survives in `old`.
        #expect(four.oldCount == 3 && Self.find("kept ", hash: h, in: &four) != nil)
        #expect(Self.find("filler0 ", hash: Self.hash(slot: 41, tag: 0), in: &four) == nil, "the first filler was dropped")
        four.removeAll()
        #expect(four.generations == 4 && four.oldCount == 0 && four.count == 0)
    }

    /// An entry found in an older generation while the young one is full: the rotation that
    /// makes room shifts (or drops) the generation it is in, and the copy still takes it.
    @Test func anEntryFoundWhileTheYoungGenerationIsFullIsKept() throws {
        for generations in 2...4 {
            var cache = WordCache(generations: generations)
            cache.young = WordCache.Generation(capacity: 2)
            let h = Self.hash(slot: 1, tag: 0x033)
            _ = Self.add("deep ", hash: h, to: &cache.young)
            cache.rotate()
            // Generations made by `rotate` have the default capacity: fill this one by hand.
            cache.young = WordCache.Generation(capacity: 2)
            for k in 0..<(generations - 2) { _ = Self.add("x\(k) ", hash: Self.hash(slot: 2, tag: UInt64(k)), to: &cache.young); cache.rotate(); cache.young = WordCache.Generation(capacity: 2) }
            _ = Self.add("a ", hash: Self.hash(slot: 3, tag: 1), to: &cache.young)
            _ = Self.add("b ", hash: Self.hash(slot: 3, tag: 2), to: &cache.young)
            #expect(cache.young.isFull && cache.oldCount == generations - 1)
            let rotations = cache.rotations
            let found = try #require(Self.find("deep ", hash: h, in: &cache), "\(generations) generations")
            #expect(cache.rotations == rotations + 1 && cache.young.count == 1)
            #expect(Self.units(at: found, in: cache.young) == Array("deep ".utf16))
        }
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

    /// The doorkeeper has 2^14 slots, chosen by the hash's top 14 bits: two chunks whose hashes
    /// share them (differing in bit 49, which a 2^16-slot doorkeeper read) take one slot, so the
    /// second's miss makes the first's next miss a first one again; a chunk in another slot
    /// does not.
    @Test func theDoorkeepersSlotIsTheHashsTopFourteenBits() {
        #expect(WordCache.doorkeeperBits == 14)
        var cache = WordCache(generations: 2)
        cache.rotate()
        // y shares x's slot (another fingerprint: the low bits differ); z has another slot.
        let x: UInt64 = 0xABCD_0000_1111_2222, y = x ^ (1 << 49) ^ 0x10, z = x ^ (1 << 50)
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
