/// An array of any length with O(log n + block) insert and remove anywhere: elements live in
/// blocks of at most ``maximumBlock``, found through a Fenwick tree of block sizes. The engine
/// keeps its items' ids in one, beside the ``ItemStore`` of their records.
struct BlockedArray<Element>: Sendable where Element: Sendable {
    static var maximumBlock: Int { 512 }

    private var blocks: [[Element]] = []
    private var counts = FenwickTree([])
    private(set) var count = 0

    init() {}

    init(_ elements: [Element]) {
        let fill = Self.maximumBlock / 2
        var start = 0
        while start < elements.count {
            blocks.append(Array(elements[start..<min(elements.count, start + fill)]))
            start += fill
        }
        count = elements.count
        rebuild()
    }

    subscript(index: Int) -> Element {
        get {
            let (b, i) = locate(index)
            return blocks[b][i]
        }
        set {
            let (b, i) = locate(index)
            blocks[b][i] = newValue
        }
    }

    mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= count, "insert position \(index) out of 0...\(count)")
        if blocks.isEmpty {
            blocks = [[element]]
            count = 1
            rebuild()
            return
        }
        let (b, i) = index == count ? (blocks.count - 1, blocks[blocks.count - 1].count) : locate(index)
        blocks[b].insert(element, at: i)
        count += 1
        if blocks[b].count > Self.maximumBlock {
            let half = blocks[b].count / 2
            let tail = Array(blocks[b][half...])
            blocks[b].removeSubrange(half...)
            blocks.insert(tail, at: b + 1)
            rebuild()
        } else {
            counts.add(1, at: b)
        }
    }

    /// Inserts `elements` before `index` (`index == count` appends) in one splice: the block
    /// holding `index` and the new elements become blocks half full, and the tree is rebuilt
    /// once — O(n / block + elements), where inserting one at a time split a block (and rebuilt
    /// the tree) every half block.
    mutating func insert(contentsOf elements: [Element], at index: Int) {
        precondition(index >= 0 && index <= count, "insert position \(index) out of 0...\(count)")
        guard elements.count > 1 else {
            if let element = elements.first { insert(element, at: index) }
            return
        }
        let (b, i) = blocks.isEmpty ? (0, 0) : index == count ? (blocks.count - 1, blocks[blocks.count - 1].count) : locate(index)
        let old = blocks.isEmpty ? [] : blocks[b]
        let spliced = halfFullBlocks(old[..<i], elements, old[i...], maximumBlock: Self.maximumBlock)
        if blocks.isEmpty { blocks = spliced } else { blocks.replaceSubrange(b...b, with: spliced) }
        count += elements.count
        rebuild()
    }

    @discardableResult
    mutating func remove(at index: Int) -> Element {
        let (b, i) = locate(index)
        let element = blocks[b].remove(at: i)
        count -= 1
        if blocks[b].isEmpty {
            blocks.remove(at: b)
            rebuild()
        } else {
            counts.add(-1, at: b)
        }
        return element
    }

    /// Removes the elements in `runs` (indices before the removal) in one walk over the blocks
    /// and one rebuild of the tree; returns them in order.
    @_specialize(where Element == Int)
    @_specialize(where Element == String)
    @discardableResult
    mutating func remove(_ runs: IndexRuns) -> [Element] {
        guard !runs.isEmpty else { return [] }
        if isSmall(runs.total) { return runs.removedOneByOne(from: count) { remove(at: $0) } }
        let (pieces, removed) = blocksRemoving(runs, from: count, blockCount: blocks.count, block: { blocks[$0] }, maximumBlock: Self.maximumBlock)
        replaceBlocks(with: pieces)
        count -= removed.count
        rebuild()
        return removed
    }

    /// Inserts `elements` at `gaps` (ascending positions before the insertion, with how many of
    /// `elements`, in order, go at each) in one walk over the blocks and one rebuild of the tree.
    @_specialize(where Element == Int)
    @_specialize(where Element == String)
    mutating func insert(_ elements: [Element], at gaps: [(at: Int, count: Int)]) {
        guard !elements.isEmpty else { return }
        precondition(gaps[gaps.count - 1].at <= count, "insert position beyond \(count)")
        if isSmall(elements.count) { return insertGapByGap(elements, at: gaps) { insert(contentsOf: $0, at: $1) } }
        let pieces = blocksInserting(gaps, elements, blockCount: blocks.count, block: { blocks[$0] }, maximumBlock: Self.maximumBlock)
        replaceBlocks(with: pieces)
        count += elements.count
        rebuild()
    }

    /// Whether `n` changes are few enough to make one at a time (O(log n + block) each) rather
    /// than in one walk over every block.
    private func isSmall(_ n: Int) -> Bool { n * 16 < blocks.count }

    private mutating func replaceBlocks(with pieces: [BlockPiece<Element>]) {
        var next: [[Element]] = []
        next.reserveCapacity(pieces.count)
        for piece in pieces {
            switch piece {
            case .old(let b): next.append(blocks[b])
            case .new(let block): next.append(block)
            }
        }
        blocks = next
    }

    /// The index of the first element satisfying `predicate` (O(n)).
    func firstIndex(where predicate: (Element) -> Bool) -> Int? {
        var index = 0
        for block in blocks {
            for element in block {
                if predicate(element) { return index }
                index += 1
            }
        }
        return nil
    }

    /// Every element, in order.
    var elements: [Element] { blocks.flatMap { $0 } }

    /// The blocks themselves (shared, not copied), for reading every element from many threads.
    var blockList: [[Element]] { blocks }

    /// Changes every element in place, in order.
    mutating func updateAll(_ body: (Int, inout Element) -> Void) {
        var index = 0
        for b in blocks.indices {
            for i in blocks[b].indices {
                body(index, &blocks[b][i])
                index += 1
            }
        }
    }

    /// The elements in `range`, in order (one copy, no call per element).
    func elements(in range: Range<Int>) -> [Element] {
        guard !range.isEmpty else { return [] }
        var result: [Element] = []
        result.reserveCapacity(range.count)
        var (b, i) = locate(range.lowerBound)
        while result.count < range.count {
            let end = min(blocks[b].count, i + range.count - result.count)
            result.append(contentsOf: blocks[b][i..<end])
            b += 1
            i = 0
        }
        return result
    }

    /// Calls `body` for elements `range`, in order, without copying blocks.
    func forEach(in range: Range<Int>, _ body: (Int, Element) -> Void) {
        guard !range.isEmpty else { return }
        var (b, i) = locate(range.lowerBound)
        var index = range.lowerBound
        while index < range.upperBound {
            body(index, blocks[b][i])
            index += 1
            i += 1
            if i == blocks[b].count { b += 1; i = 0 }
        }
    }

    private mutating func rebuild() {
        counts = FenwickTree(blocks.map { Int64($0.count) })
    }

    @inline(__always) private func locate(_ index: Int) -> (Int, Int) {
        precondition(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
        let (b, before) = counts.search(Int64(index))
        return (b, index - Int(before))
    }
}

