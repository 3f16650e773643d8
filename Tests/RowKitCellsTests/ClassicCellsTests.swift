import Foundation
import Testing
import RowKitText
@testable import RowKitCells

// Golden heights for the classic cells (ClassicCells.swift), computed BY HAND in each test from
// the seed article's rule and the sizes RowKitText measures for the individual strings — never
// from numbers the cell layer printed. If a cell's layout drifts from its article, these fail.

/// Helpers shared by the cell tests (a namespace, so nothing collides with other test files).
enum CellKit {
    /// The classic cells' text style: DejaVu Sans at `size`, lines round(1.25 × size) px unless fixed.
    static func style(_ size: Double, _ weight: FontWeight = .regular, lineHeight: Double? = nil) -> TextStyle {
        TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: weight), size: size,
                  lineHeight: .pixels(lineHeight ?? (1.25 * size).rounded()))
    }

    /// White space and newlines trimmed from both ends (Foundation's idea of them).
    static func trim(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Height of `text` wrapped at `width` (0 for an empty text).
    static func height(_ text: String, _ style: TextStyle, width: Double) throws -> Double {
        text.isEmpty ? 0 : try PreparedText(text, style: style).measure(width: width).height
    }

    /// Width and height of `text` on one line (no wrapping).
    static func singleLine(_ text: String, _ style: TextStyle) throws -> (width: Double, height: Double) {
        guard !text.isEmpty else { return (0, 0) }
        let m = try PreparedText(text, style: style).measure(width: .infinity)
        return (m.maxLineWidth, m.height)
    }

    /// The field as a string ("" when missing).
    static func field(_ row: RowData, _ name: String) -> String { row[name]?.description ?? "" }

    // MARK: the articles' rules

    /// Seed 000: one line if caption + 15 + body fits in width − 10, else stacked; 5 px margins.
    static func captionTextHeight(_ row: RowData, width: Double) throws -> Double {
        let caption = trim(field(row, "caption")), body = trim(field(row, "body"))
        let c1 = try singleLine(caption, style(13, .bold)), b1 = try singleLine(body, style(13))
        if c1.width + 15 + b1.width <= width - 10 { return 5 + max(c1.height, b1.height) + 5 }
        return 5 + (try height(caption, style(13, .bold), width: width - 10)) + 5 + (try height(body, style(13), width: width - 10)) + 5
    }

    /// Seed 001: max(88, 15 + title + 3 + subtitle + 7 + content + 15), all at 220 px, or at
    /// width − 30 in a cell too narrow for the column.
    static func filterListHeight(_ row: RowData, width: Double) throws -> Double {
        let column = min(220, max(0, width - 30))
        let title = try height(trim(field(row, "title")), style(15, .bold), width: column)
        let subtitle = try height(trim(field(row, "subtitle")), style(13), width: column)
        let content = try height(trim(field(row, "content")), style(13), width: column)
        return max(88, 15 + title + 3 + subtitle + 7 + content + 15)
    }

    /// Seed 002: max(44, 4 + max(main, sub) + 4), both labels on one line.
    static func customHeight(_ row: RowData) throws -> Double {
        let main = try singleLine(trim(field(row, "main")), style(16, .bold)).height
        let sub = try singleLine(trim(field(row, "sub")), style(14)).height
        return max(44, 4 + max(main, sub) + 4)
    }

    /// Seed 003 fixed: max(50, 20 + description at 245 (or width − 50 when narrower) + 5).
    static func projectGrowingHeight(_ row: RowData, width: Double) throws -> Double {
        let column = min(245, max(0, width - 50))
        return max(50, 20 + (try height(trim(field(row, "description")), style(12), width: column)) + 5)
    }

    /// Seed 004: 10 + max(44, text at width − 20) + 10.
    static func labelHeight(_ row: RowData, width: Double) throws -> Double {
        10 + max(44, try height(trim(field(row, "text")), style(14), width: width - 20)) + 10
    }

    /// The hand-computed height of any classic cell.
    static func expectedHeight(_ template: CellTemplate, _ row: RowData, width: Double) throws -> Double {
        switch template.name {
        case "caption-text": return try captionTextHeight(row, width: width)
        case "filter-list": return try filterListHeight(row, width: width)
        case "custom": return try customHeight(row)
        case "project": return 50
        case "project-growing": return try projectGrowingHeight(row, width: width)
        case "label": return try labelHeight(row, width: width)
        default: throw CellKitError.unknownTemplate(template.name)
        }
    }

    enum CellKitError: Error { case unknownTemplate(String) }

    /// The texts of the arranged text elements, in drawing order.
    static func texts(_ arrangement: CellArrangement) -> [String] {
        arrangement.elements.compactMap { if case .text(let layout, _) = $0.kind { return layout.prepared.text } else { return nil } }
    }

    /// The frames of the arranged text elements, by text.
    static func textFrames(_ arrangement: CellArrangement) -> [String: Rect] {
        var frames: [String: Rect] = [:]
        for element in arrangement.elements {
            if case .text(let layout, _) = element.kind { frames[layout.prepared.text] = element.frame }
        }
        return frames
    }
}

