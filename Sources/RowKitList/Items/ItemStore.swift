/// The engine's items in list order, for lists of any length: O(log n + block) access, insert
/// and remove anywhere.
///
/// Items live in blocks of at most ``maximumBlock``, found through a Fenwick tree of block
/// sizes. Each block also counts its items that are measured at the current width generation,
/// that have a measuring form and that are selected, so finding work to measure skips whole
/// blocks and selection queries cost O(selected items), not O(items).
struct ItemStore: Sendable {
    typealias Element = ItemRecord
    static var maximumBlock: Int { 512 }

    struct Block: Sendable {
        var items: [Element]
        /// Items measured at the store's generation (each of them has a form).
        var measured = 0
        /// Items with a measuring form.
        var forms = 0
        /// Selected items.
        var selected = 0

        init(_ items: [Element], generation: UInt32) {
            self.items = items
            for item in items {
                if item.generation == generation { measured += 1 }
                if item.hasForm { forms += 1 }
                if item.selected { selected += 1 }
            }
        }
    }

    private(set) var blocks: [Block] = []
    private var counts = FenwickTree([])
    private var selectedCounts = FenwickTree([])
    private(set) var count = 0
    /// Items measured at ``generation``.
    private(set) var measuredCount = 0
    /// Items with a measuring form.
    private(set) var formCount = 0
    /// Selected items.
    private(set) var selectedCount = 0
    /// The width generation whose measured items are counted.
    private(set) var generation: UInt32

    init(_ elements: [Element] = [], generation: UInt32) {
        self.generation = generation
        let fill = Self.maximumBlock / 2
        var start = 0
        while start < elements.count {
            blocks.append(Block(Array(elements[start..<min(elements.count, start + fill)]), generation: generation))
            start += fill
        }
        count = elements.count
        measuredCount = blocks.reduce(0) { $0 + $1.measured }
        formCount = blocks.reduce(0) { $0 + $1.forms }
        selectedCount = blocks.reduce(0) { $0 + $1.selected }
        rebuild()
    }

    // MARK: access

    subscript(index: Int) -> Element {
        let (b, i) = locate(index)
        return blocks[b].items[i]
    }

    /// Changes the item at `index` in place, keeping the block counts right.
    @discardableResult
    mutating func update<R>(at index: Int, _ body: (inout Element) throws -> R) rethrows -> R {
        let (b, i) = locate(index)
        let before = flags(blocks[b].items[i])
        let result = try body(&blocks[b].items[i])
        account(flags(blocks[b].items[i]), minus: before, block: b)
        return result
    }

    /// Changes items `start..<start + count` in order (`body` gets the offset from `start`),
    /// walking the blocks once.
    mutating func updateRange(start: Int, count n: Int, _ body: (Int, inout Element) -> Void) {
        guard n > 0 else { return }
        var (b, i) = locate(start)
        var k = 0
        while k < n {
            let before = flags(blocks[b].items[i])
            body(k, &blocks[b].items[i])
            account(flags(blocks[b].items[i]), minus: before, block: b)
            k += 1
            i += 1
            if i == blocks[b].items.count { b += 1; i = 0 }
        }
    }

