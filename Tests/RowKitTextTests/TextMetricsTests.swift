import Testing
import PropertyBased
@testable import RowKitText

/// The compact measuring form (Prepare/TextMetrics.swift, MetricsBlock.swift): it measures
/// exactly as the drawing form does, and the glyphs drawn advance by what it measured.
@Suite struct TextMetricsTests {
    static let families = ["DejaVu Sans", "Noto Sans", "Liberation Serif"]

    /// A random style, from one number: family, size, line height (normal grows lines with
    /// taller fallback fonts), white space and direction.
    static let styles = Gen.int(in: 0...(3 * 35 * 3 * 2 * 3 - 1))

    static func randomStyle(_ code: Int) -> TextStyle {
        var c = code
        func take(_ n: Int) -> Int { defer { c /= n }; return c % n }
        let family = families[take(3)], size = Double(6 + take(35)), lineHeight = take(3), preWrap = take(2) == 1
        let direction: TextDirection = [.ltr, .rtl, .auto][take(3)]
        return TextStyle(font: FontDescriptor(family: family), size: size,
                         lineHeight: lineHeight == 0 ? .normal : .pixels(size + 4 * Double(lineHeight)),
                         direction: direction, whiteSpace: preWrap ? .preWrap : .normal)
    }
    static let texts = Gen.int(in: 0...(textPieces.count + extraPieces.count - 1)).array(of: 0...40)
    static let widths = Gen.int(in: 0...700)
    static let extraPieces = ["مرحبا بالعالم", "שלום", "123", "हिन्दी", "ខ្មែរ", "“quoted”", "it’s", "—", "…", "《红》", "（注）"]

    static func text(_ indices: [Int]) -> String { randomText(indices, from: textPieces + extraPieces) }

    /// Line breaks, widths and heights of the compact form equal those of the drawing form,
    /// with and without a line limit; each is prepared separately, through separate shape
    /// caches, so neither reuses the other's shaping.
    @Test func compactFormMeasuresAsTheDrawingForm() async {
        await propertyCheck(count: 250, input: Self.texts, Self.styles, Self.widths) { indices, code, w in
            let text = Self.text(indices)
            let style = Self.randomStyle(code)
            let metrics = try TextMetrics(text, style: style, cache: ShapeCache(capacity: 64))
            let prepared = try PreparedText(text, style: style, cache: ShapeCache(capacity: 64))
            let width = Double(w)
            #expect(try metrics.measure(width: width) == prepared.measure(width: width))
            #expect(try metrics.lineCount(width: width) == prepared.lineCount(width: width))
            let lines = metrics.withView { $0.lines(width: width, maxLines: nil).lines }
            #expect(lines == (try prepared.layout(width: width).lines), "\(text.debugDescription) at \(w)")
            for maxLines in 1...3 {
                let layout = try prepared.layout(width: width, maxLines: maxLines)
                let m = try metrics.measure(width: width, maxLines: maxLines)
                #expect(m.lineCount == layout.lines.count)
                #expect(m.height == layout.height)
                #expect(m.maxLineWidth == layout.maxLineWidth)
                #expect(metrics.withView { $0.lines(width: width, maxLines: maxLines).lines } == layout.lines)
            }
            #expect(try metrics.measure(width: .infinity) == prepared.measure(width: .infinity))
        }
    }

    /// The glyphs the drawing form places on each line advance by exactly the width the compact
    /// form measured for that line.
    @Test func drawnAdvancesEqualCompactWidths() async {
        await propertyCheck(count: 150, input: Self.texts, Self.styles, Self.widths) { indices, code, w in
            let text = Self.text(indices)
            let style = Self.randomStyle(code)
            let metrics = try TextMetrics(text, style: style, cache: ShapeCache(capacity: 64))
            let layout = try PreparedText(text, style: style).layout(width: Double(w), maxLines: indices.count % 3 == 0 ? 2 : nil)
            let measured = metrics.withView { $0.lines(width: Double(w), maxLines: layout.isTruncated ? 2 : nil).lines }
            #expect(measured.map(\.width) == layout.lines.map(\.width))
            for i in layout.lines.indices {
                guard let drawn = drawnWidth(layout, line: i) else { continue }
                #expect(abs(drawn - measured[i].width) < 0.001, "line \(i) of \(text.debugDescription) at \(w)")
            }
        }
    }

