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

    /// A font that trims nothing.
    static let none = PunctuationSpacing(enabled: false, dot: .other, colon: .other, semicolon: .other, quotesFullwidth: false)

    /// The probe characters: dots, colon, semicolon, then the opening and closing quotes.
    private static let probe: [UInt32] = [0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0x201C, 0x2018, 0x201D, 0x2019]

    /// Reads the facts from `font` (HarfBuzz) shaped in `language`; `hasHalt` says whether the
    /// font has the `halt` feature.
    init(font: HBFont, hasHalt: Bool, language: HBLanguage?) {
        guard hasHalt, let glyphs = HarfBuzz.glyphBounds(font, Self.probe, language: language) else {
            self = .none
            return
        }
        typealias Glyph = (glyph: UInt32, advance: Int32, left: Int32, right: Int32)
        /// The class of one glyph from its ink against its half advance.
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
        self.dot = kind(glyphs[0..<4])
        self.colon = single(glyphs[4])
        self.semicolon = single(glyphs[5])
        self.quotesFullwidth = kind(glyphs[6..<8]) == .open && kind(glyphs[8..<10]) == .close
    }

    private init(enabled: Bool, dot: CJKPunctuation.Kind, colon: CJKPunctuation.Kind, semicolon: CJKPunctuation.Kind, quotesFullwidth: Bool) {
        self.enabled = enabled
        self.dot = dot
        self.colon = colon
        self.semicolon = semicolon
        self.quotesFullwidth = quotesFullwidth
    }
}
