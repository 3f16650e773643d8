/// A data source over sections of rows that do not change: each row is found at its index path
/// (O(1), no dictionary of ids), which stays right as long as the list is not updated.
///
/// For a large list read once (a file of rows to measure and export); a list that is updated
/// needs a source that finds rows by id, or the engine's own keeping of rows
/// (``ListEngine/init(sections:measurer:width:defaultEstimate:)``).
public struct ListArrayDataSource<Row: Identifiable & Sendable>: ListDataSource where Row.ID: Sendable {
    /// The sections, as given.
    public let sections: [ListSection<Row>]

    /// A source over `sections`.
    public init(_ sections: [ListSection<Row>]) {
        self.sections = sections
    }

    /// The sections' ids, to make the engine with.
    public var idSections: [ListSection<Row.ID>] { sections.map { $0.map(\.id) } }

    /// What an ``ListArrayDataSource`` throws when asked for a row that is not where the
    /// engine says (the list was updated).
    public struct RowNotFound: Error, CustomStringConvertible {
        /// The id asked for, and where.
        public let id: String, indexPath: ListIndexPath
        /// A one-line message naming what went wrong.
        public var description: String { "no row '\(id)' at \(indexPath) (an array data source does not follow updates)" }
    }

    /// The row at `indexPath` (the header for row −1, the footer for the row count), if its id is `id`.
    public func row(for id: Row.ID, kind: ListItemKind, at indexPath: ListIndexPath) throws -> Row {
        if indexPath.section >= 0 && indexPath.section < sections.count {
            let section = sections[indexPath.section]
            let row: Row?
            switch kind {
            case .header: row = section.header
            case .footer: row = section.footer
            case .row: row = indexPath.row >= 0 && indexPath.row < section.rows.count ? section.rows[indexPath.row] : nil
            }
            if let row, row.id == id { return row }
        }
        throw RowNotFound(id: String(describing: id), indexPath: indexPath)
    }
}
