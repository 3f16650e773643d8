import Testing
@testable import RowKitList

/// UIKit's index rule for batch updates, worked examples, section moves and reloads, reloading
/// everything, and batches rejected whole before anything changes.
@Suite struct BatchRuleTests {
    static func ids(_ e: FakeEngine) -> [String] { (0..<e.itemCount).map { try! e.item(at: $0).id } }

    static func letters(_ names: String, height: Double = 20) -> [TestRow] { names.map { Rows.fixed(String($0), height) } }

    @Test func theWorkedExampleOfTheDocumentation() throws {
        // Before: a b c d e. Deletes and the move's source are before the update; the insert and
        // the move's destination after. After: x e a c.
        let e = try makeEngine([ListSection(rows: Self.letters("abcde"))])
        try e.performBatchUpdates { batch in
            batch.delete(at: path(0, 1))
            batch.delete(at: path(0, 3))
            batch.insert([Rows.fixed("x", 20)], at: path(0, 0))
            batch.move(from: path(0, 4), to: path(0, 1))
        }
        #expect(Self.ids(e) == ["x", "e", "a", "c"])
    }

    @Test func theOrderOfTheCallsDoesNotMatter() throws {
        var results = Set<[String]>()
        let operations: [(inout ListBatch<TestRow>) -> Void] = [
            { $0.delete(at: path(0, 1)) },
            { $0.delete(at: path(1, 0)) },
            { $0.insert([Rows.fixed("x", 20)], at: path(0, 0)) },
            { $0.insert([Rows.fixed("y", 20)], at: path(1, 2)) },
            { $0.move(from: path(0, 4), to: path(1, 0)) },
            { $0.reload(at: path(0, 2), with: Rows.fixed("C", 20)) },
            { $0.move(from: path(1, 2), to: path(0, 1)) },
        ]
        var rng = SeededRandom(seed: 77)
        for _ in 0..<20 {
            let e = try makeEngine([ListSection(rows: Self.letters("abcde")), ListSection(rows: Self.letters("fgh"))])
            let order = operations.shuffled(using: &rng)
            try e.performBatchUpdates { batch in for operation in order { operation(&batch) } }
            results.insert(Self.ids(e))
        }
        // Section 0: a b c d e − b, e moved out, c reloaded as C, x at 0, h in at 1 → x h a C d.
        // Section 1: f g h − f, h moved out, e in at 0, y at 2 → e g y.
        #expect(results == [["x", "h", "a", "C", "d", "e", "g", "y"]])
    }

    @Test func sectionsMoveWithTheirItemsAndReload() throws {
        let e = try makeEngine([
            ListSection(header: Rows.fixed("H0", 10, template: "hdr"), rows: Self.letters("ab")),
            ListSection(header: Rows.fixed("H1", 10, template: "hdr"), rows: Self.letters("cde"), footer: Rows.fixed("F1", 5, template: "ftr")),
            ListSection(rows: Self.letters("fg")),
        ], viewport: 1_000)
        e.allowsMultipleSelection = true
        try e.measureAll()
        try e.select(path(1, 1))
        try e.performBatchUpdates { $0.moveSection(from: 1, to: 0) }
        #expect(Self.ids(e) == ["H1", "c", "d", "e", "F1", "H0", "a", "b", "f", "g"])
        #expect(e.unmeasuredCount == 0, "moved items keep their heights and forms")
        #expect(e.selectedIDs == ["d"])
        // Section moves and row operations in one batch, each index in its own frame.
        try e.performBatchUpdates { batch in
            batch.moveSection(from: 2, to: 0)                  // f g to the top
            batch.delete(at: path(0, 0))                         // c (section 0 before)
            batch.insert([Rows.fixed("z", 1)], at: path(0, 2))   // into f g (section 0 after)
            batch.move(from: path(1, 1), to: path(1, 0))         // b (section 1 before) to section 1 after
        }
        #expect(Self.ids(e) == ["f", "g", "z", "H1", "b", "d", "e", "F1", "H0", "a"])
        // Reloading a section asks for its items again (same ids); reloading with content replaces it.
        try e.performBatchUpdates { $0.reloadSection(at: 1) }
        #expect(try (3..<8).allSatisfy { try !e.isMeasured($0) })
        #expect(e.selectedIDs == ["d"], "a reload keeps the ids, and so the selection")
        try e.performBatchUpdates { $0.reloadSection(at: 2, with: ListSection(rows: Self.letters("xyw"), footer: Rows.fixed("F9", 1))) }
        #expect(Self.ids(e) == ["f", "g", "z", "H1", "b", "d", "e", "F1", "x", "y", "w", "F9"])
        #expect(try e.numberOfRows(inSection: 2) == 3)
    }

