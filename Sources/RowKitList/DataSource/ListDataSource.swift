/// Where a list engine gets a row's data when it must measure or draw the row, as a table
/// view's data source does: the engine stores ids, heights and measuring forms, never the data.
///
/// Thread rules: ``row(for:kind:at:)`` is called from any thread, several at once (background
/// measurement uses every core), so the source must be safe to read concurrently. Change the
/// app's data first, then tell the engine (``ListEngine/performBatchUpdates(_:)``), as with
/// UITableView; the engine checks the id of every row it gets, so a row asked for while the
/// two disagree is never measured as another.
public protocol ListDataSource<Row>: Sendable {
    /// The rows this source gives.
    associatedtype Row: Identifiable

    /// The data of the item with `id`. `kind` and `indexPath` say where the engine has it now: a
    /// source stored like the list (arrays of sections) may look it up there, but must return
    /// the row with this id (or throw) if its data has moved since.
    func row(for id: Row.ID, kind: ListItemKind, at indexPath: ListIndexPath) throws -> Row
}
