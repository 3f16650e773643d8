/// Applying a planned batch: reloads in place, removals from the bottom up, insertions from
/// the top down, the viewport anchored throughout. O(k log n) for k changed items.
extension ListState {
    mutating func execute(_ plan: BatchPlan<Row>) {
        var anchor = captureAnchor()
        // When the anchor item moves, it is set aside with the others and anchored again
        // where it lands.
        typealias StashKey = BatchPlan<Row>.StashKey
        var anchorStash: StashKey?
        // Whether the anchor item was deleted: its replacement is an item that stays in place,
        // never one that moves away (the viewport would follow it).
        var anchorReplaced = false

        // Ids and kept rows first: the plan checked that the result is unique.
        idSet.subtract(plan.removedIDs)
        idSet.formUnion(plan.addedIDs)
        if !keptRows.isEmpty { for id in plan.removedIDs { keptRows[id] = nil } }
        if let highlighted, plan.removedIDs.contains(highlighted) { self.highlighted = nil }
        for id in plan.removedIDs { drawingForms.remove(id) }

        for (flat, element) in plan.reloads { reload(at: flat, with: element) }

        var stash: [StashKey: (item: ItemRecord, id: ID, height: Double)] = [:]
        for (flat, removal) in plan.removals {
            let item = items.remove(at: flat)
            let id = ids.remove(at: flat)
            let height = heights.remove(at: flat)
            changes.record(.remove(at: flat))
            var key: StashKey?
            switch removal {
            case .delete: break
            case .stashRow(let k): key = .row(k)
            case .stashSection(let old, let offset): key = .section(old: old, offset: offset)
            }
            if let key { stash[key] = (item, id, height) }
            guard anchorStash == nil, var a = anchor else { continue }
            if flat < a.index {
                a.index -= 1
            } else if flat == a.index {
                if let key, !anchorReplaced {
                    anchorStash = key
                } else {
                    // Removals run from the bottom up, so what now holds the index is the next
                    // item that stays in place; with none left below, the one above.
                    anchorReplaced = true
                    if a.index >= items.count { a.index = items.count - 1 }
                }
            }
            anchor = items.count == 0 && anchorStash == nil ? nil : a
        }

        sections.replace(with: plan.finalTable)

        var next = 0
        while next < plan.insertions.count {
            let (flat, insertion) = plan.insertions[next]
            let entry: (item: ItemRecord, id: ID, height: Double)
            var key: StashKey?
            switch insertion {
            case .new:
                // A run of new items at consecutive places (a section's, or rows inserted
                // together) goes in with one splice of each column, as in `performSingle`;
                // the anchor moves as it would for each of them (none of them is stashed).
                let runStart = next
                next = insertNewRun(plan.insertions, from: next)
                if anchorStash == nil, var a = anchor, flat <= a.index {
                    a.index += next - runStart
                    anchor = a
                }
                continue
            case .stashedRow(let k):
                key = .row(k)
                entry = stash.removeValue(forKey: .row(k))!
            case .stashedSection(let old, let offset):
                key = .section(old: old, offset: offset)
                entry = stash.removeValue(forKey: .section(old: old, offset: offset))!
            }
            next += 1
            items.insert(entry.item, at: flat)
            ids.insert(entry.id, at: flat)
            heights.insert([entry.height], at: flat)
            changes.record(.insert(at: flat, count: 1))
            if let key, key == anchorStash, var a = anchor {
                a.index = flat
                anchor = a
                anchorStash = nil
            } else if anchorStash == nil, var a = anchor, flat <= a.index {
                a.index += 1
                anchor = a
            }
        }
        restore(anchor)
    }

    /// Inserts the new items of `insertions` from `first` on while they are new and at
    /// consecutive places: one splice of each column and one change. Returns the index after
    /// the run.
    private mutating func insertNewRun(_ insertions: [(flat: Int, insertion: BatchPlan<Row>.Insertion)], from first: Int) -> Int {
        let start = insertions[first].flat
        var newItems: [ItemRecord] = []
        var newIDs: [ID] = []
        var newHeights: [Double] = []
        var end = first
        while end < insertions.count, insertions[end].flat == start + (end - first), case .new(let kind, let element) = insertions[end].insertion {
            let id = element.id
            if case .row(let row) = element { keptRows[id] = row }
            newItems.append(ItemRecord(kind: kind, serial: takeSerial()))
            newIDs.append(id)
            newHeights.append(estimates.estimate(for: kind))
            end += 1
        }
        spliceIn(newItems, ids: newIDs, heights: newHeights, at: start)
        return end
    }

