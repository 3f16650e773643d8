import CCairo
import Testing
import RowKitCells
import RowKitDraw
import RowKitText

/// TextPainter (TextPainter.swift): what is drawn stays inside what was measured.
@Suite struct TextPainterTests {
    /// Texts from several scripts; the generator mixes them.
    static let pieces = [
        "The", "quick", "brown", "fox", "jumps", "over", "lazy", "dog.", "Wikipedia", "AVAWAY", "fjord", "(x)", "42%",
        "漢字", "日本語", "かな", "。「引用」", "한국어", "텍스트", "ภาษาไทย", "ที่สวยงาม", "عربي", "العربية", "עברית",
        "नमस्ते", "Ελληνικά", "Русский", "e\u{301}", "Å̈", "👍", "👨‍👩‍👧", "🇫🇷", "1️⃣", "❤️", "∑∫", "☺",
        " ", " ", " ", " ", "\u{A0}", "\u{AD}",
    ]

    /// A deterministic generator (SplitMix64), so failures reproduce.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// How far ink may reach outside the measured box, in CSS px.
    ///
    /// The box is what a browser lays out — advances and line boxes — not glyph ink, so some
    /// overhang is normal and the same in Chromium:
    /// * horizontally, side bearings can be negative: italic/oblique glyphs lean past their
    ///   advance, "j" and RTL marks reach left of the pen, combining marks and Thai/Devanagari
    ///   vowel signs hang over their base's neighbour, and antialiasing touches one more pixel
    ///   column. Measured over the 150 texts below: at most 0.17 em left, 0.11 em right.
    /// * vertically, line-height is an explicit 1.25 × size, while fallback fonts are taller
    ///   than the primary: Noto Sans Thai/Devanagari stack marks above the ascent, the color
    ///   emoji bitmap (≈1.17 em tall: 128 px rows for a 109 ppem strike) is taller than the
    ///   primary's ascent + descent, and stacked diacritics (Å̈) rise above the line top.
    ///   Measured: at most 0.21 em above the top, 0.08 em below the bottom.
    /// Allowance: 0.2 em + 1 px horizontally, 0.25 em + 1 px vertically (the 1 px is antialiasing).
    static func allowance(size: Double) -> (x: Double, y: Double) { (0.2 * size + 1, 0.25 * size + 1) }

    struct Overhang { var left = 0.0, right = 0.0, top = 0.0, bottom = 0.0 }

    /// Renders `layout` into a PNG with a margin and returns how far the ink overhangs the
    /// measured box on each side (0 when inside).
    static func render(_ layout: TextLayout, path: String, margin: Double = 40) throws -> Overhang? {
        let boxWidth = layout.maxWidth.isFinite ? layout.maxWidth : layout.maxLineWidth
        let canvas = try Canvas(width: (boxWidth + 2 * margin).rounded(.up), height: (layout.height + 2 * margin).rounded(.up), path: path)
        TextPainter.draw(layout, in: canvas, x: margin, y: margin)
        try canvas.finish()
        guard let bitmap = Bitmap(png: path), let ink = bitmap.inkBox() else { return nil }
        var left = Double.infinity, right = -Double.infinity
        for i in layout.lines.indices {
            left = min(left, margin + layout.lineOffset(i))
            right = max(right, margin + layout.lineOffset(i) + layout.lines[i].width)
        }
        return Overhang(left: max(0, left - Double(ink.minX)), right: max(0, Double(ink.maxX) - right),
                        top: max(0, margin - Double(ink.minY)), bottom: max(0, Double(ink.maxY) - (margin + layout.height)))
    }

