import ArgumentParser
import RowKitCells
import RowKitIO
import Synchronization

/// A template YAML file, with an optional stylesheet file merged over the one it names.
func loadTemplateFile(_ path: String, stylesheet: String?) throws -> CellTemplate {
    do {
        let sheet = try stylesheet.map { path throws(StyleError) in try Stylesheet.overlay(contentsOf: path) }
        let template = try CellTemplate(contentsOf: path, stylesheet: sheet)
        for warning in template.warnings where printedStyleWarnings.withLock({ $0.insert(warning).inserted }) {
            Diagnostics.warning(warning.description)
        }
        // A row's "cell" names its template and is never a field (RowFileReader), so a layout
        // that shows it would be blank in every row, without a word.
        if template.boundFields.all.contains("cell") {
            Diagnostics.warning("\(path): template '\(shortenedForMessage(template.name))' reads the field 'cell', which a row uses to name its template: "
                                + "it is always empty (rename the field)")
        }
        return template
    } catch {
        throw CommandError(error.description)
    }
}

/// Style warnings already printed: templates that share a stylesheet (`--stylesheet`, or the
/// same `stylesheet:`) carry the same warnings, said once.
private let printedStyleWarnings = Mutex<Set<StyleWarning>>([])