    /// Puts new items at consecutive places from `start`: one splice of each column (items,
    /// ids, heights) and one change.
    private mutating func spliceIn(_ newItems: [ItemRecord], ids newIDs: [ID], heights newHeights: [Double], at start: Int) {
        guard !newItems.isEmpty else { return }
        items.insert(contentsOf: newItems, at: start)
        ids.insert(contentsOf: newIDs, at: start)
        heights.insert(newHeights, at: start)
        changes.record(.insert(at: start, count: newItems.count))
    }

    /// A batch of one row insert, delete or reload, applied directly (the common case: a chat
    /// or feed inserting a row). The same checks, result and anchoring as the general plan, in
    /// O(log n) without its bookkeeping. Returns false for any other operation.
    mutating func performSingle(_ operation: ListBatch<Row>.Operation) throws(ListError) -> Bool {
        switch operation {
        case .insertRows(let elements, let path):
            guard path.section >= 0 && path.section < sections.count else {
                throw .indexOutOfRange("insert at \(path): section \(path.section) (the list will have \(sections.count) sections after the update)")
            }
            let rowsAfter = sections[path.section].rowCount + elements.count
            guard path.row >= 0 && path.row + elements.count <= rowsAfter else {
                let bad = ListIndexPath(section: path.section, row: path.row < 0 ? path.row : path.row + elements.count - 1)
                throw .indexOutOfRange("insert or move to \(bad): section \(path.section) will have \(rowsAfter) rows after the update")
            }
            // One set insert per row checks both rules (an id already in the list, or given
            // twice here) and is the insert the update needs (a dictionary of first positions
            // and a separate lookup cost three hash operations a row). On a duplicate, the ids
            // added so far come out again and the error names the same rows as before.
            var newIDs: [ID] = []
            newIDs.reserveCapacity(elements.count)
            for k in elements.indices { newIDs.append(elements[k].id) }
            let added = IDColumn.insert(newIDs, into: &idSet)
            if added < newIDs.count {
                IDColumn.remove(newIDs[..<added], from: &idSet)
                let id = newIDs[added]
                let at = ListIndexPath(section: path.section, row: path.row + added)
                if let first = newIDs[..<added].firstIndex(of: id) {
                    throw .duplicateID(String(describing: id), ListIndexPath(section: path.section, row: path.row + first), at)
                }
                var existing = indexPath(ofFlat: ids.firstIndex { $0 == id } ?? 0)
                if existing.section == path.section && existing.row >= path.row { existing.row += elements.count }
                throw .duplicateID(String(describing: id), min(existing, at), max(existing, at))
            }
            var anchor = captureAnchor()
            let start = sections.flatIndex(ofRow: path)
            let height = estimates.estimate(for: .row)
            // All rows in one splice of each column, one change and one anchor shift: inserting
            // them one at a time split blocks (summing every height) every half block.
            var newItems: [ItemRecord] = []
            newItems.reserveCapacity(elements.count)
            for k in elements.indices {
                if case .row(let row) = elements[k] { keptRows[newIDs[k]] = row }
                newItems.append(ItemRecord(kind: .row, serial: takeSerial()))
            }
            spliceIn(newItems, ids: newIDs, heights: [Double](repeating: height, count: elements.count), at: start)
            // The per-row rule (a row inserted at or above the anchor pushes it down), for all.
            if var a = anchor, start <= a.index { a.index += elements.count; anchor = a }
            sections.addRows(elements.count, inSection: path.section)
            restore(anchor)
            return true
        case .deleteRow(let path):
            guard path.section >= 0 && path.section < sections.count else {
                throw .indexOutOfRange("delete \(path): section \(path.section) (the list has \(sections.count) sections before the update)")
            }
            guard sections.contains(row: path) else {
                throw .indexOutOfRange("delete \(path): row \(path) (section \(path.section) has \(sections[path.section].rowCount) rows before the update)")
            }
            var anchor = captureAnchor()
            let flat = sections.flatIndex(ofRow: path)
            items.remove(at: flat)
            let id = ids.remove(at: flat)
            heights.remove(at: flat)
            changes.record(.remove(at: flat))
            sections.addRows(-1, inSection: path.section)
            idSet.remove(id)
            if !keptRows.isEmpty { keptRows[id] = nil }
            if highlighted == id { highlighted = nil }
            drawingForms.remove(id)
            if var a = anchor {
                if flat < a.index { a.index -= 1 } else if flat == a.index && a.index >= items.count { a.index = items.count - 1 }
                anchor = items.count == 0 ? nil : a
            }
            restore(anchor)
            return true
        case .reloadRow(let path, let element):
            guard path.section >= 0 && path.section < sections.count else {
                throw .indexOutOfRange("reload \(path): section \(path.section) (the list has \(sections.count) sections before the update)")
            }
            guard sections.contains(row: path) else {
                throw .indexOutOfRange("reload \(path): row \(path) (section \(path.section) has \(sections[path.section].rowCount) rows before the update)")
            }
            let flat = sections.flatIndex(ofRow: path)
            let oldID = ids[flat]
            if let element, element.id != oldID {
                if idSet.contains(element.id) {
                    let existing = indexPath(ofFlat: ids.firstIndex { $0 == element.id } ?? 0)
                    throw .duplicateID(String(describing: element.id), min(existing, path), max(existing, path))
                }
                idSet.remove(oldID)
                idSet.insert(element.id)
                if !keptRows.isEmpty { keptRows[oldID] = nil }
                if highlighted == oldID { highlighted = nil }
            }
            let anchor = captureAnchor()
            reload(at: flat, with: element)
            restore(anchor)
            return true
        default:
            return false
        }
    }

