import RowKitText

/// Everything one run measured, and its two renderings: the table and the JSON summary.
struct Results {
    let options: Options
    let w1: Double, w2: Double
    let fontFamily: String
    let fontSize: Double, lineHeight: Double
    let repetitions: Int

    var corpus: Corpus?
    var paragraphs25 = 0
    var loadAverage: Double?

    // (a) prepare + measure, µs per paragraph.
    var rowkitCold: Timing?
    var rowkitWarm: Timing?
    var rowkitFullyCold: Timing?
    var fullyColdSubset = 0
    var pangoCold: Timing?

    // (b) re-measure at a new width.
    var rowkitRemeasureAll: Timing?
    var rowkitRemeasureSample: Timing?
    var pangoRemeasure: Timing?
    var pangoSample = 0

    // (c) RowKit details.
    var rowkitRemeasure25: Timing?
    var rowkitLineCountAll: Timing?

    // Memory.
    var preparedBytes = 0
    var preparedUnits = 0
    var cacheStatistics: (runs: Int, hits: Int, misses: Int) = (0, 0, 0)
    /// Shape cache hits and misses over the warm passes.
    var warmHits = 0, warmMisses = 0
    var rssGrowth: Int?

    // Agreement.
    var sameLinesW1 = 0
    var withinOneW1 = 0
    var sameLinesW2Sample = 0

    var checksum: UInt64 = 0

    // The classic cells (CellBench.swift).
    var cells: CellBenchResults?

    // The real corpora (CorpusBench.swift), or why they are absent.
    var corpora: [CorpusTiming] = []
    var corporaDirectory: String?
    var corporaNote: String?
    var corporaChecksum: UInt64 = 0

    /// /proc/loadavg's 1-, 5- and 15-minute load averages before and after the run.
    var loadBefore: [Double]?
    var loadAfter: [Double]?

    // Targets.
    static let coldTarget = 10.0
    static let remeasureTarget = 500.0
    static let remeasure25Target = 0.1

    var paragraphs: Int { corpus?.paragraphs.count ?? 0 }
    var coldRatio: Double? { ratio(pangoCold, rowkitCold) }
    var remeasureRatio: Double? { ratio(pangoRemeasure, rowkitRemeasureSample) }
    var coldMet: Bool { (coldRatio ?? 0) >= Self.coldTarget }
    var remeasureRatioMet: Bool { (remeasureRatio ?? 0) >= Self.remeasureTarget }
    var remeasure25Met: Bool { (rowkitRemeasure25?.microsecondsPerItem ?? .infinity) < Self.remeasure25Target }
    var bytesPerParagraph: Double { Double(preparedBytes) / Double(max(1, paragraphs)) }
    var cacheHitRate: Double {
        Double(cacheStatistics.hits) / Double(max(1, cacheStatistics.hits + cacheStatistics.misses))
    }

    var warmHitRate: Double { Double(warmHits) / Double(max(1, warmHits + warmMisses)) }

    private func ratio(_ slow: Timing?, _ fast: Timing?) -> Double? {
        guard let slow, let fast, fast.microsecondsPerItem > 0 else { return nil }
        return slow.microsecondsPerItem / fast.microsecondsPerItem
    }

    private func percent(_ count: Int, of total: Int) -> Double { 100 * Double(count) / Double(max(1, total)) }

    // MARK: - Table

