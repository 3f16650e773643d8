/// A cell a ``CellReuser`` hands out: a window's view, a test double, anything.
public protocol ReusableCell: AnyObject {
    /// The id type of the list's items.
    associatedtype ID: Hashable & Sendable
    /// Shows `item`. Called whenever the cell is given an item, and again whenever the item's
    /// data or state may have changed: the cell must set everything it shows from the item (and
    /// the data or drawing form the list gives for it), so nothing of a previous item remains.
    func configure(with item: VisibleItem<ID>)
    /// The cell left the screen and waits in the pool.
    func prepareForReuse()
}

/// Keeps one cell per visible item, reusing cells by reuse identifier (e.g. the item's cell
/// template).
///
/// After each ``update(_:reuseIdentifier:)`` exactly the visible items (overscan included)
/// have cells: cells of items that scrolled away are reused for items that scrolled in with the
/// same identifier, and new ones are made only when the pool has none. At most `spareLimit`
/// unused cells per identifier are kept for the next update (so a visible count that wobbles at
/// the viewport's edge does not keep making cells); the rest are dropped. Cells alive are thus
/// at most the visible ones plus `spareLimit` per identifier.
///
/// Not thread-safe: use it from the thread that draws.
public final class CellReuser<Cell: ReusableCell> {
    private let make: (String) -> Cell
    /// Unused cells kept per reuse identifier between updates.
    public let spareLimit: Int
    private var pool: [String: [Cell]] = [:]
    private var onScreen: [Cell.ID: (cell: Cell, identifier: String)] = [:]
    /// Cells made so far (not reused).
    public private(set) var createdCount = 0

    /// A reuser that makes a new cell for a reuse identifier with `make`, keeping at most
    /// `spareLimit` unused cells per identifier between updates.
    public init(spareLimit: Int = 2, make: @escaping (String) -> Cell) {
        self.spareLimit = max(0, spareLimit)
        self.make = make
    }

    /// Takes a cell for `identifier` from the pool, or makes one.
    public func dequeue(_ identifier: String) -> Cell {
        if let cell = pool[identifier]?.popLast() { return cell }
        createdCount += 1
        return make(identifier)
    }

    /// Gives every item in `visible` a cell of its reuse identifier, configured for it, and
    /// returns them in the same order.
    public func update(_ visible: [VisibleItem<Cell.ID>], reuseIdentifier: (VisibleItem<Cell.ID>) -> String) -> [(item: VisibleItem<Cell.ID>, cell: Cell)] {
        var identifiers: [Cell.ID: String] = [:]
        for item in visible { identifiers[item.id] = reuseIdentifier(item) }
        for (id, entry) in onScreen where identifiers[id] != entry.identifier {
            entry.cell.prepareForReuse()
            pool[entry.identifier, default: []].append(entry.cell)
            onScreen[id] = nil
        }
        var result: [(item: VisibleItem<Cell.ID>, cell: Cell)] = []
        result.reserveCapacity(visible.count)
        for item in visible {
            let cell: Cell
            if let existing = onScreen[item.id] {
                cell = existing.cell
            } else {
                let identifier = identifiers[item.id] ?? ""
                cell = dequeue(identifier)
                onScreen[item.id] = (cell, identifier)
            }
            cell.configure(with: item)
            result.append((item, cell))
        }
        for identifier in pool.keys where pool[identifier]!.count > spareLimit {
            pool[identifier]!.removeFirst(pool[identifier]!.count - spareLimit)
        }
        return result
    }

    /// Cells alive: on screen plus waiting in the pool.
    public var aliveCount: Int { onScreen.count + spareCount }

    /// Unused cells waiting in the pool (at most `spareLimit` per identifier).
    public var spareCount: Int { pool.values.reduce(0) { $0 + $1.count } }

    /// The most spares waiting for any one identifier.
    public var largestSparePool: Int { pool.values.map(\.count).max() ?? 0 }
}
