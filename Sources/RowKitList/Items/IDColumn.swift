/// Building the engine's id column and id set from sections of ids, with the uniqueness check.
///
/// This is the one per-item loop of making an engine that touches ids (the records, heights and
/// sections are built from counts alone). Generic code called from another module runs
/// unspecialized — every `Set.insert` then looks up generic metadata and copies through value
/// witnesses, ~450 ns per id (455 ms for a million integer ids) — so the builder is specialized
/// ahead of time for the id types lists use most (`Int`, `String`); the generic entry point
/// checks the type at run time and jumps to the specialized code. Other id types stay correct,
/// only slower.
enum IDColumn {
    /// The ids in list order (header, rows, footer of each section) and their set (nil when
    /// uniqueness was shown without it), or the flat positions of the first id found twice
    /// (`first` < `second`).
    enum Built<ID: Hashable & Sendable> {
        case unique(BlockedArray<ID>, Set<ID>?)
        case duplicate(first: Int, second: Int)
    }

    @_specialize(where ID == Int)
    @_specialize(where ID == String)
    static func build<ID: Hashable & Sendable>(_ sections: [ListSection<ID>], total: Int) -> Built<ID> {
        var list: [ID] = []
        list.reserveCapacity(total)
        for section in sections {
            if let header = section.header { list.append(header) }
            list.append(contentsOf: section.rows)
            if let footer = section.footer { list.append(footer) }
        }
        // Integer ids in increasing order (row numbers, database keys) are unique: checked in
        // one sequential pass, and the set (random writes into a 16 MB table for a million
        // ids, most of the init) is built later, off the first frame's path.
        if ID.self == Int.self {
            let numbers = unsafeBitCast(list, to: [Int].self)
            if zip(numbers, numbers.dropFirst()).allSatisfy({ $0 < $1 }) { return .unique(BlockedArray(list), nil) }
        }
        var set = Set<ID>(minimumCapacity: list.count)
        for (position, id) in list.enumerated() where !set.insert(id).inserted {
            let first = list.firstIndex(of: id) ?? position
            return .duplicate(first: first, second: position)
        }
        return .unique(BlockedArray(list), set)
    }

    /// The set of `ids` (for a list whose set was not built at init).
    @_specialize(where ID == Int)
    @_specialize(where ID == String)
    static func set<ID: Hashable & Sendable>(of ids: BlockedArray<ID>) -> Set<ID> {
        var set = Set<ID>(minimumCapacity: ids.count)
        ids.forEach(in: 0..<ids.count) { _, id in set.insert(id) }
        return set
    }

    /// Inserts `ids` into `set` in order, stopping at the first one already there (in the set
    /// before, or earlier in `ids`); returns how many went in. Specialized as `build` is: a
    /// batch update inserting many rows spent most of its time in unspecialized `Set.insert`.
    @_specialize(where ID == Int)
    @_specialize(where ID == String)
    static func insert<ID: Hashable & Sendable>(_ ids: [ID], into set: inout Set<ID>) -> Int {
        var added = 0
        for id in ids {
            guard set.insert(id).inserted else { break }
            added += 1
        }
        return added
    }

    /// The first of `ids` (in order) that repeats an earlier one (with the earlier one's place)
    /// or is in `set` without `isRemoved` saying it leaves; nil if there is none. Specialized as
    /// `build` is: sorting and checking a batch's 25,000 added ids generically took ~24,000
    /// instructions each.
    @_specialize(where ID == Int)
    @_specialize(where ID == String)
    static func firstConflict<ID: Hashable & Sendable>(_ ids: [ID], in set: Set<ID>, isRemoved: (ID) -> Bool) -> (index: Int, earlier: Int?)? {
        var first: [ID: Int] = [:]
        first.reserveCapacity(ids.count)
        for (k, id) in ids.enumerated() {
            if let earlier = first.updateValue(k, forKey: id) { return (k, earlier) }
            if set.contains(id) && !isRemoved(id) { return (k, nil) }
        }
        return nil
    }

    /// Removes `ids` from `set` (undoing `insert(_:into:)`).
    @_specialize(where ID == Int)
    @_specialize(where ID == String)
    static func remove<ID: Hashable & Sendable>(_ ids: ArraySlice<ID>, from set: inout Set<ID>) {
        for id in ids { set.remove(id) }
    }
}
