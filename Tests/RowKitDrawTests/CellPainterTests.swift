import CCairo
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import RowKitCells
import RowKitDraw
import RowKitText

/// CellPainter (CellPainter.swift): classic cells drawn at their measured size stay inside it;
/// states change colors and shadows only; missing images draw a placeholder and warn once.
@Suite struct CellPainterTests {
    typealias Seeded = TextPainterTests.Seeded

    static let latin = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog.", "Inbox", "Wikipedia", "AVAWAY", "fjord", "(x)", "42%", "café"]
    static let other = ["漢字", "日本語", "你好", "한국어", "👍", "🇫🇷", "❤️", "Donaudampfschifffahrtsgesellschaftskapitän", "", "  "]

    static func text(_ rng: inout Seeded) -> String {
        let count = Int.random(in: 0...30, using: &rng)
        return (0..<count).map { _ in
            Int.random(in: 0..<5, using: &rng) == 0 ? other.randomElement(using: &rng)! : latin.randomElement(using: &rng)!
        }.joined(separator: " ")
    }

    static func row(_ template: CellTemplate, _ rng: inout Seeded) -> RowData {
        var fields: [String: FieldValue] = [:]
        for key in template.samples[0].fields.keys {
            fields[key] = ["icon", "logo1", "logo2"].contains(key)
                ? .string(ImageStore.builtinNames.randomElement(using: &rng)!)
                : .string(text(&rng))
        }
        return RowData(fields)
    }

    /// A store that records its warnings.
    final class Warnings: Sendable {
        let messages = Mutex<[String]>([])
        var all: [String] { messages.withLock { $0 } }
        func store(folder: String? = nil) -> ImageStore {
            ImageStore(folder: folder, warn: { message in self.messages.withLock { $0.append(message) } })
        }
    }

    /// Draws `arrangement` at (`margin`, `margin`) of a transparent canvas `margin` px larger
    /// on every side, and reads it back.
    static func render(_ arrangement: CellArrangement, state: CellState = .normal, images: ImageStore,
                       margin: Double = 20, path: String) throws -> Bitmap {
        let canvas = try Canvas(width: arrangement.size.width + 2 * margin, height: arrangement.size.height + 2 * margin, path: path)
        CellPainter.draw(arrangement, in: canvas, x: margin, y: margin, state: state, images: images)
        try canvas.finish()
        return try #require(Bitmap(png: path))
    }

    /// The layout inside a classic cell's background (all classic cells are `.background(_, child)`).
    static func withoutBackground(_ template: CellTemplate) throws -> CellLayout {
        guard case .background(_, let child) = template.layout else { throw DrawTestError.noBackground(template.name) }
        return child
    }

    enum DrawTestError: Error { case noBackground(String) }

    @Test(arguments: ClassicCells.all.map(\.name))
    func noInkOutsideTheMeasuredCell(_ name: String) throws {
        let template = try #require(ClassicCells.named(name))
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let images = Warnings().store()
        var rng = Seeded(state: name.utf8.reduce(UInt64(99)) { $0 &* 131 &+ UInt64($1) })
        let margin = 20
        for n in 0..<12 {
            let row = n < template.samples.count ? template.samples[n] : Self.row(template, &rng)
            // From 320 px up: narrower filter-list and project-growing cells are a known overflow.
            let width = Double(Int.random(in: 320...800, using: &rng))
            let cell = try template.bind(row)
            let measured = try cell.measure(width: width)
            let arrangement = try cell.arrange(width: width)
            #expect(arrangement.size == measured)
            let context = "\(name) row \(n) width \(width): \(row.fields)"
            for state in CellState.allCases {
                let bitmap = try Self.render(arrangement, state: state, images: images, margin: Double(margin), path: "\(dir)/\(n)-\(state).png")
                let ink = try #require(bitmap.inkBox(), "\(context): nothing drawn")
                let inside = ink.minX >= margin && ink.minY >= margin
                    && ink.maxX <= margin + Int(width) && Double(ink.maxY) <= Double(margin) + measured.height.rounded(.up)
                #expect(inside, "\(context) \(state): ink \(ink) outside the cell \(width)×\(measured.height) at \(margin)")
                // The opaque backgrounds fill the whole measured cell: it is drawn at exactly that size.
                #expect(ink.minX == margin && ink.minY == margin && ink.maxX == margin + Int(width), "\(context) \(state)")
                #expect(abs(Double(ink.maxY - margin) - measured.height) < 1, "\(context) \(state): drawn \(ink.maxY - margin) px tall")
            }
        }
    }

