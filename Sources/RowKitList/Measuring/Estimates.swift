/// Heights assumed for items not measured yet: per kind (header, row, footer), the mean of
/// every height measured at the current width, or the default before any.
///
/// Per kind, not per cell template: the engine learns nothing of an item before it asks for
/// its data, and asking for every row's data up front is what a data source avoids.
struct Estimates: Sendable {
    let defaultEstimate: Double
    private var sums: [Double] = [0, 0, 0]
    private var counts: [Int] = [0, 0, 0]

    init(defaultEstimate: Double) {
        self.defaultEstimate = defaultEstimate
    }

    /// The height an unmeasured item of `kind` counts with now.
    func estimate(for kind: ListItemKind) -> Double {
        let k = Int(kind.rawValue)
        return counts[k] > 0 ? sums[k] / Double(counts[k]) : defaultEstimate
    }

    /// Counts a measured height.
    mutating func record(_ height: Double, kind: ListItemKind) {
        let k = Int(kind.rawValue)
        sums[k] += height
        counts[k] += 1
    }

    /// A new width: heights measured at the old one say nothing any more.
    mutating func reset() {
        sums = [0, 0, 0]
        counts = [0, 0, 0]
    }
}
