import Testing
@testable import RowKitList

/// The obvious model of a height index: an array of heights in layout units.
struct NaiveHeights {
    var units: [Int64] = []
    var total: Int64 { units.reduce(0, +) }
    func offset(_ row: Int) -> Double { Units.px(units[0..<row].reduce(0, +)) }
    /// The documented rule: the row whose [top, top + height) holds floor(max(0, y) × 64) units;
    /// past the end the last row; zero-height rows are never hit.
    func row(at y: Double) -> Int? {
        guard !units.isEmpty else { return nil }
        let target = Int64((max(0, y) * 64).rounded(.down))
        var sum: Int64 = 0
        for (i, h) in units.enumerated() {
            sum += h
            if sum > target { return i }
        }
        return units.count - 1
    }
    /// The same rule from one pass of prefix sums, for checking many ys at once.
    func rowTable() -> (Double) -> Int? {
        var ends: [Int64] = []
        var sum: Int64 = 0
        for h in units { sum += h; ends.append(sum) }
        return { y in
            guard !ends.isEmpty else { return nil }
            let target = Int64((max(0, y) * 64).rounded(.down))
            // first row whose end exceeds target (a plain bisection over the ends)
            var lo = 0, hi = ends.count
            while lo < hi { let mid = (lo + hi) / 2; if ends[mid] > target { hi = mid } else { lo = mid + 1 } }
            return lo < ends.count ? lo : ends.count - 1
        }
    }
}

@Suite struct HeightIndexTests {
    static func check(_ index: HeightIndex, _ model: NaiveHeights, rng: inout SeededRandom, full: Bool,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(index.count == model.units.count, sourceLocation: sourceLocation)
        #expect(index.totalHeight == Units.px(model.total), sourceLocation: sourceLocation)
        #expect(index.heights == model.units.map(Units.px), sourceLocation: sourceLocation)
        guard index.count == model.units.count else { return }
        // Offsets: all rows when asked, else a sample (plus both ends).
        var rows = full ? Array(0...model.units.count) : (0..<6).map { _ in rng.int(0...model.units.count) }
        rows += [0, model.units.count]
        var prefix: [Int64] = [0]
        for h in model.units { prefix.append(prefix.last! + h) }
        for r in rows {
            #expect(index.offset(of: r) == Units.px(prefix[r]), "offset(of: \(r))", sourceLocation: sourceLocation)
            if r < model.units.count {
                #expect(index.height(at: r) == Units.px(model.units[r]), sourceLocation: sourceLocation)
            }
        }
        // row(at:): tops, just above and below tops, negative, past the end, fractions. The
        // naive row(at:) is a linear scan, so keep the count small except in full checks.
        let rowAt = model.rowTable()
        var ys: [Double] = [-1, -0.001, 0, Units.px(model.total), Units.px(model.total) + 0.5, Units.px(model.total) + 1e6]
        for r in rows.prefix(full ? 25 : 4) {
            let top = Units.px(prefix[r])
            ys += [top, top - 1.0 / 128, top + 1.0 / 128, top - 1.0 / 64, top + 0.3]
        }
        for _ in 0..<(full ? 10 : 3) { ys.append(Double(rng.int(0...Int(model.total + 64))) / 64 + Double(rng.int(0..<7)) / 448) }
        for y in ys {
            #expect(index.row(at: y) == rowAt(y), "row(at: \(y))", sourceLocation: sourceLocation)
        }
    }

    @Test func emptyIndex() {
        let index = HeightIndex()
        #expect(index.count == 0)
        #expect(index.totalHeight == 0)
        #expect(index.offset(of: 0) == 0)
        #expect(index.row(at: 0) == nil)
        #expect(index.row(at: -10) == nil)
        #expect(index.row(at: 1e6) == nil)
        #expect(index.heights.isEmpty)
        #expect(HeightIndex(heights: []).count == 0)
        #expect(HeightIndex(count: -3, height: 10).count == 0)
    }

    @Test func uniformInitialiser() {
        let index = HeightIndex(count: 1_000, height: 12.5)
        #expect(index.count == 1_000)
        #expect(index.totalHeight == 12_500)
        #expect(index.offset(of: 600) == 7_500)
        #expect(index.row(at: 7_500) == 600)
        #expect(index.row(at: 7_499.99) == 599)
    }

    @Test func fractionalHeightsRoundToLayoutUnits() {
        let index = HeightIndex(heights: [10.3, 0.004, 0.008, 1.0 / 128, 3.0 / 128, -5, .nan, 7.015625])
        // 10.3 × 64 = 659.2 → 659; 0.004 × 64 = 0.256 → 0; 0.008 × 64 = 0.512 → 1;
        // 0.5 units rounds away from zero → 1; 1.5 → 2; negatives and NaN → 0; exact units stay.
        let expectedUnits: [Int64] = [659, 0, 1, 1, 2, 0, 0, 449]
        #expect(index.heights == expectedUnits.map(Units.px))
        #expect(index.totalHeight == Double(659 + 1 + 1 + 2 + 449) / 64)
        var copy = index
        #expect(copy.setHeight(10.301, at: 0) == 0)          // still 659 units: no change
        #expect(copy.setHeight(.nan, at: 1) == 0)            // NaN → 0 (documented)
        #expect(copy.setHeight(.infinity, at: 1) == HeightIndex.maximumHeight) // clamped to the tallest row
    }

