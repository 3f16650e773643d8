import RowKitText

/// The benchmark: one corpus, both engines, every measurement, in a fixed order.
///
/// (a) Cold measuring: prepare + measure each paragraph once at W1 (RowKit), against
///     set_text + set_width + get_pixel_size on one reused PangoLayout (Pango).
/// (b) Re-measuring at a new width: measure(width:) on prepared texts (RowKit), against
///     set_width + get_pixel_size on a PangoLayout that already holds the paragraph (Pango).
/// (c) RowKit's re-measure on 25-word paragraphs, and lineCount(width:) against measure(width:).
/// Then the memory of the prepared form, and how often the two engines agree on line counts.
struct Benchmark {
    let options: Options
    /// The first and second layout widths, in pixels.
    let w1 = 300.0, w2 = 220.0
    let fontFamily = "DejaVu Sans"
    let fontSize = 13.0, lineHeight = 16.0

    var style: TextStyle {
        TextStyle(font: FontDescriptor(family: fontFamily), size: fontSize, lineHeight: .pixels(lineHeight))
    }
    var policy: TimingPolicy { TimingPolicy(repetitions: 3, minimumSeconds: options.minimumSeconds) }

    /// The width for re-measuring pass `n`: W2, W1, W2, … so that every pass asks for a width
    /// other than the one the previous pass laid out at (and Pango cannot answer from its lines).
    func remeasureWidth(pass n: Int) -> Double { n % 2 == 0 ? w2 : w1 }

