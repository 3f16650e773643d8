import Testing
@testable import RowKitList

/// A cell that records what it shows.
final class FakeCell: ReusableCell {
    let identifier: String
    var item: VisibleItem<String>?
    var reuses = 0

    init(identifier: String) { self.identifier = identifier }

    func configure(with item: VisibleItem<String>) { self.item = item }

    func prepareForReuse() {
        item = nil
        reuses += 1
    }
}

/// The template of every row the reuse tests made, by id (the reuse identifier).
final class Templates {
    var byID: [String: String] = [:]
    func identifier(_ item: VisibleItem<String>) -> String { byID[item.id] ?? "?" }
}

@Suite struct ReuseTests {
    /// Runs one update and checks every reuse invariant against the previous one.
    static func update(_ reuser: CellReuser<FakeCell>, _ e: FakeEngine, _ templates: Templates,
                       previous: inout [String: (template: String, cell: FakeCell)], _ context: String) throws {
        let visible = try e.visibleItems()
        let createdBefore = reuser.createdCount
        let result = reuser.update(visible, reuseIdentifier: templates.identifier)
        #expect(result.count == visible.count, "\(context)")
        var cells = Set<ObjectIdentifier>()
        var current: [String: (template: String, cell: FakeCell)] = [:]
        for (k, (item, cell)) in result.enumerated() {
            let template = templates.identifier(item)
            #expect(item == visible[k])
            #expect(cell.item == item, "\(context): cell shows \(cell.item?.id ?? "nothing") for \(item.id)")
            #expect(cell.item?.state == (try e.state(ofItem: item.index)), "\(context): state of \(item.id)")
            #expect(cell.identifier == template, "\(context): a \(cell.identifier) cell shows a \(template) row")
            cells.insert(ObjectIdentifier(cell))
            // A row that stays on screen keeps its cell.
            if let old = previous[item.id], old.template == template {
                #expect(old.cell === cell, "\(context): \(item.id) changed cells while on screen")
            }
            current[item.id] = (template, cell)
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
        let templates = Templates()
        func row(_ rng: inout SeededRandom) -> TestRow {
            nextID += 1
            let row = Rows.text("r\(nextID)", length: rng.int(0...300), template: rng.pick(["a", "b", "c"]))
            templates.byID[row.id] = row.template
            return row
        }
        let sections = (0..<3).map { s in
            ListSection(header: Rows.fixed("h\(s)", 22, template: "hdr"), rows: (0..<400).map { _ in row(&rng) })
        }
        for s in 0..<3 { templates.byID["h\(s)"] = "hdr" }
        let e = try makeEngine(sections, width: 320, viewport: 480)
        e.overscan = 40
        e.allowsMultipleSelection = seed % 2 == 0
        let reuser = CellReuser<FakeCell> { FakeCell(identifier: $0) }
        var previous: [String: (template: String, cell: FakeCell)] = [:]
        try Self.update(reuser, e, templates, previous: &previous, "initial")
        func randomPath(_ rng: inout SeededRandom) throws -> ListIndexPath {
            let s = rng.int(0..<3)
            return ListIndexPath(section: s, row: rng.int(0..<(try e.numberOfRows(inSection: s))))
        }
        func visiblePath(_ rng: inout SeededRandom) throws -> ListIndexPath {
            let rows = try e.visibleItems().filter { $0.kind == .row }
            return rows.isEmpty ? try randomPath(&rng) : rng.pick(rows).indexPath
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
                try e.scrollTo(try randomPath(&rng), position: rng.pick(ScrollPosition.allCases)); action = "scrollTo"
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
                if rng.chance(0.6) { new.id = try e.item(at: try e.index(of: p)).id; templates.byID[new.id] = new.template }   // same row, new data (maybe new template)
                try e.performBatchUpdates { $0.reload(at: p, with: new) }; action = "reload \(p)"
            case 8:
                let p = try visiblePath(&rng)
                let rows = (0..<rng.int(1...3)).map { _ in row(&rng) }
                try e.performBatchUpdates { $0.insert(rows, at: p) }; action = "insert at \(p)"
            case 9:
                let p = try visiblePath(&rng)
                try e.performBatchUpdates { $0.delete(at: p) }; action = "delete \(p)"
            case 10:
                let from = try visiblePath(&rng), to = try randomPath(&rng)
                // After the move the destination section has one row more if the row left another one.
                let rowsAfter = try e.numberOfRows(inSection: to.section) + (from.section == to.section ? 0 : 1)
                let target = ListIndexPath(section: to.section, row: min(to.row, rowsAfter - 1))
                try e.performBatchUpdates { $0.move(from: from, to: target) }; action = "move \(from)→\(target)"
            default:
                let w = rng.pick([240.0, 320, 400, 800])
                try e.setWidthAndWait(w); action = "setWidth(\(w))"
            }
            try Self.update(reuser, e, templates, previous: &previous, "seed \(seed) step \(step) after \(action)")
        }
    }

    @Test func createdCountStaysBoundedByThePeakVisibleCount() throws {
        // 20 px rows in a 100 px viewport: 5 rows at offset 0, 6 at offset 10.
        let e = try makeEngine([ListSection(rows: Rows.uniform(100, height: 20))], viewport: 100, defaultEstimate: 20)
        let reuser = CellReuser<FakeCell> { FakeCell(identifier: $0) }
        var peak = 0
        for k in 0..<20 {
            e.scroll(to: k % 2 == 0 ? 0 : 10)
            let visible = try e.visibleItems()
            peak = max(peak, visible.count)
            _ = reuser.update(visible) { _ in "a" }
            #expect(reuser.aliveCount <= visible.count + reuser.spareLimit)
        }
        #expect(peak == 6)
        #expect(reuser.createdCount <= peak, "spares absorb the visible count wobbling at the edge")
    }

    @Test func stateChangesReconfigureTheSameCell() throws {
        let e = try makeEngine([ListSection(rows: Rows.uniform(10, height: 20))], viewport: 100, defaultEstimate: 20)
        let reuser = CellReuser<FakeCell> { FakeCell(identifier: $0) }
        let first = reuser.update(try e.visibleItems()) { _ in "a" }
        #expect(first.allSatisfy { $0.cell.item?.state == .normal })
        try e.select(ListIndexPath(section: 0, row: 1))
        try e.highlight(ListIndexPath(section: 0, row: 2))
        let second = reuser.update(try e.visibleItems()) { _ in "a" }
        #expect(second.map(\.cell.item?.state) == [.normal, .selected, .highlighted, .normal, .normal])
        #expect(zip(first, second).allSatisfy { $0.cell === $1.cell })
        #expect(reuser.createdCount == 5)
        // Scrolling a whole page reuses every cell for the new rows.
        e.scroll(to: 100)
        let third = reuser.update(try e.visibleItems()) { _ in "a" }
        #expect(third.map(\.item.id) == ["p5", "p6", "p7", "p8", "p9"])
        #expect(reuser.createdCount == 5)
        #expect(third.allSatisfy { $0.cell.reuses == 1 && $0.cell.item?.state == .normal })
    }
}
