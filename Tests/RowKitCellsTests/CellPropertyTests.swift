import Testing
import RowKitText
@testable import RowKitCells

// Properties of the classic cells over random rows (Latin, CJK, emoji, long words, empty and
// white-space-only fields) at random widths 200–800: frames stay inside the cell, measuring is
// deterministic, measure and arrange agree, and the height is the article's rule.

enum RandomRows {
    /// A deterministic generator (SplitMix64), so failures reproduce from the printed seed.
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

    static let latin = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog.", "Inbox", "Archive", "news,",
                        "Wikipedia", "AVAWAY", "fjord", "(x)", "42%", "café", "naïve", "Ångström", "—", "and", "of", "to"]
    static let cjk = ["漢字", "日本語の文章", "中文", "你好", "かな", "。「引用」", "한국어", "텍스트"]
    static let emoji = ["👍", "👨‍👩‍👧", "🇫🇷", "1️⃣", "❤️", "😀😀"]
    static let long = ["Donaudampfschifffahrtsgesellschaftskapitän", "pneumonoultramicroscopicsilicovolcanoconiosis",
                       "https://example.com/a/very/long/path/without/any/spaces/at/all", String(repeating: "x", count: 90)]
    static let blank = ["", " ", "  \n ", "\t"]

    /// A random field text: empty sometimes, else 1–40 pieces of mixed scripts.
    static func text(_ rng: inout Seeded) -> String {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return blank.randomElement(using: &rng)!
        case 1: return long.randomElement(using: &rng)!
        default:
            let count = Int.random(in: 1...40, using: &rng)
            var pieces: [String] = []
            for _ in 0..<count {
                let r = Int.random(in: 0..<20, using: &rng)
                let pool = r < 13 ? latin : r < 16 ? cjk : r < 18 ? emoji : r < 19 ? long : blank
                pieces.append(pool.randomElement(using: &rng)!)
            }
            return pieces.joined(separator: Bool.random(using: &rng) ? " " : (Int.random(in: 0..<4, using: &rng) == 0 ? "" : " "))
        }
    }

    static let imageNames = ImageNames.all

    /// A random row for a classic template: every field it binds, and sometimes one missing.
    static func row(for template: CellTemplate, _ rng: inout Seeded) -> RowData {
        var fields: [String: FieldValue] = [:]
        for name in fieldNames(template.name) {
            if Int.random(in: 0..<12, using: &rng) == 0 { continue }
            if ["icon", "logo1", "logo2"].contains(name) {
                fields[name] = .string(imageNames.randomElement(using: &rng)!)
            } else if Int.random(in: 0..<25, using: &rng) == 0 {
                fields[name] = .number(Double(Int.random(in: -1000...100_000, using: &rng)) / 4)
            } else {
                fields[name] = .string(text(&rng))
            }
        }
        return RowData(fields)
    }

    static func fieldNames(_ template: String) -> [String] {
        switch template {
        case "caption-text": return ["caption", "body"]
        case "filter-list": return ["title", "subtitle", "content"]
        case "custom": return ["main", "sub"]
        case "project", "project-growing": return ["icon", "project", "description", "logo1", "logo2"]
        case "label": return ["text"]
        default: return []
        }
    }
}

/// Image names the random rows use: the built-in icons and a few that do not exist.
enum ImageNames {
    static let all = ["niftywow", "amazingwhizbang", "woahsupercool", "fruit", "cat", "bird", "missing-icon", ""]
}

@Suite struct CellPropertyTests {
    static let cases = 250

    /// Problems with one arrangement: frames outside the cell, and text wider or taller than
    /// its frame without a clip that keeps it inside that frame.
    ///
    /// Frames are checked as arranged, not as clipped: `arrange` clips every element to the
    /// cell, so a check of `frame ∩ clip` would hold whatever the frames were.
    static func violations(_ template: CellTemplate, _ a: CellArrangement) -> [String] {
        let bounds = Rect(x: 0, y: 0, width: a.size.width, height: a.size.height)
        var problems: [String] = []
        for (i, element) in a.elements.enumerated() {
            // Content inside a fixed frame or size (clipped to it, a clip smaller than the cell)
            // may be larger than that frame; the frame itself is checked as its container element.
            let insideFixedFrame = element.clip.map { !($0.contains(bounds) && bounds.contains($0)) } ?? false
            let drawn = element.frame
            if !insideFixedFrame && drawn.width > 0 && drawn.height > 0 && !bounds.contains(drawn) {
                problems.append("element \(i) \(kindName(element.kind)) frame \(element.frame) clip \(String(describing: element.clip)) outside \(bounds)")
            }
            if let clip = element.clip, clip.width < 0 || clip.height < 0 { problems.append("element \(i) negative clip \(clip)") }
            if case .text(let layout, _) = element.kind {
                if element.frame.height != layout.height {
                    problems.append("text \(i) frame height \(element.frame.height) ≠ layout \(layout.height)")
                }
                // An ellipsized text wider than its frame is clipped at the frame's sides, as
                // `text-overflow: ellipsis` with `overflow: hidden` clips it.
                if layout.lines.contains(where: \.ellipsized), layout.maxLineWidth > element.frame.width + 1.0 / 32 {
                    let clipped = element.clip.map { $0.x >= element.frame.x - 1e-9 && $0.maxX <= element.frame.maxX + 1e-9 } ?? false
                    if !clipped {
                        problems.append("text \(i) line width \(layout.maxLineWidth) > frame width \(element.frame.width), clip \(String(describing: element.clip))")
                    }
                }
            }
        }
        return problems
    }

