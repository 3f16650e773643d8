import ArgumentParser
import Foundation
import RowKitCells
import RowKitDraw
import RowKitList
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

    @Option(help: "Built-in cell name or template YAML file.")
    var cell: String = "caption-text"

    @Option(help: "Stylesheet YAML for a template file.")
    var stylesheet: String?

    @Option(help: "Rows: .json (array of objects or {\"sections\": [...]}) or .jsonl (one object per line).")
    var data: String?

    @Option(help: "Show N generated rows of the cell (1...1000000) instead of --data.")
    var sample: Int?

    @Option(name: .customLong("section-size"), help: "With --sample: group rows into sections of this many rows with headers.")
    var sectionSize: Int?

    @Option(help: "Folder of NAME.png images (built-in icons are used otherwise).")
    var images: String?

    @Option(help: "Width of the list's drawing area in pixels.")
    var width: Double = 390

    @Option(help: "Height of the list's drawing area in pixels.")
    var height: Double = 844

    @Flag(help: "No title bar or frame (implied by --script and --frame-log).")
    var undecorated = false

    @Option(help: "Insert a new row above the viewport every MS milliseconds (a chat or feed).")
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

    @Option(name: .customLong("frame-log"), help: "Write one JSON line per painted frame to FILE.")
    var frameLog: String?

    @Option(help: "Replay timed actions from FILE, one per line: '<seconds> <action> [args]'.")
    var script: String?

    @Option(name: .customLong("quit-after"), help: "Close the window SECONDS after the first frame.")
    var quitAfter: Double?

    enum TopInsertPolicy: String, ExpressibleByArgument, CaseIterable {
        case keepStill = "keep-still", showNew = "show-new"
    }

    static let maximumSample = 1_000_000

    func validate() throws {
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
        let template = try loadTemplate(cell, stylesheet: stylesheet)
        let generator = SampleRows(template: template)
        let sections: [ListSection]
        if let data {
            sections = try loadSections(data, template: template.name)
        } else if let sample {
            sections = generator.sections(count: sample, sectionSize: sectionSize)
        } else {
            sections = [ListSection(id: "samples", rows: template.samples.enumerated().map {
                ListRow(id: "sample-\($0.offset)", template: template.name, data: $0.element)
            })]
        }
        guard sections.contains(where: { !$0.rows.isEmpty }) else {
            throw CommandError("no rows: give --data or --sample (the template has no samples)")
        }
        let steps: [ScriptStep]
        do { steps = try script.map { path throws(ScriptError) in try Script.load(path) } ?? [] } catch { throw CommandError(error.description) }

        // Building a long list's engine and opening the display overlap (GTK wants the main thread).
        let measurer = BackgroundPriorityMeasurer(CellMeasurer([template, ClassicCells.sectionHeader]))
        let built = EngineBuild()
        let listWidth = width
        DispatchQueue.global(qos: .userInitiated).async(group: built.group) {
            built.result = Result { try ListEngine(sections: sections, measurer: measurer, width: listWidth) }
        }
        do { try ListWindow.openDisplay() } catch { throw CommandError(error.description) }
        built.group.wait()
        let engine = try built.result!.get()
        let configuration = ViewConfiguration(stickyHeaders: !noStickyHeaders, stayAtTopOnInsert: atTop == .showNew)
        let model = ListViewModel(list: EngineSeam(engine), width: width, height: height, configuration: configuration)
        model.showsFrameRate = showFPS
        var options = WindowOptions()
        options.width = width
        options.height = height
        options.undecorated = undecorated || script != nil || frameLog != nil
        options.title = "RowKit — \(template.name)"
        options.frameLog = frameLog
        options.script = steps
        options.quitAfter = quitAfter
        options.liveInterval = live.map { $0 / 1000 }
        options.startTime = start
        var liveCount = 0
        options.makeRows = { n in
            defer { liveCount += n }
            return (0..<n).map { generator.row(id: "live-\(liveCount + $0)", index: liveCount + $0, seed: 0x11fe) }
        }
        let window = ListWindow(model: model, painter: ViewportPainter(engine: engine, images: ImageStore(folder: images)), options: options)
        do { try window.run() } catch { throw CommandError("\(error)") }
    }
}

/// An engine built on another thread while the main thread opens the display.
private final class EngineBuild: @unchecked Sendable {
    let group = DispatchGroup()
    /// Written by the building thread before `group` is left, read after waiting on it.
    var result: Result<ListEngine<BackgroundPriorityMeasurer<CellMeasurer>>, Error>?
}

/// Generated rows for `--sample` and `--live`: the template's sample rows with every text field
/// of three words or more replaced by text of a realistic length mix (2 to 45 words).
///
/// A million distinct rows would cost seconds to build before the first frame, so rows cycle
/// through a pool of 1,024 generated ones (each with its own id); live rows are all distinct.
struct SampleRows {
    let template: CellTemplate
    static let poolSize = 1024
    static let words = ("list row height text measure layout width cell table scroll anchor section header reuse "
        + "update insert delete move reload exact prepare shape glyph line break font fallback emoji "
        + "bidi arabic hebrew thai korean japanese chinese browser chromium pango cairo harfbuzz").split(separator: " ").map(String.init)
    static let lengths = [2, 4, 6, 10, 18, 30, 45]

    /// Row `index` of a generated set (`seed` picks the set).
    func row(id: String, index: Int, seed: UInt64) -> ListRow {
        let samples = template.samples.isEmpty ? [RowData()] : template.samples
        var random = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        var fields = samples[index % samples.count].fields
        for (key, value) in fields {
            guard case .string(let text) = value, text.split(whereSeparator: \.isWhitespace).count >= 3 else { continue }
            let count = Self.lengths[Int(random.next() % UInt64(Self.lengths.count))]
            let sentence = (0..<count).map { _ in Self.words[Int(random.next() % UInt64(Self.words.count))] }.joined(separator: " ")
            fields[key] = .string(sentence.prefix(1).uppercased() + sentence.dropFirst() + ".")
        }
        return ListRow(id: id, template: template.name, data: RowData(fields))
    }

    /// `count` rows, in one section or in sections of `sectionSize` rows with headers.
    func sections(count: Int, sectionSize: Int?) -> [ListSection] {
        let pool = (0..<min(count, Self.poolSize)).map { row(id: "", index: $0, seed: 7).data }
        let name = template.name
        let rows = (0..<count).map { ListRow(id: "r\($0)", template: name, data: pool[$0 % pool.count]) }
        guard let size = sectionSize else { return [ListSection(id: "s0", rows: rows)] }
        return stride(from: 0, to: count, by: size).enumerated().map { s, start in
            ListSection(id: "s\(s)", header: ListRow(id: "s\(s)-header", template: "section-header", data: ["title": "Section \(s + 1)"]),
                        rows: Array(rows[start..<min(count, start + size)]))
        }
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
