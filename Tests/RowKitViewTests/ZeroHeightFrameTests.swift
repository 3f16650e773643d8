import Foundation
import RowKitCells
import RowKitList
import RowKitListCells
import Testing
@testable import RowKitView

/// The window's first frame over a list of zero-height rows waits for a bounded number of them.
@Suite struct ZeroHeightFrameTests {
    /// The seam read the viewport "quietly" (again while the unmeasured count moved), and its own
    /// measuring moves it: with zero-height rows each read measured the engine's whole
    /// foreground budget again, 16 times a frame. With results delivered through the UI loop
    /// (as the window does) one read is enough and the frame measures one budget.
    @Test func aFrameMeasuresOneForegroundBudget() throws {
        let count = 60_000
        let rows = (0..<count).map { ListRow(id: "z\($0)", template: "t", data: RowData(["h": .number(0)])) }
        let engine = try ListEngine(sections: [ListSection(rows: rows)], measurer: FieldHeightMeasurer(), width: 400)
        let seam = EngineSeam(engine)
        // Jobs are queued and never run: no background result lands during the frame.
        seam.deliverBackgroundResults(through: { _ in }, layoutChanged: { _ in })
        let model = ListViewModel(list: seam, width: 400, height: 600)
        let frame = try model.makeFrame()
        let measured = count - engine.unmeasuredCount
        // The engine's budget for a 600 px viewport is 1,024 + 600 items.
        #expect(measured > 0 && measured <= 2 * (1_024 + 600), "measured \(measured)")
        // Zero-height rows take no room and draw nothing: a frame leaves them out (the painter
        // made a drawing form for each of tens of thousands of them every frame).
        #expect(frame.items.isEmpty)
    }

    /// A frame cut short by the budget is drawn again when background results arrive, not
    /// only once all are measured: 30,000 rows, 1 in 3,000 with text, stayed blank in the
    /// window until the background had measured the last one (3 s in a debug build).
    @Test func aFrameCutShortIsDrawnAgainAsResultsArrive() throws {
        let count = 30_000
        let rows = (0..<count).map { ListRow(id: "m\($0)", template: "t", data: RowData(["h": .number($0 % 3_000 == 2_999 ? 20 : 0)])) }
        let engine = try ListEngine(sections: [ListSection(rows: rows)], measurer: FieldHeightMeasurer(), width: 400)
        let seam = EngineSeam(engine)
        seam.deliverBackgroundResults(through: { _ in }, layoutChanged: { _ in })
        let model = ListViewModel(list: seam, width: 400, height: 600)
        _ = try model.makeFrame()
        #expect(!model.needsDisplay)
        model.layoutChanged(unmeasured: engine.unmeasuredCount - 1_024)
        #expect(model.needsDisplay)
        // A frame that fills the viewport is not drawn again for results below it.
        let (full, fullEngine) = try makeModel(count: 500)
        _ = try full.makeFrame()
        full.layoutChanged(unmeasured: fullEngine.unmeasuredCount - 10)
        #expect(!full.needsDisplay)
    }
}
