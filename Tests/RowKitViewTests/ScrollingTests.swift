import Foundation
import Testing
import RowKitCells
import RowKitList
@testable import RowKitView

@Suite struct ScrollingTests {
    @Test func scrollingMovesTheContentByExactlyTheDistance() throws {
        let (model, engine) = try makeModel()
        var frame = try model.makeFrame()
        for dy in [10.0, 0.5, 123.25, -40, 300, -7.75] {
            let reference = frame.items[frame.items.count / 2]
            let before = frame.screenY(of: reference)
            try model.scroll(by: dy)
            frame = try model.makeFrame()
            let after = try #require(frame.screenY(ofID: reference.id, in: engine))
            #expect(after == before - dy)
        }
    }

    @Test func scrollingClampsAtBothEnds() throws {
        let (model, engine) = try makeModel(count: 50)
        try model.scroll(by: -100)
        #expect(try model.makeFrame().offset == 0)
        try model.scroll(by: 1e7)
        let frame = try model.makeFrame()
        #expect(frame.offset == engine.contentHeight - 600)
        let last = try #require(frame.items.last)
        #expect(last.index == engine.itemCount - 1)
        #expect(frame.screenY(of: last) + last.height == 600)
    }

    @Test func wheelClicksMoveByTheViewportsTwoThirdsPower() throws {
        let (model, _) = try makeModel(height: 844)
        #expect(model.wheelStep == 89)
        _ = try model.makeFrame()
        try model.wheel(clicks: 2)
        #expect(try model.makeFrame().offset == 178)
        try model.wheel(clicks: -1)
        #expect(try model.makeFrame().offset == 89)
    }

    @Test func drawsOnlyWhatTheViewportShows() throws {
        let (model, _) = try makeModel(count: 1000)
        try model.scroll(by: 20_000)
        let frame = try model.makeFrame()
        let first = try #require(frame.items.first), last = try #require(frame.items.last)
        #expect(frame.screenY(of: first) <= 0 && frame.screenY(of: first) + first.height > 0)
        #expect(frame.screenY(of: last) < 600 && frame.screenY(of: last) + last.height >= 600)
        // Consecutive items touch: no gap, no overlap.
        for (a, b) in zip(frame.items, frame.items.dropFirst()) { #expect(a.y + a.height == b.y) }
    }

    @Test func scrollToPlacesRowsExactlyAmongUnmeasuredRows() throws {
        for position in [RowPosition.top, .middle, .bottom] {
            let (model, engine) = try makeModel(count: 2000)
            _ = try model.makeFrame()
            try model.scrollTo(item: 1500, position: position)
            let frame = try model.makeFrame()
            let item = try #require(frame.items.first { $0.index == 1500 })
            let y = frame.screenY(of: item)
            switch position {
            case .top: #expect(y == 0)
            case .middle: #expect(y == (600 - item.height) / 2)
            case .bottom: #expect(y + item.height == 600)
            case .nearest: break
            }
            #expect(engine.unmeasuredCount > 0, "rows around stayed estimated")
        }
    }

    @Test func backgroundMeasurementNeverMovesTheContent() async throws {
        // Rows are estimated at 44 px, measured 20...200 px in the background while we scroll:
        // every step must move the content by exactly the distance asked, whatever lands.
        let (model, engine) = try makeModel(count: 20_000, slow: 20)
        var frame = try model.makeFrame()
        try model.scroll(by: 50_000)
        frame = try model.makeFrame()
        let done = DoneFlag()
        engine.startBackgroundMeasurement(chunkSize: 256) { _ in done.set() }
        #expect(engine.isMeasuringInBackground || done.isSet)
        var steps = 0
        while !done.isSet || steps < 50 {
            let dy = Double(steps % 7) * 13.5 - 30 + (steps % 11 == 0 ? 400 : 0)
            let before = frame
            try model.scroll(by: dy)
            frame = try model.makeFrame()
            // Everything that was on screen and still is moved by exactly dy.
            var common = 0
            for item in before.items {
                guard let after = frame.screenY(ofID: item.id, in: engine) else { continue }
                #expect(after == before.screenY(of: item) - dy, "step \(steps), row \(item.id)")
                common += 1
            }
            #expect(common > 0)
            steps += 1
            if steps > 5000 { break }
        }
        // On a loaded machine 5,000 steps can end before the measuring does: let it finish.
        let deadline = Date().addingTimeInterval(120)
        while !done.isSet && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(engine.unmeasuredCount == 0)
    }
}

final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
