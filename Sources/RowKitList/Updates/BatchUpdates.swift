/// Applying a planned batch: removals, reloads in place, insertions, the viewport anchored
/// throughout. Each column (items, ids, heights) loses its removed items in one walk over its
/// blocks and takes its inserted ones in another, with one change-log entry and one anchor
/// step for each; the id set changes in bulk. O(k log n + blocks) for k changed items, where
/// one item at a time cost ~49,000 instructions per deleted row.
extension ListState {
    mutating func execute(_ plan: BatchPlan<Row>) {
        var anchor = captureAnchor()
        // When the anchor item moves, it is set aside with the others and anchored again
        // where it lands.
        var anchorStash: BatchStashKey?

        // Kept rows of the items going away first: a reload may give its row one of their ids.
        if !keptRows.isEmpty {
            for (flat, removal) in plan.removals where removal == .delete { keptRows[ids[flat]] = nil }
            for id in plan.replacedIDs { keptRows[id] = nil }
        }
        // Reloads in place (indices before the update; a reloaded item may move after).
        for (flat, element) in plan.reloads { reload(at: flat, with: element) }
        reloadKeepingIDs(plan.sameIDReloads)

        // Removals (indices before the update, ascending).
        let removalRuns = IndexRuns(ascending: plan.removals.lazy.map(\.flat))
        let countBefore = items.count
        var removedItems: [ItemRecord] = []
        var removedIDs: [ID] = []
        var removedHeights: [Double] = []
        if !removalRuns.isEmpty {
            removedItems = items.remove(removalRuns)
            removedIDs = ids.remove(removalRuns)
            removedHeights = heights.remove(removalRuns)
            changes.record(.removeRuns(removalRuns))
            if var a = anchor {
                if let run = removalRuns.run(containing: a.index) {
                    switch plan.removals[Self.position(of: a.index, in: plan.removals)].removal {
                    case .stashRow(let k): anchorStash = .row(k)
                    case .stashSection(let old, let offset): anchorStash = .section(old: old, offset: offset)
                    case .delete:
                        // Its replacement is the next item that stays in place (never one that
                        // moves away: the viewport would follow it); with none below, the one
                        // above; with none, there is nothing to anchor.
                        let replacement = run.upperBound < countBefore ? run.upperBound : run.lowerBound - 1
                        if replacement >= 0, let index = removalRuns.indexAfterRemoving(replacement) { a.index = index } else { a.index = -1 }
                    }
                } else if let index = removalRuns.indexAfterRemoving(a.index) {
                    a.index = index
                }
                anchor = a.index < 0 && anchorStash == nil ? nil : a
            }
        }

        // Where each item set aside is among the removed ones: by move number, and by old
        // section and offset (arrays, not a dictionary of keys: hashing was most of a move).
        // A moved section's items come one after the other.
        var stashedMoves: [Int] = []
        var stashedSections: [Int: [Int]] = [:]
        var currentOld = -1
        var current: [Int] = []
        // Ids: out go the deleted items' (not the moved ones') and those reloads replace, in
        // go the new ones (the plan checked that the result is unique).
        var deletedIDs: [ID]
        if plan.removals.allSatisfy({ $0.removal == .delete }) {
            deletedIDs = removedIDs
        } else {
            deletedIDs = []
            for (k, entry) in plan.removals.enumerated() {
                switch entry.removal {
                case .delete: deletedIDs.append(removedIDs[k])
                case .stashRow(let r):
                    if r >= stashedMoves.count { stashedMoves.append(contentsOf: repeatElement(-1, count: r + 1 - stashedMoves.count)) }
                    stashedMoves[r] = k
                case .stashSection(let old, let offset):
                    if old != currentOld {
                        if currentOld >= 0 { stashedSections[currentOld] = current }
                        currentOld = old
                        current = stashedSections[old] ?? [Int](repeating: -1, count: sections[old].itemCount)
                    }
                    current[offset] = k
                }
            }
            if currentOld >= 0 { stashedSections[currentOld] = current }
        }
        deletedIDs.append(contentsOf: plan.replacedIDs)
        IDColumn.remove(deletedIDs[...], from: &idSet)
        // The highlighted item is in the list: gone from the set, it was removed.
        if let highlighted, !idSet.contains(highlighted) { self.highlighted = nil }
        _ = IDColumn.insert(plan.addedIDs, into: &idSet)
        drawingForms.remove(deletedIDs)

        sections.replace(with: plan.finalTable)

        // Insertions (final indices, ascending): new items and the ones set aside, every
        // column in one walk.
        if !plan.insertions.isEmpty {
            var newItems: [ItemRecord] = [], newIDs: [ID] = [], newHeights: [Double] = []
            newItems.reserveCapacity(plan.insertions.count)
            newIDs.reserveCapacity(plan.insertions.count)
            newHeights.reserveCapacity(plan.insertions.count)
            var anchorLanding: Int?
            for (flat, insertion) in plan.insertions {
                let key: BatchStashKey, k: Int
                switch insertion {
                case .new(let kind, let e):
                    let element = plan.newElements[e]
                    let id = element.id
                    if case .row(let row) = element { keptRows[id] = row }
                    newItems.append(ItemRecord(kind: kind, serial: takeSerial()))
                    newIDs.append(id)
                    newHeights.append(estimates.estimate(for: kind))
                    continue
                case .stashedRow(let move):
                    key = .row(move)
                    k = stashedMoves[move]
                case .stashedSection(let old, let offset):
                    key = .section(old: old, offset: offset)
                    if old != currentOld {
                        currentOld = old
                        current = stashedSections[old]!
                    }
                    k = current[offset]
                }
                newItems.append(removedItems[k])
                newIDs.append(removedIDs[k])
                newHeights.append(removedHeights[k])
                if key == anchorStash { anchorLanding = flat }
            }
            let insertionRuns = IndexRuns(ascending: plan.insertions.lazy.map(\.flat))
            let gaps = insertionRuns.gaps
            items.insert(newItems, at: gaps)
            ids.insert(newIDs, at: gaps)
            heights.insert(newHeights, at: gaps)
            changes.record(.insertRuns(insertionRuns))
            // An item inserted at or above the anchor pushes it down; a moved anchor is where
            // it lands.
            if var a = anchor {
                a.index = anchorStash == nil ? insertionRuns.indexAfterInserting(a.index) : anchorLanding ?? a.index
                anchor = a
            }
        }
        restore(anchor)
    }

