import Testing
@testable import RowKitText

/// `Builder.afreshFont` (Prepare/LineEdgeReshaping.swift), which remembers per style context the font a
/// chooser started afresh takes for a short piece (line starts and ends Chromium reshapes), gives
/// what a fresh chooser gives: pieces asked in several orders, in styles whose fallback differs,
/// switching contexts back and forth.
@Suite struct ShapedAfreshTests {
    @Test func rememberedFontsAreTheFreshChoosersFonts() throws {
        let pieces = ["《", "》", "「", "」", "。", "、", "“", "”", "（", "）", "・", "a", "ก", "ب", "漢", "👍", "e\u{301}", "…", "‘", "﹁"]
        let styles = [TextStyle(font: FontDescriptor(family: "Noto Sans CJK JP"), size: 16, lang: "ja"),
                      TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 13),
                      TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 21, lang: "zh")]
        let scratch = PrepareScratch.current
        let contexts = try styles.map { try scratch.context($0, fonts: .shared, cache: .shared) }
        var builder = Builder(contexts[0].resolved, fonts: .shared, cache: .shared, fallback: contexts[0].fallback)
        var differing = 0
        for round in 0..<3 {
            for (k, context) in (round == 1 ? Array(contexts.reversed()) : contexts).enumerated() {
                builder.reset(context)
                for piece in (k % 2 == 0 ? pieces : pieces.reversed()) {
                    let units = Array(piece.utf16)
                    let (remembered, fresh) = units.withUnsafeBufferPointer { u in
                        var chooser = FontFallback(style: context.style, primary: context.resolved.primary, fonts: .shared)
                        return (builder.afreshFont(u), chooser.font(for: u, 0, u.count))
                    }
                    #expect(remembered === fresh, "\(piece) in \(context.style.font.family)")
                    if fresh !== context.resolved.primary { differing += 1 }
                }
            }
        }
        #expect(differing > 0)  // some pieces did fall back, so a wrong context's answer would show
    }
}
