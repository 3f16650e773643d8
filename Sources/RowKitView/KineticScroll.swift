import Foundation

/// A fling's deceleration: the velocity decays exponentially, by `ratePerMillisecond` each
/// millisecond — UIScrollView's normal deceleration rate (0.998) by default — until it drops
/// below ``stopVelocity``.
///
/// A value: the position at any time is a closed-form function of the start time, so frames
/// that arrive late still land where the fling would be (no accumulated step error), and tests
/// drive it with any clock.
public struct KineticScroll: Sendable, Equatable {
    /// Speed (px/s) under which a fling stops.
    public static let stopVelocity = 20.0
    /// Initial velocity in px/s (positive: the content moves up, the offset grows).
    public let velocity: Double
    /// When the fling started, in seconds of the caller's clock.
    public let start: Double
    /// Velocity kept per millisecond (0 < rate < 1).
    public let ratePerMillisecond: Double

    /// A fling of `velocity` px/s starting at `start`.
    public init(velocity: Double, start: Double, ratePerMillisecond: Double = 0.998) {
        self.velocity = velocity.isFinite ? velocity : 0
        self.start = start
        self.ratePerMillisecond = min(max(ratePerMillisecond, 0.5), 0.9999)
    }

    private var k: Double { 1000 * log(ratePerMillisecond) }   // decay constant per second (< 0)

    /// Seconds from the start until the velocity falls below ``stopVelocity``.
    public var duration: Double {
        guard abs(velocity) > Self.stopVelocity else { return 0 }
        return log(Self.stopVelocity / abs(velocity)) / k
    }

    /// Distance travelled from the start until `time` (px, signed like the velocity).
    public func distance(at time: Double) -> Double {
        let t = min(max(0, time - start), duration)
        return velocity * (exp(k * t) - 1) / k
    }

    /// Distance travelled over the whole fling.
    public var totalDistance: Double { distance(at: start + duration) }

    /// Velocity at `time` (0 once stopped).
    public func velocity(at time: Double) -> Double {
        let t = time - start
        guard t < duration else { return 0 }
        return velocity * exp(k * max(0, t))
    }

    /// Whether the fling has stopped by `time`.
    public func isFinished(at time: Double) -> Bool { time - start >= duration }
}
