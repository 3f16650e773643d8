import Foundation
import Testing
import RowKitCells
import RowKitList
import RowKitListCells
@testable import RowKitView

@Suite struct InteractionTests {
    @Test func pressHighlightsAndReleaseSelects() throws {
        let (model, engine) = try makeModel()
        let frame = try model.makeFrame()
        let target = frame.items[2]
        let y = frame.screenY(of: target) + 1
        try model.press(x: 50, y: y)
        #expect(try engine.state(ofItem: target.index) == .highlighted)
        #expect(try model.makeFrame().items[2].state == .highlighted)
        try model.release(x: 52, y: y + 1)
        #expect(try engine.state(ofItem: target.index) == .selected)
        #expect(model.selected == target.indexPath)
        // A release away from the pressed row selects nothing new.
        let other = frame.items[4]
        try model.press(x: 50, y: frame.screenY(of: other) + 1)
        try model.release(x: 50, y: frame.screenY(of: frame.items[5]) + 1)
        #expect(try engine.state(ofItem: other.index) == .normal)
        #expect(try engine.state(ofItem: target.index) == .selected)
    }

    @Test func downMovesTheSelectionAndScrollsJustEnough() throws {
        let (model, _) = try makeModel()
        var frame = try model.makeFrame()
        try model.handle(.down)
        #expect(model.selected == RowPath(section: 0, row: 0))
        for _ in 0..<40 {
            try model.handle(.down)
            frame = try model.makeFrame()
            let item = try #require(frame.items.first { $0.indexPath == model.selected })
            let y = frame.screenY(of: item)
            #expect(y >= 0 && y + item.height <= 600, "the selected row is wholly visible")
        }
        // Below the viewport it scrolled just enough: the selected row ends at the bottom edge.
        let item = try #require(frame.items.first { $0.indexPath == model.selected })
        #expect(frame.screenY(of: item) + item.height == 600)
        // Going back up past the top puts the row at the top edge.
        let top = try #require(frame.items.first { frame.screenY(of: $0) >= 0 && $0.kind == .row })
        while model.selected != top.indexPath { try model.handle(.up) }
        try model.handle(.up)
        frame = try model.makeFrame()
        let above = try #require(frame.items.first { $0.indexPath == model.selected })
        #expect(frame.screenY(of: above) == 0)
    }

    /// With only section headers on screen (empty sections), Down selects the first row below
    /// and Up the last row above; the keys did nothing there.
    @Test func upAndDownFindRowsPastScreensOfEmptySections() throws {
        func header(_ s: Int) -> ListRow { ListRow(id: "h\(s)", template: "t", data: RowData(["h": .number(30)])) }
        func row(_ s: Int) -> ListRow { ListRow(id: "r\(s)", template: "t", data: RowData(["h": .number(44)])) }
        // Rows only in sections 0 and 99; 98 sections of headers between them (2,940 px).
        let sections = (0..<100).map { s in ListSection(header: header(s), rows: s == 0 || s == 99 ? [row(s)] : []) }
        let engine = try ListEngine(sections: sections, measurer: FieldHeightMeasurer(), width: 400)
        let model = ListViewModel(list: EngineSeam(engine), width: 400, height: 600)
        try model.scroll(by: 1000)
        var frame = try model.makeFrame()
        #expect(frame.items.allSatisfy { $0.kind == .header })
        try model.handle(.down)
        #expect(model.selected == RowPath(section: 99, row: 0))
        frame = try model.makeFrame()
        #expect(frame.items.contains { $0.indexPath == RowPath(section: 99, row: 0) && $0.kind == .row })
        try model.handle(.escape)
        try model.scroll(by: -1200)
        frame = try model.makeFrame()
        #expect(frame.items.allSatisfy { $0.kind == .header })
        try model.handle(.up)
        #expect(model.selected == RowPath(section: 0, row: 0))
    }

