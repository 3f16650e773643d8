/// The list's sections: whether each has a header and a footer and how many rows, with a
/// Fenwick tree of their item counts, so flat index ↔ index path is O(log sections).
struct SectionTable: Sendable, Equatable {
    struct Section: Sendable, Equatable {
        var hasHeader: Bool
        var hasFooter: Bool
        var rowCount: Int
        var itemCount: Int { rowCount + (hasHeader ? 1 : 0) + (hasFooter ? 1 : 0) }
    }

    private(set) var sections: [Section] = []
    private var itemCounts = FenwickTree([])

    init(_ sections: [Section] = []) {
        self.sections = sections
        rebuild()
    }

    static func == (a: SectionTable, b: SectionTable) -> Bool { a.sections == b.sections }

    var count: Int { sections.count }
    subscript(section: Int) -> Section { sections[section] }

    /// Flat index of the first item of `section` (`section == count`: the item count).
    func start(of section: Int) -> Int { Int(itemCounts.prefix(section)) }

    /// Flat index of the row at `path` (which must be a row of the table, or one past the last
    /// row of its section for an insert position).
    func flatIndex(ofRow path: ListIndexPath) -> Int {
        start(of: path.section) + (sections[path.section].hasHeader ? 1 : 0) + path.row
    }

    /// Whether `path` names a row.
    func contains(row path: ListIndexPath) -> Bool {
        path.section >= 0 && path.section < sections.count && path.row >= 0 && path.row < sections[path.section].rowCount
    }

    /// The index path of the item at flat index `index` (row −1 for a header, the row count for
    /// a footer).
    func indexPath(ofFlat index: Int) -> ListIndexPath {
        let (found, before) = itemCounts.search(Int64(index))
        let s = min(found, sections.count - 1)
        let offset = index - Int(before)
        return ListIndexPath(section: s, row: sections[s].hasHeader ? offset - 1 : offset)
    }

    mutating func addRows(_ delta: Int, inSection section: Int) {
        sections[section].rowCount += delta
        itemCounts.add(Int64(delta), at: section)
    }

    mutating func replace(with sections: [Section]) {
        self.sections = sections
        rebuild()
    }

    private mutating func rebuild() {
        itemCounts = FenwickTree(sections.map { Int64($0.itemCount) })
    }
}
