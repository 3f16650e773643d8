import ArgumentParser
import Dispatch
import Foundation
import RowKitIO
import RowKitText

struct Measure: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure texts at one or more widths, as a browser would lay them out.",
        discussion: """
        Input is JSON Lines: each line is a JSON string (the text) or an object {"text": …} that may \
        override "font", "size", "width" and the style keys "weight", "italic", "whiteSpace", "direction", \
        "lang" and "lineHeight" (a number or "normal"). Output is one JSON object per text per \
        width, in input order: {"index": i, "width": W, "lineCount": n, "height": h, "maxLineWidth": w}. \
        "index" is the 0-based input line. A bad line gets an error on stderr naming its line number; \
        the other lines are still measured and the exit status is 1. The input is streamed (any \
        size; one line at most 16 MiB); CRLF line ends and a UTF-8 byte order mark are accepted.
        """
    )

    @OptionGroup var text: TextOptions

    @Option(parsing: .unconditional, help: "Width(s) in pixels, comma-separated, e.g. 150,300,600.")
    var width: String?

    @Option(help: "JSON Lines input file, or - for standard input.")
    var input: String = "-"

    @Flag(help: "Also output each line's text, width and fonts (\"lines\": [{\"text\": …, \"width\": …, \"fonts\": […]}]).")
    var lines = false

    func validate() throws {
        _ = try width.map(parseWidths)
    }

    func run() throws {
        let widths = try width.map(parseWidths) ?? []
        try text.checkFont()
        let source = BufferedInput(try InputFile(input, what: "input"))
        let progress = ProgressBar(label: "measure", unit: "texts")
        let output = OutputWriter()
        var failed = false
        var count = 0
        var chunk: [BufferedInput.Line] = []
        var chunkBytes = 0
        var warnings = FontWarnings()
        func measureChunk() throws {
            guard !chunk.isEmpty else { return }
            let results = ResultSlots<(result: Result<[TextMeasureLine], LineError>, fontWarning: FontWarning?)>(count: chunk.count)
            let lines = chunk
            let name = source.name
            DispatchQueue.concurrentPerform(iterations: lines.count) { i in
                results[i] = measureLine(lines[i], index: lines[i].number - 1, source: name, defaultWidths: widths)
            }
            for i in 0..<lines.count {
                if let warning = results[i]!.fontWarning {
                    try output.flush()
                    warnings.report(warning, source: name, line: lines[i].number)
                }
                switch results[i]!.result {
                case .success(let measured):
                    for m in measured { try output.writeLine(m.json) }
                case .failure(.blank):
                    continue
                case .failure(let error):
                    failed = true
                    try output.flush()
                    Diagnostics.error("\(source.name):\(lines[i].number)\(error.columnSuffix): \(error)")
                }
            }
            try output.flush()
            count += lines.count
            chunk.removeAll(keepingCapacity: true)
            chunkBytes = 0
            progress.update(count, fraction: source.byteCount.map { Double(source.consumedBytes) / Double(max(1, $0)) })
        }
        while true {
            // Measure what has been read before waiting for more: a program that writes a line
            // and waits for its answer (or a person at a terminal) gets it at once.
            if !chunk.isEmpty && !source.hasLineWithoutWaiting { try measureChunk() }
            guard let line = try source.nextLine() else { break }
            chunk.append(line)
            chunkBytes += line.bytes.count * Self.resultWeight(widths: widths.count, lines: lines)
            if Self.chunkIsFull(lines: chunk.count, weightedBytes: chunkBytes) { try measureChunk() }
        }
        try measureChunk()
        progress.finish()
        if failed { throw ExitCode(1) }
    }

    /// Bounded memory: a chunk's results are all held until it is written, so a chunk ends at
    /// 4,096 lines or 32 MiB of *weighted* text in flight — each line's bytes times
    /// ``resultWeight(widths:lines:)``, what its results may take per byte of text.
    static func chunkIsFull(lines: Int, weightedBytes: Int) -> Bool {
        lines >= 4096 || weightedBytes >= 32 << 20
    }

    /// How much memory a text's results may take per byte of its text: one result per width
    /// (the default widths; a line naming more is bounded by its own size), and with `--lines`
    /// each line's text, width and fonts besides, up to ~26 times the text at narrow widths,
    /// counted 32. (40 MB of input at 50 widths with `--lines` reached 8.6 GB before, 32 MiB
    /// chunks of unweighted text.)
    static func resultWeight(widths: Int, lines: Bool) -> Int {
        max(1, widths) * (lines ? 32 : 1)
    }

    struct TextMeasureLine {
        var index: Int, width: Double, measure: TextMeasure
        var lines: [(text: String, width: Double, fonts: [String])]?
        var json: String {
            var json = "{\"index\": \(index), \"width\": \(JSONText.number(width)), \"lineCount\": \(measure.lineCount), \"height\": \(JSONText.number(measure.height)), \"maxLineWidth\": \(JSONText.number(layoutUnits(measure.maxLineWidth)))"
            if let lines {
                json += ", \"lines\": [" + lines.map { "{\"text\": \(JSONText.string($0.text)), \"width\": \(JSONText.number(layoutUnits($0.width))), \"fonts\": [\($0.fonts.map(JSONText.string).joined(separator: ", "))]}" }.joined(separator: ", ") + "]"
            }
            return json + "}"
        }
        /// Widths are reported rounded up to the browser's 1/64 px layout unit.
        func layoutUnits(_ width: Double) -> Double { (width * 64).rounded(.up) / 64 }
    }

    func measureLine(_ line: BufferedInput.Line, index: Int, source: String, defaultWidths: [Double])
        -> (result: Result<[TextMeasureLine], LineError>, fontWarning: FontWarning?) {
        if line.isTooLong { return (.failure(.message("the line is longer than the \(byteCountText(InputLimits.recordBytes)) limit")), nil) }
        if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return (.failure(.blank), nil) }
        let record: InputRecord
        do { record = try InputRecord.parse(line, source: source) } catch { return (.failure(error), nil) }
        return (measure(record, index: index, defaultWidths: defaultWidths), record.fontWarning.map { FontWarning(message: $0, column: record.fontColumn) })
    }

    func measure(_ record: InputRecord, index: Int, defaultWidths: [Double]) -> Result<[TextMeasureLine], LineError> {
        let widths = record.width.map { [$0] } ?? defaultWidths
        guard !widths.isEmpty else { return .failure(.message("no width: pass --width or give \"width\" in the line")) }
        if let font = record.font {
            do { try FontPaths.check(font) } catch { return .failure(.message(error.description, column: record.fontColumn)) }
        }
        do throws(TextError) {
            let prepared = try PreparedText(record.text, style: text.style(font: record.font, size: record.size, overrides: record.style))
            var measured: [TextMeasureLine] = []
            for width in widths {
                var result = TextMeasureLine(index: index, width: width, measure: try prepared.measure(width: width))
                if lines {
                    let layout = try prepared.layout(width: width)
                    result.lines = layout.lines.indices.map { i in
                        var fonts: [String] = []
                        for piece in layout.glyphs(ofLine: i) where !fonts.contains(piece.font.family) { fonts.append(piece.font.family) }
                        return (layout.text(ofLine: i), layout.lines[i].width, fonts)
                    }
                }
                measured.append(result)
            }
            return .success(measured)
        } catch {
            return .failure(.message(error.description))
        }
    }
}

