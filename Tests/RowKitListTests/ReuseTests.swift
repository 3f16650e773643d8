import Testing
@testable import RowKitList
import RowKitCells

/// A cell that records what it shows.
final class FakeCell: ReusableCell {
    let identifier: String
    var row: ListRow?
    var kind: ListItemKind?
    var state: CellState?
    var reuses = 0

    init(identifier: String) { self.identifier = identifier }

    func configure(with row: ListRow, kind: ListItemKind, state: CellState) {
        self.row = row
        self.kind = kind
        self.state = state
    }

    func prepareForReuse() {
        row = nil
        kind = nil
        state = nil
        reuses += 1
    }
}

@Suite struct ReuseTests {
    /// Runs one update and checks every reuse invariant against the previous one.
    static func update(_ reuser: CellReuser<FakeCell>, _ e: FakeEngine, previous: inout [String: (template: String, cell: FakeCell)],
                       _ context: String) throws {
        let visible = try e.visibleItems()
        let createdBefore = reuser.createdCount
        let result = reuser.update(visible) { e.state(ofItem: $0.index) }
        #expect(result.count == visible.count, "\(context)")
        var cells = Set<ObjectIdentifier>()
        var current: [String: (template: String, cell: FakeCell)] = [:]
        for (k, (item, cell)) in result.enumerated() {
            #expect(item == visible[k])
            #expect(cell.row == item.row, "\(context): cell shows \(cell.row?.id ?? "nothing") for \(item.row.id)")
            #expect(cell.kind == item.kind)
            #expect(cell.state == e.state(ofItem: item.index), "\(context): state of \(item.row.id)")
            #expect(cell.identifier == item.row.template, "\(context): a \(cell.identifier) cell shows a \(item.row.template) row")
            cells.insert(ObjectIdentifier(cell))
            // A row that stays on screen keeps its cell.
            if let old = previous[item.row.id], old.template == item.row.template {
                #expect(old.cell === cell, "\(context): \(item.row.id) changed cells while on screen")
            }
            current[item.row.id] = (item.row.template, cell)
        }
        #expect(cells.count == visible.count, "\(context): a cell shows two rows")
        // Alive: the visible cells plus at most `spareLimit` spares per identifier.
        #expect(reuser.aliveCount == visible.count + reuser.spareCount, "\(context)")
        #expect(reuser.largestSparePool <= reuser.spareLimit, "\(context)")
        // New cells only for the growth in visible rows of each identifier (spares may cover
        // some of it); all others reused.
        var before: [String: Int] = [:], after: [String: Int] = [:]
        for entry in previous.values { before[entry.template, default: 0] += 1 }
        for entry in current.values { after[entry.template, default: 0] += 1 }
        let needed = after.reduce(0) { $0 + max(0, $1.value - before[$1.key, default: 0]) }
        #expect(reuser.createdCount - createdBefore <= needed, "\(context): created \(reuser.createdCount - createdBefore), needed \(needed)")
        previous = current
    }

