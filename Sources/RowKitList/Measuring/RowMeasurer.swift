/// What the list engine asks of whatever it lists: turn a row's data into a compact measuring
/// form (kept for every measured row), measure that form at any width, and make the full
/// drawing form only for rows being drawn.
///
/// The engine keeps one ``Measuring`` per measured row for the list's lifetime, so a width
/// change re-measures every row without asking for its data again: keep it small (a few
/// hundred bytes) and make ``height(of:width:)`` cheap and pure. The engine stores it as one
/// object reference (``object(of:)`` and ``form(of:)`` convert; a class form needs neither), and
/// never copies it. ``Drawing`` is made only for the rows a view draws and kept in a small
/// bounded cache.
///
/// Thread rules: every requirement may be called from any thread, several at once.
public protocol RowMeasurer: Sendable {
    /// The row data the measurer reads (from the app's data source or kept by the engine).
    associatedtype Row: Identifiable & Sendable where Row.ID: Sendable
    /// The compact form height is measured from, kept per row as one object reference.
    associatedtype Measuring: Sendable
    /// The form a row is drawn from.
    associatedtype Drawing: Sendable

    /// The compact measuring form of `row` (the expensive step: shaping its texts).
    func measuringForm(of row: Row) throws -> Measuring
    /// The row's height at `width`: cheap, pure, allocation-free where possible. The engine
    /// keeps heights in 1/64 px: a NaN or negative height counts as 0, and one past
    /// 33,554,431.98 px (`Int32.max` units, `.infinity` too) as that.
    func height(of form: Measuring, width: Double) -> Double
    /// The drawing form of `row`. `measuring` is the row's measuring form when the engine has
    /// one (a measurer whose drawing form is its measuring form returns it as is).
    func drawingForm(of row: Row, measuring: Measuring?) throws -> Drawing
    /// Approximate bytes `form` holds, for memory accounting.
    func byteCount(of form: Measuring) -> Int
    /// The one object reference the engine keeps for `form` (no copy, ideally no box).
    func object(of form: Measuring) -> AnyObject
    /// The measuring form an ``object(of:)`` result stands for (only ever given such results).
    func form(of object: AnyObject) -> Measuring
    /// The height at `width` of the form ``object(of:)`` gave as `object`: what a width change
    /// calls for every row. By default ``height(of:width:)`` of ``form(of:)``; a measurer can
    /// read the object in place (no reference counting per row).
    func height(ofObject object: AnyObject, width: Double) -> Double
    /// The narrowest width from which on the height of the form `object` stands for no longer
    /// depends on the width: at any two widths at least this wide it is the same (a row whose
    /// texts all fit on one line there, a layout of fixed-width columns). A width change
    /// between two such widths keeps the row's height without reading its form. Asked once,
    /// when the form is made; must never be less than the true width (`.infinity`, the
    /// default: the height may change at every width).
    func constantHeightWidth(ofObject object: AnyObject) -> Double
}

extension RowMeasurer {
    /// Approximate bytes a measuring form holds: by default its inline size.
    public func byteCount(of form: Measuring) -> Int { MemoryLayout<Measuring>.size }
    /// The height of the form `object` stands for, through ``form(of:)``.
    public func height(ofObject object: AnyObject, width: Double) -> Double { height(of: form(of: object), width: width) }
    /// No width from which on the height is known to stay the same.
    public func constantHeightWidth(ofObject object: AnyObject) -> Double { .infinity }
}

extension RowMeasurer where Measuring: AnyObject {
    /// A class form is its own reference.
    @inline(__always)
    public func object(of form: Measuring) -> AnyObject { form }
    /// A class form is its own reference (unchecked: the engine only passes back its own).
    @inline(__always)
    public func form(of object: AnyObject) -> Measuring { unsafeDowncast(object, to: Measuring.self) }
}