/// A line's "font family … is not installed" warning and the column of its "font".
struct FontWarning: Sendable {
    var message: String, column: Int
}

/// Prints each missing family's warning once per run, at the first line (in input order) that
/// names it: `warning: stdin:3:22: "font": font family 'X' is not installed; using 'Y'`.
struct FontWarnings {
    private var reported: Set<String> = []
    mutating func report(_ warning: FontWarning, source: String, line: Int) {
        guard reported.insert(warning.message).inserted else { return }
        Diagnostics.warning("\(source):\(line):\(warning.column): \"font\": \(warning.message)")
    }
}

/// Why a line gives no measurement: blank (skipped quietly), or a message, at a column when known.
enum LineError: Error, CustomStringConvertible {
    case blank
    case message(String, column: Int? = nil)
    var description: String {
        switch self {
        case .blank: return "blank line"
        case .message(let text, _): return text
        }
    }
    /// `:column` for a `file:line:column` prefix, or "".
    var columnSuffix: String {
        if case .message(_, let column?) = self, column > 0 { return ":\(column)" }
        return ""
    }
}

/// One input line: a JSON string, or an object with "text" and optional overrides.
struct InputRecord {
    var text: String
    var font: String?
    /// The column of the "font" value in its line (0 when there is none), for errors about the
    /// font file it names.
    var fontColumn = 0
    /// "font family 'X' is not installed; using 'Y'" when the line's "font" names no installed
    /// family: the caller prints it once per run with the line's place (it had none).
    var fontWarning: String?
    var size: Double?
    var width: Double?
    /// weight, italic, whiteSpace, direction, lang, lineHeight (StyleKeys.swift).
    var style = StyleOverrides()

