import Foundation
import Testing
@testable import RowKitView

@Suite struct KineticScrollTests {
    @Test func decelerationIsUIScrollViewsNormalRate() {
        let fling = KineticScroll(velocity: 2000, start: 10)
        // Velocity keeps 0.998 per ms: after 100 ms, 2000 · 0.998^100.
        #expect(abs(fling.velocity(at: 10.1) - 2000 * pow(0.998, 100)) < 1e-6)
        // Total distance is v / (−1000 ln 0.998) ≈ 0.4995 s × v, less the tail below the stop speed.
        let whole = 2000 / (-1000 * log(0.998))
        #expect(fling.totalDistance < whole && fling.totalDistance > whole - 0.5 * KineticScroll.stopVelocity)
        #expect(fling.distance(at: 9) == 0)
        #expect(fling.distance(at: 1000) == fling.totalDistance)
        #expect(fling.isFinished(at: 10 + fling.duration + 1e-9))
        #expect(!fling.isFinished(at: 10 + fling.duration / 2))
    }

    @Test func distanceGrowsMonotonicallyAndIsSymmetric() {
        let down = KineticScroll(velocity: 3000, start: 0), up = KineticScroll(velocity: -3000, start: 0)
        var last = 0.0
        for step in 0...200 {
            let t = Double(step) / 100
            #expect(down.distance(at: t) >= last)
            #expect(up.distance(at: t) == -down.distance(at: t))
            last = down.distance(at: t)
        }
        #expect(KineticScroll(velocity: 5, start: 0).duration == 0)
    }

    @Test func aFlingRunsOnTheInjectedClockAndStops() throws {
        let (model, _) = try makeModel(count: 2000)
        _ = try model.makeFrame()
        model.fling(velocity: 2500, at: 100)
        #expect(model.isAnimating)
        var time = 100.0, frames = 0
        // Frames arrive irregularly (one late): the position depends on the time only.
        while try model.advance(to: time) {
            time += frames == 10 ? 0.05 : 1.0 / 60
            frames += 1
            #expect(frames < 1000)
        }
        let expected = KineticScroll(velocity: 2500, start: 100).totalDistance.rounded()
        #expect(model.list.contentOffset == expected, "whole pixels, the fling's distance")
        #expect(!model.isAnimating)
    }

    @Test func aFlingStopsAtTheEndOfTheContent() throws {
        let (model, engine) = try makeModel(count: 30)
        _ = try model.makeFrame()
        model.fling(velocity: 50_000, at: 0)
        var time = 0.0
        while try model.advance(to: time) { time += 1.0 / 60 }
        #expect(time < 1, "stopped at the end, long before the fling would")
        #expect(engine.contentOffset == engine.contentHeight - 600)
    }

    @Test func inputStopsAFling() throws {
        let (model, _) = try makeModel()
        _ = try model.makeFrame()
        model.fling(velocity: 2000, at: 0)
        try model.scroll(by: 1)
        #expect(!model.isAnimating)
        model.fling(velocity: 2000, at: 0)
        try model.press(x: 10, y: 10)
        #expect(!model.isAnimating)
    }
}
