import Testing
@testable import RowKitList
import RowKitCells

/// A naive reference for `ListEngine` with a `FakeMeasurer`: a flat array of items with linear
/// scans, replicating the engine's documented rules:
///
/// * estimates: an unmeasured row counts with the estimate of its template at the time it was
///   inserted, reloaded or the width last changed: the mean of every height measured for that
///   template so far at the current width (each measurement counts once, including rows since
///   deleted or reloaded), or `defaultEstimate` before any;
/// * measuring a row above the anchor (the row at `contentOffset`) shifts `contentOffset` by the
///   change, so the anchor keeps its screen y;
/// * updates and width changes restore the anchor captured before them (index arithmetic as
///   documented: inserts at or above shift it down, the deleted anchor is replaced by the row
///   taking its index, or by the row above when it was last; a moved anchor row stays anchored);
/// * a moved row keeps its height, measured state and selection (cached layouts follow the id);
/// * `visibleItems` measures the visible range until it is stable, at most 8 rounds.
///
/// All heights are kept in layout units; with dyadic heights and offsets every sum is exact.
final class ReferenceModel {
    struct Item { var row: ListRow; var kind: ListItemKind; var measured: Bool; var units: Int64 }
    struct Section { var id: String; var hasHeader: Bool; var hasFooter: Bool; var rowCount: Int
        var itemCount: Int { rowCount + (hasHeader ? 1 : 0) + (hasFooter ? 1 : 0) } }
    struct Anchor { var index: Int; var screenY: Double }

    var items: [Item] = []
    var sections: [Section] = []
    var estimates: [String: (sum: Double, count: Int)] = [:]
    var width: Double
    var offset: Double = 0
    var viewport: Double = 0
    var overscan: Double = 0
    var selected: Set<String> = []
    var allowsMultipleSelection = false
    let defaultEstimate: Double

    init(sections: [ListSection], width: Double, defaultEstimate: Double) {
        self.width = width
        self.defaultEstimate = defaultEstimate
        for s in sections {
            self.sections.append(Section(id: s.id, hasHeader: s.header != nil, hasFooter: s.footer != nil, rowCount: s.rows.count))
            for (kind, row) in Self.items(of: s) { items.append(Item(row: row, kind: kind, measured: false, units: Units.of(defaultEstimate))) }
        }
    }

    static func items(of s: ListSection) -> [(ListItemKind, ListRow)] {
        (s.header.map { [(.header, $0)] } ?? []) + s.rows.map { (.row, $0) } + (s.footer.map { [(.footer, $0)] } ?? [])
    }

    // MARK: geometry

    var totalUnits: Int64 { items.reduce(0) { $0 + $1.units } }
    var contentHeight: Double { Units.px(totalUnits) }
    func top(_ index: Int) -> Double { Units.px(items[0..<index].reduce(0) { $0 + $1.units }) }
    var unmeasuredCount: Int { items.filter { !$0.measured }.count }

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
        guard o.isFinite else { return 0 }
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

    func flatIndex(_ p: IndexPath) -> Int {
        sections[0..<p.section].reduce(0) { $0 + $1.itemCount } + (sections[p.section].hasHeader ? 1 : 0) + p.row
    }

    func indexPath(ofFlat index: Int) -> IndexPath {
        var start = 0
        for (s, section) in sections.enumerated() {
            if index < start + section.itemCount {
                let offsetInSection = index - start
                return IndexPath(section: s, row: section.hasHeader ? offsetInSection - 1 : offsetInSection)
            }
            start += section.itemCount
        }
        fatalError("index \(index) out of range")
    }

    // MARK: measuring

    func estimate(_ template: String) -> Double {
        guard let e = estimates[template], e.count > 0 else { return defaultEstimate }
        return e.sum / Double(e.count)
    }

    func exactHeight(_ row: ListRow) -> Double { FakeMeasurer.height(of: row, width: width) }

    func apply(_ height: Double, at index: Int) {
        let anchor = rowAt(offset) ?? 0
        let new = Units.of(height)
        let delta = new - items[index].units
        items[index].units = new
        items[index].measured = true
        estimates[items[index].row.template, default: (0, 0)].sum += height
        estimates[items[index].row.template, default: (0, 0)].count += 1
        if index < anchor && delta != 0 { offset = max(0, offset + Units.px(delta)) }
    }

    func measure(_ range: Range<Int>) {
        let results = range.filter { !items[$0].measured }.map { ($0, exactHeight(items[$0].row)) }
        for (i, h) in results { apply(h, at: i) }
    }

    func measureAll() { measure(0..<items.count) }

    func visibleItems() -> [VisibleItem] {
        guard !items.isEmpty else { return [] }
        for _ in 0..<8 {
            let range = visibleRange
            if !range.contains(where: { !items[$0].measured }) { break }
            measure(range)
        }
        let range = visibleRange
        var y = top(range.lowerBound)
        return range.map { i in
            defer { y += Units.px(items[i].units) }
            return VisibleItem(index: i, kind: items[i].kind, indexPath: indexPath(ofFlat: i), row: items[i].row,
                               y: y, height: Units.px(items[i].units))
        }
    }