    /// Found by the property above: a `《` reshaped alone at a line start (Noto Sans Lisu's
    /// narrower `《` after `》`) is drawn at its measured width when the paragraph is right to
    /// left (the CJK piece is not the line's first visual piece, or is itself right to left), when a tab follows (the
    /// tab stop counts from the changed pen) and when the line is cut with an ellipsis.
    @Test func reshapedLineStartDrawsItsMeasuredWidthInRightToLeftTabbedAndEllipsizedLines() throws {
        let cases: [(String, TextStyle, Double, Int?)] = [
            ("a《红》《红》A.", TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 6, direction: .rtl), 21, nil),
            ("aaaaaaaaaaaaaaaaaa《红》《红》\ta", TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 7, whiteSpace: .preWrap), 48, nil),
            ("aaa《红》《红》aaaaaaa", TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 6), 27, 2),
            ("。《红》", TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 6, direction: .rtl), 0, nil),
        ]
        for (text, style, width, maxLines) in cases {
            let layout = try PreparedText(text, style: style).layout(width: width, maxLines: maxLines)
            let metrics = try TextMetrics(text, style: style)
            let measured = metrics.withView { $0.lines(width: width, maxLines: maxLines).lines }
            #expect(try metrics.measure(width: width, maxLines: maxLines ?? 1_000).maxLineWidth == layout.maxLineWidth)
            #expect(measured.map(\.width) == layout.lines.map(\.width))
            #expect(layout.lines.indices.contains { layout.prepared.lineStartDelta(at: layout.lines[$0].start) != 0 }, "the scenario needs a reshaped line start")
            for i in layout.lines.indices {
                let drawn = try #require(drawnWidth(layout, line: i))
                #expect(abs(drawn - layout.lines[i].width) < 0.001, "line \(i) of \(text.debugDescription)")
            }
        }
    }

    /// Found by a scan of the property above: a line that starts at `《` reshaped alone after
    /// `、` (Noto Sans Lisu, 12.34 px instead of 27) and is then broken by overflow-wrap
    /// because the soft hyphen ending its word does not fit with its hyphen
    /// (`softHyphenOverflowBreak`) counts the mark with its reshaped width, as it is drawn
    /// (measured 165.29 px, drawn 150.63 before).
    @Test func softHyphenOverflowBreakCountsAReshapedLineStart() throws {
        let text = "（注）日本語A.brownhyphen-ated 👨‍👩‍👧Wikipediaquickfox、《红》“quoted”\u{AD}hyphen-atedمرحبا بالعالم"
        let style = TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 27, lineHeight: .pixels(31))
        let layout = try PreparedText(text, style: style).layout(width: 177)
        let metrics = try TextMetrics(text, style: style)
        let measured = metrics.withView { $0.lines(width: 177, maxLines: nil).lines }
        #expect(measured.map(\.width) == layout.lines.map(\.width))
        #expect(layout.lines.contains { $0.start == 51 && layout.prepared.lineStartDelta(at: 51) != 0 }, "the scenario needs the reshaped 《 to start a line")
        for i in layout.lines.indices {
            let drawn = try #require(drawnWidth(layout, line: i))
            #expect(abs(drawn - layout.lines[i].width) < 0.001, "line \(i)")
        }
    }

    /// Found by the property above: Noto Sans Devanagari kerns द against its vowel sign ी, two
    /// HarfBuzz clusters of one grapheme. No line ends between them, so a line broken at the
    /// soft hyphen after “हिन्दी” is not widened to undo that kerning: measured and drawn are
    /// the shaped widths plus the hyphen.
    @Test func kerningInsideAGraphemeDoesNotWidenALineEndingAfterIt() throws {
        let style = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 21)
        let text = "हिन्दी\u{AD}a"
        let layout = try PreparedText(text, style: style).layout(width: 49)
        let metrics = try TextMetrics(text, style: style)
        let measured = metrics.withView { $0.lines(width: 49, maxLines: nil).lines }
        try #require(layout.lines.count == 2 && layout.lines[0].hyphenated)
        let p = layout.prepared
        let shaped = p.width(of: 0..<6) + PreparedText.pixels(Int64(p.hyphenWidth))
        #expect(abs(layout.lines[0].width - shaped) < 0.001)
        #expect(measured.map(\.width) == layout.lines.map(\.width))
        let drawn = try #require(drawnWidth(layout, line: 0))
        #expect(abs(drawn - layout.lines[0].width) < 0.001)
    }

    /// Found by the property above (2,000 cases): a line that starts where overflow-wrap broke a
    /// word inside a bidi level run and goes past the run's end rounds the run's part from the
    /// line start, as the drawn glyphs do (BidiItemRounding) — when the run ends in the word's
    /// hanging space (`aaaaaaaaaaa `, `“quoted” `: the word's last piece) and when the word is
    /// split at a soft hyphen that does not fit (`…بالعالم\u{AD}`, `softHyphenOverflowBreak`),
    /// also when the line resuming after that split ends at the soft hyphen, past the run's end
    /// (`م\u{AD}`: the soft hyphen is a level run of its own).
    @Test func lineStartingInsideABrokenWordRoundsItsLevelRunFromTheLineStart() throws {
        let cases: [(String, TextStyle, Double)] = [
            ("aaaaaaaaaaa مرحبا بالعالم", TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 6), 20),
            (" “quoted” مرحبا بالعالم", TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 13), 42),
            ("aaaaaaaمرحبا بالعالم\u{AD}aaaa", TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 7), 5),
            ("bb بالعالم\u{AD}aaaaaaaaaa", TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 11, whiteSpace: .preWrap), 16),
            ("aaaaaaaaaaaaaaaaaaaaaaمرحبا بالعالم\u{AD}aaaaaaaaaa", TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 11), 31),
        ]
        for (text, style, width) in cases {
            let layout = try PreparedText(text, style: style).layout(width: width)
            let metrics = try TextMetrics(text, style: style)
            let measured = metrics.withView { $0.lines(width: width, maxLines: nil).lines }
            #expect(measured.map(\.width) == layout.lines.map(\.width))
            for i in layout.lines.indices {
                let drawn = try #require(drawnWidth(layout, line: i))
                #expect(abs(drawn - layout.lines[i].width) < 0.001, "line \(i) of \(text.debugDescription) at \(width)")
            }
        }
    }

    /// Found by the property above (50 times its count): in `pre-wrap`, a line resuming after
    /// an overflow-wrap split, in a word whose segment ends in a tab (`brown\u{AD}\t`), takes
    /// the tab to the next stop from the rest of the word, as it is drawn (it was counted at
    /// the plain space width: measured 56.94 px, drawn 83.94). Line counts as in Chromium.
    @Test func tabAfterTheRestOfASplitWordGoesToTheNextStop() throws {
        let text = "aaaaaaaaaaaabrown\u{AD}\taaaaaa漢字aaaaaaaaaaaaaaa"
        let style = TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 18, whiteSpace: .preWrap)
        for (width, lineCount) in [(72.0, 7), (90, 5), (130, 3)] {
            let layout = try PreparedText(text, style: style).layout(width: width)
            #expect(layout.lines.count == lineCount)
            let metrics = try TextMetrics(text, style: style)
            #expect(metrics.withView { $0.lines(width: width, maxLines: nil).lines.map(\.width) } == layout.lines.map(\.width))
            for i in layout.lines.indices {
                let drawn = try #require(drawnWidth(layout, line: i))
                #expect(abs(drawn - layout.lines[i].width) < 0.001, "line \(i) at \(width)")
            }
        }
    }

    /// Found by the property above: a line with right-to-left runs, a tab and a closing CJK
    /// bracket trimmed at its end draws exactly its measured width.
    @Test func trimmedBracketAfterATabInABidiLineDrawsItsMeasuredWidth() throws {
        let text = String(repeating: "a", count: 19) + "مرحبا بالعالمa\t」"
        let s = TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 19, lineHeight: .pixels(27),
                          direction: .auto, whiteSpace: .preWrap)
        let layout = try PreparedText(text, style: s).layout(width: 314)
        for i in layout.lines.indices {
            let drawn = try #require(drawnWidth(layout, line: i))
            #expect(abs(drawn - layout.lines[i].width) < 0.001)
        }
    }

    /// The plain-text shortcut of measuring (a text without special segments, measured by a
    /// loop that tracks only the pen: LineBreaker.swift, `plainLines`) gives exactly what the
    /// general line loop and the drawing form's layout give, for prose at random widths in
    /// 1/64 px steps, with and without a line limit.
    @Test func plainShortcutMeasuresAsTheGeneralLoop() async {
        let words = ["a", "the", "quick", "brown", "fox", "jumps", "over", "Wikipedia", "supercalifragilisticexpialidocious",
                     "it’s", "“quoted”", "42,", "end.", "AVATAR", "office"]
        let prose = Gen.int(in: 0...(words.count - 1)).array(of: 1...60)
        let plain = Counter()
        await propertyCheck(count: 300, input: prose, Self.styles, Gen.int(in: 0...40_000)) { indices, code, w in
            let text = indices.map { words[$0] }.joined(separator: " ")
            let style = Self.randomStyle(code)
            let metrics = try TextMetrics(text, style: style)
            let prepared = try PreparedText(text, style: style)
            let width = Double(w) / 64
            let layout = try prepared.layout(width: width)
            metrics.withView { view in
                let measured = view.measure(width: width)
                #expect(measured == view.measureLines(width: width), "\(text.debugDescription) at \(width)")
                #expect(measured.lineCount == layout.lines.count)
                #expect(measured.height == layout.height)
                #expect(measured.maxLineWidth == layout.maxLineWidth)
                let limit = MetricsBlock.View.fitLimit(width)
                if view.specialCount == 0, !view.hasTallerLines, view.singleLineWidth > limit,
                   view.plainLines(limit: limit, maxCount: .max) != nil { plain.add(1) }
            }
            for maxLines in 1...3 {
                let cut = try prepared.layout(width: width, maxLines: maxLines)
                let m = try metrics.measure(width: width, maxLines: maxLines)
                #expect(m == TextMeasure(lineCount: cut.lines.count, height: cut.height, maxLineWidth: cut.maxLineWidth),
                        "\(text.debugDescription) at \(width), \(maxLines) lines")
            }
        }
        // The shortcut was taken, not only the general loop.
        #expect(plain.value > 100, "\(plain.value) of 300 texts took the plain loop")
    }

    /// A measuring form split in two (its hot part — header, widths, codes, trail — in one
    /// place, its cold part elsewhere, as a cell's measuring form packs its texts) measures, breaks
    /// lines and cuts them exactly as the text's own contiguous form, wherever the cold part
    /// lies: right after the hot part, far after it, or before it (a negative offset). The texts
    /// cover special segments (tabs, soft hyphens, forced breaks), taller fallback lines,
    /// dictionary scripts and kerning extras, in random styles.
    @Test func splitFormMeasuresAsTheWholeForm() async {
        let placements = Gen.int(in: 0...2)
        await propertyCheck(count: 200, input: Self.texts, Self.styles, Self.widths, placements) { indices, code, w, placement in
            let text = Self.text(indices)
            let metrics = try TextMetrics(text, style: Self.randomStyle(code), cache: ShapeCache(capacity: 64))
            let parts = metrics.blockParts
            #expect(parts.hot % 8 == 0 && parts.cold % 8 == 0)
            #expect(parts.hot + parts.cold == metrics.blockByteCount)
            let gap = 4096
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: parts.hot + parts.cold + gap, alignment: 8)
            defer { buffer.deallocate() }
            buffer.initializeMemory(as: UInt8.self, repeating: 0xA5, count: parts.hot + parts.cold + gap)
            let hot, cold: UnsafeMutableRawPointer
            switch placement {
            case 0: (hot, cold) = (buffer, buffer + parts.hot)
            case 1: (hot, cold) = (buffer, buffer + parts.hot + gap)
            default: (hot, cold) = (buffer + parts.cold + gap, buffer)
            }
            metrics.copyBlock(hotTo: hot, coldTo: cold)
            #expect(TextMetrics.blockParts(at: hot) == parts)
            let width = Double(w)
            let split = MetricsBlock.View(hot)
            metrics.withView { whole in
                #expect(split.measure(width: width) == whole.measure(width: width), "\(text.debugDescription) at \(w)")
                #expect(TextMetrics.measureBlock(at: hot, width: width, maxLines: 0) == whole.measure(width: width))
                #expect(split.lines(width: width, maxLines: nil).lines == whole.lines(width: width, maxLines: nil).lines)
                for maxLines in 1...3 {
                    #expect(split.measure(width: width, maxLines: maxLines) == whole.measure(width: width, maxLines: maxLines))
                    #expect(split.lines(width: width, maxLines: maxLines).lines == whole.lines(width: width, maxLines: maxLines).lines)
                }
                #expect(split.unitCount == whole.unitCount && split.hyphenWidth == whole.hyphenWidth
                        && split.ellipsisWidth == whole.ellipsisWidth && split.spaceWidth == whole.spaceWidth)
            }
        }
    }

    /// A text of more than 65,535 UTF-16 units (segment ends stored as Int32, not UInt16)
    /// splits and measures the same.
    @Test func wideSplitFormMeasuresAsTheWholeForm() throws {
        let text = String(repeating: "word\tnext\u{AD}piece ", count: 5_000)
        let metrics = try TextMetrics(text, style: TextStyle(whiteSpace: .preWrap))
        let parts = metrics.blockParts
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: parts.hot + parts.cold + 64, alignment: 8)
        defer { buffer.deallocate() }
        metrics.copyBlock(hotTo: buffer + parts.cold + 64, coldTo: buffer)
        let split = MetricsBlock.View(buffer + parts.cold + 64)
        metrics.withView { whole in
            #expect(whole.wideEnds && split.wideEnds, "\(whole.unitCount) units, \(whole.segmentCount) segments")
            for width in [0.0, 37, 200, 333.3, 1_000, .infinity] {
                #expect(split.measure(width: width) == whole.measure(width: width))
                #expect(split.measure(width: width, maxLines: 2) == whole.measure(width: width, maxLines: 2))
            }
        }
    }

    /// `prepared.metrics` is a copy of the same form.
    @Test func metricsOfAPreparedTextMeasureTheSame() throws {
        let p = try prepare("The quick brown fox jumps over the lazy dog. 漢字かな交じり文 👍🏽", style(lineHeight: .normal))
        let m = p.metrics
        for w in stride(from: 0.0, through: 400, by: 7) {
            #expect(try m.measure(width: w) == p.measure(width: w))
        }
        #expect(m.lineHeight == p.lineHeight)
        #expect(m.blockByteCount < p.byteCount)
    }

    /// The compact form of a 25-word English paragraph stays small: widths and flags per word,
    /// one byte per letter, a small palette.
    @Test func compactFormOfAParagraphIsAFewHundredBytes() throws {
        let text = "When the body is too long to sit next to the caption, it wraps below it, word by word, at whatever width the table has, and never more."
        let m = try TextMetrics(text, style: style(size: 13))
        let p = try PreparedText(text, style: style(size: 13))
        #expect(m.byteCount < 600, "\(m.byteCount) B")
        #expect(m.byteCount * 3 < p.byteCount, "compact \(m.byteCount) B, prepared \(p.byteCount) B")
    }

    @Test func invalidArgumentsThrow() throws {
        let m = try TextMetrics("a b c")
        #expect(throws: TextError.self) { try m.measure(width: -1) }
        #expect(throws: TextError.self) { try m.measure(width: .nan) }
        #expect(throws: TextError.self) { try m.measure(width: 10, maxLines: 0) }
        #expect(throws: TextError.self) { try TextMetrics("x", style: style(size: .nan)) }
        #expect(try TextMetrics("").measure(width: 100) == TextMeasure(lineCount: 0, height: 0, maxLineWidth: 0))
    }
}
