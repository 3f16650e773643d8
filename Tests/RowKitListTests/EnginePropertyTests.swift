import Testing
@testable import RowKitList

/// Random sequences of UIKit-rule batch updates, width changes, scrolls and measuring, after
/// each of which the engine must agree exactly with `ReferenceModel`, and the item at the top of
/// the viewport must keep its screen y.
@Suite struct EnginePropertyTests {
    struct Generator {
        var rng: SeededRandom
        var nextID = 0
        mutating func id(_ prefix: String = "r") -> String { nextID += 1; return "\(prefix)\(nextID)" }
        mutating func row() -> TestRow {
            let template = rng.pick(["a", "a", "b", "c"])
            if rng.chance(0.1) { return Rows.fixed(id(), rng.pick([0, 0.25, 12.5, 30, 64.75, 200]), template: template) }
            return Rows.text(id(), length: rng.int(0...400), template: template)
        }
        mutating func section(rows: Int) -> ListSection<TestRow> {
            ListSection(header: rng.chance(0.6) ? Rows.text(id("h"), length: rng.int(0...60), template: "hdr") : nil,
                        rows: (0..<rows).map { _ in row() },
                        footer: rng.chance(0.3) ? Rows.fixed(id("f"), rng.pick([0, 8, 24.5]), template: "ftr") : nil)
        }
    }

