import ArgumentParser
import Foundation
import RowKitCells
import RowKitDraw
import RowKitIO
import RowKitList
import RowKitListCells
import RowKitView
import RowKitWindow

struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a list of rows in a GTK4 window that scrolls smoothly and never jumps.",
        discussion: """
        Rows come from --data (JSON array, JSON Lines or {"sections": [...]}, as for render) or \
        --sample N generated rows (up to 1,000,000); the rows on screen are measured first, the rest \
        in the background. Wheel and touchpad scroll (with kinetic flings); a press highlights a row \
        and the release selects it. Keys: Up/Down move the selection, Page Up/Down, Home/End, \
        Escape clears the selection, F toggles the frame-rate readout. With --script, --frame-log or \
        --undecorated the list's drawing area is the window's top-left --width × --height pixels.
        """
    )

    @Option(help: "Built-in cell name or template YAML file: the default for rows (a row may name any built-in cell with \"cell\").")
    var cell: String = "caption-text"

    @Option(help: "Stylesheet YAML for a template file.")
    var stylesheet: String?

    @Option(help: "Rows: a JSON array of row objects, {\"sections\": [{\"title\": …, \"rows\": […]}, …], or JSON Lines of row objects (the format comes from the content); - for standard input.")
    var data: String?

    @Option(parsing: .unconditional, help: "Show N generated rows of the cell (1...1000000) instead of --data.")
    var sample: Int?

    @Option(name: .customLong("section-size"), parsing: .unconditional, help: "With --sample: group rows into sections of this many rows with headers.")
    var sectionSize: Int?

    @Option(help: "Folder of NAME.png images (built-in icons are used otherwise).")
    var images: String?

    @Option(parsing: .unconditional, help: "Width of the list's drawing area in pixels.")
    var width: Double = 390

    @Option(parsing: .unconditional, help: "Height of the list's drawing area in pixels.")
    var height: Double = 844

    @Flag(help: "No title bar or frame (implied by --script and --frame-log).")
    var undecorated = false

    @Option(parsing: .unconditional, help: "Insert a new row above the viewport every MS milliseconds (a chat or feed).")
    var live: Double?

    @Option(name: .customLong("at-top"), help: """
        What rows inserted above a list scrolled to the very top do: keep-still (what is on screen \
        does not move; the new rows are above it) or show-new (stay at the top and show them, as feeds do).
        """)
    var atTop: TopInsertPolicy = .keepStill

    @Flag(name: .customLong("no-sticky-headers"), help: "Section headers scroll away with their rows.")
    var noStickyHeaders = false

    @Flag(name: .customLong("show-fps"), help: "Start with the frame-rate readout shown (F toggles it).")
    var showFPS = false

    @Option(name: .customLong("frame-log"), help: "Write one JSON line per painted frame to FILE (- for standard output).")
    var frameLog: String?

    @Option(help: "Replay timed actions from FILE, one per line: '<seconds> <action> [args]' (# starts a comment). Actions: scroll DY, wheel CLICKS, fling PX/S, scroll-to ROW|SECTION:ROW top|middle|bottom|nearest, click X Y, press X Y, release X Y, key NAME (up, down, page-up, page-down, home, end, escape, fps), resize W H, insert N, quit.")
    var script: String?

    @Option(name: .customLong("quit-after"), parsing: .unconditional, help: "Close the window SECONDS after the first frame.")
    var quitAfter: Double?

    enum TopInsertPolicy: String, ExpressibleByArgument, CaseIterable {
        case keepStill = "keep-still", showNew = "show-new"
    }

    static let maximumSample = 1_000_000

    func validate() throws {
        try refuseSharedStandardInput([("--stylesheet", stylesheet), ("--data", data), ("--script", script)])
        guard width.isFinite, width >= 1, width <= 30_000 else { throw ValidationError("--width must be in [1, 30000], not \(width)") }
        guard height.isFinite, height >= 1, height <= 30_000 else { throw ValidationError("--height must be in [1, 30000], not \(height)") }
        if let sample, !(1...Self.maximumSample).contains(sample) {
            throw ValidationError("--sample must be in 1...\(Self.maximumSample), not \(sample)")
        }
        if sample != nil && data != nil { throw ValidationError("give --data or --sample, not both") }
        if let sectionSize, sectionSize < 1 { throw ValidationError("--section-size must be at least 1") }
        if sectionSize != nil && sample == nil { throw ValidationError("--section-size applies to --sample") }
        if let live, !(live.isFinite && live >= 1 && live <= 86_400_000) { throw ValidationError("--live must be in [1, 86400000] milliseconds") }
        if let quitAfter, !(quitAfter.isFinite && quitAfter >= 0 && quitAfter <= 86_400) {
            throw ValidationError("--quit-after must be in [0, 86400] seconds")
        }
    }

    func run() throws {
        let start = ListWindow.monotonicNow()
        if let frameLog {
            try refuseOverwritingInput(output: frameLog, option: "--frame-log",
                                       inputs: [("--data", data), ("--script", script), ("--stylesheet", stylesheet),
                                                ("--cell", ClassicCells.named(cell) == nil ? cell : nil)])
        }
        if let images {
            do { try checkDirectory(images, what: "images folder") } catch { throw CommandError(error.description) }
            // The log is opened (emptied) before any row is drawn, so an image the rows may draw
            // is refused by name here (render checks the images it drew before replacing its output).
            if let frameLog, let image = pngInFolder(images, sameFileAs: frameLog) {
                throw CommandError("--frame-log '\(frameLog)' is the same file as the image '\(image)' in --images '\(images)': "
                                   + "writing it would destroy the input; choose another output file")
            }
        }
        let template = try loadTemplate(cell, stylesheet: stylesheet)
        if let frameLog { try refuseOverwritingInput(output: frameLog, option: "--frame-log", inputs: [stylesheetInput(of: template)]) }
        // Rows may name any built-in cell with "cell", as for render and heights (a template
        // file with a built-in cell's name replaces that cell).
        let templates = [template] + (ClassicCells.all + [ClassicCells.sectionHeader]).filter { $0.name != template.name }
        let generator = SampleRows(template: template)
        let rows: [ListSection<ListRow>]?
        var places: RowPlaces?
        if let data {
            let loaded = try loadListSectionsAndPlaces(data, options: RowFileOptions(templates: templates, defaultTemplate: template.name))
            rows = loaded.sections
            places = loaded.places
        } else if sample != nil {
            rows = nil
        } else {
            rows = [ListSection(rows: template.samples.enumerated().map {
                ListRow(id: "sample-\($0.offset)", template: template.name, data: $0.element)
            })]
        }
        // Section titles alone are a list too (as render and heights draw and measure them).
        if let rows, !rows.contains(where: { !$0.rows.isEmpty || $0.header != nil }) {
            guard let data else { throw CommandError("no rows: give --data or --sample (the template has no samples)") }
            throw CommandError("\(data == "-" ? "stdin" : data): no rows to show")
        }
        let steps: [ScriptStep]
        do { steps = try script.map { path throws(ScriptError) in try Script.load(path) } ?? [] } catch { throw CommandError(error.description) }

        // Building a long list's engine and opening the display overlap (GTK wants the main thread).
        let cells = CellMeasurer(templates)
        let built = BuiltList()
        let listWidth = width, count = sample ?? 0, sectionSize = sectionSize
        DispatchQueue.global(qos: .userInitiated).async(group: built.group) {
            built.result = Result {
                if let rows {
                    let engine = try ListEngine(sections: rows, measurer: BackgroundPriorityMeasurer(cells), width: listWidth)
                    let live = Counter()
                    return (EngineSeam(engine) { n in
                        (0..<n).map { _ in let k = live.next(); return generator.row(id: "live-\(k)", index: k, seed: 0x11fe) }
                    }, { ViewportPainter(engine: engine, images: $0) })
                }
                // Generated rows are pulled by id (their number) when measured or drawn: nothing
                // per row but its id and height, and integer ids hash fast.
                let engine = try ListEngine(sections: generator.idSections(count: count, sectionSize: sectionSize),
                                            dataSource: generator, measurer: BackgroundPriorityMeasurer(SampleMeasurer(cells: cells)),
                                            width: listWidth)
                let live = Counter()
                // The frame log and warnings name rows by their rows' ids ("r5", "live-0"), not the numbers the engine keeps.
                return (EngineSeam(engine, makeRows: { n in
                    (0..<n).map { _ in
                        let k = live.next()
                        return SampleRow(id: SampleRows.liveIDs + k, row: generator.row(id: SampleRows.rowID(SampleRows.liveIDs + k), index: k, seed: 0x11fe))
                    }
                }, idText: SampleRows.rowID), { ViewportPainter(engine: engine, images: $0) })
            }
        }
        do { try ListWindow.openDisplay() } catch { throw CommandError(error.description) }
        built.group.wait()
        let (seam, makePainter) = try built.result!.get()
        let configuration = ViewConfiguration(stickyHeaders: !noStickyHeaders, stayAtTopOnInsert: atTop == .showNew)
        let model = ListViewModel(list: seam, width: width, height: height, configuration: configuration)
        model.showsFrameRate = showFPS
        var options = WindowOptions()
        options.width = width
        options.height = height
        options.undecorated = undecorated || script != nil || frameLog != nil
        options.title = "RowKit — \(template.name)"
        options.frameLog = frameLog
        options.script = steps
        options.scriptName = script
        options.warn = { Diagnostics.warning($0) }
        options.quitAfter = quitAfter
        options.liveInterval = live.map { $0 / 1000 }
        options.startTime = start
        let window = ListWindow(model: model, painter: makePainter(ImageStore(folder: images)), options: options)
        do { try window.run() } catch {
            // A row of --data that cannot be drawn is named by its place, not the list's id for it.
            if let listError = error as? ListError, let places, let rows { throw places.locate(listError, in: rows) }
            if let outputError = error as? OutputError { throw outputError } // a broken pipe ends quietly
            throw CommandError("\(error)")
        }
    }
}

