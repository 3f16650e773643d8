import Testing
@testable import RowKitText

/// A line that starts at an ordinary break (here a dictionary break inside a Myanmar run) where
/// HarfBuzz flags the text unsafe to break is shaped again from there up to the next safe
/// offset, as Chromium's `ShapeLine` does (docs/CHROMIUM.md §3(n), seventeenth round). Lines and
/// widths measured in headless Chromium 156.
@Suite struct UnsafeLineStartTests {
    /// A width as Chromium reports it: rounded up to 1/64 px (its layout unit).
    func layoutUnits(_ w: Double) -> Double { (w * 64).rounded(.up) / 64 }

    /// DejaVu Serif 800 italic 34 px (→ Noto Sans Myanmar): `ဖြင့်` is 55.91 px in context after
    /// `ဤသို့`, 52.84 at a line start, so at 90 px `ဖြင့်မ` (87.67) fits; RowKit had `ဤသို့` /
    /// `ဖြင့်` / `မကြာ` / `မီ` (the samples' corpus-my/1300, 1186, seeds 6102, 6106).
    @Test func aDictionaryLineStartIsShapedAgain() throws {
        let s = TextStyle(font: FontDescriptor(family: "DejaVu Serif", weight: FontWeight(800), italic: true), size: 34)
        let p = try prepare("ဤသို့ဖြင့် မကြာမီ", s)
        let layout = try p.layout(width: 90)
        #expect(layout.lines.indices.map { layout.text(ofLine: $0).filter { $0 != " " } } == ["ဤသို့", "ဖြင့်မ", "ကြာမီ"])
        #expect(layoutUnits(layout.lines[1].width) == 87.671875)
        // Only the stretch up to the next safe offset is shaped again: with `မ` right after
        // (no space), the line `ဖြင့်မ` is `ဖြင့်` alone plus `မ` in context, 75.83 px.
        let joined = try prepare("ဤသို့ဖြင့်မကြာမီ", s).layout(width: 90)
        #expect(joined.lines.count == 3 && layoutUnits(joined.lines[1].width) == 75.828125)
        // Drawn as measured.
        for (l, i) in [(layout, 1), (joined, 1)] {
            guard let drawn = drawnWidth(l, line: i) else { continue }
            #expect(abs(drawn - l.lines[i].width) < 0.001)
        }
    }

    /// The first line of a run and a line after a space start where HarfBuzz says a break is
    /// safe: nothing is shaped again (`ဤသို့ ဖြင့်` breaks at the space as before).
    @Test func safeLineStartsKeepTheirWidthsInContext() throws {
        let s = TextStyle(font: FontDescriptor(family: "DejaVu Serif", weight: FontWeight(800), italic: true), size: 34)
        let layout = try prepare("ဤသို့ ဖြင့် မကြာမီ", s).layout(width: 90)
        #expect(layout.lines.indices.map { layout.text(ofLine: $0).filter { $0 != " " } } == ["ဤသို့", "ဖြင့်မ", "ကြာမီ"])
        #expect(layoutUnits(layout.lines[0].width) == 83.984375)
    }
}
