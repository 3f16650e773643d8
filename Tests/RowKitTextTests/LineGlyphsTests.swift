import Testing
@testable import RowKitText

/// Glyph placement, alignment and baselines (Layout/LineGlyphs.swift).
@Suite struct LineGlyphsTests {
    // MARK: Alignment

    @Test func alignmentOffsetsInALeftToRightParagraph() throws {
        let text = "aa"
        let w = try width(text)
        let box = 100.0
        let expected: [TextAlignment: Double] = [.natural: 0, .leading: 0, .trailing: box - w, .center: (box - w) / 2]
        for (alignment, offset) in expected {
            let layout = try prepare(text, style(alignment: alignment)).layout(width: box)
            #expect(layout.lineOffset(0) == offset, "\(alignment)")
        }
    }

    @Test func alignmentOffsetsInARightToLeftParagraph() throws {
        let text = "عربي"
        let w = try width(text, style(direction: .rtl))
        let box = 100.0
        let expected: [TextAlignment: Double] = [.natural: box - w, .leading: box - w, .trailing: 0, .center: (box - w) / 2]
        for (alignment, offset) in expected {
            let layout = try prepare(text, style(alignment: alignment, direction: .rtl)).layout(width: box)
            #expect(abs(layout.lineOffset(0) - offset) < 1e-9, "\(alignment)")
        }
    }

    @Test func autoDirectionFollowsTheFirstStrongCharacter() throws {
        #expect(try prepare("عربي hello", style(direction: .auto)).paragraphLevel == 1)
        #expect(try prepare("hello عربي", style(direction: .auto)).paragraphLevel == 0)
        #expect(try prepare("123 hello", style(direction: .auto)).paragraphLevel == 0)
    }

    @Test func alignmentIsPerLine() throws {
        let p = try prepare("aaaa b", style(alignment: .trailing))
        let box = p.width(of: 0..<4)
        let layout = try p.layout(width: box)
        #expect(layout.lines.count == 2)
        #expect(layout.lineOffset(0) == 0)
        #expect(layout.lineOffset(1) == box - layout.lines[1].width)
    }

    @Test func lineOffsetIsZeroForUnboundedWidthAndNeverNegative() throws {
        let centered = try prepare("hello", style(alignment: .center))
        #expect(try centered.layout(width: .infinity).lineOffset(0) == 0)
        // A line wider than the box (a single unbreakable cluster) starts at the left edge.
        let wide = try prepare("W", style(alignment: .trailing)).layout(width: 1)
        #expect(wide.lineOffset(0) == 0)
    }

    // MARK: Baselines

    @Test func baselineSitsHalfLeadingBelowTheLineTop() throws {
        // CSS places the baseline at half-leading + ascent (metrics rounded first).
        let p = try prepare("a b", style(lineHeight: .pixels(30)))
        let layout = try p.layout(width: 0)
        let ascent = p.ascent.rounded(), descent = p.descent.rounded()
        let halfLeading = ((30 - (ascent + descent)) / 2).rounded(.down)
        #expect(layout.baseline(ofLine: 0) == halfLeading + ascent)
        #expect(layout.baseline(ofLine: 1) == 30 + halfLeading + ascent)
        #expect(ascent > 0 && descent > 0)
    }

    /// The baseline comes from the font made at Chromium's platform size, like the line box: at
    /// 37.17 px DejaVu's ascent is the 37.16 px font's, 34.49 → 34, not the CSS size's 34.50 → 35.
    /// Chromium's baselines (the top of a zero-height inline-block on the first line, 48 px
    /// lines, measured 2026-11-24 in headless Chromium 156), for three families and eight sizes.
    @Test(arguments: [
        ("DejaVu Sans Mono", [36.0, 36, 37, 29, 31, 31, 29, 32]),
        ("DejaVu Sans", [36.0, 36, 37, 29, 31, 31, 29, 32]),
        ("Noto Sans", [38.0, 38, 38, 29, 31, 32, 30, 33]),
    ])
    func baselinesAreChromiums(family: String, chromium: [Double]) throws {
        let sizes = [37.16, 37.17, 37.18, 13.5, 19.97, 20.3, 16, 23.5]
        for (size, expected) in zip(sizes, chromium) {
            let layout = try prepare("x", style(family: family, size: size, lineHeight: .pixels(48))).layout(width: 500)
            #expect(layout.baseline(ofLine: 0) == expected, "\(family) \(size) px")
        }
    }

    // MARK: Bidi

