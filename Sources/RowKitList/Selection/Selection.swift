/// Selection and highlight. Selection is a flag on the item (it follows the item through moves
/// and reloads that keep its id); each block counts its selected items, so queries cost
/// O(selected items), not O(items).
extension ListState {
    mutating func deselectAll() {
        var selected: [Int] = []
        items.forEachSelected { index, _ in selected.append(index) }
        for index in selected { items.update(at: index) { $0.selected = false } }
    }
}

extension ListEngine {
    /// Whether several rows can be selected at once (default false: selecting a row deselects
    /// the others). Turning it off keeps the current selection until the next `select`.
    public var allowsMultipleSelection: Bool {
        get { state.withLock { $0.allowsMultipleSelection } }
        set { state.withLock { $0.allowsMultipleSelection = newValue } }
    }

    /// Selects the row at `path` (deselecting the others unless multiple selection is allowed).
    /// - Throws: ``ListError/indexOutOfRange(_:)``.
    public func select(_ path: ListIndexPath) throws(ListError) {
        try state.withLock { s throws(ListError) in
            let index = try s.rowIndex(path)
            if !s.allowsMultipleSelection { s.deselectAll() }
            s.items.update(at: index) { $0.selected = true }
        }
    }

    /// Deselects the row at `path` (nothing happens if it is not selected).
    /// - Throws: ``ListError/indexOutOfRange(_:)``.
    public func deselect(_ path: ListIndexPath) throws(ListError) {
        try state.withLock { s throws(ListError) in
            let index = try s.rowIndex(path)
            s.items.update(at: index) { $0.selected = false }
        }
    }

    /// Deselects every row.
    public func deselectAll() {
        state.withLock { $0.deselectAll() }
    }

    /// Marks the row under a press as highlighted (nil clears it); at most one row is.
    /// - Throws: ``ListError/indexOutOfRange(_:)``.
    public func highlight(_ path: ListIndexPath?) throws(ListError) {
        try state.withLock { s throws(ListError) in
            guard let path else { s.highlighted = nil; return }
            s.highlighted = s.ids[try s.rowIndex(path)]
        }
    }

    /// Selected rows in list order: O(selected rows).
    public var selectedIndexPaths: [ListIndexPath] {
        state.withLock { s in
            var result: [ListIndexPath] = []
            result.reserveCapacity(s.items.selectedCount)
            s.items.forEachSelected { index, _ in result.append(s.indexPath(ofFlat: index)) }
            return result
        }
    }

    /// Ids of the selected rows in list order: O(selected rows).
    public var selectedIDs: [ID] {
        state.withLock { s in
            var result: [ID] = []
            s.items.forEachSelected { index, _ in result.append(s.ids[index]) }
            return result
        }
    }

    /// The state item `index` is drawn in (``VisibleItem/state`` has it for visible items).
    /// - Throws: ``ListError/indexOutOfRange(_:)``.
    public func state(ofItem index: Int) throws(ListError) -> ListItemState {
        try state.withLock { s throws(ListError) in
            let i = try s.checkedItem(index)
            return s.state(of: s.items[i], id: s.ids[i])
        }
    }
}
