import Dispatch
import Foundation
import RowKitCells

// Selection and highlight.
extension ListEngine {
    // MARK: selection

    /// Selects the row at `path` (deselecting others unless multiple selection is allowed).
    public func select(_ path: IndexPath) throws(ListError) {
        lock.lock()
        defer { lock.unlock() }
        let id = items[try checkedIndex(path)].row.id
        if !allowsMultipleSelection { _selected.removeAll() }
        _selected.insert(id)
    }

    /// Deselects the row at `path`.
    public func deselect(_ path: IndexPath) throws(ListError) {
        lock.lock()
        defer { lock.unlock() }
        _selected.remove(items[try checkedIndex(path)].row.id)
    }

    /// Marks the row under a press as highlighted (nil clears it).
    public func highlight(_ path: IndexPath?) throws(ListError) {
        lock.lock()
        defer { lock.unlock() }
        guard let path else { _highlighted = nil; return }
        _highlighted = items[try checkedIndex(path)].row.id
    }

    /// Selected rows, in list order.
    public var selectedIndexPaths: [IndexPath] {
        locked {
            var result: [IndexPath] = []
            items.forEach(in: 0..<items.count) { index, item in
                if _selected.contains(item.row.id) { result.append(indexPath(ofFlat: index)) }
            }
            return result
        }
    }

    /// The state item `index` is drawn in.
    public func state(ofItem index: Int) -> CellState {
        locked {
            let id = items[index].row.id
            if _highlighted == id { return .highlighted }
            return _selected.contains(id) ? .selected : .normal
        }
    }

    /// All heights, top to bottom (for tests and export).
    public var allHeights: [Double] { locked { heights.heights } }

    /// Bytes of the height index (the per-row cost of heights and offsets).
    public var heightIndexBytes: Int { locked { heights.byteCount } }

    /// Bytes of prepared rows kept for width changes, and how many rows that is.
    public var preparedCacheBytes: (bytes: Int, rows: Int) { locked { (preparedBytes, preparedRows) } }
}
