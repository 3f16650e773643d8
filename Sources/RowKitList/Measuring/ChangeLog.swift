/// Structural changes in flat indices, numbered by version, so results measured outside the
/// lock (from a snapshot taken at some version) find their items after inserts, deletes and
/// moves made meanwhile.
///
/// Entries are kept only while a snapshot is outstanding and only back to the oldest one; at
/// most ``limit`` of them (beyond that the log is dropped and older snapshots' results are
/// discarded: their rows are simply measured again).
struct ChangeLog: Sendable {
    enum Change: Sendable {
        case insert(at: Int, count: Int)
        case remove(at: Int)
        /// The item's data changed (a reload): results from before do not apply.
        case invalidate(at: Int)
        /// A batch's removals: the items in the runs (indices before it).
        case removeRuns(IndexRuns)
        /// A batch's insertions: new items at the runs' indices (indices after it).
        case insertRuns(IndexRuns)
    }

    /// Most entries kept.
    static let limit = 100_000

    /// Bumped by every change, logged or not.
    private(set) var version = 0
    private var entries: [(version: Int, change: Change)] = []
    /// Snapshot versions still outstanding, with how many snapshots were taken at each.
    private var outstanding: [Int: Int] = [:]
    /// Results of snapshots older than this cannot be mapped any more.
    private var floor = 0

    /// Entries kept now.
    var count: Int { entries.count }

    mutating func record(_ change: Change) {
        version += 1
        guard !outstanding.isEmpty else { return }
        entries.append((version, change))
        if entries.count > Self.limit {
            entries.removeAll()
            floor = version
        }
    }

    /// Every item may have changed: results of every snapshot taken so far are dropped.
    mutating func invalidateAll() {
        version += 1
        entries.removeAll()
        floor = version
    }

    /// Marks a snapshot taken now; returns its version.
    mutating func openSnapshot() -> Int {
        outstanding[version, default: 0] += 1
        return version
    }

    /// The snapshot taken at `snapshot` is done; entries no snapshot needs are dropped.
    mutating func closeSnapshot(_ snapshot: Int) {
        guard let n = outstanding[snapshot] else { return }
        outstanding[snapshot] = n > 1 ? n - 1 : nil
        guard let oldest = outstanding.keys.min() else {
            entries.removeAll()
            return
        }
        let keepFrom = entries.firstIndex { $0.version > oldest } ?? entries.count
        if keepFrom > 0 { entries.removeFirst(keepFrom) }
    }

    /// Where the item that was at `index` at version `snapshot` is now, or nil if it was
    /// removed or invalidated since (or the log no longer reaches back that far).
    func currentIndex(of index: Int, since snapshot: Int) -> Int? {
        if snapshot == version { return index }
        guard snapshot >= floor else { return nil }
        var i = index
        var k = firstEntry(after: snapshot)
        while k < entries.count {
            switch entries[k].change {
            case .insert(let at, let count): if at <= i { i += count }
            case .remove(let at): if at == i { return nil } else if at < i { i -= 1 }
            case .invalidate(let at): if at == i { return nil }
            case .removeRuns(let runs):
                guard let after = runs.indexAfterRemoving(i) else { return nil }
                i = after
            case .insertRuns(let runs): i = runs.indexAfterInserting(i)
            }
            k += 1
        }
        return i
    }

    private func firstEntry(after snapshot: Int) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].version <= snapshot { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
