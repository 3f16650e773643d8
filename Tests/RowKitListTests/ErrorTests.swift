import Foundation
import Testing
@testable import RowKitList
import RowKitCells

@Suite struct ErrorTests {
    static func engine() throws -> FakeEngine {
        try makeEngine([
            ListSection(id: "s0", header: Rows.fixed("h0", 10, template: "hdr"), footer: Rows.fixed("f0", 10, template: "ftr"),
                        rows: Rows.uniform(3, height: 20)),
            ListSection(id: "empty", rows: []),
        ])
    }

    static let badPaths = [IndexPath(section: -1, row: 0), IndexPath(section: 2, row: 0), IndexPath(section: 0, row: -1),
                           IndexPath(section: 0, row: 3), IndexPath(section: 1, row: 0), IndexPath(section: 0, row: 4)]

    @Test func outOfRangeIndexPathsThrow() throws {
        let e = try Self.engine()
        for path in Self.badPaths {
            expectOutOfRange("index(of: \(path))") { _ = try e.index(of: path) }
            expectOutOfRange("scrollTo(\(path))") { try e.scrollTo(path, position: .middle) }
            expectOutOfRange("select(\(path))") { try e.select(path) }
            expectOutOfRange("deselect(\(path))") { try e.deselect(path) }
            expectOutOfRange("highlight(\(path))") { try e.highlight(path) }
            expectOutOfRange("delete(\(path))") { try e.performBatchUpdates { $0.delete(at: path) } }
            expectOutOfRange("reload(\(path))") { try e.performBatchUpdates { $0.reload(at: path, with: Rows.fixed("x", 1)) } }
            expectOutOfRange("move(from: \(path))") { try e.performBatchUpdates { $0.move(from: path, to: IndexPath(section: 0, row: 0)) } }
        }
        #expect(e.itemCount == 5)
        #expect(e.selectedIndexPaths.isEmpty)
        #expect(e.contentOffset == 0)
        // Inserting may append (row == count) but not beyond.
        for path in [IndexPath(section: 0, row: 4), IndexPath(section: 0, row: -1), IndexPath(section: 2, row: 0), IndexPath(section: 1, row: 1)] {
            expectOutOfRange("insert at \(path)") { try e.performBatchUpdates { $0.insert([Rows.fixed("x", 1)], at: path) } }
        }
        for index in [-1, 3] {
            expectOutOfRange("insertSection at \(index)") { try e.performBatchUpdates { $0.insertSection(ListSection(id: "n", rows: []), at: index) } }
        }
        for index in [-1, 2] {
            expectOutOfRange("deleteSection \(index)") { try e.performBatchUpdates { $0.deleteSection(at: index) } }
        }
        #expect(e.itemCount == 5)
        try e.performBatchUpdates { $0.insert([Rows.fixed("x", 1)], at: IndexPath(section: 1, row: 0)) }   // appending is fine
        try e.performBatchUpdates { $0.insertSection(ListSection(id: "n", rows: []), at: 2) }
        #expect(e.itemCount == 6)
        #expect(e.numberOfSections == 3)
    }

    @Test func errorMessagesNameTheProblem() {
        #expect(ListError.indexOutOfRange("row [0, 3]").description == "index out of range: row [0, 3]")
        #expect(ListError.invalidWidth(0).description.contains("[1, 100000]"))
        #expect(ListError.unknownTemplate(row: "r", template: "t", known: ["a", "b"]).description == "row 'r': unknown cell template 't' (known: a, b)")
    }

    @Test(arguments: [Double.nan, 0, -1, 0.999, 100_000.5, 1e300, .infinity, -.infinity, -0.0])
    func badWidthsThrow(width: Double) throws {
        expectInvalidWidth("init(width: \(width))") { _ = try FakeEngine(measurer: FakeMeasurer(), width: width) }
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(3, height: 20))], width: 320)
        expectInvalidWidth("setWidth(\(width))") { try e.setWidth(width) }
        #expect(e.width == 320)
        do {
            try e.setWidth(width)
        } catch {
            guard case .invalidWidth(let reported) = error else { Issue.record("wrong error \(error)"); return }
            #expect(reported == width || (reported.isNaN && width.isNaN))
        }
    }

    @Test func widthLimitsAreAccepted() throws {
        let e = try makeEngine([ListSection(id: "s", rows: [Rows.text("t", length: 100)])], width: 1)
        try e.measureAll()
        #expect(e.allHeights == [700 * 16 + 10])
        try e.setWidth(100_000)
        #expect(e.allHeights == [26])
    }

    @Test func unknownTemplateWithCellMeasurer() throws {
        let rows = [ListRow(id: "ok", template: "label", data: ["text": "Fine."]),
                    ListRow(id: "bad", template: "no-such-cell", data: ["text": "?"])]
        let e = try ListEngine(sections: [ListSection(id: "s", rows: rows)], measurer: CellMeasurer(ClassicCells.all), width: 320)
        e.viewportHeight = 500
        let known = ClassicCells.all.map(\.name).sorted()
        let expected = ListError.unknownTemplate(row: "bad", template: "no-such-cell", known: known)
        #expect(throws: expected) { try e.visibleItems() }
        #expect(throws: expected) { try e.measureAll() }
        #expect(throws: expected) { try e.scrollTo(IndexPath(section: 0, row: 1)) }
        try e.scrollTo(IndexPath(section: 0, row: 0))      // the good row still measures
        #expect(e.isMeasured(0))
        let completion = Completion()
        let done = completion
        e.startBackgroundMeasurement { done.finish($0) }
        try #require(completion.wait(seconds: 20))
        #expect(completion.error as? ListError == expected)
        // Fixing the row makes the list whole again.
        try e.performBatchUpdates { $0.reload(at: IndexPath(section: 0, row: 1), with: ListRow(id: "bad", template: "label", data: ["text": "?"])) }
        try e.measureAll()
        #expect(e.unmeasuredCount == 0)
    }

    // MARK: traps (exit tests run in a child process)

    @Test func rowAtAnyYIsTotal() async {
        await #expect(processExitsWith: .success) {
            let index = HeightIndex(heights: [10, 20])
            precondition(index.row(at: 1e300) == 1)
            precondition(index.row(at: .infinity) == 1)
        }
    }

    @Test func hugeViewportDoesNotCrash() async {
        await #expect(processExitsWith: .success) {
            let engine = try! ListEngine(sections: [ListSection(id: "s", rows: [Rows.fixed("a", 10)])],
                                         measurer: FakeMeasurer(), width: 100)
            engine.viewportHeight = 1e18
            precondition(engine.visibleRange() == 0..<1)
        }
    }

    @Test func hugeHeightsClampInsteadOfTrapping() async {
        await #expect(processExitsWith: .success) {
            var index = HeightIndex(heights: [1])
            index.setHeight(1e20, at: 0)
            precondition(index.totalHeight > 1e7)
        }
    }
}
