import Testing
@testable import RowKitText

/// `RawBuffer.extend(by:)` (issue 8, eighteenth round): room written through the returned
/// pointer reads back as appended, across growth and from a fresh buffer.
@Suite struct RawBufferTests {
    @Test func extendingMatchesAppendingAcrossGrowth() {
        var extended = RawBuffer<Int32>(), appended = RawBuffer<Int32>()
        defer { extended.deallocate(); appended.deallocate() }
        var next: Int32 = 0
        // From a fresh buffer (no memory yet), in pieces that cross the first capacities.
        for n in [1, 63, 1, 64, 7, 200, 3] {
            let room = extended.extend(by: n)
            for k in 0..<n {
                room[k] = next
                appended.append(next)
                next += 1
            }
            #expect(extended.count == appended.count)
        }
        #expect(Array(extended.elements) == Array(appended.elements))
        #expect(Array(extended.elements) == Array(0..<next))
        extended.removeAll()
        extended.extend(by: 2).update(repeating: 9, count: 2)
        #expect(Array(extended.elements) == [9, 9])
    }

    /// `emptyKeepingCapacity()` empties arrays of no, one and many elements (counted
    /// references among them: the one element is released) and keeps their storage.
    @Test func emptyingKeepsTheStorage() {
        for count in [0, 1, 2, 65] {
            var values = zeroFilledArray(Int32(0), count: 100)
            values.removeLast(100 - count)
            let capacity = values.capacity
            values.emptyKeepingCapacity()
            #expect(values.isEmpty && values.capacity == capacity, "\(count) elements")
            values.append(7)
            #expect(values == [7])
        }
        final class Box {}
        weak var released: Box?
        var boxes: [Box] = []
        boxes.reserveCapacity(4)
        do {
            let box = Box()
            released = box
            boxes.append(box)
        }
        boxes.emptyKeepingCapacity()
        #expect(boxes.isEmpty && boxes.capacity >= 4 && released == nil)
    }
}
