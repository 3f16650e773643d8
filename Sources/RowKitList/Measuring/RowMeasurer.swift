/// What the list engine asks of whatever it lists: turn a row's data into a compact measuring
/// form (kept for every measured row), measure that form at any width, and make the full
/// drawing form only for rows being drawn.
///
/// The engine keeps one ``Measuring`` per measured row for the list's lifetime, so a width
/// change re-measures every row without asking for its data again: keep it small (a few
/// hundred bytes) and make ``height(of:width:)`` cheap and pure. It is a class (a final class
/// or a `ManagedBuffer`): the engine keeps one reference per row and never copies it. ``Drawing`` is made only for
/// the rows a view draws and kept in a small bounded cache.
///
/// Thread rules: every requirement may be called from any thread, several at once.
public protocol RowMeasurer: Sendable {
    /// The row data the measurer reads (from the app's data source or kept by the engine).
    associatedtype Row: Identifiable & Sendable where Row.ID: Sendable
    /// The compact form height is measured from: a class, kept by reference.
    associatedtype Measuring: AnyObject & Sendable
    /// The form a row is drawn from.
    associatedtype Drawing: Sendable

    /// The compact measuring form of `row` (the expensive step: shaping its texts).
    func measuringForm(of row: Row) throws -> Measuring
    /// The row's height at `width`: cheap, pure, allocation-free where possible.
    func height(of form: Measuring, width: Double) -> Double
    /// The drawing form of `row`. `measuring` is the row's measuring form when the engine has
    /// one (a measurer whose drawing form is its measuring form returns it as is).
    func drawingForm(of row: Row, measuring: Measuring?) throws -> Drawing
    /// Approximate bytes `form` holds, for memory accounting.
    func byteCount(of form: Measuring) -> Int
}

extension RowMeasurer {
    /// Approximate bytes a measuring form holds: by default its inline size.
    public func byteCount(of form: Measuring) -> Int { MemoryLayout<Measuring>.size }
}
