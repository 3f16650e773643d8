/// Reloading everything, as UITableView's `reloadData`.
extension ListState {
    /// Forgets every measuring form: items keep their heights as estimates until measured
    /// again (so unchanged data does not move), and results in flight are dropped.
    mutating func invalidateAllData() {
        var serial = nextSerial
        items.updateRange(start: 0, count: items.count) { _, item in
            item.form = nil
            item.generation = 0
            item.serial = serial
            serial = serial &+ 1 == 0 ? 1 : serial &+ 1
        }
        nextSerial = serial
        changes.invalidateAll()
        drawingForms.removeAll()
        dataEpoch += 1
    }

    /// Replaces the whole list. Items whose ids were in the list before keep their heights as
    /// estimates; the selection and highlight are cleared (as UITableView's `reloadData`); the
    /// item at the viewport's top, if its id is still there, keeps its screen position.
    mutating func replaceAll(with newSections: [ListSection<ID>], kept newKept: [ID: Row]) throws(ListError) {
        let anchor = captureAnchor()
        let anchorID = anchor.map { ids[$0.index] }
        var fresh = try ListState(sections: newSections, kept: newKept, width: width, defaultEstimate: estimates.defaultEstimate,
                                  drawingCacheCapacity: drawingForms.capacity)
        var oldHeights: [ID: Double] = [:]
        oldHeights.reserveCapacity(items.count)
        ids.forEach(in: 0..<ids.count) { index, id in oldHeights[id] = heights.height(at: index) }
        var newHeights = [Double](repeating: .nan, count: fresh.items.count)
        var anchorIndex: Int?
        var kinds: [ListItemKind] = []
        kinds.reserveCapacity(fresh.items.count)
        fresh.items.forEach(in: 0..<fresh.items.count) { _, record in kinds.append(record.kind) }
        fresh.ids.forEach(in: 0..<fresh.ids.count) { index, id in
            newHeights[index] = oldHeights[id] ?? estimates.estimate(for: kinds[index])
            if id == anchorID { anchorIndex = index }
        }
        fresh.heights.setHeights(newHeights, startingAt: 0)
        // Serials go on from this list's, so results in flight never match a new item.
        fresh.items.updateRange(start: 0, count: fresh.items.count) { _, record in record.serial = takeSerial() }
        items = fresh.items
        sections = fresh.sections
        heights = fresh.heights
        ids = fresh.ids
        idSet = fresh.idSet
        keptRows = fresh.keptRows
        items.startGeneration(generation)
        highlighted = nil
        changes.invalidateAll()
        drawingForms.removeAll()
        dataEpoch += 1
        cursor = 0
        if let anchor, let anchorIndex {
            restore(Anchor(index: anchorIndex, screenY: anchor.screenY, wasAtTop: anchor.wasAtTop, wasAtBottom: anchor.wasAtBottom))
        } else {
            adjustOffset(to: clampOffset(contentOffset))
        }
    }
}

extension ListEngine {
    /// Asks for every item's data again (same ids): every measuring and drawing form is
    /// dropped; items keep their current heights as estimates until measured again (visible
    /// ones at the next ``visibleItems()``), so unchanged data does not move on screen.
    public func reloadData() {
        state.withLock { $0.invalidateAllData() }
    }

    /// Replaces the whole list with sections of ids (data from the data source). Items whose
    /// ids were there before keep their heights as estimates; selection and highlight are
    /// cleared; the item at the viewport's top stays put if its id is still there.
    /// - Throws: ``ListError/duplicateID(_:_:_:)`` (nothing changes).
    public func reloadData(sections: [ListSection<ID>]) throws(ListError) {
        try state.withLock { s throws(ListError) in try s.replaceAll(with: sections, kept: [:]) }
    }

    /// Replaces the whole list with sections of rows, which the engine keeps.
    /// - Throws: ``ListError/duplicateID(_:_:_:)`` (nothing changes).
    public func reloadData(sections: [ListSection<Row>]) throws(ListError) {
        var kept: [ID: Row] = [:]
        for section in sections {
            for (_, row) in section.items { kept[row.id] = row }
        }
        let ids = sections.map { $0.map(\.id) }
        try state.withLock { s throws(ListError) in try s.replaceAll(with: ids, kept: kept) }
    }
}
