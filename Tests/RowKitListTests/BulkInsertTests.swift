import Testing
@testable import RowKitList

/// Inserting many items at once (one splice of each column) against plain arrays, and a batch
/// inserting many rows against the same rows inserted one batch at a time: order, heights,
/// offsets, ids, block counts, anchoring and the duplicate-id errors.
@Suite struct BulkInsertTests {
    /// Sizes that stay inside a block, fill one exactly, or span many.
    static func bulkSize(_ rng: inout SeededRandom) -> Int {
        rng.pick([0, 1, 2, rng.int(3...60), 255, 256, 257, 511, 512, 513, rng.int(514...3_000)])
    }

    @Test(arguments: [21 as UInt64, 22, 23])
    func blockedArrayBulkInsertsAndRemovesMatchArray(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var next = 0
        var array = BlockedArray<Int>()
        var model: [Int] = []
        for step in 0..<400 {
            if rng.chance(0.35) && !model.isEmpty {
                // Runs of removals at one place empty blocks.
                let at = rng.int(0..<model.count)
                for _ in 0..<min(model.count - at, rng.int(1...700)) {
                    #expect(array.remove(at: at) == model.remove(at: at))
                }
            } else {
                let at = rng.pick([0, model.count, rng.int(0...model.count)])
                let new = (0..<Self.bulkSize(&rng)).map { _ in next += 1; return next }
                array.insert(contentsOf: new, at: at)
                model.insert(contentsOf: new, at: at)
            }
            #expect(array.count == model.count)
            if step % 10 == 0 || step == 399 {
                #expect(array.elements == model)
                #expect(array.blockList.allSatisfy { !$0.isEmpty && $0.count <= BlockedArray<Int>.maximumBlock })
                for _ in 0..<20 where !model.isEmpty {
                    let i = rng.int(0..<model.count)
                    #expect(array[i] == model[i])
                    let end = min(model.count, i + rng.int(0...700))
                    #expect(array.elements(in: i..<end) == Array(model[i..<end]))
                }
            }
        }
    }

    @Test(arguments: [31 as UInt64, 32, 33])
    func itemStoreBulkInsertsKeepOrderAndCounts(seed: UInt64) {
        final class Token {}
        var rng = SeededRandom(seed: seed)
        var next: UInt32 = 0
        let generation: UInt32 = 3
        func element(_ rng: inout SeededRandom) -> ItemRecord {
            next += 1
            let measured = rng.chance(0.3)
            return ItemRecord(kind: .row, serial: next, form: measured || rng.chance(0.2) ? Token() : nil,
                              generation: measured ? generation : 0, selected: rng.chance(0.1))
        }
        var store = ItemStore(generation: generation)
        var model: [ItemRecord] = []
        for step in 0..<300 {
            if rng.chance(0.35) && !model.isEmpty {
                let at = rng.int(0..<model.count)
                for _ in 0..<min(model.count - at, rng.int(1...700)) {
                    #expect(store.remove(at: at).serial == model.remove(at: at).serial)
                }
            } else {
                let at = rng.pick([0, model.count, rng.int(0...model.count)])
                let new = (0..<Self.bulkSize(&rng)).map { _ in element(&rng) }
                store.insert(contentsOf: new, at: at)
                model.insert(contentsOf: new, at: at)
            }
            if step % 10 == 0 || step == 299 {
                ItemStoreTests.check(store, model, generation: generation, rng: &rng)
                #expect(store.blocks.allSatisfy { !$0.items.isEmpty })
            }
        }
    }

    @Test(arguments: [41 as UInt64, 42, 43])
    func heightIndexBulkInsertsMatchArray(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var index = HeightIndex()
        var model = NaiveHeights()
        for step in 0..<300 {
            if rng.chance(0.35) && !model.units.isEmpty {
                let at = rng.int(0..<model.units.count)
                for _ in 0..<min(model.units.count - at, rng.int(1...700)) {
                    #expect(index.remove(at: at) == Units.px(model.units.remove(at: at)))
                }
            } else {
                let at = rng.pick([0, model.units.count, rng.int(0...model.units.count)])
                let new = (0..<Self.bulkSize(&rng)).map { _ in rng.chance(0.1) ? 0 : Double(rng.int(1...4_000)) / 64 }
                index.insert(new, at: at)
                model.units.insert(contentsOf: new.map(Units.of), at: at)
            }
            if step % 10 == 0 || step == 299 {
                HeightIndexTests.check(index, model, rng: &rng, full: step == 299)
            }
        }
    }

