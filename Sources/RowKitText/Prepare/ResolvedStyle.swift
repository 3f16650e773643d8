/// A text style with its font resolved, and the numbers every text of that style shares: line
/// height, ascent and descent, and the hyphen, space and ellipsis advances.
struct ResolvedStyle {
    let style: TextStyle
    let primary: Font
    let lineHeight: Double
    let ascent: Double, descent: Double
    let hyphenWidth: Int32, spaceWidth: Int32, ellipsisWidth: Int32
    /// The primary font's room above and below the baseline with `line-height: normal`.
    let normalMetrics: (above: Double, below: Double)

    /// Checks the style's numbers and resolves its font through `fonts`.
    init(_ style: TextStyle, fonts: FontLibrary) throws(TextError) {
        guard style.size.isFinite, style.size > 0, style.size <= 10_000 else {
            throw .invalidNumber(name: "font size", value: style.size)
        }
        if case .pixels(let px) = style.lineHeight, !(px.isFinite && px >= 0 && px <= 100_000) {
            throw .invalidNumber(name: "line height", value: px)
        }
        let font = try fonts.primaryFont(for: style)
        self.style = style
        self.primary = font
        // The font is made at Chromium's platform size (Font.platformSize), so its ascent and
        // descent — where the baseline sits — are that size's, as in normalLineMetrics: one
        // font's metrics for the line box and the baseline.
        let scale = Double(Font.platformSize(style.size)) / Double(font.unitsPerEm)
        switch style.lineHeight {
        // Chromium snaps a line height to its 1/64 px layout unit (rounding to nearest).
        case .pixels(let px): lineHeight = (px * 64).rounded() / 64
        case .normal:
            // Chromium rounds each metric at the size, then adds them (Font.normalLineMetrics).
            let m = font.normalLineMetrics(size: style.size)
            lineHeight = m.above + m.below
        }
        ascent = Double(font.ascender) * scale
        descent = Double(font.descender) * scale
        func advance(_ scalar: UInt32) -> Int32 {
            clamp(font.fixedAdvance(font.nominalAdvance(scalar) ?? 0, scale: font.fixedScale(size: style.size), size: style.size))
        }
        hyphenWidth = advance(font.covers(0x2010) ? 0x2010 : 0x2D)
        spaceWidth = advance(0x20)
        ellipsisWidth = advance(0x2026)
        normalMetrics = font.normalLineMetrics(size: style.size)
    }
}