/// Every sample row of every classic cell, with the cell, for parameterized tests.
let classicSampleCases: [(String, Int)] = ClassicCells.all.flatMap { t in t.samples.indices.map { (t.name, $0) } }

@Suite struct ClassicCellsTests {
    @Test func allSixTemplatesAreRegisteredWithSamples() {
        #expect(ClassicCells.all.map(\.name) == ["caption-text", "filter-list", "custom", "project", "project-growing", "label"])
        for template in ClassicCells.all {
            #expect(ClassicCells.named(template.name)?.name == template.name)
            #expect(!template.samples.isEmpty, "\(template.name) has sample rows")
        }
        #expect(ClassicCells.named("nonexistent") == nil)
    }

    @Test(arguments: classicSampleCases, [320.0, 480.0])
    func sampleHeightsFollowTheArticles(_ testCase: (String, Int), _ width: Double) throws {
        let template = try #require(ClassicCells.named(testCase.0))
        let row = template.samples[testCase.1]
        let cell = try template.bind(row)
        let expected = try CellKit.expectedHeight(template, row, width: width)
        let measured = try cell.measure(width: width)
        #expect(measured.width == width)
        #expect(measured.height == expected, "\(template.name) sample \(testCase.1) at \(width): \(row)")
        #expect(try cell.arrange(width: width).size == measured)
    }

    // MARK: seed 000 caption-text

    @Test func captionTextSideBySideIsAtomicOnOneLine() throws {
        // Sample 0 ("Short" / "Both fit on one line.") fits on one line at 320: the body starts
        // 15 px after the caption's single-line width, both at y = 5.
        let row = ClassicCells.captionText.samples[0]
        let caption = try CellKit.singleLine("Short", CellKit.style(13, .bold))
        let body = try CellKit.singleLine("Both fit on one line.", CellKit.style(13))
        try #require(caption.width + 15 + body.width <= 310, "precondition: the sample fits on one line")
        let arrangement = try ClassicCells.captionText.bind(row).arrange(width: 320)
        let frames = CellKit.textFrames(arrangement)
        let c = try #require(frames["Short"]), b = try #require(frames["Both fit on one line."])
        #expect(c.x == 5 && c.y == 5 && b.y == 5)
        #expect(b.x == 5 + caption.width + 15)
        #expect(arrangement.size.height == 5 + 16 + 5)
    }

    @Test func captionTextStacksWhenTheTwoDoNotFit() throws {
        // Sample 1's body is too long for one line: the body goes below the caption, 5 px apart.
        let row = ClassicCells.captionText.samples[1]
        let caption = "Breaking news", body = CellKit.field(row, "body")
        for width in [320.0, 480.0] {
            let captionHeight = try CellKit.height(caption, CellKit.style(13, .bold), width: width - 10)
            let bodyHeight = try CellKit.height(body, CellKit.style(13), width: width - 10)
            let frames = CellKit.textFrames(try ClassicCells.captionText.bind(row).arrange(width: width))
            let c = try #require(frames[caption]), b = try #require(frames[body])
            #expect(c == Rect(x: 5, y: 5, width: width - 10, height: captionHeight))
            #expect(b == Rect(x: 5, y: 5 + captionHeight + 5, width: width - 10, height: bodyHeight))
        }
    }

