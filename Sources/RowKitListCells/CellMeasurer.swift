import RowKitCells
import RowKitList

/// What can go wrong turning a ``ListRow`` into a cell (the list engine reports it as
/// `ListError.rowFailed` with the row's id).
public enum CellRowError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The row names a template the measurer does not have.
    case unknownTemplate(String, known: [String])
    /// Binding the row's data to its template failed.
    case cell(CellError)

    /// A one-line message naming what went wrong.

    public var description: String {
        switch self {
        case .unknownTemplate(let template, let known):
            return "unknown cell template '\(template)' (known: \(known.joined(separator: ", ")))"
        case .cell(let error): return "\(error)"
        }
    }
}

/// A row's cell bound to its data (texts prepared once): what the list engine keeps per row
/// to measure it at any width, and what it is drawn from.
public final class MeasuredCell: Sendable {
    /// The bound cell.
    public let cell: BoundCell

    /// Keeps `cell`.
    public init(_ cell: BoundCell) { self.cell = cell }
}

/// Measures list rows with cell templates, chosen by each row's template name: the list
/// engine's adapter to RowKit's cells.
///
/// The measuring form is the bound cell (texts prepared once); the drawing form is the same
/// bound cell, so what is drawn is exactly what was measured and drawing a measured row binds
/// nothing again.
public struct CellMeasurer: RowMeasurer {
    /// The templates by name (the first of several with one name wins).
    public let templates: [String: CellTemplate]

    /// A measurer for rows of `templates`.
    public init(_ templates: [CellTemplate]) {
        self.templates = Dictionary(templates.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The row's template bound to its data.
    public func measuringForm(of row: ListRow) throws(CellRowError) -> MeasuredCell {
        MeasuredCell(try bind(row))
    }

    /// The bound cell's height at `width` (0 for a width cells refuse, which the list never uses).
    public func height(of form: MeasuredCell, width: Double) -> Double {
        (try? form.cell.measure(width: width).height) ?? 0
    }

    /// The bound cell the row was measured with, or the row bound now.
    public func drawingForm(of row: ListRow, measuring: MeasuredCell?) throws(CellRowError) -> BoundCell {
        if let measuring { return measuring.cell }
        return try bind(row)
    }

    /// Approximate bytes a bound cell holds (with its reference box).
    public func byteCount(of form: MeasuredCell) -> Int { form.cell.byteCount + 32 }

    private func bind(_ row: ListRow) throws(CellRowError) -> BoundCell {
        guard let template = templates[row.template] else { throw .unknownTemplate(row.template, known: templates.keys.sorted()) }
        do { return try template.bind(row.data) } catch { throw .cell(error) }
    }
}
