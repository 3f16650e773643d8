/// What a scroll bar shows: GtkAdjustment's fields, computed from the list.
public struct ScrollBarGeometry: Sendable, Equatable {
    /// The viewport's top (the adjustment's value).
    public var value: Double
    /// The content's height (the adjustment's upper bound; the lower bound is 0).
    public var upper: Double
    /// The viewport's height.
    public var pageSize: Double
    /// Distance of one arrow-key step and of one page (a page less one step of overlap).
    public var stepIncrement: Double
    public var pageIncrement: Double
    /// Whether every row is measured, so that `upper` is exact (else it includes estimates).
    public var isExact: Bool

    public init(value: Double, upper: Double, pageSize: Double, stepIncrement: Double, pageIncrement: Double, isExact: Bool) {
        self.value = value
        self.upper = upper
        self.pageSize = pageSize
        self.stepIncrement = stepIncrement
        self.pageIncrement = pageIncrement
        self.isExact = isExact
    }

    /// The thumb's start and length on a track of `trackLength` px, at least `minimumLength`
    /// long (a million rows would otherwise make it thinner than a pixel).
    public func thumb(trackLength: Double, minimumLength: Double = 20) -> (start: Double, length: Double) {
        guard trackLength > 0 else { return (0, 0) }
        let upper = max(self.upper, pageSize, 1)
        let length = min(trackLength, max(minimumLength, trackLength * pageSize / upper))
        let range = upper - pageSize
        let fraction = range > 0 ? min(max(value / range, 0), 1) : 0
        return ((trackLength - length) * fraction, length)
    }
}
