import Testing
@testable import RowKitList

/// Chunks that make measuring forms are cut into many small pieces (``MeasuringContext/coldPieceRows``),
/// so that a chunk's last piece leaves the other cores idle only briefly. These lists are large
/// enough for hundreds of pieces per chunk.
@Suite struct ColdChunkTests {
    @Test func everyRowGetsOneFormAndItsExactHeight() throws {
        let rows = PipelinedWidthChangeTests.rows(20_011, seed: 11)
        let counter = MeasureCounter()
        let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 600, measurer: FakeMeasurer(counter: counter))
        var reports: [Int] = []
        try e.measureAll(chunkSize: 16_384) { measured, total in
            #expect(total == rows.count)
            reports.append(measured)
        }
        #expect(counter.forms == rows.count, "a row measured by two pieces, or by none")
        #expect(e.unmeasuredCount == 0)
        #expect(reports.last == rows.count && reports == reports.sorted())
        #expect(e.allHeights == rows.map { Units.round(FakeMeasurer.height(of: $0, width: 320)) })
        #expect(e.state.withLock { $0.items.countsAreConsistent })
    }

    /// With many pieces several may fail; the error is always the first failing row's, and every
    /// row measured before the failure keeps its height.
    @Test(arguments: [(700, 15_000), (15_000, 700), (9_000, 9_001)])
    func theFirstFailingRowIsReported(first: Int, second: Int) throws {
        var rows = PipelinedWidthChangeTests.rows(20_011, seed: 12)
        for k in [first, second] { rows[k] = Rows.text("bad\(k)", length: 40, template: "broken") }
        let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 600)
        let earliest = min(first, second)
        #expect(throws: ListError.rowFailed(id: "bad\(earliest)", reason: BrokenRow(id: "bad\(earliest)"))) { try e.measureAll(chunkSize: 16_384) }
        #expect(e.state.withLock { $0.items.countsAreConsistent })
        // The rows of the failing row's piece before it are measured (pieces are 32 rows).
        let pieceStart = earliest - earliest % MeasuringContext<FakeMeasurer>.coldPieceRows
        for k in pieceStart..<earliest {
            #expect(try e.height(ofItem: k) == Units.round(FakeMeasurer.height(of: rows[k], width: 320)), "row \(k)")
        }
    }

    /// The measuring loop reads a record's form at ``ItemRecord/formOffset`` (a literal).
    @Test func formOffsetIsWhereTheFormIs() {
        #expect(ItemRecord.formOffset == MemoryLayout<ItemRecord>.offset(of: \ItemRecord.form))
    }
}
