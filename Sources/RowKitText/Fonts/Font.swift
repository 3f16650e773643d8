import Synchronization

/// One loaded font face: a file (and face index) with its HarfBuzz font and vertical metrics.
///
/// Fonts are created by ``FontLibrary`` only, live as long as the process, and are immutable
/// after creation, so they are shared freely across threads (HarfBuzz fonts are thread-safe
/// for shaping once set up).
public final class Font: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// Small dense number, unique per loaded face; used in cache keys.
    public let id: Int32
    /// The font file.
    public let path: String
    /// Face index inside a collection (TTC), else 0.
    public let faceIndex: Int32
    /// The family name the file declares.
    public let family: String
    /// Design units per em; glyph advances are shaped in these units.
    public let unitsPerEm: Int32
    /// hhea ascender and descender (descender positive, below the baseline) and line gap, in design units.
    public let ascender: Int32, descender: Int32, lineGap: Int32
    /// True for color fonts (emoji).
    public let hasColorGlyphs: Bool
    /// Pixels per em of the bitmap strike, for fonts whose glyphs are bitmaps (CBDT emoji):
    /// their advances scale from the strike, as FreeType and Skia do, not from the outline units.
    public let bitmapStrikePPEM: Int32?
    /// Whether the font kerns pairs that involve the space glyph (e.g. Liberation Serif): then
    /// whole runs are shaped across words, as a browser does, instead of word by word.
    public let kernsAcrossSpaces: Bool
    /// Whether the font has the OpenType `halt` feature (half-width CJK punctuation).
    public let hasHalfWidthPunctuation: Bool
    /// The face's own weight (OS/2 weight class, 1...1000) and whether it is italic or oblique:
    /// a style asking for more is synthesized when drawing (``FontSynthesis``).
    public let faceWeight: Int, faceIsItalic: Bool
    /// Whether this is the face's variant that draws U+2028 and U+2029 with its space glyph
    /// even where the face has glyphs of its own — what Chromium does after text of a fallback
    /// font (``FontLibrary/separatorsAsSpaceVariant(of:)``, docs/CHROMIUM.md §3(m)).
    let drawsSeparatorsAsSpace: Bool
    /// The HarfBuzz font text is shaped with: the face's font wrapped in one that maps a missing
    /// U+2028/U+2029 to the space glyph, as Chromium does (every U+2028/U+2029, in the variant
    /// that ``drawsSeparatorsAsSpace``).
    let hbFont: HBFont
    /// The face's plain HarfBuzz font.
    private let baseFont: HBFont
    /// Clusters shaped to decide coverage, bounded (see ``covers(cluster:)``).
    private let coverage = Mutex<[[UInt16]: Bool]>([:])
    /// Punctuation spacing facts per shaping language id, size and slant, bounded (see
    /// ``punctuationSpacing(_:size:synthesis:)``).
    private let spacing = Mutex<[SpacingKey: PunctuationSpacing]>([:])

    /// Whether `halt` takes effect in a run shaped in a given script, per raw `hb_script_t`
    /// (see ``halfWidthApplies(inScript:)``; at most one entry per script HarfBuzz knows).
    private let halfWidthByScript = Mutex<[UInt32: Bool]>([:])

    /// What the punctuation spacing facts depend on: the language, FreeType's scale of the size
    /// (the pixel bounds change with it) and what drawing fakes (slant, emboldening).
    private struct SpacingKey: Hashable {
        var language: UInt16
        var scale: Int64
        var synthesis: FontSynthesis
    }

    init?(id: Int32, path: String, faceIndex: Int32, family: String, drawsSeparatorsAsSpace: Bool = false) {
        guard let face = HarfBuzz.loadFace(path: path, index: faceIndex) else { return nil }
        let upem = face.unitsPerEm
        self.id = id
        self.path = path
        self.faceIndex = faceIndex
        self.family = family
        self.unitsPerEm = upem
        self.baseFont = face.plainFont
        self.drawsSeparatorsAsSpace = drawsSeparatorsAsSpace
        if drawsSeparatorsAsSpace {
            self.hbFont = HarfBuzz.separatorsAsSpaceFont(over: face.plainFont)
            HarfBuzz.destroy(face.shapingFont)
        } else {
            self.hbFont = face.shapingFont
        }
        self.faceWeight = Int(face.weight.rounded())
        self.faceIsItalic = face.isItalic
        var ascender = face.ascender
        var descender = -face.descender
        if ascender == 0 && descender == 0 {
            ascender = upem * 4 / 5
            descender = upem / 5
        }
        self.ascender = ascender
        self.descender = descender
        self.lineGap = max(0, face.lineGap)
        self.hasColorGlyphs = face.hasColorGlyphs
        self.bitmapStrikePPEM = face.bitmapStrikePPEM
        self.hasHalfWidthPunctuation = face.hasHalfWidthPunctuation
        self.kernsAcrossSpaces = face.kernsAcrossSpaces
    }

    /// The part of a `line-height: normal` line box this font needs above and below the
    /// baseline at `size`, as Chromium computes it (docs/CHROMIUM.md §5): the rounded ascent and
    /// descent, with the rounded line gap split as whole pixels, the smaller half above — of the
    /// font made at Chromium's platform size: 37.17 px is a 37.16 px font, whose DejaVu ascent
    /// rounds to 34, not 35 (measured on 80 sizes, docs/CHROMIUM.md §5). A size a ``TextStyle``
    /// would not accept (NaN, infinite, not above 0, over 10,000 px) gives (0, 0).
    public func normalLineMetrics(size: Double) -> (above: Double, below: Double) {
        guard size.isFinite, size > 0, size <= 10_000 else { return (0, 0) }
        let scale = Double(Self.platformSize(size)) / Double(unitsPerEm)
        let gap = (Double(lineGap) * scale).rounded()
        let above = (gap / 2).rounded(.down)
        return ((Double(ascender) * scale).rounded() + above, (Double(descender) * scale).rounded() + gap - above)
    }

    /// FreeType's 16.16 scale for a size: `FT_DivFix(floor(size × 64), unitsPerEm)` — Skia hands
    /// FreeType the size in 26.6 truncated (measured at fractional sizes, docs/CHROMIUM.md §1) —
    /// of the size Chromium's font cache keeps, ``platformSize(_:)``.
    @inline(__always) func fixedScale(size: Double) -> Int64 {
        let size26_6 = Int64((Self.platformSize(size) * 64).rounded(.down))
        return ((size26_6 << 16) + Int64(unitsPerEm) / 2) / Int64(unitsPerEm)
    }

    /// The size a font is made at: Chromium's font cache keys sizes in hundredths of a pixel,
    /// truncated from a 32-bit float product (`size × 100`), and makes the font at that key's
    /// size — so 19.97 px is a 19.96 px font (19.97f × 100 = 1996.9999) and 20.3 px a 20.29 px one,
    /// while 19.99 px stays (19.99f × 100 rounds to 1999.0). Measured on 23 sizes, docs/CHROMIUM.md §1.
    @inline(__always) static func platformSize(_ size: Double) -> Float {
        let hundredths = (Float(size) * 100).rounded(.towardZero)
        return hundredths / 100
    }

    /// An advance in design units as pixels in 16.16 fixed point, rounded as FreeType and
    /// Chromium round it (`FT_MulDiv(units, scale, 64)`); bitmap fonts scale from their strike.
    @inline(__always) func fixedAdvance(_ units: Int32, scale: Int64, size: Double) -> Int64 {
        if let ppem = bitmapStrikePPEM {
            let strikePixels = (Int64(units) * Int64(ppem) * 2 + Int64(unitsPerEm)) / (2 * Int64(unitsPerEm))
            return Int64((Double(strikePixels) * Double(Self.platformSize(size)) / Double(ppem) * 65536).rounded())
        }
        let product = Int64(units) * scale
        return product >= 0 ? (product + 32) >> 6 : -((-product + 32) >> 6)
    }

    /// The advance, 16.16 px, of a space character the font lacks and HarfBuzz draws with its
    /// space glyph (`_hb_ot_shape_fallback_spaces`): a fraction of the em at HarfBuzz's scale,
    /// which Chromium sets from the size itself (`SkiaScalarToHarfBuzzPosition`), not from
    /// FreeType's 26.6 size as glyph advances are. So four U+2003 in Liberation Serif Bold at
    /// 16.08 px are 64.328125 px, not 4 × 16.078125 (measured, docs/CHROMIUM.md §1). Nil for
    /// other characters, for spaces the font has and for bitmap fonts.
    func fallbackSpaceAdvance(_ unit: UInt16, size: Double) -> Int64? {
        let divisor: Int64
        switch unit {
        case 0x2001, 0x2003: divisor = 1
        case 0x2000, 0x2002: divisor = 2
        case 0x2004: divisor = 3
        case 0x2005: divisor = 4
        case 0x2009: divisor = 5
        case 0x2006: divisor = 6
        case 0x200A: divisor = 16
        default: return nil
        }
        guard bitmapStrikePPEM == nil, !covers(UInt32(unit)) else { return nil }
        let em = Int64(Self.platformSize(size) * 65536)
        return (em + divisor / 2) / divisor
    }

    deinit {
        HarfBuzz.destroy(hbFont)
        HarfBuzz.destroy(baseFont)
    }

    /// Whether the font maps `scalar` to a glyph of its own (U+2028 and U+2029 always: see
    /// `hbFont`).
    public func covers(_ scalar: UInt32) -> Bool {
        HarfBuzz.nominalGlyph(scalar == 0x2028 || scalar == 0x2029 ? hbFont : baseFont, scalar) != nil
    }

    /// Whether the face has a glyph of its own for U+2028 or U+2029 (`scalar`), which Chromium
    /// draws except after text of a fallback font (docs/CHROMIUM.md §3(m)).
    func hasOwnSeparatorGlyph(_ scalar: UInt32) -> Bool {
        HarfBuzz.nominalGlyph(baseFont, scalar) != nil
    }

    /// The HarfBuzz font to shape `text` with: ``hbFont`` when the text holds U+2028 or U+2029,
    /// else the face's own font (the same glyphs, without a callback per character).
    func shapingFont(for text: UnsafeBufferPointer<UInt16>) -> HBFont {
        for unit in text where unit == 0x2028 || unit == 0x2029 { return hbFont }
        return baseFont
    }

    /// Whether HarfBuzz shapes `cluster` (UTF-16) with this font without a .notdef glyph: how
    /// Chromium decides that a font renders a character. It differs from the character map when
    /// HarfBuzz decomposes (Noto Sans has no ≠ but shapes it as = + U+0338) or composes
    /// (e + U+0302 + U+0323 → ệ). Shaped answers are cached per font, at most 8192.
    func shapes(cluster: UnsafeBufferPointer<UInt16>) -> Bool {
        guard !cluster.isEmpty, cluster.count <= 64 else { return false }
        let key = Array(cluster)
        if let known = coverage.withLock({ $0[key] }) { return known }
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        let glyphs = HarfBuzz.shape(cluster.baseAddress, count: cluster.count, item: 0..<cluster.count, font: shapingFont(for: cluster),
                                    rightToLeft: nil, language: nil, buffer: buffer)
        var shaped = glyphs.count > 0
        for i in 0..<glyphs.count where glyphs.glyph(i) == 0 { shaped = false }
        coverage.withLock { table in
            if table.count >= 8192 { table.removeAll(keepingCapacity: true) }
            table[key] = shaped
        }
        return shaped
    }

    /// How this font spaces CJK punctuation in `language` at `size`, drawn with
    /// `synthesis` (read once per language, size and synthesis; at most 256 kept): see
    /// ``PunctuationSpacing``.
    func punctuationSpacing(_ language: ShapingLanguage, size: Double, synthesis: FontSynthesis) -> PunctuationSpacing {
        guard hasHalfWidthPunctuation else { return .none }
        let key = SpacingKey(language: language.id, scale: fixedScale(size: size), synthesis: synthesis)
        if let known = spacing.withLock({ $0[key] }) { return known }
        let facts = PunctuationSpacing(font: baseFont, hasHalt: true, language: language.language, scale: key.scale,
                                       unitsPerEm: unitsPerEm, synthesis: synthesis)
        spacing.withLock { table in
            if table.count >= 256 { table.removeAll(keepingCapacity: true) }
            table[key] = facts
        }
        return facts
    }

    /// Whether this font's half-width punctuation (`halt`) applies in a run HarfBuzz shapes in
    /// `script` (a raw `hb_script_t`; 0 or Common: yes): HarfBuzz applies no positioning to a
    /// Hebrew run in a font whose GPOS has no Hebrew script, so a CJK `”` after Hebrew keeps
    /// its full width, at a line end too (Chromium the same, docs/CHROMIUM.md §3(e)). Probed
    /// once per script.
    func halfWidthApplies(inScript script: UInt32) -> Bool {
        guard hasHalfWidthPunctuation else { return false }
        guard script != 0, script != HarfBuzz.commonScript else { return true }
        if let known = halfWidthByScript.withLock({ $0[script] }) { return known }
        let applies = HarfBuzz.halfWidthApplies(hbFont, script: script)
        halfWidthByScript.withLock { $0[script] = applies }
        return applies
    }

    /// The glyph `scalar` maps to, or nil.
    public func nominalGlyph(_ scalar: UInt32) -> UInt32? {
        HarfBuzz.nominalGlyph(hbFont, scalar)
    }

    /// Advance of `scalar`'s nominal glyph in design units, or nil when the font lacks it.
    func nominalAdvance(_ scalar: UInt32) -> Int32? {
        guard let glyph = HarfBuzz.nominalGlyph(hbFont, scalar) else { return nil }
        return HarfBuzz.advance(hbFont, glyph: glyph)
    }

    /// The family and the file (with the face index) the font was loaded from.
    public var description: String { "\(family) (\(path)#\(faceIndex))" }

    /// Fonts are equal when they are the same loaded face (the library loads each face once).
    public static func == (a: Font, b: Font) -> Bool { a === b }
    /// Hashes the font's library-wide id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
