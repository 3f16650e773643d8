// rowkit-bench: RowKit against Pango on the real corpora (English; ten other languages) and a
// generated corpus, in one run, on one thread; then the classic cells.
//
//   swift build -c release --product rowkit-bench && .build/release/rowkit-bench [--paragraphs N] [--quick] [--results DIR]
//
// Prints a table on stdout and, last, one `BENCH_JSON {…}` line; with --results, also writes
// the figures to DIR/text-<date>.json. Progress goes to stderr.
// Targets are printed next to the figures; missing one never makes the exit status non-zero.

import Glibc
import RowKitCells
import RowKitText

var arguments = Array(CommandLine.arguments.dropFirst())
if let fixed = getenv("ROWKIT_WORD_CACHE_CAPACITY").flatMap({ Int(String(cString: $0)) }), fixed > 0 {
    // Measuring aid: another word-cache capacity per generation (entries), to
    // compare sizes (docs/DESIGN.md, text-perf's sixth round).
    PrepareScratch.overrideWordCacheCapacity(fixed)
}
if let generations = getenv("ROWKIT_WORD_CACHE_GENERATIONS").flatMap({ Int(String(cString: $0)) }), generations > 0 {
    // Measuring aid: another number of word-cache generations (2…4), to compare (docs/DESIGN.md,
    // issue 8's twenty-second round).
    PrepareScratch.overrideWordCacheGenerations(generations)
}
if arguments.first == "--profile-prepare" {
    // Profiling aid: RowKit prepare + measure only, cache emptied per pass, for about 5 s
    // (or for exactly N passes over N×1000 paragraphs with `--profile-prepare N`, for callgrind).
    let fixedPasses = arguments.count > 1 ? Int(arguments[1]) : nil
    let corpus = Corpus.generate(count: fixedPasses.map { $0 * 1000 } ?? 20_000)
    let style = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 13, lineHeight: .pixels(16))
    var sum = 0
    let start = ContinuousClock.now
    var passes = 0
    while fixedPasses.map({ passes < $0 }) ?? (ContinuousClock.now - start < .seconds(5)) {
        ShapeCache.shared.removeAll()
        for text in corpus.paragraphs { sum &+= (try? PreparedText(text, style: style).measure(width: 300).lineCount) ?? 0 }
        passes += 1
    }
    let elapsed = ContinuousClock.now - start
    let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
    print("profile-prepare: \(passes) passes, \(micros / Double(passes * corpus.paragraphs.count)) µs per paragraph (checksum \(sum))")
    exit(0)
}
if arguments.first == "--profile-corpus" {
    // Profiling aid: RowKit prepare + measure of one real corpus (english | multilingual), cache
    // emptied per pass, PASSES passes (default 1), for callgrind or perf.
    guard arguments.count > 1, let real = RealCorpora.load() else {
        progress("rowkit-bench: --profile-corpus english|multilingual|FILE [PASSES] [metrics]; " + RealCorpora.absenceNote())
        exit(2)
    }
    let corpus: RealCorpus
    switch arguments[1] {
    case "english": corpus = real.english
    case "multilingual": corpus = real.multilingual
    default:
        // One file of the corpora folder, by name.
        guard let text = RealCorpora.readFile(real.directory + "/" + arguments[1]) else {
            progress("rowkit-bench: cannot read \(real.directory)/\(arguments[1])")
            exit(2)
        }
        corpus = RealCorpus(name: arguments[1], files: [arguments[1]],
                            paragraphs: text.split(separator: "\n").map(String.init).filter { !$0.allSatisfy(\.isWhitespace) })
    }
    let passes = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
    // `metrics`: the compact measuring form (what a list makes per row), else the drawing form.
    let metricsOnly = arguments.count > 3 && arguments[3] == "metrics"
    let style = TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 16, lineHeight: .normal)
    // `keep`: the forms are kept until the pass ends, as the benchmark keeps them.
    let keep = arguments.count > 5 && arguments[5] == "keep"
    var kept: [TextMetrics] = [], keptPrepared: [PreparedText] = []
    func lines(_ text: String) -> Int {
        if metricsOnly {
            guard let m = try? TextMetrics(text, style: style) else { return 0 }
            if keep { kept.append(m) }
            return (try? m.measure(width: 320).lineCount) ?? 0
        }
        guard let p = try? PreparedText(text, style: style) else { return 0 }
        if keep { keptPrepared.append(p) }
        return (try? p.measure(width: 320).lineCount) ?? 0
    }
    var sum = 0
    // Open the fonts first (untimed in the benchmark too). `bench-warmup`: as the full benchmark
    // warms up (drawing form and Pango, paragraph by paragraph), to compare with its figures.
    if arguments.count > 4 && arguments[4] == "bench-warmup" {
        let pango = PangoMeasurer(family: "Noto Sans", pixelSize: 16)
        let layout = pango.makeLayout(width: 320)
        for text in corpus.paragraphs {
            sum &+= (try? PreparedText(text, style: style).measure(width: 320).lineCount) ?? 0
            layout.setText(text)
            sum &+= Int(layout.pixelSize().height)
        }
    } else {
        for text in corpus.paragraphs { sum &+= lines(text) }
    }
    var elapsed = Duration.zero
    for _ in 0..<passes {
        kept = []
        keptPrepared = []
        ShapeCache.shared.removeAll()
        let passStart = ContinuousClock.now
        for text in corpus.paragraphs { sum &+= lines(text) }
        elapsed += ContinuousClock.now - passStart
    }
    let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
    let words = PrepareScratch.wordCacheStatistics
    print("profile-corpus \(corpus.name): \(passes) passes, \(micros / Double(passes * corpus.paragraphs.count)) µs per paragraph (checksum \(sum)); "
          + "word cache: \(words.entries) entries, \(words.hits) hits, \(words.misses) misses, \(words.rotations) rotations over the whole run, \(words.capacity) per generation, \(words.bytes / 1024) KiB")
    exit(0)
}
if arguments.first == "--profile-measure" {
    // Profiling aid: re-measuring the 25-word paragraphs only, alternating two widths, for ~3 s
    // (or exactly PASSES passes of 100 rounds, for callgrind: count the instructions of
    // `remeasureRounds`).
    let fixedPasses = arguments.count > 1 ? Int(arguments[1]) : nil
    let corpus = Corpus.generate(count: 20_000)
    let style = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 13, lineHeight: .pixels(16))
    let prepared = corpus.indices(withWords: 25).compactMap { try? PreparedText(corpus.paragraphs[$0], style: style) }
    var sum = 0, calls = 0, passes = 0
    let start = ContinuousClock.now
    while fixedPasses.map({ passes < $0 }) ?? (ContinuousClock.now - start < .seconds(3)) {
        sum &+= remeasureRounds(prepared, rounds: 100)
        calls += 100 * prepared.count
        passes += 1
    }
    let elapsed = ContinuousClock.now - start
    let nanos = (Double(elapsed.components.seconds) * 1e18 + Double(elapsed.components.attoseconds)) / 1e9
    print("profile-measure: \(calls) calls, \(nanos / Double(calls)) ns per 25-word paragraph (checksum \(sum))")
    exit(0)
}

