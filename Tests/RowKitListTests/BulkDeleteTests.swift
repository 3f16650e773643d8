import Testing
@testable import RowKitList

/// Removing and inserting many items in one walk over each column (`IndexRuns`, the columns'
/// `remove(_:)` and `insert(_:at:)`), and batches deleting, moving and reloading many rows:
/// against plain arrays, the reference model, and the same deletes made one row at a time.
@Suite struct BulkDeleteTests {
    /// Ascending distinct indices below `count`: a few, a share, or contiguous runs.
    static func indices(below count: Int, _ rng: inout SeededRandom) -> [Int] {
        guard count > 0 else { return [] }
        switch rng.int(0..<4) {
        case 0: return (0..<rng.int(0...3)).map { _ in rng.int(0..<count) }.sorted().reduce(into: []) { if $0.last != $1 { $0.append($1) } }
        case 1:
            let share = rng.pick([0.01, 0.3, 0.9])
            return (0..<count).filter { _ in rng.chance(share) }
        default:
            var result: [Int] = []
            var at = rng.int(0..<count)
            for _ in 0..<rng.int(1...4) where at < count {
                let end = min(count, at + rng.int(1...1_500))
                result.append(contentsOf: at..<end)
                at = end + rng.int(1...300)
            }
            return result
        }
    }

    /// Where each run of inserted items goes (positions in the list before) and how many:
    /// final indices of `inserted` new items among `count + inserted`.
    static func finalIndices(count: Int, inserted: Int, _ rng: inout SeededRandom) -> [Int] {
        let total = count + inserted
        if rng.chance(0.5) {
            let start = rng.int(0...count)
            return Array(start..<(start + inserted))
        }
        var chosen = Set<Int>()
        while chosen.count < inserted { chosen.insert(rng.int(0..<total)) }
        return chosen.sorted()
    }

    @Test(arguments: [71 as UInt64, 72, 73])
    func indexRunsMapAsOneChangeAtATime(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<40 {
            let count = rng.int(0...3_000)
            let removed = Self.indices(below: count, &rng)
            let runs = IndexRuns(ascending: removed)
            #expect(runs.total == removed.count)
            // One entry per removal, from the bottom up, as batches recorded them.
            var single = ChangeLog(), bulk = ChangeLog()
            let s1 = single.openSnapshot(), s2 = bulk.openSnapshot()
            for flat in removed.reversed() { single.record(.remove(at: flat)) }
            bulk.record(.removeRuns(runs))
            let removedSet = Set(removed)
            var survivor = 0
            for i in 0..<count {
                let expected = removedSet.contains(i) ? nil : survivor
                if expected != nil { survivor += 1 }
                #expect(runs.indexAfterRemoving(i) == expected)
                #expect(single.currentIndex(of: i, since: s1) == expected)
                #expect(bulk.currentIndex(of: i, since: s2) == expected)
                #expect((runs.run(containing: i) != nil) == removedSet.contains(i))
            }
            // Insertions: final indices ascending, one entry per item as before.
            let remaining = count - removed.count
            let finals = Self.finalIndices(count: remaining, inserted: rng.int(0...400), &rng)
            let insertRuns = IndexRuns(ascending: finals)
            var single2 = ChangeLog(), bulk2 = ChangeLog()
            let t1 = single2.openSnapshot(), t2 = bulk2.openSnapshot()
            for flat in finals { single2.record(.insert(at: flat, count: 1)) }
            bulk2.record(.insertRuns(insertRuns))
            #expect(insertRuns.gaps.reduce(0) { $0 + $1.count } == finals.count)
            for i in 0..<remaining {
                let expected = single2.currentIndex(of: i, since: t1)
                #expect(insertRuns.indexAfterInserting(i) == expected)
                #expect(bulk2.currentIndex(of: i, since: t2) == expected)
            }
        }
    }

    /// Applies removal `indices` and insertion (`finals`, `new`) to a plain array.
    static func model<T>(_ array: [T], removing indices: [Int]) -> [T] {
        let gone = Set(indices)
        return array.indices.filter { !gone.contains($0) }.map { array[$0] }
    }