    /// A batch inserting many rows leaves the list (ids, heights, offsets, the anchored
    /// offset) as the same rows inserted one batch each would, wherever they go.
    @Test(arguments: [51 as UInt64, 52, 53, 54])
    func bulkBatchInsertMatchesOneRowBatches(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let sections = [ListSection(header: Rows.fixed("h0", 30), rows: Rows.uniform(700, height: 18, prefix: "a"), footer: Rows.fixed("f0", 12)),
                        ListSection(rows: Rows.uniform(400, height: 25, prefix: "b"))]
        let bulk = try makeEngine(sections, viewport: 500)
        let single = try makeEngine(sections, viewport: 500)
        var next = 0
        for round in 0..<6 {
            let y = Double(rng.int(0...20_000)) + 0.5
            bulk.scroll(to: y)
            single.scroll(to: y)
            // The item at the top of the viewport keeps its screen position; every other round
            // the rows go in right at it (it moves down by all of them).
            let top = try bulk.item(at: bulk.item(atY: bulk.contentOffset)!)
            let topScreenY = try bulk.offset(ofItem: top.index) - bulk.contentOffset
            let atTop = round % 2 == 0 && top.kind == .row
            let section = atTop ? top.indexPath.section : rng.int(0..<2)
            let rows = try bulk.numberOfRows(inSection: section)
            let at = atTop ? top.indexPath.row : rng.pick([0, rows, rng.int(0...rows)])
            let new = (0..<rng.pick([2, 300, 1_300])).map { _ in next += 1; return Rows.fixed("n\(next)", Double(rng.int(5...60))) }
            try bulk.performBatchUpdates { $0.insert(new, at: path(section, at)) }
            for (k, row) in new.enumerated() {
                try single.performBatchUpdates { $0.insert([row], at: path(section, at + k)) }
            }
            #expect(BatchRuleTests.ids(bulk) == BatchRuleTests.ids(single), "round \(round)")
            #expect(bulk.allHeights == single.allHeights, "round \(round)")
            #expect(bulk.contentOffset == single.contentOffset, "round \(round): the anchor moves as with one row at a time")
            #expect(try bulk.numberOfRows(inSection: section) == rows + new.count)
            let topNow = try #require(bulk.index(ofID: top.id))
            #expect(try bulk.offset(ofItem: topNow) - bulk.contentOffset == topScreenY, "round \(round): the top item stays put")
            for _ in 0..<10 {
                let i = rng.int(0...bulk.itemCount - 1)
                #expect(try bulk.offset(ofItem: i) == single.offset(ofItem: i))
            }
            // Measuring afterwards gives both the same heights.
            try bulk.measureAll()
            try single.measureAll()
            #expect(bulk.allHeights == single.allHeights, "round \(round), measured")
            #expect(bulk.contentOffset == single.contentOffset, "round \(round), measured")
            #expect(bulk.unmeasuredCount == 0)
        }
    }