/// `rounds` passes of measure(width:) over `prepared`, alternating 300 and 220 px.
@inline(never)
func remeasureRounds(_ prepared: [PreparedText], rounds: Int) -> Int {
    var sum = 0
    for _ in 0..<rounds {
        for (k, p) in prepared.enumerated() { sum &+= (try? p.measure(width: k & 1 == 0 ? 300 : 220).lineCount) ?? 0 }
    }
    return sum
}
if arguments.first == "--profile-cells" {
    // Profiling aid: re-measuring the compact forms of 20,000 rows of one classic cell (the cell
    // benchmark's rows; default caption-text), alternating 480 and 320 px, for ~3 s (or exactly
    // PASSES passes, for callgrind: count `remeasureCompact`).
    let fixedPasses = arguments.count > 1 ? Int(arguments[1]) : nil
    let name = arguments.count > 2 ? arguments[2] : "caption-text"
    guard let index = ClassicCells.all.firstIndex(where: { $0.name == name }) else {
        progress("rowkit-bench: --profile-cells [PASSES] [CELL]: no classic cell named '\(name)'")
        exit(2)
    }
    let template = ClassicCells.all[index]
    let compiled = template.compile()
    let rows = CellRows.generate(for: name, count: 20_000, seed: 0x4365_6C6C_0000 &+ UInt64(index))
    let forms = rows.compactMap { try? compiled.metrics(for: $0) }
    var sum: UInt64 = 0
    var calls = 0, passes = 0
    let start = ContinuousClock.now
    while fixedPasses.map({ passes < $0 }) ?? (ContinuousClock.now - start < .seconds(3)) {
        sum &+= (try? remeasureCompact(forms, width: passes & 1 == 0 ? 480 : 320)) ?? 0
        calls += forms.count
        passes += 1
    }
    let elapsed = ContinuousClock.now - start
    let nanos = (Double(elapsed.components.seconds) * 1e18 + Double(elapsed.components.attoseconds)) / 1e9
    print("profile-cells: \(calls) calls, \(nanos / Double(calls)) ns per \(name) cell (checksum \(sum))")
    exit(0)
}
/// The four styles `--digest` and `--layout-digest` prepare every corpus paragraph in.
let digestStyles: [(String, TextStyle)] = [
    ("noto-16", TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 16, lineHeight: .normal)),
    ("dejavu-bold-13", TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: .bold), size: 13, lineHeight: .pixels(16))),
    ("serif-italic-ja", TextStyle(font: FontDescriptor(family: "Liberation Serif", slant: .italic), size: 15, lang: "ja")),
    ("sans-zh-rtl", TextStyle(font: FontDescriptor(family: "sans-serif"), size: 14, direction: .rtl, lang: "zh-CN")),
]

