import Synchronization
import Testing
@testable import RowKitList

/// Integer ids in increasing order are shown unique without a set at init (the set is built on
/// first need or in the background); every other shape goes through the set. Either way a
/// duplicate is rejected, at init and in updates.
@Suite struct IDUniquenessTests {
    struct NumberRow: Identifiable, Sendable { let id: Int }
    final class Form: Sendable {}
    struct NumberMeasurer: RowMeasurer {
        static let form = Form()
        func measuringForm(of row: NumberRow) -> Form { Self.form }
        func height(of form: Form, width: Double) -> Double { 30 }
        func drawingForm(of row: NumberRow, measuring: Form?) -> Int { 0 }
    }
    typealias Engine = ListEngine<NumberMeasurer>

    static func engine(_ sections: [ListSection<Int>]) throws(ListError) -> Engine {
        try Engine(sections: sections.map { $0.map(NumberRow.init) }, measurer: NumberMeasurer(), width: 320)
    }

    @Test func increasingIntegerIdsSkipTheSetUntilItIsNeeded() throws {
        let e = try Self.engine([ListSection(header: -5, rows: Array(0..<1_000)), ListSection(rows: Array(1_000..<2_000))])
        #expect(e.state.withLock { $0.idSetStorage == nil })
        #expect(e.contains(id: 1_500) && !e.contains(id: 2_000) && e.contains(id: -5))
        #expect(e.state.withLock { $0.idSetStorage?.count == 2_001 })
        // Updates keep it right: an existing id is refused, a new one accepted.
        #expect(throws: ListError.self) { try e.performBatchUpdates { $0.insert([NumberRow(id: 7)], at: ListIndexPath(section: 1, row: 0)) } }
        try e.performBatchUpdates { $0.insert([NumberRow(id: 5_000)], at: ListIndexPath(section: 1, row: 0)) }
        #expect(e.contains(id: 5_000) && e.itemCount == 2_002)
    }

    @Test func aFirstUpdateWithoutTheSetStillRefusesDuplicates() throws {
        for batch in 0..<2 {
            let e = try Self.engine([ListSection(rows: Array(0..<500))])
            #expect(e.state.withLock { $0.idSetStorage == nil })
            #expect(throws: ListError.self) {
                try e.performBatchUpdates { b in
                    b.insert([NumberRow(id: 499)], at: ListIndexPath(section: 0, row: 0))
                    if batch == 1 { b.insert([NumberRow(id: 9_999)], at: ListIndexPath(section: 0, row: 3)) }
                }
            }
            #expect(e.itemCount == 500)
        }
    }

    @Test func duplicatesInAnyOrderAreRejectedWithBothPositions() throws {
        for ids in [[3, 1, 3], [0, 1, 2, 2], [5, 4, 3, 4]] {
            do {
                _ = try Self.engine([ListSection(rows: ids)])
                Issue.record("\(ids): no error")
            } catch {
                guard case .duplicateID(let id, let first, let second) = error else { Issue.record("\(error)"); continue }
                let at = ids.firstIndex(of: Int(id)!)!
                #expect(first.row == at && second.row == ids.lastIndex(of: Int(id)!)!)
            }
        }
        // Increasing across sections, and across a header that breaks the order.
        #expect(throws: ListError.self) { try Self.engine([ListSection(rows: [1, 2]), ListSection(header: 2, rows: [3])]) }
        _ = try Self.engine([ListSection(rows: [1, 2]), ListSection(header: 0, rows: [3])])
    }

    @Test func theBackgroundBuildsTheSet() throws {
        let e = try Self.engine([ListSection(rows: Array(0..<10_000))])
        let done = Completion()
        e.startBackgroundMeasurement(completion: done.callback)
        #expect(done.wait(seconds: 60))
        #expect(e.state.withLock { $0.idSetStorage?.count == 10_000 })
    }

    /// An id that counts how often it is compared (a measure of work, not of time).
    struct CountedID: Hashable, Sendable {
        static let comparisons = Atomic<Int>(0)
        let value: Int
        static func == (a: CountedID, b: CountedID) -> Bool {
            comparisons.add(1, ordering: .relaxed)
            return a.value == b.value
        }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }
    struct CountedRow: Identifiable, Sendable { let id: CountedID }
    struct CountedMeasurer: RowMeasurer {
        func measuringForm(of row: CountedRow) -> Form { NumberMeasurer.form }
        func height(of form: Form, width: Double) -> Double { 30 }
        func drawingForm(of row: CountedRow, measuring: Form?) -> Int { 0 }
    }

    /// One insert of many rows checked each row against every earlier one (`rowkit view`'s
    /// `insert 20000` script step took 74 s): the check is now one hash lookup per row.
    @Test func insertingManyRowsAtOnceComparesIdsLinearly() throws {
        let e = try ListEngine(sections: [ListSection(rows: (0..<10).map { CountedRow(id: CountedID(value: -1 - $0)) })],
                               measurer: CountedMeasurer(), width: 320)
        let count = 4_000
        let before = CountedID.comparisons.load(ordering: .relaxed)
        try e.performBatchUpdates { $0.insert((0..<count).map { CountedRow(id: CountedID(value: $0)) }, at: ListIndexPath(section: 0, row: 0)) }
        let comparisons = CountedID.comparisons.load(ordering: .relaxed) - before
        #expect(e.itemCount == 10 + count)
        #expect(comparisons < 20 * count, "\(comparisons) id comparisons to insert \(count) rows (a scan of the earlier rows is \(count * (count - 1) / 2))")
        // A duplicate within the insert is still refused with both positions, and nothing changes.
        do {
            try e.performBatchUpdates { $0.insert([100_000, 100_001, 100_002, 100_001].map { CountedRow(id: CountedID(value: $0)) }, at: ListIndexPath(section: 0, row: 3)) }
            Issue.record("no error for a duplicate within one insert")
        } catch {
            guard case .duplicateID(let id, let first, let second) = error else { Issue.record("\(error)"); return }
            #expect(id.contains("100001") && first == ListIndexPath(section: 0, row: 4) && second == ListIndexPath(section: 0, row: 6), "\(error)")
        }
        #expect(e.itemCount == 10 + count)
    }
}