    static func model<T>(_ array: [T], inserting new: [T], at finals: [Int]) -> [T] {
        var result: [T] = []
        var old = 0, k = 0
        for i in 0..<(array.count + new.count) {
            if k < finals.count && finals[k] == i { result.append(new[k]); k += 1 } else { result.append(array[old]); old += 1 }
        }
        return result
    }

    @Test(arguments: [81 as UInt64, 82, 83])
    func columnsRemoveAndInsertManyAtOnce(seed: UInt64) {
        final class Token {}
        var rng = SeededRandom(seed: seed)
        let generation: UInt32 = 2
        var next = 0
        func record(_ rng: inout SeededRandom) -> ItemRecord {
            next += 1
            let measured = rng.chance(0.3)
            return ItemRecord(kind: .row, serial: UInt32(next), form: measured || rng.chance(0.2) ? Token() : nil,
                              generation: measured ? generation : 0, selected: rng.chance(0.1))
        }
        // Large enough that a few changes go one at a time (fewer than blocks / 16).
        let start = (0..<rng.pick([0, 300, 30_000])).map { _ in record(&rng) }
        var array = BlockedArray(start.map { Int($0.serial) })
        var store = ItemStore(start, generation: generation)
        var index = HeightIndex(heights: start.map { Double($0.serial % 97) / 4 })
        var modelRecords = start
        var modelHeights = NaiveHeights(units: start.map { Units.of(Double($0.serial % 97) / 4) })
        for step in 0..<60 {
            if rng.chance(0.5) {
                let removed = Self.indices(below: modelRecords.count, &rng)
                let runs = IndexRuns(ascending: removed)
                let expectedRecords = removed.map { modelRecords[$0] }
                #expect(array.remove(runs) == expectedRecords.map { Int($0.serial) })
                #expect(store.remove(runs).map(\.serial) == expectedRecords.map(\.serial))
                #expect(index.remove(runs) == removed.map { Units.px(modelHeights.units[$0]) })
                modelRecords = Self.model(modelRecords, removing: removed)
                modelHeights.units = Self.model(modelHeights.units, removing: removed)
            } else {
                let new = (0..<rng.pick([1, 3, 200, 2_000])).map { _ in record(&rng) }
                let finals = Self.finalIndices(count: modelRecords.count, inserted: new.count, &rng)
                let gaps = IndexRuns(ascending: finals).gaps
                let heights = new.map { Double($0.serial % 89) / 4 }
                array.insert(new.map { Int($0.serial) }, at: gaps)
                store.insert(new, at: gaps)
                index.insert(heights, at: gaps)
                modelRecords = Self.model(modelRecords, inserting: new, at: finals)
                modelHeights.units = Self.model(modelHeights.units, inserting: heights.map(Units.of), at: finals)
            }
            #expect(array.elements == modelRecords.map { Int($0.serial) }, "step \(step)")
            #expect(array.blockList.allSatisfy { !$0.isEmpty && $0.count <= BlockedArray<Int>.maximumBlock })
            #expect(store.blocks.allSatisfy { !$0.items.isEmpty && $0.items.count <= ItemStore.maximumBlock })
            #expect(store.countsAreConsistent, "step \(step)")
            ItemStoreTests.check(store, modelRecords, generation: generation, rng: &rng)
            HeightIndexTests.check(index, modelHeights, rng: &rng, full: step % 10 == 0)
            for _ in 0..<20 where !modelRecords.isEmpty {
                let i = rng.int(0..<modelRecords.count)
                #expect(array[i] == Int(modelRecords[i].serial))
            }
        }
    }

