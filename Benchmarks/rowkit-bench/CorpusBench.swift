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
    var rowkitCold: Timing?
    var pangoCold: Timing?
    var rowkitRemeasure: Timing?
    var rowkitRemeasureSample: Timing?
    var pangoRemeasure: Timing?
    var pangoSample = 0
    var preparedBytes = 0
    var cacheRuns = 0, cacheHits = 0, cacheMisses = 0
    var sameLines = 0
    /// Paragraphs measured (all of them, or an even sample with --quick).
    var measured = 0

    static let coldTarget = 10.0
    static let remeasureTarget = 500.0

    var paragraphs: Int { measured }
    var coldRatio: Double? { ratio(pangoCold, rowkitCold) }
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
            row("cold: prepare + measure at \(fixed(width, 0)) px (cache empty at start)", rowkitCold, pangoCold, coldRatio,
                "≥ \(fixed(Self.coldTarget, 0))×: \(verdict(coldMet))"),
            row("re-measure at \(fixed(secondWidth, 0))/\(fixed(width, 0)) px, sample of \(grouped(pangoSample))",
                rowkitRemeasureSample, pangoRemeasure, remeasureRatio, "≥ \(fixed(Self.remeasureTarget, 0))×: \(verdict(remeasureMet))"),
            row("re-measure, all paragraphs (RowKit)", rowkitRemeasure, nil, nil, ""),
            "    prepared form \(grouped(preparedBytes / max(1, paragraphs))) B per paragraph; shape cache after the cold pass "
                + "\(grouped(cacheRuns)) runs, hit rate \(fixed(100 * hitRate, 1))%; same line count as Pango at "
                + "\(fixed(width, 0)) px: \(fixed(100 * Double(sameLines) / Double(max(1, paragraphs)), 1))%",
        ]
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
        j.add("cold_rowkit_us", us(rowkitCold))
        j.add("cold_pango_us", us(pangoCold))
        j.add("cold_ratio", rounded(coldRatio))
        j.add("cold_ratio_target_min", Self.coldTarget)
        j.add("cold_ratio_met", coldMet)
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
        return j
    }
}

/// Runs both engines on one real corpus.
func runCorpusBench(_ corpus: RealCorpus, quick: Bool, policy: TimingPolicy, checksum: inout Checksum) throws -> CorpusTiming {
    let family = "Noto Sans", size = 16.0, width = 320.0, second = 480.0
    var r = CorpusTiming(corpus: corpus, fontFamily: family, fontSize: size, width: width, secondWidth: second)
    let texts = quick ? evenSample(count: 300, of: corpus.paragraphs.count).map { corpus.paragraphs[$0] } : corpus.paragraphs
    let n = texts.count
    r.measured = n
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

    progress("\(corpus.name): RowKit prepare + measure, cache empty at start…")
    var prepared: [PreparedText] = []
    var rowkitLines = [Int](repeating: 0, count: n)
    r.rowkitCold = try timeSlowLoop(items: n, policy: policy, checksum: &checksum, setup: {
        prepared = []
        prepared.reserveCapacity(n)
        ShapeCache.shared.removeAll()
    }, after: { _ in
        let s = ShapeCache.shared.statistics
        (r.cacheRuns, r.cacheHits, r.cacheMisses) = (s.runs, s.hits, s.misses)
    }) { _ in
        var sum: UInt64 = 0
        for i in 0..<n {
            let p = try PreparedText(texts[i], style: style)
            let m = try p.measure(width: width)
            rowkitLines[i] = m.lineCount
            sum &+= UInt64(m.lineCount) &+ m.maxLineWidth.bitPattern
            prepared.append(p)
        }
        return sum
    }

    progress("\(corpus.name): Pango set_text + set_width + get_pixel_size…")
    var pangoLines = [Int](repeating: 0, count: n)
    r.pangoCold = timeSlowLoop(items: n, policy: policy, checksum: &checksum) { _ in
        var sum: UInt64 = 0
        for i in 0..<n {
            layout.setText(texts[i])
            layout.setWidth(width)
            let size = layout.pixelSize()
            pangoLines[i] = layout.lineCount
            sum &+= UInt64(size.width) &* 65_536 &+ UInt64(size.height)
        }
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
