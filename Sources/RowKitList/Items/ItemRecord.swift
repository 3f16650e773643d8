/// What the engine keeps of one item (header, row or footer) besides its id: its measuring form
/// once measured, and a few bits of state — 24 bytes (22 used), a concrete type, so the loops over every
/// row (width changes, applying results) run without generic overhead. Its height lives in the
/// ``HeightIndex``, its id in the engine's id column, its data with the app.
struct ItemRecord: @unchecked Sendable {   // `form` holds a `RowMeasurer.Measuring`, which is Sendable.
    /// The measuring form, kept once measured so width changes need no data (nil: never
    /// measured, or reloaded since).
    var form: AnyObject?
    /// Names this item's current data: new for every insert and reload, so a result computed
    /// from older data (or for an item since removed) is never applied to it.
    var serial: UInt32
    /// The width generation the item's height was measured at (0: never): the height is exact
    /// when this equals the engine's current generation.
    var generation: UInt32
    /// The width from which on the form's height no longer depends on the width
    /// (`RowMeasurer.constantHeightWidth(ofObject:)`, rounded up to a `Float`; `.infinity`
    /// without a form). A width change keeps the height of an item measured at the previous
    /// width when both widths are at least this, without reading its form.
    var constantFrom: Float
    var kind: ListItemKind
    var selected: Bool

    init(kind: ListItemKind, serial: UInt32, form: AnyObject? = nil, generation: UInt32 = 0, selected: Bool = false) {
        self.form = form
        self.serial = serial
        self.generation = generation
        self.constantFrom = .infinity
        self.kind = kind
        self.selected = selected
    }

    var hasForm: Bool { form != nil }

    /// Gives the item `form`, whose height is the same at every width from `constantWidth` on.
    @inline(__always)
    mutating func setForm(_ form: AnyObject, constantWidth: Float) {
        self.form = form
        self.constantFrom = constantWidth
    }

    /// `width` as a `Float` never below it (what ``constantFrom`` keeps: a width rounded down
    /// could keep a height that changes).
    static func floatAtLeast(_ width: Double) -> Float {
        guard width.isFinite else { return width.isNaN ? .infinity : Float(width) }
        let f = Float(width)
        return Double(f) < width ? f.nextUp : f
    }

    /// Where `form` lies in a record (read in place by the measuring loop): at its start. A
    /// literal: `MemoryLayout.offset(of:)` in a static was a `swift_once` check twice per row
    /// of a width change (1.3% of its instructions); a test checks that the two agree.
    @inline(__always) static var formOffset: Int { 0 }
}
