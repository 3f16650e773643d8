import ArgumentParser
import RowKitCells

/// A template YAML file, with an optional stylesheet file merged over the one it names.
func loadTemplateFile(_ path: String, stylesheet: String?) throws -> CellTemplate {
    do {
        let sheet = try stylesheet.map { path throws(StyleError) in try Stylesheet(contentsOf: path) }
        return try CellTemplate(contentsOf: path, stylesheet: sheet)
    } catch {
        throw CommandError(error.description)
    }
}
