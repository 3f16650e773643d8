import Testing
@testable import RowKitText

/// The word cache's table (Prepare/WordCache.swift): slots hold an entry index and a tag from the
/// key's hash, so probes skip other keys without reading their entries; a lookup still compares
/// the whole key. Keys are placed with chosen hashes to make slots and tags collide.
@Suite struct WordCacheTests {
    /// Adds an entry for `text` under `hash` (no segments or runs: the lookup reads only the key).
    static func add(_ text: String, hash: UInt64, context: Int32 = 7, to g: inout WordCache.Generation) -> Int {
        let units = Array(text.utf16)
        let head = units.withUnsafeBufferPointer { WordCache.head($0) }
        g.entries.append(WordCache.Entry(head: head, inFont: nil, levels: WordCache.Levels(), context: context, inScript: -1,
                                         unitStart: Int32(g.units.count), length: Int32(units.count),
                                         segmentStart: 0, segmentCount: 0, runStart: 0, runCount: 0, flags: 0))
        g.units.append(contentsOf: units)
        g.advances.append(contentsOf: repeatElement(0, count: units.count))
        g.graphemeStarts.append(contentsOf: repeatElement(1, count: units.count))
        g.link(g.entries.count - 1, hash: hash)
        return g.entries.count - 1
    }

    static func find(_ text: String, hash: UInt64, context: Int32 = 7, in g: WordCache.Generation) -> Int? {
        Array(text.utf16).withUnsafeBufferPointer {
            g.find(hash, context: context, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        }
    }

    /// A hash choosing slot `slot` with tag bits `tag` (above bit 33).
    static func hash(slot: UInt64, tag: UInt64) -> UInt64 { tag << 33 | slot }

    @Test func keysSharingASlotAreTellApartByTagAndKey() {
        var g = WordCache.Generation(capacity: 64)
        let a = Self.hash(slot: 5, tag: 0x1234), b = Self.hash(slot: 5, tag: 0x5678), c = Self.hash(slot: 5, tag: 0x9ABC)
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
        // Slots hold the tag above the index, and the index still fits below it.
        #expect(g.table.contains { $0 >= 0 && Int($0 & g.indexMask) == third && $0 & ~g.indexMask == g.tag(a) })
    }

    /// Keys under one hash that differ only in the first four units (kept in the entry), in
    /// their length, or only after the fourth unit (compared in `units`).
    @Test func keysDifferingAnywhereAreTellApart() {
        var g = WordCache.Generation(capacity: 64)
        let h = Self.hash(slot: 9, tag: 0x2468)
        let texts = ["ab", "ab ", "abc ", "abd ", "abcde", "abcdf", "abcdefgh ", "abcdefgi "]
        let indices = texts.map { Self.add($0, hash: h, to: &g) }
        for (text, index) in zip(texts, indices) { #expect(Self.find(text, hash: h, in: g) == index, "\(text)") }
        #expect(Self.find("abe ", hash: h, in: g) == nil)
        #expect(Self.find("abcdg", hash: h, in: g) == nil)
        #expect(Self.find("a", hash: h, in: g) == nil)
    }

    @Test func aFullGenerationsLastIndexKeepsItsTag() {
        var g = WordCache.Generation(capacity: 8)
        var indices: [Int] = []
        for k in 0..<8 { indices.append(Self.add("w\(k) ", hash: Self.hash(slot: UInt64(k % 3), tag: 0x7FFF_0000 | UInt64(k)), to: &g)) }
        #expect(g.isFull)
        for k in 0..<8 {
            #expect(Self.find("w\(k) ", hash: Self.hash(slot: UInt64(k % 3), tag: 0x7FFF_0000 | UInt64(k)), in: g) == indices[k])
        }
    }

    @Test func entriesFoundInTheOldGenerationMoveToTheYoungOne() {
        var cache = WordCache()
        let h = Self.hash(slot: 77, tag: 0x4242)
        let index = Self.add("moved ", hash: h, to: &cache.young)
        #expect(index == 0)
        cache.rotate()
        #expect(Self.find("moved ", hash: h, in: cache.young) == nil)
        let found = Array("moved ".utf16).withUnsafeBufferPointer {
            cache.find(h, context: 7, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        }
        #expect(found == 0 && cache.young.entries.count == 1)
        #expect(Array(cache.young.units) == Array("moved ".utf16))
        #expect(Self.find("moved ", hash: h, in: cache.young) == 0)
        let missing = Array("other ".utf16).withUnsafeBufferPointer {
            cache.find(h, context: 7, state: .outsidePlan, levels: WordCache.Levels(), units: $0)
        }
        #expect(missing == nil)
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