    @Test func reloadDataReplacesEverythingAndKeepsWhatItCan() throws {
        let e = try makeEngine([ListSection(rows: Rows.uniform(100, height: 30))], viewport: 300, defaultEstimate: 44)
        try e.measureAll()
        e.scroll(to: 30 * 50 + 7)                           // p50 at −7
        let new = [ListSection(rows: [Rows.fixed("n0", 10)] + Rows.uniform(100, height: 12))]
        try e.reloadData(sections: new)
        // Surviving ids keep their old heights as estimates, so the top row stays put.
        #expect(try e.item(at: e.item(atY: e.contentOffset)!).id == "p50")
        #expect(try e.offset(ofItem: 51) - e.contentOffset == -7)
        #expect(e.unmeasuredCount == 101)
        #expect(try e.height(ofItem: 0) == 30, "new ids count with the estimate of their kind")
        try e.measureAll()
        #expect(try e.offset(ofItem: 51) - e.contentOffset == -7)
        #expect(e.contentHeight == 10 + 1_200)
        #expect(throws: ListError.duplicateID("a", path(0, 0), path(0, 1))) {
            try e.reloadData(sections: [ListSection(rows: [Rows.fixed("a", 1), Rows.fixed("a", 2)])])
        }
        #expect(e.itemCount == 101, "a rejected reload changes nothing")
    }

    @Test func inconsistentBatchesAreRejectedBeforeAnyChange() throws {
        let e = try makeEngine([ListSection(rows: Self.letters("abcde")), ListSection(rows: Self.letters("fg"))], viewport: 1_000)
        try e.measureAll()
        let ids = Self.ids(e), heights = e.allHeights
        expectInconsistent("already deleted, reloaded or moved") {
            try e.performBatchUpdates { b in b.delete(at: path(0, 1)); b.delete(at: path(0, 1)) }
        }
        expectInconsistent("already deleted, reloaded or moved") {
            try e.performBatchUpdates { b in b.reload(at: path(0, 2)); b.delete(at: path(0, 2)) }
        }
        expectInconsistent("already deleted, reloaded or moved") {
            try e.performBatchUpdates { b in b.delete(at: path(0, 3)); b.move(from: path(0, 3), to: path(1, 0)) }
        }
        expectInconsistent("another row is inserted or moved to [0, 1]") {
            try e.performBatchUpdates { b in b.insert([Rows.fixed("x", 1)], at: path(0, 1)); b.move(from: path(1, 0), to: path(0, 1)) }
        }
        expectInconsistent("section 0 is deleted or reloaded") {
            try e.performBatchUpdates { b in b.deleteSection(at: 0); b.delete(at: path(0, 2)) }
        }
        expectInconsistent("section 1 is inserted or reloaded") {
            try e.performBatchUpdates { b in b.insertSection(ListSection(rows: []), at: 1); b.insert([Rows.fixed("x", 1)], at: path(1, 0)) }
        }
        expectInconsistent("is already deleted, reloaded or moved") {
            try e.performBatchUpdates { b in b.deleteSection(at: 1); b.moveSection(from: 1, to: 0) }
        }
        expectInconsistent("another section is inserted or moved to 0") {
            try e.performBatchUpdates { b in b.moveSection(from: 1, to: 0); b.insertSection(ListSection(rows: []), at: 0) }
        }
        expectOutOfRange("an insert past the end of the section after the update") {
            try e.performBatchUpdates { b in b.delete(at: path(0, 0)); b.insert([Rows.fixed("x", 1)], at: path(0, 5)) }
        }
        expectOutOfRange("a section index after the update") {
            try e.performBatchUpdates { b in b.deleteSection(at: 0); b.insertSection(ListSection(rows: []), at: 2) }
        }
        expectOutOfRange("a move to a section that will not exist") {
            try e.performBatchUpdates { b in b.deleteSection(at: 1); b.move(from: path(0, 0), to: path(1, 0)) }
        }
        #expect(Self.ids(e) == ids)
        #expect(e.allHeights == heights)
        #expect(e.unmeasuredCount == 0)
        #expect(e.numberOfSections == 2)
    }
}
