import Foundation
import Testing
@testable import RowKitList

/// Rows pulled from the app: the engine keeps ids, heights and measuring forms, asks the data
/// source only to measure or draw, checks ids, and keeps rows itself only when given them.
@Suite struct DataSourceTests {
    static func rows(_ n: Int, prefix: String = "r") -> [TestRow] {
        (0..<n).map { Rows.text("\(prefix)\($0)", length: ($0 * 7919) % 500) }
    }

    static func engine(_ rows: [TestRow], source: CountingSource, viewport: Double = 400, width: Double = 320,
                       measurer: FakeMeasurer = FakeMeasurer()) throws -> FakeEngine {
        let e = try FakeEngine(sections: [ListSection(rows: rows.map(\.id))], dataSource: source, measurer: measurer, width: width)
        e.viewportHeight = viewport
        e.scrollAnchoring = .keepContentStill
        return e
    }

    @Test func rowsArePulledOnlyToMeasureOrDraw() throws {
        let rows = Self.rows(10_000)
        let source = CountingSource(rows)
        let counter = MeasureCounter()
        let e = try Self.engine(rows, source: source, measurer: FakeMeasurer(counter: counter))
        #expect(source.asked == 0, "making the list asks for no data")
        let visible = try e.visibleItems()
        // Only rows that were (or, counted with estimates, seemed) visible are asked for.
        #expect(source.asked == e.itemCount - e.unmeasuredCount)
        #expect(source.asked >= visible.count && source.asked < 50)
        try e.measureAll()
        #expect(source.asked == 10_000, "every row asked for once")
        #expect(e.allHeights == rows.map { Units.round(FakeMeasurer.height(of: $0, width: 320)) })
        try e.setWidthAndWait(640)
        #expect(source.asked == 10_000, "a width change measures from the kept forms: no data asked for")
        #expect(counter.forms == 10_000)
        #expect(e.allHeights == rows.map { Units.round(FakeMeasurer.height(of: $0, width: 640)) })
        // Drawing asks for the data of the rows drawn, once while they stay cached.
        let drawn = try e.visibleItems()
        for item in drawn { _ = try e.drawingForm(for: item) }
        #expect(source.asked == 10_000 + drawn.count)
        for item in drawn { #expect(try e.drawingForm(for: item) == FakeMeasurer.Drawing(id: item.id, length: rows[Int(item.id.dropFirst())!].length, fixed: nil)) }
        #expect(source.asked == 10_000 + drawn.count, "cached drawing forms are not made again")
        #expect(e.state.withLock { $0.keptRows.isEmpty }, "the engine keeps no row data of its own")
    }

    @Test func theDrawingFormCacheIsBounded() throws {
        let rows = Self.rows(500)
        let e = try Self.engine(rows, source: CountingSource(rows), viewport: 100_000)
        e.drawingCacheCapacity = 16
        let visible = try e.visibleItems()
        #expect(visible.count == 500)
        for item in visible { _ = try e.drawingForm(for: item) }
        #expect(e.cachedDrawingFormCount == 16)
        e.drawingCacheCapacity = 4
        #expect(e.cachedDrawingFormCount == 4)
        e.drawingCacheCapacity = 0
        _ = try e.drawingForm(for: visible[0])
        #expect(e.cachedDrawingFormCount == 0)
    }

    @Test func aReloadAsksForTheRowAgain() throws {
        let rows = Self.rows(20)
        let source = CountingSource(rows)
        let e = try Self.engine(rows, source: source, viewport: 100_000)
        let before = try e.visibleItems()
        let asked = source.asked
        _ = try e.drawingForm(for: before[3])
        // The app changes its data first, then tells the engine.
        source.set(Rows.text("r3", length: 999))
        try e.performBatchUpdates { $0.reload(at: path(0, 3)) }
        #expect(try !e.isMeasured(3))
        let after = try e.visibleItems()
        #expect(after[3].height == Units.round(FakeMeasurer.height(length: 999, fixed: nil, width: 320)))
        #expect(try e.drawingForm(for: after[3]).length == 999, "the cached drawing form was dropped")
        #expect(source.asked == asked + 3)
        // reloadData: every row asked again, heights kept meanwhile (nothing moves).
        let heights = e.allHeights
        e.reloadData()
        #expect(e.allHeights == heights)
        #expect(e.unmeasuredCount == 20)
        try e.measureAll()
        #expect(source.asked == asked + 3 + 20)
    }

    @Test func duplicateIdsAreRejectedWithBothPositions() throws {
        #expect(throws: ListError.duplicateID("b", path(0, 1), path(1, -1))) {
            _ = try FakeEngine(sections: [ListSection(rows: ["a", "b"]), ListSection(header: "b", rows: ["c"])],
                               dataSource: CountingSource([]), measurer: FakeMeasurer(), width: 100)
        }
        #expect(throws: ListError.duplicateID("x", path(0, 0), path(0, 2))) {
            _ = try FakeEngine(sections: [ListSection(rows: [Rows.fixed("x", 1), Rows.fixed("y", 1), Rows.fixed("x", 2)])],
                               measurer: FakeMeasurer(), width: 100)
        }
        let e = try makeEngine([ListSection(rows: Rows.uniform(5, height: 10)), ListSection(rows: Rows.uniform(3, height: 10, prefix: "q"))])
        let ids = (0..<e.itemCount).map { try! e.item(at: $0).id }
        // An id already in the list: its position after the update, and the new one's.
        #expect(throws: ListError.duplicateID("p1", path(0, 0), path(0, 2))) {
            try e.performBatchUpdates { $0.insert([Rows.fixed("p1", 1)], at: path(0, 0)) }
        }
        #expect(throws: ListError.duplicateID("p3", path(0, 2), path(1, 3))) {
            try e.performBatchUpdates { b in b.delete(at: path(0, 0)); b.insert([Rows.fixed("p3", 1)], at: path(1, 3)) }
        }
        // Twice in one batch.
        #expect(throws: ListError.duplicateID("n", path(0, 1), path(1, 0))) {
            try e.performBatchUpdates { b in b.insert([Rows.fixed("n", 1)], at: path(0, 1)); b.insert([Rows.fixed("n", 2)], at: path(1, 0)) }
        }
        #expect(throws: ListError.duplicateID("n", path(0, 0), path(0, 1))) {
            try e.performBatchUpdates { $0.insert([Rows.fixed("n", 1), Rows.fixed("n", 2)], at: path(0, 0)) }
        }
        #expect(throws: ListError.duplicateID("q0", path(0, 2), path(1, 0))) {
            try e.performBatchUpdates { $0.reload(at: path(0, 2), with: Rows.fixed("q0", 1)) }
        }
        #expect(throws: ListError.duplicateID("p4", path(0, 4), path(2, 0))) {
            try e.performBatchUpdates { $0.insertSection(ListSection(rows: [Rows.fixed("p4", 1)]), at: 2) }
        }
        #expect((0..<e.itemCount).map { try! e.item(at: $0).id } == ids, "nothing changed")
        // Deleting an id frees it for an insert in the same batch; a reload may keep its id.
        try e.performBatchUpdates { b in b.delete(at: path(0, 0)); b.insert([Rows.fixed("p0", 7)], at: path(1, 0)) }
        try e.performBatchUpdates { $0.reload(at: path(0, 0), with: Rows.fixed("p1", 3)) }
        try e.performBatchUpdates { b in
            b.reload(at: path(0, 1), with: Rows.fixed("p3", 1))   // swap two ids by reloads
            b.reload(at: path(0, 2), with: Rows.fixed("p2", 1))
        }
        #expect((0..<e.itemCount).map { try! e.item(at: $0).id } == ["p1", "p3", "p2", "p4", "p0", "q0", "q1", "q2"])
    }

    @Test func dataSourceFailuresAreTypedAndNamed() throws {
        let rows = Self.rows(3)
        let source = CountingSource(rows)
        source.failing = ["r1"]
        let e = try Self.engine(rows, source: source, viewport: 1_000)
        #expect(throws: ListError.rowFailed(id: "r1", reason: CountingSource.Missing(id: "r1"))) { try e.visibleItems() }
        source.failing = []
        _ = try e.visibleItems()
        // A source that answers with another row.
        source.set(Rows.text("r9", length: 5), as: "r2")
        try e.performBatchUpdates { $0.reload(at: path(0, 2)) }
        #expect(throws: ListError.dataSourceMismatch(expected: "r2", got: "r9")) { try e.visibleItems() }
        // Ids with no data: an engine given rows has no data source to ask.
        let kept = try makeEngine([ListSection(rows: Rows.uniform(2, height: 10))], viewport: 1_000)
        try kept.performBatchUpdates { $0.insert(ids: ["ghost"], at: path(0, 0)) }
        kept.scroll(to: 0)                                  // (kept still, the new row went above)
        #expect(throws: ListError.missingRowData(id: "ghost")) { try kept.visibleItems() }
        #expect(throws: ListError.missingRowData(id: "ghost")) { try kept.drawingForm(atItem: 0) }
    }

    @Test func keptRowsAndPulledRowsMix() throws {
        // A pulled list may be given a few rows as values (a row typed in and not stored yet).
        let rows = Self.rows(5)
        let source = CountingSource(rows)
        let e = try Self.engine(rows, source: source, viewport: 1_000)
        try e.performBatchUpdates { $0.insert([Rows.fixed("draft", 33)], at: path(0, 5)) }
        _ = try e.visibleItems()
        #expect(try e.height(ofItem: 5) == 33)
        #expect(source.asked == 5, "the kept row was not asked for")
        // Once stored, the app reloads it by id: from then on it is pulled.
        source.set(Rows.fixed("draft", 44))
        try e.performBatchUpdates { $0.reload(at: path(0, 5), withID: "draft") }
        _ = try e.visibleItems()
        #expect(try e.height(ofItem: 5) == 44)
        try e.performBatchUpdates { $0.delete(at: path(0, 5)) }
        #expect(e.state.withLock { $0.keptRows.isEmpty })
    }

    @Test func arrayDataSourceFindsRowsWhereTheyAre() throws {
        let sections = [ListSection(header: Rows.fixed("h", 20, template: "hdr"), rows: Self.rows(300), footer: Rows.fixed("f", 5, template: "ftr")),
                        ListSection(rows: Self.rows(100, prefix: "s"))]
        let source = ListArrayDataSource(sections)
        let e = try FakeEngine(sections: source.idSections, dataSource: source, measurer: FakeMeasurer(), width: 320)
        try e.measureAll()
        let expected = sections.flatMap { s in ReferenceModel.items(of: s).map { Units.round(FakeMeasurer.height(of: $0.1, width: 320)) } }
        #expect(e.allHeights == expected)
        #expect(throws: ListArrayDataSource<TestRow>.RowNotFound.self) {
            try source.row(for: "r5", kind: .row, at: path(0, 6))
        }
    }
}
