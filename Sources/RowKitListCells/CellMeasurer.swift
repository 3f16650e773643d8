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

/// Measures list rows with cell templates, chosen by each row's template name: the list
/// engine's adapter to RowKit's cells.
///
/// The measuring form the engine keeps per row is the row's `CellMetrics` (its texts'
/// compact measuring forms, a few hundred bytes, no glyphs): all a width change needs. The
/// drawing form, a `BoundCell` with glyphs, is made only for rows being drawn — from the same
/// compiled layout and the same shape cache, so its height at every width is the height the
/// list keeps (measured == drawn) — and the engine caches it for the visible neighbourhood only
/// (`ListEngine.drawingCacheCapacity`, default 256 rows).
///
/// A value; every member may be called from any thread, several at once.
public struct CellMeasurer: RowMeasurer {
    /// The templates by name (the first of several with one name wins).
    public let templates: [String: CellTemplate]
    /// Each template compiled once, shared by all its rows' forms.
    let compiled: [String: CompiledLayout]

    /// A measurer for rows of `templates`.
    public init(_ templates: [CellTemplate]) {
        let unique = Dictionary(templates.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.templates = unique
        self.compiled = unique.mapValues { $0.compile() }
    }

    /// The row's compact measuring form (its texts prepared for measuring only).
    public func measuringForm(of row: ListRow) throws(CellRowError) -> CellMetrics {
        let layout = try layout(of: row)
        do throws(CellError) { return try layout.metrics(for: row.data) } catch { throw .cell(error) }
    }

    /// The row's height at `width` (0 for a width cells refuse, which the list never uses).
    @inline(__always)
    public func height(of form: CellMetrics, width: Double) -> Double {
        (try? form.height(width: width)) ?? 0
    }

    /// The row bound to its template (texts prepared with glyphs), with the layout its
    /// measuring form was made with when there is one.
    public func drawingForm(of row: ListRow, measuring: CellMetrics?) throws(CellRowError) -> BoundCell {
        let layout: CompiledLayout
        if let measuring { layout = measuring.compiled } else { layout = try self.layout(of: row) }
        do throws(CellError) { return try layout.bind(row.data) } catch { throw .cell(error) }
    }

    /// Bytes a row's measuring form holds.
    public func byteCount(of form: CellMetrics) -> Int { form.byteCount }

    /// The measuring form's one heap object (kept by the engine, no box).
    @inline(__always)
    public func object(of form: CellMetrics) -> AnyObject { form.object }

    /// The height of the measuring form `object` stands for, read in place.
    @inline(__always)
    public func height(ofObject object: AnyObject, width: Double) -> Double {
        (try? CellMetrics.height(ofObject: object, width: width)) ?? 0
    }

    /// The width from which on the row's height is the same at every width
    /// (`CellMetrics.constantHeightWidth`): a width change between such widths keeps it.
    public func constantHeightWidth(ofObject object: AnyObject) -> Double {
        CellMetrics(unsafeObject: object).constantHeightWidth
    }

    /// The measuring form ``object(of:)`` gave.
    @inline(__always)
    public func form(of object: AnyObject) -> CellMetrics { CellMetrics(unsafeObject: object) }

    private func layout(of row: ListRow) throws(CellRowError) -> CompiledLayout {
        guard let layout = compiled[row.template] else { throw .unknownTemplate(row.template, known: templates.keys.sorted()) }
        return layout
    }
}
