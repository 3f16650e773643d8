import CCairo
import Foundation
import Testing
import RowKitCells
import RowKitDraw
import RowKitList
import RowKitListCells
import RowKitText
import RowKitView
@testable import RowKitWindow

/// The painter without a display: frames drawn into offscreen canvases.
@Suite struct ViewportPainterTests {
    static let words = "list row height text measure layout width cell table scroll anchor section header reuse glyph".split(separator: " ")

    /// Caption-text rows with varied bodies, in sections with headers (sticky headers on).
    func makeList(sections: Int = 6, rowsPerSection: Int = 30) throws -> (ListViewModel, ListEngine<CellMeasurer>) {
        var state: UInt64 = 5
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        let list = (0..<sections).map { s in
            ListSection(header: ListRow(id: "h\(s)", template: "section-header", data: ["title": "Section \(s)"]),
                        rows: (0..<rowsPerSection).map { r in
                            let body = (0..<[2, 6, 14, 30][next() % 4]).map { _ in String(Self.words[next() % Self.words.count]) }.joined(separator: " ")
                            return ListRow(id: "s\(s)r\(r)", template: "caption-text", data: ["caption": "Row \(r)", "body": body])
                        })
        }
        let engine = try ListEngine(sections: list, measurer: CellMeasurer([ClassicCells.captionText, ClassicCells.sectionHeader]), width: 320)
        return (ListViewModel(list: EngineSeam(engine), width: 320, height: 480), engine)
    }

    func pixels(_ canvas: Canvas) -> [UInt8] {
        let surface = cairo_get_target(canvas.context)
        cairo_surface_flush(surface)
        let count = Int(cairo_image_surface_get_stride(surface)) * Int(cairo_image_surface_get_height(surface))
        return Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(surface), count: count))
    }

    @Test func reusingPixelsGivesTheWholeFramesImage() throws {
        let (model, engine) = try makeList()
        let reusing = ViewportPainter(engine: engine, images: ImageStore())
        let whole = ViewportPainter(engine: engine, images: ImageStore())
        whole.reusesPixels = false
        let a = try Canvas(offscreenWidth: 320, height: 480), b = try Canvas(offscreenWidth: 320, height: 480)
        var state: UInt64 = 11
        func next(_ n: Int) -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) % n }
        var reused = 0
        for step in 0..<160 {
            switch next(10) {
            case 0: try model.scroll(by: Double(next(900)) - 450)                // sometimes more than a screen
            case 1: try model.scroll(by: Double(next(40)) - 20 + 0.25)         // fractional: drawn whole
            case 2: try model.handle(.down)                                     // selection moves
            case 3: model.showsFrameRate.toggle()
            default: try model.scroll(by: Double(next(60)) - 25)                // whole pixels
            }
            let frame = try model.makeFrame()
            let readout = model.showsFrameRate ? "60 fps · paint \(step % 7).0 ms" : nil
            let before = pixels(a)
            try reusing.paint(frame, into: a, readout: readout)
            try whole.paint(frame, into: b, readout: readout)
            let (pa, pb) = (pixels(a), pixels(b))
            if pa != pb {
                let differing = zip(pa, pb).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset / (320 * 4) }
                Issue.record("step \(step): rows \(differing.first!)...\(differing.last!) differ (offset \(frame.offset))")
                return
            }
            if before != pa { reused += 1 }
        }
        #expect(reused > 50)
        _ = engine
    }

    @Test func aFrameIsDrawnWhereRenderDrawsIt() throws {
        // The painter's image is render's: rows at y − offset on white, separators, states.
        let (model, engine) = try makeList(sections: 1)
        try model.scroll(by: 333)
        let frame = try model.makeFrame()
        let canvas = try Canvas(offscreenWidth: 320, height: 480)
        try ViewportPainter(engine: engine, images: ImageStore()).paint(frame, into: canvas)
        let reference = try Canvas(offscreenWidth: 320, height: 480)
        reference.fill(.white)
        for item in frame.items {
            CellPainter.draw(try engine.drawingForm(atItem: item.index).arrange(width: 320), in: reference, x: 0, y: item.y - frame.offset,
                             state: CellState(item.state), images: ImageStore())
            if item.kind == .row {
                reference.setColor(Color(hex: "#c8c7cc")!)
                reference.fillRect(x: 0, y: item.y - frame.offset + item.height - 1, width: 320, height: 1)
            }
        }
        if let sticky = frame.sticky {
            CellPainter.draw(try engine.drawingForm(atItem: sticky.index).arrange(width: 320), in: reference, x: 0, y: sticky.screenY, images: ImageStore())
        }
        #expect(pixels(canvas) == pixels(reference))
    }
}
