import Dispatch
import Foundation
import RowKitCells

// The prepared-form cache: prepared rows kept on their items under a byte budget (CLOCK).
extension ListEngine {
    // MARK: measuring

    /// Estimated height for a template: the mean of its measured rows, else the default.
    func estimate(for template: String) -> Double {
        guard let stats = estimates[template], stats.count > 0 else { return defaultEstimate }
        return stats.sum / Double(stats.count)
    }

    /// The prepared form of item `index` — the one its height was measured from, so drawing
    /// it draws exactly what was measured (prepared again only if the budget evicted it).
    public func preparedItem(at index: Int) throws -> Measurer.Prepared {
        try locked { try prepared(at: index) }
    }

    /// The prepared form of item `index`, preparing it if needed (with the lock held).
    func prepared(at index: Int) throws -> Measurer.Prepared {
        var item = items[index]
        if let prepared = item.prepared {
            if !item.referenced {
                item.referenced = true
                items[index] = item
            }
            return prepared
        }
        let prepared = try measurer.prepare(item.row)
        keep(prepared, bytes: measurer.byteCount(of: prepared), at: index)
        return prepared
    }

    /// Stores a prepared row on its item, evicting others (CLOCK) beyond the budget.
    func keep(_ prepared: Measurer.Prepared, bytes: Int, at index: Int) {
        guard bytes <= cacheBudget else { return }
        var item = items[index]
        if item.prepared != nil { preparedBytes -= Int(item.preparedBytes); preparedRows -= 1 }
        item.prepared = prepared
        item.preparedBytes = Int32(clamping: bytes)
        item.referenced = false
        items[index] = item
        preparedBytes += bytes
        preparedRows += 1
        var steps = 0
        while preparedBytes > cacheBudget && steps < 2 * items.count + 2 {
            if evictionHand >= items.count { evictionHand = 0 }
            var victim = items[evictionHand]
            if victim.prepared != nil && evictionHand != index {
                if victim.referenced {
                    victim.referenced = false
                } else {
                    preparedBytes -= Int(victim.preparedBytes)
                    preparedRows -= 1
                    victim.prepared = nil
                    victim.preparedBytes = 0
                }
                items[evictionHand] = victim
            }
            evictionHand += 1
            steps += 1
        }
    }

    /// Accounts for an item's prepared form leaving (its data changed or it was removed).
    func dropPrepared(_ item: Item) {
        if item.prepared != nil {
            preparedBytes -= Int(item.preparedBytes)
            preparedRows -= 1
        }
    }

}
