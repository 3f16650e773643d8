import RowKitIO

/// What a row file is checked against: the templates rows may use and the default one.
public struct RowFileOptions: Sendable {
    /// Templates rows may name with `"cell"`.
    public var templates: [CellTemplate]
    /// The template of rows without `"cell"` (nil: every row must name one).
    public var defaultTemplate: String?
    /// Accept fields no template reads (otherwise each is an error naming it).
    public var allowsUnknownFields: Bool

    /// Options for rows of `templates`; rows without `"cell"` use `defaultTemplate`.
    public init(templates: [CellTemplate], defaultTemplate: String?, allowsUnknownFields: Bool = false) {
        self.templates = templates
        self.defaultTemplate = defaultTemplate
        self.allowsUnknownFields = allowsUnknownFields
    }
}

/// One row read from a row file, checked against its template.
public struct RowFileRow: Sendable {
    /// 0-based section.
    public var section: Int
    /// 0-based index of the row in its section as written (rows with errors count too).
    public var row: Int
    /// The row's `"id"`, or `s<section>-r<row>`.
    public var id: String
    /// The template's name.
    public var template: String
    /// The fields (null fields are left out).
    public var data: RowData
    /// Where the row starts in the file.
    public var position: TextPosition
}

/// A section of a row file. JSON arrays and JSON Lines are one section without a title.
public struct RowFileSection: Sendable {
    /// 0-based index.
    public var index: Int
    /// The section's `"id"`, or `s<index>`.
    public var id: String
    /// The title (drawn by the `section-header` cell), if any.
    public var title: String?
    /// Whether `title` is final. In `{"sections": …}` a `"title"` may follow the section's
    /// `"rows"`; it is then known only at the section's end (``RowFileItem/sectionEnd(_:)``).
    public var titleIsFinal: Bool
    /// Where the section starts.
    public var position: TextPosition
}

/// What reading a row file yields, in file order.
public enum RowFileItem: Sendable {
    /// A section begins.
    case sectionStart(RowFileSection)
    /// A good row.
    case row(RowFileRow)
    /// A section ends (with its final title).
    case sectionEnd(RowFileSection)
    /// A bad row or section field: reported, skipped, and reading goes on.
    case error(InputError)
}

/// Reads rows from JSON (an array of row objects, or `{"sections": [{"title", "rows"}, …]}`)
/// or JSON Lines (one row object per line), streaming: a file of any size is read in bounded
/// memory, one row at a time.
///
/// The format comes from the content, not the file name: `[` starts an array, `{"sections":`
/// followed by anything but a string, number, boolean or null a sections document (a first row
/// with a field named `sections` is a row), anything else JSON Lines. Every row is checked: a JSON object of
/// string and number fields (null fields are left out), fields the row's template reads (an
/// unknown one is named with a suggestion), image fields holding names, unique ids (none may be
/// `<section id>-header`, the id of a titled section's title row). A bad row is
/// a ``RowFileItem/error(_:)`` item and reading goes on; malformed JSON inside a JSON document
/// ends reading (thrown), while a bad JSON Lines line is one error item.
///
/// Reserved keys: `"id"` (a string or number naming the row; default `s<section>-r<row>`) and
/// `"cell"` (the row's template); null leaves either out, as it does a field. Numbers keep their text when their value would print
/// differently (see ``FieldValue/init(numberText:)``).
///
/// Not thread-safe.
public final class RowFileReader {
    /// The layout of a row file.
    public enum Format: String, Sendable {
        /// One JSON object per line.
        case jsonLines = "JSON Lines"
        /// One JSON array of row objects.
        case array = "JSON array"
        /// `{"sections": [{"header": …, "rows": […]}, …]}`.
        case sections = "JSON sections"
    }