    func table() -> String {
        var out: [String] = []
        func line(_ s: String = "") { out.append(s) }
        /// One figure row: label, RowKit, Pango, ratio, target.
        func row(_ label: String, _ rowkit: Timing?, _ pango: Timing? = nil, ratio: Double? = nil, target: String = "") {
            line(pad("  " + label, 50) + pad(rowkit.map { micros($0.microsecondsPerItem) } ?? "", 10, right: true)
                 + pad(pango.map { micros($0.microsecondsPerItem) } ?? "", 12, right: true)
                 + pad(ratio.map(times) ?? "", 14, right: true) + "   " + target)
        }

        let pangoVersion = PangoMeasurer.version
        line("RowKit speed benchmark: RowKit vs Pango \(pangoVersion)\(options.quick ? "  [--quick: small run, figures are rough]" : "")")
        line("  font \(fontFamily) \(fixed(fontSize, 0)) px, line height \(fixed(lineHeight, 0)) px; W1 = \(fixed(w1, 0)) px, W2 = \(fixed(w2, 0)) px")
        if let c = corpus {
            let n = c.paragraphs.count
            line("  corpus: \(grouped(n)) paragraphs of 3–60 words (mean \(fixed(Double(c.totalWords) / Double(max(1, n)), 1))), "
                 + "\(grouped(c.totalWords)) words, \(grouped(c.totalUTF8)) UTF-8 bytes")
            line("          \(grouped(c.distinctWords)) distinct words (case-folded), \(grouped(c.distinctTokens)) distinct tokens (with punctuation)")
            line("          \(grouped(paragraphs25)) paragraphs of exactly 25 words; seed 0x\(String(c.seed, radix: 16)), "
                 + "fingerprint 0x\(String(c.fingerprint, radix: 16))")
        }
        line("  timing: 1 thread, CLOCK_MONOTONIC, best of \(repetitions) repetitions; fast loops repeat passes for "
             + "≥ \(fixed(options.minimumSeconds, 2)) s per repetition; load average \(loadAverage.map { fixed($0, 2) } ?? "n/a")")
        line()
        line("real corpora, RowKit vs Pango side by side (µs per paragraph, one thread each)"
             + (corporaDirectory.map { ": \($0)" } ?? ""))
        if let corporaNote { line("  " + corporaNote) }
        for c in corpora {
            line(pad("  " + c.fontFamily + " \(fixed(c.fontSize, 0)) px, line-height normal", 50) + pad("RowKit", 10, right: true)
                 + pad("Pango", 12, right: true) + pad("Pango/RowKit", 14, right: true) + "   target")
            for l in c.tableLines() { line("  " + l) }
        }
        line()
        line("generated corpus")
        line(pad("µs per paragraph", 50) + pad("RowKit", 10, right: true) + pad("Pango", 12, right: true)
             + pad("Pango/RowKit", 14, right: true) + "   target")
        line("(a) measure a new paragraph at W1: RowKit prepare + measure, Pango set_text + set_width + get_pixel_size")
        row("shape cache empty at start (warms during run)", rowkitCold, pangoCold, ratio: coldRatio,
            target: "≥ \(fixed(Self.coldTarget, 0))×: \(verdict(coldMet))")
        row("fully cold: cache emptied per paragraph (\(grouped(fullyColdSubset)))", rowkitFullyCold, pangoCold,
            ratio: ratio(pangoCold, rowkitFullyCold))
        row("warm: 2nd pass, cache as left (hit rate \(fixed(100 * warmHitRate, 1))%)", rowkitWarm, pangoCold,
            ratio: ratio(pangoCold, rowkitWarm))
        line("(b) re-measure at a new width: RowKit measure(width:), Pango set_width + get_pixel_size")
        row("sample of \(grouped(pangoSample)) paragraphs, one PangoLayout each", rowkitRemeasureSample, pangoRemeasure,
            ratio: remeasureRatio, target: "≥ \(fixed(Self.remeasureTarget, 0))×: \(verdict(remeasureRatioMet))")
        row("RowKit, all \(grouped(paragraphs)) paragraphs", rowkitRemeasureAll)
        line("(c) RowKit re-measure details")
        row("25-word paragraphs (\(grouped(paragraphs25))), measure(width:)", rowkitRemeasure25,
            target: "< \(fixed(Self.remeasure25Target, 1)) µs: \(verdict(remeasure25Met))")
        row("all paragraphs, lineCount(width:)", rowkitLineCountAll)
        row("all paragraphs, measure(width:)", rowkitRemeasureAll)
        if let ns25 = rowkitRemeasure25?.nanosecondsPerItem {
            line("  (25-word re-measure = \(fixed(ns25, 1)) ns; lineCount/measure = "
                 + "\(fixed((rowkitLineCountAll?.microsecondsPerItem ?? .nan) / (rowkitRemeasureAll?.microsecondsPerItem ?? .nan), 2)))")
        }
        line()
        line("memory of the prepared form")
        line("  PreparedText.byteCount: mean \(grouped(Int(bytesPerParagraph.rounded()))) B per paragraph, "
             + "\(fixed(Double(preparedBytes) / Double(max(1, preparedUnits)), 1)) B per UTF-16 unit, "
             + "\(mebibytes(preparedBytes)) for the corpus (shared shaped runs excluded)")
        line("  shape cache after a cold pass: \(grouped(cacheStatistics.runs)) runs; \(grouped(cacheStatistics.hits)) hits, "
             + "\(grouped(cacheStatistics.misses)) misses (hit rate \(fixed(100 * cacheHitRate, 1))%); "
             + "capacity \(grouped(ShapeCache.shared.capacity)) runs per generation")
        line("  RSS growth over the first cold pass (prepared texts + shape cache + allocator): "
             + (rssGrowth.map(mebibytes) ?? "n/a"))
        line()
        line("agreement with Pango on line counts (a sanity check: Pango is not the reference)")
        line("  at W1, all paragraphs: same count \(fixed(percent(sameLinesW1, of: paragraphs), 1))%, "
             + "within ±1 line \(fixed(percent(withinOneW1, of: paragraphs), 1))%")
        line("  at W2, the \(grouped(pangoSample))-paragraph sample: same count \(fixed(percent(sameLinesW2Sample, of: pangoSample), 1))%")
        line()
        line("method")
        line("  (a) RowKit: ShapeCache.shared.removeAll() before each repetition, then PreparedText + measure(W1) for every")
        line("      paragraph in order, keeping the prepared texts; words repeat, so the cache warms as designed. \"Fully")
        line("      cold\" empties the cache (untimed) before each paragraph of an evenly spread subset. Pango: one")
        line("      PangoLayout (\(fontFamily), absolute size \(fixed(fontSize, 0)) px, PANGO_WRAP_WORD_CHAR) reused; set_text")
        line("      discards its lines, so get_pixel_size lays every paragraph out from scratch.")
        line("  (b) Pango keeps one PangoLayout per sampled paragraph, text set and laid out at W1 before timing; the")
        line("      timed passes call set_width + get_pixel_size on each, alternating W2, W1, W2, … so every call")
        line("      re-lays the paragraph out at a width it did not hold. RowKit measures the same paragraphs at the")
        line("      same alternating widths; the ratio compares the two on that sample.")
        line("  checksum 0x\(String(checksum, radix: 16)) (every result feeds it, so no work is optimized away)")
        if let cells { line(cells.table()) }
        return out.joined(separator: "\n")
    }

