import ArgumentParser
import Foundation
import RowKitDraw
import RowKitIO
import RowKitText

struct Draw: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw texts at a width to PNG, PDF or SVG, one paragraph under another.",
        discussion: """
        Texts come from --text (repeatable) or from JSON Lines (--input, same format as `measure`; \
        - reads standard input). Each paragraph is drawn from the same layout `measure` reports, so \
        its drawn height is its measured height. --debug-frames outlines each line box (red) and \
        paragraph box (blue). Bad input lines are all reported (file:line:column) and nothing is \
        drawn. The file is replaced only once completely written; "wrote …" goes to standard error.
        """
    )

    /// The widest layout drawn, for --width and a line's "width" (a canvas side is at most 32,767 px).
    static let maximumWidth = 30_000.0

    @OptionGroup var text: TextOptions

    @Option(parsing: .unconditional, help: "Width in pixels the texts are laid out at.")
    var width: Double

    @Option(name: .customLong("text"), help: "A text to draw (repeatable).")
    var texts: [String] = []

    @Option(help: "JSON Lines input file, or - for standard input.")
    var input: String?

    @Option(help: "Output file: .png, .pdf or .svg.")
    var output: String

    @Option(parsing: .unconditional, help: "Lines per paragraph at most; a cut paragraph ends with an ellipsis.")
    var maxLines: Int?

    @Option(help: "Alignment: natural, leading, center or trailing.")
    var align: String = "natural"

    @Option(help: "Text color as #rgb, #rrggbb or #rrggbbaa (with alpha).")
    var color: String = "#000000"

    @Option(parsing: .unconditional, help: "Space around and between paragraphs, in pixels.")
    var padding: Double = 8

    @Option(parsing: .unconditional, help: "Device pixels per pixel for PNG output (0.05...8).")
    var scale: Double = 1

    @Flag(help: "Outline every line box and paragraph box.")
    var debugFrames = false

    @Flag(help: "Do not print the summary.")
    var quiet = false

    func validate() throws {
        guard width.isFinite, width > 0, width <= Self.maximumWidth else { throw ValidationError("--width must be in (0, 30000], not \(width)") }
        guard ImageFormat(path: output) != nil else { throw ValidationError("--output must end in .png, .pdf or .svg, not '\(shortenedForMessage(output))'") }
        guard TextAlignment(rawValue: align) != nil else { throw ValidationError("--align must be natural, leading, center or trailing") }
        // Hex digits only: Color(hex:) (RowKitText) reads its digits with UInt64(_:radix:), which
        // also takes a sign, so "#+12345" was the color #012345.
        guard color.dropFirst().allSatisfy({ $0.isASCII && $0.isHexDigit }), Color(hex: color) != nil else {
            throw ValidationError("--color must be #rgb, #rrggbb or #rrggbbaa, not '\(shortenedForMessage(color))'")
        }
        if let maxLines, maxLines < 1 { throw ValidationError("--max-lines must be at least 1") }
        guard padding.isFinite, padding >= 0, padding <= 1000 else { throw ValidationError("--padding must be in [0, 1000]") }
        guard scale.isFinite, Canvas.scaleRange.contains(scale) else {
            throw ValidationError("--scale must be in \(Canvas.scaleRange.lowerBound)...\(Canvas.scaleRange.upperBound), not \(scale)")
        }
        guard texts.isEmpty != (input == nil) else { throw ValidationError("give either --text or --input") }
    }

    func run() throws {
        try refuseOverwritingInput(output: output, option: "--output",
                                   inputs: [("--input", input), ("--font", TextOptions.isFontPath(text.font) ? text.font : nil)])
        try text.checkFont()
        var records: [InputRecord] = texts.map { InputRecord(text: $0) }
        // Where each record was read (`lines.jsonl:7`), nil for a --text.
        var places: [String?] = texts.map { _ in nil }
        if let input {
            let source = BufferedInput(try InputFile(input, what: "input"))
            var failures = 0
            var fontWarnings = FontWarnings()
            // Each text is at least 1 px tall: more than the tallest image's pixels cannot be
            // drawn, and reading them all first held every one (2,000,000 one-letter lines: 490 MB).
            let mostTexts = Int(32_767 / (ImageFormat(path: output) == .png ? scale : 1))
            while let line = try source.nextLine() {
                if records.count > mostTexts {
                    throw CommandError("\(source.name):\(line.number): more than \(mostTexts) texts, more than an image can hold "
                                       + "(each is at least 1 px tall; 32767 \(ImageFormat(path: output) == .png ? "device pixels at scale \(JSONText.number(scale))" : "pixels")); "
                                       + "draw fewer texts\(ImageFormat(path: output) == .png ? ", or lower --scale" : "")")
                }
                if source.consumedBytes > InputLimits.wholeInputBytes {
                    throw CommandError("\(source.name): the input is larger than the \(byteCountText(InputLimits.wholeInputBytes)) limit for texts drawn at once")
                }
                do throws(LineError) {
                    if line.isTooLong { throw .message("the line is longer than the \(byteCountText(InputLimits.recordBytes)) limit") }
                    if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                    let record = try InputRecord.parse(line, source: source.name, maximumWidth: Self.maximumWidth)
                    if let warning = record.fontWarning {
                        fontWarnings.report(FontWarning(message: warning, column: record.fontColumn), source: source.name, line: line.number)
                    }
                    if let font = record.font {
                        do { try FontPaths.check(font) } catch { throw .message(error.description, column: record.fontColumn) }
                    }
                    records.append(record)
                    places.append("\(source.name):\(line.number)")
                } catch {
                    failures += 1
                    Diagnostics.error("\(source.name):\(line.number)\(error.columnSuffix): \(error)")
                }
            }
            if failures > 0 { throw CommandError("\(source.name): \(failures) bad line\(failures == 1 ? "" : "s"); nothing drawn") }
            // A line's font file is an input too (each named once).
            let fontFiles = Set(records.compactMap { $0.font }.filter(TextOptions.isFontPath))
            try refuseOverwritingInput(output: output, option: "--output", inputs: fontFiles.sorted().map { ("a line's \"font\"", $0) })
        }
        var layouts: [TextLayout] = []
        // The canvas is at most 32,767 device pixels tall: stop laying out once the texts pass
        // that, instead of preparing every text of a large input (200,000 lines took 33 s and
        // 356 MB before the canvas was refused; 256 MiB of input would take gigabytes).
        let tallest = 32_767 / (ImageFormat(path: output) == .png ? scale : 1)
        var height = padding
        for record in records {
            var style = text.style(font: record.font, size: record.size, overrides: record.style)
            style.alignment = TextAlignment(rawValue: align) ?? .natural
            style.color = Color(hex: color) ?? .black
            if text.styleFlags.direction == nil && record.style.direction == nil { style.direction = .auto }
            do {
                layouts.append(try PreparedText(record.text, style: style).layout(width: record.width ?? width, maxLines: maxLines))
            } catch {
                throw CommandError(error.description)
            }
            height += max(layouts[layouts.count - 1].height, 1) + padding
            if height > tallest {
                let which = layouts.count == records.count ? "the drawing would be" : "the first \(layouts.count) of \(records.count) texts are already"
                // The text that passed the limit, where it was read (a --text has no place).
                let place = places[layouts.count - 1].map { "\($0): " } ?? ""
                throw CommandError("\(place)\(which) \(JSONText.number(height.rounded(.up))) px tall, "
                                   + "more than an image can be (32767 \(ImageFormat(path: output) == .png ? "device pixels at scale \(JSONText.number(scale))" : "pixels")); "
                                   + "draw fewer or shorter texts\(ImageFormat(path: output) == .png ? ", or lower --scale" : "")")
            }
        }
        let canvasWidth = (layouts.map(\.maxWidth).max() ?? width) + 2 * padding
        let canvasHeight = layouts.reduce(padding) { $0 + max($1.height, 1) + padding }
        let canvas: Canvas
        do { canvas = try Canvas(width: canvasWidth, height: max(1, canvasHeight), scale: scale, path: output) } catch {
            // Fewer texts make the canvas shorter, not narrower.
            let factor = ImageFormat(path: output) == .png ? scale : 1
            let fix = (canvasWidth * factor).rounded(.up) > 32767 ? "give a smaller --width or --padding" : "draw fewer or shorter texts"
            throw CommandError(error.description + canvasHint(error, format: ImageFormat(path: output), fix: fix))
        }
        canvas.fill(.white)
        var y = padding
        for layout in layouts {
            TextPainter.draw(layout, in: canvas, x: padding, y: y, debugFrames: debugFrames)
            y += max(layout.height, 1) + padding
        }
        do { try canvas.finish() } catch { throw CommandError(error.description) }
        if !quiet {
            Diagnostics.note("wrote \(output): \(layouts.count) paragraph\(layouts.count == 1 ? "" : "s"), \(describeSize(canvas))")
        }
    }
}
