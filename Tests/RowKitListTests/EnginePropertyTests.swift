import Testing
@testable import RowKitList
import RowKitCells

/// Random sequences of updates, width changes, scrolls and measuring, after each of which the
/// engine must agree exactly with `ReferenceModel`, and the row at the top of the viewport must
/// keep its screen y.
@Suite struct EnginePropertyTests {
    struct Generator {
        var rng: SeededRandom
        var nextID = 0
        mutating func id(_ prefix: String = "r") -> String { nextID += 1; return "\(prefix)\(nextID)" }
        mutating func row() -> ListRow {
            let template = rng.pick(["a", "a", "b", "c"])
            if rng.chance(0.1) { return Rows.fixed(id(), rng.pick([0, 0.25, 12.5, 30, 64.75, 200]), template: template) }
            return Rows.text(id(), length: rng.int(0...400), template: template)
        }
        mutating func section(rows: Int) -> ListSection {
            ListSection(id: id("s"),
                        header: rng.chance(0.6) ? Rows.text(id("h"), length: rng.int(0...60), template: "hdr") : nil,
                        footer: rng.chance(0.3) ? Rows.fixed(id("f"), rng.pick([0, 8, 24.5]), template: "ftr") : nil,
                        rows: (0..<rows).map { _ in row() })
        }
    }

    /// Compares everything observable without side effects; returns false at the first difference.
    @discardableResult
    static func compare(_ e: FakeEngine, _ m: ReferenceModel, _ context: @autoclosure () -> String,
                        sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        func fail(_ what: String) -> Bool {
            Issue.record("\(context()): \(what)", sourceLocation: sourceLocation)
            return false
        }
        guard e.itemCount == m.items.count else { return fail("itemCount \(e.itemCount) ≠ \(m.items.count)") }
        guard e.numberOfSections == m.sections.count else { return fail("numberOfSections") }
        for (s, section) in m.sections.enumerated() where e.numberOfRows(inSection: s) != section.rowCount {
            return fail("numberOfRows(inSection: \(s))")
        }
        let heights = e.allHeights
        for i in m.items.indices where heights[i] != Units.px(m.items[i].units) {
            return fail("height of item \(i) (\(m.items[i].row.id), measured in model: \(m.items[i].measured)) is \(heights[i]), model \(Units.px(m.items[i].units))")
        }
        var top = 0.0
        for i in m.items.indices {
            let item = e.item(at: i)
            guard item.row == m.items[i].row, item.kind == m.items[i].kind else { return fail("item \(i) is \(item.row.id) \(item.kind)") }
            let path = m.indexPath(ofFlat: i)
            guard item.indexPath.section == path.section, item.kind != .row || item.indexPath == path else {
                return fail("indexPath of item \(i): \(item.indexPath) ≠ \(path)")
            }
            guard e.isMeasured(i) == m.items[i].measured else { return fail("isMeasured(\(i)) = \(e.isMeasured(i))") }
            if i % 7 == 0 || i == m.items.count - 1 {
                guard e.offset(ofItem: i) == top else { return fail("offset(ofItem: \(i)) = \(e.offset(ofItem: i)), model \(top)") }
            }
            top += Units.px(m.items[i].units)
        }
        guard e.contentHeight == m.contentHeight else { return fail("contentHeight \(e.contentHeight) ≠ \(m.contentHeight)") }
        guard e.unmeasuredCount == m.unmeasuredCount else { return fail("unmeasuredCount \(e.unmeasuredCount) ≠ \(m.unmeasuredCount)") }
        guard e.contentOffset == m.offset else { return fail("contentOffset \(e.contentOffset) ≠ \(m.offset)") }
        guard e.width == m.width else { return fail("width") }
        guard e.visibleRange() == m.visibleRange else { return fail("visibleRange \(e.visibleRange()) ≠ \(m.visibleRange)") }
        for y in [-5, 0, m.offset, m.offset + 0.5, m.offset + m.viewport, m.contentHeight, m.contentHeight + 10] {
            guard e.item(atY: y) == m.rowAt(y) else { return fail("item(atY: \(y)) = \(String(describing: e.item(atY: y)))") }
        }
        return true
    }

    struct AnchorSnapshot { var id: String; var screenY: Double }

    static func anchor(of e: FakeEngine) -> AnchorSnapshot? {
        guard let i = e.item(atY: e.contentOffset) else { return nil }
        return AnchorSnapshot(id: e.item(at: i).row.id, screenY: e.offset(ofItem: i) - e.contentOffset)
    }