    /// A random valid batch (UIKit's index rule) over the model's list, with the list of ids it
    /// must produce (to check the model itself). `bulk`: many row operations (a contiguous run
    /// of rows or a random share of them in each section, mostly deletes) and many inserts.
    static func batch(_ gen: inout Generator, _ m: ReferenceModel, bulk: Bool = false) -> (ops: [ReferenceModel.Op], expected: [[String]]) {
        let old = m.listSections
        var ops: [ReferenceModel.Op] = []
        let size = gen.rng.chance(0.6) ? 1 : gen.rng.int(2...6)
        // Section fates.
        enum Fate { case keep, delete, move, reloadInPlace, replace(ListSection<TestRow>) }
        var fates = [Fate](repeating: .keep, count: old.count)
        var newSections: [ListSection<TestRow>] = []
        if size > 1 || gen.rng.chance(0.15) {
            for i in old.indices where gen.rng.chance(0.12) {
                switch gen.rng.int(0..<4) {
                case 0 where old.count > 1: fates[i] = .delete
                case 1: fates[i] = .move
                case 2: fates[i] = .reloadInPlace
                default: fates[i] = .replace(gen.section(rows: gen.rng.int(0...20)))
                }
            }
            if gen.rng.chance(0.2) { newSections.append(gen.section(rows: gen.rng.int(0...20))) }
        }
        let deleted = fates.filter { if case .delete = $0 { return true }; return false }.count
        if deleted == old.count { fates[0] = .keep }
        let finalCount = old.count - fates.filter { if case .delete = $0 { return true }; return false }.count + newSections.count
        // Final places of moved and inserted sections; the others fill the rest in order.
        var placed = [Int?](repeating: nil, count: finalCount)   // final index → old index (or −1 − k for new section k)
        var free = Array(0..<finalCount)
        func take(_ rng: inout SeededRandom) -> Int { free.remove(at: rng.int(0..<free.count)) }
        for (i, f) in fates.enumerated() { if case .move = f { let to = take(&gen.rng); placed[to] = i; ops.append(.moveSection(i, to)) } }
        for (k, s) in newSections.enumerated() { let at = take(&gen.rng); placed[at] = -1 - k; ops.append(.insertSection(s, at)) }
        var nextFree = 0
        for (i, f) in fates.enumerated() {
            switch f {
            case .delete: ops.append(.deleteSection(i)); continue
            case .move: continue
            case .reloadInPlace: ops.append(.reloadSection(i, nil))
            case .replace(let s): ops.append(.reloadSection(i, s))
            case .keep: break
            }
            while placed[nextFree] != nil { nextFree += 1 }
            placed[nextFree] = i
        }
        // Rows: in sections kept or moved, some old rows go (deleted or moved away), some are
        // reloaded, and new or moved rows come in at random final places.
        func rowsMutable(_ i: Int) -> Bool { switch fates[i] { case .keep, .move: return true; default: return false } }
        var finalOf = [Int: Int]()   // old section → final index
        for (j, p) in placed.enumerated() { if let p, p >= 0 { finalOf[p] = j } }
        var staying: [Int: [TestRow]] = [:]
        var incoming: [Int: [(TestRow, ListIndexPath?)]] = [:]   // final section → rows (with their old path if moved)
        let rowBudget = bulk ? Int.max : size
        var rowOps = 0
        for i in old.indices where rowsMutable(i) {
            var keep: [TestRow] = []
            let rowCount = old[i].rows.count
            let run = bulk && gen.rng.chance(0.5) ? { () -> Range<Int> in
                let a = gen.rng.int(0...rowCount), b = gen.rng.int(0...rowCount)
                return min(a, b)..<max(a, b)
            }() : nil
            let share = bulk ? gen.rng.pick([0.02, 0.2, 0.6]) : 0
            for (r, row) in old[i].rows.enumerated() {
                let p = ListIndexPath(section: i, row: r)
                let chosen = bulk ? (run.map { $0.contains(r) } ?? gen.rng.chance(share))
                                  : rowOps < rowBudget && gen.rng.chance(min(0.5, 4.0 / Double(max(1, rowCount))))
                guard chosen else { keep.append(row); continue }
                rowOps += 1
                switch bulk ? gen.rng.pick([0, 0, 0, 0, 1, 2, 2]) : gen.rng.int(0..<3) {
                case 0: ops.append(.delete(p))
                case 1:
                    var new = gen.row()
                    if gen.rng.chance(0.6) { new.id = row.id }
                    let replacement: TestRow? = gen.rng.chance(0.2) && new.id == row.id ? nil : new
                    ops.append(.reload(p, replacement))
                    keep.append(replacement ?? row)
                default:
                    let targets = finalOf.filter { rowsMutable($0.key) }.map(\.value).sorted()
                    incoming[gen.rng.pick(targets), default: []].append((row, p))
                }
            }
            staying[finalOf[i]!] = keep
        }
        let mutableFinals = finalOf.filter { rowsMutable($0.key) }.map(\.value).sorted()
        if !mutableFinals.isEmpty {
            for _ in 0..<(bulk ? gen.rng.pick([0, 1, 40, 300]) : rowOps == 0 ? gen.rng.int(1...3) : gen.rng.int(0...2)) {
                incoming[gen.rng.pick(mutableFinals), default: []].append((gen.row(), nil))
            }
        }
        // The intended final ids.
        var expected: [[String]] = []
        for (j, p) in placed.enumerated() {
            let p = p!
            var ids: [String] = []
            if p < 0 {
                let s = newSections[-1 - p]
                ids = ReferenceModel.items(of: s).map(\.1.id)
            } else if case .replace(let s) = fates[p] {
                ids = ReferenceModel.items(of: s).map(\.1.id)
            } else {
                let oldSection = old[p]
                var rows: [TestRow?] = []
                if rowsMutable(p) {
                    let stay = staying[j] ?? []
                    let come = incoming[j] ?? []
                    rows = Array(repeating: nil, count: stay.count + come.count)
                    var slots = Array(rows.indices)
                    for (row, from) in come {
                        let r = slots.remove(at: gen.rng.int(0..<slots.count))
                        rows[r] = row
                        let to = ListIndexPath(section: j, row: r)
                        if let from { ops.append(.move(from, to)) } else { ops.append(.insert(row, to)) }
                    }
                    var k = 0
                    for r in rows.indices where rows[r] == nil { rows[r] = stay[k]; k += 1 }
                } else {
                    rows = oldSection.rows
                }
                ids = (oldSection.header.map { [$0.id] } ?? []) + rows.map { $0!.id } + (oldSection.footer.map { [$0.id] } ?? [])
            }
            expected.append(ids)
        }
        return (ops.shuffled(using: &gen.rng), expected)
    }

