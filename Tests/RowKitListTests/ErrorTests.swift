import Foundation
import Testing
@testable import RowKitList
import RowKitCells
import RowKitListCells

@Suite struct ErrorTests {
    static func engine() throws -> FakeEngine {
        try makeEngine([
            ListSection(header: Rows.fixed("h0", 10, template: "hdr"), rows: Rows.uniform(3, height: 20),
                        footer: Rows.fixed("f0", 10, template: "ftr")),
            ListSection(rows: []),
        ])
    }

    static let badPaths = [path(-1, 0), path(2, 0), path(0, -1), path(0, 3), path(1, 0), path(0, 4),
                           path(Int.min, Int.max), path(Int.max, 0)]

    @Test func outOfRangeIndexPathsThrowAndNeverTrap() throws {
        let e = try Self.engine()
        for p in Self.badPaths {
            expectOutOfRange("index(of: \(p))") { _ = try e.index(of: p) }
            expectOutOfRange("scrollTo(\(p))") { try e.scrollTo(p, position: .middle) }
            expectOutOfRange("select(\(p))") { try e.select(p) }
            expectOutOfRange("deselect(\(p))") { try e.deselect(p) }
            expectOutOfRange("highlight(\(p))") { try e.highlight(p) }
            expectOutOfRange("delete(\(p))") { try e.performBatchUpdates { $0.delete(at: p) } }
            expectOutOfRange("reload(\(p))") { try e.performBatchUpdates { $0.reload(at: p, with: Rows.fixed("x", 1)) } }
            expectOutOfRange("move(from: \(p))") { try e.performBatchUpdates { $0.move(from: p, to: path(0, 0)) } }
        }
        for index in [-1, 5, Int.max, Int.min] {
            expectOutOfRange("item(at: \(index))") { _ = try e.item(at: index) }
            expectOutOfRange("offset(ofItem: \(index))") { _ = try e.offset(ofItem: index) }
            expectOutOfRange("height(ofItem: \(index))") { _ = try e.height(ofItem: index) }
            expectOutOfRange("isMeasured(\(index))") { _ = try e.isMeasured(index) }
            expectOutOfRange("state(ofItem: \(index))") { _ = try e.state(ofItem: index) }
            expectOutOfRange("drawingForm(atItem: \(index))") { _ = try e.drawingForm(atItem: index) }
        }
        for section in [-1, 2, Int.max] {
            expectOutOfRange("numberOfRows(inSection: \(section))") { _ = try e.numberOfRows(inSection: section) }
        }
        #expect(e.itemCount == 5)
        #expect(e.selectedIndexPaths.isEmpty)
        #expect(e.contentOffset == 0)
        // Inserting may append (row == count) but not beyond.
        for p in [path(0, 4), path(0, -1), path(2, 0), path(1, 1)] {
            expectOutOfRange("insert at \(p)") { try e.performBatchUpdates { $0.insert([Rows.fixed("x", 1)], at: p) } }
        }
        for index in [-1, 3] {
            expectOutOfRange("insertSection at \(index)") { try e.performBatchUpdates { $0.insertSection(ListSection(rows: []), at: index) } }
        }
        for index in [-1, 2] {
            expectOutOfRange("deleteSection \(index)") { try e.performBatchUpdates { $0.deleteSection(at: index) } }
            expectOutOfRange("reloadSection \(index)") { try e.performBatchUpdates { $0.reloadSection(at: index) } }
            expectOutOfRange("moveSection \(index)") { try e.performBatchUpdates { $0.moveSection(from: index, to: 0) } }
        }
        #expect(e.itemCount == 5)
        try e.performBatchUpdates { $0.insert([Rows.fixed("x", 1)], at: path(1, 0)) }   // appending is fine
        try e.performBatchUpdates { $0.insertSection(ListSection(rows: []), at: 2) }
        #expect(e.itemCount == 6)
        #expect(e.numberOfSections == 3)
    }

