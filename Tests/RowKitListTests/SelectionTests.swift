import Testing
@testable import RowKitList

@Suite struct SelectionTests {
    static func engine(multiple: Bool = false) throws -> FakeEngine {
        let sections = [
            ListSection(header: Rows.fixed("h0", 10, template: "hdr"), rows: (0..<5).map { Rows.fixed("a\($0)", 20) }),
            ListSection(rows: (0..<5).map { Rows.fixed("b\($0)", 20) }),
        ]
        let e = try makeEngine(sections, viewport: 1_000)
        e.allowsMultipleSelection = multiple
        return e
    }

    @Test func singleSelectionReplaces() throws {
        let e = try Self.engine()
        #expect(e.selectedIndexPaths.isEmpty)
        try e.select(path(0, 1))
        try e.select(path(1, 3))
        #expect(e.selectedIndexPaths == [path(1, 3)])
        #expect(e.selectedIDs == ["b3"])
        #expect(try e.state(ofItem: try e.index(of: path(1, 3))) == .selected)
        #expect(try e.state(ofItem: try e.index(of: path(0, 1))) == .normal)
        try e.select(path(1, 3))                           // selecting again keeps it
        #expect(e.selectedIndexPaths == [path(1, 3)])
        try e.deselect(path(1, 3))
        #expect(e.selectedIndexPaths.isEmpty)
        try e.deselect(path(0, 0))                         // deselecting an unselected row: no-op
        #expect(e.selectedIndexPaths.isEmpty)
    }

    @Test func multipleSelectionAccumulatesInListOrder() throws {
        let e = try Self.engine(multiple: true)
        try e.select(path(1, 4))
        try e.select(path(0, 0))
        try e.select(path(0, 3))
        #expect(e.selectedIndexPaths == [path(0, 0), path(0, 3), path(1, 4)])
        try e.deselect(path(0, 3))
        #expect(e.selectedIndexPaths == [path(0, 0), path(1, 4)])
        e.allowsMultipleSelection = false
        try e.select(path(1, 0))
        #expect(e.selectedIndexPaths == [path(1, 0)])
        e.allowsMultipleSelection = true
        try e.select(path(0, 2))
        e.deselectAll()
        #expect(e.selectedIndexPaths.isEmpty)
    }

    @Test func highlightWinsOverSelectionAndClears() throws {
        let e = try Self.engine()
        try e.select(path(0, 2))
        try e.highlight(path(0, 2))
        let i = try e.index(of: path(0, 2))
        #expect(try e.state(ofItem: i) == .highlighted)
        try e.highlight(path(0, 3))                        // one highlighted row at a time
        #expect(try e.state(ofItem: i) == .selected)
        #expect(try e.state(ofItem: i + 1) == .highlighted)
        #expect(try e.visibleItems().first { $0.index == i + 1 }?.state == .highlighted)
        try e.highlight(nil)
        #expect(try e.state(ofItem: i + 1) == .normal)
        #expect(try e.state(ofItem: 0) == .normal)         // the header
    }

    @Test func selectionFollowsTheRowThroughUpdates() throws {
        let e = try Self.engine(multiple: true)
        try e.select(path(0, 2))                           // a2
        try e.select(path(1, 1))                           // b1
        try e.highlight(path(1, 1))
        try e.performBatchUpdates { $0.insert([Rows.fixed("x", 5), Rows.fixed("y", 5)], at: path(0, 0)) }
        #expect(e.selectedIndexPaths == [path(0, 4), path(1, 1)])
        try e.performBatchUpdates { $0.insertSection(ListSection(rows: [Rows.fixed("z", 5)]), at: 0) }
        #expect(e.selectedIndexPaths == [path(1, 4), path(2, 1)])
        // Moves: across sections, and within one.
        try e.performBatchUpdates { $0.move(from: path(1, 4), to: path(2, 5)) }
        #expect(e.selectedIndexPaths == [path(2, 1), path(2, 5)])
        try e.performBatchUpdates { $0.move(from: path(2, 1), to: path(0, 0)) }
        #expect(e.selectedIndexPaths == [path(0, 0), path(2, 4)])
        #expect(try e.state(ofItem: try e.index(of: path(0, 0))) == .highlighted)
        // A moved section keeps its rows' selection.
        try e.performBatchUpdates { $0.moveSection(from: 2, to: 0) }
        #expect(e.selectedIndexPaths == [path(0, 4), path(1, 0)])
        try e.performBatchUpdates { $0.moveSection(from: 0, to: 2) }
        // A reload with the same id keeps the selection; with a new id drops it.
        try e.performBatchUpdates { $0.reload(at: path(0, 0), with: Rows.fixed("b1", 99)) }
        #expect(e.selectedIndexPaths == [path(0, 0), path(2, 4)])
        #expect(try e.state(ofItem: 0) == .highlighted)
        try e.performBatchUpdates { $0.reload(at: path(2, 4), with: Rows.fixed("other", 1)) }
        #expect(e.selectedIndexPaths == [path(0, 0)])
        // Deleting the row drops its selection and highlight.
        try e.performBatchUpdates { $0.delete(at: path(0, 0)) }
        #expect(e.selectedIndexPaths.isEmpty)
        #expect(try (0..<e.itemCount).allSatisfy { try e.state(ofItem: $0) == .normal })
        // A row inserted later with the same id is not selected.
        try e.performBatchUpdates { $0.insert([Rows.fixed("b1", 3)], at: path(0, 0)) }
        #expect(e.selectedIndexPaths.isEmpty)
    }

    @Test func deletingASectionDropsItsSelection() throws {
        let e = try Self.engine(multiple: true)
        try e.select(path(0, 1))
        try e.select(path(1, 2))
        try e.performBatchUpdates { $0.deleteSection(at: 0) }
        #expect(e.selectedIndexPaths == [path(0, 2)])
    }

    @Test func reloadDataClearsTheSelectionAsUITableViewDoes() throws {
        let e = try Self.engine(multiple: true)
        try e.select(path(0, 1))
        try e.highlight(path(1, 1))
        try e.reloadData(sections: [ListSection(rows: (0..<3).map { Rows.fixed("a\($0)", 20) })])
        #expect(e.selectedIndexPaths.isEmpty)
        #expect(try (0..<e.itemCount).allSatisfy { try e.state(ofItem: $0) == .normal })
    }
}
