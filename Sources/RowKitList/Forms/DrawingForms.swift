/// Drawing forms: made only for the items a view draws, from the item's data (and its measuring
/// form, which a measurer may reuse), kept in a small bounded cache.
extension ListEngine {
    /// The drawing form of a visible item (one ``visibleItems()`` returned), made outside the
    /// lock if it is not cached.
    ///
    /// - Throws: ``ListError/itemNotFound(id:)`` if the item left the list or changed id since,
    ///   and the data errors of an item whose data cannot be had.
    public func drawingForm(for item: VisibleItem<ID>) throws(ListError) -> Measurer.Drawing {
        try drawingForm(index: item.index, id: item.id)
    }

    /// The drawing form of the item at flat index `index`.
    /// - Throws: ``ListError/indexOutOfRange(_:)`` and the data errors.
    public func drawingForm(atItem index: Int) throws(ListError) -> Measurer.Drawing {
        let id = try item(at: index).id
        return try drawingForm(index: index, id: id)
    }

    func drawingForm(index: Int, id: ID) throws(ListError) -> Measurer.Drawing {
        let lookup = try state.withLock { s throws(ListError) -> DrawingLookup in
            if let form = s.drawingForms.form(for: id) { return .cached(form) }
            // The item is where the caller saw it, unless the list changed since: then it is
            // looked for (O(n), only when the list changed between the two calls).
            var at: Int?
            if index >= 0 && index < s.items.count && s.ids[index] == id { at = index }
            if at == nil, s.idSet.contains(id) { at = s.ids.firstIndex { $0 == id } }
            guard let at else { throw .itemNotFound(id: String(describing: id)) }
            let item = s.items[at]
            return .make(kept: s.keptRows.isEmpty ? nil : s.keptRows[id], kind: item.kind, path: s.indexPath(ofFlat: at),
                         form: item.form.map { unsafeDowncast($0, to: Measurer.Measuring.self) }, epoch: s.dataEpoch)
        }
        switch lookup {
        case .cached(let form):
            return form
        case .make(let kept, let kind, let path, let measuring, let epoch):
            let row = try context.rowData(id: id, kept: kept, kind: kind, path: path)
            let form: Measurer.Drawing
            do { form = try measurer.drawingForm(of: row, measuring: measuring) } catch { throw .rowFailed(id: String(describing: id), reason: error) }
            state.withLock { s in
                // Data reloaded meanwhile: the form may be stale, so it is not kept.
                if s.dataEpoch == epoch { s.drawingForms.insert(form, for: id) }
            }
            return form
        }
    }

    enum DrawingLookup: Sendable {
        case cached(Measurer.Drawing)
        case make(kept: Row?, kind: ListItemKind, path: ListIndexPath, form: Measurer.Measuring?, epoch: Int)
    }

    /// Drawing forms cached now (at most ``drawingCacheCapacity``).
    public var cachedDrawingFormCount: Int { state.withLock { $0.drawingForms.count } }
}