    /// Compares everything observable without side effects; returns false at the first difference.
    @discardableResult
    static func compare(_ e: FakeEngine, _ m: ReferenceModel, _ context: @autoclosure () -> String,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        func fail(_ what: String) -> Bool {
            Issue.record("\(context()): \(what)", sourceLocation: sourceLocation)
            return false
        }
        guard e.itemCount == m.items.count else { return fail("itemCount \(e.itemCount) ≠ \(m.items.count)") }
        guard e.numberOfSections == m.sections.count else { return fail("numberOfSections") }
        for (s, section) in m.sections.enumerated() where try e.numberOfRows(inSection: s) != section.rowCount {
            return fail("numberOfRows(inSection: \(s))")
        }
        let heights = e.allHeights
        for i in m.items.indices where heights[i] != Units.px(m.items[i].units) {
            return fail("height of item \(i) (\(m.items[i].id), measured in model: \(m.items[i].measured)) is \(heights[i]), model \(Units.px(m.items[i].units))")
        }
        var top = 0.0
        for i in m.items.indices {
            let item = try e.item(at: i)
            guard item.id == m.items[i].id, item.kind == m.items[i].kind else { return fail("item \(i) is \(item.id) \(item.kind), model \(m.items[i].id)") }
            let path = m.indexPath(ofFlat: i)
            guard item.indexPath == path else { return fail("indexPath of item \(i): \(item.indexPath) ≠ \(path)") }
            guard try e.isMeasured(i) == m.items[i].measured else { return fail("isMeasured(\(i)) = \(try e.isMeasured(i))") }
            guard try e.state(ofItem: i) == m.state(m.items[i]) else { return fail("state of item \(i)") }
            if i % 7 == 0 || i == m.items.count - 1 {
                guard try e.offset(ofItem: i) == top else { return fail("offset(ofItem: \(i)) = \(try e.offset(ofItem: i)), model \(top)") }
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
        let selected = m.items.indices.filter { m.items[$0].selected }.map(m.indexPath(ofFlat:))
        guard e.selectedIndexPaths == selected else { return fail("selection \(e.selectedIndexPaths) ≠ \(selected)") }
        return true
    }

    struct AnchorSnapshot { var id: String; var screenY: Double; var offset: Double; var atBottom: Bool }

    static func anchor(of e: FakeEngine) throws -> AnchorSnapshot? {
        guard let i = e.item(atY: e.contentOffset) else { return nil }
        return AnchorSnapshot(id: try e.item(at: i).id, screenY: try e.offset(ofItem: i) - e.contentOffset, offset: e.contentOffset,
                              atBottom: e.contentOffset >= e.contentHeight - e.viewportHeight - 1.0 / 64)
    }

    /// The anchored item, if still there, is at the same screen y — unless the offset was
    /// clamped at 0 or the anchoring rule applied (at the top or the bottom).
    static func checkAnchor(_ before: AnchorSnapshot?, _ e: FakeEngine, _ m: ReferenceModel, _ context: @autoclosure () -> String,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        guard let before, let index = m.items.firstIndex(where: { $0.id == before.id }) else { return true }
        if m.anchoring == .stayAtTop && before.offset == 0 {
            guard e.contentOffset == 0 else { Issue.record("\(context()): left the top", sourceLocation: sourceLocation); return false }
            return true
        }
        if m.anchoring == .stickToBottom && before.atBottom {
            guard e.contentOffset >= e.contentHeight - e.viewportHeight - 1.0 / 64 else {
                Issue.record("\(context()): left the bottom", sourceLocation: sourceLocation)
                return false
            }
            return true
        }
        let top = try e.offset(ofItem: index)
        if e.contentOffset == 0 && top - before.screenY <= 0 { return true }   // clamped at 0
        let screenY = top - e.contentOffset
        guard abs(screenY - before.screenY) < 1e-9 else {
            Issue.record("\(context()): anchor item \(before.id) moved on screen from \(before.screenY) to \(screenY)", sourceLocation: sourceLocation)
            return false
        }
        return true
    }

    static func apply(_ ops: [ReferenceModel.Op], to e: FakeEngine) throws {
        try e.performBatchUpdates { batch in
            for op in ops {
                switch op {
                case .insert(let row, let p): batch.insert([row], at: p)
                case .delete(let p): batch.delete(at: p)
                case .move(let from, let to): batch.move(from: from, to: to)
                case .reload(let p, let row): if let row { batch.reload(at: p, with: row) } else { batch.reload(at: p) }
                case .insertSection(let s, let i): batch.insertSection(s, at: i)
                case .deleteSection(let i): batch.deleteSection(at: i)
                case .moveSection(let a, let b): batch.moveSection(from: a, to: b)
                case .reloadSection(let i, let s): if let s { batch.reloadSection(at: i, with: s) } else { batch.reloadSection(at: i) }
                }
            }
        }
    }

    static func describe(_ ops: [ReferenceModel.Op]) -> String {
        ops.map { op -> String in
            switch op {
            case .insert(let row, let p): return "insert \(row.id) at \(p)"
            case .delete(let p): return "delete \(p)"
            case .move(let a, let b): return "move \(a)→\(b)"
            case .reload(let p, let r): return "reload \(p)\(r.map { " with \($0.id)" } ?? "")"
            case .insertSection(let s, let i): return "insertSection (\(s.rows.count) rows) at \(i)"
            case .deleteSection(let i): return "deleteSection \(i)"
            case .moveSection(let a, let b): return "moveSection \(a)→\(b)"
            case .reloadSection(let i, let s): return "reloadSection \(i)\(s.map { " with \($0.rows.count) rows" } ?? "")"
            }
        }.joined(separator: "; ")
    }

    // 144: a deleted anchor whose only survivor above moved away (found in a run of 160 more seeds).
    @Test(arguments: [1 as UInt64, 2, 3, 4, 5, 6, 7, 8, 9, 144])
    func randomSequencesMatchReferenceModel(seed: UInt64) throws {
        var gen = Generator(rng: SeededRandom(seed: seed))
        let sectionCount = gen.rng.int(1...4)
        let sections = (0..<sectionCount).map { _ in gen.section(rows: gen.rng.int(0...(seed % 2 == 0 ? 700 : 150))) }
        let defaultEstimate = gen.rng.pick([44.0, 30, 80])
        let width = 320.0
        let anchoring = ScrollAnchoring.allCases[Int(seed % 3)]
        let e = try FakeEngine(sections: sections, measurer: FakeMeasurer(), width: width, defaultEstimate: defaultEstimate)
        let m = ReferenceModel(sections: sections, width: width, defaultEstimate: defaultEstimate)
        e.scrollAnchoring = anchoring
        m.anchoring = anchoring
        let viewport = gen.rng.pick([400.0, 250, 733])
        e.viewportHeight = viewport
        m.viewport = viewport
        if seed % 4 == 0 { e.overscan = 60; m.overscan = 60 }
        if seed % 2 == 1 { e.allowsMultipleSelection = true; m.allowsMultipleSelection = true }
        guard try Self.compare(e, m, "seed \(seed) initial") else { return }
        let widths = [120.0, 200, 320, 375.5, 480, 1024]
        var log: [String] = []
        for step in 0..<300 {
            let before = try Self.anchor(of: e)
            var anchored = false
            let choice = gen.rng.int(0..<110)
            switch choice {
            case 0..<40:
                let (ops, expected) = Self.batch(&gen, m)
                log.append(Self.describe(ops))
                try Self.apply(ops, to: e)
                m.perform(ops)
                // The model itself builds what the batch means.
                var start = 0
                var got: [[String]] = []
                for s in m.sections { got.append(m.items[start..<(start + s.itemCount)].map(\.id)); start += s.itemCount }
                #expect(got == expected, "seed \(seed) step \(step): the model's result is not what the batch means")
                anchored = true
            case 40..<48:
                let w = gen.rng.pick(widths)
                log.append("setWidthAndWait(\(w))")
                try e.setWidthAndWait(w)
                m.setWidthAndWait(w)
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
                let p = ListIndexPath(section: s, row: gen.rng.int(0..<m.sections[s].rowCount))
                let position = gen.rng.pick(ScrollPosition.allCases)
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
            case 98..<99:
                log.append("reloadData")
                e.reloadData()
                m.reloadData()
            case 99..<105 where m.sections.contains(where: { $0.rowCount > 0 }):
                let s = gen.rng.pick(m.sections.indices.filter { m.sections[$0].rowCount > 0 })
                let p = ListIndexPath(section: s, row: gen.rng.int(0..<m.sections[s].rowCount))
                let i = m.flatIndex(p)
                switch gen.rng.int(0..<10) {
                case 0..<6:
                    log.append("select(\(p))")
                    try e.select(p)
                    if !m.allowsMultipleSelection { for k in m.items.indices { m.items[k].selected = false } }
                    m.items[i].selected = true
                case 6..<8:
                    log.append("deselect(\(p))")
                    try e.deselect(p)
                    m.items[i].selected = false
                default:
                    log.append("highlight(\(p))")
                    try e.highlight(p)
                    m.highlighted = m.items[i].id
                }
            default:
                let v = gen.rng.pick([0.0, 120, 400, 733])
                log.append("viewportHeight = \(v)")
                e.viewportHeight = v
                m.viewport = v
            }
            let context = "seed \(seed) step \(step) after \(log.last ?? "")"
            guard e.state.withLock({ $0.items.countsAreConsistent && $0.items.generation == $0.generation }) else {
                Issue.record("\(context): item counts out of step")
                print("history (seed \(seed)):\n" + log.suffix(8).joined(separator: "\n"))
                return
            }
            guard try Self.compare(e, m, context) else {
                print("history (seed \(seed)):\n" + log.suffix(8).joined(separator: "\n"))
                return
            }
            if anchored { guard try Self.checkAnchor(before, e, m, context) else { return } }
        }
        // Finally: exact heights everywhere agree with a fresh engine measuring the same rows.
        try e.measureAll()
        m.measureAll()
        try Self.compare(e, m, "seed \(seed) final measureAll")
        let fresh = try FakeEngine(sections: m.listSections, measurer: FakeMeasurer(), width: m.width)
        try fresh.measureAll()
        #expect(fresh.allHeights == e.allHeights)
    }
}
