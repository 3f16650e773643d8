import RowKitCells

/// A cell a ``CellReuser`` hands out. It is generic: a window's view, a test double, anything.
public protocol ReusableCell: AnyObject {
    /// Shows `row` in `state`. Called whenever the cell is given a row, and again when the
    /// row's data or state may have changed: the cell must set everything it shows from these
    /// arguments alone, so nothing of a previous row can remain.
    func configure(with row: ListRow, kind: ListItemKind, state: CellState)
    /// The cell left the screen and waits in the pool.
    func prepareForReuse()
}

/// Keeps one cell per visible row, reusing cells by reuse identifier (the row's template).
///
/// After each ``update(_:state:)`` exactly the visible items (overscan included) have cells:
/// cells of rows that scrolled away are reused for rows that scrolled in with the same
/// identifier, new ones are made only when the pool has none, and spare cells are dropped.
public final class CellReuser<Cell: ReusableCell> {
    private let make: (String) -> Cell
    private var pool: [String: [Cell]] = [:]
    private var onScreen: [String: (cell: Cell, identifier: String)] = [:]
    /// Cells made so far (not reused).
    public private(set) var createdCount = 0

    /// A reuser that makes a new cell for a reuse identifier with `make`.
    public init(make: @escaping (String) -> Cell) { self.make = make }

    /// Takes a cell for `identifier` from the pool, or makes one.
    public func dequeue(_ identifier: String) -> Cell {
        if let cell = pool[identifier]?.popLast() { return cell }
        createdCount += 1
        return make(identifier)
    }

    /// Gives every item in `visible` a cell configured for its row and state, and returns
    /// them in the same order.
    public func update(_ visible: [VisibleItem], state: (VisibleItem) -> CellState) -> [(item: VisibleItem, cell: Cell)] {
        var templates: [String: String] = [:]
        for item in visible { templates[item.row.id] = item.row.template }
        for (id, entry) in onScreen where templates[id] != entry.identifier {
            entry.cell.prepareForReuse()
            pool[entry.identifier, default: []].append(entry.cell)
            onScreen[id] = nil
        }
        var result: [(item: VisibleItem, cell: Cell)] = []
        result.reserveCapacity(visible.count)
        for item in visible {
            let cell: Cell
            if let existing = onScreen[item.row.id] {
                cell = existing.cell
            } else {
                cell = dequeue(item.row.template)
                onScreen[item.row.id] = (cell, item.row.template)
            }
            cell.configure(with: item.row, kind: item.kind, state: state(item))
            result.append((item, cell))
        }
        pool.removeAll()
        return result
    }

    /// Cells alive: on screen plus waiting in the pool.
    public var aliveCount: Int { onScreen.count + pool.values.reduce(0) { $0 + $1.count } }
}
