/// A Fenwick (binary indexed) tree of Int64: point add, prefix sum and prefix search in O(log n).
struct FenwickTree: Sendable {
    private var tree: [Int64]

    /// A tree over `values` in O(n).
    init(_ values: [Int64]) {
        tree = [0] + values
        let n = values.count
        var i = 1
        while i <= n {
            let parent = i + (i & -i)
            if parent <= n { tree[parent] += tree[i] }
            i += 1
        }
    }

    var count: Int { tree.count - 1 }

    /// Adds `delta` to element `index`.
    mutating func add(_ delta: Int64, at index: Int) {
        var i = index + 1
        while i < tree.count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// Sum of elements `0..<end`.
    func prefix(_ end: Int) -> Int64 {
        var i = end, sum: Int64 = 0
        while i > 0 {
            sum += tree[i]
            i -= i & -i
        }
        return sum
    }

    /// The largest `k` with `prefix(k) <= target` (elements must be non-negative), and that prefix.
    func search(_ target: Int64) -> (index: Int, prefix: Int64) {
        var position = 0, remaining = target
        var step = 1
        while step * 2 <= count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= count && tree[next] <= remaining {
                position = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return (position, target - remaining)
    }
}
