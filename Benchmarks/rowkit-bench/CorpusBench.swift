// RowKit against Pango on the real corpora (RealCorpora.swift): the same paragraphs, font, size
// and width for both, in one run, one thread each.
//
// Cold: for each paragraph in order, RowKit prepares and measures it at W (the shape cache
// emptied before each repetition, so it warms as words repeat, as in an app that starts up);
// Pango sets the text and width on one reused PangoLayout and reads its pixel size (which lays
// the paragraph out from scratch). Re-measuring: RowKit measure(width:) on every prepared
// paragraph; Pango set_width + get_pixel_size on one layout per sampled paragraph, the widths
// alternating so that no call asks for the width laid out last.

import RowKitText

/// One real corpus's figures.
struct CorpusTiming {
    let corpus: RealCorpus
    let fontFamily: String
    let fontSize: Double
    let width: Double, secondWidth: Double
    /// PreparedText (measuring form and glyphs) + measure.
    var rowkitCold: Timing?
    /// TextMetrics (measuring form only, what a list keeps) + measure.
    var rowkitColdMetrics: Timing?
    var pangoCold: Timing?
    var rowkitRemeasure: Timing?
    var rowkitRemeasureSample: Timing?
    var pangoRemeasure: Timing?
    var pangoSample = 0
    var preparedBytes = 0, metricsBytes = 0
    var cacheRuns = 0, cacheHits = 0, cacheMisses = 0
    /// This thread's word cache over the cold pass: chunks found, chunks analysed.
    var wordHits = 0, wordMisses = 0
    var sameLines = 0
    /// Paragraphs measured (all of them, or an even sample with --quick).
    var measured = 0
    /// Per file (same order as `corpus.files`): paragraphs measured and the best repetition's
    /// total microseconds of each engine (for the per-language table).
    var fileParagraphs: [Int] = []
    var fileRowKit: [Double] = []
    var filePango: [Double] = []

    static let coldTarget = 10.0
    static let remeasureTarget = 500.0

    var paragraphs: Int { measured }
    var coldRatio: Double? { ratio(pangoCold, rowkitCold) }
    var coldMetricsRatio: Double? { ratio(pangoCold, rowkitColdMetrics) }
    var coldMetricsMet: Bool { (coldMetricsRatio ?? 0) >= Self.coldTarget }
    var wordHitRate: Double { Double(wordHits) / Double(max(1, wordHits + wordMisses)) }
    var remeasureRatio: Double? { ratio(pangoRemeasure, rowkitRemeasureSample) }
    var coldMet: Bool { (coldRatio ?? 0) >= Self.coldTarget }
    var remeasureMet: Bool { (remeasureRatio ?? 0) >= Self.remeasureTarget }
    var hitRate: Double { Double(cacheHits) / Double(max(1, cacheHits + cacheMisses)) }

    private func ratio(_ slow: Timing?, _ fast: Timing?) -> Double? {
        guard let slow, let fast, fast.microsecondsPerItem > 0 else { return nil }
        return slow.microsecondsPerItem / fast.microsecondsPerItem
    }

