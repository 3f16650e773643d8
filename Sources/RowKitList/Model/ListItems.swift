/// The state an item is drawn in.
public enum ListItemState: String, Sendable, Hashable, CaseIterable {
    /// Neither selected nor highlighted.
    case normal
    /// Selected (``ListEngine/select(_:)``).
    case selected
    /// Under a press (``ListEngine/highlight(_:)``); wins over selected.
    case highlighted
}

/// An item of the flattened list (every section's header, rows and footer, in order): where it
/// is and what it is.
public struct ListItem<ID: Hashable & Sendable>: Sendable, Hashable {
    /// Index in the flattened list.
    public var index: Int
    /// Header, row or footer.
    public var kind: ListItemKind
    /// The section, and for rows the row within it (see ``ListIndexPath`` for headers and footers).
    public var indexPath: ListIndexPath
    /// The item's id.
    public var id: ID

    /// An item description (the engine makes these; public for tests and adapters).
    public init(index: Int, kind: ListItemKind, indexPath: ListIndexPath, id: ID) {
        self.index = index
        self.kind = kind
        self.indexPath = indexPath
        self.id = id
    }
}

/// An item the viewport shows: what it is, its frame in list coordinates and its state, all
/// taken at one moment (one lock hold), so they agree with each other.
public struct VisibleItem<ID: Hashable & Sendable>: Sendable, Hashable {
    /// Index in the flattened list (headers, rows and footers of all sections in order).
    public var index: Int
    /// Header, row or footer.
    public var kind: ListItemKind
    /// The section, and for rows the row within it (see ``ListIndexPath`` for headers and footers).
    public var indexPath: ListIndexPath
    /// The item's id.
    public var id: ID
    /// Top of the item in list coordinates.
    public var y: Double
    /// The item's exact height.
    public var height: Double
    /// Normal, selected or highlighted.
    public var state: ListItemState

    /// A visible item (the engine makes these; public for tests and adapters).
    public init(index: Int, kind: ListItemKind, indexPath: ListIndexPath, id: ID, y: Double, height: Double, state: ListItemState) {
        self.index = index
        self.kind = kind
        self.indexPath = indexPath
        self.id = id
        self.y = y
        self.height = height
        self.state = state
    }
}

/// Where ``ListEngine/scrollTo(_:position:)`` puts a row in the viewport.
public enum ScrollPosition: String, Sendable, Hashable, CaseIterable {
    /// The row's top at the viewport's top.
    case top
    /// The row's middle at the viewport's middle.
    case middle
    /// The row's bottom at the viewport's bottom.
    case bottom
    /// As little scrolling as shows the whole row: none if it is fully visible, else `.top` if
    /// it is above (or taller than the viewport), `.bottom` if below (keyboard navigation).
    case nearest
}

/// What the viewport does when rows are inserted, deleted or measured above what it shows.
///
/// In every case the row at the top of the viewport keeps its screen position unless the rule
/// says otherwise, so content never jumps by itself.
public enum ScrollAnchoring: String, Sendable, Hashable, CaseIterable {
    /// Always keep the content still: at offset 0 a row inserted at the top goes above the
    /// viewport (scroll up to see it).
    case keepContentStill
    /// As ``keepContentStill``, except at offset 0: the offset stays 0, so rows inserted at the
    /// top show and push the content down (feeds). The default.
    case stayAtTop
    /// As ``keepContentStill``, except when the viewport shows the end of the list: it keeps
    /// showing the end, so rows appended (or growing) at the bottom show (chats).
    case stickToBottom
}