    // MARK: - JSON

    func json() -> JSONObject {
        func us(_ t: Timing?) -> Double? { t.map { ($0.microsecondsPerItem * 1e5).rounded() / 1e5 } }
        func rounded(_ x: Double?, _ digits: Double = 1e3) -> Double? { x.map { ($0 * digits).rounded() / digits } }
        var j = JSONObject()
        j.add("paragraphs", paragraphs)
        j.add("paragraphs_25_words", paragraphs25)
        j.add("quick", options.quick)
        j.add("seed", corpus.map { "0x" + String($0.seed, radix: 16) } ?? "")
        j.add("fingerprint", corpus.map { "0x" + String($0.fingerprint, radix: 16) } ?? "")
        j.add("pango_version", PangoMeasurer.version)
        j.add("w1", w1)
        j.add("w2", w2)
        j.add("cold_rowkit_us", us(rowkitCold))
        j.add("cold_pango_us", us(pangoCold))
        j.add("cold_ratio", rounded(coldRatio))
        j.add("fully_cold_rowkit_us", us(rowkitFullyCold))
        j.add("fully_cold_paragraphs", fullyColdSubset)
        j.add("warm_rowkit_us", us(rowkitWarm))
        j.add("warm_cache_hit_rate_pct", rounded(100 * warmHitRate, 100))
        j.add("remeasure_rowkit_us", us(rowkitRemeasureSample))
        j.add("remeasure_pango_us", us(pangoRemeasure))
        j.add("remeasure_ratio", rounded(remeasureRatio))
        j.add("remeasure_sample", pangoSample)
        j.add("remeasure_rowkit_all_us", us(rowkitRemeasureAll))
        j.add("remeasure_25_words_us", us(rowkitRemeasure25))
        j.add("line_count_all_us", us(rowkitLineCountAll))
        j.add("measure_all_us", us(rowkitRemeasureAll))
        j.add("prepared_bytes_per_paragraph", rounded(bytesPerParagraph, 10))
        j.add("shape_cache_runs", cacheStatistics.runs)
        j.add("shape_cache_hits", cacheStatistics.hits)
        j.add("shape_cache_misses", cacheStatistics.misses)
        j.add("distinct_words", corpus?.distinctWords ?? 0)
        j.add("distinct_tokens", corpus?.distinctTokens ?? 0)
        j.add("rss_growth_bytes", rssGrowth)
        j.add("same_line_count_w1_pct", rounded(percent(sameLinesW1, of: paragraphs), 100))
        j.add("within_one_line_w1_pct", rounded(percent(withinOneW1, of: paragraphs), 100))
        j.add("same_line_count_w2_sample_pct", rounded(percent(sameLinesW2Sample, of: pangoSample), 100))
        j.add("load_average", loadAverage)
        var targets = JSONObject()
        targets.add("cold_ratio_min", Self.coldTarget)
        targets.add("cold_ratio_met", coldMet)
        targets.add("remeasure_ratio_min", Self.remeasureTarget)
        targets.add("remeasure_ratio_met", remeasureRatioMet)
        targets.add("remeasure_25_words_us_max", Self.remeasure25Target)
        targets.add("remeasure_25_words_met", remeasure25Met)
        j.add("targets", targets)
        if let cells { j.add("cells", cells.json()) }
        var real = JSONObject()
        if let corporaNote { real.add("note", corporaNote) }
        if let corporaDirectory { real.add("directory", corporaDirectory) }
        for c in corpora { real.add(c.corpus.name, c.json()) }
        j.add("corpora", real)
        j.add("checksum", "0x" + String(checksum, radix: 16))
        return j
    }
}
