import Testing
@testable import RowKitText

/// The measuring form's unit palette (issue 8, twenty-second round): its keys made in a loop of
/// their own (`Planner.unitKeys`, ASCII white space from a table), and its indices given without
/// a branch on new or known keys (`PaletteMap.assign`), the map emptied from the last text's
/// palette (`PaletteMap.reset`). Checked against plain reference code.
@Suite struct PaletteTests {
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 16
        }
    }

    /// First-occurrence indices and the distinct keys in that order, by a dictionary.
    static func reference(_ keys: [UInt64]) -> (codes: [UInt32], palette: [UInt64]) {
        var seen: [UInt64: UInt32] = [:], palette: [UInt64] = []
        let codes = keys.map { key -> UInt32 in
            if let index = seen[key] { return index }
            let index = UInt32(palette.count)
            seen[key] = index
            palette.append(key)
            return index
        }
        return (codes, palette)
    }

    /// Runs `keys` through `map` as the planner does: assigns them, returns the codes and the
    /// palette, and leaves `palette` (for the next reset) in `kept`.
    static func assign(_ keys: [UInt64], _ map: inout PaletteMap, kept: inout (palette: [UInt64], count: Int)) -> (codes: [UInt32], palette: [UInt64]) {
        map.reset(kept.palette, count: kept.count)
        var codes = [UInt32](repeating: 0, count: keys.count)
        var palette = [UInt64](repeating: 0, count: max(keys.count, kept.palette.count))
        for k in 0..<kept.count { palette[k] = kept.palette[k] }
        var count = 0
        if !keys.isEmpty {
            keys.withUnsafeBufferPointer { keys in
                codes.withUnsafeMutableBufferPointer { codes in
                    palette.withUnsafeMutableBufferPointer { out in
                        count = map.assign(keys.baseAddress!, count: keys.count, codes: codes.baseAddress!, palette: out.baseAddress!)
                    }
                }
            }
        }
        kept = (palette, count)
        return (codes, Array(palette[0..<count]))
    }

    /// Keys whose slots collide in a 512-slot table (the map's first size): probing on past
    /// other keys, new and known.
    static func collidingKeys(_ n: Int) -> [UInt64] {
        var keys: [UInt64] = []
        var key: UInt64 = 0
        while keys.count < n {
            if PaletteMap.home(key &+ 1, 511) == 7 { keys.append(key) }
            key += 1
        }
        return keys
    }

    @Test func indicesAreFirstOccurrencesAcrossTextsOnOneMap() {
        var random = Random(state: 0x5EED_0022)
        var texts: [[UInt64]] = []
        // Few distinct keys (a caption), many (the table grows past 512 and past 4,096 slots,
        // after which the next reset makes a new map), colliding ones, none, repeats of one.
        for _ in 0..<40 {
            let distinct = Int(random.next() % 40) + 1
            let alphabet = (0..<distinct).map { _ in random.next() & 0xFF_FFFF_FFFF >> 1 }
            texts.append((0..<Int(random.next() % 300)).map { _ in alphabet[Int(random.next() % UInt64(distinct))] })
        }
        texts.insert((0..<3000).map { UInt64($0) * 0x1_0000_0001 }, at: 5)
        texts.insert((0..<700).map { _ in random.next() % 900 }, at: 9)
        let colliding = Self.collidingKeys(12)
        texts.insert((0..<200).map { _ in colliding[Int(random.next() % 12)] }, at: 0)
        texts.insert([], at: 14)
        texts.insert([UInt64](repeating: 42, count: 130), at: 15)
        // Keys with every attribute bit (the top of the 40 bits but one).
        texts.insert([0xFE_FFFF_FFFF, 0, 0xFE_FFFF_FFFF, 1 << 39, 0], at: 20)

        var map = PaletteMap()
        var kept: (palette: [UInt64], count: Int) = ([], 0)
        for (t, keys) in texts.enumerated() {
            let got = Self.assign(keys, &map, kept: &kept)
            let expected = Self.reference(keys)
            #expect(got.codes == expected.codes, "text \(t)")
            #expect(got.palette == expected.palette, "text \(t)")
            // The same text on a map that has seen nothing.
            var fresh = PaletteMap()
            var none: (palette: [UInt64], count: Int) = ([], 0)
            #expect(Self.assign(keys, &fresh, kept: &none).codes == expected.codes, "text \(t), fresh map")
        }
    }

    /// `Planner.unitKeys` against the attributes written out longhand: grapheme and cluster
    /// starts from the bit words, white-space kinds, soft hyphen, U+3000, Arabic joining.
    @Test func unitKeysAreAdvancesAndAttributes() {
        var random = Random(state: 0xA77_0022)
        let pool: [UInt16] = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x00, 0x1F, 0x21, 0x41, 0x61, 0x7E, 0x7F, 0x80, 0xA0, 0xAD, 0xE9,
                              0x3000, 0x3001, 0x4E00, 0x0627, 0x0628, 0x0644, 0x0645, 0x064E, 0x0661, 0x06CC, 0x0700, 0x08A0,
                              0x0620, 0x08FF, 0x0900, 0x200D, 0xD83D, 0xDE00]
        for length in [0, 1, 5, 63, 64, 65, 130, 300] {
            let units = (0..<length).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            let advances = (0..<length).map { _ in Int32(truncatingIfNeeded: random.next()) }
            let words = (length + 63) / 64
            let grapheme = (0..<words).map { _ in random.next() << 16 ^ random.next() }
            let inner = (0..<words).map { _ in random.next() << 16 ^ random.next() }
            var out = [UInt64](repeating: 0, count: max(1, length))
            units.withUnsafeBufferPointer { u in
                advances.withUnsafeBufferPointer { a in
                    grapheme.withUnsafeBufferPointer { g in
                        inner.withUnsafeBufferPointer { i in
                            out.withUnsafeMutableBufferPointer { o in
                                MetricsBlock.Planner.unitKeys(u, advances: a, graphemeStartBits: g, clusterInnerBits: i, into: o.baseAddress!)
                            }
                        }
                    }
                }
            }
            typealias A = MetricsBlock.Attribute
            for k in 0..<length {
                var a: UInt8 = 0
                if grapheme[k >> 6] >> UInt64(k & 63) & 1 != 0 { a |= A.graphemeStart }
                if inner[k >> 6] >> UInt64(k & 63) & 1 == 0 { a |= A.clusterStart }
                switch units[k] {
                case 0x20: a |= A.space
                case 0x09: a |= A.tab
                case 0x0A: a |= A.newline
                case 0xAD: a |= A.softHyphen
                case 0x3000: a |= A.newline | A.ideographicSpace
                default: break
                }
                if units[k] >= 0x0620 && units[k] < 0x0900
                    && units.withUnsafeBufferPointer({ ArabicJoining.joinsLetterBefore($0, k) }) {
                    a |= A.joinedToPrevious
                }
                let expected = UInt64(UInt32(bitPattern: advances[k])) | UInt64(a) << 32
                #expect(out[k] == expected, "length \(length), unit \(k) (U+\(String(units[k], radix: 16)))")
            }
        }
    }
}
