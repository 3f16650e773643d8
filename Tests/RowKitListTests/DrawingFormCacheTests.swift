import Testing
@testable import RowKitList

/// The drawing-form cache is an exact least-recently-used cache (DrawingFormCache.swift),
/// checked against a plain model under random hits, inserts, removals and capacity changes.
@Suite struct DrawingFormCacheTests {
    /// The model: ids with their last use; the oldest goes first.
    struct Model {
        var capacity: Int
        var uses: [Int: Int] = [:]
        var clock = 0
        mutating func touch(_ id: Int) { clock += 1; uses[id] = clock }
        mutating func trim() {
            while uses.count > capacity { uses[uses.min { $0.value < $1.value }!.key] = nil }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func keepsExactlyTheMostRecentlyUsed(seed: UInt64) {
        var state = seed
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        var cache = DrawingFormCache<Int, String>(capacity: 8)
        var model = Model(capacity: 8)
        for step in 0..<20_000 {
            let id = next(40)
            switch next(20) {
            case 0..<9:
                let hit = cache.form(for: id)
                #expect(hit == (model.uses[id] != nil ? "form \(id)" : nil), "step \(step)")
                if hit != nil { model.touch(id) }
            case 9..<17:
                cache.insert("form \(id)", for: id)
                model.touch(id)
                model.trim()
            case 17, 18:
                cache.remove(id)
                model.uses[id] = nil
            default:
                let capacity = next(4) == 0 ? next(3) : 4 + next(20)
                cache.capacity = capacity
                model.capacity = capacity
                model.trim()
            }
            #expect(cache.count == model.uses.count, "step \(step)")
            if cache.count != model.uses.count { return }
        }
        for id in 0..<40 { #expect((cache.form(for: id) != nil) == (model.uses[id] != nil)) }
    }

    /// Far more items than the capacity, drawn again and again (a viewport of thousands of
    /// zero-height rows): the cache stays at its capacity and keeps the latest.
    @Test func moreItemsThanTheCapacityKeepTheLatest() {
        var cache = DrawingFormCache<Int, Int>(capacity: 256)
        for round in 0..<3 {
            for id in 0..<50_000 {
                if cache.form(for: id) == nil { cache.insert(id + round, for: id) }
            }
        }
        #expect(cache.count == 256)
        #expect((49_744..<50_000).allSatisfy { cache.form(for: $0) != nil })
        #expect(cache.form(for: 49_743) == nil)
    }
}
