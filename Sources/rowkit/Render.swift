import ArgumentParser
import Foundation
import RowKitCells
import RowKitDraw
import RowKitList
import RowKitListCells
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
        let sections = try data.map { try loadSections($0, template: template.name) }
            ?? [ListSection(rows: template.samples.enumerated().map { ListRow(id: "sample-\($0.offset)", template: template.name, data: $0.element) })]
        let rowCount = sections.reduce(0) { $0 + $1.rows.count }
        guard rowCount > 0 else { throw CommandError("no rows: give --data (the template has no samples)") }
        let measurer = CellMeasurer([template, ClassicCells.sectionHeader])
        let engine = try ListEngine(sections: sections, measurer: measurer, width: width)
        try engine.measureAll()
        if let selected {
            guard let path = indexPath(ofRow: selected, in: sections) else {
                throw CommandError("--selected \(selected) is out of range: there are \(rowCount) rows")
            }
            try engine.select(path)
        }
        let canvasHeight = height ?? max(1, engine.contentHeight)
        engine.viewportHeight = canvasHeight
        engine.scroll(to: offset ?? 0)
        let top = engine.contentOffset
        let visible = try engine.visibleItems()
        let canvas = try Canvas(width: width, height: canvasHeight, scale: scale, path: output)
        canvas.fill(.white)
        let store = ImageStore(folder: images)
        for item in visible {
            let arrangement = try engine.drawingForm(for: item).arrange(width: width)
            if !quiet {
                let what = item.kind == .row ? "\"row\": \(item.indexPath.row), \"section\": \(item.indexPath.section)" : "\"header\": \(item.indexPath.section)"
                print("{\(what), \"cell\": \(jsonString(item.kind == .header ? ClassicCells.sectionHeader.name : template.name)), \"y\": \(jsonNumber(item.y)), \"height\": \(jsonNumber(item.height))}")
            }
            CellPainter.draw(arrangement, in: canvas, x: 0, y: item.y - top, state: CellState(item.state), images: store, debugFrames: debugFrames)
            if item.kind == .row {
                // A separator on the row's last pixel line, as table views draw one.
                canvas.setColor(Color(hex: "#c8c7cc")!)
                canvas.fillRect(x: 0, y: item.y - top + item.height - 1, width: width, height: 1)
            }
        }
        try canvas.finish()
        if !quiet {
            FileHandle.standardError.write(Data("wrote \(output): \(visible.count) of \(engine.itemCount) items, viewport \(jsonNumber(top))..\(jsonNumber(top + canvasHeight)) of \(jsonNumber(engine.contentHeight)) px\n".utf8))
        }
    }

    /// The index path of the `n`-th row counting across sections.
    func indexPath(ofRow n: Int, in sections: [ListSection<ListRow>]) -> ListIndexPath? {
        var remaining = n
        for (s, section) in sections.enumerated() {
            if remaining >= 0 && remaining < section.rows.count { return ListIndexPath(section: s, row: remaining) }
            remaining -= section.rows.count
        }
        return nil
    }
}

/// A built-in cell by name, or a template file.
func loadTemplate(_ name: String, stylesheet: String?) throws -> CellTemplate {
    if let builtin = ClassicCells.named(name) {
        guard stylesheet == nil else { throw CommandError("--stylesheet applies to template files, not the built-in cell '\(name)'") }
        return builtin
    }
    guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") else {
        throw CommandError("unknown cell '\(name)': use one of \(ClassicCells.all.map(\.name).joined(separator: ", ")) or a .yaml template")
    }
    return try loadTemplateFile(name, stylesheet: stylesheet)
}

/// Sections of rows from a data file: a .json array of row objects, a .json object
/// `{"sections": [{"title": …, "rows": [...]}, …]}`, or .jsonl with one row object per line.
/// Rows get ids `s<section>-r<row>` unless they have an `"id"` field; errors name file and line.
func loadSections(_ path: String, template: String) throws -> [ListSection<ListRow>] {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw CommandError("cannot open data file '\(path)'") }
    let bytes = handle.readDataToEndOfFile()
    try? handle.close()
    func rows(_ data: [RowData], section: Int) -> [ListRow] {
        data.enumerated().map { ListRow(id: $0.element["id"]?.description ?? "s\(section)-r\($0.offset)", template: template, data: $0.element) }
    }
    if !path.hasSuffix(".jsonl"), let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] {
        guard let list = object["sections"] as? [Any] else { throw CommandError("\(path): expected {\"sections\": [...]} or an array of rows") }
        return try list.enumerated().map { (s, value) in
            guard let section = value as? [String: Any] else { throw CommandError("\(path): section \(s) must be an object") }
            guard let items = section["rows"] as? [Any] else { throw CommandError("\(path): section \(s) needs \"rows\": [...]") }
            let data = try items.enumerated().map { try rowData($0.element, "\(path): section \(s) row \($0.offset)") }
            let header = (section["title"] as? String).map { ListRow(id: "s\(s)-header", template: "section-header", data: ["title": $0]) }
            return ListSection(header: header, rows: rows(data, section: s))
        }
    }
    return [ListSection(rows: rows(try loadRows(bytes, path), section: 0))]
}

/// A row object's fields (strings and numbers; null fields are left out).
func rowData(_ value: Any, _ place: String) throws -> RowData {
    guard let object = value as? [String: Any] else { throw CommandError("\(place): a row must be a JSON object of fields") }
    var fields: [String: FieldValue] = [:]
    for (key, raw) in object {
        if let text = raw as? String { fields[key] = .string(text) }
        else if !(raw is Bool), let number = raw as? NSNumber, number.doubleValue.isFinite { fields[key] = .number(number.doubleValue) }
        else if raw is NSNull { continue }
        else { throw CommandError("\(place): field '\(key)' must be a string or a number") }
    }
    return RowData(fields)
}

/// Rows from .json array of objects or .jsonl objects; errors name the file and line.
func loadRows(_ bytes: Data, _ path: String) throws -> [RowData] {
    if path.hasSuffix(".jsonl") {
        var rows: [RowData] = []
        for (n, line) in splitLines(bytes).enumerated() where !line.allSatisfy(\.isWhitespace) {
            guard let value = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else {
                throw CommandError("\(path):\(n + 1): not valid JSON")
            }
            rows.append(try rowData(value, "\(path):\(n + 1)"))
        }
        return rows
    }
    let value: Any
    do { value = try JSONSerialization.jsonObject(with: bytes) } catch {
        throw CommandError("\(path): not valid JSON (\(error.localizedDescription))")
    }
    guard let array = value as? [Any] else { throw CommandError("\(path): expected a JSON array of row objects (or use .jsonl)") }
    return try array.enumerated().map { try rowData($0.element, "\(path): row \($0.offset)") }
}
