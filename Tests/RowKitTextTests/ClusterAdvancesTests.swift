import Testing
@testable import RowKitText

/// Clusters of several advancing glyphs (Prepare/ClusterAdvances.swift).
@Suite struct ClusterAdvancesTests {
    /// Every run's units are credited exactly the sum of its glyphs' advances as drawn (each
    /// glyph rounded on its own), for conjuncts, vowel signs before their consonant, stacked
    /// Myanmar and Khmer clusters and emoji sequences, at sizes 6–40 px in half-pixel steps.
    @Test func unitsOfARunSumItsGlyphsAsDrawn() throws {
        let texts = ["हिन्दी क्षत्रिय", "স্বাধীনতা", "ကျွန်တော်", "ខ្មែរ", "ស្រី👨‍👩‍👧", "ತ್ರಿಕೋನ", "ශ්‍රී ලංකා"]
        var checkedMulti = 0
        for text in texts {
            for half in 12...80 {
                let size = Double(half) / 2
                let p = try PreparedText(text, style: TextStyle(font: FontDescriptor(family: "Noto Sans"), size: size))
                for run in p.runs {
                    let s = run.shaped
                    let scale = run.font.fixedScale(size: p.fontSize)
                    let drawn = (0..<s.glyphCount).reduce(Int64(0)) { $0 + run.font.fixedAdvance(s.glyphAdvances[$1], scale: scale, size: p.fontSize) }
                    let measured = (Int(run.start)..<Int(run.end)).reduce(Int64(0)) { $0 + p.unitAdvance($1) }
                    #expect(measured == drawn, "\(text.debugDescription) at \(size) px, run \(run.start)..<\(run.end)")
                    if s.hasMultiAdvanceClusters { checkedMulti += 1 }
                }
            }
        }
        #expect(checkedMulti > 100, "the texts must hold clusters of several advancing glyphs")
    }

    /// Found by the measured == drawn property: a line whose left-to-right level run holds
    /// `हिन्दी` and ends before an Arabic run. Its run's pad (to the next 1/64 px) was taken from
    /// the units' sum, 2/65536 px more than the glyphs', so the line measured 1/64 px wider
    /// than it was drawn.
    @Test func levelRunWithAConjunctIsPaddedAsDrawn() throws {
        let text = "…brownहिन्दी한국어A.quick漢字ภาษาไทย (x)مرحبا بالعالم"
        let style = TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 22)
        let layout = try PreparedText(text, style: style).layout(width: 465)
        let metrics = try TextMetrics(text, style: style)
        #expect(metrics.withView { $0.lines(width: 465, maxLines: nil).lines.map(\.width) } == layout.lines.map(\.width))
        #expect(layout.lines.count == 2)
        for i in layout.lines.indices {
            let drawn = try #require(drawnWidth(layout, line: i))
            #expect(abs(drawn - layout.lines[i].width) < 0.001, "line \(i)")
        }
    }
}
