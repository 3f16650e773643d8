import Foundation

/// Everything the list engine can throw. Every throwing engine call throws this type (typed
/// throws); a failure of the app's measurer or data source arrives wrapped in ``rowFailed(id:reason:)``.
public enum ListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A width that is NaN, infinite or outside [1, 100000].
    case invalidWidth(Double)
    /// An index, index path or section that is not in the list; the text names which.
    case indexOutOfRange(String)
    /// A batch update that cannot be applied (checked before anything changes); the text names
    /// the operation and why.
    case inconsistentBatch(String)
    /// Two items with one id; their index paths (after the update, for a batch).
    case duplicateID(String, ListIndexPath, ListIndexPath)
    /// An item's data is neither kept by the engine nor can be asked for: the list has no data source.
    case missingRowData(id: String)
    /// The data source answered with a row whose id is not the one asked for.
    case dataSourceMismatch(expected: String, got: String)
    /// The item is no longer in the list (it was deleted or its id changed).
    case itemNotFound(id: String)
    /// Measuring or fetching item `id` failed; `reason` is the measurer's or data source's error.
    case rowFailed(id: String, reason: any Error)

    /// A one-line message naming what went wrong.
    public var description: String {
        switch self {
        case .invalidWidth(let width): return "invalid list width \(width): must be a number in [1, 100000]"
        case .indexOutOfRange(let what): return "index out of range: \(what)"
        case .inconsistentBatch(let why): return "inconsistent batch update: \(why)"
        case .duplicateID(let id, let first, let second): return "duplicate id '\(id)' at \(first) and \(second)"
        case .missingRowData(let id): return "no data for item '\(id)': the list keeps no row with this id and has no data source"
        case .dataSourceMismatch(let expected, let got): return "the data source gave row '\(got)' when asked for '\(expected)'"
        case .itemNotFound(let id): return "item '\(id)' is no longer in the list"
        case .rowFailed(let id, let reason): return "row '\(id)': \(Self.message(of: reason))"
        }
    }

    /// An app's error as one line: an `NSError` (a file or network failure in a data source) by
    /// its localized description — its `description` on Linux is `Error Domain=… UserInfo={…}` —
    /// any other error by its own description.
    static func message(of error: any Error) -> String {
        if type(of: error) is NSError.Type { return (error as NSError).localizedDescription }
        return String(describing: error)
    }

    /// Equal when the same case with the same values; wrapped errors compare by their descriptions.
    public static func == (a: ListError, b: ListError) -> Bool {
        switch (a, b) {
        case (.invalidWidth(let x), .invalidWidth(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.indexOutOfRange(let x), .indexOutOfRange(let y)): return x == y
        case (.inconsistentBatch(let x), .inconsistentBatch(let y)): return x == y
        case (.duplicateID(let x, let p, let q), .duplicateID(let y, let r, let s)): return x == y && p == r && q == s
        case (.missingRowData(let x), .missingRowData(let y)): return x == y
        case (.dataSourceMismatch(let x, let p), .dataSourceMismatch(let y, let q)): return x == y && p == q
        case (.itemNotFound(let x), .itemNotFound(let y)): return x == y
        case (.rowFailed(let x, let p), .rowFailed(let y, let q)): return x == y && String(describing: p) == String(describing: q)
        default: return false
        }
    }
}

/// How a background measurement or a width change ended, as its completion reports it.
public enum ListMeasurementResult: Sendable, Equatable {
    /// Every row it was to measure has its exact height.
    case completed
    /// ``ListEngine/cancelBackgroundMeasurement()`` was called, or the engine was released.
    case cancelled
    /// A newer width change took its place (width-change completions only).
    case superseded
    /// A row could not be measured; other rows may still be unmeasured.
    case failed(ListError)
}

/// What changed after the engine applied work done in the background (measured heights, a
/// width change), delivered through the engine's ``ListExecutor``. Deliveries are coalesced:
/// one may stand for several applications of results.
public struct ListLayoutChange: Sendable, Equatable {
    /// The list's total height now.
    public var contentHeight: Double
    /// The viewport's offset now.
    public var contentOffset: Double
    /// How far the engine moved the offset (scroll anchoring) since the previous delivery: a
    /// view that keeps its own scroll position adds this to it, so the content does not move
    /// while the scroll bar follows the new heights.
    public var offsetAdjustment: Double
    /// Items still counted with an estimate.
    public var unmeasuredCount: Int
    /// The width the heights are for.
    public var width: Double
}
