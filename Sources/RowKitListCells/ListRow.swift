import RowKitCells
import RowKitList

/// One row of a list of cells: a stable id, the cell template it uses (its reuse identifier)
/// and its data.
public struct ListRow: Sendable, Hashable, Identifiable {
    /// Stable identity: selection, anchoring and cached forms follow the id through updates.
    public var id: String
    /// The cell template's name.
    public var template: String
    /// The fields the template binds to.
    public var data: RowData

    /// A row of `template` with `data`.
    public init(id: String, template: String, data: RowData) {
        self.id = id
        self.template = template
        self.data = data
    }
}

extension CellState {
    /// The cell state a list item in `state` is drawn in.
    public init(_ state: ListItemState) {
        switch state {
        case .normal: self = .normal
        case .selected: self = .selected
        case .highlighted: self = .highlighted
        }
    }
}