    /// The name used in messages.
    public var name: String { reader.input.name }
    /// Bytes consumed so far, and the total when known (for progress).
    public var bytesRead: Int { reader.input.consumedBytes }
    /// The input's size when known.
    public var byteCount: Int? { reader.input.byteCount }
    /// Whether ``next()`` has something read already or can read on without waiting for the
    /// input (see `BufferedInput.hasLineWithoutWaiting`): a streaming consumer finishes its
    /// batch before it would wait.
    public var hasItemWithoutWaiting: Bool { pendingIndex < pending.count || reader.input.hasLineWithoutWaiting }
    /// The format, once the first item has been read.
    public private(set) var format: Format?

    private let reader: JSONReader
    private let options: RowFileOptions
    private let fields: [String: TemplateFields]
    /// `fields` of the default template, looked up once (most rows name no cell).
    private let defaultFields: TemplateFields

    /// A template's fields, and their names in an array: a row's keys are looked up in it by
    /// comparing (a template reads a few fields), which cost less than hashing each key for the
    /// `Set` (~330 instructions a key).
    private struct TemplateFields {
        let bound: BoundFields
        let names: [String]

        init(_ bound: BoundFields) {
            self.bound = bound
            names = Array(bound.all)
        }

        /// Whether the template reads the field `key` (`bound.all.contains(key)`).
        func reads(_ key: String) -> Bool {
            names.count <= 16 ? names.contains(key) : bound.all.contains(key)
        }
    }
    private let templateNames: [String]
    private var pending: [RowFileItem] = []
    private var pendingIndex = 0
    private var state = State.start
    /// The rows' written ids and where each was first written (compact: see `RowIDSet`).
    private var explicitIDs = RowIDSet()
    private var sectionIDs: [String: (position: TextPosition, written: Bool)] = [:]
    /// The ids of the title rows of the sections read so far (`<section id>-header`, the row
    /// that draws a section's title), with their section's id.
    private var titleRowIDs: [String: String] = [:]
    /// The same for the section being read, when its id and title came before its rows (so
    /// its rows are refused as read, not reported after they were yielded).
    private var openTitleRow: (id: String, section: String)?
    private var implicitRows: [[UInt64]] = []

    private enum State {
        case start
        case jsonLines(section: RowFileSection, rows: Int)
        case rows(section: RowFileSection, rows: Int, first: Bool, nested: Bool, keys: SectionKeys)
        case topKeys(first: Bool, seenSections: Bool)
        case sectionList(first: Bool, count: Int)
        case sectionKeys(section: RowFileSection, first: Bool, keys: SectionKeys)
        case finished
    }

    /// Keys seen in a section object.
    private struct SectionKeys {
        var title: TextPosition?, rows: TextPosition?, id: TextPosition?
    }

    /// Reads the file at `path` (or standard input for `-`).
    public convenience init(path: String, options: RowFileOptions) throws(InputError) {
        self.init(input: BufferedInput(try InputFile(path, what: "data file")), options: options)
    }

    /// Reads bytes held in memory; `name` is used in messages.
    public convenience init(bytes: [UInt8], name: String, options: RowFileOptions) {
        self.init(input: BufferedInput(bytes: bytes, name: name), options: options)
    }

    init(input: BufferedInput, options: RowFileOptions) {
        self.reader = JSONReader(input)
        self.options = options
        var fields: [String: TemplateFields] = [:]
        for template in options.templates where fields[template.name] == nil { fields[template.name] = TemplateFields(template.boundFields) }
        self.fields = fields
        defaultFields = options.defaultTemplate.flatMap { fields[$0] } ?? TemplateFields(BoundFields())
        self.templateNames = options.templates.map(\.name)
    }

    /// The next item, or nil at the end. Throws when reading cannot go on: an I/O error, or
    /// malformed JSON in a JSON document.
    public func next() throws(InputError) -> RowFileItem? {
        while pendingIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if case .finished = state { return nil }
            try advance()
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    // MARK: Parsing

    private func emit(_ item: RowFileItem) { pending.append(item) }

    private func error(_ position: TextPosition?, _ message: String) -> InputError {
        InputError(.malformed, source: name, position: position, message: message)
    }

    private func newSection(_ index: Int, id: String? = nil, title: String? = nil, final: Bool, at position: TextPosition) -> RowFileSection {
        if implicitRows.count <= index { implicitRows.append(contentsOf: repeatElement([], count: index + 1 - implicitRows.count)) }
        return RowFileSection(index: index, id: id ?? "s\(index)", title: title, titleIsFinal: final, position: position)
    }

    /// Whether `byte` starts a JSON number, `true`, `false` or `null`.
    static func startsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n")
    }

