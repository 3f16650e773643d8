import ArgumentParser
import Dispatch
import Foundation
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
        the other lines are still measured and the exit status is 1.
        """
    )

    @OptionGroup var text: TextOptions

    @Option(help: "Width(s) in pixels, comma-separated, e.g. 150,300,600.")
    var width: String?

    @Option(help: "JSON Lines input file, or - for standard input.")
    var input: String = "-"

    @Flag(help: "Also output each line's text, width and fonts (\"lines\": [{\"text\": …, \"width\": …, \"fonts\": […]}]).")
    var lines = false

    func run() throws {
        let widths = try width.map(parseWidths) ?? []
        let data = try readInput(input)
        let lines = splitLines(data)
        let progress = Progress(total: lines.count, label: "measured")
        var failed = false
        let chunkSize = 4096
        var chunkStart = 0
        var output = OutputBuffer()
        while chunkStart < lines.count {
            let chunk = Array(lines[chunkStart..<min(lines.count, chunkStart + chunkSize)])
            let results = ResultSlots<Result<[TextMeasureLine], LineError>>(count: chunk.count)
            defer { results.deallocate() }
            let base = chunkStart
            DispatchQueue.concurrentPerform(iterations: chunk.count) { i in
                results[i] = measureLine(chunk[i], index: base + i, defaultWidths: widths)
            }
            for i in 0..<chunk.count {
                switch results[i]! {
                case .success(let measured):
                    for m in measured { output.append(m.json) }
                case .failure(let error):
                    if case .blank = error { continue }
                    failed = true
                    output.flush()
                    FileHandle.standardError.write(Data("rowkit measure: \(input == "-" ? "stdin" : input):\(base + i + 1): \(error)\n".utf8))
                }
            }
            output.flush()
            chunkStart += chunk.count
            progress.update(chunkStart)
        }
        progress.finish()
        if failed { throw ExitCode(1) }
    }

    struct TextMeasureLine {
        var index: Int, width: Double, measure: TextMeasure
        var lines: [(text: String, width: Double, fonts: [String])]?
        var json: String {
            var json = "{\"index\": \(index), \"width\": \(jsonNumber(width)), \"lineCount\": \(measure.lineCount), \"height\": \(jsonNumber(measure.height)), \"maxLineWidth\": \(jsonNumber(layoutUnits(measure.maxLineWidth)))"
            if let lines {
                json += ", \"lines\": [" + lines.map { "{\"text\": \(jsonString($0.text)), \"width\": \(jsonNumber(layoutUnits($0.width))), \"fonts\": [\($0.fonts.map(jsonString).joined(separator: ", "))]}" }.joined(separator: ", ") + "]"
            }
            return json + "}"
        }
        /// Widths are reported rounded up to the browser's 1/64 px layout unit.
        func layoutUnits(_ width: Double) -> Double { (width * 64).rounded(.up) / 64 }
    }

    func measureLine(_ line: Substring, index: Int, defaultWidths: [Double]) -> Result<[TextMeasureLine], LineError> {
        if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return .failure(.blank) }
        let record: InputRecord
        do { record = try InputRecord.parse(line) } catch { return .failure(error) }
        let widths = record.width.map { [$0] } ?? defaultWidths
        guard !widths.isEmpty else { return .failure(.message("no width: pass --width or give \"width\" in the line")) }
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

enum LineError: Error, CustomStringConvertible {
    case blank
    case message(String)
    var description: String {
        switch self {
        case .blank: return "blank line"
        case .message(let text): return text
        }
    }
}

/// One input line: a JSON string, or an object with "text" and optional overrides.
struct InputRecord {
    var text: String
    var font: String?
    var size: Double?
    var width: Double?
    /// weight, italic, whiteSpace, direction, lang, lineHeight (StyleKeys.swift).
    var style = StyleOverrides()

    static let keys = Set(["text", "font", "size", "width"]).union(StyleOverrides.keys)

    static func parse(_ line: Substring) throws(LineError) -> InputRecord {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
        } catch {
            throw .message("not valid JSON")
        }
        if let text = value as? String { return InputRecord(text: text) }
        guard let object = value as? [String: Any] else {
            throw .message("expected a JSON string or an object with \"text\"")
        }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw .message("unknown key \"\(unknown)\" (expected text, font, size, width, weight, italic, whiteSpace, direction, lang, lineHeight)")
        }
        guard let rawText = object["text"] else { throw .message("missing \"text\"") }
        guard let text = rawText as? String else { throw .message("\"text\" must be a string") }
        var record = InputRecord(text: text)
        if let font = object["font"] {
            guard let name = font as? String, !name.isEmpty else { throw .message("\"font\" must be a non-empty string") }
            record.font = name
        }
        record.size = try number(object, "size") { $0 > 0 && $0 <= 10_000 }
        record.style = try StyleOverrides.parse(object)
        record.width = try number(object, "width") { $0 >= 0 }
        return record
    }

    private static func number(_ object: [String: Any], _ key: String, valid: (Double) -> Bool) throws(LineError) -> Double? {
        guard let raw = object[key] else { return nil }
        guard !(raw is Bool), let number = raw as? NSNumber, type(of: raw) != type(of: true) else {
            throw .message("\"\(key)\" must be a number")
        }
        let value = number.doubleValue
        guard value.isFinite, valid(value) else { throw .message("\"\(key)\" out of range: \(jsonNumber(value))") }
        return value
    }
}

func readInput(_ path: String) throws -> Data {
    if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    guard let handle = FileHandle(forReadingAtPath: path) else {
        throw CommandError("cannot open input file '\(path)'")
    }
    defer { try? handle.close() }
    return handle.readDataToEndOfFile()
}

/// Lines of UTF-8 text (a trailing newline does not start another line).
func splitLines(_ data: Data) -> [Substring] {
    let text = String(decoding: data, as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines
}

/// Buffered stdout writer.
struct OutputBuffer {
    private var pending = ""
    mutating func append(_ line: String) {
        pending += line
        pending += "\n"
        if pending.utf8.count > 1 << 16 { flush() }
    }
    mutating func flush() {
        guard !pending.isEmpty else { return }
        FileHandle.standardOutput.write(Data(pending.utf8))
        pending = ""
    }
}

/// A progress line on stderr, shown only when stderr is a terminal and the job is large.
struct Progress {
    let total: Int
    let label: String
    let visible: Bool

    init(total: Int, label: String) {
        self.total = total
        self.label = label
        self.visible = isatty(2) == 1 && total >= 20_000
    }

    func update(_ done: Int) {
        guard visible else { return }
        FileHandle.standardError.write(Data("\r\(label) \(done)/\(total) (\(done * 100 / max(1, total))%)".utf8))
    }

    func finish() {
        guard visible else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

/// Fixed slots that concurrent workers fill, one slot per worker index (no two write the same).
final class ResultSlots<Value>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value?>
    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }
    subscript(i: Int) -> Value? {
        get { slots[i] }
        set { slots[i] = newValue }
    }
    func deallocate() {
        _ = slots.deinitialize()
        slots.deallocate()
    }
}

/// A string as a JSON string literal.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default:
            if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out + "\""
}
