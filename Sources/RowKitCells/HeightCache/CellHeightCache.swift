import Synchronization

/// One call for a cell's height, cached by a key the caller chooses — RowKit's counterpart of
/// FDTemplateLayoutCell's `heightForCellWithIdentifier:cacheByKey:configuration:`, for apps
/// that lay out their own table (a UITableView-like delegate asking for heights) rather than
/// use the list engine.
///
/// ```swift
/// let heights = CellHeightCache<String>(templates: ClassicCells.all)
/// let h = try heights.height(template: "caption-text", key: message.id, width: 320) {
///     ["caption": message.author, "body": message.text]
/// }
/// heights.invalidate(key: message.id)   // the message was edited
/// ```
///
/// Heights are cached for one width: a call with another width empties the cache first (a
/// rotation). The caller invalidates a key when that row's data changes. The cache is bounded:
/// at most `capacity` heights, the oldest dropped first. `configuration` is called only on a
/// miss, so building the row's data costs nothing for cached rows.
///
/// Thread-safe: the cache is behind one `Mutex`; binding and measuring happen outside it.
public final class CellHeightCache<Key: Hashable & Sendable>: Sendable {
    /// The templates heights are measured with, by name.
    public let templates: [String: CellTemplate]
    /// Most heights kept.
    public let capacity: Int

    private struct EntryKey: Hashable, Sendable { var template: String; var key: Key }
    private struct State: Sendable {
        var width: Double?
        var heights: [EntryKey: (height: Double, stamp: UInt64)] = [:]
        /// Insertion order, for dropping the oldest; stale entries (re-inserted or removed keys) are skipped.
        var order: [(key: EntryKey, stamp: UInt64)] = []
        var head = 0
        var stamp: UInt64 = 0
        /// Counts ``invalidate(key:)`` and ``removeAll()`` calls: a height measured while one ran
        /// may come from the data it invalidated, and is returned but not kept.
        var generation: UInt64 = 0
    }
    private let state = Mutex(State())

    /// A cache measuring with `templates` (the first of several with one name wins), keeping at
    /// most `capacity` heights.
    public init(templates: [CellTemplate], capacity: Int = 10_000) {
        self.templates = Dictionary(templates.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.capacity = max(1, capacity)
    }

    /// The height of the cell of `template` filled with the data `configuration` gives, at
    /// `width`, cached under `key` (and the template's name).
    ///
    /// - Throws: ``CellHeightError/unknownTemplate(_:known:)``, or ``CellHeightError/cell(_:)``
    ///   when the data cannot be bound or the width is not a number in [0, 100000].
    public func height(template name: String, key: Key, width: Double, configuration: () -> RowData) throws(CellHeightError) -> Double {
        guard let template = templates[name] else { throw .unknownTemplate(name, known: templates.keys.sorted()) }
        do { try BoundCell.check(width) } catch { throw .cell(error) }
        let entry = EntryKey(template: name, key: key)
        let (cached, generation) = state.withLock { s -> (Double?, UInt64) in
            if s.width != width { s.width = width; s.heights.removeAll(); s.order.removeAll(); s.head = 0 }
            return (s.heights[entry]?.height, s.generation)
        }
        if let cached { return cached }
        let height: Double
        do { height = try template.bind(configuration()).measure(width: width).height } catch { throw .cell(error) }
        state.withLock { s in
            guard s.width == width else { return }   // the width changed meanwhile: not for this cache
            // A row invalidated meanwhile (its data changed while this measured): the height may
            // be the old data's, and kept it would be returned until the width changed.
            guard s.generation == generation else { return }
            s.stamp += 1
            s.heights[entry] = (height, s.stamp)
            s.order.append((entry, s.stamp))
            while s.heights.count > capacity, s.head < s.order.count {
                let oldest = s.order[s.head]
                s.head += 1
                if s.heights[oldest.key]?.stamp == oldest.stamp { s.heights[oldest.key] = nil }
            }
            if s.head > 1_024 && s.head * 2 > s.order.count {
                s.order.removeFirst(s.head)
                s.head = 0
            }
        }
        return height
    }

    /// Forgets the heights cached under `key` (every template's): that row's data changed. A
    /// height being measured meanwhile (on another thread) is returned to its caller but not kept.
    public func invalidate(key: Key) {
        state.withLock { s in
            s.generation &+= 1
            for name in templates.keys { s.heights[EntryKey(template: name, key: key)] = nil }
        }
    }

    /// Forgets every height.
    public func removeAll() {
        state.withLock { s in
            s.generation &+= 1
            s.heights.removeAll()
            s.order.removeAll()
            s.head = 0
        }
    }

    /// Heights cached now (at most ``capacity``).
    public var count: Int { state.withLock { $0.heights.count } }

    /// The width the cached heights are for (nil before the first call).
    public var width: Double? { state.withLock { $0.width } }
}

/// What ``CellHeightCache/height(template:key:width:configuration:)`` can throw.
public enum CellHeightError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No template of that name.
    case unknownTemplate(String, known: [String])
    /// Binding or measuring the cell failed (bad width, a text that cannot be prepared).
    case cell(CellError)

    /// A one-line message naming what went wrong.
    public var description: String {
        switch self {
        case .unknownTemplate(let name, let known): return "unknown cell template '\(name)' (known: \(known.joined(separator: ", ")))"
        case .cell(let error): return "\(error)"
        }
    }
}
