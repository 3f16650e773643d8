import Testing
@testable import RowKitList
import RowKitCells

@Suite struct SelectionTests {
    static func engine(multiple: Bool = false) throws -> FakeEngine {
        let sections = [
            ListSection(id: "s0", header: Rows.fixed("h0", 10, template: "hdr"), rows: (0..<5).map { Rows.fixed("a\($0)", 20) }),
            ListSection(id: "s1", rows: (0..<5).map { Rows.fixed("b\($0)", 20) }),
        ]
        let e = try makeEngine(sections, viewport: 1_000)
        e.allowsMultipleSelection = multiple
        return e
    }

    static func p(_ s: Int, _ r: Int) -> IndexPath { IndexPath(section: s, row: r) }

    @Test func singleSelectionReplaces() throws {
        let e = try Self.engine()
        #expect(e.selectedIndexPaths.isEmpty)
        try e.select(Self.p(0, 1))
        try e.select(Self.p(1, 3))
        #expect(e.selectedIndexPaths == [Self.p(1, 3)])
        #expect(e.state(ofItem: try e.index(of: Self.p(1, 3))) == .selected)
        #expect(e.state(ofItem: try e.index(of: Self.p(0, 1))) == .normal)
        try e.select(Self.p(1, 3))                         // selecting again keeps it
        #expect(e.selectedIndexPaths == [Self.p(1, 3)])
        try e.deselect(Self.p(1, 3))
        #expect(e.selectedIndexPaths.isEmpty)
        try e.deselect(Self.p(0, 0))                       // deselecting an unselected row: no-op
        #expect(e.selectedIndexPaths.isEmpty)
    }

    @Test func multipleSelectionAccumulatesInListOrder() throws {
        let e = try Self.engine(multiple: true)
        try e.select(Self.p(1, 4))
        try e.select(Self.p(0, 0))
        try e.select(Self.p(0, 3))
        #expect(e.selectedIndexPaths == [Self.p(0, 0), Self.p(0, 3), Self.p(1, 4)])
        try e.deselect(Self.p(0, 3))
        #expect(e.selectedIndexPaths == [Self.p(0, 0), Self.p(1, 4)])
        e.allowsMultipleSelection = false
        try e.select(Self.p(1, 0))
        #expect(e.selectedIndexPaths == [Self.p(1, 0)])
    }

    @Test func highlightWinsOverSelectionAndClears() throws {
        let e = try Self.engine()
        try e.select(Self.p(0, 2))
        try e.highlight(Self.p(0, 2))
        let i = try e.index(of: Self.p(0, 2))
        #expect(e.state(ofItem: i) == .highlighted)
        try e.highlight(Self.p(0, 3))                      // one highlighted row at a time
        #expect(e.state(ofItem: i) == .selected)
        #expect(e.state(ofItem: i + 1) == .highlighted)
        try e.highlight(nil)
        #expect(e.state(ofItem: i + 1) == .normal)
        #expect(e.state(ofItem: 0) == .normal)             // the header
    }

    @Test func selectionFollowsTheRowThroughUpdates() throws {
        let e = try Self.engine(multiple: true)
        try e.select(Self.p(0, 2))                         // a2
        try e.select(Self.p(1, 1))                         // b1
        try e.highlight(Self.p(1, 1))
        try e.performBatchUpdates { $0.insert([Rows.fixed("x", 5), Rows.fixed("y", 5)], at: Self.p(0, 0)) }
        #expect(e.selectedIndexPaths == [Self.p(0, 4), Self.p(1, 1)])
        try e.performBatchUpdates { $0.insertSection(ListSection(id: "new", rows: [Rows.fixed("z", 5)]), at: 0) }
        #expect(e.selectedIndexPaths == [Self.p(1, 4), Self.p(2, 1)])
        // Moves: across sections, and within one.
        try e.performBatchUpdates { $0.move(from: Self.p(1, 4), to: Self.p(2, 5)) }
        #expect(e.selectedIndexPaths == [Self.p(2, 1), Self.p(2, 5)])
        try e.performBatchUpdates { $0.move(from: Self.p(2, 1), to: Self.p(0, 0)) }
        #expect(e.selectedIndexPaths == [Self.p(0, 0), Self.p(2, 4)])
        #expect(e.state(ofItem: try e.index(of: Self.p(0, 0))) == .highlighted)
        // A reload with the same id keeps the selection; with a new id drops it.
        try e.performBatchUpdates { $0.reload(at: Self.p(0, 0), with: Rows.fixed("b1", 99)) }
        #expect(e.selectedIndexPaths == [Self.p(0, 0), Self.p(2, 4)])
        #expect(e.state(ofItem: 0) == .highlighted)
        try e.performBatchUpdates { $0.reload(at: Self.p(2, 4), with: Rows.fixed("other", 1)) }
        #expect(e.selectedIndexPaths == [Self.p(0, 0)])
        // Deleting the row drops its selection and highlight.
        try e.performBatchUpdates { $0.delete(at: Self.p(0, 0)) }
        #expect(e.selectedIndexPaths.isEmpty)
        #expect((0..<e.itemCount).allSatisfy { e.state(ofItem: $0) == .normal })
        // A row inserted later with the same id is not selected.
        try e.performBatchUpdates { $0.insert([Rows.fixed("b1", 3)], at: Self.p(0, 0)) }
        #expect(e.selectedIndexPaths.isEmpty)
    }

    @Test func deletingASectionDropsItsSelection() throws {
        let e = try Self.engine(multiple: true)
        try e.select(Self.p(0, 1))
        try e.select(Self.p(1, 2))
        try e.performBatchUpdates { $0.deleteSection(at: 0) }
        #expect(e.selectedIndexPaths == [Self.p(0, 2)])
    }
}