    /// The position of the removal at `flat` in `removals` (ascending; it is there).
    private static func position(of flat: Int, in removals: [(flat: Int, removal: BatchRemoval)]) -> Int {
        var low = 0, high = removals.count
        while low < high {
            let mid = (low + high) / 2
            if removals[mid].flat < flat { low = mid + 1 } else { high = mid }
        }
        return low
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

    /// Reloads the items at `flats` in place keeping their ids, as `reload(at:with: nil)` does
    /// each, without its generic element (a batch reloading 100,000 rows spent most of its time
    /// in type-metadata lookups for it): new serials, estimates, the drawing forms dropped.
    mutating func reloadKeepingIDs(_ flats: [Int]) {
        guard !flats.isEmpty else { return }
        for flat in flats {
            let serial = takeSerial()
            let kind = items.update(at: flat) { item in
                item.form = nil
                item.generation = 0
                item.serial = serial
                return item.kind
            }
            heights.setHeight(estimates.estimate(for: kind), at: flat)
            changes.record(.invalidate(at: flat))
        }
        if drawingForms.count > 0 { drawingForms.remove(flats.map { ids[$0] }) }
        dataEpoch += flats.count
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
    /// Costs O(k log n) for k changed items (plus O(sections)); many changes at once cost one
    /// walk over the list's blocks of rows instead (O(k + n / 256)).
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