    @Test(arguments: [31 as UInt64, 32, 33])
    func randomScrollingUpdatesAndSelection(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        var nextID = 0
        func row(_ rng: inout SeededRandom) -> ListRow {
            nextID += 1
            return Rows.text("r\(nextID)", length: rng.int(0...300), template: rng.pick(["a", "b", "c"]))
        }
        let sections = (0..<3).map { s in
            ListSection(id: "s\(s)", header: Rows.fixed("h\(s)", 22, template: "hdr"), rows: (0..<400).map { _ in row(&rng) })
        }
        let e = try makeEngine(sections, width: 320, viewport: 480)
        e.overscan = 40
        e.allowsMultipleSelection = seed % 2 == 0
        let reuser = CellReuser<FakeCell> { FakeCell(identifier: $0) }
        var previous: [String: (template: String, cell: FakeCell)] = [:]
        try Self.update(reuser, e, previous: &previous, "initial")
        func randomPath(_ rng: inout SeededRandom) -> IndexPath {
            let s = rng.int(0..<3)
            return IndexPath(section: s, row: rng.int(0..<e.numberOfRows(inSection: s)))
        }
        func visiblePath(_ rng: inout SeededRandom) throws -> IndexPath {
            let rows = try e.visibleItems().filter { $0.kind == .row }
            return rows.isEmpty ? randomPath(&rng) : rng.pick(rows).indexPath
        }
        for step in 0..<250 {
            let action: String
            switch rng.int(0..<12) {
            case 0, 1:
                let o = Double(rng.int(-50...Int(e.contentHeight)))
                e.scroll(to: o); action = "scroll(to: \(o))"
            case 2:
                e.scroll(to: e.contentOffset + Double(rng.int(-300...300))); action = "scroll by"
            case 3:
                try e.scrollTo(randomPath(&rng), position: rng.pick([.top, .middle, .bottom])); action = "scrollTo"
            case 4:
                let p = try visiblePath(&rng)
                try e.select(p); action = "select \(p)"
            case 5:
                let p = try visiblePath(&rng)
                try e.deselect(p); action = "deselect \(p)"
            case 6:
                if rng.chance(0.7) { let p = try visiblePath(&rng); try e.highlight(p); action = "highlight \(p)" } else { try e.highlight(nil); action = "unhighlight" }
            case 7:
                let p = try visiblePath(&rng)
                var new = row(&rng)
                if rng.chance(0.6) { new.id = e.item(at: try e.index(of: p)).row.id }   // same row, new data (maybe new template)
                try e.performBatchUpdates { $0.reload(at: p, with: new) }; action = "reload \(p)"
            case 8:
                let p = try visiblePath(&rng)
                let rows = (0..<rng.int(1...3)).map { _ in row(&rng) }
                try e.performBatchUpdates { $0.insert(rows, at: p) }; action = "insert at \(p)"
            case 9:
                let p = try visiblePath(&rng)
                try e.performBatchUpdates { $0.delete(at: p) }; action = "delete \(p)"
            case 10:
                let from = try visiblePath(&rng), to = randomPath(&rng)
                try e.performBatchUpdates { $0.move(from: from, to: to) }; action = "move \(from)→\(to)"
            default:
                let w = rng.pick([240.0, 320, 400, 800])
                try e.setWidth(w); action = "setWidth(\(w))"
            }
            try Self.update(reuser, e, previous: &previous, "seed \(seed) step \(step) after \(action)")
        }
    }

    @Test func createdCountStaysBoundedByThePeakVisibleCount() throws {
        // 20 px rows in a 100 px viewport: 5 rows at offset 0, 6 at offset 10.
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(100, height: 20))], viewport: 100, defaultEstimate: 20)
        let reuser = CellReuser<FakeCell> { FakeCell(identifier: $0) }
        var peak = 0
        for k in 0..<20 {
            e.scroll(to: k % 2 == 0 ? 0 : 10)
            let visible = try e.visibleItems()
            peak = max(peak, visible.count)
            _ = reuser.update(visible) { e.state(ofItem: $0.index) }
            #expect(reuser.aliveCount <= visible.count + reuser.spareLimit)
        }
        #expect(peak == 6)
        #expect(reuser.createdCount <= peak, "spares absorb the visible count wobbling at the edge")
    }

    @Test func stateChangesReconfigureTheSameCell() throws {
        let e = try makeEngine([ListSection(id: "s", rows: Rows.uniform(10, height: 20))], viewport: 100, defaultEstimate: 20)
        let reuser = CellReuser<FakeCell> { FakeCell(identifier: $0) }
        let first = reuser.update(try e.visibleItems()) { e.state(ofItem: $0.index) }
        #expect(first.allSatisfy { $0.cell.state == .normal })
        try e.select(IndexPath(section: 0, row: 1))
        try e.highlight(IndexPath(section: 0, row: 2))
        let second = reuser.update(try e.visibleItems()) { e.state(ofItem: $0.index) }
        #expect(second.map(\.cell.state) == [.normal, .selected, .highlighted, .normal, .normal])
        #expect(zip(first, second).allSatisfy { $0.cell === $1.cell })
        #expect(reuser.createdCount == 5)
        // Scrolling a whole page reuses every cell for the new rows.
        e.scroll(to: 100)
        let third = reuser.update(try e.visibleItems()) { e.state(ofItem: $0.index) }
        #expect(third.map(\.item.row.id) == ["p5", "p6", "p7", "p8", "p9"])
        #expect(reuser.createdCount == 5)
        #expect(third.allSatisfy { $0.cell.reuses == 1 && $0.cell.state == .normal })
    }
}
