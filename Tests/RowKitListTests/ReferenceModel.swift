import Testing
@testable import RowKitList

/// A naive reference for `ListEngine` with a `FakeMeasurer`: a flat array of items with linear
/// scans, replicating the engine's documented rules:
///
/// * estimates: an unmeasured item counts with the estimate of its kind (header, row, footer)
///   at the time it was inserted or reloaded, or the last width change completed: the mean of
///   every height measured for that kind at the current width so far (each measurement counts
///   once, including items since deleted or reloaded), or `defaultEstimate` before any;
/// * measuring items above the anchor (the item at `contentOffset`) shifts `contentOffset` by
///   their change, so the anchor keeps its screen y; `measureAll` and `setWidthAndWait` keep the
///   anchor they started with;
/// * batch updates follow UIKit's index rule (deletes, reloads and move sources before the
///   update; inserts and move destinations after); the anchor item keeps its screen y, or if it
///   is deleted the next item that stays in place (else the one before it);
/// * `ScrollAnchoring`: `.stayAtTop` keeps offset 0 at 0; `.stickToBottom` keeps the end shown;
/// * a moved item keeps its height, measured state, form and selection;
/// * `visibleItems` measures the visible range until it is stable;
/// * `scrollTo` measures the target, then the rows between it and the viewport's edges, until
///   they are all measured, then sets the offset exactly.
///
/// All heights are kept in layout units; with dyadic heights and offsets every sum is exact.
final class ReferenceModel {
    struct Item: Equatable {
        var id: String
        var kind: ListItemKind
        var measured: Bool
        var hasForm: Bool
        var units: Int64
        var selected: Bool
    }
    struct Section: Equatable { var hasHeader: Bool; var hasFooter: Bool; var rowCount: Int
        var itemCount: Int { rowCount + (hasHeader ? 1 : 0) + (hasFooter ? 1 : 0) } }
    struct Anchor { var id: String; var screenY: Double; var wasAtTop: Bool; var wasAtBottom: Bool }

    var items: [Item] = []
    var sections: [Section] = []
    /// Every row's data by id (what the engine keeps).
    var rows: [String: TestRow] = [:]
    var estimates: [ListItemKind: (sum: Double, count: Int)] = [:]
    var width: Double
    var offset: Double = 0
    var viewport: Double = 0
    var overscan: Double = 0
    var anchoring = ScrollAnchoring.keepContentStill
    var highlighted: String?
    var allowsMultipleSelection = false
    let defaultEstimate: Double

    init(sections: [ListSection<TestRow>], width: Double, defaultEstimate: Double) {
        self.width = width
        self.defaultEstimate = defaultEstimate
        for s in sections {
            self.sections.append(Section(hasHeader: s.header != nil, hasFooter: s.footer != nil, rowCount: s.rows.count))
            for (kind, row) in Self.items(of: s) {
                items.append(newItem(row, kind))
            }
        }
    }

    static func items(of s: ListSection<TestRow>) -> [(ListItemKind, TestRow)] {
        (s.header.map { [(.header, $0)] } ?? []) + s.rows.map { (.row, $0) } + (s.footer.map { [(.footer, $0)] } ?? [])
    }

    func newItem(_ row: TestRow, _ kind: ListItemKind) -> Item {
        rows[row.id] = row
        return Item(id: row.id, kind: kind, measured: false, hasForm: false, units: Units.of(estimate(kind)), selected: false)
    }

    // MARK: geometry

    var totalUnits: Int64 { items.reduce(0) { $0 + $1.units } }
    var contentHeight: Double { Units.px(totalUnits) }
    func top(_ index: Int) -> Double { Units.px(items[0..<index].reduce(0) { $0 + $1.units }) }
    func height(_ index: Int) -> Double { Units.px(items[index].units) }
    var unmeasuredCount: Int { items.filter { !$0.measured }.count }
    var isAtBottom: Bool { offset >= contentHeight - viewport - 1.0 / 64 }

    func rowAt(_ y: Double) -> Int? {
        guard !items.isEmpty else { return nil }
        let target = Int64((max(0, y) * 64).rounded(.down))
        var sum: Int64 = 0
        for (i, item) in items.enumerated() {
            sum += item.units
            if sum > target { return i }
        }
        return items.count - 1
    }

    func clamp(_ o: Double) -> Double {
        guard o.isFinite else { return o == .infinity ? max(0, contentHeight - viewport) : 0 }
        return min(max(0, o), max(0, contentHeight - viewport))
    }

