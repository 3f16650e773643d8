import Testing
@testable import RowKitText

/// Chromium rounds each bidi level run's part of a line up to 1/64 px on its own
/// (docs/CHROMIUM.md §1, "Bidi items are rounded apart"). Widths and breaks below were
/// measured in headless Chromium 156 (DejaVu Sans 17.7 px, `white-space: normal`).
@Suite struct BidiItemRoundingTests {
    let dejaVu = style(size: 17.7)

    /// A width rounded up to 1/64 px, as Chromium reports a line's.
    func ceil64(_ x: Double) -> Double { (x * 64).rounded(.up) / 64 }

    /// `bbb עברית cc` is 111.265625 px in Chromium: `bbb ` + `עברית` + ` cc`, each rounded up
    /// (the whole, rounded once, is 111.25). So it is one line at 111.25 px and two at 111.24.
    @Test func eachDirectionRunIsRoundedUpApart() throws {
        let text = "bbb עברית cc"
        #expect(try lineTexts(text, width: 111.25, dejaVu) == ["bbb עברית cc"])
        #expect(try lineTexts(text, width: 111.24, dejaVu) == ["bbb עברית", "cc"])
        let metrics = try TextMetrics(text, style: dejaVu)
        #expect(ceil64(try metrics.measure(width: 200).maxLineWidth) == 111.265625)
        #expect(try metrics.measure(width: 111.24).lineCount == 2)
        let layout = try prepare(text, dejaVu).layout(width: 200)
        #expect(layout.lines.map { ceil64($0.width) } == [111.265625])
    }

    /// A line starting inside a run rounds the run's part from the line start: `bbb עברית`
    /// after `aaaaaaa` is 86.1875 px in Chromium (the whole run `aaaaaaa bbb ` rounded, then
    /// the part, would give 86.203125; one rounding of the line 86.171875). So at 86.18 px the
    /// second line is `bbb עברית` and at 86.17 px `bbb` alone.
    @Test func aLineStartingInsideARunRoundsItsPartFromTheLineStart() throws {
        let text = "aaaaaaa bbb עברית cc"
        #expect(try lineTexts(text, width: 86.18, dejaVu) == ["aaaaaaa", "bbb עברית", "cc"])
        #expect(try lineTexts(text, width: 86.17, dejaVu) == ["aaaaaaa", "bbb", "עברית cc"])
        #expect(try prepare(text, dejaVu).layout(width: 86.18).lines.map { ceil64($0.width) } == [75.875, 86.1875, 19.453125])
        let metrics = try TextMetrics(text, style: dejaVu)
        #expect(try metrics.measure(width: 86.18).lineCount == 3)
        #expect(ceil64(try metrics.measure(width: 86.18).maxLineWidth) == 86.1875)
    }