    func tableLines() -> [String] {
        func row(_ label: String, _ rowkit: Timing?, _ pango: Timing?, _ ratio: Double?, _ target: String) -> String {
            pad("  " + label, 50) + pad(rowkit.map { micros($0.microsecondsPerItem) } ?? "", 10, right: true)
                + pad(pango.map { micros($0.microsecondsPerItem) } ?? "", 12, right: true)
                + pad(ratio.map(times) ?? "", 14, right: true) + "   " + target
        }
        return [
            "\(corpus.name): \(grouped(paragraphs)) of \(grouped(corpus.paragraphs.count)) paragraphs, \(grouped(corpus.totalUTF16)) UTF-16 units "
                + "(mean \(fixed(Double(corpus.totalUTF16) / Double(max(1, corpus.paragraphs.count)), 1))) from \(corpus.files.count) file(s)",
            row("cold, measuring form: TextMetrics + measure at \(fixed(width, 0)) px", rowkitColdMetrics, pangoCold, coldMetricsRatio,
                "≥ \(fixed(Self.coldTarget, 0))×: \(verdict(coldMetricsMet))"),
            row("cold, with glyphs: PreparedText + measure", rowkitCold, pangoCold, coldRatio,
                "≥ \(fixed(Self.coldTarget, 0))×: \(verdict(coldMet))"),
            row("re-measure at \(fixed(secondWidth, 0))/\(fixed(width, 0)) px, sample of \(grouped(pangoSample))",
                rowkitRemeasureSample, pangoRemeasure, remeasureRatio, "≥ \(fixed(Self.remeasureTarget, 0))×: \(verdict(remeasureMet))"),
            row("re-measure, all paragraphs (RowKit)", rowkitRemeasure, nil, nil, ""),
            "    best CPU time (user + system) per paragraph: measuring form \(rowkitColdMetrics.flatMap { $0.cpu.min() }.map { micros($0) } ?? "–") µs, "
                + "with glyphs \(rowkitCold.flatMap { $0.cpu.min() }.map { micros($0) } ?? "–") µs (a wall time well above it means the run was descheduled)",
            "    measuring form \(grouped(metricsBytes / max(1, paragraphs))) B per paragraph, with glyphs \(grouped(preparedBytes / max(1, paragraphs))) B; "
                + "word cache hit rate \(fixed(100 * wordHitRate, 1))% (chunks), shape cache after the cold pass "
                + "\(grouped(cacheRuns)) runs; same line count as Pango at "
                + "\(fixed(width, 0)) px: \(fixed(100 * Double(sameLines) / Double(max(1, paragraphs)), 1))%",
        ] + perFileLines()
    }

    /// One line per file (cold µs per paragraph, both engines), when the corpus has several.
    func perFileLines() -> [String] {
        guard corpus.files.count > 1 else { return [] }
        var out = ["    by file (cold µs per paragraph: RowKit, Pango, ratio; share of RowKit's total time):"]
        let total = fileRowKit.reduce(0, +)
        for (k, file) in corpus.files.enumerated() where fileParagraphs[k] > 0 {
            let n = Double(fileParagraphs[k])
            out.append("      " + pad(file, 58) + pad(grouped(fileParagraphs[k]), 7, right: true)
                       + pad(micros(fileRowKit[k] / n), 10, right: true) + pad(micros(filePango[k] / n), 10, right: true)
                       + pad(times(filePango[k] / max(1e-9, fileRowKit[k])), 9, right: true)
                       + pad(fixed(100 * fileRowKit[k] / max(1e-9, total), 1) + "%", 8, right: true))
        }
        return out
    }

