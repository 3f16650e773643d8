import CCairo
import Foundation
import RowKitCells
import RowKitDraw
import RowKitText
import Testing

/// An image in a box with no area (width or height 0) draws nothing — and nothing else is lost.
@Suite struct EmptyImageBoxTests {
    /// Before the fix, the image was scaled by 0 to fit its box: cairo's matrix became singular,
    /// the canvas's context went into its error state, and everything drawn after it — the rest
    /// of the row and every later row (a window's every later frame) — was silently missing.
    @Test(arguments: [(0.0, 20.0), (20.0, 0.0), (0.0, 0.0)], ["teal", "fruit", "no-such-image"])
    func anImageBoxWithNoAreaLeavesTheRestOfTheDrawing(_ size: (Double, Double), _ image: String) throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        CellPainterTests.writeSolidPNG("\(dir)/teal.png", width: 4, height: 4, rgb: 0x008080)
        let layout = CellLayout.stack(StackElement(.vertical, children: [
            .box(BoxElement(width: size.0, height: size.1, content: .image(.named(image)))),
            .box(BoxElement(width: 30, height: 10, content: .color(Color(red: 1, green: 0, blue: 0)))),
        ]))
        let arrangement = try CellTemplate(name: "empty-image", layout: layout).bind([:]).arrange(width: 30)
        let warnings = CellPainterTests.Warnings()
        let bitmap = try CellPainterTests.render(arrangement, images: warnings.store(folder: dir), margin: 0, path: "\(dir)/out.png")
        let red = bitmap.argb.filter { $0 == 0xFFFF_0000 }.count
        #expect(red == 30 * 10, "\(size) \(image): \(red) of 300 pixels of the box drawn after the image are red")
        // The same canvas draws on: a second cell after it is drawn too.
        let height = arrangement.size.height
        let canvas = try Canvas(width: 30, height: 2 * height, path: "\(dir)/two.png")
        CellPainter.draw(arrangement, in: canvas, x: 0, y: 0, images: warnings.store(folder: dir))
        CellPainter.draw(arrangement, in: canvas, x: 0, y: height, images: warnings.store(folder: dir))
        try canvas.finish()
        let two = try #require(Bitmap(png: "\(dir)/two.png"))
        #expect(two.argb.filter { $0 == 0xFFFF_0000 }.count == 2 * 30 * 10, "\(size) \(image)")
    }
}