    @Test func captionTextSwitchesAtExactlyTheArticleThreshold() throws {
        // Around the smallest width at which both fit on one line, the height changes exactly there.
        let row: RowData = ["caption": "Caption", "body": "and a body of a few words"]
        let c = try CellKit.singleLine("Caption", CellKit.style(13, .bold)).width
        let b = try CellKit.singleLine("and a body of a few words", CellKit.style(13)).width
        let threshold = c + 15 + b + 10
        let cell = try ClassicCells.captionText.bind(row)
        #expect(try cell.measure(width: threshold).height == 26, "fits exactly at the threshold")
        #expect(try cell.measure(width: threshold + 0.5).height == 26)
        let below = threshold - 0.5
        #expect(try cell.measure(width: below).height == (try CellKit.captionTextHeight(row, width: below)))
        #expect(try cell.measure(width: below).height > 26, "stacked just below the threshold")
    }

    @Test func captionTextTrimsWhiteSpaceAndNewlines() throws {
        // Sample 2: "  Trimmed  " and "\n  Surrounding … first.  \n" are drawn trimmed.
        let row = ClassicCells.captionText.samples[2]
        let arrangement = try ClassicCells.captionText.bind(row).arrange(width: 480)
        #expect(CellKit.texts(arrangement) == ["Trimmed", "Surrounding white space and newlines are trimmed first."])
        // The height equals that of the already-trimmed strings.
        let clean: RowData = ["caption": "Trimmed", "body": "Surrounding white space and newlines are trimmed first."]
        for width in [200.0, 320, 480, 800] {
            #expect(try ClassicCells.captionText.bind(row).measure(width: width) == (try ClassicCells.captionText.bind(clean).measure(width: width)))
        }
    }

    @Test func captionTextEmptyFields() throws {
        // No caption: the "one line" test is body + 15 ≤ width − 10, so a short body sits alone.
        let cell = ClassicCells.captionText
        #expect(try cell.bind(RowData()).measure(width: 320).height == 10, "nothing but the margins")
        #expect(try cell.bind(["caption": " \n\t ", "body": "   "]).measure(width: 320).height == 10, "white space only is empty")
        #expect(try cell.bind(["caption": "", "body": "Body"]).measure(width: 320).height == 26)
        #expect(try cell.bind(["caption": "Caption", "body": ""]).measure(width: 320).height == 26)
        #expect(try CellKit.texts(cell.bind(["caption": "  ", "body": "Body"]).arrange(width: 320)) == ["Body"], "empty texts draw nothing")
        // An empty caption next to a body too long for one line: stacked, with both gaps.
        let long: RowData = ["caption": "", "body": String(repeating: "word ", count: 80)]
        let expected = try CellKit.captionTextHeight(long, width: 320)
        #expect(try cell.bind(long).measure(width: 320).height == expected)
        #expect(expected == 5 + 0 + 5 + (try CellKit.height(CellKit.trim(long["body"]!.description), CellKit.style(13), width: 310)) + 5)
    }

    // MARK: seed 001 filter-list

    @Test func filterListKeepsItsColumnAndSpacing() throws {
        let row = ClassicCells.filterList.samples[1]
        let title = try CellKit.height("Open now", CellKit.style(15, .bold), width: 220)
        let subtitle = try CellKit.height("Hours", CellKit.style(13), width: 220)
        for width in [320.0, 480.0] {
            let frames = CellKit.textFrames(try ClassicCells.filterList.bind(row).arrange(width: width))
            #expect(frames["Open now"] == Rect(x: 15, y: 15, width: 220, height: title))
            #expect(frames["Hours"] == Rect(x: 15, y: 15 + title + 3, width: 220, height: subtitle))
            #expect(frames[CellKit.field(row, "content")]?.y == 15 + title + 3 + subtitle + 7)
            #expect(frames[CellKit.field(row, "content")]?.width == 220)
        }
    }

