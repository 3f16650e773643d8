/// A section of a list: an optional header and footer around its rows.
///
/// `Element` is what the list is given for each item: the rows themselves (a small list the
/// engine keeps, ``ListEngine/init(sections:measurer:width:defaultEstimate:)``) or only their
/// ids (a list whose data a ``ListDataSource`` gives when asked,
/// ``ListEngine/init(sections:dataSource:measurer:width:defaultEstimate:)``).
public struct ListSection<Element> {
    /// The header item, drawn above the rows.
    public var header: Element?
    /// The rows, top to bottom.
    public var rows: [Element]
    /// The footer item, drawn below the rows.
    public var footer: Element?

    /// A section of `rows` with an optional header and footer.
    public init(header: Element? = nil, rows: [Element], footer: Element? = nil) {
        self.header = header
        self.rows = rows
        self.footer = footer
    }

    /// Items in list order: header, rows, footer.
    var items: [(kind: ListItemKind, element: Element)] {
        var result: [(kind: ListItemKind, element: Element)] = []
        result.reserveCapacity(rows.count + 2)
        if let header { result.append((.header, header)) }
        for row in rows { result.append((.row, row)) }
        if let footer { result.append((.footer, footer)) }
        return result
    }

    /// Number of items: rows plus header and footer.
    var itemCount: Int { rows.count + (header == nil ? 0 : 1) + (footer == nil ? 0 : 1) }

    /// The same section with every element transformed: `section.map(\.id)` gives the section
    /// of ids an engine with a ``ListDataSource`` is made with.
    public func map<T>(_ transform: (Element) throws -> T) rethrows -> ListSection<T> {
        ListSection<T>(header: try header.map(transform), rows: try rows.map(transform), footer: try footer.map(transform))
    }
}

extension ListSection: Sendable where Element: Sendable {}
extension ListSection: Equatable where Element: Equatable {}
extension ListSection: Hashable where Element: Hashable {}
