import CCairo
import Testing
import RowKitCells
@testable import RowKitDraw
import RowKitText

/// TextPainter draws only the lines that can reach the clip (TextPainter.swift): a row with a
/// 10 MB text is ~100,000 lines, and drawing every one of them for each frame took minutes.
@Suite struct LineCullingTests {
    static let words = ["list", "row", "height", "measure", "scroll", "anchor", "glyph", "cairo", "width", "cell"]

    /// A long text; with `tall`, emoji from a taller fallback font make some lines taller.
    static func layout(lines: Int, tall: Bool, width: Double = 200) throws -> TextLayout {
        var state: UInt64 = tall ? 7 : 3
        var words: [String] = []
        for k in 0..<(lines * 4) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            words.append(tall && k % 37 == 0 ? ["ภาษาไทย", "漢字", "👍", "नमस्ते"][k % 4] : Self.words[Int(state >> 33) % Self.words.count])
        }
        let style = TextStyle(size: 13, lineHeight: tall ? .normal : .pixels(16))
        return try PreparedText(words.joined(separator: " "), style: style).layout(width: width)
    }

    /// Every line whose box meets the band is drawn; a few lines of slack at most.
    @Test(arguments: [false, true])
    func linesReachingTheBandAreAllFound(tall: Bool) throws {
        let layout = try Self.layout(lines: 300, tall: tall)
        #expect(layout.prepared.hasTallerLines == tall)
        #expect(layout.lines.count > 200)
        var tops: [Double] = [0]
        for i in layout.lines.indices { tops.append(tops[i] + layout.height(ofLine: i)) }
        for (y, top, bottom) in [(0.0, 0.0, 300.0), (-2000.5, 0, 300), (-2000, 17.25, 18), (50, 0, 40), (-1e7, 0, 300),
                                 (0, -1e9, 1e9), (-3000, -.infinity, .infinity), (10, 5, 5)] {
            let found = TextPainter.linesReaching(layout, y: y, lines: layout.lines.indices, top: top, bottom: bottom)
            let meeting = layout.lines.indices.filter { y + tops[$0] < bottom && y + tops[$0 + 1] > top }
            if let first = meeting.first, let last = meeting.last {
                #expect(found.contains(first) && found.contains(last), "y \(y) band \(top)..<\(bottom): \(found) misses \(first)...\(last)")
                #expect(found.count <= meeting.count + 4, "y \(y) band \(top)..<\(bottom): \(found) for \(first)...\(last)")
            } else {
                #expect(found.count <= 3, "y \(y) band \(top)..<\(bottom): \(found), no line meets it")
            }
            // A sub-range asked for stays within it.
            let part = TextPainter.linesReaching(layout, y: y, lines: 10..<20, top: top, bottom: bottom)
            #expect(part.isEmpty || (part.lowerBound >= 10 && part.upperBound <= 20))
        }
    }

    func pixels(_ canvas: Canvas, rows: Range<Int>) -> [UInt8] {
        let surface = cairo_get_target(canvas.context)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        return Array(UnsafeBufferPointer(start: data + rows.lowerBound * stride, count: rows.count * stride))
    }

    /// A window onto a long text draws exactly the pixels of the whole text drawn, cut out.
    @Test(arguments: [false, true])
    func aWindowOntoALongTextDrawsTheWholeTextsPixels(tall: Bool) throws {
        let layout = try Self.layout(lines: 400, tall: tall)
        let whole = try Canvas(offscreenWidth: 200, height: layout.height.rounded(.up))
        whole.fill(.white)
        TextPainter.draw(layout, in: whole, x: 0, y: 0, shadow: TextShadow(dx: 0, dy: 1, color: Color(hex: "#ff0000")!))
        for top in [0, 1500, 3001, Int(layout.height.rounded(.down)) - 150] {
            let window = try Canvas(offscreenWidth: 200, height: 150)
            window.fill(.white)
            TextPainter.draw(layout, in: window, x: 0, y: -Double(top), shadow: TextShadow(dx: 0, dy: 1, color: Color(hex: "#ff0000")!))
            let expected = pixels(whole, rows: top..<min(top + 150, Int(layout.height.rounded(.up))))
            let drawn = pixels(window, rows: 0..<(expected.count / Int(cairo_image_surface_get_stride(cairo_get_target(window.context)))))
            #expect(drawn == expected, "window at \(top) differs from the whole text's pixels")
        }
    }
}
