import ArgumentParser
import Foundation
import RowKitCells
import RowKitList
import RowKitListCells

struct Heights: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compute every row's exact height and y at a width, as JSON Lines (for precomputing heights server-side).",
        discussion: """
        Output: one {"row": i, "section": s, "y": y, "height": h} per row (and {"header": s, …} per \
        section header), in list order. Rows are measured on all cores; a progress bar shows on stderr \
        when it is a terminal.
        """
    )

    @Option(help: "Built-in cell name or template YAML file.")
    var cell: String

    @Option(help: "Stylesheet YAML for a template file.")
    var stylesheet: String?

    @Option(help: "Rows: .json (an array of row objects, or an object with sections) or .jsonl (one row object per line).")
    var data: String

    @Option(help: "List width in pixels.")
    var width: Double

    func validate() throws {
        guard width.isFinite, width >= 1, width <= 30_000 else { throw ValidationError("--width must be in [1, 30000], not \(width)") }
    }

    func run() throws {
        let template = try loadTemplate(cell, stylesheet: stylesheet)
        let sections = try loadSections(data, template: template.name)
        let engine = try ListEngine(sections: sections, measurer: CellMeasurer([template, ClassicCells.sectionHeader]), width: width)
        let total = engine.itemCount
        let progress = Progress(total: total, label: "measured")
        try engine.measureAll { done, _ in progress.update(done) }
        progress.finish()
        var output = OutputBuffer()
        var y = 0.0
        for index in 0..<total {
            let item = try engine.item(at: index)
            let height = try engine.height(ofItem: index)
            let what = item.kind == .row ? "\"row\": \(item.indexPath.row), \"section\": \(item.indexPath.section)"
                : item.kind == .header ? "\"header\": \(item.indexPath.section)" : "\"footer\": \(item.indexPath.section)"
            output.append("{\(what), \"y\": \(jsonNumber(y)), \"height\": \(jsonNumber(height))}")
            y += height
        }
        output.flush()
    }
}