    func scroll(to o: Double) { offset = clamp(o) }

    func scrollTo(_ path: IndexPath, _ position: ScrollPosition) {
        let i = flatIndex(path)
        measure(i..<(i + 1))
        let t = top(i), h = Units.px(items[i].units)
        switch position {
        case .top: offset = clamp(t)
        case .middle: offset = clamp(t + h / 2 - viewport / 2)
        case .bottom: offset = clamp(t + h - viewport)
        }
    }

    // MARK: anchoring and updates

    func captureAnchor() -> Anchor? {
        guard let i = rowAt(offset) else { return nil }
        return Anchor(index: i, screenY: top(i) - offset)
    }

    func restore(_ anchor: Anchor?) {
        guard let anchor, !items.isEmpty else { offset = 0; return }
        let i = min(anchor.index, items.count - 1)
        offset = max(0, top(i) - anchor.screenY)
    }

    func setWidth(_ w: Double) {
        guard w != width else { return }
        let anchor = captureAnchor()
        width = w
        estimates = [:]
        for i in items.indices where items[i].measured {
            let h = exactHeight(items[i].row)
            items[i].units = Units.of(h)
            estimates[items[i].row.template, default: (0, 0)].sum += h
            estimates[items[i].row.template, default: (0, 0)].count += 1
        }
        for i in items.indices where !items[i].measured { items[i].units = Units.of(estimate(items[i].row.template)) }
        restore(anchor)
    }

    enum Op {
        case insert([ListRow], IndexPath)
        case delete(IndexPath)
        case move(IndexPath, IndexPath)
        case reload(IndexPath, ListRow)
        case insertSection(ListSection, Int)
        case deleteSection(Int)
    }

    func perform(_ ops: [Op]) {
        var anchor = captureAnchor()
        for op in ops {
            switch op {
            case .insert(let rows, let p):
                insertItems(rows.map { (.row, $0) }, at: flatIndex(p), anchor: &anchor)
                sections[p.section].rowCount += rows.count
            case .delete(let p):
                removeItem(at: flatIndex(p), anchor: &anchor)
                sections[p.section].rowCount -= 1
            case .move(let from, let to):
                let source = flatIndex(from)
                let moved = items[source]
                let wasAnchor = anchor?.index == source, screenY = anchor?.screenY
                removeItem(at: source, anchor: &anchor)
                sections[from.section].rowCount -= 1
                let target = flatIndex(to)
                // The moved row keeps its height (exact or the estimate it had), its measured
                // state and its selection.
                items.insert(moved, at: target)
                if selectedBeforeRemoval.contains(moved.row.id) { selected.insert(moved.row.id) }
                if var a = anchor, target <= a.index { a.index += 1; anchor = a }
                sections[to.section].rowCount += 1
                if wasAnchor, let screenY { anchor = Anchor(index: target, screenY: screenY) }
            case .reload(let p, let row):
                let at = flatIndex(p)
                if items[at].row.id != row.id { selected.remove(items[at].row.id) }
                items[at] = Item(row: row, kind: items[at].kind, measured: false, units: Units.of(estimate(row.template)))
            case .insertSection(let s, let index):
                let at = sections[0..<index].reduce(0) { $0 + $1.itemCount }
                sections.insert(Section(id: s.id, hasHeader: s.header != nil, hasFooter: s.footer != nil, rowCount: s.rows.count), at: index)
                insertItems(Self.items(of: s), at: at, anchor: &anchor)
            case .deleteSection(let index):
                let at = sections[0..<index].reduce(0) { $0 + $1.itemCount }
                for _ in 0..<sections[index].itemCount { removeItem(at: at, anchor: &anchor) }
                sections.remove(at: index)
            }
        }
        restore(anchor)
    }

    private var selectedBeforeRemoval: Set<String> = []

    private func insertItems(_ new: [(ListItemKind, ListRow)], at index: Int, anchor: inout Anchor?) {
        for (k, (kind, row)) in new.enumerated() {
            items.insert(Item(row: row, kind: kind, measured: false, units: Units.of(estimate(row.template))), at: index + k)
        }
        if var a = anchor, index <= a.index { a.index += new.count; anchor = a }
    }

    private func removeItem(at index: Int, anchor: inout Anchor?) {
        let item = items.remove(at: index)
        selectedBeforeRemoval = selected
        selected.remove(item.row.id)
        if var a = anchor {
            if index < a.index { a.index -= 1 } else if index == a.index && a.index >= items.count { a.index = max(0, items.count - 1) }
            anchor = a
        }
    }

    // MARK: rows for the engine

    /// The sections as they are now (for building a fresh engine).
    var listSections: [ListSection] {
        var result: [ListSection] = []
        var i = 0
        for s in sections {
            var section = ListSection(id: s.id, rows: [])
            if s.hasHeader { section.header = items[i].row; i += 1 }
            for _ in 0..<s.rowCount { section.rows.append(items[i].row); i += 1 }
            if s.hasFooter { section.footer = items[i].row; i += 1 }
            result.append(section)
        }
        return result
    }
}
