/// Paint times and frame rate of a window, bounded in memory whatever the run's length.
///
/// Paint times go into a histogram of 0.01 ms buckets up to 500 ms (percentiles exact to
/// 0.01 ms), frame times into a ring of the last 256 frames (the readout's frame rate).
public struct FrameStatistics: Sendable {
    /// Bucket width of the paint-time histogram, in ms.
    public static let bucketMilliseconds = 0.01
    static let bucketCount = 50_000
    /// A frame budget at 60 Hz.
    public static let frameBudgetMilliseconds = 1000.0 / 60

    private var histogram = [UInt32](repeating: 0, count: bucketCount + 1)
    private var recentTimes: [Double] = []
    private var recentHead = 0
    /// Frames recorded.
    public private(set) var frameCount = 0
    /// Frames whose paint took longer than a 60 Hz frame (16.7 ms).
    public private(set) var framesOverBudget = 0
    /// Gaps between consecutive frames of one animation longer than 1.5 frames (a frame dropped).
    public private(set) var droppedFrameGaps = 0
    /// The last frame's paint time, and the longest.
    public private(set) var lastPaintMilliseconds = 0.0
    public private(set) var maxPaintMilliseconds = 0.0
    private var paintSum = 0.0

    public init() {}

    /// Records a frame painted at `time` (seconds) in `paintMilliseconds`. `continuous` says the
    /// frame continues an animation (so a long gap since the previous one is a dropped frame).
    public mutating func record(paintMilliseconds: Double, at time: Double, continuous: Bool = false) {
        let ms = paintMilliseconds.isFinite ? max(0, paintMilliseconds) : 0
        histogram[min(Self.bucketCount, Int(ms / Self.bucketMilliseconds))] += 1
        frameCount += 1
        paintSum += ms
        lastPaintMilliseconds = ms
        maxPaintMilliseconds = max(maxPaintMilliseconds, ms)
        if ms > Self.frameBudgetMilliseconds { framesOverBudget += 1 }
        if continuous, let last = lastFrameTime, (time - last) * 1000 > 1.5 * Self.frameBudgetMilliseconds { droppedFrameGaps += 1 }
        if recentTimes.count < 256 { recentTimes.append(time) } else { recentTimes[recentHead] = time; recentHead = (recentHead + 1) % 256 }
        lastFrameTime = time
    }

    /// When the last frame was painted.
    public private(set) var lastFrameTime: Double?

    /// Frames painted in the second before `time`.
    public func framesPerSecond(at time: Double) -> Int {
        recentTimes.filter { $0 > time - 1 && $0 <= time }.count
    }

    /// The paint time under which `fraction` (0...1) of the frames stayed, to 0.01 ms (the
    /// bucket's upper edge).
    public func paintPercentile(_ fraction: Double) -> Double {
        guard frameCount > 0 else { return 0 }
        let target = max(1, Int((fraction * Double(frameCount)).rounded(.up)))
        var seen = 0
        for (bucket, count) in histogram.enumerated() {
            seen += Int(count)
            if seen >= target { return min(Double(bucket + 1) * Self.bucketMilliseconds, maxPaintMilliseconds) }
        }
        return maxPaintMilliseconds
    }

    /// Mean paint time in ms.
    public var meanPaintMilliseconds: Double { frameCount > 0 ? paintSum / Double(frameCount) : 0 }
}
