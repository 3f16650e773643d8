/// Rewriting a blocked column (`BlockedArray`, `ItemStore`, `HeightIndex`) for a whole batch:
/// many removals, or many insertions, in one walk over its blocks. Blocks no change touches are
/// kept as they are; the rest are cut again about half full. A batch then costs O(blocks +
/// touched items) and one rebuild of the column's trees, where one change at a time cost a
/// tree update (or a rebuild, when a block emptied or split) per item.

/// Ascending, disjoint, non-adjacent runs of flat indices, with how many indices the runs
/// before each hold: what a batch removes (indices before it) or inserts (indices after it).
struct IndexRuns: Sendable {
    private(set) var runs: [Range<Int>] = []
    /// `before[k]`: indices in `runs[0..<k]`.
    private(set) var before: [Int] = []
    /// Indices in all runs.
    private(set) var total = 0

    /// The runs of `indices`, which must be ascending and distinct.
    init(ascending indices: some Sequence<Int>) {
        for index in indices {
            if let last = runs.last, last.upperBound == index {
                runs[runs.count - 1] = last.lowerBound..<(index + 1)
            } else {
                precondition(runs.last.map { $0.upperBound < index } ?? true, "indices must ascend")
                before.append(total)
                runs.append(index..<(index + 1))
            }
            total += 1
        }
    }

    var isEmpty: Bool { runs.isEmpty }

    /// The small-batch path of a column's bulk removal: each index removed by `remove(at:)`,
    /// the last first (so the indices before it still hold), returned in index order. Checks
    /// that the runs lie within a column of `count` elements.
    func removedOneByOne<T>(from count: Int, _ remove: (Int) -> T) -> [T] {
        precondition(runs.last.map { $0.upperBound <= count } ?? true, "removal beyond \(count)")
        var removed: [T] = []
        removed.reserveCapacity(total)
        for run in runs.reversed() { for index in run.reversed() { removed.append(remove(index)) } }
        return removed.reversed()
    }

