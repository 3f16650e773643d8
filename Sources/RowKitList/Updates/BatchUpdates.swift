/// Applying a planned batch: reloads in place, removals from the bottom up, insertions from
/// the top down, the viewport anchored throughout. O(k log n) for k changed items.
extension ListState {
    mutating func execute(_ plan: BatchPlan<Row>) {
        var anchor = captureAnchor()
        // When the anchor item moves, it is set aside with the others and anchored again
        // where it lands.
        typealias StashKey = BatchPlan<Row>.StashKey
        var anchorStash: StashKey?

        // Ids and kept rows first: the plan checked that the result is unique.
        ids.subtract(plan.removedIDs)
        ids.formUnion(plan.addedIDs)
        if !keptRows.isEmpty { for id in plan.removedIDs { keptRows[id] = nil } }
        if let highlighted, plan.removedIDs.contains(highlighted) { self.highlighted = nil }
        for id in plan.removedIDs { drawingForms.remove(id) }

        for (flat, element) in plan.reloads { reload(at: flat, with: element) }

        var stash: [StashKey: (item: Element, height: Double)] = [:]
        for (flat, removal) in plan.removals {
            let item = items.remove(at: flat)
            let height = heights.remove(at: flat)
            changes.record(.remove(at: flat))
            var key: StashKey?
            switch removal {
            case .delete: break
            case .stashRow(let k): key = .row(k)
            case .stashSection(let old, let offset): key = .section(old: old, offset: offset)
            }
            if let key { stash[key] = (item, height) }
            guard anchorStash == nil, var a = anchor else { continue }
            if flat < a.index {
                a.index -= 1
            } else if flat == a.index {
                if let key {
                    anchorStash = key
                } else if a.index >= items.count {
                    // The last item went: the one above takes its place.
                    a.index = items.count - 1
                }
            }
            anchor = items.count == 0 && anchorStash == nil ? nil : a
        }

        sections.replace(with: plan.finalTable)

        for (flat, insertion) in plan.insertions {
            let entry: (item: Element, height: Double)
            var key: StashKey?
            switch insertion {
            case .new(let kind, let element):
                if let row = element.row { keptRows[element.id] = row }
                entry = (Element(id: element.id, kind: kind), estimates.estimate(for: kind))
            case .stashedRow(let k):
                key = .row(k)
                entry = stash.removeValue(forKey: .row(k))!
            case .stashedSection(let old, let offset):
                key = .section(old: old, offset: offset)
                entry = stash.removeValue(forKey: .section(old: old, offset: offset))!
            }
            items.insert(entry.item, at: flat)
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

    /// Reloads the item at `flat` in place: new data (and maybe a new id), measured again.
    mutating func reload(at flat: Int, with element: ListBatch<Row>.Element?) {
        let old = items[flat]
        let newID = element?.id ?? old.id
        switch element {
        case .row(let row): keptRows[newID] = row
        case .id: keptRows[newID] = nil   // its data is to be asked of the data source now
        case nil: break
        }
        items.update(at: flat) { item in
            item.id = newID
            item.form = nil
            item.generation = 0
            item.revision &+= 1
            if newID != old.id { item.selected = false }
        }
        heights.setHeight(estimates.estimate(for: old.kind), at: flat)
        changes.record(.invalidate(at: flat))
        drawingForms.remove(old.id)
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
    /// item that stays takes its place), except as ``scrollAnchoring`` says at the top or bottom.
    /// Costs O(k log n) for k changed items (plus O(sections)).
    ///
    /// - Throws: ``ListError/indexOutOfRange(_:)``, ``ListError/inconsistentBatch(_:)`` or
    ///   ``ListError/duplicateID(_:_:_:)``, before any change.
    public func performBatchUpdates(_ updates: (inout ListBatch<Row>) -> Void) throws(ListError) {
        var batch = ListBatch<Row>()
        updates(&batch)
        guard !batch.isEmpty else { return }
        try state.withLock { s throws(ListError) in
            let plan = try s.plan(batch)
            s.execute(plan)
        }
    }
}
