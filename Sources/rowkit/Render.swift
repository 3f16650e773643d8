import ArgumentParser
import Foundation
import RowKitCells
import RowKitDraw
import RowKitIO
import RowKitList
import RowKitListCells
import RowKitText
import Synchronization

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a list of rows with cell templates to PNG, PDF or SVG.",
        discussion: """
        --cell names a built-in cell (caption-text, filter-list, custom, project, project-growing, \
        label, section-header) or a template YAML file; give it several times for rows of several \
        templates (a row picks its own with "cell"; the first --cell is the default). Rows come from \
        --data: a JSON array of row objects, {"sections": [{"title": "…", "rows": [...]}, …] (each \
        title drawn by the section-header cell), or JSON Lines with one row object per line; - reads \
        standard input. A row may give "id" (unique) and "cell". Without --data a built-in cell renders \
        its sample rows. Every row is checked first (unknown fields, wrong types, duplicate ids are \
        reported with file:line:column, and nothing is drawn). Each row is measured and drawn from the \
        same layout; its y and height are printed as JSON Lines on standard output. With --offset and \
        --height only that viewport of the list is drawn (an offset past the end of the list is an error; \
        a viewport that runs past the end is moved up to end with the list, as a scrolled list shows it, \
        with a warning). The file is replaced only once completely written.
        """
    )

    @OptionGroup var source: DataOptions

    @Option(parsing: .unconditional, help: "List width in pixels.")
    var width: Double

    @Option(parsing: .unconditional, help: "Top of the viewport in the list, in pixels: below the list's height (a viewport running past the end is moved up to end with the list, with a warning).")
    var offset: Double?

    @Option(parsing: .unconditional, help: "Viewport height in pixels (default: the whole list).")
    var height: Double?

    @Option(parsing: .unconditional, help: "Row drawn in the selected state (0-based, counting rows across sections).")
    var selected: Int?

    @Flag(help: "Outline every element's frame and every line box.")
    var debugFrames = false

    @Option(parsing: .unconditional, help: "Device pixels per pixel for PNG output (0.05...8).")
    var scale: Double = 1

    @Option(help: "Folder of NAME.png images (built-in icons are used otherwise).")
    var images: String?

    @Option(help: "Output file: .png, .pdf or .svg.")
    var output: String

    @Flag(help: "Do not print row heights or the summary.")
    var quiet = false

    func validate() throws {
        guard width.isFinite, width >= 1, width <= 30_000 else { throw ValidationError("--width must be in [1, 30000], not \(width)") }
        if let offset, !(offset.isFinite && offset >= 0) { throw ValidationError("--offset must be a non-negative number") }
        if let height, !(height.isFinite && height >= 1 && height <= 30_000) { throw ValidationError("--height must be in [1, 30000]") }
        if offset != nil && height == nil { throw ValidationError("--offset needs --height") }
        if let selected, selected < 0 { throw ValidationError("--selected must be a row number, 0 or more, not \(selected)") }
        guard ImageFormat(path: output) != nil else { throw ValidationError("--output must end in .png, .pdf or .svg, not '\(shortenedForMessage(output))'") }
        guard scale.isFinite, Canvas.scaleRange.contains(scale) else {
            throw ValidationError("--scale must be in \(Canvas.scaleRange.lowerBound)...\(Canvas.scaleRange.upperBound), not \(scale)")
        }
        if source.cells.isEmpty && source.data == nil { throw ValidationError("give --cell (and --data for your own rows)") }
    }

    func run() throws {
        try refuseOverwritingInput(output: output, option: "--output", inputs: source.inputFiles)
        if let images {
            do { try checkDirectory(images, what: "images folder") } catch { throw CommandError(error.description) }
        }
        let templates = try source.templates()
        // A template's own `stylesheet:` is read too (only known once the template is loaded).
        try refuseOverwritingInput(output: output, option: "--output", inputs: templates.all.map(stylesheetInput))
        let sections: [ListSection<ListRow>]
        var places: RowPlaces?
        if let data = source.data {
            (sections, places) = try loadListSectionsAndPlaces(data, options: source.rowFileOptions(templates))
        } else {
            let template = templates.all[0]
            sections = [ListSection(rows: template.samples.enumerated().map {
                ListRow(id: "sample-\($0.offset)", template: template.name, data: $0.element)
            })]
        }
        let rowCount = sections.reduce(0) { $0 + $1.rows.count }
        guard rowCount > 0 || sections.contains(where: { $0.header != nil }) else {
            guard let data = source.data else { throw CommandError("no rows to draw: give --data (the template has no samples)") }
            throw CommandError("\(data == "-" ? "stdin" : data): no rows to draw")
        }
        if let selected, selected >= rowCount {
            throw CommandError("--selected \(selected) is out of range: there \(rowCount == 1 ? "is 1 row" : "are \(rowCount) rows")")
        }
        let engine = try ListEngine(sections: sections, measurer: CellMeasurer(templates.all), width: width)
        let progress = ProgressBar(label: "render", unit: "rows", total: engine.itemCount)
        do throws(ListError) { try engine.measureAll { done, _ in progress.update(done) } } catch {
            throw places?.locate(error, in: sections) ?? error
        }
        progress.finish()
        // The list holds a row at most HeightIndex.maximumHeight tall and clamps a taller one;
        // drawn clamped, every later y would be silently wrong (heights reports it the same way).
        if let tallest = engine.allHeights.firstIndex(where: { $0 >= HeightIndex.maximumHeight }) {
            let item = try engine.item(at: tallest)
            let what = item.kind == .row ? "row \(item.indexPath.row) of section \(item.indexPath.section)" : "the title of section \(item.indexPath.section)"
            let place = places.map { $0.describe(section: item.indexPath.section, row: item.kind == .row ? item.indexPath.row : nil) + ": " } ?? ""
            throw CommandError("\(place)cannot draw \(what): it is taller than a list row can be (\(JSONText.number(HeightIndex.maximumHeight)) px)")
        }
        if let selected { try engine.select(indexPath(ofRow: selected, in: sections)) }
        let canvasHeight = height ?? max(1, engine.contentHeight)
        // A viewport that starts at or past the list's end shows none of it: an error (it drew
        // the list's last --height px, and only the summary said so, nothing with --quiet). One
        // that starts inside the list and runs past its end is moved up to end with the list,
        // as a scrolled list (and `rowkit view`) shows it, with a warning.
        if let offset, offset > 0, offset >= engine.contentHeight {
            throw CommandError("--offset \(JSONText.number(offset)) is past the end of the list, which is "
                               + "\(JSONText.number(engine.contentHeight)) px tall at --width \(JSONText.number(width)): "
                               + "give an offset below \(JSONText.number(engine.contentHeight))")
        }
        engine.viewportHeight = canvasHeight
        engine.scroll(to: offset ?? 0)
        let top = engine.contentOffset
        if let offset, offset - top > 1.0 / 64 {
            Diagnostics.warning("the viewport \(JSONText.number(offset))..\(JSONText.number(offset + canvasHeight)) runs past the end of the "
                                + "list (\(JSONText.number(engine.contentHeight)) px): drawing \(JSONText.number(top))..\(JSONText.number(top + canvasHeight)), "
                                + "the list's end, as a scrolled list shows it")
        }
        let visible = try engine.visibleItems()
        let canvas: Canvas
        do { canvas = try Canvas(width: width, height: canvasHeight, scale: scale, path: output) } catch {
            // Only the height can be cut to a viewport; a canvas too wide needs a narrower list.
            let factor = ImageFormat(path: output) == .png ? scale : 1
            let fix = (width * factor).rounded(.up) > 32767 ? "give a smaller --width" : "draw a viewport with --offset and --height"
            throw CommandError(error.description + canvasHint(error, format: ImageFormat(path: output), fix: fix))
        }
        canvas.fill(.white)
        // An image warning names the row that drew the image first (the store warns once a name).
        let drawingPlace = Mutex("")
        let store = ImageStore(folder: images, output: output) { message in
            let place = drawingPlace.withLock { $0 }
            Diagnostics.warning(place.isEmpty ? message : "\(place): \(message)")
        }
        let out = OutputWriter()
        for item in visible {
            if let places {
                let place = places.describe(section: item.indexPath.section, row: item.kind == .row ? item.indexPath.row : nil)
                drawingPlace.withLock { $0 = item.kind == .footer ? "" : place }
            }
            let form: CellMeasurer.Drawing
            do throws(ListError) { form = try engine.drawingForm(for: item) } catch { throw places?.locate(error, in: sections) ?? error }
            let arrangement = try form.arrange(width: width)
            if !quiet {
                let section = sections[item.indexPath.section]
                let row: ListRow? = switch item.kind {
                case .row: section.rows[item.indexPath.row]
                case .header: section.header
                case .footer: section.footer
                }
                let what = item.kind == .row ? "\"row\": \(item.indexPath.row), \"section\": \(item.indexPath.section)"
                    : item.kind == .header ? "\"header\": \(item.indexPath.section)" : "\"footer\": \(item.indexPath.section)"
                try out.writeLine("{\(what), \"cell\": \(JSONText.string(row?.template ?? "")), \"y\": \(JSONText.number(item.y)), \"height\": \(JSONText.number(item.height))}")
            }
            CellPainter.draw(arrangement, in: canvas, x: 0, y: item.y - top, state: CellState(item.state), images: store, debugFrames: debugFrames)
            if item.kind == .row {
                // A separator on the row's last pixel line, as table views draw one.
                canvas.setColor(Color(hex: "#c8c7cc")!)
                canvas.fillRect(x: 0, y: item.y - top + item.height - 1, width: width, height: 1)
            }
        }
        // An image the rows draw is an input too; which ones is known only once they are drawn
        // (the drawing is still in its temporary file: nothing has been replaced).
        if let name = store.imageReadFromOutput, let images {
            throw CommandError("--output '\(output)' is the same file as the image '\(name)' drawn from --images '\(images)': "
                               + "writing it would destroy the input; choose another output file")
        }
        try out.flush()
        do { try canvas.finish() } catch { throw CommandError(error.description) }
        if !quiet {
            Diagnostics.note("wrote \(output): \(describeSize(canvas)), \(visible.count) of \(engine.itemCount) items, "
                             + "viewport \(JSONText.number(top))..\(JSONText.number(top + canvasHeight)) of \(JSONText.number(engine.contentHeight)) px")
        }
    }

    /// The index path of the `n`-th row counting across sections (n is in range).
    func indexPath(ofRow n: Int, in sections: [ListSection<ListRow>]) -> ListIndexPath {
        var remaining = n
        for (s, section) in sections.enumerated() {
            if remaining < section.rows.count { return ListIndexPath(section: s, row: remaining) }
            remaining -= section.rows.count
        }
        return ListIndexPath(section: sections.count - 1, row: max(0, sections[sections.count - 1].rows.count - 1))
    }
}

/// "320×480 px" (and the device size of a scaled PNG).
func describeSize(_ canvas: Canvas) -> String {
    var text = "\(JSONText.number(canvas.width))×\(JSONText.number(canvas.height)) px"
    if canvas.format == .png {
        let device = canvas.deviceSize
        if Double(device.width) != canvas.width || Double(device.height) != canvas.height {
            text += " (\(device.width)×\(device.height) device pixels at scale \(JSONText.number(canvas.scale)))"
        }
    }
    return text
}

/// What the user can do about a canvas that is too large: `fix` (the command's own way to draw
/// less), and for PNG a lower `--scale` (the limits count device pixels). Empty for other errors.
func canvasHint(_ error: DrawError, format: ImageFormat?, fix: String) -> String {
    switch error {
    case .invalidSize, .tooManyPixels: return "; \(fix)\(format == .png ? ", or lower --scale" : "")"
    default: return ""
    }
}
