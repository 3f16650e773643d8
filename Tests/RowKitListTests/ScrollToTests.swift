import Testing
@testable import RowKitList

/// `scrollTo` lands the row exactly where asked, even when the rows around it were never
/// measured (estimates far off), and it stays there while the rest is measured.
@Suite struct ScrollToTests {
    static func rows(_ n: Int, seed: UInt64) -> [TestRow] {
        var rng = SeededRandom(seed: seed)
        return (0..<n).map { k in
            rng.chance(0.1) ? Rows.fixed("r\(k)", rng.pick([0, 3, 120, 400])) : Rows.text("r\(k)", length: rng.int(0...1_200))
        }
    }

    /// Where the row would be on screen if every row had been measured first.
    static func expectedScreenY(_ rows: [TestRow], target: Int, position: ScrollPosition, viewport: Double, width: Double) throws -> Double {
        let twin = try makeEngine([ListSection(rows: rows)], width: width, viewport: viewport)
        try twin.measureAll()
        try twin.scrollTo(path(0, target), position: position)
        return try twin.offset(ofItem: target) - twin.contentOffset
    }

    @Test(arguments: [11 as UInt64, 12, 13, 14])
    func rowsLandExactlyAmongUnmeasuredRows(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let rows = Self.rows(3_000, seed: seed)
        let viewport = rng.pick([320.0, 640, 844])
        for _ in 0..<12 {
            let target = rng.pick([0, 1, 2, rows.count - 1, rows.count - 2, rng.int(0..<rows.count), rng.int(0..<rows.count)])
            for position in [ScrollPosition.top, .middle, .bottom] {
                let wanted = try Self.expectedScreenY(rows, target: target, position: position, viewport: viewport, width: 300)
                let e = try makeEngine([ListSection(rows: rows)], width: 300, viewport: viewport, defaultEstimate: rng.pick([10.0, 44, 300]))
                e.overscan = rng.pick([0.0, 150])
                try e.scrollTo(path(0, target), position: position)
                #expect(e.unmeasuredCount > rows.count / 2, "only what is needed was measured")
                let context = "seed \(seed), row \(target), .\(position)"
                #expect(try e.offset(ofItem: target) - e.contentOffset == wanted, "\(context): right after scrollTo")
                _ = try e.visibleItems()
                #expect(try e.offset(ofItem: target) - e.contentOffset == wanted, "\(context): after the visible rows are measured")
                try e.measureAll(chunkSize: 500)
                #expect(try e.offset(ofItem: target) - e.contentOffset == wanted, "\(context): after everything is measured")
            }
        }
    }

    @Test func nearestOnUnmeasuredRowsShowsTheRowWhole() throws {
        let rows = Self.rows(2_000, seed: 3)
        let e = try makeEngine([ListSection(rows: rows)], width: 300, viewport: 500, defaultEstimate: 44)
        var rng = SeededRandom(seed: 9)
        for _ in 0..<40 {
            let target = rng.int(0..<rows.count)
            try e.scrollTo(path(0, target), position: .nearest)
            let top = try e.offset(ofItem: target) - e.contentOffset
            let height = try e.height(ofItem: target)
            #expect(try e.isMeasured(target))
            if height <= 500 {
                #expect(top >= 0 && top + height <= 500, "row \(target) at \(top)…\(top + height)")
            } else {
                #expect(top == 0 || e.contentOffset == e.contentHeight - 500)
            }
            // Keyboard steps: the next row down, shown with as little scrolling as possible.
            if target + 1 < rows.count {
                let before = e.contentOffset
                try e.scrollTo(path(0, target + 1), position: .nearest)
                let nextTop = try e.offset(ofItem: target + 1) - e.contentOffset
                let nextHeight = try e.height(ofItem: target + 1)
                if nextHeight <= 500 { #expect(nextTop >= 0 && nextTop + nextHeight <= 500) }
                #expect(e.contentOffset >= before - 1e-9, "moving down never scrolls up")
            }
        }
    }
}
