/// The drawing forms of recently drawn items (the visible neighbourhood), by id, least
/// recently used out first. Bounded: at most ``capacity`` forms; measuring forms are kept
/// on the items themselves, not here.
struct DrawingFormCache<ID: Hashable & Sendable, Drawing: Sendable>: Sendable {
    private var entries: [ID: (form: Drawing, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0
    /// Most forms kept.
    var capacity: Int {
        didSet { trim() }
    }

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { entries.count }

    mutating func form(for id: ID) -> Drawing? {
        guard let entry = entries[id] else { return nil }
        clock += 1
        entries[id] = (entry.form, clock)
        return entry.form
    }

    mutating func insert(_ form: Drawing, for id: ID) {
        guard capacity > 0 else { return }
        clock += 1
        entries[id] = (form, clock)
        trim()
    }

    mutating func remove(_ id: ID) { entries[id] = nil }

    mutating func removeAll() { entries.removeAll() }

    /// Drops the least recently used forms beyond the capacity (O(capacity) each; it is small).
    private mutating func trim() {
        while entries.count > capacity {
            guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { return }
            entries[oldest] = nil
        }
    }
}
