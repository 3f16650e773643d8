import Testing
@testable import RowKitList

@Suite struct FenwickTreeTests {
    /// Largest k with sum(values[0..<k]) <= target, by a linear scan.
    static func naiveSearch(_ values: [Int64], _ target: Int64) -> (Int, Int64) {
        var k = 0, sum: Int64 = 0
        while k < values.count && sum + values[k] <= target { sum += values[k]; k += 1 }
        return (k, sum)
    }

    @Test func emptyTree() {
        let tree = FenwickTree([])
        #expect(tree.count == 0)
        #expect(tree.prefix(0) == 0)
        #expect(tree.search(0) == (0, 0))
        #expect(tree.search(100) == (0, 0))
    }

    @Test func prefixAndSearchOnKnownValues() {
        let tree = FenwickTree([3, 0, 5, 0, 0, 2])
        #expect((0...6).map { tree.prefix($0) } == [0, 3, 3, 8, 8, 8, 10])
        #expect(tree.search(0) == (0, 0))
        #expect(tree.search(2) == (0, 0))
        #expect(tree.search(3) == (2, 3))    // skips the zero after the 3
        #expect(tree.search(7) == (2, 3))
        #expect(tree.search(8) == (5, 8))    // skips both trailing zeros before the 2
        #expect(tree.search(10) == (6, 10))
        #expect(tree.search(1_000) == (6, 10))
    }

    @Test(arguments: [1, 2, 7, 64, 513, 1000])
    func randomAgainstPrefixSums(count: Int) {
        var rng = SeededRandom(seed: UInt64(count))
        var values: [Int64] = (0..<count).map { _ in rng.chance(0.2) ? 0 : Int64(rng.int(0...1000)) }
        var tree = FenwickTree(values)
        for step in 0..<300 {
            let i = rng.int(0..<count)
            let delta = Int64(rng.int(-Int(values[i])...500))   // keep elements non-negative
            values[i] += delta
            tree.add(delta, at: i)
            if step % 10 == 0 || count < 10 {
                var sum: Int64 = 0
                for k in 0...count {
                    #expect(tree.prefix(k) == sum)
                    if k < count { sum += values[k] }
                }
            }
            let target = Int64(rng.int(-5...Int(values.reduce(0, +) + 10)))
            let expected = target < 0 ? (0, 0) : Self.naiveSearch(values, target)
            let got = tree.search(target)
            #expect(got.index == expected.0 && got.prefix == expected.1, "search(\(target)) step \(step)")
        }
    }
}
