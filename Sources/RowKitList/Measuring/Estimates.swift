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

    /// Counts the heights of a tally.
    mutating func record(_ tally: HeightTally) {
        sums[0] += tally.sums.0
        sums[1] += tally.sums.1
        sums[2] += tally.sums.2
        counts[0] += tally.counts.0
        counts[1] += tally.counts.1
        counts[2] += tally.counts.2
    }

    /// A new width: heights measured at the old one say nothing any more.
    mutating func reset() {
        sums = [0, 0, 0]
        counts = [0, 0, 0]
    }
}

/// Measured heights summed per item kind in local numbers, then added to the ``Estimates`` at
/// once: applying a chunk counts every row, and adding to the estimates' arrays row by row
/// (bounds and uniqueness checks each time) cost more than the rest of the row's bookkeeping.
struct HeightTally {
    var sums: (Double, Double, Double) = (0, 0, 0)
    var counts: (Int, Int, Int) = (0, 0, 0)

    /// Counts `height` for the kind whose raw value is `kind`.
    @inline(__always)
    mutating func add(_ height: Double, kind: UInt8) {
        switch kind {
        case 0: sums.0 += height; counts.0 += 1
        case 1: sums.1 += height; counts.1 += 1
        default: sums.2 += height; counts.2 += 1
        }
    }
}