/// A list built on another thread while the main thread opens the display: its seam, and how
/// to make its painter.
private final class BuiltList: @unchecked Sendable {
    let group = DispatchGroup()
    /// Written by the building thread before `group` is left, read after waiting on it.
    var result: Result<(ListSeam, (ImageStore) -> ViewportPainter), Error>?
}

/// Numbers for new rows (used on the main loop only).
private final class Counter: @unchecked Sendable {
    private var value = 0
    func next() -> Int { defer { value += 1 }; return value }
}

/// A generated row; its id is its number (negative for section headers).
struct SampleRow: Identifiable, Sendable {
    let id: Int
    let row: ListRow
}

/// Measures generated rows with the cells of their ``ListRow``.
struct SampleMeasurer: RowMeasurer {
    let cells: CellMeasurer
    func measuringForm(of row: SampleRow) throws -> CellMetrics { try cells.measuringForm(of: row.row) }
    func height(of form: CellMetrics, width: Double) -> Double { cells.height(of: form, width: width) }
    func drawingForm(of row: SampleRow, measuring: CellMetrics?) throws -> BoundCell { try cells.drawingForm(of: row.row, measuring: measuring) }
    func byteCount(of form: CellMetrics) -> Int { cells.byteCount(of: form) }
    func object(of form: CellMetrics) -> AnyObject { cells.object(of: form) }
    func form(of object: AnyObject) -> CellMetrics { cells.form(of: object) }
    func height(ofObject object: AnyObject, width: Double) -> Double { cells.height(ofObject: object, width: width) }
}