    /// A batch of several operations (the general plan) inserting a large section and a run of
    /// rows: ids in the model's order, the top item where it was on screen, the new items at
    /// their kind's estimate.
    @Test(arguments: [61 as UInt64, 62, 63])
    func plannedBatchInsertsRunsInOrder(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let e = try makeEngine([ListSection(rows: Rows.uniform(600, height: 18, prefix: "a")),
                                ListSection(header: Rows.fixed("h1", 30), rows: Rows.uniform(500, height: 25, prefix: "b"))], viewport: 500)
        try e.measureAll()
        var model: [[String]] = [(0..<600).map { "a\($0)" }, ["h1"] + (0..<500).map { "b\($0)" }]
        var next = 0
        for round in 0..<6 {
            e.scroll(to: Double(rng.int(0...30_000)) + 0.25)
            let top = try e.item(at: e.item(atY: e.contentOffset)!)
            let topScreenY = try e.offset(ofItem: top.index) - e.contentOffset
            let sectionAt = rng.int(0...model.count)
            let section = ListSection(header: Rows.fixed("sh\(round)", 40),
                                      rows: (0..<rng.pick([1, 700, 1_500])).map { _ in next += 1; return Rows.fixed("s\(next)", 20) })
            let target = rng.int(0..<model.count)   // a section before the update, not the new one
            let finalTarget = target >= sectionAt ? target + 1 : target
            let firstRow = model[target].first.map { $0.hasPrefix("h") || $0.hasPrefix("sh") } == true ? 1 : 0
            let rowsThere = model[target].count - firstRow
            let at = rng.int(0...rowsThere)
            let rows = (0..<rng.pick([2, 600])).map { _ in next += 1; return Rows.fixed("n\(next)", 15) }
            try e.performBatchUpdates { batch in
                batch.insertSection(section, at: sectionAt)
                batch.insert(rows, at: path(finalTarget, at))
            }
            model[target].insert(contentsOf: rows.map(\.id), at: firstRow + at)
            model.insert([section.header!.id] + section.rows.map(\.id), at: sectionAt)
            #expect(BatchRuleTests.ids(e) == model.flatMap { $0 }, "round \(round)")
            let topNow = try #require(e.index(ofID: top.id))
            #expect(try e.offset(ofItem: topNow) - e.contentOffset == topScreenY, "round \(round): the top item stays put")
            let newRow = try #require(e.index(ofID: rows[0].id))
            #expect(try e.height(ofItem: newRow) == e.height(ofItem: e.index(ofID: section.rows[0].id)!), "new rows count with the row estimate")
            #expect(e.unmeasuredCount == 1 + section.rows.count + rows.count)
            try e.measureAll()
        }
    }

    @Test func bulkInsertWithDuplicateIDsThrowsTheSameErrorsAndChangesNothing() throws {
        let e = try makeEngine([ListSection(rows: BatchRuleTests.letters("abcde")), ListSection(rows: BatchRuleTests.letters("fg"))])
        let fresh = (0..<600).map { Rows.fixed("x\($0)", 10) }
        let before = BatchRuleTests.ids(e)
        // Given twice in the batch: the first and the second position (after the update).
        var twice = fresh
        twice[450] = twice[7]
        #expect(throws: ListError.duplicateID("x7", path(0, 2 + 7), path(0, 2 + 450))) {
            try e.performBatchUpdates { $0.insert(twice, at: path(0, 2)) }
        }
        // Already in the list, before the insert position, after it (shifted by the insert),
        // and in another section.
        var withA = fresh
        withA[300] = Rows.fixed("a", 1)
        #expect(throws: ListError.duplicateID("a", path(0, 0), path(0, 302))) {
            try e.performBatchUpdates { $0.insert(withA, at: path(0, 2)) }
        }
        var withE = fresh
        withE[5] = Rows.fixed("e", 1)
        #expect(throws: ListError.duplicateID("e", path(0, 7), path(0, 604))) {
            try e.performBatchUpdates { $0.insert(withE, at: path(0, 2)) }
        }
        var withG = fresh
        withG[599] = Rows.fixed("g", 1)
        #expect(throws: ListError.duplicateID("g", path(0, 600), path(1, 1))) {
            try e.performBatchUpdates { $0.insert(withG, at: path(0, 1)) }
        }
        // The first problem in row order is named.
        var both = fresh
        both[100] = Rows.fixed("b", 1)
        both[400] = both[50]
        #expect(throws: ListError.duplicateID("b", path(0, 100), path(0, 601))) {
            try e.performBatchUpdates { $0.insert(both, at: path(0, 0)) }
        }
        #expect(BatchRuleTests.ids(e) == before, "a rejected batch changes nothing")
        for id in ["x0", "x7", "x450", "x599"] { #expect(!e.contains(id: id), "\(id) is not left in the id set") }
        // The ids of the rejected batches are free again.
        try e.performBatchUpdates { $0.insert(fresh, at: path(1, 2)) }
        #expect(BatchRuleTests.ids(e) == before + fresh.map(\.id))
    }
}
