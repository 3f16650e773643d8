import Testing
@testable import RowKitList

/// What the viewport does when rows arrive above it or at the end: keep the content still,
/// stay at the top (feeds), stick to the bottom (chats).
@Suite struct AnchoringPolicyTests {
    static func engine(_ anchoring: ScrollAnchoring, rows: Int = 50) throws -> FakeEngine {
        let e = try makeEngine([ListSection(rows: Rows.uniform(rows, height: 40))], viewport: 200, defaultEstimate: 40, anchoring: anchoring)
        try e.measureAll()
        return e
    }

    @Test func atTheTopARowInsertedAtTheTop() throws {
        // Keep the content still: the new row goes above the viewport (scroll up to see it).
        let still = try Self.engine(.keepContentStill)
        try still.performBatchUpdates { $0.insert([Rows.fixed("new", 40)], at: path(0, 0)) }
        #expect(still.contentOffset == 40)
        #expect(try still.visibleItems().first?.id == "p0")
        // Stay at the top (the default): the new row shows, the content moves down.
        let top = try Self.engine(.stayAtTop)
        try top.performBatchUpdates { $0.insert([Rows.fixed("new", 40)], at: path(0, 0)) }
        #expect(top.contentOffset == 0)
        #expect(try top.visibleItems().first?.id == "new")
        // …also when the new row's height is only known once it is measured.
        try top.performBatchUpdates { $0.insert([Rows.fixed("tall", 95)], at: path(0, 0)) }
        #expect(try top.visibleItems().map(\.id).prefix(2) == ["tall", "new"])
        #expect(top.contentOffset == 0)
        #expect(try FakeEngine(sections: [ListSection<TestRow>](), measurer: FakeMeasurer(), width: 10).scrollAnchoring == .stayAtTop)
    }

    @Test func awayFromTheTopEveryPolicyKeepsTheContentStill() throws {
        for anchoring in ScrollAnchoring.allCases {
            let e = try Self.engine(anchoring)
            e.scroll(to: 400 + 13)                          // p10 at −13, far from both ends
            try e.performBatchUpdates { $0.insert([Rows.fixed("a", 40), Rows.fixed("b", 40)], at: path(0, 2)) }
            #expect(try e.offset(ofItem: 12) - e.contentOffset == -13, "\(anchoring)")
            try e.performBatchUpdates { $0.append(Rows.fixed("z", 40), rows: 52) }
            #expect(try e.offset(ofItem: 12) - e.contentOffset == -13, "\(anchoring)")
        }
    }

    @Test func stickToBottomFollowsTheEnd() throws {
        let e = try Self.engine(.stickToBottom)
        e.scroll(to: .infinity)                             // at the end: 50 × 40 − 200
        #expect(e.contentOffset == 1_800)
        // A message arrives at the end: still at the end, the new row shows.
        try e.performBatchUpdates { $0.append(Rows.fixed("m1", 60), rows: 50) }
        #expect(e.contentOffset == e.contentHeight - 200)
        let visible = try e.visibleItems()
        #expect(visible.last?.id == "m1")
        #expect(e.contentOffset == e.contentHeight - 200, "measuring the new row (60 px, estimated 40) keeps the end shown")
        // Scrolled away from the end, new rows do not move the content.
        e.scroll(to: 500)
        try e.performBatchUpdates { $0.append(Rows.fixed("m2", 60), rows: 51) }
        #expect(e.contentOffset == 500)
        // A list shorter than the viewport grows downwards, then sticks to its end.
        let short = try makeEngine([ListSection(rows: Rows.uniform(2, height: 40))], viewport: 200, defaultEstimate: 40, anchoring: .stickToBottom)
        for k in 0..<10 { try short.performBatchUpdates { $0.append(Rows.fixed("s\(k)", 40), rows: 2 + k) } }
        #expect(short.contentOffset == 12 * 40 - 200)
    }

    @Test func stickToBottomHoldsThroughWidthChangesAndBackgroundMeasuring() throws {
        let rows = (0..<2_000).map { Rows.text("t\($0)", length: ($0 * 7919) % 700) }
        let e = try makeEngine([ListSection(rows: rows)], width: 300, viewport: 600, anchoring: .stickToBottom)
        e.scroll(to: .infinity)
        _ = try e.visibleItems()
        e.scroll(to: .infinity)
        let done = Completion()
        e.startBackgroundMeasurement(chunkSize: 100, completion: done.callback)
        try #require(done.wait(seconds: 30))
        #expect(e.contentOffset == e.contentHeight - 600)
        try e.setWidthAndWait(500)
        #expect(e.contentOffset == e.contentHeight - 600)
    }
}

extension ListBatch {
    /// Appends `row` to section 0, which has `rows` rows before the update.
    mutating func append(_ row: Row, rows: Int) { insert([row], at: ListIndexPath(section: 0, row: rows)) }
}
