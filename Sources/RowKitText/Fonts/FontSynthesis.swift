/// What a drawn font must fake because its face lacks the style's weight or slant, as
/// Chromium (Skia) fakes it (docs/CHROMIUM.md §2.5). Synthesis never changes advances: the
/// measured layout stays the drawn layout; only the ink grows (bold) or leans (italic).
public struct FontSynthesis: Sendable, Hashable {
    /// Embolden the outlines (FreeType's `FT_Outline_Embolden` by size/24, Skia's amount).
    public var bold: Bool
    /// Slant the glyphs by ``italicSkew``.
    public var italic: Bool

    /// A synthesis that emboldens and/or slants the face's outlines as Chromium fakes them.
    public init(bold: Bool = false, italic: Bool = false) {
        self.bold = bold
        self.italic = italic
    }

    /// Nothing to fake.
    public static let none = FontSynthesis()

    /// Horizontal shear of synthetic italic: x moves right by a quarter of the height above the
    /// baseline (Skia's `setSkewX(-1/4)`, about 14°).
    public static let italicSkew = 0.25

    /// How far synthetic bold grows the outline on each side, in pixels at `size`: FreeType's
    /// emboldening by `size / 24` in total, half of it per side.
    public static func boldOutset(size: Double) -> Double { size / 48 }
}

extension FontLibrary {
    /// What drawing must fake for `font` in text of `style`, by the rule of the font's origin:
    /// - a font of the style's own families (or the standard font, or a font file): bold when
    ///   the weight asked for is more than 200 above the face's own, italic when a slant is asked
    ///   for and the face is upright (Chromium's `FontCache::CreateFontPlatformData`);
    /// - the family's normal-style face used for bold or italic text: bold at weights ≥ 600,
    ///   italic when slanted (`FallbackOnStandardFontStyle`);
    /// - a system fallback font: bold at weights ≥ 600 when the face is lighter than 600,
    ///   italic when slanted and the face is upright (`PlatformFallbackFontForCharacter`).
    /// Color (emoji) fonts are never synthesized.
    public func synthesis(for font: Font, style: TextStyle) -> FontSynthesis {
        if font.hasColorGlyphs { return .none }
        let weight = style.font.weight.value
        let slanted = style.font.slant != .normal
        if weight < 600 && !slanted && weight <= font.faceWeight + 200 { return .none }
        let chain = try? chain(for: style.font, language: style.lang)
        if style.font.path != nil || chain?.fonts.contains(where: { $0 === font }) == true {
            return FontSynthesis(bold: weight > font.faceWeight + 200, italic: slanted && !font.faceIsItalic)
        }
        if let normal = chain?.normalStyle, normal === font {
            return FontSynthesis(bold: weight >= 600, italic: slanted)
        }
        return FontSynthesis(bold: weight >= 600 && font.faceWeight < 600, italic: slanted && !font.faceIsItalic)
    }
}