    /// Reads one step and queues what it yields.
    private func advance() throws(InputError) {
        switch state {
        case .start:
            let first = try reader.peek()
            // The input skipped the file's byte order mark; a second one made the file JSON
            // Lines, whose line then failed for another reason ("not an array").
            if first == 0xEF { try reader.refuseByteOrderMark() }
            let position = reader.position
            if first == UInt8(ascii: "[") {
                format = .array
                _ = try reader.consume(UInt8(ascii: "["))
                let section = newSection(0, final: true, at: position)
                emit(.sectionStart(section))
                state = .rows(section: section, rows: 0, first: true, nested: false, keys: SectionKeys())
            } else if first == UInt8(ascii: "{"), let member = try reader.peekFirstMember(), member.key == "sections",
                      member.valueStart != UInt8(ascii: "\""), member.valueStart.map(Self.startsScalar) != true {
                // `{"sections": [` (or a mistaken `{`/end) is a sections document; a first row
                // whose first field is named "sections" with a string or number is JSON Lines.
                format = .sections
                _ = try reader.consume(UInt8(ascii: "{"))
                state = .topKeys(first: true, seenSections: false)
            } else {
                format = .jsonLines
                let section = newSection(0, final: true, at: TextPosition.start)
                emit(.sectionStart(section))
                state = .jsonLines(section: section, rows: 0)
            }

        case .jsonLines(let section, let rows):
            guard let line = try reader.nextLine() else {
                emit(.sectionEnd(section))
                state = .finished
                return
            }
            if line.isTooLong {
                emit(.error(error(TextPosition(line: line.number, column: 0),
                                  "the line is longer than the \(byteCountText(InputLimits.recordBytes)) record limit")))
                state = .jsonLines(section: section, rows: rows + 1)
                return
            }
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            let origin = TextPosition(line: line.number, column: line.column)
            let leading = line.bytes.prefix { $0 == 0x20 || $0 == 0x09 }.count
            let position = TextPosition(line: line.number, column: line.column + leading)
            do throws(InputError) {
                let value = try parseJSON(line.bytes, source: name, origin: origin, skipsByteOrderMark: false, unit: "line")
                row(value, at: position, section: section.index, index: rows)
            } catch {
                emit(.error(error))
            }
            state = .jsonLines(section: section, rows: rows + 1)

        case .rows(let section, let rows, let first, let nested, let keys):
            if try reader.consume(UInt8(ascii: "]")) {
                if nested {
                    state = .sectionKeys(section: section, first: false, keys: keys)
                } else {
                    try expectEnd()
                    emit(.sectionEnd(section))
                    state = .finished
                }
                return
            }
            if !first { try reader.expect(UInt8(ascii: ","), "',' or ']' after a row") }
            state = .rows(section: section, rows: rows + 1, first: false, nested: nested, keys: keys)
            let value: JSONValue, position: TextPosition
            do {
                (value, position) = try reader.readValue()
            } catch where error.kind == .limitExceeded {
                // A row over the record limit is one bad row, as an over-long JSON Lines line
                // is: reported, skipped unread, and reading goes on (it ended the whole file).
                emit(.error(error))
                try reader.skipValue()
                return
            }
            row(value, at: position, section: section.index, index: rows)

        case .topKeys(let first, let seenSections):
            if try reader.consume(UInt8(ascii: "}")) {
                try expectEnd()
                state = .finished
                return
            }
            if !first { try reader.expect(UInt8(ascii: ","), "',' or '}'") }
            let (key, position) = try reader.readKey()
            if key == "sections" && !seenSections {
                try reader.expect(UInt8(ascii: "["), "'[' (a list of sections)")
                state = .sectionList(first: true, count: 0)
                return
            }
            emit(.error(error(position, key == "sections" ? "\"sections\" is given twice"
                              : "unknown key '\(shortenedForMessage(key))' (a sections document has only \"sections\")")))
            try reader.skipValue()
            state = .topKeys(first: false, seenSections: seenSections)

        case .sectionList(let first, let count):
            if try reader.consume(UInt8(ascii: "]")) {
                state = .topKeys(first: false, seenSections: true)
                return
            }
            if !first { try reader.expect(UInt8(ascii: ","), "',' or ']' after a section") }
            let next = try reader.peek()
            let position = reader.position
            let section = newSection(count, final: false, at: position)
            if next != UInt8(ascii: "{") {
                let (value, _) = try reader.readValue()
                emit(.sectionStart(RowFileSection(index: count, id: section.id, title: nil, titleIsFinal: true, position: position)))
                emit(.error(error(position, "section \(count) must be an object {\"title\": …, \"rows\": […]}, not \(value.kindDescription)")))
                emit(.sectionEnd(RowFileSection(index: count, id: section.id, title: nil, titleIsFinal: true, position: position)))
                state = .sectionList(first: false, count: count + 1)
                return
            }
            _ = try reader.consume(UInt8(ascii: "{"))
            state = .sectionKeys(section: section, first: true, keys: SectionKeys())

        case .sectionKeys(var section, let first, var keys):
            if try reader.consume(UInt8(ascii: "}")) {
                if keys.rows == nil {
                    section.titleIsFinal = true
                    emit(.sectionStart(section))
                    emit(.error(error(section.position, "section \(section.index) has no \"rows\": […]")))
                }
                section.titleIsFinal = true
                let idPosition = keys.id ?? section.position
                // A section without "id" has the default id "s<index>", which another section may
                // have written: the message says which of the two ids was not written.
                if let first = sectionIDs[section.id] {
                    let quoted = shortenedForMessage(section.id)
                    let firstPlace = "the section at \(name):\(first.position)\(first.written ? "" : ", which has no \"id\" and so the default one")"
                    emit(.error(error(idPosition, keys.id == nil
                        ? "section \(section.index) has no \"id\", and its default id '\(quoted)' is already used by \(firstPlace): give it an \"id\""
                        : "duplicate section id '\(quoted)' (first used by \(firstPlace))")))
                } else {
                    sectionIDs[section.id] = (idPosition, keys.id != nil)
                }
                // A section's title is drawn by a row with the id `<section id>-header`, which
                // no row may have; both are final only now (rows after it are checked as read).
                openTitleRow = nil
                if section.title != nil {
                    let titleRowID = "\(section.id)-header"
                    if let taken = explicitIDs.position(of: titleRowID) {
                        emit(.error(titleRowError(id: titleRowID, section: section.id, at: taken)))
                    }
                    if titleRowIDs[titleRowID] == nil { titleRowIDs[titleRowID] = section.id }
                }
                emit(.sectionEnd(section))
                state = .sectionList(first: false, count: section.index + 1)
                return
            }
            if !first { try reader.expect(UInt8(ascii: ","), "',' or '}' in a section") }
            let (key, position) = try reader.readKey()
            let earlier: TextPosition?
            switch key {
            case "title": earlier = keys.title
            case "rows": earlier = keys.rows
            case "id": earlier = keys.id
            default: earlier = nil
            }
            if let earlier {
                emit(.error(error(position, "section \(section.index): \"\(key)\" is given twice (first at \(earlier))")))
                try reader.skipValue()
                state = .sectionKeys(section: section, first: false, keys: keys)
                return
            }
            switch key {
            case "title":
                keys.title = position
                switch try readValueOrSkip() {
                case (.string(let title), _)?: section.title = title
                case (.null, _)?, nil: break
                case (let value, let valuePosition)?:
                    emit(.error(error(valuePosition, "section \(section.index): \"title\" must be a string, not \(value.kindDescription)")))
                }
                if keys.rows != nil { section.titleIsFinal = true }
            case "id":
                keys.id = position
                switch try readValueOrSkip() {
                case (.string(let id), _)? where !id.isEmpty: section.id = id
                case (.number(let number), _)?: section.id = number.text
                case (.null, _)?, nil: break
                case (let value, let valuePosition)?:
                    emit(.error(error(valuePosition, "section \(section.index): \"id\" must be a non-empty string or a number, not \(value == .string("") ? "an empty string" : value.kindDescription)")))
                }
            case "rows":
                keys.rows = position
                section.titleIsFinal = keys.title != nil
                if try reader.peek() != UInt8(ascii: "[") {
                    let (value, valuePosition) = try reader.readValue()
                    emit(.sectionStart(section))
                    emit(.error(error(valuePosition, "section \(section.index): \"rows\" must be an array of row objects, not \(value.kindDescription)")))
                    state = .sectionKeys(section: section, first: false, keys: keys)
                    return
                }
                _ = try reader.consume(UInt8(ascii: "["))
                emit(.sectionStart(section))
                if keys.id != nil && section.title != nil { openTitleRow = ("\(section.id)-header", section.id) }
                state = .rows(section: section, rows: 0, first: true, nested: true, keys: keys)
                return
            default:
                emit(.error(error(position, "section \(section.index): unknown key '\(shortenedForMessage(key))'"
                                  + (didYouMean(key, among: ["title", "rows", "id"]).map { " (did you mean '\($0)'?)" } ?? "")
                                  + "; a section has \"title\", \"rows\" and \"id\"")))
                try reader.skipValue()
            }
            state = .sectionKeys(section: section, first: false, keys: keys)

        case .finished:
            break
        }
    }

    private func expectEnd() throws(InputError) {
        if try reader.peek() != nil {
            throw error(reader.position, "unexpected text after the end of the JSON document")
        }
    }

    // MARK: Rows

    /// Checks one row value and queues it (or its error).
    private func row(_ value: JSONValue, at position: TextPosition, section: Int, index: Int) {
        switch checkedRow(value, at: position, section: section, index: index) {
        case .success(let row): emit(.row(row))
        case .failure(let failure): emit(.error(failure))
        }
    }

    /// A value, or nil when it is over the record limit: then it is reported and skipped, and
    /// reading goes on (a section's 17 MiB "title" ended the whole file).
    private func readValueOrSkip() throws(InputError) -> (JSONValue, TextPosition)? {
        do {
            return try reader.readValue()
        } catch where error.kind == .limitExceeded {
            emit(.error(error))
            try reader.skipValue()
            return nil
        }
    }

    private func checkedRow(_ value: JSONValue, at position: TextPosition, section: Int, index: Int) -> Result<RowFileRow, InputError> {
        guard case .object(let object) = value else {
            return .failure(error(position, "a row must be a JSON object of fields, not \(value.kindDescription)"))
        }
        if let (first, second) = object.firstDuplicateKey {
            return .failure(error(second.keyPosition, "field '\(shortenedForMessage(second.key))' is given twice (first at \(first.keyPosition))"))
        }
        // The template.
        let template: String, templateFields: TemplateFields
        // null leaves "cell" and "id" out, as it leaves out any field (README: "null leaves a
        // field out"); `{"id": null}` was an error.
        if let cell = object["cell"], cell.value != .null {
            guard case .string(let name) = cell.value else {
                return .failure(error(cell.valuePosition, "\"cell\" must be a template name (a string), not \(cell.value.kindDescription)"))
            }
            guard let named = fields[name] else {
                // Names from template files are quoted as any input is (a name with a line break split the message).
                let hint = didYouMean(name, among: templateNames).map { " (did you mean '\(shortenedForMessage($0))'?)" } ?? ""
                let names = templateNames.map { shortenedForMessage($0) }.joined(separator: ", ")
                return .failure(error(cell.valuePosition, "unknown cell '\(shortenedForMessage(name))'\(hint); cells: \(names)"))
            }
            template = name
            templateFields = named
        } else if let name = options.defaultTemplate {
            template = name
            templateFields = defaultFields
        } else {
            return .failure(error(position, "the row names no \"cell\" and there is no default template"))
        }
        let bound = templateFields.bound
        // The id.
        var id: String?
        if let member = object["id"], member.value != .null {
            switch member.value {
            case .string(let text) where !text.isEmpty: id = text
            case .number(let number): id = number.text
            default:
                return .failure(error(member.valuePosition, "\"id\" must be a non-empty string or a number, not \(member.value == .string("") ? "an empty string" : member.value.kindDescription)"))
            }
        }
        // The fields.
        // (`reserveCapacity` on an empty dictionary ran unspecialized in the standard library:
        // ~1,300 instructions a row.)
        var data = [String: FieldValue](minimumCapacity: object.members.count)
        for member in object.members where member.key != "cell" && (member.key != "id" || templateFields.reads("id")) {
            let key = member.key
            if !templateFields.reads(key) && !options.allowsUnknownFields {
                let known = bound.all.sorted()
                var message = "unknown field '\(shortenedForMessage(key))' for cell '\(shortenedForMessage(template))'"
                if let suggestion = didYouMean(key, among: known) { message += " (did you mean '\(shortenedForMessage(suggestion))'?)" }
                message += known.isEmpty ? "; it reads no fields" : "; it reads \(known.map { shortenedForMessage($0) }.joined(separator: ", "))"
                return .failure(error(member.keyPosition, message))
            }
            switch member.value {
            case .null:
                continue
            case .string(let text):
                data[key] = .string(text)
            case .number(let number):
                if bound.images.contains(key) {
                    return .failure(error(member.valuePosition, "field '\(shortenedForMessage(key))' names an image: expected a string, not \(member.value.kindDescription)"))
                }
                guard let field = FieldValue(numberText: number.text) else {
                    return .failure(error(member.valuePosition, "field '\(shortenedForMessage(key))': the number \(shortenedForMessage(number.text)) is out of range"))
                }
                data[key] = field
            default:
                let expected = bound.images.contains(key) ? "an image name (a string)" : "a string or a number"
                return .failure(error(member.valuePosition, "field '\(shortenedForMessage(key))' must be \(expected), not \(member.value.kindDescription)"))
            }
        }
        // Unique ids, including the automatic ones.
        let finalID: String
        if let id {
            if let first = explicitIDs.position(of: id) {
                return .failure(error(position, "duplicate row id '\(shortenedForMessage(id))' (first used by the row at \(name):\(first))"))
            }
            if let section = titleRowIDs[id] ?? openTitleRow.flatMap({ $0.id == id ? $0.section : nil }) {
                return .failure(titleRowError(id: id, section: section, at: position))
            }
            if let (s, r) = Self.automaticID(id), isImplicit(section: s, row: r) {
                return .failure(error(position, "row id '\(shortenedForMessage(id))' is already the automatic id of row \(r) of section \(s), which has no \"id\""))
            }
            explicitIDs.insert(id, at: position)
            finalID = id
        } else {
            finalID = Self.automaticIDText(section: section, row: index)
            if !explicitIDs.isEmpty, let first = explicitIDs.position(of: finalID) {
                return .failure(error(position, "this row has no \"id\" and its automatic id '\(finalID)' is used by the row at \(name):\(first)"))
            }
            markImplicit(section: section, row: index)
        }
        return .success(RowFileRow(section: section, row: index, id: finalID, template: template, data: RowData(data), position: position))
    }

    private func titleRowError(id: String, section: String, at position: TextPosition) -> InputError {
        error(position, "row id '\(shortenedForMessage(id))' is the id of the title row of section '\(shortenedForMessage(section))'")
    }

    /// The automatic id `s<section>-r<row>` (for rows ≥ 0), written in place with
    /// `JSONText.writeInteger`: string interpolation cost every row ~1,000 instructions, appending
    /// to an array ~700.
    static func automaticIDText(section: Int, row: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 44) { buffer in
            let p = buffer.baseAddress!
            p[0] = UInt8(ascii: "s")
            var n = 1 + JSONText.writeInteger(Int64(section), to: p + 1)
            p[n] = UInt8(ascii: "-")
            p[n + 1] = UInt8(ascii: "r")
            n += 2
            n += JSONText.writeInteger(Int64(row), to: p + n)
            return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
        }
    }

    /// `(section, row)` when `id` has the form of an automatic id, `s<section>-r<row>`.
    static func automaticID(_ id: String) -> (Int, Int)? {
        guard id.hasPrefix("s"), let dash = id.firstIndex(of: "-") else { return nil }
        let sectionText = id[id.index(after: id.startIndex)..<dash]
        let rest = id[id.index(after: dash)...]
        guard rest.hasPrefix("r") else { return nil }
        let rowText = rest.dropFirst()
        guard let s = Int(sectionText), let r = Int(rowText), String(s) == sectionText, String(r) == rowText else { return nil }
        return (s, r)
    }

    private func isImplicit(section: Int, row: Int) -> Bool {
        guard section >= 0, section < implicitRows.count, row >= 0 else { return false }
        let words = implicitRows[section]
        return row / 64 < words.count && words[row / 64] & (1 << UInt64(row % 64)) != 0
    }

    private func markImplicit(section: Int, row: Int) {
        if implicitRows.count <= section { implicitRows.append(contentsOf: repeatElement([], count: section + 1 - implicitRows.count)) }
        let word = row / 64
        if implicitRows[section].count <= word {
            implicitRows[section].append(contentsOf: repeatElement(0, count: word + 1 - implicitRows[section].count))
        }
        implicitRows[section][word] |= 1 << UInt64(row % 64)
    }
}

