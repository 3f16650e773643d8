import Testing
import RowKitCells
import RowKitListCells

/// The memory a list keeps per row is its measuring form: a window of a million rows holds a
/// million of them. The window's peak grew from 690 to 790 MiB without anyone noticing, ~100 B
/// in every row's form (docs/DESIGN.md, "Window peak memory, 690 → 790 MiB"); this budget makes
/// the next such growth a decision rather than a surprise.
@Suite struct MeasuringFormBudgetTests {
    /// Rows as `rowkit view --sample` makes them for caption-text (the view bench's rows): the
    /// template's samples with each text of three words or more replaced by 2 to 45 words.
    static func sampleRows(count: Int) -> [ListRow] {
        let words = ("list row height text measure layout width cell table scroll anchor section header reuse "
            + "update insert delete move reload exact prepare shape glyph line break font fallback emoji "
            + "bidi arabic hebrew thai korean japanese chinese browser chromium pango cairo harfbuzz").split(separator: " ")
        let lengths = [2, 4, 6, 10, 18, 30, 45]
        let samples = ClassicCells.captionText.samples
        return (0..<count).map { index in
            var state = 7 &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
            func next() -> UInt64 {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return z ^ (z >> 31)
            }
            var fields = samples[index % samples.count].fields
            for key in fields.keys.sorted() {
                guard case .string(let text)? = fields[key], text.split(whereSeparator: \.isWhitespace).count >= 3 else { continue }
                let n = lengths[Int(next() % UInt64(lengths.count))]
                let sentence = (0..<n).map { _ in String(words[Int(next() % UInt64(words.count))]) }.joined(separator: " ")
                fields[key] = .string(sentence.prefix(1).uppercased() + sentence.dropFirst() + ".")
            }
            return ListRow(id: "r\(index)", template: "caption-text", data: RowData(fields))
        }
    }

    /// Measured 2026-11-25: 656.8 B a row over the bench's million rows (506 B of the texts'
    /// hot and cold parts, 98.5 B of kerning pairs and their counts header, 52 B of the row's
    /// headers, slot table and malloc's rounding); ~557 B before the extras part. These 4,000
    /// rows: 664.2 B; 601.3 B once kerns-only extras got a 4-byte header and pairs 4 bytes
    /// (docs/DESIGN.md, "Measuring form: kerning extras in 4 bytes a pair"). The bound leaves
    /// ~11 B of room: 11 MB of the window's peak at a million rows.
    @Test func captionTextRowsKeepTheirMeasuringFormsWithinBudget() throws {
        let measurer = CellMeasurer(ClassicCells.all)
        let rows = Self.sampleRows(count: 4_000)
        var total = 0
        for row in rows { total += measurer.byteCount(of: try measurer.measuringForm(of: row)) }
        let perRow = Double(total) / Double(rows.count)
        print("MeasuringFormBudgetTests: caption-text measuring forms average \(perRow) B a row over \(rows.count) rows")
        #expect(perRow > 300, "\(perRow) B a row: the rows are not being measured")
        #expect(perRow <= 612, "caption-text measuring forms average \(perRow) B a row (budget 612 B: 612 MB at a million rows); record the trade in docs/DESIGN.md and raise the budget, or shrink the form")
    }
}
