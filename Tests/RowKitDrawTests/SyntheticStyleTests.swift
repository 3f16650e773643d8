import Testing
import RowKitDraw
import RowKitText

/// Synthetic bold and italic (TextPainter, FontFaces, FontSynthesis): a face without the
/// style's weight or slant is emboldened or slanted when drawn, as Chromium draws it, with the
/// measured advances unchanged.
@Suite struct SyntheticStyleTests {
    struct Ink { var sum: Int; var box: (minX: Int, minY: Int, maxX: Int, maxY: Int) }

    static func ink(_ text: String, weight: FontWeight = .regular, slant: FontSlant = .normal, size: Double = 40) throws -> (Ink, Double) {
        let style = TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: weight, slant: slant), size: size, lineHeight: .pixels(size * 1.5))
        let layout = try PreparedText(text, style: style).layout(width: 2000)
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let canvas = try Canvas(width: layout.maxLineWidth + 80, height: layout.height + 40, path: "\(dir)/t.png")
        TextPainter.draw(layout, in: canvas, x: 40, y: 20)
        try canvas.finish()
        let bitmap = try #require(Bitmap(png: "\(dir)/t.png"))
        let box = try #require(bitmap.inkBox())
        return (Ink(sum: bitmap.alpha.reduce(0) { $0 + Int($1) }, box: box), layout.maxLineWidth)
    }

    @Test(arguments: ["สวัสดีครับ", "你好世界", "ཀུན་"])
    func boldFallbackScriptsDrawBold(_ text: String) throws {
        // Noto Sans Thai, Noto Sans CJK and the Tibetan fallback have a regular face only here:
        // Chromium emboldens it (by size/24, advances unchanged).
        let (regular, regularWidth) = try Self.ink(text)
        let (bold, boldWidth) = try Self.ink(text, weight: .bold)
        #expect(boldWidth == regularWidth, "synthetic bold keeps the advances")
        #expect(Double(bold.sum) > 1.15 * Double(regular.sum), "\(text): ink \(bold.sum) vs \(regular.sum)")
        let grown = Double((bold.box.maxX - bold.box.minX) - (regular.box.maxX - regular.box.minX))
        #expect(grown >= 1 && grown <= 40.0 / 24 + 2, "\(text): ink box grows by about size/24, got \(grown)")
    }

    @Test func italicFallbackScriptsLean() throws {
        // Slanted by a quarter of the height: the ink's right edge moves right by about
        // 0.25 × the ink's height above the baseline; the advances stay.
        let (upright, uprightWidth) = try Self.ink("สวัสดี")
        let (italic, italicWidth) = try Self.ink("สวัสดี", slant: .italic)
        #expect(italicWidth == uprightWidth)
        #expect(italic.box.maxX - upright.box.maxX >= 4, "\(italic.box) vs \(upright.box)")
        #expect(italic.sum > upright.sum / 2)
    }

    @Test func realBoldFacesAreNotEmboldenedAgain() throws {
        // DejaVu Sans has a bold face: drawn as is, so its ink equals a font-file draw of that face.
        let bold = try FontLibrary.shared.font(for: FontDescriptor(family: "DejaVu Sans", weight: .bold))
        let style = TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: .bold), size: 40)
        #expect(FontLibrary.shared.synthesis(for: bold, style: style) == .none)
        let (byFamily, _) = try Self.ink("Bold", weight: .bold)
        let fileStyle = TextStyle(font: .file(bold.path), size: 40, lineHeight: .pixels(60))
        let layout = try PreparedText("Bold", style: fileStyle).layout(width: 2000)
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let canvas = try Canvas(width: layout.maxLineWidth + 80, height: layout.height + 40, path: "\(dir)/f.png")
        TextPainter.draw(layout, in: canvas, x: 40, y: 20)
        try canvas.finish()
        let file = try #require(Bitmap(png: "\(dir)/f.png"))
        #expect(file.alpha.reduce(0) { $0 + Int($1) } == byFamily.sum)
    }
}