    @Test func errorMessagesNameTheProblem() {
        #expect(ListError.indexOutOfRange("row [0, 3]").description == "index out of range: row [0, 3]")
        #expect(ListError.invalidWidth(0).description.contains("[1, 100000]"))
        #expect(ListError.duplicateID("a", path(0, 1), path(2, 3)).description == "duplicate id 'a' at [0, 1] and [2, 3]")
        #expect(ListError.rowFailed(id: "r", reason: CellRowError.unknownTemplate("t", known: ["a", "b"])).description
                == "row 'r': unknown cell template 't' (known: a, b)")
        #expect(ListError.inconsistentBatch("x").description == "inconsistent batch update: x")
        #expect(ListError.missingRowData(id: "q").description.contains("'q'"))
        #expect(ListError.rowFailed(id: "r", reason: BrokenRow(id: "x")) != ListError.rowFailed(id: "r", reason: BrokenRow(id: "y")))
    }

    @Test(arguments: [Double.nan, 0, -1, 0.999, 100_000.5, 1e300, .infinity, -.infinity, -0.0])
    func badWidthsThrow(width: Double) throws {
        expectInvalidWidth("init(width: \(width))") { _ = try FakeEngine(sections: [ListSection<TestRow>](), measurer: FakeMeasurer(), width: width) }
        let e = try makeEngine([ListSection(rows: Rows.uniform(3, height: 20))], width: 320)
        expectInvalidWidth("setWidth(\(width))") { try e.setWidth(width) }
        expectInvalidWidth("setWidthAndWait(\(width))") { try e.setWidthAndWait(width) }
        #expect(e.width == 320)
        do {
            try e.setWidth(width)
        } catch {
            guard case .invalidWidth(let reported) = error else { Issue.record("wrong error \(error)"); return }
            #expect(reported == width || (reported.isNaN && width.isNaN))
        }
    }

    @Test func widthLimitsAreAccepted() throws {
        let e = try makeEngine([ListSection(rows: [Rows.text("t", length: 100)])], width: 1)
        try e.measureAll()
        #expect(e.allHeights == [700 * 16 + 10])
        try e.setWidthAndWait(100_000)
        #expect(e.allHeights == [26])
    }

    @Test func absurdEstimatesAreClamped() throws {
        for estimate in [Double.nan, -5, .infinity] {
            let e = try FakeEngine(sections: [ListSection(rows: Rows.uniform(2, height: 1))], measurer: FakeMeasurer(), width: 10,
                                   defaultEstimate: estimate)
            #expect(e.defaultEstimate.isFinite && e.defaultEstimate >= 0)
            #expect(e.contentHeight.isFinite)
        }
    }

    @Test func unknownTemplateWithCellMeasurer() throws {
        let rows = [ListRow(id: "ok", template: "label", data: ["text": "Fine."]),
                    ListRow(id: "bad", template: "no-such-cell", data: ["text": "?"])]
        let e = try ListEngine(sections: [ListSection(rows: rows)], measurer: CellMeasurer(ClassicCells.all), width: 320)
        e.viewportHeight = 500
        let known = ClassicCells.all.map(\.name).sorted()
        let expected = ListError.rowFailed(id: "bad", reason: CellRowError.unknownTemplate("no-such-cell", known: known))
        #expect(throws: expected) { try e.visibleItems() }
        #expect(throws: expected) { try e.measureAll() }
        #expect(throws: expected) { try e.scrollTo(path(0, 1)) }
        try e.scrollTo(path(0, 0))                         // the good row still measures
        #expect(try e.isMeasured(0))
        let completion = Completion()
        e.startBackgroundMeasurement(completion: completion.callback)
        try #require(completion.wait(seconds: 20))
        #expect(completion.result == .failed(expected))
        // Fixing the row makes the list whole again.
        try e.performBatchUpdates { $0.reload(at: path(0, 1), with: ListRow(id: "bad", template: "label", data: ["text": "?"])) }
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
            let engine = try! ListEngine(sections: [ListSection(rows: [Rows.fixed("a", 10)])], measurer: FakeMeasurer(), width: 100)
            engine.viewportHeight = 1e18
            precondition(engine.visibleRange() == 0..<1)
            precondition((try? engine.visibleItems())?.count == 1)
            try! engine.scrollTo(ListIndexPath(section: 0, row: 0), position: .middle)
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