/// `before`, `inserted` and `after`, in that order, cut into blocks of equal size, about half
/// of `maximumBlock` each (room to grow on either side): what a splice into a blocked column
/// (``BlockedArray``, `ItemStore`, `HeightIndex`) puts in place of the block it opened.
func halfFullBlocks<Element>(_ before: ArraySlice<Element>, _ inserted: [Element], _ after: ArraySlice<Element>,
                             maximumBlock: Int) -> [[Element]] {
    let total = before.count + inserted.count + after.count
    guard total > 0 else { return [] }
    let pieces = (total + maximumBlock / 2 - 1) / (maximumBlock / 2)
    func size(_ piece: Int) -> Int { total / pieces + (piece < total % pieces ? 1 : 0) }
    var blocks: [[Element]] = []
    blocks.reserveCapacity(pieces)
    var chunk: [Element] = []
    chunk.reserveCapacity(size(0))
    func add(_ slice: ArraySlice<Element>) {
        var slice = slice
        while !slice.isEmpty {
            let n = min(size(blocks.count) - chunk.count, slice.count)
            chunk.append(contentsOf: slice.prefix(n))
            slice = slice.dropFirst(n)
            if chunk.count == size(blocks.count) {
                blocks.append(chunk)
                chunk = []
                chunk.reserveCapacity(size(0))
            }
        }
    }
    add(before)
    add(inserted[...])
    add(after)
    if !chunk.isEmpty { blocks.append(chunk) }
    return blocks
}