    /// Reloads the item at `flat` in place: new data (and maybe a new id), measured again.
    mutating func reload(at flat: Int, with element: ListBatch<Row>.Element?) {
        let oldID = ids[flat]
        let newID = element?.id ?? oldID
        switch element {
        case .row(let row): keptRows[newID] = row
        case .id: keptRows[newID] = nil   // its data is to be asked of the data source now
        case nil: break
        }
        if newID != oldID { ids[flat] = newID }
        let serial = takeSerial()
        let kind = items.update(at: flat) { item in
            item.form = nil
            item.generation = 0
            item.serial = serial
            if newID != oldID { item.selected = false }
            return item.kind
        }
        heights.setHeight(estimates.estimate(for: kind), at: flat)
        changes.record(.invalidate(at: flat))
        drawingForms.remove(oldID)
        drawingForms.remove(newID)
        dataEpoch += 1
    }
}

extension ListEngine {
    /// Applies several changes at once, with UIKit's index rule: deletes, reloads and move
    /// sources refer to index paths before the update, inserts and move destinations to index
    /// paths after it (see ``ListBatch`` for a worked example). The whole batch is checked
    /// first: if anything is inconsistent, nothing changes.
    ///
    /// The item at the top of the viewport keeps its screen position (if it is deleted, the next
    /// item that stays in place takes its place, else the one above it; never a row that moves
    /// away), except as ``scrollAnchoring`` says at the top or bottom.
    /// Costs O(k log n) for k changed items (plus O(sections)).
    ///
    /// - Throws: ``ListError/indexOutOfRange(_:)``, ``ListError/inconsistentBatch(_:)`` or
    ///   ``ListError/duplicateID(_:_:_:)``, before any change.
    public func performBatchUpdates(_ updates: (inout ListBatch<Row>) -> Void) throws(ListError) {
        var batch = ListBatch<Row>()
        updates(&batch)
        guard !batch.isEmpty else { return }
        try state.withLock { s throws(ListError) in
            if batch.operations.count == 1, try s.performSingle(batch.operations[0]) { return }
            s.buildIDSet()
            let plan = try s.plan(batch)
            s.execute(plan)
        }
    }
}
