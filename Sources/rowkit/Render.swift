import ArgumentParser
import Foundation
import RowKitCells
import RowKitDraw
import RowKitText

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a list of rows with one cell template to PNG, PDF or SVG.",
        discussion: """
        --cell names a built-in cell (caption-text, filter-list, custom, project, project-growing, label) or a template \
        YAML file. Rows come from --data (a JSON array of objects, or JSON Lines with one object per \
        line); without --data a built-in cell renders its sample rows. Each row is measured and drawn \
        from the same layout; its height and y are printed as JSON Lines. With --offset and --height \
        only that viewport of the list is drawn.
        """
    )

    @Option(help: "Built-in cell name or template YAML file.")
    var cell: String

    @Option(help: "Stylesheet YAML for a template file.")
    var stylesheet: String?

    @Option(help: "Rows: .json (array of objects) or .jsonl (one object per line).")
    var data: String?

    @Option(help: "List width in pixels.")
    var width: Double

    @Option(help: "Top of the viewport in the list, in pixels.")
    var offset: Double?

    @Option(help: "Viewport height in pixels (default: the whole list).")
    var height: Double?

    @Option(help: "Row drawn in the selected state (0-based).")
    var selected: Int?

    @Flag(help: "Outline every element's frame and every line box.")
    var debugFrames = false

    @Option(help: "Device pixels per pixel for PNG output.")
    var scale: Double = 1

    @Option(help: "Folder of NAME.png images (built-in icons are used otherwise).")
    var images: String?

    @Option(help: "Output file: .png, .pdf or .svg.")
    var output: String

    @Flag(help: "Do not print row heights.")
    var quiet = false

    func validate() throws {
        guard width.isFinite, width >= 1, width <= 30_000 else { throw ValidationError("--width must be in [1, 30000], not \(width)") }
        if let offset, !(offset.isFinite && offset >= 0) { throw ValidationError("--offset must be a non-negative number") }
        if let height, !(height.isFinite && height >= 1 && height <= 30_000) { throw ValidationError("--height must be in [1, 30000]") }
        if (offset == nil) != (height == nil) && offset != nil { throw ValidationError("--offset needs --height") }
        guard ImageFormat(path: output) != nil else { throw ValidationError("--output must end in .png, .pdf or .svg, not '\(output)'") }
        guard scale.isFinite, scale > 0, scale <= 8 else { throw ValidationError("--scale must be in (0, 8]") }
    }

    func run() throws {
        let template = try loadTemplate(cell, stylesheet: stylesheet)
        let rows = try data.map(loadRows) ?? template.samples
        guard !rows.isEmpty else { throw ValidationError("no rows: give --data (the template has no samples)") }
        if let selected, !(0..<rows.count).contains(selected) {
            throw ValidationError("--selected \(selected) is out of range: there are \(rows.count) rows")
        }
        var arrangements: [CellArrangement] = []
        var y = 0.0
        for (i, row) in rows.enumerated() {
            do {
                let arrangement = try template.bind(row).arrange(width: width)
                arrangements.append(arrangement)
                if !quiet { print("{\"row\": \(i), \"cell\": \(jsonString(template.name)), \"y\": \(jsonNumber(y)), \"height\": \(jsonNumber(arrangement.size.height))}") }
                y += arrangement.size.height
            } catch {
                throw ValidationError("row \(i): \(error)")
            }
        }
        let top = offset ?? 0
        let canvasHeight = height ?? max(1, y)
        let canvas = try Canvas(width: width, height: canvasHeight, scale: scale, path: output)
        canvas.fill(.white)
        let store = ImageStore(folder: images)
        var rowTop = 0.0
        for (i, arrangement) in arrangements.enumerated() {
            defer { rowTop += arrangement.size.height }
            guard rowTop + arrangement.size.height > top && rowTop < top + canvasHeight else { continue }
            let state: CellState = i == selected ? .selected : .normal
            CellPainter.draw(arrangement, in: canvas, x: 0, y: rowTop - top, state: state, images: store, debugFrames: debugFrames)
            // A separator on the row's last pixel line, as table views draw one.
            canvas.setColor(Color(hex: "#c8c7cc")!)
            canvas.fillRect(x: 0, y: rowTop - top + arrangement.size.height - 1, width: width, height: 1)
        }
        try canvas.finish()
        if !quiet { FileHandle.standardError.write(Data("wrote \(output): \(rows.count) rows, \(jsonNumber(width))×\(jsonNumber(canvasHeight)) px\n".utf8)) }
    }
}

/// A built-in cell by name, or a template file.
func loadTemplate(_ name: String, stylesheet: String?) throws -> CellTemplate {
    if let builtin = ClassicCells.named(name) {
        guard stylesheet == nil else { throw ValidationError("--stylesheet applies to template files, not the built-in cell '\(name)'") }
        return builtin
    }
    guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") else {
        throw ValidationError("unknown cell '\(name)': use one of \(ClassicCells.all.map(\.name).joined(separator: ", ")) or a .yaml template")
    }
    return try loadTemplateFile(name, stylesheet: stylesheet)
}

/// Rows from a .json array of objects or .jsonl objects; errors name the file and line.
func loadRows(_ path: String) throws -> [RowData] {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw ValidationError("cannot open data file '\(path)'") }
    let bytes = handle.readDataToEndOfFile()
    try? handle.close()
    func row(_ value: Any, _ place: String) throws -> RowData {
        guard let object = value as? [String: Any] else { throw ValidationError("\(place): a row must be a JSON object of fields") }
        var fields: [String: FieldValue] = [:]
        for (key, raw) in object {
            if let text = raw as? String { fields[key] = .string(text) }
            else if !(raw is Bool), let number = raw as? NSNumber, number.doubleValue.isFinite { fields[key] = .number(number.doubleValue) }
            else if raw is NSNull { continue }
            else { throw ValidationError("\(place): field '\(key)' must be a string or a number") }
        }
        return RowData(fields)
    }
    if path.hasSuffix(".jsonl") {
        var rows: [RowData] = []
        for (n, line) in splitLines(bytes).enumerated() where !line.allSatisfy(\.isWhitespace) {
            guard let value = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else {
                throw ValidationError("\(path):\(n + 1): not valid JSON")
            }
            rows.append(try row(value, "\(path):\(n + 1)"))
        }
        return rows
    }
    let value: Any
    do { value = try JSONSerialization.jsonObject(with: bytes) } catch {
        throw ValidationError("\(path): not valid JSON (\(error.localizedDescription))")
    }
    guard let array = value as? [Any] else { throw ValidationError("\(path): expected a JSON array of row objects (or use .jsonl)") }
    return try array.enumerated().map { try row($0.element, "\(path): row \($0.offset)") }
}
