import Testing
@testable import RowKitView

@Suite struct GeometryAndStatisticsTests {
    @Test func thumbIsProportionalButNeverTooThin() {
        let small = ScrollBarGeometry(value: 0, upper: 2000, pageSize: 500, stepIncrement: 10, pageIncrement: 450, isExact: true)
        #expect(small.thumb(trackLength: 400).length == 100)
        #expect(small.thumb(trackLength: 400).start == 0)
        var end = small
        end.value = 1500
        #expect(end.thumb(trackLength: 400).start == 300)
        let huge = ScrollBarGeometry(value: 32_500_000, upper: 65_000_000, pageSize: 844, stepIncrement: 89, pageIncrement: 760, isExact: false)
        let thumb = huge.thumb(trackLength: 844, minimumLength: 20)
        #expect(thumb.length == 20)
        #expect(abs(thumb.start - (844 - 20) * 32_500_000 / (65_000_000 - 844)) < 1e-9)
        let short = ScrollBarGeometry(value: 0, upper: 100, pageSize: 500, stepIncrement: 10, pageIncrement: 450, isExact: true)
        #expect(short.thumb(trackLength: 400).length == 400)
    }

    @Test func percentilesAndBudget() {
        var stats = FrameStatistics()
        for k in 1...100 { stats.record(paintMilliseconds: Double(k) / 10, at: Double(k) / 60) }
        #expect(stats.frameCount == 100)
        #expect(abs(stats.paintPercentile(0.5) - 5.0) < 0.011)
        #expect(abs(stats.paintPercentile(0.99) - 9.9) < 0.011)
        #expect(stats.framesOverBudget == 0)
        stats.record(paintMilliseconds: 20, at: 2)
        #expect(stats.framesOverBudget == 1 && stats.maxPaintMilliseconds == 20)
        #expect(stats.framesPerSecond(at: 100.0 / 60) == 60)
    }

    @Test func droppedFramesCountOnlyDuringAnimations() {
        var stats = FrameStatistics()
        stats.record(paintMilliseconds: 1, at: 0)
        stats.record(paintMilliseconds: 1, at: 5)                       // idle gap: fine
        stats.record(paintMilliseconds: 1, at: 5.0167, continuous: true)
        stats.record(paintMilliseconds: 1, at: 5.06, continuous: true)  // 43 ms: a frame dropped
        #expect(stats.droppedFrameGaps == 1)
    }
}
