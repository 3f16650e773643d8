import Dispatch
import Foundation
import RowKitCells

// Width changes: every kept prepared row measured again at the new width.
extension ListEngine {
    /// the top of the viewport keeps its screen position.
    public func setWidth(_ width: Double) throws(ListError) {
        guard width.isFinite, width >= 1, width <= 100_000 else { throw .invalidWidth(width) }
        locked {
            guard width != _width else { return }
            let anchor = captureAnchor()
            _width = width
            // Every prepared row is measured again in parallel, straight from the item blocks
            // (the blocks are shared only inside this scope, so updating items later copies none).
            let total = items.count
            let slots = UnsafeMutableBufferPointer<Double>.allocate(capacity: total)
            slots.initialize(repeating: .nan)
            defer { slots.deallocate() }
            do {
                let blocks = items.blockList
                var blockStarts: [Int] = []
                var running = 0
                for block in blocks { blockStarts.append(running); running += block.count }
                let starts = blockStarts
                let box = SendableSlots(slots)
                let measurer = self.measurer
                DispatchQueue.concurrentPerform(iterations: blocks.count) { b in
                    blocks[b].withUnsafeBufferPointer { block in
                        // Read only the prepared field: copying whole items would retain their rows.
                        for k in block.indices {
                            if let prepared = block[k].prepared { box.slots[starts[b] + k] = measurer.height(of: prepared, width: width) }
                        }
                    }
                }
            }
            estimates = [:]
            unmeasured = 0
            var newHeights = [Double](repeating: 0, count: total)
            var sums: [String: (sum: Double, count: Int)] = [:]
            var lastTemplate = "", lastSum = 0.0, lastCount = 0
            func flush() { if lastCount > 0 { sums[lastTemplate, default: (0, 0)].sum += lastSum; sums[lastTemplate, default: (0, 0)].count += lastCount } }
            let accumulate = { (template: String, height: Double) in
                if template != lastTemplate { flush(); lastTemplate = template; lastSum = 0; lastCount = 0 }
                lastSum += height
                lastCount += 1
            }
            items.updateAll { i, item in
                if slots[i].isNaN {
                    item.measured = false
                    unmeasured += 1
                } else {
                    item.measured = true
                    newHeights[i] = slots[i]
                    accumulate(item.row.template, slots[i])
                }
            }
            flush()
            estimates = sums
            if unmeasured > 0 {
                items.forEach(in: 0..<total) { i, item in
                    if !item.measured { newHeights[i] = estimate(for: item.row.template) }
                }
            }
            heights = HeightIndex(heights: newHeights)
            version += 1
            restore(anchor)
        }
    }

}
