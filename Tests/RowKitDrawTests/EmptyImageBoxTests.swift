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

/// A drawing whose cairo context went into its error state (a singular matrix, a bad restore)
/// has lost everything drawn since: it must not be written as if it were complete.
@Suite struct BrokenDrawingTests {
    @Test(arguments: ["png", "pdf", "svg"])
    func aCanvasWhoseContextFailedIsNotWritten(_ format: String) throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let path = "\(dir)/out.\(format)"
        // The previous file stays as it was.
        let first = try Canvas(width: 20, height: 20, path: path)
        first.fill(Color(red: 1, green: 0, blue: 0))
        try first.finish()
        let before = try #require(FileManager.default.contents(atPath: path))
        let canvas = try Canvas(width: 20, height: 20, path: path)
        canvas.fill(Color(red: 0, green: 0, blue: 1))
        cairo_scale(canvas.context, 0, 1)   // what an image scaled into an empty box did
        canvas.fill(Color(red: 0, green: 1, blue: 0))
        do {
            try canvas.finish()
            Issue.record("\(format): a drawing whose context failed was written")
        } catch {
            #expect("\(error)".contains("drawing failed"), "\(error)")
        }
        #expect(FileManager.default.contents(atPath: path) == before, "the previous file is intact")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        #expect(names == ["out.\(format)"], "no temporary file is left: \(names)")
    }
}

/// Text too small to see (`draw --size 1e-300 --italic`): a slanted fallback font's matrix was
/// singular to cairo, whose context then dropped everything drawn after it (the run failed with
/// "drawing failed"; before that check, the image was written blank).
@Suite struct InvisibleTextTests {
    @Test(arguments: [1e-300, 1e-200, 1e-100, 1e-20, 1e-7])
    func textTooSmallToSeeLeavesTheRestOfTheDrawing(_ size: Double) throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let style = TextStyle(font: FontDescriptor(family: "DejaVu Sans", slant: .italic), size: size, lineHeight: .pixels(10))
        let layout = try PreparedText("مرحبا 😀 hello", style: style).layout(width: 100)
        let canvas = try Canvas(width: 30, height: 30, path: "\(dir)/out.png")
        TextPainter.draw(layout, in: canvas, x: 0, y: 0)
        canvas.setColor(Color(red: 1, green: 0, blue: 0))
        canvas.fillRect(x: 0, y: 20, width: 30, height: 10)
        try canvas.finish()
        let bitmap = try #require(Bitmap(png: "\(dir)/out.png"))
        #expect(bitmap.argb.filter { $0 == 0xFFFF_0000 }.count == 300, "size \(size)")
    }
}

/// A color emoji far under a device pixel (0.04 px at scale 0.05, 0.001 px at scale 1): cairo
/// scaled its bitmap to nothing and failed ("out of memory"), which dropped the rest.
@Suite struct TinyColorGlyphTests {
    @Test(arguments: [(0.04, 0.05), (0.001, 1.0), (0.01, 0.05)])
    func aColorEmojiTooSmallToSeeLeavesTheRestOfTheDrawing(_ size: (Double, Double)) throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let layout = try PreparedText("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} \u{1F600}",
                                      style: TextStyle(size: size.0, lineHeight: .pixels(10))).layout(width: 100)
        let canvas = try Canvas(width: 40, height: 40, scale: size.1, path: "\(dir)/out.png")
        TextPainter.draw(layout, in: canvas, x: 0, y: 0)
        canvas.setColor(Color(red: 1, green: 0, blue: 0))
        canvas.fillRect(x: 0, y: 20, width: 40, height: 20)
        try canvas.finish()
        let bitmap = try #require(Bitmap(png: "\(dir)/out.png"))
        #expect(bitmap.argb.filter { $0 == 0xFFFF_0000 }.count > 0, "size \(size)")
    }
}

