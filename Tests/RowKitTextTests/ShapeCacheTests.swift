import Testing
@testable import RowKitText

/// `ShapeCache`'s own table (Prepare/ShapedRun.swift): every part of a key — font, direction,
/// language, the text (inline up to 12 units, laid out in a key text beyond), the half-width
/// offsets, the shaping context and where the run sits in it, the context script — tells runs
/// apart, equal keys find the run stored, the two generations keep at most twice the
/// capacity, the recent runs first, also with threads rotating them, and once they rotate a
/// run is stored on its second miss.
@Suite struct ShapeCacheTests {
    /// One part of a key.
    struct KeyParts {
        var font: Int32 = 7
        var rightToLeft = false
        var language: UInt16 = 0
        var text: [UInt16] = Array("word".utf16)
        var halfWidth: [UInt16] = []
        /// Units before and after the text in its shaping context (nil: none).
        var context: (before: [UInt16], after: [UInt16])?
        var script: UInt32 = 0
    }

    /// Keys that differ in exactly one part from others, including the layouts a careless key
    /// text would confuse (a unit moved from the text to the context or to the half-width list,
    /// the same context units split differently around the run, a trailing NUL).
    static func variants() -> [KeyParts] {
        var keys: [KeyParts] = []
        let texts: [[UInt16]] = [[], [0x61], [0x61, 0], [0], Array("word".utf16), Array("wordy".utf16), Array("abcdefghijkl".utf16),
                                 Array("abcdefghijklm".utf16), Array("abcdefghijkm".utf16), Array(String(repeating: "x", count: 40).utf16),
                                 Array("مرحبا".utf16), [0xD83D, 0xDC4D]]
        for text in texts {
            for font: Int32 in [7, 8, -1] {
                for rightToLeft in [false, true] {
                    for language: UInt16 in [0, 3] {
                        keys.append(KeyParts(font: font, rightToLeft: rightToLeft, language: language, text: text))
                    }
                }
            }
            keys.append(KeyParts(text: text, halfWidth: [0]))
            keys.append(KeyParts(text: text, halfWidth: [1]))
            keys.append(KeyParts(text: text, halfWidth: [0, 1]))
            keys.append(KeyParts(text: text, context: ([0x628], [])))
            keys.append(KeyParts(text: text, context: ([], [0x628])))
            keys.append(KeyParts(text: text, context: ([0x628, 0x628], [])))
            keys.append(KeyParts(text: text, context: ([0x628], [0x628])))
            keys.append(KeyParts(text: text, context: ([], [])))
            keys.append(KeyParts(text: text, script: 0x4C61_746E))
            keys.append(KeyParts(text: text, script: 0x4C61_746F))
            keys.append(KeyParts(text: text, halfWidth: [0], script: 0x4C61_746E))
        }
        // The text's last unit moved into the context after it.
        keys.append(KeyParts(text: Array("ab".utf16), context: ([], [0x63])))
        keys.append(KeyParts(text: Array("abc".utf16), context: ([], [])))
        return keys
    }

    /// Runs `body` with the key of `parts`.
    static func withKey<R>(_ parts: KeyParts, _ body: (ShapeCache.Key) -> R) -> R {
        let context = parts.context.map { $0.before + parts.text + $0.after } ?? parts.text
        return parts.text.withUnsafeBufferPointer { text in
            context.withUnsafeBufferPointer { units in
                ShapeCache.withKey(font: parts.font, rightToLeft: parts.rightToLeft, text: text, halfWidth: parts.halfWidth,
                                   context: parts.context.map { (units, $0.before.count) }, script: parts.script,
                                   language: parts.language, body)
            }
        }
    }

    /// `count` distinct run objects (the cache compares them by identity here).
    static func runs(_ count: Int) throws -> [ShapedRun] {
        let font = try FontLibrary.shared.font(for: FontDescriptor(family: "DejaVu Sans"))
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        let text: [UInt16] = Array("run".utf16)
        return text.withUnsafeBufferPointer { text in
            (0..<count).map { _ in ShapedRun.shape(text, font: font, rightToLeft: false, halfWidth: [], buffer: buffer) }
        }
    }