    /// Large random batches (runs or shares of each section's rows deleted, moved and reloaded,
    /// sections deleted and moved, many rows inserted) agree with the reference model, and the
    /// item at the top of the viewport keeps its screen position.
    @Test(arguments: [91 as UInt64, 92, 93, 94, 95, 96])
    func bulkBatchesMatchTheReferenceModel(seed: UInt64) throws {
        var gen = EnginePropertyTests.Generator(rng: SeededRandom(seed: seed))
        let sections = (0..<gen.rng.int(1...4)).map { _ in gen.section(rows: gen.rng.int(0...1_200)) }
        let e = try FakeEngine(sections: sections, measurer: FakeMeasurer(), width: 320, defaultEstimate: 30)
        let m = ReferenceModel(sections: sections, width: 320, defaultEstimate: 30)
        let anchoring = ScrollAnchoring.allCases[Int(seed % 3)]
        e.scrollAnchoring = anchoring
        m.anchoring = anchoring
        e.viewportHeight = 500
        m.viewport = 500
        if seed % 2 == 1 { e.allowsMultipleSelection = true; m.allowsMultipleSelection = true }
        for step in 0..<30 {
            // Scrolled somewhere, some rows selected and one highlighted, sometimes measured.
            let o = Double(gen.rng.int(0...max(0, Int(m.contentHeight)))) + 0.25
            e.scroll(to: o)
            m.scroll(to: o)
            for _ in 0..<gen.rng.int(0...6) where m.sections.contains(where: { $0.rowCount > 0 }) {
                let s = gen.rng.pick(m.sections.indices.filter { m.sections[$0].rowCount > 0 })
                let p = ListIndexPath(section: s, row: gen.rng.int(0..<m.sections[s].rowCount))
                let i = m.flatIndex(p)
                if gen.rng.chance(0.8) {
                    try e.select(p)
                    if !m.allowsMultipleSelection { for k in m.items.indices { m.items[k].selected = false } }
                    m.items[i].selected = true
                } else {
                    try e.highlight(p)
                    m.highlighted = m.items[i].id
                }
            }
            if gen.rng.chance(0.2) {
                try e.measureAll()
                m.measureAll()
            }
            let before = try EnginePropertyTests.anchor(of: e)
            let (ops, expected) = EnginePropertyTests.batch(&gen, m, bulk: true)
            try EnginePropertyTests.apply(ops, to: e)
            m.perform(ops)
            var start = 0
            var got: [[String]] = []
            for s in m.sections { got.append(m.items[start..<(start + s.itemCount)].map(\.id)); start += s.itemCount }
            #expect(got == expected, "seed \(seed) step \(step): the model's result is not what the batch means")
            let context = "seed \(seed) step \(step) after \(ops.count) operations"
            #expect(e.state.withLock { $0.items.countsAreConsistent && $0.idSet.count == $0.items.count }, "\(context): counts")
            guard try EnginePropertyTests.compare(e, m, context) else { return }
            guard try EnginePropertyTests.checkAnchor(before, e, m, context) else { return }
            for id in m.items.map(\.id).prefix(50) { #expect(e.contains(id: id)) }
        }
    }

    /// One batch deleting many rows (runs and scattered ones, the top item among them or not)
    /// leaves the list as the same rows deleted one batch each, bottom up: ids, heights,
    /// offsets, selection, highlight and the anchored offset.
    @Test(arguments: [101 as UInt64, 102, 103, 104])
    func oneBatchOfDeletesMatchesOneRowBatches(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        var gen = EnginePropertyTests.Generator(rng: SeededRandom(seed: seed &+ 1000))
        let sections = [gen.section(rows: 1_500), gen.section(rows: 900), gen.section(rows: 2_000)]
        let bulk = try makeEngine(sections, viewport: 600)
        let single = try makeEngine(sections, viewport: 600)
        bulk.allowsMultipleSelection = true
        single.allowsMultipleSelection = true
        if seed % 2 == 0 {
            try bulk.measureAll()
            try single.measureAll()
        }
        for round in 0..<5 {
            let y = Double(rng.int(0...Int(bulk.contentHeight))) + 0.5
            bulk.scroll(to: y)
            single.scroll(to: y)
            for _ in 0..<20 {
                let s = rng.int(0..<3)
                let rows = try bulk.numberOfRows(inSection: s)
                guard rows > 0 else { continue }
                let p = path(s, rng.int(0..<rows))
                try bulk.select(p)
                try single.select(p)
            }
            var paths: [ListIndexPath] = []
            for s in 0..<3 {
                let rows = try bulk.numberOfRows(inSection: s)
                paths += Self.indices(below: rows, &rng).map { path(s, $0) }
            }
            // The row at the top of the viewport is deleted every other round.
            let topIndex = try #require(bulk.item(atY: bulk.contentOffset))
            let top = try bulk.item(at: topIndex)
            if round % 2 == 0, top.kind == .row, !paths.contains(top.indexPath) { paths.append(top.indexPath) }
            let highlighted = paths.isEmpty || rng.chance(0.5) ? nil : rng.pick(paths)
            try bulk.highlight(highlighted)
            try single.highlight(highlighted)
            try bulk.performBatchUpdates { batch in for p in paths.shuffled(using: &rng) { batch.delete(at: p) } }
            for p in paths.sorted(by: >) { try single.performBatchUpdates { $0.delete(at: p) } }
            let context = "seed \(seed) round \(round): \(paths.count) deletes"
            #expect(BatchRuleTests.ids(bulk) == BatchRuleTests.ids(single), "\(context)")
            #expect(bulk.allHeights == single.allHeights, "\(context)")
            #expect(bulk.contentOffset == single.contentOffset, "\(context): the anchor is replaced as one row at a time would")
            #expect(bulk.selectedIndexPaths == single.selectedIndexPaths, "\(context)")
            #expect(bulk.selectedIDs == single.selectedIDs, "\(context)")
            #expect(try (0..<bulk.itemCount).allSatisfy { try bulk.state(ofItem: $0) == single.state(ofItem: $0) }, "\(context): highlight")
            for _ in 0..<20 where bulk.itemCount > 0 {
                let i = rng.int(0..<bulk.itemCount)
                #expect(try bulk.offset(ofItem: i) == single.offset(ofItem: i))
            }
            #expect(bulk.unmeasuredCount == single.unmeasuredCount)
            #expect(bulk.state.withLock { $0.idSet.count == $0.items.count && $0.items.countsAreConsistent })
            // Measuring afterwards gives both the same heights and offset.
            try bulk.measureAll()
            try single.measureAll()
            #expect(bulk.allHeights == single.allHeights, "\(context), measured")
            #expect(bulk.contentOffset == single.contentOffset, "\(context), measured")
        }
    }

    /// A reload giving a row a new id that an inserted row also has: the error names the
    /// reloaded row where it ends up (after the batch's deletes, moves and inserts) and the
    /// inserted one, in index-path order.
    @Test(arguments: [111 as UInt64, 112, 113])
    func renamedRowsAreNamedWhereTheyEndUp(seed: UInt64) throws {
        var gen = EnginePropertyTests.Generator(rng: SeededRandom(seed: seed))
        let sections = (0..<3).map { _ in gen.section(rows: gen.rng.int(50...600)) }
        var checked = 0
        for _ in 0..<40 where checked < 8 {
            let e = try FakeEngine(sections: sections, measurer: FakeMeasurer(), width: 320)
            let m = ReferenceModel(sections: sections, width: 320, defaultEstimate: 44)
            let (ops, _) = EnginePropertyTests.batch(&gen, m, bulk: true)
            let renamed = ops.indices.filter { k in
                if case .reload(let p, let row?) = ops[k] { return row.id != m.items[m.flatIndex(p)].id }
                return false
            }
            let inserts = ops.indices.filter { if case .insert = ops[$0] { return true }; return false }
            guard let r = renamed.first.map({ _ in gen.rng.pick(renamed) }), let i = inserts.first.map({ _ in gen.rng.pick(inserts) }),
                  case .reload(_, let newRow?) = ops[r], case .insert(var row, let at) = ops[i] else { continue }
            row.id = newRow.id
            var clashing = ops
            clashing[i] = .insert(row, at)
            let before = BatchRuleTests.ids(e)
            do {
                try EnginePropertyTests.apply(clashing, to: e)
                Issue.record("seed \(seed): a batch giving \(newRow.id) to two rows was accepted")
                return
            } catch let error {
                #expect(BatchRuleTests.ids(e) == before)
                // Where the reloaded row ends up: apply the batch as it was.
                try EnginePropertyTests.apply(ops, to: e)
                let final = try e.item(at: try #require(e.index(ofID: newRow.id))).indexPath
                #expect(error as? ListError == .duplicateID(newRow.id, min(final, at), max(final, at)), "seed \(seed)")
            }
            checked += 1
        }
        #expect(checked > 0)
    }

    /// Dropping the drawing forms of many ids at once (more ids than forms: one pass over the
    /// forms) drops exactly theirs.
    @Test func drawingFormsOfManyIDsAreDroppedAtOnce() {
        var cache = DrawingFormCache<Int, Int>(capacity: 100)
        for id in 0..<50 { cache.insert(id * 10, for: id) }
        cache.remove(Array(stride(from: 1, to: 5_000, by: 2)))   // the odd ids, and many never drawn
        #expect(cache.count == 25)
        for id in 0..<50 { #expect((cache.form(for: id) != nil) == (id % 2 == 0)) }
        cache.remove([0, 2, 4])   // fewer ids than forms: one by one
        #expect(cache.count == 22)
        #expect(cache.form(for: 2) == nil && cache.form(for: 6) == 60)
    }

    /// A rejected large batch changes nothing and names the same problem as before: a row
    /// deleted twice, a row out of range, an id inserted that the list keeps.
    @Test func rejectedBulkBatchesChangeNothing() throws {
        let e = try makeEngine([ListSection(rows: Rows.uniform(3_000, height: 20, prefix: "a")),
                                ListSection(rows: Rows.uniform(500, height: 20, prefix: "b"))])
        e.scroll(to: 10_000)
        let ids = BatchRuleTests.ids(e)
        let offset = e.contentOffset
        #expect(throws: ListError.inconsistentBatch("delete [0, 1700]: row [0, 1700] is already deleted, reloaded or moved in this batch")) {
            try e.performBatchUpdates { batch in
                for r in 0..<2_000 { batch.delete(at: path(0, r)) }
                batch.delete(at: path(0, 1_700))
            }
        }
        #expect(throws: ListError.indexOutOfRange("delete [1, 500]: row [1, 500] (section 1 has 500 rows before the update)")) {
            try e.performBatchUpdates { batch in for r in 0...500 { batch.delete(at: path(1, r)) } }
        }
        #expect(throws: ListError.inconsistentBatch("move [1, 3] to [0, 0]: section 1 is deleted or reloaded in this batch")) {
            try e.performBatchUpdates { batch in
                for r in 0..<2_000 { batch.delete(at: path(0, r)) }
                batch.deleteSection(at: 1)
                batch.move(from: path(1, 3), to: path(0, 0))
            }
        }
        // "a2999" stays (row 2,999 is not deleted; after the update it is row 1,000): the
        // insert would hold it twice.
        #expect(throws: ListError.duplicateID("a2999", path(0, 0), path(0, 1_000))) {
            try e.performBatchUpdates { batch in
                for r in 0..<2_000 { batch.delete(at: path(0, r)) }
                batch.insert([Rows.fixed("a2999", 5)], at: path(0, 0))
            }
        }
        // Ids of deleted rows can come back in the same batch.
        #expect(BatchRuleTests.ids(e) == ids)
        #expect(e.contentOffset == offset)
        try e.performBatchUpdates { batch in
            for r in 0..<2_000 { batch.delete(at: path(0, r)) }
            batch.insert([Rows.fixed("a5", 5)], at: path(0, 0))
        }
        #expect(BatchRuleTests.ids(e) == ["a5"] + ids[2_000...])
        #expect(e.contains(id: "a5") && !e.contains(id: "a6") && e.contains(id: "a2000"))
    }
}
