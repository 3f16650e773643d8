/// A growable array of plain values in memory its owner frees (``deallocate()``): appends
/// without reference counting, uniqueness or exclusivity checks, for the per-thread scratch
/// arrays that every prepared text passes through. Not a value type in spirit: the owner moves
/// it around, never copies it.
struct RawBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private var capacity = 0

    @inline(__always) mutating func removeAll() { count = 0 }

    /// Makes room for `extra` more elements.
    @inline(__always) mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        let newCapacity = max(needed, 2 * capacity, 64)
        let new = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            new.update(from: base, count: count)
            base.deallocate()
        }
        base = new
        capacity = newCapacity
    }

    @inline(__always) mutating func append(_ x: Element) {
        if count == capacity { grow(count + 1) }
        base![count] = x
        count += 1
    }

    @inline(__always) mutating func append(from source: UnsafePointer<Element>, count n: Int) {
        guard n > 0 else { return }   // a fresh buffer has no memory yet (a new thread's scratch)
        reserve(n)
        (base! + count).update(from: source, count: n)
        count += n
    }

    /// Appends `n` elements stored (unaligned or not) at `source`.
    @inline(__always) mutating func append(fromRaw source: UnsafeRawPointer, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        UnsafeMutableRawPointer(base! + count).copyMemory(from: source, byteCount: n * MemoryLayout<Element>.stride)
        count += n
    }

    @inline(__always) mutating func append(repeating x: Element, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        (base! + count).update(repeating: x, count: n)
        count += n
    }

    /// Adds `n` (> 0) elements the caller then writes, all of them, through the returned
    /// pointer: a loop appending to several buffers writes each through a pointer instead of
    /// checking capacity and storing its count per element.
    @inline(__always) mutating func extend(by n: Int) -> UnsafeMutablePointer<Element> {
        reserve(n)
        let start = base! + count
        count += n
        return start
    }

    @inline(__always) subscript(i: Int) -> Element {
        get { base![i] }
        nonmutating set { base![i] = newValue }
    }

    /// The elements, valid until the next append.
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    mutating func deallocate() {
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }
}

/// `[Element](repeating: zero, count: count)` through `reserveCapacity`, whose allocation the
/// compiler specializes: `init(repeating:count:)` allocates through the standard library's
/// unspecialized path, which looks the array's storage class up at every call (~650
/// instructions an array against ~330; a few arrays per shaped run and per ICU call).
@inline(__always)
func zeroFilledArray<Element: BitwiseCopyable>(_ zero: Element, count: Int) -> [Element] {
    var array: [Element] = []
    array.reserveCapacity(count)
    array.append(contentsOf: repeatElement(zero, count: count))
    return array
}

extension Array {
    /// Empties the array, keeping its capacity. One element (a missed chunk's one segment, run
    /// or bit word) goes through `removeLast()`, ~40 instructions fewer than
    /// `removeAll(keepingCapacity:)`, which runs the standard library's generic
    /// `replaceSubrange` whatever the count; none costs a test.
    @inline(__always)
    mutating func emptyKeepingCapacity() {
        switch count {
        case 0: return
        case 1: removeLast()
        default: removeAll(keepingCapacity: true)
        }
    }
}
