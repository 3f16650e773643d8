import RowKitCells

/// One row of a list: a stable id, the cell template it uses (its reuse identifier) and its data.
public struct ListRow: Sendable, Hashable {
    /// Stable identity: selection, anchoring and cached layouts follow the id through updates.
    public var id: String
    /// The cell template's name.
    public var template: String
    public var data: RowData

    public init(id: String, template: String, data: RowData) {
        self.id = id
        self.template = template
        self.data = data
    }
}

/// A section: optional header and footer rows around its rows.
public struct ListSection: Sendable, Hashable {
    public var id: String
    public var header: ListRow?
    public var footer: ListRow?
    public var rows: [ListRow]

    public init(id: String, header: ListRow? = nil, footer: ListRow? = nil, rows: [ListRow]) {
        self.id = id
        self.header = header
        self.footer = footer
        self.rows = rows
    }
}

/// A row's position: section and row within it.
public struct IndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var section: Int, row: Int
    public init(section: Int, row: Int) { self.section = section; self.row = row }
    public static func < (a: IndexPath, b: IndexPath) -> Bool { (a.section, a.row) < (b.section, b.row) }
    public var description: String { "[\(section), \(row)]" }
}

/// What an item of the flattened list is.
public enum ListItemKind: UInt8, Sendable {
    case header, row, footer
}

/// An item the viewport shows: its place in the flattened list, what it is and its frame.
public struct VisibleItem: Sendable, Hashable {
    /// Index in the flattened list (headers, rows and footers of all sections in order).
    public var index: Int
    public var kind: ListItemKind
    /// The section, and for rows the row within it.
    public var indexPath: IndexPath
    public var row: ListRow
    /// Top of the item in list coordinates, and its height.
    public var y: Double, height: Double
}

/// Where `scrollTo` puts a row in the viewport.
public enum ScrollPosition: Sendable {
    case top, middle, bottom
}