    /// Marks items `start..<start + heights.count` measured at `generation` where `heights` has a
    /// height (≥ 0) or ``keepMarker`` and the item is not measured yet, first giving items
    /// without a form the one in `forms` (if any, with its constant-height width from
    /// `constantWidths`). Rewrites `heights` in place into what the height index is to do
    /// (``HeightIndex/applyMeasured(_:startingAt:changeBefore:kept:)``): NaN leaves the row,
    /// a height sets it, `−1 − kind` keeps it (counted there, per kind). Set heights are counted
    /// per kind into `tally`. One pass over the blocks, no closure per item: this is every
    /// row's share of a width change.
    mutating func markMeasured(start: Int, heights: UnsafeMutableBufferPointer<Double>, forms: [AnyObject?], constantWidths: [Float],
                               generation: UInt32, tally: inout HeightTally) {
        guard !heights.isEmpty else { return }
        var (b, i) = locate(start)
        var k = 0
        let hasForms = !forms.isEmpty
        let counted = self.generation == generation
        while k < heights.count {
            var measuredDelta = 0, formDelta = 0
            blocks[b].items.withUnsafeMutableBufferPointer { block in
                while i < block.count && k < heights.count {
                    if hasForms && block[i].form == nil, let form = forms[k] {
                        block[i].setForm(form, constantWidth: constantWidths[k])
                        formDelta += 1
                    }
                    let height = heights[k]
                    if !height.isNaN && block[i].generation != generation && block[i].form != nil {
                        block[i].generation = generation
                        measuredDelta += 1
                        if height >= 0 {
                            tally.add(height, kind: block[i].kind.rawValue)
                        } else {
                            heights[k] = -1 - Double(block[i].kind.rawValue)
                        }
                    } else {
                        heights[k] = .nan
                    }
                    i += 1
                    k += 1
                }
            }
            if !counted { measuredDelta = 0 }
            blocks[b].measured += measuredDelta
            blocks[b].forms += formDelta
            measuredCount += measuredDelta
            formCount += formDelta
            b += 1
            i = 0
        }
    }

    /// What a measured height of −1 means: the item's height at the new width is the one it
    /// has (its form's height is constant from a width at most both widths).
    static let keepMarker = -1.0

    /// Calls `body` for items `range`, in order, without copying blocks.
    func forEach(in range: Range<Int>, _ body: (Int, Element) throws -> Void) rethrows {
        guard !range.isEmpty else { return }
        var (b, i) = locate(range.lowerBound)
        var index = range.lowerBound
        while index < range.upperBound {
            try body(index, blocks[b].items[i])
            index += 1
            i += 1
            if i == blocks[b].items.count { b += 1; i = 0 }
        }
    }

    /// The index of the first item satisfying `predicate` (O(n): for error messages).
    func firstIndex(where predicate: (Element) -> Bool) -> Int? {
        var index = 0
        for block in blocks {
            for item in block.items {
                if predicate(item) { return index }
                index += 1
            }
        }
        return nil
    }

    // MARK: structure

    mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= count, "insert position \(index) out of 0...\(count)")
        if blocks.isEmpty {
            blocks = [Block([], generation: generation)]
            blocks[0].items = [element]
            count = 1
            account(flags(element), minus: (0, 0, 0), block: 0, updateTrees: false)
            rebuild()
            return
        }
        let (b, i) = index == count ? (blocks.count - 1, blocks[blocks.count - 1].items.count) : locate(index)
        blocks[b].items.insert(element, at: i)
        count += 1
        account(flags(element), minus: (0, 0, 0), block: b, updateTrees: false)
        if blocks[b].items.count > Self.maximumBlock {
            let half = blocks[b].items.count / 2
            let tail = Array(blocks[b].items[half...])
            blocks[b].items.removeSubrange(half...)
            blocks[b] = Block(blocks[b].items, generation: generation)
            blocks.insert(Block(tail, generation: generation), at: b + 1)
            rebuild()
        } else {
            counts.add(1, at: b)
            if element.selected { selectedCounts.add(1, at: b) }
        }
    }

    /// Inserts `elements` before `index` (`index == count` appends) in one splice: the block
    /// holding `index` and the new items become blocks half full, counted once, and the trees
    /// are rebuilt once — O(n / block + elements), where inserting one at a time split a block
    /// (and rebuilt the trees) every half block.
    mutating func insert(contentsOf elements: [Element], at index: Int) {
        precondition(index >= 0 && index <= count, "insert position \(index) out of 0...\(count)")
        guard elements.count > 1 else {
            if let element = elements.first { insert(element, at: index) }
            return
        }
        let (b, i) = blocks.isEmpty ? (0, 0) : index == count ? (blocks.count - 1, blocks[blocks.count - 1].items.count) : locate(index)
        let old = blocks.isEmpty ? Block([], generation: generation) : blocks[b]
        let spliced = halfFullBlocks(old.items[..<i], elements, old.items[i...], maximumBlock: Self.maximumBlock)
            .map { Block($0, generation: generation) }
        measuredCount -= old.measured
        formCount -= old.forms
        selectedCount -= old.selected
        for block in spliced {
            measuredCount += block.measured
            formCount += block.forms
            selectedCount += block.selected
        }
        if blocks.isEmpty { blocks = spliced } else { blocks.replaceSubrange(b...b, with: spliced) }
        count += elements.count
        rebuild()
    }

    @discardableResult
    mutating func remove(at index: Int) -> Element {
        let (b, i) = locate(index)
        let element = blocks[b].items.remove(at: i)
        count -= 1
        account((0, 0, 0), minus: flags(element), block: b, updateTrees: false)
        if blocks[b].items.isEmpty {
            blocks.remove(at: b)
            rebuild()
        } else {
            counts.add(-1, at: b)
            if element.selected { selectedCounts.add(-1, at: b) }
        }
        return element
    }

    /// Removes the items in `runs` (indices before the removal) in one walk over the blocks:
    /// new blocks are counted once, the totals and trees rebuilt once. Returns them in order.
    @discardableResult
    mutating func remove(_ runs: IndexRuns) -> [Element] {
        guard !runs.isEmpty else { return [] }
        if isSmall(runs.total) { return runs.removedOneByOne(from: count) { remove(at: $0) } }
        let (pieces, removed) = blocksRemoving(runs, from: count, blockCount: blocks.count, block: { blocks[$0].items }, maximumBlock: Self.maximumBlock)
        replaceBlocks(with: pieces)
        count -= removed.count
        return removed
    }

    /// Inserts `elements` at `gaps` (ascending positions before the insertion, with how many of
    /// `elements`, in order, go at each) in one walk over the blocks.
    mutating func insert(_ elements: [Element], at gaps: [(at: Int, count: Int)]) {
        guard !elements.isEmpty else { return }
        precondition(gaps[gaps.count - 1].at <= count, "insert position beyond \(count)")
        if isSmall(elements.count) { return insertGapByGap(elements, at: gaps) { insert(contentsOf: $0, at: $1) } }
        let pieces = blocksInserting(gaps, elements, blockCount: blocks.count, block: { blocks[$0].items }, maximumBlock: Self.maximumBlock)
        replaceBlocks(with: pieces)
        count += elements.count
    }

    /// Puts `pieces` in place of the blocks (new ones counted), then the totals and trees.
    /// Whether `n` changes are few enough to make one at a time (O(log n + block) each) rather
    /// than in one walk over every block.
    private func isSmall(_ n: Int) -> Bool { n * 16 < blocks.count }

    private mutating func replaceBlocks(with pieces: [BlockPiece<Element>]) {
        var next: [Block] = []
        next.reserveCapacity(pieces.count)
        for piece in pieces {
            switch piece {
            case .old(let b): next.append(blocks[b])
            case .new(let items): next.append(Block(items, generation: generation))
            }
        }
        blocks = next
        measuredCount = blocks.reduce(0) { $0 + $1.measured }
        formCount = blocks.reduce(0) { $0 + $1.forms }
        selectedCount = blocks.reduce(0) { $0 + $1.selected }
        rebuild()
    }

    /// Starts a new width generation: no item counts as measured any more.
    mutating func startGeneration(_ newGeneration: UInt32) {
        generation = newGeneration
        for b in blocks.indices { blocks[b].measured = 0 }
        measuredCount = 0
    }

    // MARK: finding work

    /// Consecutive blocks holding items to measure: from the first block at or after the one
    /// holding `cursor` (wrapping around once) that has an unmeasured item (with a form, if
    /// `formsOnly`), on until about `limit` such items or 4 × `limit` items in all. Returns the
    /// flat index of the first item, the blocks' items (shared, not copied) and how many items
    /// of each are pending.
    func work(from cursor: Int, formsOnly: Bool, limit: Int) -> (start: Int, blocks: [[Element]], pending: [Int])? {
        guard !blocks.isEmpty else { return nil }
        func pending(_ block: Block) -> Int { formsOnly ? block.forms - block.measured : block.items.count - block.measured }
        let first = cursor >= count || cursor < 0 ? 0 : locate(cursor).0
        for step in 0..<blocks.count {
            let b = (first + step) % blocks.count
            guard pending(blocks[b]) > 0 else { continue }
            var taken: [[Element]] = []
            var pendings: [Int] = []
            var found = 0, scanned = 0
            var c = b
            while c < blocks.count && found < limit && scanned < 4 * max(1, limit) {
                taken.append(blocks[c].items)
                pendings.append(pending(blocks[c]))
                found += pendings[pendings.count - 1]
                scanned += blocks[c].items.count
                c += 1
            }
            return (Int(counts.prefix(b)), taken, pendings)
        }
        return nil
    }

    // MARK: selection

    /// Calls `body` with every selected item and its index, in list order: O(selected items ×
    /// (log blocks + block)). Returns how many items it looked at.
    @discardableResult
    func forEachSelected(_ body: (Int, Element) -> Void) -> Int {
        var k = 0, scanned = 0
        while k < selectedCount {
            let (b, before) = selectedCounts.search(Int64(k))
            let start = Int(counts.prefix(b))
            var left = blocks[b].selected
            for (i, item) in blocks[b].items.enumerated() {
                scanned += 1
                guard item.selected else { continue }
                body(start + i, item)
                left -= 1
                if left == 0 { break }
            }
            k = Int(before) + blocks[b].selected
        }
        return scanned
    }

    /// Whether every block's counts and the totals match the items (for tests).
    var countsAreConsistent: Bool {
        var totals = (0, 0, 0)
        for block in blocks {
            let fresh = Block(block.items, generation: generation)
            guard fresh.measured == block.measured, fresh.forms == block.forms, fresh.selected == block.selected else { return false }
            totals.0 += fresh.measured
            totals.1 += fresh.forms
            totals.2 += fresh.selected
        }
        return totals == (measuredCount, formCount, selectedCount) && blocks.reduce(0, { $0 + $1.items.count }) == count
    }

    // MARK: internals

    private typealias Flags = (measured: Int, form: Int, selected: Int)

    @inline(__always) private func flags(_ item: Element) -> Flags {
        (item.generation == generation ? 1 : 0, item.hasForm ? 1 : 0, item.selected ? 1 : 0)
    }

    @inline(__always) private mutating func account(_ after: Flags, minus before: Flags, block b: Int, updateTrees: Bool = true) {
        let dm = after.measured - before.measured, df = after.form - before.form, ds = after.selected - before.selected
        if dm != 0 { blocks[b].measured += dm; measuredCount += dm }
        if df != 0 { blocks[b].forms += df; formCount += df }
        if ds != 0 {
            blocks[b].selected += ds
            selectedCount += ds
            if updateTrees { selectedCounts.add(Int64(ds), at: b) }
        }
    }

    private mutating func rebuild() {
        counts = FenwickTree(blocks.map { Int64($0.items.count) })
        selectedCounts = FenwickTree(blocks.map { Int64($0.selected) })
    }

    /// Block and index within it of item `index`.
    @inline(__always) private func locate(_ index: Int) -> (Int, Int) {
        precondition(index >= 0 && index < count, "item \(index) out of 0..<\(count)")
        let (b, before) = counts.search(Int64(index))
        return (b, index - Int(before))
    }
}