    /// The runs a paragraph's levels give: each but the last, measured from its start, its pad
    /// the rounding up of its width to 1/64 px (1024 in 16.16).
    @Test func runsAndPads() {
        let units: [UInt16] = [0x61, 0x20, 0x5D0, 0x5D1, 0x20, 0x62]
        let levels: [UInt8] = [0, 0, 1, 1, 0, 0]
        let advances: [Int32] = [1000, 500, 700, 700, 500, 1000]
        let runs = units.withUnsafeBufferPointer { u in
            levels.withUnsafeBufferPointer { l in
                advances.withUnsafeBufferPointer { a in BidiItemRounding.runs(levels: l, units: u, advances: a) }
            }
        }
        #expect(runs == [BidiItemRounding.Run(start: 0, last: 1, width: 1500, pad: 548),
                         BidiItemRounding.Run(start: 2, last: 3, width: 1400, pad: 648)])
        // A line starting at unit 1 (pen 1000 from the run's start): part 500, rounded 1024,
        // where the folded pad gives 500 + 548; from the run's start no correction.
        #expect(BidiItemRounding.correction(part: 500, pad: runs[0].pad) == 1024 - 500 - 548)
        #expect(BidiItemRounding.correction(part: 1500, pad: runs[0].pad) == 0)
        // Stored with each run: the width from the start of the segment holding its last unit
        // through that unit, the sign bit set when that unit hangs, and that segment (segments
        // `a `, `אב ` and `b` here: the first run ends in the space of `a `, the second at `ב`).
        let segmentEnds: [Int32] = [2, 5, 6], contentEnds: [Int32] = [1, 4, 6]
        let records = segmentEnds.withUnsafeBufferPointer { e in
            contentEnds.withUnsafeBufferPointer { c in
                advances.withUnsafeBufferPointer { a in BidiItemRounding.records(runs, segmentEnds: e, contentEnds: c, advances: a) }
            }
        }
        #expect(records == [0, 1, 1500, 548, 1500 | Int32.min, 0, 2, 3, 1400, 648, 1400, 1])
    }

    /// Words of both directions, digits and brackets, for the property below.
    static let words = ["aaa", "bb", "word", "x", "(ab)", "text,", "עברית", "שלום", "ספר", "אב", "12", "345", "7.5", "—", "cc."]

    /// Property: every line of a mixed-direction text (whole words, nothing reshaped) is as wide
    /// as its bidi level runs' parts on it, each part but the line's last rounded up to 1/64 px
    /// on its own, whether the line starts at a run's start or inside a run. The parts are
    /// summed here unit by unit from the stored advances (less the folded pads), not from the
    /// pens the line breaker sums; the measuring form (`TextMetrics`) agrees with the layout.
    @Test(arguments: [TextDirection.ltr, .rtl])
    func linesAreTheirRunPartsRoundedApart(_ direction: TextDirection) throws {
        var seed: UInt64 = direction == .ltr ? 7 : 11
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        var linesInsideRuns = 0
        for _ in 0..<60 {
            let text = (0..<(6 + next(12))).map { _ in Self.words[next(Self.words.count)] }.joined(separator: " ")
            let textStyle = style(size: 17.7, direction: direction)
            let p = try prepare(text, textStyle)
            let metrics = try TextMetrics(text, style: textStyle)
            for width in stride(from: 60.0, through: 260, by: 6.7) {
                let layout = try p.layout(width: width)
                let measured = try metrics.measure(width: width)
                #expect(measured.lineCount == layout.lines.count, "\(text) at \(width)")
                #expect(measured.maxLineWidth == layout.lines.map(\.width).max(), "\(text) at \(width)")
                p.withView { view in
                    let runs = view.bidiRunTable
                    var pads: [Int: Int64] = [:]
                    for k in 0..<runs.count { pads[Int(runs[k].run.last)] = Int64(runs[k].run.pad) }
                    let units = view.units
                    for line in layout.lines {
                        var contentEnd = line.end
                        while contentEnd > line.start && units.isHanging(contentEnd - 1) { contentEnd -= 1 }
                        var total: Int64 = 0, part: Int64 = 0
                        for u in line.start..<contentEnd {
                            part += units.advance(u) - (pads[u] ?? 0)
                            if pads[u] != nil {
                                total += MetricsBlock.View.ceilToLayoutUnit(part)
                                part = 0
                            }
                        }
                        total += part
                        if let run = runs.run(endingAtOrAfter: line.start), line.start > Int(run.run.start), Int(run.run.last) < contentEnd {
                            linesInsideRuns += 1
                        }
                        #expect(Int64(line.width * 65536) == total, "\(text) at \(width): line \(line.start)..<\(line.end)")
                    }
                }
            }
        }
        // The case the breaker's pens serve: lines starting inside a run that ends on them.
        #expect(linesInsideRuns > 100)
    }

    /// Found by `TextMetricsTests.drawnAdvancesEqualCompactWidths` once paragraphs with a
    /// dictionary script round their runs too: a right-to-left paragraph whose fourth line starts
    /// inside a left-to-right run (after an overflow-wrap split) and ends, through the soft-hyphen
    /// fallback (`lineBreakBefore`), at a Thai word the next line re-segments from
    /// (`layOutDictionaryRun`). The fallback's width rounds the run's part from the line start,
    /// as the drawn glyphs do (it carried the whole run's pad: 401/65536 px wider).
    @Test func dictionaryParagraphRoundsRunsAndFallbackLineAgrees() throws {
        let indices = [Int](repeating: 0, count: 30) + [14, 45, 0, 9, 2, 42, 25, 11, 38, 0]
        let text = TextMetricsTests.text(indices)
        let style = TextMetricsTests.randomStyle(780)
        let metrics = try TextMetrics(text, style: style, cache: ShapeCache(capacity: 64))
        // The exception of b5653a9 is gone: the Thai paragraph has level runs.
        #expect(metrics.withView { $0.bidiRunTable.count } > 0)
        let layout = try PreparedText(text, style: style).layout(width: 265, maxLines: nil)
        let measured = metrics.withView { $0.lines(width: 265, maxLines: nil).lines }
        #expect(measured.map(\.width) == layout.lines.map(\.width))
        #expect(layout.lines.count > 3)
        for i in layout.lines.indices {
            guard let drawn = drawnWidth(layout, line: i) else { continue }
            #expect(abs(drawn - measured[i].width) < 0.001, "line \(i)")
        }
    }

    /// Lines of a dictionary-script word after an overflow-wrap split (`layOutDictionaryRun`)
    /// that start inside a level run and reach its end round the run's part from the line start:
    /// drawn as measured. Without that correction the rtl Khmer text is measured 0.008 px wider
    /// than drawn on its sixth line at 20–22.5 px.
    @Test func dictionaryRunLinesRoundTheirRunPart() throws {
        for text in ["ខ្មែរភាសាខ្មែរសួស្តី مرحبا بالعالم", "ខ្មែរភាសាខ្មែរសួស្តីمرحبا", "ภาษาไทยสวัสดีครับ مرحبا",
                     "مرحبا ខ្មែរភាសាខ្មែរសួស្តី مرحبا", "ภาษาไทยสวัสดีครับ שלום עולם"] {
            for direction in [TextDirection.ltr, .rtl] {
                var style = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 15, lineHeight: .pixels(20))
                style.direction = direction
                let metrics = try TextMetrics(text, style: style, cache: ShapeCache(capacity: 64))
                let prepared = try PreparedText(text, style: style)
                for width in stride(from: 20.0, through: 160.0, by: 0.5) {
                    let layout = try prepared.layout(width: width, maxLines: Int?.none)
                    let measured = metrics.withView { $0.lines(width: width, maxLines: Int?.none).lines }
                    #expect(measured.map(\.width) == layout.lines.map(\.width))
                    for i in layout.lines.indices {
                        guard let drawn = drawnWidth(layout, line: i) else { continue }
                        #expect(abs(drawn - measured[i].width) < 0.001, "\(text) \(direction) at \(width): line \(i)")
                    }
                }
            }
        }
    }

    /// Chromium lays out a line holding only a word's last letter, joined to the letter before
    /// it, and the space ending its right-to-left item without that letter: not drawn, its font
    /// not in the `line-height: normal` box (docs/CHROMIUM.md §3(n), thirteenth round).
    /// Liberation Serif 39.5 px (Arabic from DejaVu Sans), measured in Chromium: `السعر ١` at
    /// 40.6 px is `ال` / `س` / `ع` / `ر` / `١`, 234 px (the `ر` line 46 px, not 47); at 31.6 px
    /// the same lines are 235 px (the letter shaped alone and the space do not fit: 2027/64 px);
    /// at 45 px `ال` / `س` / `عر` / `١`, 188 px (two letters left: kept); `السعر` alone at 40.6 px
    /// 188 px (no space ends the item there).
    @Test func aLineOfAWordsLastJoinedLetterBeforeItsItemsEndDropsThatLettersFont() throws {
        let serif = TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 39.5, lineHeight: .normal, direction: .rtl)
        let text = "السعر ١"
        let p = try prepare(text, serif)
        #expect(try lineTexts(p, width: 40.6) == ["ال", "س", "ع", "ر", "١"])
        #expect(try p.layout(width: 40.6).height == 234)
        #expect(try p.layout(width: 40.6).height(ofLine: 3) == 46)
        #expect(try TextMetrics(text, style: serif).measure(width: 40.6).height == 234)
        #expect(try p.layout(width: 31.6).height == 235)
        #expect(try lineTexts(p, width: 45) == ["ال", "س", "عر", "١"])
        #expect(try p.layout(width: 45).height == 188)
        #expect(try prepare("السعر", serif).layout(width: 40.6).height == 188)
        // Punctuation after the letter stays (`ط,`, 24.5 px at 37 px: 85 px in Chromium, not 86).
        let small = TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 24.5, lineHeight: .normal)
        #expect(try lineTexts("فقط, 142", width: 37, small) == ["فق", "ط,", "142"])
        #expect(try prepare("فقط, 142", small).layout(width: 37).height == 85)
    }

    /// With `white-space: pre-wrap` Chromium keeps the letter (docs/CHROMIUM.md §3(n), twentieth
    /// round): `السعر ١` in Liberation Serif 39.5 px is 235 px at every width from 2026/64 to
    /// 2613/64 px (the `ر` line's box 31.67 px: the letter alone and the space, drawn); Georgia
    /// (missing) 34 px, `السعر ١٢٠` at 29.1 px is 280 px (`random/arabic/0932`, seed 8801).
    @Test func aPreWrapLineOfAWordsLastJoinedLetterKeepsThatLettersFont() throws {
        let serif = TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 39.5, lineHeight: .normal,
                              direction: .rtl, whiteSpace: .preWrap)
        let p = try prepare("السعر ١", serif)
        #expect(try lineTexts(p, width: 40.6) == ["ال", "س", "ع", "ر", "١"])
        #expect(try p.layout(width: 40.6).height == 235)
        #expect(try p.layout(width: 40.6).height(ofLine: 3) == 47)
        #expect(try TextMetrics("السعر ١", style: serif).measure(width: 40.6).height == 235)
        let georgia = TextStyle(font: FontDescriptor(family: "Georgia, \"Times New Roman\", serif"), size: 34,
                                lineHeight: .normal, direction: .rtl, whiteSpace: .preWrap)
        #expect(try TextMetrics("السعر ١٢٠", style: georgia).measure(width: 29.1).height == 280)
    }

    /// The joined stretch a right-to-left run's last word ends in (Unicode's Arabic joining
    /// types): `السعر ` ends in `لسعر` (`ا` joins nothing after it), `مود ` in `د` alone (`و` joins
    /// nothing after it: no stretch), `فقط, ` in `فقط` with one unit of punctuation after it; a
    /// run not ending in a space has none.
    @Test func joinedRestOfARunsLastWord() {
        func rest(_ s: String) -> [Int]? {
            let u = Array(s.utf16)
            return u.withUnsafeBufferPointer { ArabicJoining.joinedRest($0, 0, u.count) }.map { [$0.first, $0.tail] }
        }
        #expect(rest("السعر ") == [1, 0])
        #expect(rest("x سعر  ") == [2, 0])
        #expect(rest("مود ") == nil)
        #expect(rest("السعر") == nil)
        #expect(rest("بَب ") == [0, 0])
        #expect(rest("فقط, ") == [0, 1])
    }

    /// Chromium checks an overflow-wrap break before a joined Arabic letter (HarfBuzz: unsafe to
    /// break) by the exact width of the reshaped end against the item's positions, each the
    /// width from an offset to the item's end rounded up to 1/64 px, and a line starting at such
    /// a letter gets the width its reshaped start's rounding leaves (docs/CHROMIUM.md §3(n),
    /// fourteenth round). Measured in Chromium 156 (each expectation fails without the rule):
    @Test func aBreakBeforeAJoinedLetterIsCheckedAgainstTheItemsRoundedPositions() throws {
        let sans = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 12.73, lineHeight: .pixels(16), direction: .rtl)
        // `ه` (429.26/64 px) after `ذ` must fit 1229 − 1592 + 792 = 429/64 px: it does not.
        #expect(try lineTexts("دددددد ذهب", width: 791.0 / 64, sans) == ["دد", "دد", "دد", "ذ", "ه", "ب"])
        // The line starting at `و` (unsafe: `م` joins it) has 782/64 px, not 783: `ود` (782.996/64) does not fit.
        #expect(try lineTexts("اااااااااا مود", width: 782.0 / 64, sans) == ["ااا", "ااا", "ااا", "ا", "م", "و", "د"])
        #expect(try TextMetrics("اااااااااا مود", style: sans).measure(width: 782.0 / 64).lineCount == 7)
        // The text after the word moves the positions' rounding: `المس` fits 1670/64 px before
        // ` ذ`, not before ` ذهب` (Foo, Bar, sans-serif → DejaVu Sans; the space from the CJK font).
        let list = TextStyle(font: FontDescriptor(family: "Foo, Bar, sans-serif"), size: 12.73, lineHeight: .pixels(16),
                             direction: .rtl, lang: "zh-Hant")
        #expect(try lineTexts("المساء ذ", width: 1670.0 / 64, list) == ["المس", "اء ذ"])
        #expect(try lineTexts("المساء ذهب", width: 1670.0 / 64, list) == ["الم", "ساء", "ذهب"])
        // A line starting at a joined letter holds the words after the word's rest to the same
        // corrected width: `بكم` does not join `ا` on the line (fits by advances, not by positions).
        #expect(try lineTexts("مرحبا بكم في موقعنا الجديد", width: 1724.0 / 64, sans)
                == ["مرحب", "ا", "بكم", "في", "موقع", "نا", "الجدي", "د"])
        #expect(try TextMetrics("مرحبا بكم في موقعنا الجديد", style: sans).measure(width: 1724.0 / 64).lineCount == 8)
        // The grid's corpus-ar/0368: DejaVu Serif 36.5 px (Arabic from DejaVu Sans) at 29 px.
        let serif = TextStyle(font: FontDescriptor(family: "DejaVu Serif"), size: 36.5, lineHeight: .pixels(38.9), direction: .rtl, lang: "ar")
        #expect(try lineTexts("ولونها", width: 29, serif) == ["ول", "و", "نه", "ا"])
    }

    /// Letters the letter before joins (Unicode's Arabic joining types, marks skipped): in
    /// `السلام` the `س`, the second `ل` and the second `ا` are; the first `ل` and the `م`, after an
    /// alef (which joins nothing after it), are not; a mark is not.
    @Test func joinedLettersAreThoseTheLetterBeforeJoins() {
        func joined(_ s: String) -> [Int] {
            let u = Array(s.utf16)
            return u.withUnsafeBufferPointer { b in (0..<u.count).filter { ArabicJoining.joinsLetterBefore(b, $0) } }
        }
        #expect(joined("السلام") == [2, 3, 4])
        #expect(joined("بَب") == [2])
        #expect(joined("a ب") == [])
        #expect(joined("ـب") == [1])
        // The table the joining types are read from agrees with the ranges, unit by unit.
        let differing = (0...0xFFFF).filter { ArabicJoining.kind(UInt16($0)) != ArabicJoining.kindBySwitch(UInt16($0)) }
        #expect(differing.isEmpty)
    }
}
