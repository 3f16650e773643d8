import CICU

/// Chooses the font for each grapheme cluster of one paragraph, in Chromium's fallback order.
///
/// One value per paragraph being prepared: it remembers the system fallback font picked in
/// the current script run (Chromium picks a fallback font for the first character of a run
/// that the listed fonts lack, then uses it for every later character of the run it has, so
/// `感激。《红` is all one CJK font while `《` alone may come from another font).
struct FontFallback {
    let style: TextStyle
    let primary: Font
    let fonts: FontLibrary
    /// The primary font maps every printable ASCII character (the common fast path).
    let primaryCoversASCII: Bool
    private var runFallback: Font?
    private var runScript: Int32 = -1

    init(style: TextStyle, primary: Font, fonts: FontLibrary) {
        self.style = style
        self.primary = primary
        self.fonts = fonts
        self.primaryCoversASCII = (0x21...0x7E).allSatisfy { primary.covers(UInt32($0)) }
    }

    /// The font for the grapheme `g0..<g1`, in Chromium's order: with VS16 the color emoji
    /// font; else the style's font, then the standard font (Liberation Serif), then the emoji
    /// font for emoji clusters, then fontconfig's system fallback for the first character. A
    /// font qualifies when it has every visible character of the cluster.
    mutating func font(for units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> Font {
        let first = units[g0]
        if g1 == g0 + 1 && first < 0x7F && first >= 0x20 && primaryCoversASCII { return primary }
        let (base, baseLength) = UnicodeAnalysis.scalar(at: g0, in: units)
        var variation16 = false, variation15 = false, sequence = false
        var i = g0 + baseLength
        while i < g1 {
            let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
            if scalar == 0xFE0F { variation16 = true }
            else if scalar == 0xFE0E { variation15 = true }
            else if scalar == 0x200D || rk_is_emoji_modifier(scalar) != 0 || scalar == 0x20E3 || rk_is_regional_indicator(scalar) != 0 { sequence = true }
            i += length
        }
        let script = rk_script(base)
        if script > 1 && script != 103 && script != runScript {
            runScript = script
            runFallback = nil
        }
        let emojiCluster = !variation15 && (variation16 || sequence || rk_is_emoji_presentation(base) != 0 || rk_is_regional_indicator(base) != 0)
        if variation16 && !variation15, let emoji = fonts.emojiFont, emoji.covers(base) { return emoji }
        if covers(primary, units, g0, g1) { return primary }
        if let standard = fonts.standardFont(weight: style.font.weight, italic: style.font.italic), covers(standard, units, g0, g1) { return standard }
        if emojiCluster, let emoji = fonts.emojiFont, emoji.covers(base) { return emoji }
        if let fallback = runFallback, covers(fallback, units, g0, g1) { return fallback }
        if let system = fonts.systemFallback(for: base) {
            runFallback = system
            return system
        }
        return primary
    }

    /// Whether `font` renders the cluster: it has every visible character, or every character
    /// of the cluster's NFC composition (HarfBuzz composes `e` + U+0302 + U+0323 into `ệ` when
    /// the font has the composed glyph, and Chromium counts that as rendered).
    func covers(_ font: Font, _ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> Bool {
        if coversEach(font, UnsafeBufferPointer(rebasing: units[g0..<g1])) { return true }
        guard g1 - g0 > 1 && g1 - g0 <= 32 else { return false }
        var composed = [UInt16](repeating: 0, count: 64)
        let n = composed.withUnsafeMutableBufferPointer { out in
            rk_compose_nfc(units.baseAddress! + g0, Int32(g1 - g0), out.baseAddress, 64)
        }
        guard n > 0 && Int(n) < g1 - g0 else { return false }
        return composed.withUnsafeBufferPointer { coversEach(font, UnsafeBufferPointer(rebasing: $0[0..<Int(n)])) }
    }

    private func coversEach(_ font: Font, _ units: UnsafeBufferPointer<UInt16>) -> Bool {
        var i = 0
        while i < units.count {
            let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
            if !font.covers(scalar) && rk_is_default_ignorable(scalar) == 0 { return false }
            i += length
        }
        return true
    }
}

extension FontFallback {
    /// What `font(for:_:_:)` carries from one cluster to the next: the script run and the
    /// fallback font chosen in it. A caller that saw a run of clusters chosen from one carried
    /// state may reuse those choices whenever it meets the same clusters in the same state
    /// (PreparedTextBuilder's word cache does). Everything `font(for:)` remembers must be here.
    struct CarriedState: Equatable {
        var script: Int32
        var fallback: Font?

        static func == (a: CarriedState, b: CarriedState) -> Bool { a.script == b.script && a.fallback === b.fallback }
    }

    var carried: CarriedState {
        get { CarriedState(script: runScript, fallback: runFallback) }
        set { runScript = newValue.script; runFallback = newValue.fallback }
    }
}