    func json() -> JSONObject {
        func us(_ t: Timing?) -> Double? { t.map { ($0.microsecondsPerItem * 1e5).rounded() / 1e5 } }
        func rounded(_ x: Double?) -> Double? { x.map { ($0 * 1000).rounded() / 1000 } }
        var j = JSONObject()
        j.add("files", corpus.files.joined(separator: ","))
        j.add("paragraphs", paragraphs)
        j.add("utf16_units", corpus.totalUTF16)
        j.add("font", "\(fontFamily) \(fixed(fontSize, 0)) px, line-height normal")
        j.add("width", width)
        j.add("cold_metrics_rowkit_us", us(rowkitColdMetrics))
        j.add("cold_prepared_rowkit_us", us(rowkitCold))
        j.add("cold_pango_us", us(pangoCold))
        // Every repetition, wall and CPU time (a repetition the machine's load slowed shows as
        // wall ≫ CPU), with its page faults: "wall/cpu/faults" per repetition.
        func repetitions(_ t: Timing?) -> String {
            guard let t else { return "" }
            return t.all.indices.map { k in
                "\(fixed(t.all[k], 2))/\(k < t.cpu.count ? fixed(t.cpu[k], 2) : "")/\(k < t.pageFaults.count ? String(t.pageFaults[k]) : "")"
            }.joined(separator: " ")
        }
        j.add("cold_metrics_rowkit_cpu_us", rowkitColdMetrics.flatMap { $0.cpu.min() }.map { ($0 * 100).rounded() / 100 })
        j.add("cold_prepared_rowkit_cpu_us", rowkitCold.flatMap { $0.cpu.min() }.map { ($0 * 100).rounded() / 100 })
        j.add("cold_metrics_rowkit_repetitions_wall_cpu_us_faults", repetitions(rowkitColdMetrics))
        j.add("cold_prepared_rowkit_repetitions_wall_cpu_us_faults", repetitions(rowkitCold))
        j.add("cold_metrics_ratio", rounded(coldMetricsRatio))
        j.add("cold_prepared_ratio", rounded(coldRatio))
        j.add("cold_ratio_target_min", Self.coldTarget)
        j.add("cold_metrics_ratio_met", coldMetricsMet)
        j.add("cold_prepared_ratio_met", coldMet)
        j.add("word_cache_hit_rate_pct", (10000 * wordHitRate).rounded() / 100)
        j.add("metrics_bytes_per_paragraph", Double(metricsBytes) / Double(max(1, paragraphs)))
        j.add("remeasure_rowkit_us", us(rowkitRemeasureSample))
        j.add("remeasure_pango_us", us(pangoRemeasure))
        j.add("remeasure_ratio", rounded(remeasureRatio))
        j.add("remeasure_ratio_target_min", Self.remeasureTarget)
        j.add("remeasure_ratio_met", remeasureMet)
        j.add("remeasure_sample", pangoSample)
        j.add("remeasure_rowkit_all_us", us(rowkitRemeasure))
        j.add("prepared_bytes_per_paragraph", Double(preparedBytes) / Double(max(1, paragraphs)))
        j.add("shape_cache_runs", cacheRuns)
        j.add("shape_cache_hit_rate_pct", (10000 * hitRate).rounded() / 100)
        j.add("same_line_count_as_pango_pct", (10000 * Double(sameLines) / Double(max(1, paragraphs))).rounded() / 100)
        if corpus.files.count > 1 {
            var files = JSONObject()
            for (k, file) in corpus.files.enumerated() where fileParagraphs[k] > 0 {
                var f = JSONObject()
                let n = Double(fileParagraphs[k])
                f.add("paragraphs", fileParagraphs[k])
                f.add("cold_rowkit_us", (fileRowKit[k] / n * 100).rounded() / 100)
                f.add("cold_pango_us", (filePango[k] / n * 100).rounded() / 100)
                files.add(file, f)
            }
            j.add("by_file", files)
        }
        return j
    }
}

