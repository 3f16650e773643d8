/// What the engine keeps of one item (header, row or footer): its id, its compact measuring
/// form once measured, and a few bits of state. Its height lives in the ``HeightIndex``; its
/// data stays with the app (or in ``ListState/keptRows`` for lists given as arrays).
///
/// With a `String` id and a one-reference measuring form this is 40 bytes a row.
struct Item<ID: Hashable & Sendable, Form: Sendable>: Sendable {
    var id: ID
    /// The measuring form, kept once measured so width changes need no data (nil: never
    /// measured, or reloaded since).
    var form: Form?
    /// Bumped by reloads, so a result computed from older data is not applied.
    var revision: UInt32
    /// The width generation the item's height was measured at (0: never): the height is exact
    /// when this equals the engine's current generation.
    var generation: UInt32
    var kind: ListItemKind
    var selected: Bool

    init(id: ID, kind: ListItemKind, form: Form? = nil, revision: UInt32 = 0, generation: UInt32 = 0, selected: Bool = false) {
        self.id = id
        self.form = form
        self.revision = revision
        self.generation = generation
        self.kind = kind
        self.selected = selected
    }

    var hasForm: Bool { form != nil }
}