    @Test func rowAtBoundariesAndZeroHeights() {
        // Rows: 0:10 px, 1:0, 2:0, 3:5, 4:0 (last).
        let index = HeightIndex(heights: [10, 0, 0, 5, 0])
        #expect(index.row(at: -3) == 0)
        #expect(index.row(at: 0) == 0)
        #expect(index.row(at: 9.99) == 0)
        #expect(index.row(at: 10) == 3)          // rows 1 and 2 are zero tall: nothing of them at y 10
        #expect(index.row(at: 14.99) == 3)
        #expect(index.row(at: 15) == 4)          // at the end: the last row
        #expect(index.row(at: 1_000) == 4)
        #expect(index.offset(of: 1) == 10)
        #expect(index.offset(of: 3) == 10)
        #expect(index.offset(of: 5) == 15)
        let zeros = HeightIndex(heights: [0, 0, 0])
        #expect(zeros.row(at: 0) == 2)
        #expect(zeros.totalHeight == 0)
        let firstZero = HeightIndex(heights: [0, 8])
        #expect(firstZero.row(at: -1) == 1)    // y < 0 is clamped to 0, where the zero-tall row 0 isn't
    }

    @Test func splitsBlocksWhenInsertingIntoOnePlace() {
        var index = HeightIndex()
        var model = NaiveHeights()
        var rng = SeededRandom(seed: 7)
        // 1,500 single inserts at the same position: the block there splits again and again.
        for k in 0..<1_500 {
            let h = Double(k % 13) + 0.5
            index.insert([h], at: min(3, index.count))
            model.units.insert(Units.of(h), at: min(3, model.units.count))
        }
        Self.check(index, model, rng: &rng, full: true)
        // Remove them all from the front half again (blocks empty and disappear).
        while index.count > 0 {
            let r = index.count / 3
            #expect(index.remove(at: r) == Units.px(model.units.remove(at: r)))
            if index.count % 97 == 0 { Self.check(index, model, rng: &rng, full: true) }
        }
        Self.check(index, model, rng: &rng, full: true)
        index.insert([4], at: 0)
        model.units.insert(256, at: 0)
        Self.check(index, model, rng: &rng, full: true)
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func randomOperationsAgainstArray(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let start = rng.int(0...700)
        let initial: [Double] = (0..<start).map { _ in Self.randomHeight(&rng) }
        var index = seed == 1 ? HeightIndex(count: start, height: 20) : HeightIndex(heights: initial)
        var model = NaiveHeights(units: seed == 1 ? Array(repeating: 1280, count: start) : initial.map(Units.of))
        Self.check(index, model, rng: &rng, full: true)
        for step in 0..<800 {
            let n = model.units.count
            switch rng.int(0..<100) {
            case 0..<35:   // insert a few (rarely a large run, which rebuilds)
                let k = rng.chance(0.02) ? rng.int(513...900) : rng.int(1...6)
                let hs = (0..<k).map { _ in Self.randomHeight(&rng) }
                let at = rng.int(0...n)
                index.insert(hs, at: at)
                model.units.insert(contentsOf: hs.map(Units.of), at: at)
            case 35..<60 where n > 0:
                let at = rng.int(0..<n)
                #expect(index.remove(at: at) == Units.px(model.units.remove(at: at)))
            case 60..<75 where n > 0:
                let from = rng.int(0..<n), to = rng.int(0..<n)
                index.move(from: from, to: to)
                model.units.insert(model.units.remove(at: from), at: to)
            case 75..<95 where n > 0:
                let at = rng.int(0..<n), h = Self.randomHeight(&rng)
                let delta = index.setHeight(h, at: at)
                #expect(delta == Units.px(Units.of(h) - model.units[at]))
                model.units[at] = Units.of(h)
            default:
                index.insert([], at: rng.int(0...n))   // a no-op
            }
            Self.check(index, model, rng: &rng, full: step % 100 == 0)
            if step % 50 == 0 { Self.crossCheckNaive(model, rng: &rng) }
        }
        Self.check(index, model, rng: &rng, full: true)
    }

    /// The bisection table agrees with the plain linear scan.
    static func crossCheckNaive(_ model: NaiveHeights, rng: inout SeededRandom) {
        let table = model.rowTable()
        for _ in 0..<5 {
            let y = Double(rng.int(-64...Int(model.total + 64))) / 64
            #expect(table(y) == model.row(at: y))
        }
    }

    static func randomHeight(_ rng: inout SeededRandom) -> Double {
        switch rng.int(0..<10) {
        case 0: return 0
        case 1: return Double(rng.int(0..<1000)) / 997        // fractions rounding to 1/64
        case 2: return Double(rng.int(1...400)) / 64
        default: return Double(rng.int(1...120))
        }
    }

    @Test func largeInsertIntoEmptyAndAppend() {
        var index = HeightIndex()
        var model = NaiveHeights()
        var rng = SeededRandom(seed: 99)
        index.insert(Array(repeating: 3, count: 2_000), at: 0)
        model.units = Array(repeating: 192, count: 2_000)
        index.insert([1, 2], at: 2_000)
        model.units += [64, 128]
        Self.check(index, model, rng: &rng, full: true)
    }

    @Test func byteCountIsAboutFourBytesARow() {
        let index = HeightIndex(count: 100_000, height: 44)
        #expect(index.byteCount >= 400_000)
        #expect(index.byteCount < 450_000)
    }
}