/// Runs both engines on one real corpus.
func runCorpusBench(_ corpus: RealCorpus, quick: Bool, policy: TimingPolicy, checksum: inout Checksum) throws -> CorpusTiming {
    let family = "Noto Sans", size = 16.0, width = 320.0, second = 480.0
    var r = CorpusTiming(corpus: corpus, fontFamily: family, fontSize: size, width: width, secondWidth: second)
    let chosen = quick ? evenSample(count: 300, of: corpus.paragraphs.count) : Array(corpus.paragraphs.indices)
    let texts = chosen.map { corpus.paragraphs[$0] }
    let files = chosen.map { corpus.fileIndices[$0] }
    let n = texts.count
    r.measured = n
    r.fileParagraphs = corpus.files.indices.map { k in files.filter { $0 == k }.count }
    r.fileRowKit = [Double](repeating: .infinity, count: corpus.files.count)
    r.filePango = r.fileRowKit
    /// Adds the time since `start` to `sums[file]` and restarts the clock.
    func lap(_ sums: inout [Double], _ file: Int, _ start: inout UInt64) {
        let now = monotonicNanoseconds()
        sums[file] += Double(now - start) / 1000
        start = now
    }
    func keepBest(_ best: inout [Double], _ sums: [Double]) { for k in best.indices { best[k] = min(best[k], sums[k]) } }
    let style = TextStyle(font: FontDescriptor(family: family), size: size, lineHeight: .normal)
    let pango = PangoMeasurer(family: family, pixelSize: size)
    let layout = pango.makeLayout(width: width)

    // Warm-up, untimed: open every font the corpus needs, in both engines; then empty the cache.
    progress("\(corpus.name): warm-up…")
    for text in texts {
        checksum.add(UInt64(try PreparedText(text, style: style).measure(width: width).lineCount))
        layout.setText(text)
        checksum.add(UInt64(layout.pixelSize().height))
    }

    progress("\(corpus.name): RowKit measuring form (TextMetrics) + measure, cache empty at start…")
    var metrics: [TextMetrics] = []
    r.rowkitColdMetrics = try timeSlowLoop(items: n, policy: policy, checksum: &checksum, setup: {
        metrics = []
        metrics.reserveCapacity(n)
        ShapeCache.shared.removeAll()
    }) { _ in
        var sum: UInt64 = 0
        for i in 0..<n {
            let m = try TextMetrics(texts[i], style: style)
            let size = try m.measure(width: width)
            sum &+= UInt64(size.lineCount) &+ size.maxLineWidth.bitPattern
            metrics.append(m)
        }
        return sum
    }
    r.metricsBytes = metrics.reduce(0) { $0 + $1.byteCount }
    metrics = []

    progress("\(corpus.name): RowKit prepare + measure, cache empty at start…")
    var wordsBefore = PrepareScratch.wordCacheStatistics
    var prepared: [PreparedText] = []
    var rowkitLines = [Int](repeating: 0, count: n)
    r.rowkitCold = try timeSlowLoop(items: n, policy: policy, checksum: &checksum, setup: {
        prepared = []
        prepared.reserveCapacity(n)
        ShapeCache.shared.removeAll()
    }, after: { _ in
        let s = ShapeCache.shared.statistics
        (r.cacheRuns, r.cacheHits, r.cacheMisses) = (s.runs, s.hits, s.misses)
        let words = PrepareScratch.wordCacheStatistics
        (r.wordHits, r.wordMisses) = (words.hits - wordsBefore.hits, words.misses - wordsBefore.misses)
        wordsBefore = words
    }) { _ in
        var sum: UInt64 = 0
        var sums = [Double](repeating: 0, count: corpus.files.count)
        var start = monotonicNanoseconds()
        for i in 0..<n {
            let p = try PreparedText(texts[i], style: style)
            let m = try p.measure(width: width)
            rowkitLines[i] = m.lineCount
            sum &+= UInt64(m.lineCount) &+ m.maxLineWidth.bitPattern
            prepared.append(p)
            if i + 1 == n || files[i + 1] != files[i] { lap(&sums, files[i], &start) }
        }
        keepBest(&r.fileRowKit, sums)
        return sum
    }

    progress("\(corpus.name): Pango set_text + set_width + get_pixel_size…")
    var pangoLines = [Int](repeating: 0, count: n)
    r.pangoCold = timeSlowLoop(items: n, policy: policy, checksum: &checksum) { _ in
        var sum: UInt64 = 0
        var sums = [Double](repeating: 0, count: corpus.files.count)
        var start = monotonicNanoseconds()
        for i in 0..<n {
            layout.setText(texts[i])
            layout.setWidth(width)
            let size = layout.pixelSize()
            pangoLines[i] = layout.lineCount
            sum &+= UInt64(size.width) &* 65_536 &+ UInt64(size.height)
            if i + 1 == n || files[i + 1] != files[i] { lap(&sums, files[i], &start) }
        }
        keepBest(&r.filePango, sums)
        return sum
    }
    r.sameLines = zip(rowkitLines, pangoLines).filter { $0 == $1 }.count

    progress("\(corpus.name): re-measure…")
    func widthFor(_ pass: Int) -> Double { pass % 2 == 0 ? second : width }
    r.rowkitRemeasure = try timeFastLoop(items: n, policy: policy, checksum: &checksum) { pass in
        try measureAll(prepared, width: widthFor(pass))
    }
    let sample = evenSample(count: min(n, quick ? 100 : 500), of: n)
    r.pangoSample = sample.count
    let sampled = sample.map { prepared[$0] }
    r.rowkitRemeasureSample = try timeFastLoop(items: sampled.count, policy: policy, checksum: &checksum) { pass in
        try measureAll(sampled, width: widthFor(pass))
    }
    let layouts = sample.map { i in
        let l = pango.makeLayout(width: width)
        l.setText(texts[i])
        checksum.add(UInt64(l.pixelSize().height))
        return l
    }
    r.pangoRemeasure = timeFastLoop(items: layouts.count, policy: policy, checksum: &checksum) { pass in
        var sum: UInt64 = 0
        for l in layouts {
            l.setWidth(widthFor(pass))
            let size = l.pixelSize()
            sum &+= UInt64(size.width) &* 65_536 &+ UInt64(size.height)
        }
        return sum
    }
    r.preparedBytes = prepared.reduce(0) { $0 + $1.byteCount }
    return r
}
