/// The changes of one ``ListEngine/performBatchUpdates(_:)`` call, with UIKit's index rule:
/// **deletes, reloads and move sources refer to index paths before the update; inserts and
/// move destinations to index paths after it** — the order of the calls does not matter.
///
/// A worked example. Before: section 0 has rows `a b c d e` (rows 0–4).
///
/// ```swift
/// try list.performBatchUpdates { batch in
///     batch.delete(at: ListIndexPath(section: 0, row: 1))        // b: row 1 before
///     batch.delete(at: ListIndexPath(section: 0, row: 3))        // d: row 3 before
///     batch.insert([x], at: ListIndexPath(section: 0, row: 0))   // x: row 0 after
///     batch.move(from: ListIndexPath(section: 0, row: 4),        // e: row 4 before …
///                to: ListIndexPath(section: 0, row: 1))          // … row 1 after
/// }
/// ```
///
/// After: `x e a c` — `x` and `e` take the after-positions 0 and 1 given for them, and the rows
/// that stay (`a c`, in their old order) fill the other positions. Sections follow the same
/// rule (``deleteSection(at:)``, ``reloadSection(at:)`` and ``moveSection(from:to:)``'s source
/// before; ``insertSection(_:at:)`` and the move's destination after).
///
/// The engine checks the whole batch before changing anything and throws
/// ``ListError/inconsistentBatch(_:)`` or ``ListError/indexOutOfRange(_:)`` naming the first
/// problem: an index path that does not exist before (or after) the update, a row named twice,
/// a row operation inside a section deleted, reloaded or inserted by the same batch, or
/// ``ListError/duplicateID(_:_:_:)`` for an id the list would hold twice.
///
/// Rows given as values (``insert(_:at:)``) are kept by the engine; rows given as ids
/// (``insert(ids:at:)``) are asked of the list's ``ListDataSource`` when needed.
public struct ListBatch<Row: Identifiable & Sendable>: Sendable where Row.ID: Sendable {
    /// The id type of the rows.
    public typealias ID = Row.ID

    /// A new item: its row (kept by the engine) or only its id (its data pulled).
    enum Element: Sendable {
        case row(Row)
        case id(ID)
        var id: ID {
            switch self {
            case .row(let row): return row.id
            case .id(let id): return id
            }
        }
        var row: Row? {
            if case .row(let row) = self { return row }
            return nil
        }
    }

    enum Operation: Sendable {
        case insertRows([Element], at: ListIndexPath)
        case deleteRow(ListIndexPath)
        case reloadRow(ListIndexPath, with: Element?)
        case moveRow(from: ListIndexPath, to: ListIndexPath)
        case insertSection(ListSection<Element>, at: Int)
        case deleteSection(Int)
        case reloadSection(Int, with: ListSection<Element>?)
        case moveSection(from: Int, to: Int)
    }

    var operations: [Operation] = []

    /// An empty batch.
    public init() {}

    /// Inserts `rows` (kept by the engine) at `path` and the rows after it (positions after
    /// the update; `path.row` may equal the section's final row count minus `rows.count`).
    public mutating func insert(_ rows: [Row], at path: ListIndexPath) { operations.append(.insertRows(rows.map { .row($0) }, at: path)) }
    /// Inserts the rows with these ids (their data from the data source) at `path` and after
    /// (positions after the update).
    public mutating func insert(ids: [ID], at path: ListIndexPath) { operations.append(.insertRows(ids.map { .id($0) }, at: path)) }
    /// Deletes the row at `path` (position before the update).
    public mutating func delete(at path: ListIndexPath) { operations.append(.deleteRow(path)) }
    /// Deletes the rows at `paths` (positions before the update).
    public mutating func delete(_ paths: [ListIndexPath]) { for path in paths { delete(at: path) } }
    /// Asks for the row at `path` (position before the update) again: same id, new data; it is
    /// measured again and keeps its selection.
    public mutating func reload(at path: ListIndexPath) { operations.append(.reloadRow(path, with: nil)) }
    /// Reloads the rows at `paths` (positions before the update).
    public mutating func reload(_ paths: [ListIndexPath]) { for path in paths { reload(at: path) } }
    /// Replaces the row at `path` (position before the update) with `row` (kept by the engine);
    /// with a different id it is a new row (not selected).
    public mutating func reload(at path: ListIndexPath, with row: Row) { operations.append(.reloadRow(path, with: .row(row))) }
    /// Replaces the row at `path` (position before the update) with the row with `id` (its data
    /// from the data source).
    public mutating func reload(at path: ListIndexPath, withID id: ID) { operations.append(.reloadRow(path, with: .id(id))) }
    /// Moves a row from `from` (position before the update) to `to` (position after). It keeps
    /// its height, measuring form and selection.
    public mutating func move(from: ListIndexPath, to: ListIndexPath) { operations.append(.moveRow(from: from, to: to)) }
    /// Inserts a section of rows (kept by the engine) at `index` (after the update).
    public mutating func insertSection(_ section: ListSection<Row>, at index: Int) {
        operations.append(.insertSection(section.map { .row($0) }, at: index))
    }
    /// Inserts a section of row ids (data from the data source) at `index` (after the update).
    public mutating func insertSection(ids section: ListSection<ID>, at index: Int) {
        operations.append(.insertSection(section.map { .id($0) }, at: index))
    }
    /// Deletes the section at `index` (before the update) with its header, rows and footer.
    public mutating func deleteSection(at index: Int) { operations.append(.deleteSection(index)) }
    /// Asks for every item of the section at `index` (before the update) again: same ids, new data.
    public mutating func reloadSection(at index: Int) { operations.append(.reloadSection(index, with: nil)) }
    /// Replaces the section at `index` (before the update) with `section` (rows kept by the engine).
    public mutating func reloadSection(at index: Int, with section: ListSection<Row>) {
        operations.append(.reloadSection(index, with: section.map { .row($0) }))
    }
    /// Replaces the section at `index` (before the update) with a section of row ids.
    public mutating func reloadSection(at index: Int, ids section: ListSection<ID>) {
        operations.append(.reloadSection(index, with: section.map { .id($0) }))
    }
    /// Moves the section at `from` (before the update) to `to` (after), with its items as they
    /// are (heights, forms, selection).
    public mutating func moveSection(from: Int, to: Int) { operations.append(.moveSection(from: from, to: to)) }

    /// Whether the batch holds no operation.
    public var isEmpty: Bool { operations.isEmpty }
}
