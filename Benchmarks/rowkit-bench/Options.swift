import Glibc

/// Command-line options.
struct Options {
    /// Paragraphs in the corpus.
    var paragraphs = 20_000
    /// Small, fast run for smoke tests (about a second).
    var quick = false
    /// Folder the JSON results file goes to (nil: none). `make bench` writes one per run.
    var resultsDirectory: String?
    /// Skip the real corpora even when they are present.
    var skipCorpora = false

    /// How long each repetition of a fast loop runs.
    var minimumSeconds: Double { quick ? 0.02 : 0.5 }
    /// Paragraphs re-measured by Pango, one PangoLayout each (and by RowKit, for the ratio).
    var pangoSampleSize: Int { min(paragraphs, quick ? 200 : 2_000) }
    /// Paragraphs prepared with the shape cache emptied before each one.
    var fullyColdSize: Int { min(paragraphs, quick ? 100 : 2_000) }

    static let usage = """
        usage: rowkit-bench [--paragraphs N] [--quick] [--results DIR] [--corpora DIR | --no-corpora]
               rowkit-bench --list-only [ROWS]
               rowkit-bench --profile-prepare [PASSES] | --profile-corpus english|multilingual|FILE [PASSES] [metrics [bench-warmup [keep]]]
               rowkit-bench --profile-measure | --profile-cells [PASSES] [CELL]
               rowkit-bench --corpus-only english|multilingual [--quick] | --digest | --layout-digest

          --paragraphs N     paragraphs in the generated corpus (default 20000; 1000 with --quick)
          --quick            small run for smoke tests (a few seconds)
          --results DIR      also write the figures as DIR/text-<date>.json (make bench: Benchmarks/results)
          --corpora DIR      the real corpora folder (default: $ROWKIT_CORPORA, else shared/corpora
                             next to the working directory or a folder above it)
          --no-corpora       skip the real corpora
          --list-only ROWS   only the list-engine benchmark (default 1,000,000 rows)
          --profile-prepare  RowKit prepare + measure alone, for a profiler (5 s, or PASSES × 1000 paragraphs)
          --profile-corpus   RowKit prepare + measure of a real corpus alone, PASSES passes (default 1); `metrics`: the compact form only;
                             then `bench-warmup` (warm up as the full run does) and `keep` (keep the forms until the pass ends)
          --profile-measure  re-measuring 25-word paragraphs alone (3 s)
          --corpus-only      one real corpus's side-by-side benchmark alone, with every repetition's wall and CPU time
          --digest           a digest of every measuring form and glyph run of the corpora in four styles (to compare builds)
          --layout-digest    a digest of what layout decides for the corpora (heights, lines, widths at twelve widths, four
                             styles): equal for two builds that lay out alike, whatever their measuring forms' bytes
          --profile-cells    re-measuring one classic cell's compact forms alone (3 s or PASSES passes; default caption-text)
          --help             this text
        """

    /// Parses the arguments; prints the usage and exits on `--help` (status 0) or an error (status 2).
    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var paragraphs: Int?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick":
                options.quick = true
            case "--results":
                guard let value = rest.popFirst(), !value.isEmpty else { fail("--results needs a folder") }
                options.resultsDirectory = value
            case "--corpora":
                guard let value = rest.popFirst(), !value.isEmpty else { fail("--corpora needs a folder") }
                setenv(RealCorpora.environmentVariable, value, 1)
            case "--no-corpora":
                options.skipCorpora = true
            case "--paragraphs":
                guard let value = rest.popFirst(), let n = Int(value), n > 0 else { fail("--paragraphs needs a positive integer") }
                paragraphs = n
            case "--help", "-h":
                print(usage)
                exit(0)
            default:
                fail("unknown argument '\(argument)'")
            }
        }
        options.paragraphs = paragraphs ?? (options.quick ? 1_000 : 20_000)
        return options
    }

    private static func fail(_ message: String) -> Never {
        progress("rowkit-bench: \(message)\n\n\(usage)")
        exit(2)
    }
}

/// Writes a line to stderr (progress and errors; stdout holds only the report).
func progress(_ message: String) {
    let line = message + "\n"
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
