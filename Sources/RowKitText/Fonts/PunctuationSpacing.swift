/// What a font's glyphs say about CJK punctuation spacing in one content language (Chromium's
/// `HanKerning::FontData`, read the same way): whether the font can trim punctuation at all (it
/// has the OpenType `halt` feature), and the classes of the characters whose glyph placement
/// varies by font and language — full stops and commas, the colon, the semicolon and the curly
/// quotes — found from their ink in the glyph box.
struct PunctuationSpacing: Sendable, Equatable {
    /// Whether the font trims punctuation (`halt`, and the probe characters shape one glyph each).
    var enabled: Bool
    /// The class of `、。，．` (all four alike, else `other`).
    var dot: CJKPunctuation.Kind
    /// The class of `：`.
    var colon: CJKPunctuation.Kind
    /// The class of `；`.
    var semicolon: CJKPunctuation.Kind
    /// Whether `“‘` sit in their box's right half and `”’` in its left half (fullwidth quotes,
    /// as Chinese fonts draw them; Japanese and Korean ones are proportional).
    var quotesFullwidth: Bool
    /// Whether a closing quote ending a line gives up its end half: its glyph, unslanted and
    /// unrounded, sits in its box's left half and the opening one in the right half. Chromium
    /// trims it at a line end even where the pixel bounds of a slanted or small glyph make the
    /// quotes narrow for pairs (measured, docs/CHROMIUM.md §3(e)).
    var quotesTrimAtLineEnd: Bool

    /// A font that trims nothing.
    static let none = PunctuationSpacing(enabled: false, dot: .other, colon: .other, semicolon: .other, quotesFullwidth: false,
                                         quotesTrimAtLineEnd: false)

    /// The probe characters: dots, colon, semicolon, then the opening and closing quotes.
    private static let probe: [UInt32] = [0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0x201C, 0x2018, 0x201D, 0x2019]

    /// Reads the facts from `font` (HarfBuzz, at its face's scale, `unitsPerEm`) shaped in
    /// `language` at `scale` (FreeType's 16.16 scale of the size, ``Font/fixedScale(size:)``),
    /// slanted and emboldened as `synthesis` draws it; `hasHalt` says whether the font has the
    /// `halt` feature.
    ///
    /// Chromium classes a glyph by Skia's glyph bounds against half its advance: FreeType's
    /// control box of the outline scaled to 26.6 pixels (after the synthetic-italic skew, grown by
    /// synthetic bold's half strength a side), rounded out to whole pixels — so the classes change with the size and the slant (measured on 2,880
    /// probes, docs/CHROMIUM.md §3(e)): Noto Serif CJK SC Bold's `”` ends at 0.468 em, 11.23 px at
    /// 24 px but 12 px whole, more than the 11.99996 px half advance, so its quotes are not
    /// fullwidth there (at 31 px they are).
    init(font: HBFont, hasHalt: Bool, language: HBLanguage?, scale: Int64, unitsPerEm: Int32, synthesis: FontSynthesis) {
        let italic = synthesis.italic
        guard hasHalt, let glyphs = HarfBuzz.glyphOutlines(font, Self.probe, language: language) else {
            self = .none
            return
        }
        /// FreeType's `FT_MulFix`: `a × b / 65536`, rounded half away from zero.
        func mulFix(_ a: Int64, _ b: Int64) -> Int64 {
            let p = a * b
            return p >= 0 ? (p + 0x8000) >> 16 : -((-p + 0x8000) >> 16)
        }
        /// (advance, left, right) in 16.16 px: the advance as FreeType scales it, the bounds in
        /// whole pixels.
        typealias Glyph = (glyph: UInt32, advance: Int64, left: Int64, right: Int64)
        // Synthetic bold: FreeType's emboldening by a 24th of the size (26.6), half on each side,
        // after the slant (Skia emboldens the transformed outline before taking its box).
        let outset = synthesis.bold ? mulFix(Int64(unitsPerEm), scale) / 24 / 2 : 0
        let boxes: [Glyph] = glyphs.map { g in
            let advance = (Int64(g.advance) * scale + 32) >> 6
            guard !g.points.isEmpty else { return (g.glyph, advance, 0, 0) }
            var low = Int64.max, high = Int64.min
            for p in g.points {
                var x = mulFix(Int64((Double(p.x) + Double(g.xOffset)).rounded()), scale)
                if italic { x += mulFix(mulFix(Int64(Double(p.y).rounded()), scale), Int64(FontSynthesis.italicSkew * 65536)) }
                low = min(low, x)
                high = max(high, x)
            }
            low -= outset
            high += outset
            // 26.6 → whole pixels, rounded out, → 16.16.
            return (g.glyph, advance, (low >> 6) << 16, ((high + 63) >> 6) << 16)
        }
        /// The class of one glyph from its bounds against its half advance.
        func kind(_ g: Glyph, half: Double) -> CJKPunctuation.Kind {
            let left = Double(g.left), right = Double(g.right)
            if right <= half { return .close }
            if left >= half { return .open }
            if right - left <= half && left >= half / 2 { return .middle }
            return .other
        }
        /// The common class of a group: the first glyph's, when every glyph has its advance and
        /// class; .notdef glyphs are skipped.
        func kind(_ group: ArraySlice<Glyph>) -> CJKPunctuation.Kind {
            let present = group.filter { $0.glyph != 0 }
            guard let first = present.first else { return .other }
            let half = Double(first.advance) / 2
            let k = kind(first, half: half)
            for g in present.dropFirst() where g.advance != first.advance || kind(g, half: half) != k { return .other }
            return k
        }
        func single(_ g: Glyph) -> CJKPunctuation.Kind { g.glyph == 0 ? .other : kind(g, half: Double(g.advance) / 2) }
        self.enabled = true
        self.dot = kind(boxes[0..<4])
        self.colon = single(boxes[4])
        self.semicolon = single(boxes[5])
        self.quotesFullwidth = kind(boxes[6..<8]) == .open && kind(boxes[8..<10]) == .close
        // The ink in design units, as drawn upright.
        let upright: [Glyph] = glyphs[6..<10].map { g in
            guard !g.points.isEmpty else { return (g.glyph, Int64(g.advance), 0, 0) }
            let xs = g.points.map { Int64((Double($0.x) + Double(g.xOffset)).rounded()) }
            return (g.glyph, Int64(g.advance), xs.min()!, xs.max()!)
        }
        self.quotesTrimAtLineEnd = kind(upright[0..<2]) == .open && kind(upright[2..<4]) == .close
    }

    private init(enabled: Bool, dot: CJKPunctuation.Kind, colon: CJKPunctuation.Kind, semicolon: CJKPunctuation.Kind, quotesFullwidth: Bool,
                 quotesTrimAtLineEnd: Bool) {
        self.enabled = enabled
        self.dot = dot
        self.colon = colon
        self.semicolon = semicolon
        self.quotesFullwidth = quotesFullwidth
        self.quotesTrimAtLineEnd = quotesTrimAtLineEnd
    }
}
