// libFuzzer harnesses, compiled only into the fuzzing build (`make fuzz`: -DROWKIT_FUZZ,
// AddressSanitizer and coverage instrumentation, libFuzzer without its `main`). They live in the
// command's module so that they exercise the very code the command runs (its input-line
// parser, row reading, template loading), through `rowkit fuzz <harness> [libFuzzer flags]`.
import ArgumentParser

#if ROWKIT_FUZZ
import Foundation
import RowKitCells
import RowKitIO
import RowKitText

/// The fuzzing subcommand, present only in the fuzzing build.
let fuzzingCommands: [ParsableCommand.Type] = [Fuzz.self]

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The harness libFuzzer's callback runs (set once before the driver starts).
nonisolated(unsafe) private var activeHarness: (([UInt8]) -> Void)?

struct Fuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a libFuzzer harness (fuzzing builds only).",
        discussion: "Harnesses: \(FuzzHarnesses.all.keys.sorted().joined(separator: ", ")). Arguments after the name go to libFuzzer."
    )

    @Argument(help: "The harness.")
    var harness: String

    @Argument(parsing: .captureForPassthrough, help: "libFuzzer flags and corpus folders.")
    var libFuzzerArguments: [String] = []

    func run() throws {
        guard let body = FuzzHarnesses.all[harness] else {
            throw CommandError("unknown harness '\(harness)': \(FuzzHarnesses.all.keys.sorted().joined(separator: ", "))")
        }
        activeHarness = body
        var arguments = ["rowkit-fuzz-\(harness)"] + libFuzzerArguments.filter { $0 != "--" }
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        pointers.append(nil)
        var argc = Int32(arguments.count)
        let status = pointers.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var argv = buffer.baseAddress!
            return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
                activeHarness?(bytes)
                return 0
            }
        }
        arguments.removeAll()
        if status != 0 { throw ExitCode(status) }
    }
}