/// Digests every corpus file's paragraphs in each of ``digestStyles`` with `digest` (which
/// returns the digest and the words to print after the paragraph count), prints a line per file
/// and style and then `total <label> <hex>`, and exits.
func printCorpusDigests(label: String, _ digest: (_ paragraphs: [String], _ style: TextStyle) -> (Digest, note: String)) -> Never {
    guard let real = RealCorpora.load() else { progress("rowkit-bench: " + RealCorpora.absenceNote()); exit(2) }
    var total = Digest()
    for file in (real.english.files + real.multilingual.files).sorted() {
        guard let text = RealCorpora.readFile(real.directory + "/" + file) else { continue }
        let paragraphs = text.split(separator: "\n").map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
        for (name, style) in digestStyles {
            let (d, note) = digest(paragraphs, style)
            print("\(file) \(name): \(paragraphs.count) paragraphs, \(note)")
            total.add(d.value)
        }
    }
    print("total \(label) \(String(total.value, radix: 16))")
    exit(0)
}

if arguments.first == "--digest" {
    // Checking aid: a digest, per corpus file and style, of everything preparing decides — each
    // paragraph's measuring form, byte for byte, and its glyph runs (font file, range, level,
    // glyphs, advances) — to compare two builds of a change meant to keep results identical.
    printCorpusDigests(label: "digest") { paragraphs, style in
        var d = Digest()
        for paragraph in paragraphs {
            guard let p = try? PreparedText(paragraph, style: style) else { d.add(0xDEAD); continue }
            let m = p.metrics
            var bytes = [UInt8](repeating: 0, count: m.blockByteCount)
            bytes.withUnsafeMutableBytes { m.copyBlock(to: $0.baseAddress!) }
            for b in bytes { d.add(UInt64(b)) }
            guard let t = try? TextMetrics(paragraph, style: style) else { d.add(0xBEEF); continue }
            var bytes2 = [UInt8](repeating: 0, count: t.blockByteCount)
            bytes2.withUnsafeMutableBytes { t.copyBlock(to: $0.baseAddress!) }
            if bytes2 != bytes { d.add(0xF00D) }
            for run in p.runs {
                for byte in run.font.path.utf8 { d.add(UInt64(byte)) }
                d.add(UInt64(run.font.faceIndex)); d.add(UInt64(run.start)); d.add(UInt64(run.end)); d.add(UInt64(run.bidiLevel))
                for g in run.shaped.glyphIDs { d.add(UInt64(g)) }
                for a in run.shaped.glyphAdvances { d.add(UInt64(UInt32(bitPattern: a))) }
            }
        }
        return (d, "digest \(String(d.value, radix: 16))")
    }
}