    @Test func inkStaysInsideTheMeasuredBox() throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        var rng = Seeded(state: 20_240_601)
        var worst = Overhang()
        var inked = 0
        for n in 0..<150 {
            let count = Int.random(in: 1...14, using: &rng)
            let text = (0..<count).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
            let size = Double(Int.random(in: 12...28, using: &rng))
            let family = ["DejaVu Sans", "DejaVu Serif", "Liberation Serif", "Noto Sans"].randomElement(using: &rng)!
            let italic = Int.random(in: 0..<4, using: &rng) == 0
            let alignment = TextAlignment.allCases.randomElement(using: &rng)!
            let direction: TextDirection = Int.random(in: 0..<5, using: &rng) == 0 ? .rtl : .ltr
            let style = TextStyle(font: FontDescriptor(family: family, italic: italic), size: size,
                                  lineHeight: .pixels((1.25 * size).rounded()), alignment: alignment, direction: direction,
                                  whiteSpace: Bool.random(using: &rng) ? .normal : .preWrap)
            let width = Double(Int.random(in: 40...400, using: &rng))
            let maxLines: Int? = Int.random(in: 0..<4, using: &rng) == 0 ? 2 : nil
            let layout = try PreparedText(text, style: style).layout(width: width, maxLines: maxLines)
            guard !layout.lines.isEmpty else { continue }
            guard let o = try Self.render(layout, path: "\(dir)/\(n).png") else { continue }
            inked += 1
            let allow = Self.allowance(size: size)
            let context = "text \(text.debugDescription) \(family)\(italic ? " italic" : "") \(size) px W=\(width) \(alignment) \(direction)"
            #expect(o.left <= allow.x, "left overhang \(o.left) px: \(context)")
            #expect(o.right <= allow.x, "right overhang \(o.right) px: \(context)")
            #expect(o.top <= allow.y, "top overhang \(o.top) px: \(context)")
            #expect(o.bottom <= allow.y, "bottom overhang \(o.bottom) px: \(context)")
            worst.left = max(worst.left, o.left / size); worst.right = max(worst.right, o.right / size)
            worst.top = max(worst.top, o.top / size); worst.bottom = max(worst.bottom, o.bottom / size)
        }
        #expect(inked > 120)
        print("worst overhang in em: left \(worst.left) right \(worst.right) top \(worst.top) bottom \(worst.bottom)")
    }

    @Test func plainLatinInkFitsTightly() throws {
        // Upright Latin without descending diacritics: the ink is inside the box up to one
        // antialiasing pixel on each side.
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        for size in [12.0, 16, 20, 28] {
            let layout = try PreparedText("Hamburger Sandwich minimum", style: TextStyle(size: size, lineHeight: .pixels((1.25 * size).rounded()))).layout(width: 8 * size)
            let o = try #require(try Self.render(layout, path: "\(dir)/latin\(Int(size)).png"))
            #expect(o.left <= 1 && o.right <= 1 && o.top <= 1 && o.bottom <= 1, "\(o) at \(size) px")
        }
    }

    @Test func textIsDrawnWhereItIsAligned() throws {
        // A single trailing-aligned word: its ink is in the right part of the box.
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let path = "\(dir)/aligned.png"
        let layout = try PreparedText("Hi", style: TextStyle(size: 20, lineHeight: .pixels(25), alignment: .trailing)).layout(width: 200)
        let canvas = try Canvas(width: 200, height: 25, path: path)
        TextPainter.draw(layout, in: canvas, x: 0, y: 0)
        try canvas.finish()
        let ink = try #require(Bitmap(png: path)?.inkBox())
        #expect(Double(ink.minX) >= 200 - layout.lines[0].width - 1)
        #expect(ink.maxX <= 200)
    }

    @Test func colorOverrideAndShadowAreDrawn() throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let path = "\(dir)/color.png"
        let layout = try PreparedText("█████", style: TextStyle(size: 20, lineHeight: .pixels(25))).layout(width: 200)
        let canvas = try Canvas(width: 200, height: 30, path: path)
        TextPainter.draw(layout, in: canvas, x: 0, y: 0, color: Color(red: 0, green: 0, blue: 1),
                         shadow: TextShadow(dx: 0, dy: 3, color: Color(red: 1, green: 0, blue: 0)))
        try canvas.finish()
        let bitmap = try #require(Bitmap(png: path))
        #expect(bitmap.argb.contains(0xFF00_00FF), "opaque blue text")
        #expect(bitmap.argb.contains(0xFFFF_0000), "opaque red shadow below it")
    }

    @Test func emptyLayoutDrawsNothing() throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let path = "\(dir)/empty.png"
        let layout = try PreparedText("   ", style: TextStyle()).layout(width: 100)
        let canvas = try Canvas(width: 100, height: 10, path: path)
        TextPainter.draw(layout, in: canvas, x: 0, y: 0)
        try canvas.finish()
        #expect(try #require(Bitmap(png: path)).inkBox() == nil)
    }
}

extension TextPainterTests {
    @Test func scaledCanvasDrawsAtDevicePixels() throws {
        // At scale 2 the same layout's ink is twice as far from the origin and twice as wide.
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let layout = try PreparedText("Hamburg", style: TextStyle(size: 20, lineHeight: .pixels(25))).layout(width: 200)
        var boxes: [(minX: Int, minY: Int, maxX: Int, maxY: Int)] = []
        for scale in [1.0, 2.0] {
            let path = "\(dir)/scale\(Int(scale)).png"
            let canvas = try Canvas(width: 120, height: 40, scale: scale, path: path)
            TextPainter.draw(layout, in: canvas, x: 10, y: 5)
            try canvas.finish()
            boxes.append(try #require(Bitmap(png: path)?.inkBox()))
        }
        #expect(abs(boxes[1].minX - 2 * boxes[0].minX) <= 2)
        #expect(abs(boxes[1].maxX - 2 * boxes[0].maxX) <= 2)
        #expect(abs(boxes[1].minY - 2 * boxes[0].minY) <= 2)
        #expect(abs(boxes[1].maxY - 2 * boxes[0].maxY) <= 2)
    }
}