/// The harnesses: each takes arbitrary bytes and must neither crash nor hang.
enum FuzzHarnesses {
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "yaml-template": template,
        "yaml-stylesheet": stylesheet,
        "measure-line": measureLine,
        "row-file": rowFile,
        "prepared-text": preparedText,
    ]

    /// Inputs that would read devices or kernel files through a `stylesheet:` path are skipped
    /// (reading /dev/tty waits for a keyboard; that is the user's choice, not a bug).
    static func touchesSystemFiles(_ text: String) -> Bool {
        text.contains("dev/") || text.contains("proc/") || text.contains("sys/") || text.contains("..")
    }

    /// A template from YAML; when it loads, its samples are bound, measured and arranged.
    static func template(_ bytes: [UInt8]) {
        let yaml = String(decoding: bytes, as: UTF8.self)
        guard !touchesSystemFiles(yaml) else { return }
        guard let template = try? CellTemplate(yaml: yaml, file: "fuzz.yaml", stylesheet: nil) else { return }
        for row in template.samples.prefix(4) {
            guard let cell = try? template.bind(row) else { continue }
            for width in [0.0, 1, 120, 320, 10_000] {
                let measured = try? cell.measure(width: width)
                let arranged = try? cell.arrange(width: width)
                precondition(measured == arranged?.size, "measure and arrange disagree at width \(width)")
            }
        }
        _ = template.boundFields
    }

    /// A stylesheet from YAML; when it loads, every style's appearance is built, and it is
    /// merged over itself.
    static func stylesheet(_ bytes: [UInt8]) {
        let yaml = String(decoding: bytes, as: UTF8.self)
        guard let sheet = try? Stylesheet(yaml: yaml, file: "fuzz.yaml") else { return }
        for name in sheet.names {
            _ = try? sheet.appearance(named: name)
            _ = try? sheet.frame(named: name)
        }
        _ = try? sheet.merged(over: sheet)
    }

    /// The `measure` command the line harness runs (parsed once).
    nonisolated(unsafe) static let measureCommand = try? Measure.parse(["--width", "0,100,320"])

    /// One `measure` input line, parsed and measured as the command does.
    static func measureLine(_ bytes: [UInt8]) {
        guard !bytes.contains(0x0A), let command = measureCommand else { return }
        let line = BufferedInput.Line(number: 1, column: 1, bytes: bytes, isTooLong: false)
        if case .success(let results) = command.measureLine(line, index: 0, source: "fuzz", defaultWidths: [0, 100, 320]) {
            for result in results { _ = result.json }
        }
    }

    /// A row file of any format, read to the end; the first rows are bound and measured.
    static func rowFile(_ bytes: [UInt8]) {
        let templates = ClassicCells.all + [ClassicCells.sectionHeader]
        let byName = Dictionary(templates.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let reader = RowFileReader(bytes: bytes, name: "fuzz", options: RowFileOptions(templates: templates, defaultTemplate: "caption-text"))
        var measured = 0
        while let item = try? reader.next() {
            guard case .row(let row) = item, measured < 8, let template = byName[row.template] else { continue }
            measured += 1
            _ = try? template.bind(row.data).measure(width: 320)
        }
    }

    /// A text of arbitrary Unicode in a style chosen by the first bytes, prepared, laid out and
    /// measured at several widths; layout and measure must agree and lines must cover the text.
    static func preparedText(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return }
        let families = ["DejaVu Sans", "DejaVu Serif", "Noto Sans", "Liberation Serif", "Noto Sans CJK JP", "Noto Color Emoji", "No Such Font"]
        let b = bytes
        var style = TextStyle(font: FontDescriptor(family: families[Int(b[0]) % families.count],
                                                   weight: FontWeight(Int(b[1]) * 4 + 1), italic: b[2] & 1 == 1),
                              size: [0.01, 1, 8, 13, 16, 27.5, 200, 1000][Int(b[2] >> 1) % 8])
        style.lineHeight = b[3] & 1 == 0 ? .normal : .pixels([0, 1, 16, 20.5, 1000][Int(b[3] >> 1) % 5])
        style.whiteSpace = b[4] & 1 == 0 ? .normal : .preWrap
        style.alignment = TextAlignment.allCases[Int(b[4] >> 1) % TextAlignment.allCases.count]
        style.direction = TextDirection.allCases[Int(b[5]) % TextDirection.allCases.count]
        let maxLines: Int? = b[6] % 4 == 0 ? nil : Int(b[6] % 4)
        // The rest: UTF-8 when valid, else each byte pair as a Unicode scalar (any plane).
        let rest = Array(b[8...])
        var text = String(validating: rest, as: UTF8.self) ?? ""
        if text.isEmpty && !rest.isEmpty {
            var scalars = String.UnicodeScalarView()
            var k = 0
            while k + 1 < rest.count {
                let value = UInt32(rest[k]) << 8 | UInt32(rest[k + 1]) | (UInt32(rest[k] & 0x3) << 16)
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
                k += 2
            }
            text = String(scalars)
        }
        guard let prepared = try? PreparedText(text, style: style) else { return }
        for width in [0.0, 1, 37.5, Double(b[7]) * 3, 320, 1e6] {
            guard let layout = try? prepared.layout(width: width, maxLines: maxLines) else { continue }
            var previousEnd = 0
            for line in layout.lines {
                precondition(line.start >= previousEnd && line.end >= line.start, "lines out of order at width \(width)")
                previousEnd = line.end
                precondition(line.width.isFinite && line.width >= 0, "bad line width \(line.width)")
            }
            if maxLines == nil, let measured = try? prepared.measure(width: width) {
                precondition(measured.lineCount == layout.lines.count, "measure and layout disagree at width \(width)")
                precondition(measured.height == layout.height, "measured and laid-out heights differ at width \(width)")
            }
        }
    }
}
#else
/// No fuzzing subcommand in ordinary builds.
let fuzzingCommands: [ParsableCommand.Type] = []
#endif