    var visibleRange: Range<Int> {
        guard !items.isEmpty else { return 0..<0 }
        let topY = max(0, offset - overscan)
        let bottom = offset + viewport + overscan
        guard let first = rowAt(topY) else { return 0..<0 }
        let last = max(first, rowAt(max(topY, bottom - 1.0 / 64)) ?? first)
        return first..<(last + 1)
    }

    func flatIndex(_ p: ListIndexPath) -> Int {
        sections[0..<p.section].reduce(0) { $0 + $1.itemCount } + (sections[p.section].hasHeader ? 1 : 0) + p.row
    }

    func indexPath(ofFlat index: Int) -> ListIndexPath {
        var start = 0
        for (s, section) in sections.enumerated() {
            if index < start + section.itemCount {
                let offsetInSection = index - start
                return ListIndexPath(section: s, row: section.hasHeader ? offsetInSection - 1 : offsetInSection)
            }
            start += section.itemCount
        }
        fatalError("index \(index) out of range")
    }

    func state(_ item: Item) -> ListItemState {
        if item.id == highlighted { return .highlighted }
        return item.selected ? .selected : .normal
    }

    // MARK: measuring

    func estimate(_ kind: ListItemKind) -> Double {
        guard let e = estimates[kind], e.count > 0 else { return defaultEstimate }
        return e.sum / Double(e.count)
    }

    func exactHeight(_ index: Int) -> Double { FakeMeasurer.height(of: rows[items[index].id]!, width: width) }

    /// Measures the unmeasured items among `indices`, as one application of results.
    func measure(_ indices: [Int], keep anchor: Anchor? = nil, pinnedToBottom: Bool? = nil) {
        let anchorIndex = rowAt(offset) ?? 0
        let wasAtBottom = pinnedToBottom ?? isAtBottom
        var delta: Int64 = 0
        for i in indices where !items[i].measured {
            let h = exactHeight(i)
            let new = Units.of(h)
            if i < anchorIndex { delta += new - items[i].units }
            items[i].units = new
            items[i].measured = true
            items[i].hasForm = true
            estimates[items[i].kind, default: (0, 0)].sum += h
            estimates[items[i].kind, default: (0, 0)].count += 1
        }
        if let anchor { restore(anchor) } else { shift(Units.px(delta), wasAtBottom: wasAtBottom) }
    }

    func shift(_ delta: Double, wasAtBottom: Bool) {
        if anchoring == .stickToBottom && wasAtBottom { offset = max(0, contentHeight - viewport) }
        else if delta != 0 { offset = max(0, offset + delta) }
    }

    func measureAll() {
        let anchor = captureAnchor()
        measure(Array(items.indices), keep: anchor)
    }

    func visibleItems() -> [VisibleItem<String>] {
        guard !items.isEmpty else { return [] }
        let pinned = isAtBottom
        while true {
            let range = visibleRange
            if !range.contains(where: { !items[$0].measured }) { break }
            measure(Array(range), pinnedToBottom: pinned)
        }
        let range = visibleRange
        var y = top(range.lowerBound)
        return range.map { i in
            defer { y += height(i) }
            return VisibleItem(index: i, kind: items[i].kind, indexPath: indexPath(ofFlat: i), id: items[i].id,
                               y: y, height: height(i), state: state(items[i]))
        }
    }

    func scroll(to o: Double) { offset = o.isNaN ? 0 : clamp(o) }

    func screenY(_ i: Int, _ position: ScrollPosition) -> Double {
        let t = top(i), h = height(i)
        switch position {
        case .top: return 0
        case .middle: return (viewport - h) / 2
        case .bottom: return viewport - h
        case .nearest:
            if t >= offset && t + h <= offset + viewport { return t - offset }
            return t < offset || h > viewport ? 0 : viewport - h
        }
    }

    func scrollTo(_ p: ListIndexPath, _ position: ScrollPosition) {
        let i = flatIndex(p)
        while true {
            if !items[i].measured { measure([i]); continue }
            let t = top(i), h = height(i)
            let y = t - clamp(t - screenY(i, position))
            let first = y > 0 ? (rowAt(max(0, t - y)) ?? i) : i
            let below = viewport - y - h
            let last = below > 0 ? (rowAt(t + h + below - 1.0 / 64) ?? i) : i
            let window = Array(min(first, i)...max(last, i))
            if window.contains(where: { !items[$0].measured }) { measure(window); continue }
            offset = t - y
            return
        }
    }

    // MARK: anchoring

