import Testing
import RowKitText
@testable import RowKitCells

// The layout primitives (CellLayout.swift, BoundCell.swift): each one's measure and arrange
// rules, on boxes (exact sizes) and texts (sizes from RowKitText), and bad widths.

@Suite struct CellLayoutTests {
    static func box(_ width: Double, _ height: Double, _ color: Color = .black) -> CellLayout {
        .box(BoxElement(width: width, height: height, content: .color(color)))
    }

    static func bind(_ layout: CellLayout, _ row: RowData = RowData()) throws -> BoundCell { try BoundCell(layout, row: row) }

    /// The frames of the arranged elements that are not containers or backgrounds.
    static func leafFrames(_ a: CellArrangement) -> [Rect] {
        a.elements.compactMap { element in
            switch element.kind {
            case .container, .background: return nil
            default: return element.frame
            }
        }
    }

    static let body = CellKit.style(13)

    // MARK: text

    @Test func textTakesTheWidthAndItsWrappedHeight() throws {
        let string = "The quick brown fox jumps over the lazy dog, again and again and again."
        let prepared = try PreparedText(string, style: Self.body)
        for width in [60.0, 120, 300, 1000] {
            let cell = try Self.bind(.text(string, TextAppearance(style: Self.body)))
            let m = try prepared.measure(width: width)
            #expect(try cell.measure(width: width) == Size(width: width, height: m.height))
            let a = try cell.arrange(width: width)
            #expect(a.elements.count == 1)
            #expect(a.elements[0].frame == Rect(x: 0, y: 0, width: width, height: m.height))
            #expect(a.elements[0].clip == Rect(x: 0, y: 0, width: width, height: m.height), "clipped to the cell only")
            guard case .text(let layout, _) = a.elements[0].kind else { Issue.record("not text"); continue }
            #expect(layout.lines.count == m.lineCount)
            #expect(layout.maxWidth == width)
        }
    }

    @Test func textMaxLinesCapsTheHeight() throws {
        let string = String(repeating: "word ", count: 60)
        let layout = CellLayout.text(string, TextAppearance(style: Self.body), maxLines: 2)
        let cell = try Self.bind(layout)
        #expect(try cell.measure(width: 100).height == 32)
        guard case .text(let text, _) = try cell.arrange(width: 100).elements[0].kind else { Issue.record("not text"); return }
        #expect(text.isTruncated && text.lines.count == 2 && text.lines[1].ellipsized)
    }

    @Test func fieldsLiteralsAndMissingFields() throws {
        let appearance = TextAppearance(style: Self.body)
        let layout = CellLayout.vstack {
            CellLayout.text(field: "a", appearance)
            CellLayout.text("literal", appearance)
            CellLayout.text(field: "missing", appearance)
        }
        let a = try Self.bind(layout, ["a": "from the row"]).arrange(width: 300)
        #expect(CellKit.texts(a) == ["from the row", "literal"])
        #expect(a.size.height == 32, "a missing field is empty and 0 px tall")
    }

    @Test func trimmingIsPerElement() throws {
        // With pre-wrap white space, newlines are kept: trimming is what removes the outer ones.
        var style = Self.body
        style.whiteSpace = .preWrap
        let text = "\n\nMiddle\n\n"
        let trimmed = try Self.bind(.text(field: "t", TextAppearance(style: style)), RowData(["t": .string(text)]))
        let kept = try Self.bind(.text(field: "t", TextAppearance(style: style), trimmed: false), RowData(["t": .string(text)]))
        #expect(try trimmed.measure(width: 300).height == 16)
        #expect(try kept.measure(width: 300).height == (try PreparedText(text, style: style).measure(width: 300).height))
        #expect(try kept.measure(width: 300).height > 16)
        #expect(CellKit.texts(try trimmed.arrange(width: 300)) == ["Middle"])
    }

    // MARK: stacks