/// Generated rows for `--sample` and `--live`: the template's sample rows with every text field
/// of three words or more replaced by text of a realistic length mix (2 to 45 words), different
/// for every row.
///
/// For `--sample` the engine gets only ids (row numbers; −1 − k for section k's header) and
/// pulls a row's data from here when it measures or draws it (a data source), so a million rows
/// cost their ids, not a million row values built before the first frame.
struct SampleRows: ListDataSource {
    let template: CellTemplate
    /// The template's samples (one empty row when it has none).
    private let samples: [RowData]
    /// For each sample, its string fields of three words or more, in key order: found once (a
    /// script inserting 100,000 rows spent a quarter of its time splitting the same samples).
    private let sentenceKeys: [[String]]

    init(template: CellTemplate) {
        self.template = template
        samples = template.samples.isEmpty ? [RowData()] : template.samples
        sentenceKeys = samples.map { sample in
            sample.fields.keys.sorted().filter { key in
                guard case .string(let text)? = sample.fields[key] else { return false }
                return text.split(whereSeparator: \.isWhitespace).count >= 3
            }
        }
    }
    /// Ids of rows inserted live start here (above any generated row's).
    static let liveIDs = 1 << 40
    static let words = ("list row height text measure layout width cell table scroll anchor section header reuse "
        + "update insert delete move reload exact prepare shape glyph line break font fallback emoji "
        + "bidi arabic hebrew thai korean japanese chinese browser chromium pango cairo harfbuzz").split(separator: " ").map(String.init)
    static let lengths = [2, 4, 6, 10, 18, 30, 45]