    func captureAnchor() -> Anchor? {
        guard let i = rowAt(offset) else { return nil }
        return Anchor(id: items[i].id, screenY: top(i) - offset, wasAtTop: offset == 0, wasAtBottom: isAtBottom)
    }

    func restore(_ anchor: Anchor?, to index: Int? = nil) {
        guard let anchor, !items.isEmpty else { offset = 0; return }
        switch anchoring {
        case .stayAtTop where anchor.wasAtTop: offset = 0
        case .stickToBottom where anchor.wasAtBottom: offset = max(0, contentHeight - viewport)
        default:
            let i = index ?? items.firstIndex { $0.id == anchor.id }!
            offset = max(0, top(i) - anchor.screenY)
        }
    }

    func setWidthAndWait(_ w: Double) {
        guard w != width else { return }
        let anchor = captureAnchor()
        width = w
        estimates = [:]
        for i in items.indices {
            items[i].measured = false
            if items[i].hasForm {
                let h = exactHeight(i)
                items[i].units = Units.of(h)
                items[i].measured = true
                estimates[items[i].kind, default: (0, 0)].sum += h
                estimates[items[i].kind, default: (0, 0)].count += 1
            }
        }
        for i in items.indices where !items[i].hasForm { items[i].units = Units.of(estimate(items[i].kind)) }
        restore(anchor)
    }

    func reloadData() {
        for i in items.indices {
            items[i].measured = false
            items[i].hasForm = false
        }
    }

    // MARK: batch updates (UIKit's index rule)

    enum Op {
        case insert(TestRow, ListIndexPath)
        case delete(ListIndexPath)
        case move(ListIndexPath, ListIndexPath)
        case reload(ListIndexPath, TestRow?)
        case insertSection(ListSection<TestRow>, Int)
        case deleteSection(Int)
        case moveSection(Int, Int)
        case reloadSection(Int, ListSection<TestRow>?)
    }