    @Test func filterListEmptyFieldsKeepTheGapsAndTheMinimum() throws {
        // The article adds 15 + 3 + 7 + 15 whatever the labels hold; at least 88 px.
        #expect(try ClassicCells.filterList.bind(RowData()).measure(width: 320).height == 88)
        let row: RowData = ["title": "", "subtitle": "", "content": String(repeating: "Lorem ipsum dolor sit amet. ", count: 12)]
        let content = try CellKit.height(CellKit.trim(row["content"]!.description), CellKit.style(13), width: 220)
        #expect(content > 88, "precondition: tall content")
        #expect(try ClassicCells.filterList.bind(row).measure(width: 320).height == 15 + 0 + 3 + 0 + 7 + content + 15)
        // Independent of the cell width (the column is fixed at 220 px).
        for width in [250.0, 320, 480, 1000] {
            #expect(try ClassicCells.filterList.bind(row).measure(width: width).height == 15 + 3 + 7 + content + 15)
        }
    }

    // MARK: seed 002 custom

    @Test func customLabelsSitSideBySideCenteredInFortyFourPixels() throws {
        let row = ClassicCells.custom.samples[0]
        let main = try CellKit.singleLine("Inbox", CellKit.style(16, .bold))
        let sub = try CellKit.singleLine("12 unread", CellKit.style(14))
        let arrangement = try ClassicCells.custom.bind(row).arrange(width: 320)
        #expect(arrangement.size.height == 44)
        let frames = CellKit.textFrames(arrangement)
        let m = try #require(frames["Inbox"]), s = try #require(frames["12 unread"])
        // Main: natural width at x = 10; sub: 10 px later, takes the rest of the 300 px.
        #expect(m.x == 10 && m.width == main.width)
        #expect(s.x == 10 + main.width + 10)
        #expect(abs(s.maxX - 310) < 1e-9)
        // Vertically centered in the 36 px content box that starts at y = 4.
        #expect(m.y == 4 + (36 - main.height) / 2)
        #expect(s.y == 4 + (36 - sub.height) / 2)
    }

    @Test func customSubLabelKeepsToOneLineWithAnEllipsis() throws {
        let row = ClassicCells.custom.samples[2]
        let arrangement = try ClassicCells.custom.bind(row).arrange(width: 320)
        #expect(arrangement.size.height == 44)
        var sawEllipsis = false
        for element in arrangement.elements {
            guard case .text(let layout, _) = element.kind else { continue }
            #expect(layout.lines.count == 1)
            if layout.isTruncated { sawEllipsis = layout.lines[0].ellipsized }
        }
        #expect(sawEllipsis, "the long sub label is cut with an ellipsis at 320")
    }

    @Test func customEmptyFields() throws {
        #expect(try ClassicCells.custom.bind(RowData()).measure(width: 320).height == 44)
        #expect(try ClassicCells.custom.bind(["main": "Only main"]).measure(width: 320).height == 44)
        #expect(try ClassicCells.custom.bind(["sub": "Only sub"]).measure(width: 480).height == 44)
    }

    // MARK: seed 003 project

    @Test func projectIsFiftyPixelsAndClipsItsDescription() throws {
        for row in ClassicCells.project.samples + [RowData()] {
            for width in [320.0, 480] {
                let arrangement = try ClassicCells.project.bind(row).arrange(width: width)
                #expect(arrangement.size.height == 50)
                for element in arrangement.elements {
                    guard case .text(let layout, _) = element.kind else { continue }
                    let clip = try #require(element.clip, "frame-based text is clipped")
                    #expect(clip.maxY <= 50)
                    if layout.prepared.text == CellKit.field(row, "description") {
                        #expect(clip == Rect(x: 50, y: 20, width: 245, height: 30), "the article's description frame")
                    }
                }
            }
        }
        // The third sample's description needs more than the 30 px the article gave it.
        let long = CellKit.field(ClassicCells.projectSamples[2], "description")
        #expect(try CellKit.height(long, CellKit.style(12), width: 245) > 30)
    }