    @Test func verticalStackAddsHeightsAndSpacing() throws {
        let layout = CellLayout.vstack(spacing: 4) { Self.box(30, 10); Self.box(50, 20); Self.box(10, 5) }
        let cell = try Self.bind(layout)
        #expect(try cell.measure(width: 200) == Size(width: 200, height: 10 + 4 + 20 + 4 + 5))
        let a = try cell.arrange(width: 200)
        #expect(a.elements.first?.frame == Rect(x: 0, y: 0, width: 200, height: 43), "the stack's container frame first")
        #expect(Self.leafFrames(a) == [Rect(x: 0, y: 0, width: 30, height: 10), Rect(x: 0, y: 14, width: 50, height: 20),
                                       Rect(x: 0, y: 38, width: 10, height: 5)])
    }

    @Test(arguments: [(StackElement.Alignment.start, [0.0, 0]), (.center, [85.0, 75]), (.end, [170.0, 150])])
    func verticalStackAlignsChildren(_ alignment: StackElement.Alignment, _ xs: [Double]) throws {
        let layout = CellLayout.vstack(alignment: alignment) { Self.box(30, 10); Self.box(50, 20) }
        let a = try Self.bind(layout).arrange(width: 200)
        #expect(Self.leafFrames(a).map(\.x) == xs)
        #expect(a.size.height == 30)
    }

    @Test func verticalStackAlignmentDecidesTheTextWidth() throws {
        // Start-aligned texts get the whole width; centered ones their natural width.
        let string = "Hi there"
        let natural = try CellKit.singleLine(string, Self.body).width
        for (alignment, x, width) in [(StackElement.Alignment.start, 0.0, 200.0), (.center, (200 - natural) / 2, natural), (.end, 200 - natural, natural)] {
            let layout = CellLayout.vstack(alignment: alignment) { CellLayout.text(string, TextAppearance(style: Self.body)) }
            let frame = try #require(Self.leafFrames(try Self.bind(layout).arrange(width: 200)).first)
            #expect(frame.x == x && frame.width == width, "\(alignment)")
        }
    }

    @Test func horizontalStackGivesTheRestToTheLastChildByDefault() throws {
        let layout = CellLayout.hstack(spacing: 10) { Self.box(30, 10); Self.box(40, 25); Self.box(20, 5) }
        let a = try Self.bind(layout).arrange(width: 300)
        #expect(a.size == Size(width: 300, height: 25))
        #expect(Self.leafFrames(a).map(\.x) == [0, 40, 90])
        // The last child's slot is the remaining width; a box still draws at its own size.
        #expect(Self.leafFrames(a).map(\.width) == [30, 40, 20])
    }

    @Test func horizontalStackFlexibleTextTakesTheRemainingWidth() throws {
        let string = "A text that wraps in whatever width the stack leaves over for it"
        for flexible in [0, 1] {
            let text = CellLayout.text(string, TextAppearance(style: Self.body))
            let layout = CellLayout.hstack(spacing: 8, flexible: flexible) {
                if flexible == 0 { text; Self.box(60, 10) } else { Self.box(60, 10); text }
            }
            let a = try Self.bind(layout).arrange(width: 250)
            let remaining = 250.0 - 60 - 8
            let expected = try CellKit.height(string, Self.body, width: remaining)
            #expect(a.size.height == expected)
            let textFrame = try #require(CellKit.textFrames(a)[string])
            #expect(textFrame == Rect(x: flexible == 0 ? 0 : 68, y: 0, width: remaining, height: expected))
            #expect(Self.leafFrames(a).contains(Rect(x: flexible == 0 ? remaining + 8 : 0, y: 0, width: 60, height: 10)))
        }
    }

    @Test func horizontalStackNonFlexibleTextHasItsNaturalWidth() throws {
        let layout = CellLayout.hstack(spacing: 5, flexible: 1) {
            CellLayout.text("Label", TextAppearance(style: Self.body))
            Self.box(10, 10)
        }
        let natural = try CellKit.singleLine("Label", Self.body).width
        let a = try Self.bind(layout).arrange(width: 200)
        #expect(CellKit.textFrames(a)["Label"] == Rect(x: 0, y: 0, width: natural, height: 16))
        #expect(Self.leafFrames(a).last?.x == natural + 5)
    }

    @Test(arguments: [(StackElement.Alignment.start, 0.0), (.center, 10), (.end, 20)])
    func horizontalStackAlignsVertically(_ alignment: StackElement.Alignment, _ y: Double) throws {
        let layout = CellLayout.hstack(alignment: alignment) { Self.box(30, 10); Self.box(40, 30) }
        let frames = Self.leafFrames(try Self.bind(layout).arrange(width: 100))
        #expect(frames[0].y == y && frames[1].y == 0)
    }

    @Test func emptyStacksAreEmpty() throws {
        for axis in [StackElement.Axis.vertical, .horizontal] {
            let cell = try Self.bind(.stack(StackElement(axis, spacing: 10, children: [])))
            #expect(try cell.measure(width: 100).height == 0)
        }
    }

    @Test func outOfRangeFlexibleIndexIsClamped() throws {
        for flexible in [-3, 7] {
            let layout = CellLayout.stack(StackElement(.horizontal, flexible: flexible, children: [Self.box(30, 10), Self.box(40, 20)]))
            #expect(try Self.bind(layout).measure(width: 100) == Size(width: 100, height: 20))
        }
    }

    // MARK: inset, sized

    @Test func insetPadsTheChild() throws {
        let layout = Self.box(30, 10).padding(Insets(top: 1, left: 2, bottom: 3, right: 4))
        let a = try Self.bind(layout).arrange(width: 100)
        #expect(a.size == Size(width: 100, height: 14))
        #expect(a.elements[0].frame == Rect(x: 0, y: 0, width: 100, height: 14))
        #expect(Self.leafFrames(a) == [Rect(x: 2, y: 1, width: 30, height: 10)])
        // Text inside wraps at width − horizontal insets.
        let string = "Some words to wrap inside the insets of a cell"
        let text = CellLayout.text(string, TextAppearance(style: Self.body)).padding(Insets(horizontal: 20, vertical: 7))
        let h = try CellKit.height(string, Self.body, width: 80)
        #expect(try Self.bind(text).measure(width: 120).height == h + 14)
        #expect(CellKit.textFrames(try Self.bind(text).arrange(width: 120))[string] == Rect(x: 20, y: 7, width: 80, height: h))
    }

    @Test func insetWiderThanTheWidthLeavesZero() throws {
        let text = CellLayout.text("x", TextAppearance(style: Self.body)).padding(Insets(30))
        #expect(try Self.bind(text).measure(width: 40).height >= 60)
    }

    @Test func sizedMinimumsGrowButNeverShrink() throws {
        let small = try Self.bind(Self.box(30, 10).size(minWidth: 50, minHeight: 40))
        #expect(try small.measure(width: 100).height == 40)
        let large = try Self.bind(Self.box(30, 60).size(minHeight: 40))
        #expect(try large.measure(width: 100).height == 60)
        #expect(try small.arrange(width: 100).elements[0].clip == Rect(x: 0, y: 0, width: 100, height: 40),
                "minimums do not clip (beyond the cell's own edges)")
    }

    @Test func sizedFixedWinsOverMinimumAndClips() throws {
        let layout = Self.box(30, 60).size(width: 50, height: 20, minWidth: 80, minHeight: 100)
        let a = try Self.bind(layout).arrange(width: 200)
        #expect(a.size.height == 20)
        #expect(a.elements[0].frame == Rect(x: 0, y: 0, width: 50, height: 20))
        let child = try #require(a.elements.last)
        #expect(child.frame == Rect(x: 0, y: 0, width: 30, height: 60))
        #expect(child.clip == Rect(x: 0, y: 0, width: 50, height: 20))
    }

    @Test func sizedFixedWidthWrapsTextAtThatWidth() throws {
        let string = "Wrapped at the fixed width, not at the width of the cell"
        let layout = CellLayout.text(string, TextAppearance(style: Self.body)).size(width: 90)
        let h = try CellKit.height(string, Self.body, width: 90)
        #expect(try Self.bind(layout).measure(width: 400).height == h)
        #expect(CellKit.textFrames(try Self.bind(layout).arrange(width: 400))[string]?.width == 90)
    }

    @Test(arguments: [(StackElement.Alignment.start, 0.0), (.center, 15), (.end, 30)])
    func sizedVerticalAlignment(_ alignment: StackElement.Alignment, _ y: Double) throws {
        let layout = Self.box(30, 10).size(minHeight: 40, verticalAlignment: alignment)
        #expect(Self.leafFrames(try Self.bind(layout).arrange(width: 100)) == [Rect(x: 0, y: y, width: 30, height: 10)])
    }

    // MARK: side by side

    @Test func sideBySideBothBranches() throws {
        let pair = CellLayout.sideBySide(SideBySideElement(first: Self.box(50, 10), second: Self.box(60, 20), spacing: 15, verticalSpacing: 5))
        let cell = try Self.bind(pair)
        // 50 + 15 + 60 = 125: side by side from 125 px on.
        for width in [125.0, 126, 300] {
            let a = try cell.arrange(width: width)
            #expect(a.size.height == 20)
            #expect(Self.leafFrames(a) == [Rect(x: 0, y: 0, width: 50, height: 10), Rect(x: 65, y: 0, width: 60, height: 20)])
        }
        for width in [124.99, 100, 0] {
            let a = try cell.arrange(width: width)
            #expect(a.size.height == 35)
            #expect(Self.leafFrames(a) == [Rect(x: 0, y: 0, width: 50, height: 10), Rect(x: 0, y: 15, width: 60, height: 20)])
        }
    }

    @Test func sideBySideWithTextsUsesSingleLineWidths() throws {
        let a = "First", b = "second text that is long enough to wrap when stacked under the first one"
        let pair = CellLayout.sideBySide(SideBySideElement(first: .text(a, TextAppearance(style: Self.body)),
                                                            second: .text(b, TextAppearance(style: Self.body)), spacing: 8, verticalSpacing: 3))
        let wa = try CellKit.singleLine(a, Self.body).width, wb = try CellKit.singleLine(b, Self.body).width
        let cell = try Self.bind(pair)
        let wide = try cell.arrange(width: wa + 8 + wb)
        #expect(wide.size.height == 16)
        #expect(CellKit.textFrames(wide)[b]?.x == wa + 8)
        let narrow = try cell.arrange(width: 150)
        let hb = try CellKit.height(b, Self.body, width: 150)
        #expect(narrow.size.height == 16 + 3 + hb)
        #expect(CellKit.textFrames(narrow)[b] == Rect(x: 0, y: 19, width: 150, height: hb))
    }

    // MARK: frames

    @Test func framesFixedAndAutoHeights() throws {
        let string = "A description that wraps over several lines in a narrow frame"
        let frames = CellLayout.frames([
            FramedElement(x: 5, y: 5, width: 40, height: 40, child: Self.box(40, 40)),
            FramedElement(x: 50, y: 20, width: 100, height: nil, child: .text(string, TextAppearance(style: Self.body))),
            FramedElement(x: 50, y: 0, width: 100, height: 16, child: .text(string, TextAppearance(style: Self.body))),
        ])
        let h = try CellKit.height(string, Self.body, width: 100)
        #expect(h > 32, "precondition: several lines")
        let a = try Self.bind(frames).arrange(width: 320)
        #expect(a.size == Size(width: 320, height: max(45, 20 + h)))
        var texts = a.elements.filter { if case .text = $0.kind { return true } else { return false } }
        #expect(texts.count == 2)
        // The auto-height frame takes the text's height and does not clip (beyond the cell).
        #expect(texts[0].frame == Rect(x: 50, y: 20, width: 100, height: h))
        #expect(texts[0].clip == Rect(x: 0, y: 0, width: a.size.width, height: a.size.height))
        // The fixed frame clips the text to its box.
        #expect(texts[1].frame == Rect(x: 50, y: 0, width: 100, height: h))
        #expect(texts[1].clip == Rect(x: 50, y: 0, width: 100, height: 16))
        texts.removeAll()
        // A frames layout's natural width is the rightmost frame edge (measure reports the given width).
        #expect(try Self.bind(frames).measure(width: 320).width == 320)
    }

    @Test func framesInsideAClipIntersect() throws {
        let frames = CellLayout.frames([FramedElement(x: 80, y: 10, width: 50, height: 50, child: Self.box(50, 50))])
            .size(width: 100, height: 40)
        let a = try Self.bind(frames).arrange(width: 200)
        let box = try #require(a.elements.last)
        #expect(box.clip == Rect(x: 80, y: 10, width: 20, height: 30))
    }

    // MARK: background

    @Test func backgroundComesFirstAndCoversTheChild() throws {
        let background = Background(fill: .image(.field("bg")), highlightedFill: .image(.named("hl")), borderColor: .black, borderWidth: 1, cornerRadius: 4)
        let layout = Self.box(30, 10).padding(Insets(5)).background(background)
        let a = try Self.bind(layout, ["bg": "paper"]).arrange(width: 100)
        #expect(a.size == Size(width: 100, height: 20))
        guard case .background(let b, let image, let highlighted) = a.elements[0].kind else { Issue.record("background first"); return }
        #expect(b == background && image == "paper" && highlighted == "hl")
        #expect(a.elements[0].frame == Rect(x: 0, y: 0, width: 100, height: 20))
        // A background in a taller slot (a horizontal stack) fills the slot.
        let row = CellLayout.hstack { Self.box(10, 50); Self.box(10, 10).background(Background(fill: .color(.white))) }
        let b2 = try Self.bind(row).arrange(width: 100)
        let backgrounds = b2.elements.filter { if case .background = $0.kind { return true } else { return false } }
        #expect(backgrounds.first?.frame.height == 10, "the stack gives the child its own height")
    }

    @Test func boxImagesResolveFromTheRow() throws {
        let layout = CellLayout.hstack {
            CellLayout.image(field: "icon", width: 20, height: 20)
            CellLayout.image(field: "absent", width: 20, height: 20)
            CellLayout.box(BoxElement(width: 5, height: 5, content: .image(.named("fixed"))))
        }
        let a = try Self.bind(layout, RowData(["icon": .string("cat")])).arrange(width: 100)
        let contents = a.elements.compactMap { if case .box(let c) = $0.kind { return c } else { return nil } }
        #expect(contents == [.image("cat"), .empty, .image("fixed")])
    }

    // MARK: DSL and errors

    @Test func builderMakesAVerticalStackOfSeveralChildren() throws {
        let template = CellTemplate(name: "t") {
            Self.box(10, 10)
            Self.box(10, 20)
        }
        #expect(template.layout == .stack(StackElement(.vertical, children: [Self.box(10, 10), Self.box(10, 20)])))
        let single = CellTemplate(name: "s") { Self.box(10, 10) }
        #expect(single.layout == Self.box(10, 10))
        let optional = CellTemplate(name: "o") {
            if Bool.random() && false { Self.box(1, 1) }
            Self.box(10, 10)
        }
        #expect(optional.layout == Self.box(10, 10))
    }

    static let badWidths: [Double] = [.nan, -1, -0.0001, -.infinity, .infinity, 100_000.5, .greatestFiniteMagnitude]

    @Test(arguments: badWidths)
    func badWidthsAreRejected(_ width: Double) throws {
        for template in ClassicCells.all {
            let cell = try template.bind(template.samples[0])
            for operation in ["measure", "arrange"] {
                do {
                    if operation == "measure" { _ = try cell.measure(width: width) } else { _ = try cell.arrange(width: width) }
                    Issue.record("\(template.name) \(operation) accepted width \(width)")
                } catch {
                    guard case .invalidWidth(let w) = error else { Issue.record("wrong error \(error)"); continue }
                    #expect(w.isNaN ? width.isNaN : w == width)
                    #expect(error.description.contains("invalid cell width"))
                }
            }
        }
    }

    @Test(arguments: [0.0, 1, 100_000])
    func edgeWidthsAreAccepted(_ width: Double) throws {
        for template in ClassicCells.all {
            let cell = try template.bind(template.samples.last!)
            let size = try cell.measure(width: width)
            #expect(size.width == width && size.height.isFinite && size.height >= 0)
            #expect(try cell.arrange(width: width).size == size)
        }
    }

    @Test func badTextStylesFailAtBindTime() {
        var style = Self.body
        style.size = .nan
        do {
            _ = try Self.bind(.text(field: "x", TextAppearance(style: style)), ["x": "text"])
            Issue.record("bound a NaN font size")
        } catch {
            guard case .text(let element, _)? = error as? CellError else { Issue.record("wrong error \(error)"); return }
            #expect(element.contains("x"))
        }
        // An empty text never prepares, so it binds even with a bad style.
        #expect(throws: Never.self) { _ = try Self.bind(.text(field: "x", TextAppearance(style: style)), RowData()) }
    }
}