if arguments.first == "--layout-digest" {
    // Checking aid: a digest, per corpus file and style (`--digest`'s four), of what layout
    // decides, not of the measuring form's bytes — each paragraph at twelve widths (narrow and
    // fractional ones included, where break-word lines end inside words and read the kerning
    // extras): the measure of its ``TextMetrics`` (line count, height, widest line; and with at
    // most 3 lines), and its ``PreparedText``'s lines (unit range, width, hyphen and ellipsis).
    // Two builds that lay out identically give the same digest whatever their forms' layout.
    let widths: [Double] = [13.5, 29.75, 40, 55.5, 77.25, 120, 160.125, 200, 320, 480, 641.5, 1000]
    func add(_ d: inout Digest, _ x: Double) { d.add(x.bitPattern) }
    printCorpusDigests(label: "layout digest") { paragraphs, style in
        var d = Digest()
        var lineCount = 0
        for paragraph in paragraphs {
            guard let p = try? PreparedText(paragraph, style: style), let t = try? TextMetrics(paragraph, style: style) else {
                d.add(0xDEAD); continue
            }
            for width in widths {
                if let m = try? t.measure(width: width) {
                    d.add(UInt64(m.lineCount)); add(&d, m.height); add(&d, m.maxLineWidth)
                } else { d.add(0xBEEF) }
                if let m = try? t.measure(width: width, maxLines: 3) {
                    d.add(UInt64(m.lineCount)); add(&d, m.height); add(&d, m.maxLineWidth)
                } else { d.add(0xBEEF) }
                guard let layout = try? p.layout(width: width) else { d.add(0xF00D); continue }
                d.add(UInt64(layout.lines.count)); add(&d, layout.height)
                lineCount += layout.lines.count
                for line in layout.lines {
                    d.add(UInt64(line.start)); d.add(UInt64(line.end)); add(&d, line.width)
                    d.add((line.hyphenated ? 1 : 0) | (line.ellipsized ? 2 : 0))
                }
            }
        }
        return (d, "\(lineCount) lines, layout digest \(String(d.value, radix: 16))")
    }
}

/// FNV-style running digest (for `--digest` and `--layout-digest`).
struct Digest {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325
    mutating func add(_ x: UInt64) { value = (value ^ x) &* 0x100_0000_01B3 }
}
if arguments.first == "--corpus-only" {
    // Only one real corpus's side-by-side benchmark (english | multilingual), as the full run
    // does it, with every repetition's time: --corpus-only english [--quick]
    guard arguments.count > 1, let real = RealCorpora.load() else {
        progress("rowkit-bench: --corpus-only english|multilingual [--quick]; " + RealCorpora.absenceNote())
        exit(2)
    }
    let corpus = arguments[1] == "multilingual" ? real.multilingual : real.english
    var sink = Checksum()
    do {
        let r = try runCorpusBench(corpus, quick: arguments.contains("--quick"), policy: TimingPolicy(), checksum: &sink)
        for line in r.tableLines() { print(line) }
        func all(_ t: Timing?) -> String {
            guard let t else { return "" }
            return zip(t.all, t.cpu).map { "\(fixed($0, 1)) (CPU \(fixed($1, 1)))" }.joined(separator: " / ")
                + "; page faults \(t.pageFaults.map(String.init).joined(separator: " / ")), preempted \(t.preemptions.map(String.init).joined(separator: " / "))"
        }
        print("  repetitions (µs per paragraph, wall and CPU):")
        print("    measuring form \(all(r.rowkitColdMetrics))")
        print("    with glyphs    \(all(r.rowkitCold))")
        print("    Pango          \(all(r.pangoCold))")
    } catch { progress("rowkit-bench: \(error)"); exit(1) }
    exit(0)
}
if arguments.first == "--list-only" {
    // Only the list-engine benchmark: --list-only [ROWS]
    let rows = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
    do { print(try runListBench(rows: rows).table()) } catch { progress("rowkit-bench: \(error)"); exit(1) }
    // Each preparing thread keeps its own word cache: how many there were explains part of the
    // memory growth's spread from run to run.
    print("threads that prepared text (each with its word cache): \(PrepareScratch.threadsMade.load(ordering: .relaxed)) made, "
          + "\(PrepareScratch.threadsLive.load(ordering: .relaxed)) live")
    if getenv("ROWKIT_LIST_FORM_COLD") == nil { printMeasuringThreadsWordCaches() }
    if getenv("ROWKIT_LIST_FORM_COLD") != nil {
        let words = PrepareScratch.wordCacheStatistics
        print("word cache: \(words.entries) entries, \(words.hits) hits, \(words.misses) misses, \(words.rotations) rotations, "
              + "\(words.capacity) per generation, \(words.bytes / 1024) KiB")
    }
    exit(0)
}
let options = Options.parse(arguments)
do {
    let results = try Benchmark(options: options).run()
    print(results.table())
    print("BENCH_JSON " + results.json().text)
    if let directory = options.resultsDirectory {
        let path = try writeResultsFile(results, directory: directory, arguments: arguments)
        progress("wrote \(path)")
    }
} catch {
    progress("rowkit-bench: \(error)")
    exit(1)
}
