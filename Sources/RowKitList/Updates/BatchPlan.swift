/// What a batch does with an item it takes out. The plan's per-row vocabulary is declared
/// outside the generic `BatchPlan` so its arrays, dictionaries and sorts run specialized (a
/// type nested in a generic one is generic too: sorting 100,000 removals went through the
/// unspecialized standard library, a third of a large delete's instructions).
enum BatchRemoval: Equatable {
    case delete
    /// A moved row, kept aside as `stash` number k.
    case stashRow(Int)
    /// An item of a moved section (old section, offset of the item in it).
    case stashSection(old: Int, offset: Int)
}

/// What a batch puts in: a new item (its kind and its element's number in
/// `BatchPlan.newElements`) or an item set aside by a removal.
enum BatchInsertion {
    case new(ListItemKind, Int)
    case stashedRow(Int)
    case stashedSection(old: Int, offset: Int)
}

/// Where an item set aside during the update waits.
enum BatchStashKey: Hashable { case row(Int), section(old: Int, offset: Int) }

/// A row operation at its old index path: a delete, a reload (its element's number in the
/// plan's reload elements) or a move (the move's number).
enum BatchOldRowOp { case delete, reload(Int), move(Int) }
/// A row operation at its new index path: an insert (its element's number in
/// `BatchPlan.newElements`) or a move (the move's number).
enum BatchNewRowOp { case insert(Int), move(Int) }

/// A batch update checked against the list and turned into steps that can no longer fail:
/// in-place reloads (old flat indices), removals (old flat indices, ascending) and
/// insertions (final flat indices, ascending). Items that stay keep their relative order, so
/// inserting in ascending final order puts everything where it belongs.
struct BatchPlan<Row: Identifiable & Sendable> where Row.ID: Sendable {
    typealias Element = ListBatch<Row>.Element
    typealias ID = Row.ID

    // Planning vocabulary: what an old section becomes, where a final section comes from.
    enum OldRole { case keep, delete, reloadInPlace, replace(ListSection<Element>), move(to: Int) }
    enum Source { case kept(old: Int), moved(old: Int), new(ListSection<Element>), replaced(old: Int, ListSection<Element>) }

    /// Reloads with new data (and maybe a new id).
    var reloads: [(flat: Int, element: Element)] = []
    /// Reloads keeping the id (`reload(at:)`, a section reloaded in place): flat indices.
    var sameIDReloads: [Int] = []
    var removals: [(flat: Int, removal: BatchRemoval)] = []
    var insertions: [(flat: Int, insertion: BatchInsertion)] = []
    /// The elements of the new items, numbered by `BatchInsertion.new`.
    var newElements: [Element] = []
    var finalTable: [SectionTable.Section] = []
    /// Ids that reloads replace with other ids (the deleted items' ids are found as they are
    /// removed).
    var replacedIDs: [ID] = []
    /// Ids the update adds (unique, and not in the list unless removed by it).
    var addedIDs: [ID] = []
}