    @Test func mixedArabicAndEnglishPiecesComeInVisualOrder() throws {
        // LTR paragraph "hello عربي": "hello " on the left, the Arabic word on its right, and
        // the Arabic glyphs themselves right-to-left (HarfBuzz RTL output order).
        let p = try prepare("hello عربي")
        let layout = try p.layout(width: 1000)
        let pieces = layout.glyphs(ofLine: 0).filter { !$0.glyphs.isEmpty }
        #expect(pieces.count == 2)
        let latin = try prepare("hello ", style(.preWrap)).runs[0].shaped.glyphs
        let arabic = try prepare("عربي", style(direction: .rtl)).runs[0].shaped.glyphs
        #expect(pieces.first?.glyphs == latin)
        #expect(pieces.last?.glyphs == arabic)
        #expect(pieces.first?.x.first == 0)
        #expect((pieces.last?.x.min() ?? 0) > (pieces.first?.x.max() ?? .infinity))
    }

    @Test func englishInsideARightToLeftParagraphComesLast() throws {
        // RTL paragraph, logical "hello عربي": visually the Arabic is at the left, "hello" at the right.
        let p = try prepare("hello عربي", style(direction: .rtl))
        #expect(p.paragraphLevel == 1)
        let layout = try p.layout(width: 1000)
        let pieces = layout.glyphs(ofLine: 0).filter { !$0.glyphs.isEmpty }
        let hello = try prepare("hello").runs[0].shaped.glyphs
        #expect(pieces.last?.glyphs == hello)
        #expect((pieces.first?.x.min() ?? 1) == 0)
        #expect((pieces.last?.x.min() ?? 0) > (pieces.first?.x.max() ?? .infinity))
    }

    @Test func arabicThenEnglishInALeftToRightParagraph() throws {
        let p = try prepare("عربي hello")
        let pieces = try p.layout(width: 1000).glyphs(ofLine: 0).filter { !$0.glyphs.isEmpty }
        let hello = try prepare("hello").runs[0].shaped.glyphs
        #expect(pieces.last?.glyphs == hello)
        #expect(pieces.first?.x.first == 0)
    }

    @Test func bidiLineWidthIsTheSumOfRunWidths() throws {
        // docs/CHROMIUM.md §1: "hello عربي" = width("hello ") LTR + width("عربي") RTL.
        let p = try prepare("hello عربي")
        let sum = try width("hello ", style(.preWrap)) + width("عربي", style(direction: .rtl))
        #expect(abs(p.width(of: 0..<p.units.count) - sum) < 1e-9)
        #expect(abs(try p.measure(width: 1000).maxLineWidth - sum) < 1e-9)
    }

    @Test func spaceBeforeADirectionChangeHangs() throws {
        // docs/CHROMIUM.md §3(j): at W = width("hello"): "hello " / "عربي".
        let p = try prepare("hello عربي")
        #expect(try lineTexts(p, width: p.width(of: 0..<5)) == ["hello", "عربي"])
    }

    // MARK: Drawn == measured

    @Test(arguments: [
        "The quick brown fox", "hello عربي world", "漢字かな交じり文。「引用」", "👨‍👩‍👧 🇫🇷 👍🏽 1️⃣", "ภาษาไทยเป็นภาษาที่สวยงาม",
        "x aaaa\u{AD}bbbb", "Ta Ta Ta Ta T A T A", "e\u{301}e\u{301}", "नमस्ते दुनिया",
    ])
    func drawnAdvancesEqualLineWidths(_ text: String) throws {
        for family in ["DejaVu Sans", "Liberation Serif", "Noto Sans"] {
            let p = try prepare(text, style(family: family))
            for w in [30.0, 61, 100, 1000] {
                for maxLines in [nil, 1] as [Int?] {
                    let layout = try p.layout(width: w, maxLines: maxLines)
                    for i in layout.lines.indices {
                        guard let drawn = drawnWidth(layout, line: i) else { continue }
                        expectDrawnEqualsMeasured(layout, line: i, drawn: drawn)
                    }
                }
            }
        }
    }

    @Test func hyphenatedLineDrawsAHyphenAtTheEnd() throws {
        let p = try prepare("x aaaa\u{AD}bbbb")
        let hyphen = try width("\u{2010}")
        let layout = try p.layout(width: p.width(of: 0..<6) + hyphen + 0.5)
        #expect(layout.lines[0].hyphenated)
        let last = layout.glyphs(ofLine: 0).last
        #expect(last?.glyphs == [p.primaryFont.nominalGlyph(0x2010)!])
        #expect(last?.x == [p.width(of: 0..<6)])
    }

