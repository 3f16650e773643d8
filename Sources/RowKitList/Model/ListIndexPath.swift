/// A row's position in a sectioned list: the section, and the row within it.
///
/// Named apart from Foundation's `IndexPath`, so both can be imported in one file. For a
/// section's header ``row`` is −1 and for its footer it is the section's row count, so index
/// paths of all items of a list sort in list order.
public struct ListIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The section, counted from 0.
    public var section: Int
    /// The row within the section, counted from 0 (−1 for a header, the row count for a footer).
    public var row: Int

    /// The row `row` of section `section`.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Orders by section, then row: list order.
    public static func < (a: ListIndexPath, b: ListIndexPath) -> Bool { (a.section, a.row) < (b.section, b.row) }

    /// `[section, row]`, as error messages show it.
    public var description: String { "[\(section), \(row)]" }
}

/// What an item of the flattened list is: a section's header, one of its rows, or its footer.
public enum ListItemKind: UInt8, Sendable, Hashable, CaseIterable {
    /// A section's header.
    case header
    /// A row of a section.
    case row
    /// A section's footer.
    case footer
}