    static func intersection(_ a: Rect, _ b: Rect) -> Rect {
        let x = max(a.x, b.x), y = max(a.y, b.y)
        return Rect(x: x, y: y, width: max(0, min(a.maxX, b.maxX) - x), height: max(0, min(a.maxY, b.maxY) - y))
    }

    static func kindName(_ kind: ArrangedElement.Kind) -> String {
        switch kind {
        case .text(let layout, _): return "text \(layout.prepared.text.prefix(20).debugDescription)"
        case .box(let content): return "box \(content)"
        case .background: return "background"
        case .container: return "container"
        }
    }

    @Test(arguments: ClassicCells.all.map(\.name))
    func randomRowsStayInsideAndMeasureConsistently(_ name: String) throws {
        let template = try #require(ClassicCells.named(name))
        var rng = RandomRows.Seeded(state: name.utf8.reduce(UInt64(0xC311)) { $0 &* 31 &+ UInt64($1) })
        for n in 0..<Self.cases {
            let row = RandomRows.row(for: template, &rng)
            let width = Double(Int.random(in: 200...800, using: &rng)) + (Bool.random(using: &rng) ? 0.5 : 0)
            let context = "\(name) case \(n) width \(width) row \(row.fields)"
            let cell = try template.bind(row)
            let measured = try cell.measure(width: width)
            // Deterministic: twice on one binding, and on a second binding.
            #expect(try cell.measure(width: width) == measured, "\(context)")
            #expect(try template.bind(row).measure(width: width) == measured, "\(context)")
            // Measuring at another width in between changes nothing.
            _ = try cell.measure(width: 1000 - width)
            #expect(try cell.measure(width: width) == measured, "\(context)")
            // Measure and arrange agree; the height is the article's.
            let arrangement = try cell.arrange(width: width)
            #expect(arrangement.size == measured, "\(context)")
            #expect(measured.width == width)
            #expect(measured.height == (try CellKit.expectedHeight(template, row, width: width)), "\(context)")
            // Inside the cell.
            for problem in Self.violations(template, arrangement) { Issue.record("\(context): \(problem)") }
        }
    }

    @Test(arguments: ["filter-list", "project-growing"])
    func narrowCellsKeepTheirFixedColumnsInside(_ name: String) throws {
        // filter-list's 220 px column (15 px padding each side) and project-growing's frames up
        // to x = 315 are cut at the cell's edge in narrower cells: nothing is placed outside,
        // and the texts wrap at the narrower width (the cell grows instead of clipping).
        let template = try #require(ClassicCells.named(name))
        for width in [0.0, 60, 120, 200, 249.5, 300, 314] {
            for row in template.samples {
                let cell = try template.bind(row)
                let arrangement = try cell.arrange(width: width)
                #expect(Self.violations(template, arrangement).isEmpty, "\(name) at \(width): \(Self.violations(template, arrangement))")
                #expect(Self.unclipped(arrangement).isEmpty, "\(name) at \(width): \(Self.unclipped(arrangement))")
                #expect(try cell.measure(width: width) == arrangement.size)
                #expect(arrangement.size.height == (try CellKit.expectedHeight(template, row, width: width)), "\(name) at \(width)")
            }
        }
        // At 200 px filter-list's column is 200 − 30 = 170 px wide.
        let frames = CellKit.textFrames(try ClassicCells.filterList.bind(ClassicCells.filterList.samples[1]).arrange(width: 200))
        #expect(frames["Open now"]?.width == 170)
    }

    /// Elements whose frame sticks out of the cell without a clip that keeps their drawing inside it.
    static func unclipped(_ a: CellArrangement) -> [String] {
        let bounds = Rect(x: 0, y: 0, width: a.size.width, height: a.size.height)
        return a.elements.enumerated().compactMap { i, element in
            guard element.frame.width > 0, element.frame.height > 0, !bounds.contains(element.frame) else { return nil }
            // An empty clip (a logo frame right of a narrow cell) draws nothing.
            guard let clip = element.clip, clip.width <= 0 || clip.height <= 0 || bounds.contains(clip) else {
                return "element \(i) \(kindName(element.kind)) frame \(element.frame) clip \(String(describing: element.clip)) outside \(bounds)"
            }
            return nil
        }
    }

