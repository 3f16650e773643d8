import Dispatch
import Foundation
import RowKitCells

/// The table view without a window: sections of rows with exact heights, offsets in O(log n),
/// a viewport with scroll anchoring, batch updates, width changes, selection.
///
/// Rows count with an estimate (the running mean of measured rows of their template) until
/// they are measured: visible rows and `scrollTo` targets on demand, all others by
/// ``measureAll()`` or in the background (``startBackgroundMeasurement(chunkSize:completion:)``).
/// Whenever heights change above the viewport, or rows are inserted, deleted or moved, the row
/// at the top of the viewport keeps its screen position (scroll anchoring).
///
/// Thread-safe: every method takes the engine's lock; measuring happens outside it.
public final class ListEngine<Measurer: RowMeasurer>: @unchecked Sendable {
    struct Item: Sendable {
        var row: ListRow
        var kind: ListItemKind
        var measured: Bool
        /// Bumped by reloads, so a height measured from old data is not applied.
        var revision: UInt32
        /// The prepared row (texts shaped), kept for re-measuring at other widths while the
        /// budget allows; `referenced` gives it a second chance when the budget evicts.
        var prepared: Measurer.Prepared? = nil
        var preparedBytes: Int32 = 0
        var referenced = false

        init(row: ListRow, kind: ListItemKind, measured: Bool, revision: UInt32) {
            self.row = row
            self.kind = kind
            self.measured = measured
            self.revision = revision
        }
    }

    struct SectionInfo: Sendable {
        var id: String
        var hasHeader: Bool, hasFooter: Bool
        var rowCount: Int
        var itemCount: Int { rowCount + (hasHeader ? 1 : 0) + (hasFooter ? 1 : 0) }
    }

    /// A structural change in flat indices, logged so background results find their rows.
    enum Change {
        case insert(at: Int, count: Int)
        case remove(at: Int)
        case invalidate(at: Int)
    }

    /// The measurer that prepares rows and measures them.
    public let measurer: Measurer
    /// Height assumed for a row of a template no row of which has been measured yet.
    public let defaultEstimate: Double

    let lock = NSRecursiveLock()
    var items = BlockedArray<Item>()
    var sections: [SectionInfo] = []
    var sectionItems = FenwickTree([])
    var heights = HeightIndex()
    /// Bytes of prepared rows kept, and the most allowed.
    var preparedBytes = 0
    var preparedRows = 0
    let cacheBudget: Int
    var evictionHand = 0
    var estimates: [String: (sum: Double, count: Int)] = [:]
    var unmeasured = 0
    var version = 0
    var changes: [(version: Int, change: Change)] = []
    var oldestSnapshot: Int?
    var measureCursor = 0
    var backgroundRunning = false

    var _width: Double
    var _contentOffset: Double = 0
    var _viewportHeight: Double = 0
    var _selected: Set<String> = []
    var _highlighted: String?
    /// Whether several rows can be selected at once.
    public var allowsMultipleSelection = false
    /// Extra height above and below the viewport whose rows count as visible (for reuse).
    public var overscan: Double {
        get { locked { _overscan } }
        set { locked { _overscan = newValue.isNaN ? 0 : min(max(0, newValue), HeightIndex.maximumOffset) } }
    }
    var _overscan: Double = 0

    /// A list of `sections` laid out at `width`. `cacheBudget` bounds the bytes of prepared
    /// rows kept for re-measuring at other widths.
    public init(sections: [ListSection] = [], measurer: Measurer, width: Double, defaultEstimate: Double = 44,
                cacheBudget: Int = 512 << 20) throws(ListError) {
        guard width.isFinite, width >= 1, width <= 100_000 else { throw .invalidWidth(width) }
        self.measurer = measurer
        self.defaultEstimate = defaultEstimate
        self._width = width
        self.cacheBudget = max(0, cacheBudget)
        var flat: [Item] = []
        var estimatedHeights: [Double] = []
        for section in sections {
            self.sections.append(SectionInfo(id: section.id, hasHeader: section.header != nil, hasFooter: section.footer != nil,
                                             rowCount: section.rows.count))
            for (kind, row) in Self.items(of: section) {
                flat.append(Item(row: row, kind: kind, measured: false, revision: 0))
                estimatedHeights.append(defaultEstimate)
            }
        }
        items = BlockedArray(flat)
        heights = HeightIndex(heights: estimatedHeights)
        unmeasured = flat.count
        rebuildSections()
    }

    static func items(of section: ListSection) -> [(ListItemKind, ListRow)] {
        var result: [(ListItemKind, ListRow)] = []
        if let header = section.header { result.append((.header, header)) }
        result += section.rows.map { (.row, $0) }
        if let footer = section.footer { result.append((.footer, footer)) }
        return result
    }

    @inline(__always) func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: structure

    /// Number of sections.
    public var numberOfSections: Int { locked { sections.count } }
    /// Rows in a section (headers and footers not counted).
    public func numberOfRows(inSection section: Int) -> Int { locked { sections[section].rowCount } }
    /// Items in the flattened list: every section's header, rows and footer.
    public var itemCount: Int { locked { items.count } }
    /// Rows not measured yet (counted with an estimate).
    public var unmeasuredCount: Int { locked { unmeasured } }

    /// The flat index of a row.
    public func index(of path: IndexPath) throws(ListError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        guard path.section >= 0 && path.section < sections.count, path.row >= 0 && path.row < sections[path.section].rowCount else {
            throw .indexOutOfRange("row \(path)")
        }
        return flatIndex(path)
    }

    /// The row at a flat index (a header or footer too), with its kind and index path.
    public func item(at index: Int) -> (kind: ListItemKind, indexPath: IndexPath, row: ListRow) {
        locked {
            let item = items[index]
            return (item.kind, indexPath(ofFlat: index), item.row)
        }
    }
}