    /// Where the item at `index` (before the removal of every run) is after it; nil if removed.
    func indexAfterRemoving(_ index: Int) -> Int? {
        // The last run starting at or before `index`.
        var low = 0, high = runs.count
        while low < high {
            let mid = (low + high) / 2
            if runs[mid].lowerBound <= index { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return index }
        let run = runs[low - 1]
        if index < run.upperBound { return nil }
        return index - before[low - 1] - run.count
    }

    /// The run holding `index`, if any.
    func run(containing index: Int) -> Range<Int>? {
        var low = 0, high = runs.count
        while low < high {
            let mid = (low + high) / 2
            if runs[mid].lowerBound <= index { low = mid + 1 } else { high = mid }
        }
        guard low > 0, index < runs[low - 1].upperBound else { return nil }
        return runs[low - 1]
    }

    /// For runs of inserted indices (indices after the insertion): where each run goes in the
    /// list before it (the index of the item it is inserted before) and its length, ascending.
    var gaps: [(at: Int, count: Int)] {
        runs.indices.map { (runs[$0].lowerBound - before[$0], runs[$0].count) }
    }

    /// For runs of inserted indices: where the item at `index` before the insertion is after it
    /// (inserting at or above an item pushes it down).
    func indexAfterInserting(_ index: Int) -> Int {
        var low = 0, high = runs.count
        while low < high {
            let mid = (low + high) / 2
            if runs[mid].lowerBound - before[mid] <= index { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return index }
        return index + before[low - 1] + runs[low - 1].count
    }
}

/// A block of a rewritten column: one of the old blocks as it was (by index), or a new one.
enum BlockPiece<Element> {
    case old(Int)
    case new([Element])
}

/// Collects the blocks of a rewritten column: elements of touched blocks gather in `pending`
/// and leave as blocks of half a block to a whole one.
private struct BlockWriter<Element> {
    let maximumBlock: Int
    var pieces: [BlockPiece<Element>] = []
    var pending: [Element] = []

    init(maximumBlock: Int, blockCount: Int) {
        self.maximumBlock = maximumBlock
        pieces.reserveCapacity(blockCount + 8)
    }

    mutating func take(_ slice: ArraySlice<Element>) {
        if !slice.isEmpty { pending.append(contentsOf: slice) }
    }

    /// After a touched block: what is pending leaves once it is at least half a block.
    mutating func settle() {
        if pending.count >= maximumBlock / 2 { emit() }
    }

    /// Before a block kept as it was, and at the end: a short remainder joins the new block
    /// before it when both fit in one, else it is a block of its own.
    mutating func flush() {
        guard !pending.isEmpty else { return }
        if pending.count < maximumBlock / 2, case .new(var last)? = pieces.last, last.count + pending.count <= maximumBlock {
            pieces.removeLast()
            last.append(contentsOf: pending)
            pieces.append(.new(last))
            pending = []
        } else {
            emit()
        }
    }

    mutating func keep(_ block: Int) {
        flush()
        pieces.append(.old(block))
    }

    private mutating func emit() {
        if pending.count <= maximumBlock {
            pieces.append(.new(pending))
        } else {
            for block in halfFullBlocks(pending[...], [], [][...], maximumBlock: maximumBlock) { pieces.append(.new(block)) }
        }
        pending = []
    }
}

/// The blocks of a column of `count` elements without those in `runs` (indices before the
/// removal, within the column): blocks the runs do not reach are kept. Returns them and the
/// removed elements, in order.
func blocksRemoving<Element>(_ runs: IndexRuns, from count: Int, blockCount: Int, block: (Int) -> [Element],
                             maximumBlock: Int) -> (pieces: [BlockPiece<Element>], removed: [Element]) {
    precondition(runs.runs.isEmpty || runs.runs[runs.runs.count - 1].upperBound <= count, "removal beyond \(count)")
    var removed: [Element] = []
    removed.reserveCapacity(runs.total)
    var writer = BlockWriter<Element>(maximumBlock: maximumBlock, blockCount: blockCount)
    let runs = runs.runs
    var r = 0, base = 0
    for b in 0..<blockCount {
        let items = block(b)
        let end = base + items.count
        guard r < runs.count, runs[r].lowerBound < end else {
            writer.keep(b)
            base = end
            continue
        }
        var i = base
        while r < runs.count, runs[r].lowerBound < end {
            let low = max(runs[r].lowerBound, i), high = min(runs[r].upperBound, end)
            writer.take(items[(i - base)..<(low - base)])
            removed.append(contentsOf: items[(low - base)..<(high - base)])
            i = high
            if runs[r].upperBound > end { break }
            r += 1
        }
        writer.take(items[(i - base)...])
        writer.settle()
        base = end
    }
    writer.flush()
    return (writer.pieces, removed)
}

/// The small-batch path of a column's bulk insertion: each gap's elements inserted by
/// `insert(_:at:)` in turn (positions moved down by what went in before them).
func insertGapByGap<Element>(_ elements: [Element], at gaps: [(at: Int, count: Int)], _ insert: ([Element], Int) -> Void) {
    var next = 0
    for gap in gaps {
        insert(Array(elements[next..<(next + gap.count)]), gap.at + next)
        next += gap.count
    }
}

/// The blocks of a column with `elements` inserted: `gaps` (ascending, distinct positions in
/// the column before the insertion) say where, and how many of `elements`, in order, go there.
/// Blocks no gap falls in are kept.
func blocksInserting<Element>(_ gaps: [(at: Int, count: Int)], _ elements: [Element], blockCount: Int, block: (Int) -> [Element],
                              maximumBlock: Int) -> [BlockPiece<Element>] {
    var writer = BlockWriter<Element>(maximumBlock: maximumBlock, blockCount: blockCount)
    guard blockCount > 0 else {
        writer.take(elements[...])
        writer.flush()
        return writer.pieces
    }
    var g = 0, e = 0, base = 0
    for b in 0..<blockCount {
        let items = block(b)
        let end = base + items.count
        // A gap at a block's end goes into the next block; at the list's end, into the last.
        let limit = b == blockCount - 1 ? end + 1 : end
        guard g < gaps.count, gaps[g].at < limit else {
            writer.keep(b)
            base = end
            continue
        }
        var i = base
        while g < gaps.count, gaps[g].at < limit {
            writer.take(items[(i - base)..<(gaps[g].at - base)])
            writer.take(elements[e..<(e + gaps[g].count)])
            e += gaps[g].count
            i = gaps[g].at
            g += 1
        }
        writer.take(items[(i - base)...])
        writer.settle()
        base = end
    }
    writer.flush()
    return writer.pieces
}
