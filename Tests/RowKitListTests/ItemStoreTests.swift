import Testing
@testable import RowKitList

/// The blocked item store against a plain array: order, access, and the per-block counts
/// (measured, forms, selected) that work finding and selection queries rely on.
@Suite struct ItemStoreTests {
    typealias Store = ItemStore
    typealias Element = ItemRecord
    final class Token {}

    static func check(_ store: Store, _ model: [Element], generation: UInt32, rng: inout SeededRandom,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(store.count == model.count, sourceLocation: sourceLocation)
        var all: [UInt32] = []
        store.forEach(in: 0..<store.count) { _, item in all.append(item.serial) }
        #expect(all == model.map(\.serial), sourceLocation: sourceLocation)
        #expect(store.measuredCount == model.filter { $0.generation == generation }.count, sourceLocation: sourceLocation)
        #expect(store.formCount == model.filter { $0.form != nil }.count, sourceLocation: sourceLocation)
        #expect(store.selectedCount == model.filter(\.selected).count, sourceLocation: sourceLocation)
        var selected: [Int] = []
        store.forEachSelected { index, item in
            #expect(item.serial == model[index].serial, sourceLocation: sourceLocation)
            selected.append(index)
        }
        #expect(selected == model.indices.filter { model[$0].selected }, sourceLocation: sourceLocation)
        var blockSums = (0, 0, 0, 0)
        for block in store.blocks {
            blockSums.0 += block.items.count
            blockSums.1 += block.measured
            blockSums.2 += block.forms
            blockSums.3 += block.selected
            #expect(block.items.count <= Store.maximumBlock, sourceLocation: sourceLocation)
        }
        #expect(store.countsAreConsistent, sourceLocation: sourceLocation)
        #expect(blockSums.0 == store.count && blockSums.1 == store.measuredCount && blockSums.2 == store.formCount
                && blockSums.3 == store.selectedCount, sourceLocation: sourceLocation)
        guard !model.isEmpty else { return }
        for _ in 0..<10 {
            let i = rng.int(0..<model.count)
            #expect(store[i].serial == model[i].serial, sourceLocation: sourceLocation)
        }
        // Work finding: the returned blocks start where said and hold pending items.
        for formsOnly in [false, true] {
            let pending = model.indices.filter { model[$0].generation != generation && (!formsOnly || model[$0].form != nil) }
            let cursor = rng.int(0...model.count)
            if let work = store.work(from: cursor, formsOnly: formsOnly, limit: 50) {
                let ids = work.blocks.flatMap { $0.map(\.serial) }
                #expect(Array(model[work.start..<(work.start + ids.count)].map(\.serial)) == ids, sourceLocation: sourceLocation)
                #expect(pending.contains { $0 >= work.start && $0 < work.start + ids.count }, sourceLocation: sourceLocation)
            } else {
                #expect(pending.isEmpty, sourceLocation: sourceLocation)
            }
        }
    }

    @Test func emptyStore() {
        let store = Store(generation: 1)
        #expect(store.count == 0)
        var calls = 0
        store.forEach(in: 0..<0) { _, _ in calls += 1 }
        store.forEachSelected { _, _ in calls += 1 }
        #expect(calls == 0)
        #expect(store.work(from: 0, formsOnly: false, limit: 10) == nil)
    }

    @Test(arguments: [10 as UInt64, 11, 12])
    func randomOperationsAgainstArray(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var next = 0
        var generation: UInt32 = 1
        func element(_ rng: inout SeededRandom) -> Element {
            next += 1
            let measured = rng.chance(0.3)
            return Element(kind: .row, serial: UInt32(next), form: measured || rng.chance(0.2) ? Token() : nil,
                           generation: measured ? generation : 0, selected: rng.chance(0.1))
        }
        let initial = (0..<rng.int(0...900)).map { _ in element(&rng) }
        var store = Store(initial, generation: generation)
        var model = initial
        for step in 0..<3_000 {
            switch rng.int(0..<12) {
            case 0..<5:
                // Bursts at one place make blocks split.
                let at = step % 400 < 200 ? min(model.count, 5) : rng.int(0...model.count)
                let e = element(&rng)
                store.insert(e, at: at)
                model.insert(e, at: at)
            case 5..<8 where !model.isEmpty:
                let at = rng.int(0..<model.count)
                #expect(store.remove(at: at).serial == model.remove(at: at).serial)
            case 8 where !model.isEmpty:
                let at = rng.int(0..<model.count)
                let selected = rng.chance(0.5), measured = rng.chance(0.5)
                let token = Token()
                store.update(at: at) { $0.selected = selected; if measured { $0.form = token; $0.generation = generation } else { $0.generation = 0 } }
                model[at].selected = selected
                if measured { model[at].form = token; model[at].generation = generation } else { model[at].generation = 0 }
            case 9 where model.count > 10:
                let start = rng.int(0..<(model.count - 10))
                store.updateRange(start: start, count: 10) { _, item in item.selected.toggle() }
                for k in start..<(start + 10) { model[k].selected.toggle() }
            case 10 where step % 100 == 0:
                generation += 1
                store.startGeneration(generation)
            default:
                break
            }
            if step % 25 == 0 { Self.check(store, model, generation: generation, rng: &rng) }
        }
        Self.check(store, model, generation: generation, rng: &rng)
        while !model.isEmpty {
            let at = rng.int(0..<model.count)
            #expect(store.remove(at: at).serial == model.remove(at: at).serial)
        }
        Self.check(store, model, generation: generation, rng: &rng)
        #expect(store.countsAreConsistent)
        for _ in 0..<600 { let e = element(&rng); store.insert(e, at: store.count); model.append(e) }
        #expect(store.countsAreConsistent)
        Self.check(store, model, generation: generation, rng: &rng)
    }

    /// Selection queries look only into the blocks that hold selected items (O(selected),
    /// not O(n)).
    @Test func selectionQueriesVisitOnlyBlocksWithSelectedItems() {
        let n = 200_000
        var store = Store((0..<n).map { Element(kind: .row, serial: UInt32($0)) }, generation: 1)
        let chosen = [5, 6, 150_000, 199_999]
        for index in chosen { store.update(at: index) { $0.selected = true } }
        var visited: [Int] = []
        let scanned = store.forEachSelected { index, _ in visited.append(index) }
        #expect(visited == chosen)
        // At most the three blocks holding them, each up to its last selected item.
        #expect(scanned <= 3 * Store.maximumBlock, "scanned \(scanned) of \(n) items")
        #expect(scanned >= chosen.count)
    }
}