    /// Applies a (valid) batch by its meaning: builds the list after it from the list before.
    func perform(_ ops: [Op]) {
        let anchor = captureAnchor()
        let anchorOld = anchor.map { a in items.firstIndex { $0.id == a.id }! }
        // The list before, per section.
        var oldSections: [(section: Section, items: [Item], start: Int)] = []
        var start = 0
        for s in sections {
            oldSections.append((s, Array(items[start..<(start + s.itemCount)]), start))
            start += s.itemCount
        }
        func rowItem(_ p: ListIndexPath) -> Item { oldSections[p.section].items[(oldSections[p.section].section.hasHeader ? 1 : 0) + p.row] }

        enum Fate { case keep, delete, move(Int), reloadInPlace, replace(ListSection<TestRow>) }
        var fate = [Fate](repeating: .keep, count: sections.count)
        var inserted: [(Int, ListSection<TestRow>)] = []
        var deletedRows = Set<ListIndexPath>(), movedOut: [ListIndexPath: ListIndexPath] = [:], reloaded: [ListIndexPath: TestRow?] = [:]
        var incoming: [ListIndexPath: Item] = [:]   // new paths → item
        for op in ops {
            switch op {
            case .deleteSection(let i): fate[i] = .delete
            case .moveSection(let a, let b): fate[a] = .move(b)
            case .reloadSection(let i, let content): fate[i] = content.map { .replace($0) } ?? .reloadInPlace
            case .insertSection(let content, let i): inserted.append((i, content))
            case .delete(let p): deletedRows.insert(p)
            case .reload(let p, let row): reloaded[p] = row
            case .move(let a, let b): movedOut[a] = b; incoming[b] = rowItem(a)
            case .insert(let row, let p): incoming[p] = newItem(row, .row)
            }
        }
        let finalCount = sections.count - fate.filter { if case .delete = $0 { return true }; return false }.count + inserted.count
        enum FinalSource { case old(Int), new(ListSection<TestRow>) }
        var finalSources = [FinalSource?](repeating: nil, count: finalCount)
        for (i, content) in inserted { finalSources[i] = .new(content) }
        for (i, f) in fate.enumerated() { if case .move(let to) = f { finalSources[to] = .old(i) } }
        var slot = 0
        for (i, f) in fate.enumerated() {
            switch f {
            case .delete, .move: continue
            default: break
            }
            while finalSources[slot] != nil { slot += 1 }
            if case .replace(let content) = f { finalSources[slot] = .new(content) } else { finalSources[slot] = .old(i) }
        }
        // Reloads happen to the items where they are.
        var removedIDs = Set<String>()
        func reloadedItem(_ item: Item, _ row: TestRow?) -> Item {
            var new = item
            if let row {
                if row.id != item.id { removedIDs.insert(item.id); new.selected = false }
                new.id = row.id
                rows[row.id] = row
            }
            new.measured = false
            new.hasForm = false
            new.units = Units.of(estimate(item.kind))
            return new
        }
        // In-place survivors (for choosing a deleted anchor's replacement).
        var inPlace = Set<Int>()
        var newItems: [Item] = [], newSections: [Section] = []
        var finalIndexOfOld: [Int: Int] = [:]
        for (j, source) in finalSources.enumerated() {
            switch source! {
            case .new(let content):
                for (kind, row) in Self.items(of: content) { newItems.append(newItem(row, kind)) }
                newSections.append(Section(hasHeader: content.header != nil, hasFooter: content.footer != nil, rowCount: content.rows.count))
            case .old(let i):
                let old = oldSections[i]
                let movedSection: Bool = { if case .move = fate[i] { return true }; return false }()
                let header = old.section.hasHeader ? 1 : 0
                var staying: [(Item, Int)] = []   // with old flat index
                for r in 0..<old.section.rowCount {
                    let p = ListIndexPath(section: i, row: r)
                    if deletedRows.contains(p) || movedOut[p] != nil { continue }
                    var item = old.items[header + r]
                    if case .reloadInPlace = fate[i] { item = reloadedItem(item, nil) }
                    if let row = reloaded[p] { item = reloadedItem(item, row) }
                    staying.append((item, old.start + header + r))
                }
                let rowsHere = incoming.keys.filter { $0.section == j }
                let count = staying.count + rowsHere.count
                newSections.append(Section(hasHeader: old.section.hasHeader, hasFooter: old.section.hasFooter, rowCount: count))
                func place(_ item: Item, old flat: Int?) {
                    if let flat {
                        finalIndexOfOld[flat] = newItems.count
                        if !movedSection { inPlace.insert(flat) }
                    }
                    newItems.append(item)
                }
                if old.section.hasHeader {
                    var item = old.items[0]
                    if case .reloadInPlace = fate[i] { item = reloadedItem(item, nil) }
                    place(item, old: old.start)
                }
                var next = 0
                for r in 0..<count {
                    if let item = incoming[ListIndexPath(section: j, row: r)] {
                        // A moved row keeps its place in the old list for anchoring.
                        if let from = movedOut.first(where: { $0.value == ListIndexPath(section: j, row: r) })?.key {
                            finalIndexOfOld[oldSections[from.section].start + (oldSections[from.section].section.hasHeader ? 1 : 0) + from.row] = newItems.count
                        }
                        newItems.append(item)
                    } else {
                        place(staying[next].0, old: staying[next].1)
                        next += 1
                    }
                }
                if old.section.hasFooter {
                    var item = old.items[old.items.count - 1]
                    if case .reloadInPlace = fate[i] { item = reloadedItem(item, nil) }
                    place(item, old: old.start + old.items.count - 1)
                }
            }
        }
        let survivingIDs = Set(newItems.map(\.id))
        for item in items where !survivingIDs.contains(item.id) { removedIDs.insert(item.id) }
        if let h = highlighted, removedIDs.contains(h) { highlighted = nil }
        items = newItems
        sections = newSections
        // The anchor: itself if it stays (moved too), else the next item that stays in place,
        // else the one before it.
        guard let anchor, let a = anchorOld else { offset = 0; return }
        var target: Int?
        if let f = finalIndexOfOld[a] { target = f }
        else if let next = inPlace.filter({ $0 > a }).min() { target = finalIndexOfOld[next] }
        else if let before = inPlace.filter({ $0 < a }).max() { target = finalIndexOfOld[before] }
        guard let target, !items.isEmpty else { offset = 0; return }
        restore(anchor, to: target)
    }

    // MARK: rows for the engine

    /// The sections as they are now (for building a fresh engine).
    var listSections: [ListSection<TestRow>] {
        var result: [ListSection<TestRow>] = []
        var i = 0
        for s in sections {
            var section = ListSection<TestRow>(rows: [])
            if s.hasHeader { section.header = rows[items[i].id]; i += 1 }
            for _ in 0..<s.rowCount { section.rows.append(rows[items[i].id]!); i += 1 }
            if s.hasFooter { section.footer = rows[items[i].id]; i += 1 }
            result.append(section)
        }
        return result
    }
}
