/// Row heights and their prefix sums for lists of any length: y of a row, row at a y, and
/// insert, remove and update in O(log n) (plus a scan of one small block).
///
/// Heights are kept in 1/64 px layout units as `Int32` (4 bytes a row), in blocks of at most
/// ``maximumBlock`` rows; two Fenwick trees over the blocks hold their heights and row counts.
/// Integer sums are exact and order-independent, so an offset never drifts from the sum of
/// the heights above it.
package struct HeightIndex: Sendable {
    /// Rows per block before it splits in two.
    package static let maximumBlock = 512
    /// Heights are multiples of this (the browser's layout unit).
    package static let unitsPerPixel: Double = 64
    /// The tallest row: heights above it (absurd, or infinite) are clamped to it.
    package static let maximumHeight = Double(Int32.max) / 64
    /// Offsets and y values beyond this are clamped (about 31,000 km of pixels).
    package static let maximumOffset = 1e12

    private var blocks: [[Int32]]
    private var blockHeights: FenwickTree
    private var blockCounts: FenwickTree
    private var heightSums: [Int64]
    /// Number of rows.
    package private(set) var count: Int

    /// An index of `count` rows, all `height` tall.
    package init(count: Int = 0, height: Double = 0) {
        let unit = Self.units(height)
        var blocks: [[Int32]] = []
        var remaining = max(0, count)
        let fill = Self.maximumBlock / 2
        while remaining > 0 {
            let n = min(fill, remaining)
            blocks.append([Int32](repeating: unit, count: n))
            remaining -= n
        }
        self.blocks = blocks
        self.count = max(0, count)
        self.heightSums = blocks.map { Int64($0.count) * Int64(unit) }
        self.blockHeights = FenwickTree(heightSums)
        self.blockCounts = FenwickTree(blocks.map { Int64($0.count) })
    }

    /// An index of the given heights.
    package init(heights: [Double]) {
        self.init()
        var start = 0
        let fill = Self.maximumBlock / 2
        while start < heights.count {
            let end = min(heights.count, start + fill)
            blocks.append(heights[start..<end].map(Self.units))
            start = end
        }
        count = heights.count
        rebuild()
    }

    /// Pixels to layout units (rounded to the nearest 1/64 px; negative and NaN become 0,
    /// absurd or infinite heights ``maximumHeight``).
    @inline(__always) static func units(_ pixels: Double) -> Int32 {
        guard pixels > 0 else { return 0 }   // also NaN
        // Half up (the same as `rounded()` for positive values), without a call into libm.
        return Int32(clamping: Int64(min(pixels, maximumHeight) * unitsPerPixel + 0.5))
    }

    @inline(__always) static func pixels(_ units: Int64) -> Double { Double(units) / unitsPerPixel }

    /// Total height of all rows.
    package var totalHeight: Double { Self.pixels(blockHeights.prefix(blocks.count)) }

    /// Height of row `row`.
    package func height(at row: Int) -> Double {
        let (b, i) = locate(row)
        return Self.pixels(Int64(blocks[b][i]))
    }

    /// Sets row `row`'s height; returns the change in pixels.
    @discardableResult
    package mutating func setHeight(_ height: Double, at row: Int) -> Double {
        let (b, i) = locate(row)
        let new = Self.units(height)
        let delta = Int64(new) - Int64(blocks[b][i])
        guard delta != 0 else { return 0 }
        blocks[b][i] = new
        heightSums[b] += delta
        blockHeights.add(delta, at: b)
        return Self.pixels(delta)
    }

    /// Sets the heights of rows `start..<start + heights.count` (NaN entries leave their row
    /// as it is), walking the blocks once; returns the total change of the rows before row
    /// `before`, in pixels (what anchoring shifts the offset by).
    @discardableResult
    package mutating func setHeights(_ heights: [Double], startingAt start: Int, changeBefore before: Int = 0) -> Double {
        guard !heights.isEmpty else { return 0 }
        precondition(start >= 0 && start + heights.count <= count, "rows \(start)..<\(start + heights.count) out of 0..<\(count)")
        var (b, i) = locate(start)
        var k = 0, deltaBefore: Int64 = 0
        heights.withUnsafeBufferPointer { heights in
            while k < heights.count {
                var blockDelta: Int64 = 0
                blocks[b].withUnsafeMutableBufferPointer { block in
                    while i < block.count && k < heights.count {
                        let height = heights[k]
                        if !height.isNaN {
                            let new = Self.units(height)
                            let delta = Int64(new) - Int64(block[i])
                            block[i] = new
                            blockDelta += delta
                            if start + k < before { deltaBefore += delta }
                        }
                        i += 1
                        k += 1
                    }
                }
                if blockDelta != 0 {
                    heightSums[b] += blockDelta
                    blockHeights.add(blockDelta, at: b)
                }
                b += 1
                i = 0
            }
        }
        return Self.pixels(deltaBefore)
    }

    /// Applies a measured chunk as ``ItemStore/markMeasured(start:heights:forms:constantWidths:generation:tally:)``
    /// left it, rows `start..<start + heights.count`: NaN leaves a row, a height sets it, and
    /// `−1 − t` keeps it as it is, adding it to `kept` as kind `t`. Returns the total change of
    /// the rows before row `before`, in pixels. One walk over the blocks.
    mutating func applyMeasured(_ heights: UnsafeBufferPointer<Double>, startingAt start: Int, changeBefore before: Int,
                                kept: inout HeightTally) -> Double {
        guard !heights.isEmpty else { return 0 }
        precondition(start >= 0 && start + heights.count <= count, "rows \(start)..<\(start + heights.count) out of 0..<\(count)")
        var (b, i) = locate(start)
        var k = 0, deltaBefore: Int64 = 0
        let changedBefore = min(heights.count, max(0, before - start))
        while k < heights.count {
            var blockDelta: Int64 = 0
            blocks[b].withUnsafeMutableBufferPointer { block in
                while i < block.count && k < heights.count {
                    let height = heights[k]
                    if height >= 0 {
                        let new = Self.units(height)
                        let delta = Int64(new) - Int64(block[i])
                        block[i] = new
                        blockDelta += delta
                        if k < changedBefore { deltaBefore += delta }
                    } else if height < 0 {
                        kept.add(Self.pixels(Int64(block[i])), kind: UInt8(-1 - height))
                    }
                    i += 1
                    k += 1
                }
            }
            if blockDelta != 0 {
                heightSums[b] += blockDelta
                blockHeights.add(blockDelta, at: b)
            }
            b += 1
            i = 0
        }
        return Self.pixels(deltaBefore)
    }

    /// The heights of rows `range` in order, walking the blocks once (``height(at:)`` finds
    /// each row's block anew).
    package func heights(in range: Range<Int>) -> [Double] {
        guard !range.isEmpty else { return [] }
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "rows \(range) out of 0..<\(count)")
        var result: [Double] = []
        result.reserveCapacity(range.count)
        var (b, i) = locate(range.lowerBound)
        while result.count < range.count {
            blocks[b].withUnsafeBufferPointer { block in
                while i < block.count && result.count < range.count {
                    result.append(Self.pixels(Int64(block[i])))
                    i += 1
                }
            }
            b += 1
            i = 0
        }
        return result
    }

    /// y of the top of row `row` (for `row == count`, the total height).
    package func offset(of row: Int) -> Double {
        precondition(row >= 0 && row <= count, "row \(row) out of 0...\(count)")
        if row == count { return totalHeight }
        let (b, i) = locate(row)
        var sum = blockHeights.prefix(b)
        blocks[b].withUnsafeBufferPointer { block in
            for k in 0..<i { sum += Int64(block[k]) }
        }
        return Self.pixels(sum)
    }

    /// The row whose box contains `y` (rows are half-open [top, top + height)); y below 0 gives
    /// row 0, y at or past the end the last row; nil when there are no rows. Zero-height rows
    /// are skipped, as nothing of them is at any y.
    package func row(at y: Double) -> Int? {
        guard count > 0 else { return nil }
        let target = Int64((min(max(0, y.isNaN ? 0 : y), Self.maximumOffset) * Self.unitsPerPixel).rounded(.down))
        let total = blockHeights.prefix(blocks.count)
        guard target < total else { return count - 1 }
        // First block whose cumulative height exceeds target.
        let (b, before) = blockHeights.search(target)
        let rowsBefore = Int(blockCounts.prefix(b))
        // Within the block: whole groups of 8 rows while they end at or above target (their sum
        // vectorizes), then row by row — about a fifth of the instructions of a plain scan.
        let found: Int? = blocks[b].withUnsafeBufferPointer { block in
            var sum = before, i = 0
            let n = block.count
            while i + 8 <= n {
                var group: Int64 = 0
                for k in i..<(i + 8) { group &+= Int64(block[k]) }
                if sum + group > target { break }
                sum += group
                i += 8
            }
            while i < n {
                sum += Int64(block[i])
                if sum > target { return i }
                i += 1
            }
            return nil
        }
        if let found { return rowsBefore + found }
        return min(rowsBefore + blocks[b].count, count - 1)
    }

    /// Inserts rows with these heights before row `row` (`row == count` appends): O(log n) while
    /// they fit in the row's block, else one splice of that block, O(blocks + rows).
    package mutating func insert(_ heights: [Double], at row: Int) {
        precondition(row >= 0 && row <= count, "insert position \(row) out of 0...\(count)")
        guard !heights.isEmpty else { return }
        if blocks.isEmpty {
            self = HeightIndex(units: heights.map(Self.units))
            return
        }
        let (b, i) = row == count ? (blocks.count - 1, blocks[blocks.count - 1].count) : locate(row)
        if blocks[b].count + heights.count > Self.maximumBlock {
            splice(heights, intoBlock: b, at: i)
            return
        }
        let units = heights.map(Self.units)
        blocks[b].insert(contentsOf: units, at: i)
        let added = units.reduce(Int64(0)) { $0 + Int64($1) }
        count += units.count
        heightSums[b] += added
        blockHeights.add(added, at: b)
        blockCounts.add(Int64(units.count), at: b)
    }

    /// Removes row `row`; returns its height.
    @discardableResult
    package mutating func remove(at row: Int) -> Double {
        let (b, i) = locate(row)
        let removed = blocks[b].remove(at: i)
        count -= 1
        if blocks[b].isEmpty {
            blocks.remove(at: b)
            heightSums.remove(at: b)
            rebuildTrees()
        } else {
            heightSums[b] -= Int64(removed)
            blockHeights.add(-Int64(removed), at: b)
            blockCounts.add(-1, at: b)
        }
        return Self.pixels(Int64(removed))
    }

    /// Removes the rows in `runs` (indices before the removal) in one walk over the blocks:
    /// only new blocks are summed, the trees rebuilt once. Returns their heights in order.
    @discardableResult
    mutating func remove(_ runs: IndexRuns) -> [Double] {
        guard !runs.isEmpty else { return [] }
        if isSmall(runs.total) { return runs.removedOneByOne(from: count) { remove(at: $0) } }
        let (pieces, removed) = blocksRemoving(runs, from: count, blockCount: blocks.count, block: { blocks[$0] }, maximumBlock: Self.maximumBlock)
        replaceBlocks(with: pieces)
        count -= removed.count
        return removed.map { Self.pixels(Int64($0)) }
    }

    /// Inserts rows with `heights` at `gaps` (ascending positions before the insertion, with
    /// how many of `heights`, in order, go at each) in one walk over the blocks.
    mutating func insert(_ heights: [Double], at gaps: [(at: Int, count: Int)]) {
        guard !heights.isEmpty else { return }
        precondition(gaps[gaps.count - 1].at <= count, "insert position beyond \(count)")
        if isSmall(heights.count) { return insertGapByGap(heights, at: gaps) { insert($0, at: $1) } }
        let pieces = blocksInserting(gaps, heights.map(Self.units), blockCount: blocks.count, block: { blocks[$0] }, maximumBlock: Self.maximumBlock)
        replaceBlocks(with: pieces)
        count += heights.count
    }

    /// Puts `pieces` in place of the blocks (new ones summed), then the trees.
    /// Whether `n` changes are few enough to make one at a time (O(log n + block) each) rather
    /// than in one walk over every block.
    private func isSmall(_ n: Int) -> Bool { n * 16 < blocks.count }

    private mutating func replaceBlocks(with pieces: [BlockPiece<Int32>]) {
        var nextBlocks: [[Int32]] = [], nextSums: [Int64] = []
        nextBlocks.reserveCapacity(pieces.count)
        nextSums.reserveCapacity(pieces.count)
        for piece in pieces {
            switch piece {
            case .old(let b):
                nextBlocks.append(blocks[b])
                nextSums.append(heightSums[b])
            case .new(let block):
                nextBlocks.append(block)
                nextSums.append(block.reduce(Int64(0)) { $0 + Int64($1) })
            }
        }
        blocks = nextBlocks
        heightSums = nextSums
        rebuildTrees()
    }

    /// Moves row `from` so that it ends up at index `to` (indices after the removal).
    package mutating func move(from: Int, to: Int) {
        let height = remove(at: from)
        insert([height], at: to)
    }

    /// All heights, top to bottom.
    package var heights: [Double] { allUnits().map { Self.pixels(Int64($0)) } }

    /// Bytes held: 4 per row plus the per-block trees.
    package var byteCount: Int { count * 4 + blocks.count * (32 + 8 * 3) + 64 }

    // MARK: internals

    private init(units: [Int32]) {
        self.init()
        var start = 0
        let fill = Self.maximumBlock / 2
        while start < units.count {
            let end = min(units.count, start + fill)
            blocks.append(Array(units[start..<end]))
            start = end
        }
        count = units.count
        rebuild()
    }

    private func allUnits() -> [Int32] { blocks.flatMap { $0 } }

    /// Inserts `heights` at `i` of block `b` when the block would overflow: the block and the
    /// new rows become blocks half full, and only their sums are computed, so inserting many
    /// rows costs O(blocks + rows) (a block split once summed every row of the list).
    private mutating func splice(_ heights: [Double], intoBlock b: Int, at i: Int) {
        let old = blocks[b]
        let spliced = halfFullBlocks(old[..<i], heights.map(Self.units), old[i...], maximumBlock: Self.maximumBlock)
        let sums = spliced.map { $0.reduce(Int64(0)) { $0 + Int64($1) } }
        blocks.replaceSubrange(b...b, with: spliced)
        heightSums.replaceSubrange(b...b, with: sums)
        count += heights.count
        rebuildTrees()
    }

    /// The trees again from the blocks' sums (O(blocks)); the sums must be right.
    private mutating func rebuildTrees() {
        blockHeights = FenwickTree(heightSums)
        blockCounts = FenwickTree(blocks.map { Int64($0.count) })
    }

    private mutating func rebuild() {
        heightSums = blocks.map { $0.reduce(Int64(0)) { $0 + Int64($1) } }
        blockHeights = FenwickTree(heightSums)
        blockCounts = FenwickTree(blocks.map { Int64($0.count) })
    }

    /// Block and index within it of `row`.
    @inline(__always) private func locate(_ row: Int) -> (Int, Int) {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        // Largest k with rows-before(k) <= row is the block holding it.
        let (b, before) = blockCounts.search(Int64(row))
        return (b, row - Int(before))
    }
}