    func run() throws -> Results {
        let style = self.style, w1 = self.w1, policy = self.policy
        var r = Results(options: options, w1: w1, w2: w2, fontFamily: fontFamily, fontSize: fontSize,
                        lineHeight: lineHeight, repetitions: policy.repetitions)

        r.loadBefore = loadAverages()
        // The real corpora first: their cold ratio is the headline target.
        if options.skipCorpora {
            r.corporaNote = "real corpora skipped (--no-corpora)"
        } else if let real = RealCorpora.load() {
            progress("real corpora from \(real.directory)")
            r.corporaDirectory = real.directory
            var sink = Checksum()
            for corpus in [real.english, real.multilingual] {
                r.corpora.append(try runCorpusBench(corpus, quick: options.quick, policy: policy, checksum: &sink))
            }
            r.corporaChecksum = sink.value
        } else {
            r.corporaNote = RealCorpora.absenceNote()
            progress("rowkit-bench: " + r.corporaNote!)
        }

        progress("generating \(grouped(options.paragraphs)) paragraphs…")
        let corpus = Corpus.generate(count: options.paragraphs)
        let texts = corpus.paragraphs
        let n = texts.count
        let words25 = corpus.indices(withWords: 25)
        r.corpus = corpus
        r.paragraphs25 = words25.count
        r.loadAverage = loadAverage()

        var checksum = Checksum()
        let pango = PangoMeasurer(family: fontFamily, pixelSize: fontSize)
        let layout = pango.makeLayout(width: w1)

        // Warm-up, untimed: open the fonts and touch the code of both engines; then empty the cache.
        for text in texts.prefix(200) {
            checksum.add(UInt64(try PreparedText(text, style: style).measure(width: w1).lineCount))
            layout.setText(text)
            checksum.add(UInt64(layout.pixelSize().height))
        }
        ShapeCache.shared.removeAll()

        // (a) Cold: RowKit from an empty shape cache (it fills as words repeat: by design).
        progress("(a) RowKit prepare + measure, cache empty at start…")
        var prepared: [PreparedText] = []
        var rowkitLines = [Int](repeating: 0, count: n)
        let rssBefore = residentBytes()
        var rssGrowth: Int?
        var cacheStatistics = ShapeCache.shared.statistics
        r.rowkitCold = try timeSlowLoop(items: n, policy: policy, checksum: &checksum, setup: {
            prepared = []
            prepared.reserveCapacity(n)
            ShapeCache.shared.removeAll()
        }, after: { repetition in
            if repetition == 0, let before = rssBefore, let after = residentBytes() { rssGrowth = after - before }
            cacheStatistics = ShapeCache.shared.statistics
        }) { _ in
            var sum: UInt64 = 0
            for i in 0..<n {
                let p = try PreparedText(texts[i], style: style)
                let m = try p.measure(width: w1)
                rowkitLines[i] = m.lineCount
                sum &+= UInt64(m.lineCount) &+ m.maxLineWidth.bitPattern
                prepared.append(p)
            }
            return sum
        }
        r.rssGrowth = rssGrowth
        r.cacheStatistics = cacheStatistics

        // The same work again, the cache left as the cold pass filled it (texts seen before, e.g. a
        // re-render). Only as warm as the cache's capacity allows: its hit rate is reported.
        progress("(a) RowKit prepare + measure, cache warm…")
        let statisticsBeforeWarm = ShapeCache.shared.statistics
        var scratch: [PreparedText] = []
        r.rowkitWarm = try timeSlowLoop(items: n, policy: policy, checksum: &checksum, setup: {
            scratch.reserveCapacity(n)
        }, after: { _ in scratch = [] }) { _ in
            var sum: UInt64 = 0
            for text in texts {
                let p = try PreparedText(text, style: style)
                sum &+= try p.measure(width: w1).maxLineWidth.bitPattern
                scratch.append(p)
            }
            return sum
        }
        let statisticsAfterWarm = ShapeCache.shared.statistics
        r.warmHits = statisticsAfterWarm.hits - statisticsBeforeWarm.hits
        r.warmMisses = statisticsAfterWarm.misses - statisticsBeforeWarm.misses

        // Pango: one layout, reused; get_pixel_size after set_text lays the new text out.
        progress("(a) Pango set_text + set_width + get_pixel_size…")
        var pangoLines = [Int](repeating: 0, count: n)
        r.pangoCold = timeSlowLoop(items: n, policy: policy, checksum: &checksum) { _ in
            var sum: UInt64 = 0
            for i in 0..<n {
                layout.setText(texts[i])
                layout.setWidth(w1)
                let size = layout.pixelSize()
                pangoLines[i] = layout.lineCount
                sum &+= UInt64(size.width) &* 65_536 &+ UInt64(size.height)
            }
            return sum
        }

        // Fully cold: the shape cache emptied (untimed) before every paragraph of a subset.
        let coldSubset = evenSample(count: options.fullyColdSize, of: n)
        progress("(a) RowKit fully cold on \(grouped(coldSubset.count)) paragraphs…")
        r.fullyColdSubset = coldSubset.count
        r.rowkitFullyCold = try timeEachItem(coldSubset, policy: policy, checksum: &checksum,
                                             setupEach: { _ in ShapeCache.shared.removeAll() }) { i in
            let m = try PreparedText(texts[i], style: style).measure(width: w1)
            return UInt64(m.lineCount) &+ m.maxLineWidth.bitPattern
        }

        // (b) Re-measure at a new width. RowKit: on every prepared paragraph, and on the sample
        // Pango is timed on. Pango: one layout per sampled paragraph, text set and laid out at W1
        // beforehand (untimed); timed: set_width + get_pixel_size. Both engines alternate W2/W1
        // pass by pass, so every Pango call re-lays the paragraph out at a width it did not hold.
        let sample = evenSample(count: options.pangoSampleSize, of: n)
        r.pangoSample = sample.count
        let sampled = sample.map { prepared[$0] }
        progress("(b) RowKit re-measure…")
        r.rowkitRemeasureAll = try timeFastLoop(items: n, policy: policy, checksum: &checksum) { pass in
            try measureAll(prepared, width: remeasureWidth(pass: pass))
        }
        r.rowkitRemeasureSample = try timeFastLoop(items: sampled.count, policy: policy, checksum: &checksum) { pass in
            try measureAll(sampled, width: remeasureWidth(pass: pass))
        }
        progress("(b) Pango re-measure on \(grouped(sample.count)) layouts…")
        let layouts = sample.map { i in
            let l = pango.makeLayout(width: w1)
            l.setText(texts[i])
            checksum.add(UInt64(l.pixelSize().height))
            return l
        }
        r.pangoRemeasure = timeFastLoop(items: layouts.count, policy: policy, checksum: &checksum) { pass in
            let width = remeasureWidth(pass: pass)
            var sum: UInt64 = 0
            for l in layouts {
                l.setWidth(width)
                let size = l.pixelSize()
                sum &+= UInt64(size.width) &* 65_536 &+ UInt64(size.height)
            }
            return sum
        }

        // (c) RowKit details.
        progress("(c) RowKit 25-word paragraphs, lineCount vs measure…")
        let prepared25 = words25.map { prepared[$0] }
        if !prepared25.isEmpty {
            r.rowkitRemeasure25 = try timeFastLoop(items: prepared25.count, policy: policy, checksum: &checksum) { pass in
                try measureAll(prepared25, width: remeasureWidth(pass: pass))
            }
        }
        r.rowkitLineCountAll = try timeFastLoop(items: n, policy: policy, checksum: &checksum) { pass in
            try lineCountAll(prepared, width: remeasureWidth(pass: pass))
        }

        // Memory of the prepared form.
        r.preparedBytes = prepared.reduce(0) { $0 + $1.byteCount }
        r.preparedUnits = prepared.reduce(0) { $0 + $1.units.count }

        // Agreement on line counts: every paragraph at W1 (from the cold passes), the sample at W2.
        r.sameLinesW1 = zip(rowkitLines, pangoLines).filter { $0 == $1 }.count
        r.withinOneW1 = zip(rowkitLines, pangoLines).filter { abs($0 - $1) <= 1 }.count
        for (k, l) in layouts.enumerated() {
            l.setWidth(w2)
            _ = l.pixelSize()
            if try sampled[k].lineCount(width: w2) == l.lineCount { r.sameLinesW2Sample += 1 }
        }

        // The classic cells: bind + measure cold, re-measure at a new width (CellBench.swift).
        r.cells = try runCellBench(rows: options.quick ? 1_000 : 20_000, policy: policy, checksum: &checksum)
        r.checksum = checksum.value
        r.loadAfter = loadAverages()
        return r
    }
}

/// `count` indices spread evenly over `0..<total` (every k-th paragraph).
func evenSample(count: Int, of total: Int) -> [Int] {
    guard count < total else { return Array(0..<total) }
    return (0..<count).map { $0 * total / count }
}

/// Measures every prepared text at `width`, the way an app re-measures its rows; returns a
/// checksum of the results.
@inline(never)
func measureAll(_ texts: [PreparedText], width: Double) throws(TextError) -> UInt64 {
    var sum: UInt64 = 0
    for text in texts {
        let m = try text.measure(width: width)
        sum &+= UInt64(m.lineCount) &+ m.maxLineWidth.bitPattern
    }
    return sum
}

/// Counts the lines of every prepared text at `width`; returns a checksum of the results.
@inline(never)
func lineCountAll(_ texts: [PreparedText], width: Double) throws(TextError) -> UInt64 {
    var sum: UInt64 = 0
    for text in texts { sum &+= UInt64(try text.lineCount(width: width)) }
    return sum
}
