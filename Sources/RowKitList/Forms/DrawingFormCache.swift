/// The drawing forms of recently drawn items (the visible neighbourhood), by id, least
/// recently used out first. Bounded: at most ``capacity`` forms; measuring forms are kept
/// on the items themselves, not here.
struct DrawingFormCache<ID: Hashable & Sendable, Drawing: Sendable>: Sendable {
    private var entries: [ID: (form: Drawing, lastUse: UInt64)] = [:]
    /// Every use in order (older uses of an id are stale and skipped): the least recently used
    /// is found from the front in amortized O(1). Scanning all entries for the oldest on each
    /// insert made a frame showing more items than the capacity quadratic — 50,000 zero-height
    /// rows in one viewport took 2.6 s to draw, nearly all of it here.
    private var uses: [(id: ID, use: UInt64)] = []
    private var firstUse = 0
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
        touch(id, entry.form)
        return entry.form
    }

    mutating func insert(_ form: Drawing, for id: ID) {
        guard capacity > 0 else { return }
        touch(id, form)
        trim()
    }

    mutating func remove(_ id: ID) {
        // Most removals (deletes, reloads) are of items never drawn, often with nothing kept.
        guard !entries.isEmpty else { return }
        entries[id] = nil
    }

    /// Removes the forms of `ids`: by id while they are fewer than the forms kept, else by one
    /// pass over the forms (a batch deleting 100,000 rows, most of them never drawn).
    mutating func remove(_ ids: [ID]) {
        guard !entries.isEmpty, !ids.isEmpty else { return }
        if ids.count <= entries.count {
            for id in ids { entries[id] = nil }
        } else {
            let gone = Set(entries.keys).intersection(ids)
            for id in gone { entries[id] = nil }
        }
    }

    mutating func removeAll() {
        entries.removeAll()
        uses.removeAll()
        firstUse = 0
    }

    private mutating func touch(_ id: ID, _ form: Drawing) {
        clock += 1
        entries[id] = (form, clock)
        uses.append((id, clock))
        // Stale uses pile up with every hit: rebuild the order from the entries when they are
        // most of it (amortized O(1) per use).
        if uses.count - firstUse > 2 * entries.count + 64 {
            uses = entries.map { ($0.key, $0.value.lastUse) }.sorted { $0.use < $1.use }
            firstUse = 0
        }
    }

    /// Drops the least recently used forms beyond the capacity.
    private mutating func trim() {
        while entries.count > capacity, firstUse < uses.count {
            let (id, use) = uses[firstUse]
            firstUse += 1
            if entries[id]?.lastUse == use { entries[id] = nil }
        }
        if firstUse > 1024 && firstUse * 2 > uses.count {
            uses.removeFirst(firstUse)
            firstUse = 0
        }
    }
}
