import Testing
@testable import RowKitText

/// Chromium rounds each bidi level run's part of a line up to 1/64 px on its own
/// (docs/CHROMIUM.md §1, "Bidi items are rounded apart"). Widths and breaks below were
/// measured in headless Chromium 156 (DejaVu Sans 17.7 px, `white-space: normal`).
@Suite struct BidiItemRoundingTests {
    let dejaVu = style(size: 17.7)

    /// A width rounded up to 1/64 px, as Chromium reports a line's.
    func ceil64(_ x: Double) -> Double { (x * 64).rounded(.up) / 64 }

    /// `bbb עברית cc` is 111.265625 px in Chromium: `bbb ` + `עברית` + ` cc`, each rounded up
    /// (the whole, rounded once, is 111.25). So it is one line at 111.25 px and two at 111.24.
    @Test func eachDirectionRunIsRoundedUpApart() throws {
        let text = "bbb עברית cc"
        #expect(try lineTexts(text, width: 111.25, dejaVu) == ["bbb עברית cc"])
        #expect(try lineTexts(text, width: 111.24, dejaVu) == ["bbb עברית", "cc"])
        let metrics = try TextMetrics(text, style: dejaVu)
        #expect(ceil64(try metrics.measure(width: 200).maxLineWidth) == 111.265625)
        #expect(try metrics.measure(width: 111.24).lineCount == 2)
        let layout = try prepare(text, dejaVu).layout(width: 200)
        #expect(layout.lines.map { ceil64($0.width) } == [111.265625])
    }

    /// A line starting inside a run rounds the run's part from the line start: `bbb עברית`
    /// after `aaaaaaa` is 86.1875 px in Chromium (the whole run `aaaaaaa bbb ` rounded, then
    /// the part, would give 86.203125; one rounding of the line 86.171875). So at 86.18 px the
    /// second line is `bbb עברית` and at 86.17 px `bbb` alone.
    @Test func aLineStartingInsideARunRoundsItsPartFromTheLineStart() throws {
        let text = "aaaaaaa bbb עברית cc"
        #expect(try lineTexts(text, width: 86.18, dejaVu) == ["aaaaaaa", "bbb עברית", "cc"])
        #expect(try lineTexts(text, width: 86.17, dejaVu) == ["aaaaaaa", "bbb", "עברית cc"])
        #expect(try prepare(text, dejaVu).layout(width: 86.18).lines.map { ceil64($0.width) } == [75.875, 86.1875, 19.453125])
        let metrics = try TextMetrics(text, style: dejaVu)
        #expect(try metrics.measure(width: 86.18).lineCount == 3)
        #expect(ceil64(try metrics.measure(width: 86.18).maxLineWidth) == 86.1875)
    }

    /// The runs a paragraph's levels give: each but the last, measured from its start, its pad
    /// the rounding up of its width to 1/64 px (1024 in 16.16).
    @Test func runsAndPads() {
        let units: [UInt16] = [0x61, 0x20, 0x5D0, 0x5D1, 0x20, 0x62]
        let levels: [UInt8] = [0, 0, 1, 1, 0, 0]
        let advances: [Int32] = [1000, 500, 700, 700, 500, 1000]
        let runs = units.withUnsafeBufferPointer { u in
            levels.withUnsafeBufferPointer { l in
                advances.withUnsafeBufferPointer { a in BidiItemRounding.runs(levels: l, units: u, advances: a) }
            }
        }
        #expect(runs == [BidiItemRounding.Run(start: 0, last: 1, width: 1500, pad: 548),
                         BidiItemRounding.Run(start: 2, last: 3, width: 1400, pad: 648)])
        // A line starting at unit 1 (pen 1000 from the run's start): part 500, rounded 1024,
        // where the folded pad gives 500 + 548.
        #expect(BidiItemRounding.correction(runs[0], pen: 1000) == 1024 - 500 - 548)
        #expect(BidiItemRounding.correction(runs[0], pen: 0) == 0)
    }
}
