import RowKitCells
import RowKitText

/// Prepares rows once and measures them at any width: what the list engine asks of cells.
///
/// `prepare` is the expensive step (shaping); `height(of:width:)` must be cheap and pure, as the
/// engine calls it for every row when the width changes.
public protocol RowMeasurer: Sendable {
    associatedtype Prepared: Sendable
    /// The row's layout, prepared (its texts shaped).
    func prepare(_ row: ListRow) throws -> Prepared
    /// The row's height at `width`.
    func height(of prepared: Prepared, width: Double) -> Double
    /// Approximate bytes `prepared` holds, for the cache's budget.
    func byteCount(of prepared: Prepared) -> Int
}

/// What can go wrong measuring a row.
public enum ListError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownTemplate(row: String, template: String, known: [String])
    case cell(row: String, CellError)
    case invalidWidth(Double)
    case indexOutOfRange(String)

    public var description: String {
        switch self {
        case .unknownTemplate(let row, let template, let known):
            return "row '\(row)': unknown cell template '\(template)' (known: \(known.joined(separator: ", ")))"
        case .cell(let row, let error): return "row '\(row)': \(error)"
        case .invalidWidth(let width): return "invalid list width \(width): must be a number in [1, 100000]"
        case .indexOutOfRange(let what): return "index out of range: \(what)"
        }
    }
}

/// Measures rows with cell templates, by the row's template name.
public struct CellMeasurer: RowMeasurer {
    public let templates: [String: CellTemplate]

    public init(_ templates: [CellTemplate]) {
        self.templates = Dictionary(templates.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func prepare(_ row: ListRow) throws -> BoundCell {
        guard let template = templates[row.template] else {
            throw ListError.unknownTemplate(row: row.id, template: row.template, known: templates.keys.sorted())
        }
        do { return try template.bind(row.data) } catch { throw ListError.cell(row: row.id, error) }
    }

    public func height(of prepared: BoundCell, width: Double) -> Double {
        (try? prepared.measure(width: width).height) ?? 0
    }

    public func byteCount(of prepared: BoundCell) -> Int { prepared.byteCount }
}
