import ArgumentParser
import RowKitCells
import RowKitIO

/// A template YAML file, with an optional stylesheet file merged over the one it names.
func loadTemplateFile(_ path: String, stylesheet: String?) throws -> CellTemplate {
    do {
        let sheet = try stylesheet.map { path throws(StyleError) in try Stylesheet.overlay(contentsOf: path) }
        let template = try CellTemplate(contentsOf: path, stylesheet: sheet)
        for warning in template.warnings { Diagnostics.warning(warning.description) }
        return template
    } catch {
        throw CommandError(error.description)
    }
}