    /// The id of the row whose engine id (its number) is `id`: "r5" for generated row 5,
    /// "s0-header" for section 0's header, "live-3" for the fourth row inserted live.
    static func rowID(_ id: Int) -> String {
        if id < 0 { return "s\(-1 - id)-header" }
        return id >= liveIDs ? "live-\(id - liveIDs)" : "r\(id)"
    }

    /// Row `index` of a generated set (`seed` picks the set).
    func row(id: String, index: Int, seed: UInt64) -> ListRow {
        var random = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        var fields = samples[index % samples.count].fields
        for key in sentenceKeys[index % samples.count] {
            let count = Self.lengths[Int(random.next() % UInt64(Self.lengths.count))]
            let sentence = (0..<count).map { _ in Self.words[Int(random.next() % UInt64(Self.words.count))] }.joined(separator: " ")
            fields[key] = .string(sentence.prefix(1).uppercased() + sentence.dropFirst() + ".")
        }
        return ListRow(id: id, template: template.name, data: RowData(fields))
    }

    /// The ids of `count` rows, in one section or in sections of `sectionSize` rows with headers.
    func idSections(count: Int, sectionSize: Int?) -> [ListSection<Int>] {
        guard let size = sectionSize else { return [ListSection(rows: Array(0..<count))] }
        return stride(from: 0, to: count, by: size).enumerated().map { s, start in
            ListSection(header: -1 - s, rows: Array(start..<min(count, start + size)))
        }
    }

    /// The row with `id` (the engine asks from any thread).
    func row(for id: Int, kind: ListItemKind, at indexPath: ListIndexPath) throws -> SampleRow {
        if id < 0 {
            return SampleRow(id: id, row: ListRow(id: Self.rowID(id), template: "section-header", data: ["title": "Section \(-id)"]))
        }
        guard id < Self.liveIDs else { throw SampleRowError.unknownID(id) }
        return SampleRow(id: id, row: row(id: Self.rowID(id), index: id, seed: 7))
    }
}

/// An id the sample generator did not make (live rows are kept by the engine, never asked for).
enum SampleRowError: Error, CustomStringConvertible {
    case unknownID(Int)
    var description: String {
        switch self { case .unknownID(let id): return "no generated row has the id \(id)" }
    }
}

/// A small, fast, deterministic random generator (SplitMix64).
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The `NAME.png` in `folder` that is the same file as `path` (which a row could draw), if any.
func pngInFolder(_ folder: String, sameFileAs path: String) -> String? {
    guard FileManager.default.fileExists(atPath: path),
          let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
    for name in names where name.hasSuffix(".png") && isSameFile(output: path, input: (folder as NSString).appendingPathComponent(name)) {
        return String(name.dropLast(4))
    }
    return nil
}
