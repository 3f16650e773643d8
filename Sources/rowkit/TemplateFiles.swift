import ArgumentParser
import RowKitCells

/// A template YAML file with an optional stylesheet file.
func loadTemplateFile(_ path: String, stylesheet: String?) throws -> CellTemplate {
    throw ValidationError("template files are not supported yet: '\(path)'")
}