extension ListState {
    /// Checks `batch` against the list as it is (UIKit's index rule: deletes, reloads and move
    /// sources before the update; inserts and move destinations after) and plans it. Nothing
    /// changes here.
    func plan(_ batch: ListBatch<Row>) throws(ListError) -> BatchPlan<Row> {
        typealias Plan = BatchPlan<Row>
        typealias Element = Plan.Element
        typealias OldRole = Plan.OldRole
        typealias Source = Plan.Source
        typealias OldRowOp = BatchOldRowOp
        typealias NewRowOp = BatchNewRowOp

        /// Whether a row with this old-path operation (or none) stays in its section.
        func stays(_ op: OldRowOp?) -> Bool {
            guard let op else { return true }
            if case .reload = op { return true }
            return false
        }

        let oldCount = sections.count
        var role = [OldRole](repeating: .keep, count: oldCount)
        var fixed: [(index: Int, source: Source, what: String)] = []
        // Row operations by their operation's number (and row within an insert, `k`): the
        // message naming one is built only for an error.
        var rowOps: [(operation: Int, k: Int, old: ListIndexPath?, oldOp: OldRowOp?, new: ListIndexPath?, newOp: NewRowOp?)] = []
        var reloadElements: [Element?] = []
        var newElements: [Element] = []
        func what(_ op: (operation: Int, k: Int, old: ListIndexPath?, oldOp: OldRowOp?, new: ListIndexPath?, newOp: NewRowOp?)) -> String {
            switch batch.operations[op.operation] {
            case .deleteRow(let path): return "delete \(path)"
            case .reloadRow(let path, _): return "reload \(path)"
            case .moveRow(let from, let to): return "move \(from) to \(to)"
            case .insertRows(_, let path): return "insert at \(ListIndexPath(section: path.section, row: path.row + op.k))"
            default: return ""
            }
        }
        var moves = 0, insertedSections = 0, deletedSections = 0

        func takeOld(_ index: Int, _ what: String, _ newRole: OldRole) throws(ListError) {
            guard index >= 0 && index < oldCount else {
                throw .indexOutOfRange("\(what): section \(index) (the list has \(oldCount) sections before the update)")
            }
            guard case .keep = role[index] else { throw .inconsistentBatch("\(what): section \(index) is already deleted, reloaded or moved in this batch") }
            role[index] = newRole
        }

        rowOps.reserveCapacity(batch.operations.count)
        for number in batch.operations.indices {
            switch batch.operations[number] {
            case .deleteSection(let index):
                try takeOld(index, "delete section \(index)", .delete)
                deletedSections += 1
            case .reloadSection(let index, let content):
                try takeOld(index, "reload section \(index)", content.map { .replace($0) } ?? .reloadInPlace)
            case .moveSection(let from, let to):
                try takeOld(from, "move section \(from) to \(to)", .move(to: to))
                fixed.append((to, .moved(old: from), "move section \(from) to \(to)"))
            case .insertSection(let content, let index):
                fixed.append((index, .new(content), "insert section at \(index)"))
                insertedSections += 1
            case .deleteRow(let path):
                rowOps.append((number, 0, path, .delete, nil, nil))
            case .reloadRow(let path, let element):
                rowOps.append((number, 0, path, .reload(reloadElements.count), nil, nil))
                reloadElements.append(element)
            case .moveRow(let from, let to):
                rowOps.append((number, 0, from, .move(moves), to, .move(moves)))
                moves += 1
            case .insertRows(let elements, let path):
                for k in elements.indices {
                    rowOps.append((number, k, nil, nil, ListIndexPath(section: path.section, row: path.row + k), .insert(newElements.count)))
                    newElements.append(elements[k])
                }
            }
        }

        // Sections after the update: inserted and moved ones where given, the others in their
        // old order in the remaining places.
        let finalCount = oldCount - deletedSections + insertedSections
        var sources = [Source?](repeating: nil, count: finalCount)
        for entry in fixed {
            guard entry.index >= 0 && entry.index < finalCount else {
                throw .indexOutOfRange("\(entry.what): section \(entry.index) (the list will have \(finalCount) sections after the update)")
            }
            guard sources[entry.index] == nil else { throw .inconsistentBatch("\(entry.what): another section is inserted or moved to \(entry.index)") }
            sources[entry.index] = entry.source
        }
        var oldToNew = [Int?](repeating: nil, count: oldCount)
        var slot = 0
        for old in 0..<oldCount {
            switch role[old] {
            case .delete: continue
            case .move(let to): oldToNew[old] = to; continue
            case .keep, .reloadInPlace: break
            case .replace: break
            }
            while sources[slot] != nil { slot += 1 }
            if case .replace(let content) = role[old] { sources[slot] = .replaced(old: old, content) } else { sources[slot] = .kept(old: old) }
            oldToNew[old] = slot
        }
        let finalSources = sources.map { $0! }

        // Rows: old paths checked against the list before, new paths against it after.
        var oldRows: [ListIndexPath: OldRowOp] = [:]
        var newRows: [ListIndexPath: NewRowOp] = [:]
        oldRows.reserveCapacity(rowOps.count)
        newRows.reserveCapacity(rowOps.count)
        // What each section allows its rows, as plain values (the generic role and source enums
        // were copied for every row operation): old sections kept or moved take row changes;
        // final sections: 0 take rows, 1 reloaded in place, 2 come with their rows.
        let oldRowsOpen = role.map { r -> Bool in
            switch r {
            case .keep, .move: return true
            default: return false
            }
        }
        let finalRowsRule = finalSources.map { source -> Int8 in
            switch source {
            case .new, .replaced: return 2
            case .kept(let old):
                if case .reloadInPlace = role[old] { return 1 }
                return 0
            case .moved: return 0
            }
        }
        var removedFrom = [Int](repeating: 0, count: oldCount)
        var addedTo = [Int](repeating: 0, count: finalCount)
        for op in rowOps {
            if let path = op.old, let oldOp = op.oldOp {
                guard path.section >= 0 && path.section < oldCount else {
                    throw .indexOutOfRange("\(what(op)): section \(path.section) (the list has \(oldCount) sections before the update)")
                }
                guard oldRowsOpen[path.section] else {
                    throw .inconsistentBatch("\(what(op)): section \(path.section) is deleted or reloaded in this batch")
                }
                guard path.row >= 0 && path.row < sections[path.section].rowCount else {
                    throw .indexOutOfRange("\(what(op)): row \(path) (section \(path.section) has \(sections[path.section].rowCount) rows before the update)")
                }
                // One hash lookup: the plan is dropped on an error.
                guard oldRows.updateValue(oldOp, forKey: path) == nil else {
                    throw .inconsistentBatch("\(what(op)): row \(path) is already deleted, reloaded or moved in this batch")
                }
                if !stays(oldOp) { removedFrom[path.section] += 1 }
            }
            if let path = op.new, let newOp = op.newOp {
                guard path.section >= 0 && path.section < finalCount else {
                    throw .indexOutOfRange("\(what(op)): section \(path.section) (the list will have \(finalCount) sections after the update)")
                }
                switch finalRowsRule[path.section] {
                case 2: throw .inconsistentBatch("\(what(op)): section \(path.section) is inserted or reloaded in this batch (its rows come with it)")
                case 1: throw .inconsistentBatch("\(what(op)): section \(path.section) is reloaded in this batch")
                default: break
                }
                guard newRows.updateValue(newOp, forKey: path) == nil else {
                    throw .inconsistentBatch("\(what(op)): another row is inserted or moved to \(path)")
                }
                addedTo[path.section] += 1
            }
        }
        var finalRowCount = [Int](repeating: 0, count: finalCount)
        var plan = BatchPlan<Row>()
        plan.newElements = newElements
        for (j, source) in finalSources.enumerated() {
            switch source {
            case .kept(let old), .moved(let old):
                finalRowCount[j] = sections[old].rowCount - removedFrom[old] + addedTo[j]
                plan.finalTable.append(.init(hasHeader: sections[old].hasHeader, hasFooter: sections[old].hasFooter, rowCount: finalRowCount[j]))
            case .new(let content), .replaced(_, let content):
                finalRowCount[j] = content.rows.count
                plan.finalTable.append(.init(hasHeader: content.header != nil, hasFooter: content.footer != nil, rowCount: content.rows.count))
            }
        }
        for path in newRows.keys where path.row < 0 || path.row >= finalRowCount[path.section] {
            throw .indexOutOfRange("insert or move to \(path): section \(path.section) will have \(finalRowCount[path.section]) rows after the update")
        }
        var finalStarts = [0]
        for section in plan.finalTable { finalStarts.append(finalStarts[finalStarts.count - 1] + section.itemCount) }

        // Where an item that stays ends up (for error messages only).
        func finalPath(ofOld flat: Int) -> ListIndexPath {
            let path = indexPath(ofFlat: flat)
            guard let j = oldToNew[path.section] else { return path }
            if path.row < 0 { return ListIndexPath(section: j, row: -1) }
            if path.row >= sections[path.section].rowCount { return ListIndexPath(section: j, row: finalRowCount[j]) }
            var rank = path.row
            for (other, op) in oldRows where other.section == path.section && other.row < path.row && !stays(op) { rank -= 1 }
            var r = 0
            while true {
                if newRows[ListIndexPath(section: j, row: r)] == nil {
                    if rank == 0 { return ListIndexPath(section: j, row: r) }
                    rank -= 1
                }
                r += 1
            }
        }

        // Where rows that stay in their section (reloaded ones) end up, all at once:
        // `finalPath(ofOld:)` for each, without its scan of every row operation and of every
        // row above (a reload giving a row a new id deep in a large section cost a hash lookup
        // per row above it).
        func finalPaths(ofStaying paths: [ListIndexPath]) -> [ListIndexPath] {
            var removedRows: [Int: [Int]] = [:], newRowsIn: [Int: [Int]] = [:]
            for op in rowOps {
                if let path = op.old, let oldOp = op.oldOp, !stays(oldOp) { removedRows[path.section, default: []].append(path.row) }
                if let path = op.new { newRowsIn[path.section, default: []].append(path.row) }
            }
            for key in removedRows.keys { removedRows[key]!.sort() }
            for key in newRowsIn.keys { newRowsIn[key]!.sort() }
            func countBelow(_ value: Int, in sorted: [Int]) -> Int {
                var low = 0, high = sorted.count
                while low < high {
                    let mid = (low + high) / 2
                    if sorted[mid] < value { low = mid + 1 } else { high = mid }
                }
                return low
            }
            return paths.map { path in
                let j = oldToNew[path.section]!
                // Its rank among the rows staying in its section, then the rank-th place there
                // that no inserted or moved row takes.
                let rank = path.row - countBelow(path.row, in: removedRows[path.section] ?? [])
                let taken = newRowsIn[j] ?? []
                var low = rank, high = rank + taken.count
                while low < high {   // the smallest f with f − (taken places ≤ f) == rank
                    let mid = (low + high) / 2
                    if mid - countBelow(mid + 1, in: taken) < rank { low = mid + 1 } else { high = mid }
                }
                return ListIndexPath(section: j, row: low)
            }
        }

        // Ids: every id the list holds after the update must be unique.
        // Added ids and their paths apart, so sorting and checking them runs specialized.
        var addedIDs: [ID] = [], addedPaths: [ListIndexPath] = []
        func add(_ id: ID, _ path: ListIndexPath) {
            addedIDs.append(id)
            addedPaths.append(path)
        }
        var renamed: [(id: ID, path: ListIndexPath)] = []
        for op in rowOps {
            guard let path = op.old, case .reload(let r)? = op.oldOp, let element = reloadElements[r] else { continue }
            let oldID = ids[sections.flatIndex(ofRow: path)]
            if element.id != oldID {
                plan.replacedIDs.append(oldID)
                renamed.append((element.id, path))
            }
        }
        if !renamed.isEmpty {
            for (k, path) in finalPaths(ofStaying: renamed.map(\.path)).enumerated() { add(renamed[k].id, path) }
        }
        // The ids the update removes, gathered only if an added id is already in the list
        // (rare: most batches add only new ids, and a large delete needs no set of its ids).
        var removedIDs: Set<ID>?
        func isRemoved(_ id: ID) -> Bool {
            if removedIDs == nil {
                var set = Set(plan.replacedIDs)
                for (path, op) in oldRows {
                    if case .delete = op { set.insert(ids[sections.flatIndex(ofRow: path)]) }
                }
                for old in 0..<oldCount {
                    switch role[old] {
                    case .delete, .replace:
                        let start = sections.start(of: old)
                        ids.forEach(in: start..<(start + sections[old].itemCount)) { _, id in set.insert(id) }
                    default: break
                    }
                }
                removedIDs = set
            }
            return removedIDs!.contains(id)
        }
        for (path, op) in newRows {
            if case .insert(let e) = op { add(newElements[e].id, path) }
        }
        for (j, source) in finalSources.enumerated() {
            switch source {
            case .new(let content), .replaced(_, let content):
                if let header = content.header { add(header.id, ListIndexPath(section: j, row: -1)) }
                for (r, element) in content.rows.enumerated() { add(element.id, ListIndexPath(section: j, row: r)) }
                if let footer = content.footer { add(footer.id, ListIndexPath(section: j, row: content.rows.count)) }
            default: break
            }
        }
        // In index-path order: the first problem there is the one named.
        var order = Array(addedPaths.indices)
        if !zip(addedPaths, addedPaths.dropFirst()).allSatisfy({ $0 < $1 }) { order.sort { addedPaths[$0] < addedPaths[$1] } }
        let ordered = order.map { addedIDs[$0] }
        if let conflict = IDColumn.firstConflict(ordered, in: idSetStorage ?? IDColumn.set(of: ids), isRemoved: isRemoved) {
            let id = ordered[conflict.index], at = addedPaths[order[conflict.index]]
            if let earlier = conflict.earlier { throw .duplicateID(String(describing: id), addedPaths[order[earlier]], at) }
            let existing = ids.firstIndex { $0 == id }.map(finalPath(ofOld:)) ?? at
            throw .duplicateID(String(describing: id), min(existing, at), max(existing, at))
        }
        plan.addedIDs = ordered

        // The steps. Row operations in the batch's order (usually top to bottom: no sort).
        for op in rowOps {
            guard let path = op.old, let oldOp = op.oldOp else { continue }
            let flat = sections.flatIndex(ofRow: path)
            switch oldOp {
            case .reload(let r):
                if let element = reloadElements[r] { plan.reloads.append((flat, element)) } else { plan.sameIDReloads.append(flat) }
            case .delete: plan.removals.append((flat, .delete))
            case .move(let k): plan.removals.append((flat, .stashRow(k)))
            }
        }
        for old in 0..<oldCount {
            let start = sections.start(of: old), count = sections[old].itemCount
            switch role[old] {
            case .keep: break
            case .reloadInPlace:
                plan.sameIDReloads.append(contentsOf: start..<(start + count))
            case .delete, .replace:
                for flat in start..<(start + count) { plan.removals.append((flat, .delete)) }
            case .move:
                let headerOffset = sections[old].hasHeader ? 1 : 0
                for offset in 0..<count {
                    let row = offset - headerOffset
                    // Rows deleted or moved out are planned above.
                    if row >= 0 && row < sections[old].rowCount && !stays(oldRows[ListIndexPath(section: old, row: row)]) { continue }
                    plan.removals.append((start + offset, .stashSection(old: old, offset: offset)))
                }
            }
        }
        for (j, source) in finalSources.enumerated() {
            let start = finalStarts[j], header = plan.finalTable[j].hasHeader ? 1 : 0
            switch source {
            case .kept:
                // Only the rows inserted or moved here move: O(those), not O(rows); they are
                // planned below, in the batch's order.
                break
            case .moved(let old):
                if header == 1 { plan.insertions.append((start, .stashedSection(old: old, offset: 0))) }
                var nextOld = 0
                for r in 0..<finalRowCount[j] {
                    if let op = newRows[ListIndexPath(section: j, row: r)] {
                        switch op {
                        case .insert(let e): plan.insertions.append((start + header + r, .new(.row, e)))
                        case .move(let k): plan.insertions.append((start + header + r, .stashedRow(k)))
                        }
                        continue
                    }
                    // The next row of the old section that stays.
                    while !stays(oldRows[ListIndexPath(section: old, row: nextOld)]) { nextOld += 1 }
                    plan.insertions.append((start + header + r, .stashedSection(old: old, offset: header + nextOld)))
                    nextOld += 1
                }
                if plan.finalTable[j].hasFooter {
                    plan.insertions.append((start + header + finalRowCount[j], .stashedSection(old: old, offset: sections[old].itemCount - 1)))
                }
            case .new(let content), .replaced(_, let content):
                for (k, entry) in content.items.enumerated() {
                    plan.insertions.append((start + k, .new(entry.kind, plan.newElements.count)))
                    plan.newElements.append(entry.element)
                }
            }
        }
        let keptFinal = finalSources.map { source -> Bool in
            if case .kept = source { return true }
            return false
        }
        for op in rowOps {
            guard let path = op.new, let newOp = op.newOp, keptFinal[path.section] else { continue }
            let flat = finalStarts[path.section] + (plan.finalTable[path.section].hasHeader ? 1 : 0) + path.row
            switch newOp {
            case .insert(let e): plan.insertions.append((flat, .new(.row, e)))
            case .move(let k): plan.insertions.append((flat, .stashedRow(k)))
            }
        }
        // Usually in order already (rows deleted top to bottom, a section's items).
        if !zip(plan.removals, plan.removals.dropFirst()).allSatisfy({ $0.flat < $1.flat }) { plan.removals.sort { $0.flat < $1.flat } }
        if !zip(plan.insertions, plan.insertions.dropFirst()).allSatisfy({ $0.flat < $1.flat }) { plan.insertions.sort { $0.flat < $1.flat } }
        return plan
    }
}