    static let keys = Set(["text", "font", "size", "width"]).union(StyleOverrides.keys)

    /// Parses one JSON Lines line (errors carry the column; the caller adds file and line);
    /// a "width" above `maximumWidth` is out of range (`draw` lays out at most 30,000 px).
    static func parse(_ line: BufferedInput.Line, source: String, maximumWidth: Double = .infinity) throws(LineError) -> InputRecord {
        let value: JSONValue
        do {
            // The input dropped the file's byte order mark; one on a line is an error.
            value = try parseJSON(line.bytes, source: source, origin: TextPosition(line: line.number, column: line.column),
                                  skipsByteOrderMark: false, unit: "line")
        } catch {
            throw .message("not valid JSON: \(error.message)", column: error.position?.column ?? 0)
        }
        return try parse(value, maximumWidth: maximumWidth)
    }

    /// A record from a parsed JSON value.
    static func parse(_ value: JSONValue, maximumWidth: Double = .infinity) throws(LineError) -> InputRecord {
        if case .string(let text) = value { return InputRecord(text: text) }
        guard case .object(let object) = value else {
            throw .message("expected a JSON string or an object with \"text\", not \(value.kindDescription)")
        }
        if let (first, second) = object.firstDuplicateKey {
            throw .message("\"\(second.key)\" is given twice (first at column \(first.keyPosition.column))", column: second.keyPosition.column)
        }
        if let unknown = object.members.first(where: { !keys.contains($0.key) }) {
            let hint = didYouMeanKey(unknown.key).map { " (did you mean '\($0)'?)" } ?? ""
            throw .message("unknown key \"\(shortenedForMessage(unknown.key))\"\(hint); expected text, font, size, width, weight, italic, whiteSpace, direction, lang, lineHeight",
                           column: unknown.keyPosition.column)
        }
        guard let rawText = object["text"] else { throw .message("missing \"text\"") }
        guard case .string(let text) = rawText.value else {
            throw .message("\"text\" must be a string, not \(rawText.value.kindDescription)", column: rawText.valuePosition.column)
        }
        var record = InputRecord(text: text)
        if let font = object["font"] {
            guard case .string(let name) = font.value, !name.isEmpty else {
                let got = font.value == .string("") ? "an empty string" : font.value.kindDescription
                throw .message("\"font\" must be a non-empty string, not \(got)", column: font.valuePosition.column)
            }
            // Asked first: the font library then leaves this family's warning to us.
            if !TextOptions.isFontPath(name) { record.fontWarning = FontLibrary.shared.missingFamilyWarning(name) }
            if let problem = fontFamilyProblem(name) { throw .message("\"font\": \(problem)", column: font.valuePosition.column) }
            record.font = name
            record.fontColumn = font.valuePosition.column
        }
        record.size = try number(object, "size", "in (0, 10000]") { $0 > 0 && $0 <= 10_000 }
        record.style = try StyleOverrides.parse(object)
        record.width = try number(object, "width", maximumWidth.isFinite ? "in [0, \(JSONText.number(maximumWidth))]" : "a finite number, at least 0") {
            $0 >= 0 && $0 <= maximumWidth
        }
        return record
    }

    private static func didYouMeanKey(_ key: String) -> String? {
        keys.sorted().first { $0.lowercased() == key.lowercased() || levenshteinAtMost1($0, key) }
    }

    private static func levenshteinAtMost1(_ a: String, _ b: String) -> Bool {
        let a = Array(a), b = Array(b)
        guard abs(a.count - b.count) <= 1 else { return false }
        var i = 0, j = 0, edits = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if a.count > b.count { i += 1 } else if b.count > a.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (a.count - i) + (b.count - j) <= 1
    }

    private static func number(_ object: JSONObject, _ key: String, _ range: String, valid: (Double) -> Bool) throws(LineError) -> Double? {
        guard let member = object[key] else { return nil }
        guard case .number(let number) = member.value else {
            throw .message("\"\(key)\" must be a number, not \(member.value.kindDescription)", column: member.valuePosition.column)
        }
        let value = number.doubleValue
        guard value.isFinite, valid(value) else {
            throw .message("\"\(key)\" is out of range: \(shortenedForMessage(number.text)) (must be \(range))", column: member.valuePosition.column)
        }
        return value
    }
}
