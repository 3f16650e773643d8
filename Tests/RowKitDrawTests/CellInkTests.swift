import Testing
import RowKitCells
import RowKitDraw
import RowKitText

/// Text ink in cells (CellPainter.drawText): a cell clips only the lines its layout cut off,
/// never the ink of the lines it shows — stacked diacritics above a title at the cell's top,
/// descenders below its bottom, synthetic italic leaning out of a frame.
@Suite struct CellInkTests {
    /// One text per script of the fidelity harness, with the tallest stacks each script has.
    static let scripts: [(name: String, text: String)] = [
        ("latin", "Ǻngström Ŷ Ḉ jumps quickly"),
        ("vietnamese", "ẪỄỖỮ Ấu Ỷ Việt Nam ỞẴ Ẳng"),
        ("greek", "Ἄρης Ὦ ΐΰ Ϋ́"),
        ("cyrillic", "Ёжик Й Ї ЩЦ"),
        ("arabic", "مرحبا بكم ئۇيغۇر ﷺ"),
        ("hebrew", "שָׁלוֹם עֲלֵיכֶם"),
        ("devanagari", "क्ष्म्य हिन्दी र्त्स्न्य"),
        ("thai", "ฟ้้ ญู่ ปั้น สวัสดีครับ ฎฏ"),
        ("lao", "ພາສາລາວ ຫຼື ແມ່ນ"),
        ("tibetan", "བསྒྲུབས་ཀྱི་སྒྲོལ་མ་ རྒྱ་མཚོ"),
        ("myanmar", "ကြွ မြန်မာ ချိုင့် ဤ"),
        ("khmer", "ភាសាខ្មែរ ស្ត្រី"),
        ("cjk", "日本語の文章、漢字。你好世界"),
        ("hangul", "한국어 텍스트 읽기"),
        ("emoji", "👍🏽 🇫🇷 ❤️ 👨‍👩‍👧"),
        ("combining", "Z̈̈̃ ȁ̴̛̀ q̣̣̇"),
    ]

    /// The classic cells with every text field holding `text` (long enough to wrap in most).
    static func row(_ template: CellTemplate, _ text: String, repeats: Int) -> RowData {
        var fields: [String: FieldValue] = [:]
        for key in template.samples[0].fields.keys {
            fields[key] = ["icon", "logo1", "logo2"].contains(key)
                ? .string(ImageStore.builtinNames[0])
                : .string(Array(repeating: text, count: repeats).joined(separator: " "))
        }
        return RowData(fields)
    }

    @Test(arguments: (ClassicCells.all + [ClassicCells.sectionHeader]).map(\.name))
    func shownLinesKeepAllTheirInk(_ name: String) throws {
        let template = try #require(ClassicCells.named(name))
        let bare = try CellPainterTests.withoutBackground(template)
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let images = CellPainterTests.Warnings().store()
        let margin = 40.0
        var overhanging = 0, shownTotal = 0
        for (script, text) in Self.scripts {
            // (At 240.5 px the project cell's 245 px frames are wider than the cell: their lines
            // cross its right edge and are cut there, as told.)
            for (width, repeats) in [(320.0, 1), (375.0, 3), (240.5, 2)] {
                let arrangement = try BoundCell(bare, row: Self.row(template, text, repeats: repeats)).arrange(width: width)
                let size = arrangement.size
                let context = "\(name) \(script) width \(width)"
                // The cell as drawn.
                let drawn = try CellPainterTests.render(arrangement, images: images, margin: margin, path: "\(dir)/cell.png")
                // Each line the cell shows whole (its box inside the element's clip), drawn alone
                // without any clip: the ink the cell must not lose.
                let canvas = try Canvas(width: size.width + 2 * margin, height: size.height + 2 * margin, path: "\(dir)/lines.png")
                var shown = 0
                for element in arrangement.elements {
                    guard case .text(let layout, _) = element.kind else { continue }
                    for i in layout.lines.indices {
                        let box = Rect(x: element.frame.x + layout.lineOffset(i), y: element.frame.y + layout.top(ofLine: i),
                                       width: layout.lines[i].width, height: layout.height(ofLine: i))
                        if let clip = element.clip, !clip.contains(box) { continue }
                        TextPainter.draw(layout, in: canvas, x: margin + element.frame.x, y: margin + element.frame.y, lines: i..<(i + 1))
                        shown += 1
                    }
                }
                try canvas.finish()
                let lines = try #require(Bitmap(png: "\(dir)/lines.png"))
                shownTotal += shown
                // Every pixel of the lines' ink is in the cell's drawing (the cell draws more:
                // images, lines it cuts; antialiasing may differ by rounding only).
                var lost = 0
                for p in lines.alpha.indices where Int(lines.alpha[p]) > Int(drawn.alpha[p]) + 2 { lost += 1 }
                #expect(lost == 0, "\(context): \(lost) ink pixels clipped")
                if let ink = lines.inkBox(),
                   Double(ink.minY) < margin || Double(ink.maxY) > margin + size.height
                    || Double(ink.minX) < margin || Double(ink.maxX) > margin + size.width {
                    overhanging += 1
                }
            }
        }
        #expect(shownTotal > 0, "\(name): no line shown")
        // The check bites: in the cells whose text touches an edge, some scripts' ink does overhang.
        if ["project", "project-growing"].contains(name) {
            #expect(overhanging > 0, "\(name): no script's ink overhangs the cell, so nothing was tested")
        }
    }

    @Test func projectTitleDiacriticsRiseAboveTheCellAndAreDrawn() throws {
        // The project cell's 17 px title sits at y = 0 in a 20 px frame: Vietnamese capitals'
        // stacked marks rise above the cell and are drawn there; the 50 px cell still cuts its
        // long description's third line.
        let row: RowData = ["icon": "niftywow", "project": "ẪỄỖỮ", "logo1": "fruit", "logo2": "cat",
                            "description": "No beer and no TV make Colin something something. No beer and no TV make Colin something something. No beer and no TV make Colin something something."]
        let arrangement = try ClassicCells.project.bind(row).arrange(width: 320)
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let bare = try BoundCell(try CellPainterTests.withoutBackground(ClassicCells.project), row: row).arrange(width: 320)
        let drawn = try CellPainterTests.render(bare, images: CellPainterTests.Warnings().store(), margin: 20, path: "\(dir)/p.png")
        let ink = try #require(drawn.inkBox())
        #expect(ink.minY < 20, "the title's marks are drawn above the cell's top: \(ink)")
        #expect(arrangement.size.height == 50)
        // Nothing below the cell's 50 px: the description's third line is cut off.
        // (The second line's descenders end within 3 px of the edge.)
        let below = (Int(20 + 50 + 3)..<drawn.height).contains { y in (0..<drawn.width).contains { drawn.alpha[y * drawn.width + $0] > 0 } }
        #expect(!below, "the description's third line is not drawn")
    }
}