    @Test(arguments: ClassicCells.all.map(\.name))
    func textInkStaysInItsFrame(_ name: String) throws {
        // Each text element drawn alone where the cell places it: its ink stays inside its frame
        // plus the glyph-overhang allowance of TextPainterTests; drawn without the background,
        // the whole cell's ink stays inside the cell (plus the allowance and custom's 1 px shadow).
        let template = try #require(ClassicCells.named(name))
        let bare = try Self.withoutBackground(template)
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let images = Warnings().store()
        var rng = Seeded(state: name.utf8.reduce(UInt64(7)) { $0 &* 131 &+ UInt64($1) })
        let margin = 40.0
        var inked = 0
        for n in 0..<10 {
            let row = n < template.samples.count ? template.samples[n] : Self.row(template, &rng)
            let width = Double(Int.random(in: 320...800, using: &rng))
            let arrangement = try BoundCell(bare, row: row).arrange(width: width)
            let context = "\(name) row \(n) width \(width): \(row.fields)"
            for (i, element) in arrangement.elements.enumerated() {
                guard case .text(let layout, _) = element.kind, !layout.lines.isEmpty else { continue }
                let allow = TextPainterTests.allowance(size: layout.prepared.fontSize)
                let path = "\(dir)/\(n)-\(i).png"
                let canvas = try Canvas(width: width + 2 * margin, height: arrangement.size.height + 2 * margin + max(0, element.frame.maxY - arrangement.size.height), path: path)
                // Within the element's clip, as CellPainter draws it: an ellipsis alone in a
                // frame narrower than it is clipped at the frame's sides (text-overflow: ellipsis).
                if let clip = element.clip {
                    cairo_rectangle(canvas.context, margin + clip.x, margin + clip.y, clip.width, clip.height)
                    cairo_clip(canvas.context)
                }
                TextPainter.draw(layout, in: canvas, x: margin + element.frame.x, y: margin + element.frame.y)
                try canvas.finish()
                guard let ink = Bitmap(png: path)?.inkBox() else { continue }
                inked += 1
                let ok = Double(ink.minX) >= margin + element.frame.x - allow.x && Double(ink.maxX) <= margin + element.frame.maxX + allow.x
                    && Double(ink.minY) >= margin + element.frame.y - allow.y && Double(ink.maxY) <= margin + element.frame.maxY + allow.y
                #expect(ok, "\(context) element \(i) frame \(element.frame): ink \(ink) (margin \(margin), allowance \(allow))")
            }
            // The whole cell without its background.
            let bitmap = try Self.render(arrangement, images: images, margin: margin, path: "\(dir)/\(n)-cell.png")
            if let ink = bitmap.inkBox() {
                let allow = TextPainterTests.allowance(size: 17)
                let ok = Double(ink.minX) >= margin - allow.x && Double(ink.maxX) <= margin + width + allow.x
                    && Double(ink.minY) >= margin - allow.y && Double(ink.maxY) <= margin + arrangement.size.height + allow.y + 1
                #expect(ok, "\(context): ink \(ink) outside the cell \(width)×\(arrangement.size.height) + allowance")
            }
        }
        #expect(inked > 0)
    }

