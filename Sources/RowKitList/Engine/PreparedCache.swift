import Foundation

/// Prepared rows by row id, within a byte budget: when over it, the CLOCK algorithm (a FIFO
/// with a second chance for recently used entries) evicts. Thread-safe. An evicted row is
/// simply prepared again when it is next needed.
final class PreparedCache<Prepared: Sendable>: @unchecked Sendable {
    private struct Entry {
        var id: String
        var prepared: Prepared
        var bytes: Int
        var referenced: Bool
    }

    let budget: Int
    private let lock = NSLock()
    private var slots: [Entry?] = []
    private var slotOf: [String: Int] = [:]
    private var hand = 0
    private var freeSlots: [Int] = []
    private(set) var bytes = 0

    init(budget: Int) { self.budget = max(0, budget) }

    func get(_ id: String) -> Prepared? {
        lock.lock()
        defer { lock.unlock() }
        guard let slot = slotOf[id] else { return nil }
        slots[slot]!.referenced = true
        return slots[slot]!.prepared
    }

    func set(_ id: String, _ prepared: Prepared, bytes size: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard size <= budget else { return }
        removeLocked(id)
        let entry = Entry(id: id, prepared: prepared, bytes: size, referenced: false)
        let slot: Int
        if let free = freeSlots.popLast() { slot = free; slots[slot] = entry } else { slot = slots.count; slots.append(entry) }
        slotOf[id] = slot
        bytes += size
        while bytes > budget { evictOne() }
    }

    func remove(_ id: String) {
        lock.lock()
        defer { lock.unlock() }
        removeLocked(id)
    }

    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        slots = []
        slotOf = [:]
        freeSlots = []
        hand = 0
        bytes = 0
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return slotOf.count
    }

    private func removeLocked(_ id: String) {
        guard let slot = slotOf.removeValue(forKey: id) else { return }
        bytes -= slots[slot]!.bytes
        slots[slot] = nil
        freeSlots.append(slot)
    }

    private func evictOne() {
        while true {
            if hand >= slots.count { hand = 0 }
            if var entry = slots[hand] {
                if entry.referenced {
                    entry.referenced = false
                    slots[hand] = entry
                } else {
                    removeLocked(entry.id)
                    hand += 1
                    return
                }
            }
            hand += 1
        }
    }
}
