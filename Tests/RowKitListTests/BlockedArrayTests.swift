import Testing
@testable import RowKitList

@Suite struct BlockedArrayTests {
    static func check(_ array: BlockedArray<Int>, _ model: [Int], rng: inout SeededRandom,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(array.count == model.count, sourceLocation: sourceLocation)
        #expect(array.elements == model, sourceLocation: sourceLocation)
        guard array.count == model.count, !model.isEmpty else { return }
        for _ in 0..<10 {
            let i = rng.int(0..<model.count)
            #expect(array[i] == model[i], sourceLocation: sourceLocation)
        }
        let a = rng.int(0...model.count), b = rng.int(0...model.count)
        let range = min(a, b)..<max(a, b)
        var seen: [(Int, Int)] = []
        array.forEach(in: range) { seen.append(($0, $1)) }
        #expect(seen.map(\.0) == Array(range), sourceLocation: sourceLocation)
        #expect(seen.map(\.1) == Array(model[range]), sourceLocation: sourceLocation)
    }

    @Test func emptyArray() {
        let array = BlockedArray<Int>()
        #expect(array.count == 0)
        #expect(array.elements.isEmpty)
        var calls = 0
        array.forEach(in: 0..<0) { _, _ in calls += 1 }
        #expect(calls == 0)
        #expect(BlockedArray<Int>([]).count == 0)
    }

    @Test(arguments: [10 as UInt64, 11, 12])
    func randomOperationsAgainstArray(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var next = 0
        let initial = (0..<rng.int(0...900)).map { $0 }
        next = initial.count
        var array = BlockedArray(initial)
        var model = initial
        for step in 0..<3_000 {
            switch rng.int(0..<10) {
            case 0..<5:
                // Bursts at one place make blocks split.
                let at = step % 400 < 200 ? min(model.count, 5) : rng.int(0...model.count)
                array.insert(next, at: at)
                model.insert(next, at: at)
                next += 1
            case 5..<8 where !model.isEmpty:
                let at = rng.int(0..<model.count)
                #expect(array.remove(at: at) == model.remove(at: at))
            case 8 where !model.isEmpty:
                let at = rng.int(0..<model.count)
                array[at] = -next
                model[at] = -next
                next += 1
            default:
                break
            }
            if step % 25 == 0 { Self.check(array, model, rng: &rng) }
        }
        Self.check(array, model, rng: &rng)
        // Drain completely, then grow again from empty.
        while !model.isEmpty {
            let at = rng.int(0..<model.count)
            #expect(array.remove(at: at) == model.remove(at: at))
        }
        Self.check(array, model, rng: &rng)
        for k in 0..<600 { array.insert(k, at: array.count); model.append(k) }
        Self.check(array, model, rng: &rng)
    }
}