    @Test func tabAdvancesThePenWhenDrawn() throws {
        // pre-wrap "a\tb": the line is measured with the tab stop (8 space widths before "b"),
        // so "b" must be drawn at x = 8 × space, not right after "a".
        let p = try prepare("a\tb", style(.preWrap))
        let layout = try p.layout(width: 1000)
        let space = try width("a b") - width("a") - width("b")
        #expect(abs(layout.lines[0].width - (8 * space + (try width("b")))) < 0.001)
        let b = layout.glyphs(ofLine: 0).last?.x.first ?? -1
        #expect(abs(b - 8 * space) < 0.001, "'b' drawn at \(b), tab stop at \(8 * space)")
    }

    @Test func ellipsisGoesAtTheVisualEndOfARightToLeftLine() throws {
        let p = try prepare("عربي عربي عربي عربي", style(direction: .rtl))
        let layout = try p.layout(width: 60, maxLines: 1)
        #expect(layout.lines[0].ellipsized)
        let pieces = layout.glyphs(ofLine: 0)
        let ellipsis = try #require(pieces.last)
        #expect(ellipsis.glyphs == [p.primaryFont.nominalGlyph(0x2026)!])
        #expect(ellipsis.x == [0], "the ellipsis is leftmost in a right-to-left line")
        let rest = pieces.dropLast().flatMap(\.x)
        #expect(rest.allSatisfy { $0 >= (try! width("…")) - 1e-9 })
        #expect(fits(layout.lines[0].width, in: 60))
        #expect(abs(layout.lineOffset(0) - (60 - layout.lines[0].width)) < 1e-9, "right-aligned")
    }

    // MARK: Finding a line's runs and glyphs

    /// The line's runs are found by a search and a cut run's glyphs by a search over its
    /// clusters; both must find exactly what a scan of every run and glyph finds, left to right
    /// and right to left, for words split by overflow-wrap and ligatures (`ffi`) cut at line ends.
    @Test func aLinesRunsAndGlyphsAreFoundAsAScanFindsThem() throws {
        let texts: [(String, TextStyle)] = [
            (String(repeating: "affinity", count: 40) + " short words after it", style()),
            ("السلام عليكم " + String(repeating: "مرحبا", count: 30) + " نص", style(direction: .rtl)),
            ("mixed עברית and English " + String(repeating: "שלום", count: 20) + " end", style()),
            (String(repeating: "漢字かな", count: 25), style()),
        ]
        var cutRuns = 0
        for (text, style) in texts {
            let p = try prepare(text, style)
            for width in [7.5, 23, 40, 64.25, 100, 333] {
                let layout = try p.layout(width: width)
                for line in layout.lines {
                    let units = line.start..<max(line.start, line.end)
                    let scanned = p.runs.indices.filter { Int(p.runs[$0].end) > units.lowerBound && Int(p.runs[$0].start) < units.upperBound }
                    var found: [Int] = []
                    var r = TextLayout.firstRun(in: p.runs, endingAfter: units.lowerBound)
                    while r < p.runs.count && Int(p.runs[r].start) < units.upperBound { found.append(r); r += 1 }
                    #expect(found == scanned, "\(text.prefix(12)) at \(width): line \(units)")
                    for r in scanned {
                        let run = p.runs[r], clusters = run.shaped.glyphClusters
                        let inRange = clusters.indices.filter { units.contains(Int(run.start) + Int(clusters[$0])) }
                        let expected = inRange.isEmpty ? nil : (inRange.min()!, inRange.max()!)
                        let got = TextLayout.glyphRange(of: run, units: units)
                        #expect(got?.first == expected?.0 && got?.last == expected?.1, "\(text.prefix(12)) at \(width): run \(r), line \(units)")
                        if Int(run.start) < units.lowerBound || Int(run.end) > units.upperBound { cutRuns += 1 }
                    }
                }
            }
        }
        #expect(cutRuns > 100, "the texts cut runs at line ends: \(cutRuns)")
    }

    /// A line of a very long word (a run of 400,000 glyphs) finds its glyphs without passing
    /// every glyph of the run: the drawn glyphs of a line deep inside it are that line's.
    @Test func aLineDeepInsideAHugeWordDrawsItsOwnGlyphs() throws {
        let p = try prepare(String(repeating: "ab", count: 200_000))
        let layout = try p.layout(width: 50)
        let i = layout.lines.count / 2
        let line = layout.lines[i]
        let drawn = layout.glyphs(ofLine: i).reduce(0) { $0 + $1.glyphs.count }
        #expect(drawn == line.end - line.start)
        #expect(abs(layout.glyphs(ofLine: i).flatMap(\.advances).reduce(0, +) - line.width) < 1e-6)
    }
}
