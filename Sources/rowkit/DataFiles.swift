import ArgumentParser
import RowKitCells
import RowKitIO
import RowKitList
import RowKitListCells

/// The options that choose cells and read rows, shared by `render`, `heights` (and `view`).
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("cell"),
            help: "Built-in cell name or template YAML file (repeatable: rows choose theirs with \"cell\"; the first is the default; a file whose template has a built-in cell's name replaces that cell).")
    var cells: [String] = []

    @Option(help: "Stylesheet YAML for the template files.")
    var stylesheet: String?

    @Option(help: "Rows: a JSON array of row objects, {\"sections\": [{\"title\": …, \"rows\": […]}, …], or JSON Lines of row objects; - for standard input.")
    var data: String?

    @Flag(help: "Accept row fields that no template reads (they are errors otherwise).")
    var allowUnknownFields = false

    func validate() throws {
        try refuseSharedStandardInput([("--stylesheet", stylesheet), ("--data", data)])
    }

    /// The templates named by `--cell`, the first being the default, plus the built-in cells
    /// (rows may name those without `--cell`).
    func templates() throws -> (all: [CellTemplate], defaultName: String?) {
        let given = try loadTemplates(cells, stylesheet: stylesheet)
        var all = given
        for builtin in ClassicCells.all + [ClassicCells.sectionHeader] where !all.contains(where: { $0.name == builtin.name }) {
            all.append(builtin)
        }
        return (all, given.first?.name)
    }

    /// The files these options read (`--data`, template files, `--stylesheet`), by option.
    var inputFiles: [(option: String, path: String?)] {
        [("--data", data), ("--stylesheet", stylesheet)] + cells.filter { ClassicCells.named($0) == nil }.map { ("--cell", $0) }
    }

    /// The options for reading rows against `templates`.
    func rowFileOptions(_ templates: (all: [CellTemplate], defaultName: String?)) -> RowFileOptions {
        RowFileOptions(templates: templates.all, defaultTemplate: templates.defaultName, allowsUnknownFields: allowUnknownFields)
    }
}

/// Refuses two options that both read standard input (`-`): the first read it all, and the
/// second then read nothing or the wrong thing (`--stylesheet - --data -` took the rows for a
/// stylesheet: "-:1:2: title: unknown key 'title'").
func refuseSharedStandardInput(_ options: [(option: String, path: String?)]) throws {
    let readers = options.filter { $0.path == InputFile.standardInputPath }.map(\.option)
    guard readers.count > 1 else { return }
    let verb = readers.count == 2 ? "cannot both" : "cannot all"
    throw ValidationError("\(readers.joined(separator: " and ")) \(verb) read standard input (-): give all but one as files")
}

/// Built-in cells by name and template files, in order; a name given twice is an error.
func loadTemplates(_ names: [String], stylesheet: String?) throws -> [CellTemplate] {
    if stylesheet != nil && !names.contains(where: { ClassicCells.named($0) == nil }) {
        throw CommandError("--stylesheet applies to template files, and no --cell names one")
    }
    var templates: [CellTemplate] = []
    for name in names {
        let template = try loadTemplate(name, stylesheet: ClassicCells.named(name) == nil ? stylesheet : nil)
        if let earlier = templates.first(where: { $0.name == template.name }) {
            throw CommandError("two templates are named '\(shortenedForMessage(earlier.name))' (--cell \(name))")
        }
        templates.append(template)
    }
    return templates
}

/// A built-in cell by name, or a template file.
func loadTemplate(_ name: String, stylesheet: String?) throws -> CellTemplate {
    if let builtin = ClassicCells.named(name) {
        guard stylesheet == nil else { throw CommandError("--stylesheet applies to template files, not the built-in cell '\(name)'") }
        return builtin
    }
    // Case-insensitive, like output extensions (`--output O.PNG`): `T.YAML` was an unknown cell.
    let lowercased = name.lowercased()
    guard lowercased.hasSuffix(".yaml") || lowercased.hasSuffix(".yml") else {
        let names = (ClassicCells.all + [ClassicCells.sectionHeader]).map(\.name)
        let hint = didYouMean(name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        throw CommandError("unknown cell '\(name)'\(hint): use one of \(names.joined(separator: ", ")) or a .yaml template")
    }
    let template = try loadTemplateFile(name, stylesheet: stylesheet)
    // Section titles are drawn by the template named section-header with the field "title"; a
    // replacement that shows no "title" draws every title blank — said, not silent.
    if template.name == ClassicCells.sectionHeader.name && !template.boundFields.text.contains("title") {
        Diagnostics.warning("\(name): this template replaces 'section-header', which draws section titles from the field 'title', "
                            + "but it does not show 'title': section titles will be blank")
    }
    return template
}

/// Every section of a row file as list sections (section titles become `section-header`
/// rows), for commands that need all rows at once (`render`, `view`). Every bad row is
/// reported on standard error as `file:line:column: message`; if there was any, this throws
/// after reading the whole file (so the user sees all problems in one run).
func loadListSections(_ path: String, options: RowFileOptions) throws -> [ListSection<ListRow>] {
    try loadListSectionsAndPlaces(path, options: options).sections
}

/// Where each row and section of a row file was written, for messages about a row found only
/// after reading (`rows.json:7:3: cannot draw row 4 of section 0: …`).
struct RowPlaces {
    /// The file as messages name it (`stdin` for `-`).
    var file: String
    /// Each section's place (its title row's), and each of its rows' places.
    var sections: [TextPosition], rows: [[TextPosition]]

    /// `file:line:column` of the row `row` of `section` (its title when `row` is nil).
    func describe(section: Int, row: Int?) -> String {
        let position = row.map { rows[section][$0] } ?? sections[section]
        return "\(file):\(position)"
    }

    /// A list error about one row (`row 's0-r3': …`) as `file:line:column: …`; other errors as they are.
    func locate(_ error: ListError, in list: [ListSection<ListRow>]) -> Error {
        guard case .rowFailed(let id, let reason) = error else { return error }
        for (s, section) in list.enumerated() {
            if section.header?.id == id { return CommandError("\(describe(section: s, row: nil)): section title: \(reason)") }
            if let r = section.rows.firstIndex(where: { $0.id == id }) {
                return CommandError("\(describe(section: s, row: r)): row \(r) of section \(s): \(reason)")
            }
        }
        return error
    }
}

/// ``loadListSections(_:options:)`` and where each row was written.
func loadListSectionsAndPlaces(_ path: String, options: RowFileOptions) throws -> (sections: [ListSection<ListRow>], places: RowPlaces) {
    let (sections, errors) = try RowFile.load(path, options: options)
    for error in errors { Diagnostics.error(error.description) }
    if !errors.isEmpty {
        throw CommandError("\(path == "-" ? "stdin" : path): \(errors.count) error\(errors.count == 1 ? "" : "s") in the rows; nothing drawn")
    }
    let places = RowPlaces(file: path == InputFile.standardInputPath ? "stdin" : path,
                           sections: sections.map(\.section.position), rows: sections.map { $0.rows.map(\.position) })
    // Rows with the id of a title's row ("<section id>-header") are errors of the reader.
    let list = sections.map { loaded in
        let header = loaded.section.title.map {
            ListRow(id: "\(loaded.section.id)-header", template: ClassicCells.sectionHeader.name, data: ["title": $0])
        }
        return ListSection(header: header, rows: loaded.rows.map { ListRow(id: $0.id, template: $0.template, data: $0.data) })
    }
    return (list, places)
}