    @Test func everyPartOfAKeyTellsRunsApart() throws {
        let keys = Self.variants()
        var seen = Set<String>()
        for k in keys { #expect(seen.insert("\(k)").inserted, "variant listed twice: \(k)") }
        let runs = try Self.runs(keys.count)
        // 16 shards of 6,250 runs: every key stays in the young generations.
        let cache = ShapeCache(capacity: 100_000)
        for (k, parts) in keys.enumerated() {
            Self.withKey(parts) { key in
                #expect(cache.run(for: key) == nil, "\(parts) found another key's run")
                cache.store(runs[k], for: key)
            }
        }
        for (k, parts) in keys.enumerated() {
            let found = Self.withKey(parts) { cache.run(for: $0) }
            #expect(found === runs[k], "\(parts)")
        }
        #expect(cache.statistics.runs == keys.count)
    }

    @Test func manyKeysInOneShardStayFound() throws {
        // One shard (capacity < 1,024): 1,000 keys, long and inline, in one table.
        let cache = ShapeCache(capacity: 1_000)
        let runs = try Self.runs(8)
        let keys = (0..<1_000).map { i in KeyParts(text: Array("w\(i)\(i % 3 == 0 ? "-a-long-tail-of-text" : "")".utf16)) }
        for (i, parts) in keys.enumerated() { Self.withKey(parts) { cache.store(runs[i % 8], for: $0) } }
        for (i, parts) in keys.enumerated() { #expect(Self.withKey(parts) { cache.run(for: $0) } === runs[i % 8]) }
        #expect(cache.statistics.runs == 1_000)
    }

    @Test func generationsKeepRecentRunsAndAtMostTwiceTheCapacity() throws {
        let cache = ShapeCache(capacity: 4)
        let runs = try Self.runs(12)
        let keys = (0..<12).map { i in KeyParts(text: Array("k\(i)".utf16)) }
        func find(_ i: Int) -> ShapedRun? { Self.withKey(keys[i]) { cache.run(for: $0) } }
        // Stored as after two misses: once the young generation has filled, the doorkeeper
        // admits a run on its second miss only.
        func store(_ i: Int) { for _ in 0..<2 { Self.withKey(keys[i]) { cache.store(runs[i], for: $0) } } }
        for i in 0..<4 { store(i) }
        // The fifth run starts a new generation: the first four are old, still found; a hit
        // copies key 0 into the young generation.
        store(4)
        #expect(find(0) === runs[0])
        #expect(cache.statistics.runs == 6)
        // Three more fill the young generation (4, 0, 5, 6); the next drops the old one.
        for i in 5...7 { store(i) }
        #expect(cache.statistics.runs <= 8)
        for i in 8...11 { store(i) }
        #expect(find(1) == nil)
        #expect(find(2) == nil)
        #expect(find(11) === runs[11])
        #expect(cache.statistics.runs <= 8)
        cache.removeAll()
        #expect(cache.statistics.runs == 0)
        #expect(find(11) == nil)
    }

    @Test func afterTheFirstRotationARunIsStoredOnItsSecondMiss() throws {
        let cache = ShapeCache(capacity: 4)
        let runs = try Self.runs(7)
        let keys = (0..<7).map { i in KeyParts(text: Array("d\(i)".utf16)) }
        func find(_ i: Int) -> ShapedRun? { Self.withKey(keys[i]) { cache.run(for: $0) } }
        func store(_ i: Int) { Self.withKey(keys[i]) { cache.store(runs[i], for: $0) } }
        // Until the young generation fills, every run is stored at once.
        for i in 0..<4 { store(i) }
        for i in 0..<4 { #expect(find(i) === runs[i]) }
        store(4)  // the rotation: stored too
        #expect(find(4) === runs[4])
        // From now on a first miss is remembered, not stored; the second stores the run.
        store(5)
        #expect(find(5) == nil)
        store(5)
        #expect(find(5) === runs[5])
        // removeAll forgets the rotation: stored at once again.
        cache.removeAll()
        store(6)
        #expect(find(6) === runs[6])
    }

    @Test func storingAKeyTwiceKeepsOneEntry() throws {
        let cache = ShapeCache(capacity: 100)
        let runs = try Self.runs(2)
        let parts = KeyParts(text: Array("twice".utf16))
        Self.withKey(parts) { cache.store(runs[0], for: $0) }
        Self.withKey(parts) { cache.store(runs[1], for: $0) }
        #expect(cache.statistics.runs == 1)
        #expect(Self.withKey(parts) { cache.run(for: $0) } === runs[0])
    }

    @Test func threadsRotatingGenerationsFindTheRunsStoredForTheirKeys() async throws {
        // 3,000 keys over 16 shards of 64 runs (and one shard of 100): generations rotate every
        // few dozen stores, and the dropped generation is destroyed after the shard's lock is
        // released, while other threads look up and store in the same shard (run under
        // ThreadSanitizer too).
        let runs = try Self.runs(3_000)
        let keys = (0..<3_000).map { i in KeyParts(text: Array("key\(i)\(i % 5 == 0 ? "-with-a-long-key-text" : "")".utf16)) }
        for cache in [ShapeCache(capacity: 1_024), ShapeCache(capacity: 100)] {
            let wrong = await withTaskGroup(of: Int.self) { group in
                for thread in 0..<4 {
                    group.addTask {
                        var wrong = 0
                        for step in 0..<6_000 {
                            let k = (step * 7 + thread * 131) % keys.count
                            let found = Self.withKey(keys[k]) { key in
                                if let run = cache.run(for: key) { return run }
                                cache.store(runs[k], for: key)
                                return runs[k]
                            }
                            if found !== runs[k] || found.glyphCount != 3 { wrong += 1 }
                        }
                        return wrong
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(wrong == 0)
            #expect(cache.statistics.runs <= 2 * cache.capacity)
        }
    }
}