    /// The anchored row, if still there, is at the same screen y (unless the offset was clamped at 0).
    static func checkAnchor(_ before: AnchorSnapshot?, _ e: FakeEngine, _ m: ReferenceModel, _ context: @autoclosure () -> String,
                            sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let before, let index = m.items.firstIndex(where: { $0.row.id == before.id }) else { return true }
        let top = e.offset(ofItem: index)
        if e.contentOffset == 0 && top - before.screenY <= 0 { return true }   // clamped at 0
        let screenY = top - e.contentOffset
        guard abs(screenY - before.screenY) < 1e-9 else {
            Issue.record("\(context()): anchor row \(before.id) moved on screen from \(before.screenY) to \(screenY)", sourceLocation: sourceLocation)
            return false
        }
        return true
    }

    static func batch(_ gen: inout Generator, _ m: ReferenceModel) -> [ReferenceModel.Op] {
        var shadow = m.listSections
        var ops: [ReferenceModel.Op] = []
        let count = gen.rng.chance(0.7) ? 1 : gen.rng.int(2...4)
        func randomPath(_ rng: inout SeededRandom) -> IndexPath? {
            let candidates = shadow.indices.filter { !shadow[$0].rows.isEmpty }
            guard !candidates.isEmpty else { return nil }
            let s = rng.pick(candidates)
            return IndexPath(section: s, row: rng.int(0..<shadow[s].rows.count))
        }
        for _ in 0..<count {
            switch gen.rng.int(0..<100) {
            case 0..<30:
                let s = gen.rng.int(0..<shadow.count)
                let n = gen.rng.chance(0.1) ? gen.rng.int(20...60) : gen.rng.int(1...4)
                let rows = (0..<n).map { _ in gen.row() }
                let at = IndexPath(section: s, row: gen.rng.int(0...shadow[s].rows.count))
                shadow[s].rows.insert(contentsOf: rows, at: at.row)
                ops.append(.insert(rows, at))
            case 30..<55:
                guard let p = randomPath(&gen.rng) else { continue }
                shadow[p.section].rows.remove(at: p.row)
                ops.append(.delete(p))
            case 55..<72:
                guard let from = randomPath(&gen.rng) else { continue }
                let row = shadow[from.section].rows.remove(at: from.row)
                let s = gen.rng.int(0..<shadow.count)
                let to = IndexPath(section: s, row: gen.rng.int(0...shadow[s].rows.count))
                shadow[s].rows.insert(row, at: to.row)
                ops.append(.move(from, to))
            case 72..<90:
                guard let p = randomPath(&gen.rng) else { continue }
                var row = gen.row()
                if gen.rng.chance(0.6) { row.id = shadow[p.section].rows[p.row].id }   // same id, new data
                shadow[p.section].rows[p.row] = row
                ops.append(.reload(p, row))
            case 90..<96:
                let section = gen.section(rows: gen.rng.int(0...25))
                let index = gen.rng.int(0...shadow.count)
                shadow.insert(section, at: index)
                ops.append(.insertSection(section, index))
            default:
                guard shadow.count > 1 else { continue }
                let index = gen.rng.int(0..<shadow.count)
                shadow.remove(at: index)
                ops.append(.deleteSection(index))
            }
        }
        return ops
    }

    static func apply(_ ops: [ReferenceModel.Op], to e: FakeEngine) throws {
        try e.performBatchUpdates { batch in
            for op in ops {
                switch op {
                case .insert(let rows, let p): batch.insert(rows, at: p)
                case .delete(let p): batch.delete(at: p)
                case .move(let from, let to): batch.move(from: from, to: to)
                case .reload(let p, let row): batch.reload(at: p, with: row)
                case .insertSection(let s, let i): batch.insertSection(s, at: i)
                case .deleteSection(let i): batch.deleteSection(at: i)
                }
            }
        }
    }