/// A section of rows read whole (see ``RowFile/load(_:options:)``).
public struct LoadedSection: Sendable {
    /// The section: index, id, title.
    public var section: RowFileSection
    /// Its good rows, in order.
    public var rows: [RowFileRow]
}

/// Row files read whole.
public enum RowFile {
    /// Every section and row of the file at `path` (or standard input for `-`), and every
    /// error found (bad rows are left out; after `InputLimits.reportedErrors` of them reading
    /// stops). Throws when reading cannot go on, and for files over
    /// `InputLimits.wholeInputBytes` or `InputLimits.wholeInputRows` (RowKitIO).
    public static func load(_ path: String, options: RowFileOptions) throws(InputError) -> (sections: [LoadedSection], errors: [InputError]) {
        let reader = try RowFileReader(path: path, options: options)
        return try load(reader)
    }

    /// Every section, row and error from `reader` (see ``load(_:options:)``).
    public static func load(_ reader: RowFileReader) throws(InputError) -> (sections: [LoadedSection], errors: [InputError]) {
        if let size = reader.byteCount, size > InputLimits.wholeInputBytes {
            throw InputError(.limitExceeded, source: reader.name,
                             message: "the data is larger than the \(byteCountText(InputLimits.wholeInputBytes)) limit for rows read whole")
        }
        var sections: [LoadedSection] = []
        var errors: [InputError] = []
        var items = 0
        while let item = try reader.next() {
            if reader.bytesRead > InputLimits.wholeInputBytes {
                throw InputError(.limitExceeded, source: reader.name,
                                 message: "the data is larger than the \(byteCountText(InputLimits.wholeInputBytes)) limit for rows read whole")
            }
            switch item {
            case .sectionStart(let section):
                sections.append(LoadedSection(section: section, rows: []))
                items += 1
            case .row(let row):
                sections[sections.count - 1].rows.append(row)
                items += 1
            case .sectionEnd(let section): sections[sections.count - 1].section = section
            case .error(let error):
                errors.append(error)
                if errors.count == InputLimits.reportedErrors {
                    errors.append(InputError(.limitExceeded, source: reader.name,
                                             message: "\(InputLimits.reportedErrors) bad rows: the rest of the file is not read"))
                    return (sections, errors)
                }
            }
            if items > InputLimits.wholeInputRows {
                throw InputError(.limitExceeded, source: reader.name,
                                 message: "more than \(InputLimits.wholeInputRows) rows and sections, the limit for rows read whole (rowkit heights streams any number)")
            }
        }
        return (sections, errors)
    }
}