    @Test func projectFramesAreTheArticles() throws {
        let row = ClassicCells.project.samples[0]
        let arrangement = try ClassicCells.project.bind(row).arrange(width: 320)
        var boxes: [String: Rect] = [:]
        for element in arrangement.elements {
            if case .box(.image(let name)) = element.kind { boxes[name] = element.frame }
        }
        #expect(boxes["niftywow"] == Rect(x: 5, y: 5, width: 40, height: 40))
        #expect(boxes["fruit"] == Rect(x: 295, y: 5, width: 20, height: 20))
        #expect(boxes["cat"] == Rect(x: 295, y: 25, width: 20, height: 20))
        let frames = CellKit.textFrames(arrangement)
        #expect(frames["NiftyWow"]?.x == 50 && frames["NiftyWow"]?.y == 0 && frames["NiftyWow"]?.width == 245)
        #expect(frames["NiftyWow"]?.height == 20, "17 px title in its fixed 20 px line")
    }

    @Test func projectGrowingFollowsItsDescription() throws {
        #expect(try ClassicCells.projectGrowing.bind(RowData()).measure(width: 320).height == 50)
        let row = ClassicCells.projectSamples[2]
        let description = try CellKit.height(CellKit.field(row, "description"), CellKit.style(12), width: 245)
        #expect(20 + description + 5 > 50, "precondition: the long sample grows the cell")
        let arrangement = try ClassicCells.projectGrowing.bind(row).arrange(width: 320)
        #expect(arrangement.size.height == 20 + description + 5)
        #expect(CellKit.textFrames(arrangement)[CellKit.field(row, "description")] == Rect(x: 50, y: 20, width: 245, height: description))
    }

    // MARK: seed 004 label

    @Test func labelCentersShortTextInFortyFourPixels() throws {
        let arrangement = try ClassicCells.label.bind(["text": "Short text."]).arrange(width: 320)
        #expect(arrangement.size.height == 64)
        let frame = try #require(CellKit.textFrames(arrangement)["Short text."])
        #expect(frame == Rect(x: 10, y: 10 + (44 - 18) / 2, width: 300, height: 18))
    }

    @Test func labelGrowsWithItsText() throws {
        let row = ClassicCells.label.samples[2]
        for width in [200.0, 320, 480, 768] {
            let text = try CellKit.height(CellKit.field(row, "text"), CellKit.style(14), width: width - 20)
            let arrangement = try ClassicCells.label.bind(row).arrange(width: width)
            #expect(arrangement.size.height == 10 + max(44, text) + 10)
            if text >= 44 {
                #expect(CellKit.textFrames(arrangement)[CellKit.field(row, "text")] == Rect(x: 10, y: 10, width: width - 20, height: text))
            }
        }
        #expect(try ClassicCells.label.bind(RowData()).measure(width: 320).height == 64)
        #expect(try ClassicCells.label.bind(["text": "\n\n  \n"]).measure(width: 320).height == 64)
    }

    @Test func numberFieldsPrintAsText() throws {
        let row = RowData(["text": .number(42), "main": .number(2.5)])
        #expect(try CellKit.texts(ClassicCells.label.bind(row).arrange(width: 320)) == ["42"])
        #expect(try CellKit.texts(ClassicCells.custom.bind(row).arrange(width: 320)) == ["2.5"])
    }

    @Test func everyClassicTextTurnsWhiteWhenHighlighted() throws {
        // The arrangement does not depend on the state; the appearance carries the highlighted
        // color. (Drawing per state is tested in RowKitDrawTests.)
        for template in ClassicCells.all {
            for row in template.samples {
                let a = try template.bind(row).arrange(width: 320)
                for element in a.elements {
                    if case .text(_, let appearance) = element.kind { #expect(appearance.highlightedColor == .white) }
                }
            }
        }
    }
}
