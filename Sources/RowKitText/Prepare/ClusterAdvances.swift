/// Clusters of several advancing glyphs measure as the sum of their glyphs' pixel advances.
///
/// A glyph's advance becomes pixels on its own: FreeType and Skia round each glyph's advance
/// (Chromium gives HarfBuzz one 16.16 advance per glyph), bitmap (color emoji) glyphs advance by
/// whole strike pixels each, and the drawing form places each glyph by that value
/// (LineGlyphs.swift). A cluster of several advancing glyphs — a Devanagari conjunct with its
/// half forms, a vowel sign drawn before its consonant, an emoji sequence that the script does
/// not ligate — is therefore the sum of its glyphs' rounded advances, not the rounding of its
/// summed design units. The two differ by a few 1/65536 px, which matters where Chromium rounds
/// a bidi level run up to 1/64 px (BidiItemRounding): `हिन्दी` in Noto Sans Devanagari 22 px
/// summed 2/65536 px more than its glyphs, so its level run's pad came out 1022/65536 instead of
/// 0 and the line measured 1/64 px wider than it was drawn.
enum ClusterAdvances {
    /// Adds to the first unit of each cluster of `shaped` (placed at unit `start` of the text)
    /// with two or more advancing glyphs the difference between its glyphs' rounded advances and
    /// what its units were credited (``ClusterSplit`` may have spread the cluster over its
    /// graphemes). Clusters of one advancing glyph are left alone (a space the font lacks keeps
    /// HarfBuzz's fallback width).
    static func credit(_ shaped: ShapedRun, font: Font, size: Double, at start: Int, into unitAdvances: inout [Int32]) {
        let clusters = shaped.glyphClusters, advances = shaped.glyphAdvances
        let n = clusters.count, unitCount = shaped.unitAdvances.count
        let scale = font.fixedScale(size: size)
        var g = 0
        while g < n {
            // One cluster's glyphs are consecutive in HarfBuzz's output.
            let c = clusters[g]
            var sum: Int64 = 0
            var advancing = 0
            var h = g
            while h < n && clusters[h] == c {
                if advances[h] != 0 {
                    sum += font.fixedAdvance(advances[h], scale: scale, size: size)
                    advancing += 1
                }
                h += 1
            }
            if advancing >= 2 {
                // The cluster's units run to the next cluster in text order: the next glyph's
                // cluster left to right, the previous one's right to left.
                var end = unitCount
                if h < n && clusters[h] > c { end = Int(clusters[h]) }
                if g > 0 && clusters[g - 1] > c { end = min(end, Int(clusters[g - 1])) }
                var credited: Int64 = 0
                for u in (start + Int(c))..<(start + end) { credited += Int64(unitAdvances[u]) }
                if sum != credited {
                    let first = start + Int(c)
                    unitAdvances[first] = clamp(Int64(unitAdvances[first]) + sum - credited)
                }
            }
            g = h
        }
    }
}
