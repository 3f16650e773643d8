import Dispatch
import Foundation
import RowKitCells

// Batch updates: inserts, deletes, moves, reloads of rows and sections.
extension ListEngine {
    // MARK: updates

    /// Applies several changes at once. Operations apply in the order given, each index
    /// referring to the list as the previous operations left it. Costs O(k log n) for k
    /// changes. The row at the top of the viewport keeps its screen y; if it is deleted, the
    /// row that takes its place does.
    public func performBatchUpdates(_ updates: (inout ListBatch) -> Void) throws(ListError) {
        var batch = ListBatch()
        updates(&batch)
        lock.lock()
        defer { lock.unlock() }
        var anchor = captureAnchor()
        // Operations before a failing one stay applied (each is checked before it changes
        // anything); the viewport is re-anchored either way.
        defer { restore(anchor) }
        for operation in batch.operations {
            try perform(operation, anchor: &anchor)
        }
    }

    func perform(_ operation: ListBatch.Operation, anchor: inout Anchor?) throws(ListError) {
        switch operation {
        case .insertRows(let rows, let path):
            guard path.section >= 0 && path.section < sections.count, path.row >= 0 && path.row <= sections[path.section].rowCount else {
                throw .indexOutOfRange("insert at \(path)")
            }
            let at = flatIndex(path)
            insertItems(rows.map { (.row, $0) }, at: at, anchor: &anchor)
            sections[path.section].rowCount += rows.count
            sectionItems.add(Int64(rows.count), at: path.section)
        case .deleteRow(let path):
            let at = try checkedIndex(path)
            removeItem(at: at, anchor: &anchor)
            sections[path.section].rowCount -= 1
            sectionItems.add(-1, at: path.section)
        case .moveRow(let from, let to):
            let source = try checkedIndex(from)
            // The destination is checked before anything changes (after the removal, the
            // source section has one row less).
            let rowsAfterRemoval = { (s: Int) in self.sections[s].rowCount - (s == from.section ? 1 : 0) }
            guard to.section >= 0 && to.section < sections.count, to.row >= 0 && to.row <= rowsAfterRemoval(to.section) else {
                throw .indexOutOfRange("move to \(to)")
            }
            let item = items[source]
            let height = heights.height(at: source)
            let wasAnchor = anchor?.index == source
            let screenY = anchor?.screenY
            removeItem(at: source, anchor: &anchor, keepSelection: true)
            sections[from.section].rowCount -= 1
            sectionItems.add(-1, at: from.section)
            let target = flatIndex(to)
            insertItem(item, height: height, at: target, anchor: &anchor)
            sections[to.section].rowCount += 1
            sectionItems.add(1, at: to.section)
            if wasAnchor, let screenY { anchor = Anchor(index: target, screenY: screenY) }
        case .reloadRow(let path, let row):
            let at = try checkedIndex(path)
            let old = items[at]
            if old.row.id != row.id {
                _selected.remove(old.row.id)
                if _highlighted == old.row.id { _highlighted = nil }
            }
            dropPrepared(old)
            items[at] = Item(row: row, kind: old.kind, measured: false, revision: old.revision &+ 1)
            if old.measured { unmeasured += 1 }
            heights.setHeight(estimate(for: row.template), at: at)
            log(.invalidate(at: at))
        case .insertSection(let section, let index):
            guard index >= 0 && index <= sections.count else { throw .indexOutOfRange("insert section \(index)") }
            let at = Int(sectionItems.prefix(index))
            sections.insert(SectionInfo(id: section.id, hasHeader: section.header != nil, hasFooter: section.footer != nil,
                                        rowCount: section.rows.count), at: index)
            rebuildSections()
            insertItems(Self.items(of: section), at: at, anchor: &anchor)
        case .deleteSection(let index):
            guard index >= 0 && index < sections.count else { throw .indexOutOfRange("delete section \(index)") }
            let at = Int(sectionItems.prefix(index))
            for _ in 0..<sections[index].itemCount { removeItem(at: at, anchor: &anchor) }
            sections.remove(at: index)
            rebuildSections()
        }
    }

    func checkedIndex(_ path: IndexPath) throws(ListError) -> Int {
        guard path.section >= 0 && path.section < sections.count, path.row >= 0 && path.row < sections[path.section].rowCount else {
            throw .indexOutOfRange("row \(path)")
        }
        return flatIndex(path)
    }

    func insertItems(_ new: [(ListItemKind, ListRow)], at index: Int, anchor: inout Anchor?) {
        for (k, entry) in new.enumerated() {
            items.insert(Item(row: entry.1, kind: entry.0, measured: false, revision: 0), at: index + k)
            heights.insert([estimate(for: entry.1.template)], at: index + k)
            unmeasured += 1
        }
        log(.insert(at: index, count: new.count))
        if var a = anchor, index <= a.index {
            a.index += new.count
            anchor = a
        }
    }

    /// Re-inserts a moved item with its height, measured state and prepared form intact.
    func insertItem(_ item: Item, height: Double, at index: Int, anchor: inout Anchor?) {
        items.insert(item, at: index)
        heights.insert([height], at: index)
        if !item.measured { unmeasured += 1 }
        if item.prepared != nil {
            preparedBytes += Int(item.preparedBytes)
            preparedRows += 1
        }
        log(.insert(at: index, count: 1))
        if var a = anchor, index <= a.index {
            a.index += 1
            anchor = a
        }
    }

    func removeItem(at index: Int, anchor: inout Anchor?, keepSelection: Bool = false) {
        let item = items.remove(at: index)
        heights.remove(at: index)
        if !item.measured { unmeasured -= 1 }
        dropPrepared(item)
        if !keepSelection {
            _selected.remove(item.row.id)
            if _highlighted == item.row.id { _highlighted = nil }
        }
        log(.remove(at: index))
        if var a = anchor {
            if index < a.index {
                a.index -= 1
            } else if index == a.index && a.index >= items.count {
                // The last row went: its neighbour above takes its place.
                a.index = max(0, items.count - 1)
            }
            anchor = a
        }
    }

}


/// Changes for ``ListEngine/performBatchUpdates(_:)``, applied in order.
public struct ListBatch: Sendable {
    enum Operation: Sendable {
        case insertRows([ListRow], at: IndexPath)
        case deleteRow(IndexPath)
        case moveRow(from: IndexPath, to: IndexPath)
        case reloadRow(IndexPath, with: ListRow)
        case insertSection(ListSection, at: Int)
        case deleteSection(Int)
    }
    var operations: [Operation] = []

    /// Inserts rows before `path` (`path.row` may equal the section's row count to append).
    public mutating func insert(_ rows: [ListRow], at path: IndexPath) { operations.append(.insertRows(rows, at: path)) }
    /// Deletes the row at `path`.
    public mutating func delete(at path: IndexPath) { operations.append(.deleteRow(path)) }
    /// Moves a row; `to` is its index path after the move.
    public mutating func move(from: IndexPath, to: IndexPath) { operations.append(.moveRow(from: from, to: to)) }
    /// Replaces the row at `path` with new data (measured again; its cell reconfigured).
    public mutating func reload(at path: IndexPath, with row: ListRow) { operations.append(.reloadRow(path, with: row)) }
    /// Inserts a section at `index`.
    public mutating func insertSection(_ section: ListSection, at index: Int) { operations.append(.insertSection(section, at: index)) }
    /// Deletes the section at `index` with its rows.
    public mutating func deleteSection(at index: Int) { operations.append(.deleteSection(index)) }
}