    @Test func projectClipsEverythingToTheCellAtAnyWidth() throws {
        // The fixed-frame `project` cell may place frames outside a narrow cell, but its clips keep
        // the drawing inside.
        for width in [0.0, 100, 200, 314, 320, 480] {
            for row in ClassicCells.project.samples {
                let a = try ClassicCells.project.bind(row).arrange(width: width)
                let problems = Self.violations(ClassicCells.project, a) + Self.unclipped(a)
                #expect(problems.isEmpty, "width \(width): \(problems)")
            }
        }
    }

    @Test func heightsNeverDecreaseWhenTheWidthShrinks() throws {
        // Narrower cells wrap more: for the text-wrapping cells, height is non-increasing in width.
        var rng = RandomRows.Seeded(state: 77)
        for template in [ClassicCells.filterList, ClassicCells.custom, ClassicCells.projectGrowing, ClassicCells.label] {
            for _ in 0..<40 {
                let cell = try template.bind(RandomRows.row(for: template, &rng))
                var previous = Double.infinity
                for width in stride(from: 200.0, through: 800, by: 50) {
                    let h = try cell.measure(width: width).height
                    #expect(h <= previous, "\(template.name) at \(width)")
                    previous = h
                }
            }
        }
    }

    @Test func bindingIsThreadSafe() async throws {
        // Bound cells are values: measuring them concurrently gives the sequential results.
        var rng = RandomRows.Seeded(state: 4242)
        var work: [(BoundCell, Double, Double)] = []
        for template in ClassicCells.all {
            for _ in 0..<20 {
                let cell = try template.bind(RandomRows.row(for: template, &rng))
                let width = Double(Int.random(in: 200...800, using: &rng))
                work.append((cell, width, try cell.measure(width: width).height))
            }
        }
        let items = work
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for chunk in 0..<4 {
                group.addTask {
                    var bad = 0
                    for (i, item) in items.enumerated() where i % 4 == chunk {
                        if (try? item.0.measure(width: item.1).height) != item.2 { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}

extension CellPropertyTests {
    @Test func lineLimitedTextWiderThanItsFrameIsClippedAtItsSides() throws {
        // "W" (13 px wide) in a 4 px frame, one line at most: the line cannot be shortened (it
        // is one grapheme), so it is clipped at the frame's sides — not drawn over x ≥ 14.
        func cell(maxLines: Int?) -> CellTemplate {
            let text = TextElement(.literal("W"), appearance: TextAppearance(style: CellKit.style(16)), maxLines: maxLines)
            return CellTemplate(name: "narrow", samples: [[:]]) {
                .frames([FramedElement(x: 10, y: 0, width: 4, height: nil, child: .text(text))])
            }
        }
        let limited = try cell(maxLines: 1).bind([:]).arrange(width: 100)
        let element = try #require(limited.elements.first { if case .text = $0.kind { true } else { false } })
        guard case .text(let layout, _) = element.kind else { return }
        try #require(layout.maxLineWidth > 4, "precondition: the line is wider than its frame")
        let clip = try #require(element.clip)
        #expect(clip.x == 10 && clip.maxX == 14, "\(clip)")
        #expect(clip.y <= 0 && clip.maxY >= layout.height, "glyphs may still overhang vertically: \(clip)")
        #expect(Self.violations(cell(maxLines: 1), limited).isEmpty)
        // Without a line limit the text overflows its frame as a browser's does (the cell's clip
        // still applies).
        let free = try cell(maxLines: nil).bind([:]).arrange(width: 100)
        let freeText = try #require(free.elements.first { if case .text = $0.kind { true } else { false } })
        #expect(freeText.clip == Rect(x: 0, y: 0, width: 100, height: free.size.height))
    }

    @Test func customSubLabelAfterALongMainLabelStaysInside() throws {
        // The main label takes its natural width up to the whole row (ellipsized), leaving the
        // sub label 0–14 px: narrower than "…", so its one line is left empty.
        let row: RowData = ["main": String(repeating: "Inbox ", count: 20), "sub": "12 unread"]
        let a = try ClassicCells.custom.bind(row).arrange(width: 320)
        var worst = 0.0
        for element in a.elements {
            if case .text(let layout, _) = element.kind { worst = max(worst, element.frame.x + layout.maxLineWidth) }
        }
        #expect(worst <= 310 + 1.0 / 32, "rightmost text reaches \(worst)")
    }
}