    static func describe(_ ops: [ReferenceModel.Op]) -> String {
        ops.map { op -> String in
            switch op {
            case .insert(let rows, let p): return "insert \(rows.count) at \(p)"
            case .delete(let p): return "delete \(p)"
            case .move(let a, let b): return "move \(a)→\(b)"
            case .reload(let p, let r): return "reload \(p) with \(r.id)"
            case .insertSection(let s, let i): return "insertSection \(s.id) (\(s.rows.count) rows) at \(i)"
            case .deleteSection(let i): return "deleteSection \(i)"
            }
        }.joined(separator: "; ")
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4, 5, 6])
    func randomSequencesMatchReferenceModel(seed: UInt64) throws {
        var gen = Generator(rng: SeededRandom(seed: seed))
        let sectionCount = gen.rng.int(1...4)
        let sections = (0..<sectionCount).map { _ in gen.section(rows: gen.rng.int(0...(seed % 2 == 0 ? 700 : 150))) }
        let defaultEstimate = gen.rng.pick([44.0, 30, 80])
        let width = 320.0
        let e = try FakeEngine(sections: sections, measurer: FakeMeasurer(), width: width, defaultEstimate: defaultEstimate)
        let m = ReferenceModel(sections: sections, width: width, defaultEstimate: defaultEstimate)
        let viewport = gen.rng.pick([400.0, 250, 733])
        e.viewportHeight = viewport
        m.viewport = viewport
        if seed % 3 == 0 { e.overscan = 60; m.overscan = 60 }
        if seed % 2 == 1 { e.allowsMultipleSelection = true; m.allowsMultipleSelection = true }
        guard Self.compare(e, m, "seed \(seed) initial") else { return }
        let widths = [120.0, 200, 320, 375.5, 480, 1024]
        var log: [String] = []
        for step in 0..<250 {
            let before = Self.anchor(of: e)
            var anchored = false
            let choice = gen.rng.int(0..<104)
            switch choice {
            case 0..<40:
                let ops = Self.batch(&gen, m)
                log.append(Self.describe(ops))
                try Self.apply(ops, to: e)
                m.perform(ops)
                anchored = true
            case 40..<48:
                let w = gen.rng.pick(widths)
                log.append("setWidth(\(w))")
                try e.setWidth(w)
                m.setWidth(w)
                anchored = true
            case 48..<60:
                let o = Double(gen.rng.int(-400...Int(m.contentHeight) + 400)) / 4
                log.append("scroll(to: \(o))")
                e.scroll(to: o)
                m.scroll(to: o)
            case 60..<70:
                let candidates = m.sections.indices.filter { m.sections[$0].rowCount > 0 }
                guard !candidates.isEmpty else { continue }
                let s = gen.rng.pick(candidates)
                let p = IndexPath(section: s, row: gen.rng.int(0..<m.sections[s].rowCount))
                let position = gen.rng.pick([ScrollPosition.top, .middle, .bottom])
                log.append("scrollTo(\(p), \(position))")
                try e.scrollTo(p, position: position)
                m.scrollTo(p, position)
            case 70..<96:
                log.append("visibleItems")
                let got = try e.visibleItems()
                let expected = m.visibleItems()
                #expect(got == expected, "seed \(seed) step \(step): visibleItems")
                anchored = true
            case 96..<98:
                log.append("measureAll")
                try e.measureAll(chunkSize: gen.rng.pick([7, 100, 4096]))
                m.measureAll()
                #expect(e.unmeasuredCount == 0)
                anchored = true
            case 98..<103 where m.sections.contains(where: { $0.rowCount > 0 }):
                let s = gen.rng.pick(m.sections.indices.filter { m.sections[$0].rowCount > 0 })
                let p = IndexPath(section: s, row: gen.rng.int(0..<m.sections[s].rowCount))
                let id = m.items[m.flatIndex(p)].row.id
                if gen.rng.chance(0.7) {
                    log.append("select(\(p))")
                    try e.select(p)
                    if !m.allowsMultipleSelection { m.selected.removeAll() }
                    m.selected.insert(id)
                } else {
                    log.append("deselect(\(p))")
                    try e.deselect(p)
                    m.selected.remove(id)
                }
            default:
                let v = gen.rng.pick([0.0, 120, 400, 733])
                log.append("viewportHeight = \(v)")
                e.viewportHeight = v
                m.viewport = v
            }
            let context = "seed \(seed) step \(step) after \(log.last ?? "")"
            let selected = m.items.indices.filter { m.items[$0].kind == .row && m.selected.contains(m.items[$0].row.id) }.map(m.indexPath(ofFlat:))
            #expect(e.selectedIndexPaths == selected, "\(context): selection")
            guard Self.compare(e, m, context) else {
                print("history (seed \(seed)):\n" + log.suffix(8).joined(separator: "\n"))
                return
            }
            if anchored { guard Self.checkAnchor(before, e, m, context) else { return } }
        }
        // Finally: exact heights everywhere agree with a fresh engine measuring the same rows.
        try e.measureAll()
        m.measureAll()
        Self.compare(e, m, "seed \(seed) final measureAll")
        let fresh = try FakeEngine(sections: m.listSections, measurer: FakeMeasurer(), width: m.width)
        try fresh.measureAll()
        #expect(fresh.allHeights == e.allHeights)
    }
}