    @Test func lineLimitedTextWiderThanItsFrameDrawsNoInkOutsideIt() throws {
        // A one-line "W" (13 px) in a 4 px frame at x = 10: its ink stays in 10..<14.
        let text = TextElement(.literal("W"), appearance: TextAppearance(style: TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 16)), maxLines: 1)
        let template = CellTemplate(name: "narrow", samples: [[:]]) {
            .frames([FramedElement(x: 10, y: 0, width: 4, height: nil, child: .text(text))])
        }
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let arrangement = try template.bind([:]).arrange(width: 40)
        let bitmap = try Self.render(arrangement, images: Warnings().store(), margin: 20, path: "\(dir)/narrow.png")
        let ink = try #require(bitmap.inkBox())
        #expect(ink.minX >= 30 && ink.maxX <= 34, "ink \(ink)")
    }

    @Test func customHighlightedTextIsWhiteWithoutShadow() throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let images = Warnings().store()
        let row = ClassicCells.custom.samples[0]
        // Without the background, on a transparent canvas: only text (and shadow) is drawn.
        let bare = try BoundCell(try Self.withoutBackground(ClassicCells.custom), row: row).arrange(width: 320)
        let normal = try Self.render(bare, state: .normal, images: images, path: "\(dir)/normal.png")
        func opaque(_ b: Bitmap) -> [UInt32] { b.argb.filter { $0 >> 24 == 0xFF } }
        func rgb(_ p: UInt32) -> (Int, Int, Int) { (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF)) }
        #expect(opaque(normal).contains { p in let c = rgb(p); return c.0 == c.1 && c.1 == c.2 && (110...120).contains(c.0) },
                "the main label's 0.45 gray")
        #expect(opaque(normal).contains(0xFFFF_FFFF), "the white shadow")
        let normalInk = try #require(normal.inkBox())
        for state in [CellState.highlighted, .selected] {
            let active = try Self.render(bare, state: state, images: images, path: "\(dir)/\(state).png")
            let pixels = opaque(active)
            #expect(!pixels.isEmpty)
            #expect(pixels.allSatisfy { $0 == 0xFFFF_FFFF }, "\(state): every opaque pixel is white")
            // No shadow: the ink ends 1 px higher (the shadow is 1 px down) and is otherwise the same.
            let ink = try #require(active.inkBox())
            #expect(ink.maxY == normalInk.maxY - 1, "\(state): \(ink) vs normal \(normalInk)")
            #expect(ink.minX == normalInk.minX && ink.maxX == normalInk.maxX && ink.minY == normalInk.minY)
            // Drawn again with the shadow dropped by hand (white text, no shadow) gives the same image.
            var manual: [UInt32] = []
            do {
                let path = "\(dir)/manual-\(state).png"
                let canvas = try Canvas(width: 360, height: bare.size.height + 40, path: path)
                for element in bare.elements {
                    if case .text(let layout, _) = element.kind {
                        TextPainter.draw(layout, in: canvas, x: 20 + element.frame.x, y: 20 + element.frame.y, color: .white)
                    }
                }
                try canvas.finish()
                manual = try #require(Bitmap(png: path)).argb
            }
            #expect(manual == active.argb, "\(state) equals white text without shadow")
        }
        // With the background: the selection gradient replaces the light one.
        let full = try ClassicCells.custom.bind(row).arrange(width: 320)
        let lit = try Self.render(full, state: .highlighted, images: images, path: "\(dir)/full.png")
        let plain = try Self.render(full, state: .normal, images: images, path: "\(dir)/plain.png")
        let corner = 22 * lit.width + 22
        let (r, _, b) = rgb(lit.argb[corner])
        #expect(b > r + 100, "highlighted background is blue")
        let (r2, g2, b2) = rgb(plain.argb[corner])
        #expect(r2 == g2 && g2 == b2 && r2 > 200, "normal background is light gray")
    }

    @Test func missingImageDrawsAPlaceholderAndWarnsOnce() throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let warnings = Warnings()
        let images = warnings.store()
        let row: RowData = ["icon": "no-such-icon", "project": "Lost", "description": "Its icon is missing.", "logo1": "cat", "logo2": "no-such-icon"]
        let arrangement = try ClassicCells.project.bind(row).arrange(width: 320)
        var bitmaps: [Bitmap] = []
        for n in 0..<3 {
            bitmaps.append(try Self.render(arrangement, state: n == 1 ? .selected : .normal, images: images, margin: 0, path: "\(dir)/\(n).png"))
        }
        #expect(warnings.all.count == 1, "\(warnings.all)")
        #expect(warnings.all.first?.contains("no-such-icon") == true)
        #expect(warnings.all.first?.contains("placeholder") == true)
        // The placeholder: a 0.9 gray box with a 0.6 gray cross, in the icon's 40×40 frame at (5, 5).
        let bitmap = bitmaps[0]
        #expect(bitmap.argb[13 * bitmap.width + 25] == 0xFFE6_E6E6, "light gray fill off the diagonals")
        let centre = bitmap.argb[25 * bitmap.width + 25]
        #expect(centre != 0xFFFF_FFFF && centre != 0xFFE6_E6E6, "the cross passes through the centre")
        // A built-in name draws its icon and does not warn; another store warns again.
        #expect(!warnings.all.contains { $0.contains("cat") })
        let other = Warnings()
        _ = try Self.render(arrangement, images: other.store(), margin: 0, path: "\(dir)/other.png")
        #expect(other.all.count == 1)
    }

    /// Writes a `width`×`height` PNG of one opaque color (0xRRGGBB) with cairo.
    static func writeSolidPNG(_ path: String, width: Int32, height: Int32, rgb: UInt32) {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, Double(rgb >> 16 & 0xFF) / 255, Double(rgb >> 8 & 0xFF) / 255, Double(rgb & 0xFF) / 255)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_write_to_png(surface, path)
        cairo_surface_destroy(surface)
    }

    @Test(arguments: [(1000, 1000), (100, 100), (1, 4000), (4000, 1), (1, 40), (3, 200)])
    func folderImageFillsItsBoxAtAnySize(_ size: (Int, Int)) throws {
        // A PNG more than twice the drawn size is scaled down once and cached; that copy used to
        // paint nothing (its surface was finished when the scaling surface was closed). A thin
        // PNG stretched over the box used to fade out towards the box's edges.
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        Self.writeSolidPNG("\(dir)/red.png", width: Int32(size.0), height: Int32(size.1), rgb: 0xFF0000)
        let warnings = Warnings()
        let layout = CellLayout.box(BoxElement(width: 40, height: 40, content: .image(.field("icon"))))
        let arrangement = try CellTemplate(name: "icon", layout: layout).bind(["icon": "red"]).arrange(width: 40)
        for (n, state) in [CellState.normal, .selected].enumerated() { // the second draw comes from the cache
            let bitmap = try Self.render(arrangement, state: state, images: warnings.store(folder: dir), margin: 0, path: "\(dir)/out\(n).png")
            #expect(bitmap.width == 40 && bitmap.height == 40)
            let notRed = bitmap.argb.indices.filter { bitmap.argb[$0] != 0xFFFF_0000 }
            #expect(notRed.count == 0, "\(size): \(notRed.count) of 1600 pixels are not red, e.g. (\(notRed.first.map { $0 % 40 } ?? 0), \(notRed.first.map { $0 / 40 } ?? 0)): \(String(notRed.first.map { bitmap.argb[$0] } ?? 0, radix: 16))")
        }
        #expect(warnings.all.isEmpty, "\(warnings.all)")
    }

    @Test func sameArrangementSameImage() throws {
        // Drawing is a pure function of the arrangement and state: two binds, identical pixels.
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let images = Warnings().store()
        for template in ClassicCells.all {
            let row = template.samples.last!
            let a = try Self.render(try template.bind(row).arrange(width: 480), images: images, path: "\(dir)/a.png")
            let b = try Self.render(try template.bind(row).arrange(width: 480), images: images, path: "\(dir)/b.png")
            #expect(a.argb == b.argb, "\(template.name)")
        }
    }

    /// A row millions of pixels tall drawn at offsets past cairo's fixed-point range
    /// (±8,388,608 px): each box, a rounded bordered background around them and a clip by the
    /// row's frame still paint exactly their own pixels (before, at an offset of 4,000,000 the
    /// red box drew white: its coordinates wrapped around).
    @Test func rowsMillionsOfPixelsTallDrawRightAtAnyOffset() throws {
        let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
        let boxes: [CellLayout] = (0..<20).map { .box(BoxElement(width: 60, height: 1_000_000, content: .color($0 % 2 == 0 ? red : blue))) }
        let background = Background(fill: .color(Color(red: 0, green: 1, blue: 0)), borderColor: Color(red: 0, green: 0, blue: 0),
                                    borderWidth: 2, cornerRadius: 12)
        let template = CellTemplate(name: "tall", samples: [[:]]) { .background(background, .stack(StackElement(.vertical, children: boxes))) }
        let arrangement = try template.bind([:]).arrange(width: 100)
        #expect(arrangement.size.height == 20_000_000)
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        for offset in [0.0, 4_000_000, 8_388_000, 9_000_000, 12_500_000, 16_777_300, 19_999_900] {
            let path = "\(dir)/tall-\(Int(offset)).png"
            let canvas = try Canvas(width: 100, height: 100, path: path)
            CellPainter.draw(arrangement, in: canvas, x: 0, y: -offset, images: Warnings().store())
            try canvas.finish()
            let bitmap = try #require(Bitmap(png: path))
            for y in [1, 50, 98] {
                let listY = offset + Double(y) + 0.5
                let index = Int(listY / 1_000_000)
                let box: UInt32 = index % 2 == 0 ? 0xFFFF_0000 : 0xFF00_00FF
                #expect(bitmap.argb[y * 100 + 30] == box, "offset \(offset), y \(y)")
                // Right of the boxes: the green background; its border and corners only at the row's ends.
                let atEnd = listY < 20 || listY > 20_000_000 - 20
                if !atEnd { #expect(bitmap.argb[y * 100 + 80] == 0xFF00_FF00, "offset \(offset), y \(y): background") }
            }
        }
    }

    /// A folder image in a box millions of pixels tall is painted where it shows at a far offset
    /// (its own path would pass cairo's fixed-point range); a PNG of 0×0 pixels is named as such.
    @Test func aFarImageBoxPaintsItsVisiblePartAndAnEmptyPNGIsNamed() throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        Self.writeSolidPNG("\(dir)/teal.png", width: 4, height: 4, rgb: 0x008080)
        let boxes: [CellLayout] = [.box(BoxElement(width: 60, height: 5_000_000, content: .color(Color(red: 1, green: 0, blue: 0)))),
                                   .box(BoxElement(width: 60, height: 20_000_000, content: .image(.named("teal"))))]
        let template = CellTemplate(name: "tall", samples: [[:]]) { .stack(StackElement(.vertical, children: boxes)) }
        let arrangement = try template.bind([:]).arrange(width: 100)
        let warnings = Warnings()
        let images = warnings.store(folder: dir)
        for offset in [5_000_000.0, 9_000_000, 14_000_000, 24_999_950] {
            let path = "\(dir)/far-\(Int(offset)).png"
            let canvas = try Canvas(width: 100, height: 50, path: path)
            CellPainter.draw(arrangement, in: canvas, x: 0, y: -offset, images: images)
            try canvas.finish()
            let bitmap = try #require(Bitmap(png: path))
            #expect(bitmap.argb[25 * 100 + 30] == 0xFF00_8080, "offset \(offset)")
            #expect(bitmap.argb[25 * 100 + 80] == 0, "offset \(offset): nothing right of the image")
        }
        #expect(warnings.all.isEmpty, "\(warnings.all)")
        // IHDR of width 0 and height 0.
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bytes += [0, 0, 0, 0, 0, 0, 0, 0, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        let file = fopen("\(dir)/empty.png", "wb")!
        fwrite(bytes, 1, bytes.count, file)
        fclose(file)
        let small = CellTemplate(name: "small", samples: [[:]]) { .box(BoxElement(width: 20, height: 20, content: .image(.named("empty")))) }
        _ = try Self.render(try small.bind([:]).arrange(width: 20), images: images, path: "\(dir)/small.png")
        #expect(warnings.all.count == 1 && warnings.all[0].contains("0×0 pixels: an image has no pixels"), "\(warnings.all)")
    }
}
