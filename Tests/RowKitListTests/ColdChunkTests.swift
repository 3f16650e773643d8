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

    /// Chunks are cut into pieces of ``MeasuringContext/coldPieceRows`` rows when they make forms
    /// and 256 when they measure from forms, at least eight per core; small chunks and one core
    /// take one piece; the pieces cover every item once and none starts past the end — for
    /// counts and core counts that do not divide evenly too. (The other tests here run with
    /// this machine's cores, so they alone would not see the piece sizes.)
    @Test func chunksAreCutIntoSmallPiecesCoveringEveryItemOnce() {
        typealias Context = MeasuringContext<FakeMeasurer>
        let cold = Context.pieces(count: 16_384, cores: 2, makesForms: true)
        #expect(cold.per == Context.coldPieceRows && cold.workers == 16_384 / Context.coldPieceRows)
        let warm = Context.pieces(count: 16_384, cores: 2, makesForms: false)
        #expect(warm.per == 256 && warm.workers == 64)
        let many = Context.pieces(count: 1_024, cores: 16, makesForms: false)
        #expect(many.per == 8 && many.workers == 128, "at least eight pieces per core")
        for (count, cores) in [(255, 2), (16_384, 1), (0, 2), (1, 8)] {
            let one = Context.pieces(count: count, cores: cores, makesForms: true)
            #expect(one.workers == 1 && one.per == max(1, count), "\(count) items on \(cores) cores")
        }
        for count in [0, 1, 255, 256, 257, 1_000, 3_627, 16_383, 16_384, 20_011] {
            for cores in 1...9 {
                for makesForms in [false, true] {
                    let (per, workers) = Context.pieces(count: count, cores: cores, makesForms: makesForms)
                    #expect(per >= 1 && workers >= 1)
                    #expect(workers * per >= count, "\(count) items on \(cores) cores: not all covered")
                    #expect((workers - 1) * per < max(1, count), "\(count) items on \(cores) cores: a piece starts past the end")
                    if count >= 256 && cores > 1 {
                        #expect(per < 2 * (makesForms ? Context.coldPieceRows : 256), "\(count) items on \(cores) cores: pieces of \(per)")
                    }
                }
            }
        }
    }

    /// The measuring loop reads a record's form at ``ItemRecord/formOffset`` (a literal).
    @Test func formOffsetIsWhereTheFormIs() {
        #expect(ItemRecord.formOffset == MemoryLayout<ItemRecord>.offset(of: \ItemRecord.form))
    }
}