    /// A header taller than half the viewport is not pinned: pinned, it covered its rows
    /// (scroll-to put a row under it, Page Down moved 1 px, Down selected rows out of sight).
    @Test func aHeaderTallerThanHalfTheViewportScrollsAwayWithItsRows() throws {
        let sections = (0..<3).map { s in
            ListSection(header: ListRow(id: "h\(s)", template: "t", data: RowData(["h": .number(s == 1 ? 700 : 30)])),
                        rows: (0..<40).map { ListRow(id: "s\(s)r\($0)", template: "t", data: RowData(["h": .number(44)])) })
        }
        let engine = try ListEngine(sections: sections, measurer: FieldHeightMeasurer(), width: 400)
        let model = ListViewModel(list: EngineSeam(engine), width: 400, height: 600)
        _ = try model.makeFrame()
        let target = try #require(model.itemIndex(of: .path(section: 1, row: 5)))
        try model.scrollTo(item: target, position: .top)
        var frame = try model.makeFrame()
        #expect(frame.sticky == nil)
        let row = try #require(frame.items.first { $0.index == target })
        #expect(frame.screenY(of: row) == 0, "the row is at the top, not under a pinned header")
        let before = frame.offset
        try model.handle(.pageDown)
        frame = try model.makeFrame()
        #expect(frame.offset - before == 540)
        // Down selects the next row and keeps it in sight.
        try model.handle(.down)
        frame = try model.makeFrame()
        let selected = try #require(frame.items.first { $0.indexPath == model.selected })
        #expect(frame.screenY(of: selected) >= 0 && frame.screenY(of: selected) + selected.height <= 600)
        #expect(frame.sticky == nil)
        // Short headers still pin.
        try model.scrollTo(item: try #require(model.itemIndex(of: .path(section: 2, row: 10))), position: .top)
        frame = try model.makeFrame()
        #expect(frame.sticky?.section == 2)
    }

    /// A row taller than the list can hold is clamped; the view says so once, not silently.
    @Test func aRowTooTallToHoldIsReportedOnce() throws {
        let rows = [ListRow(id: "a", template: "t", data: RowData(["h": .number(44)])),
                    ListRow(id: "huge", template: "t", data: RowData(["h": .number(1e9)]))]
        let engine = try ListEngine(sections: [ListSection(rows: rows)], measurer: FieldHeightMeasurer(), width: 400)
        let model = ListViewModel(list: EngineSeam(engine), width: 400, height: 600)
        var warnings: [String] = []
        model.onWarning = { warnings.append($0) }
        _ = try model.makeFrame()
        try model.scroll(by: 300)
        _ = try model.makeFrame()
        #expect(warnings == ["row 1 of section 0 is taller than a list row can be (33554431.984375 px) at 400 px wide: it is drawn cut at that height"])
    }

    @Test func pageHomeAndEnd() throws {
        let (model, engine) = try makeModel()
        _ = try model.makeFrame()
        try model.handle(.pageDown)
        #expect(try model.makeFrame().offset == model.pageDistance)
        try model.handle(.pageUp)
        #expect(try model.makeFrame().offset == 0)
        try model.handle(.end)
        let frame = try model.makeFrame()
        let last = try #require(frame.items.last)
        #expect(last.index == engine.itemCount - 1 && frame.screenY(of: last) + last.height == 600)
        try model.handle(.home)
        #expect(try model.makeFrame().offset == 0)
    }

    @Test func escapeClearsAndFToggles() throws {
        let (model, engine) = try makeModel()
        _ = try model.makeFrame()
        try model.handle(.down)
        #expect(try engine.state(ofItem: 0) == .selected)
        try model.handle(.escape)
        #expect(try engine.state(ofItem: 0) == .normal && model.selected == nil)
        #expect(!model.showsFrameRate)
        try model.handle(.toggleFrameRate)
        #expect(model.showsFrameRate)
    }

    @Test func aWidthChangeKeepsTheTopRowStill() throws {
        let (model, engine) = try makeModel(count: 3000)
        try model.scroll(by: 30_000.5)
        var frame = try model.makeFrame()
        let top = try #require(frame.first)
        let y = frame.screenY(of: top)
        for width in [320.0, 700, 401, 390] {
            model.resize(width: width, height: 600)
            #expect(model.pendingWidth == width)
            frame = try model.makeFrame()
            #expect(model.pendingWidth == nil && engine.width == width)
            #expect(frame.first?.id == top.id)
            #expect(frame.screenY(ofID: top.id, in: engine) == y)
        }
    }

    @Test func severalWidthsInOneFrameMakeOneChange() throws {
        let (model, engine) = try makeModel()
        _ = try model.makeFrame()
        model.resize(width: 300, height: 600)
        model.resize(width: 350, height: 600)
        #expect(engine.width == 400, "nothing is laid out between frames")
        _ = try model.makeFrame()
        #expect(engine.width == 350)
    }

    @Test func aHeightChangeKeepsTheOffset() throws {
        let (model, _) = try makeModel()
        try model.scroll(by: 1000)
        _ = try model.makeFrame()
        model.resize(width: 400, height: 300)
        #expect(try model.makeFrame().offset == 1000)
    }

    @Test func stickyHeadersPinAndArePushedByTheNext() throws {
        let (model, engine) = try makeModel(count: 100, sections: 4)
        try engine.measureAll()
        var frame = try model.makeFrame()
        #expect(frame.sticky == nil, "the first header is in place")
        try model.scroll(by: 200)
        frame = try model.makeFrame()
        let sticky = try #require(frame.sticky)
        #expect(sticky.section == 0 && sticky.screenY == 0 && sticky.height == 30)
        // Bring section 1's header to 10 px below the top: section 0's is pushed up by 20 px.
        let next = try #require(model.list.headerIndex(ofSection: 1))
        try model.scroll(by: try engine.offset(ofItem: next) - 10 - frame.offset)
        frame = try model.makeFrame()
        #expect(frame.sticky?.section == 0 && frame.sticky?.screenY == -20)
        try model.scroll(by: 15)
        frame = try model.makeFrame()
        #expect(frame.sticky?.section == 1 && frame.sticky?.screenY == 0)
        // A press on the pinned header selects nothing.
        try model.press(x: 5, y: 5)
        #expect(model.pressed == nil)
    }

    @Test func keyboardNavigationKeepsRowsBelowThePinnedHeader() throws {
        let (model, _) = try makeModel(count: 100, sections: 4)
        try model.scroll(by: 400)
        var frame = try model.makeFrame()
        try model.handle(.down)
        let selected = try #require(model.selected)
        // Up past the top puts the row right under the pinned header, not beneath it.
        for _ in 0..<3 where model.selected!.row > 0 { try model.handle(.up) }
        frame = try model.makeFrame()
        let item = try #require(frame.items.first { $0.indexPath == model.selected })
        if let sticky = frame.sticky { #expect(frame.screenY(of: item) >= sticky.screenY + sticky.height) }
        #expect(model.selected! <= selected)
    }

    @Test func insertsAboveKeepWhatTheUserSees() throws {
        let (model, engine) = try makeModel()
        try model.scroll(by: 777.25)
        var frame = try model.makeFrame()
        let top = try #require(frame.first)
        let y = frame.screenY(of: top)
        for n in 1...5 {
            try model.insertAtTop(count: n)
            frame = try model.makeFrame()
            #expect(frame.first?.id == top.id)
            #expect(frame.screenY(ofID: top.id, in: engine) == y)
        }
    }

    @Test func atTheTopInsertsKeepStillOrShowNewAsConfigured() throws {
        for stay in [false, true] {
            let (model, _) = try makeModel(configuration: ViewConfiguration(stayAtTopOnInsert: stay))
            _ = try model.makeFrame()
            try model.handle(.down)
            try model.insertAtTop(count: 2)
            let frame = try model.makeFrame()
            if stay {
                #expect(frame.offset == 0 && frame.first?.id == "new0")
            } else {
                #expect(frame.first?.id == "r0" && frame.screenY(of: frame.first!) == 0)
            }
            #expect(model.selected == RowPath(section: 0, row: 2), "the selection follows its row")
        }
    }

    @Test func scrollBarFollowsTheList() throws {
        let (model, engine) = try makeModel(count: 100)
        try model.scroll(by: 500)
        _ = try model.makeFrame()
        var bar = model.scrollBar
        #expect(bar.value == 500 && bar.pageSize == 600 && !bar.isExact)
        try engine.measureAll()
        bar = model.scrollBar
        #expect(bar.isExact && bar.upper == engine.contentHeight)
    }
}
