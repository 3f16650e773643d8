import Foundation
import RowKitIO
import RowKitText
import Yams

extension CellTemplate {
    /// Parses a cell template from YAML (`name`, optional `stylesheet`, `layout`, optional `samples`).
    ///
    /// Text styles are looked up in the template's own `stylesheet:` (a path relative to `file`)
    /// with `stylesheet` merged over it (which may be an overlay, ``Stylesheet/overlay(yaml:file:)``,
    /// whose styles extend the template's own); every problem is a ``StyleError`` naming file, line and column.
    public init(yaml: String, file: String, stylesheet: Stylesheet? = nil) throws(StyleError) {
        let reader = YAMLReader(file: file)
        guard let root = try reader.compose(yaml) else {
            throw StyleError(kind: .missingKey, file: file, line: 1, column: 1, keyPath: "layout",
                             message: "missing required sections 'name' and 'layout' (the document is empty)")
        }
        // A stylesheet given where a template belongs: say so, rather than suggest 'stylesheet' for 'styles'.
        if case .mapping(let mapping) = root, let stylesKey = mapping.keys.first(where: { $0.string == "styles" }),
           !mapping.keys.contains(where: { $0.string == "layout" }) {
            throw reader.error(.unknownKey, at: stylesKey, "styles",
                               "this is a stylesheet, not a cell template (it has 'styles' and no 'layout'); name it in a template's 'stylesheet:' (rowkit: --stylesheet)")
        }
        let top = try reader.mapping(root, "", allowed: ["name", "stylesheet", "layout", "samples"],
                                     expected: "a template mapping with 'name' and 'layout'")
        let nameNode = try reader.required(top, "name", what: "section")
        let name = try reader.string(nameNode, "name", expected: "a template name")
        // Rows choose a template by its name ("cell"), and messages and render's output name it.
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw reader.error(.wrongType, at: nameNode, "name", "expected a template name, got an empty string")
        }

        // Styles: the template's own sheet, with the explicit one on top.
        var sheet = stylesheet
        var sheetFile: String?
        if let sheetNode = top["stylesheet"] {
            let relative = try reader.string(sheetNode, "stylesheet", expected: "a stylesheet path")
            let path = Self.resolve(relative, against: file)
            sheetFile = path
            // A path written in a file names a file: not standard input ("-" is a file named "-"
            // beside the template; it read the rows of `--data -` as the stylesheet), and not
            // a FIFO or device (opening a FIFO waited for a writer forever).
            var info = stat()
            if !path.utf8.contains(0), stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
                throw reader.error(.unreadableFile, at: sheetNode, "stylesheet",
                                   "stylesheet '\(shortenedForMessage(relative))' is not a regular file (looked for \(shortenedForMessage(path, limit: 200)))")
            }
            let own: Stylesheet
            do throws(StyleError) {
                own = try Stylesheet(contentsOf: path)
            } catch where (error.kind == .unreadableFile || error.kind == .limitExceeded) && error.file == path && error.line == 0 {
                // A file that cannot be read, or is too large, is reported where the template names it.
                throw reader.error(error.kind, at: sheetNode, "stylesheet", "stylesheet '\(shortenedForMessage(relative))': \(error.message) (looked for \(shortenedForMessage(path, limit: 200)))")
            }
            sheet = try stylesheet?.merged(over: own) ?? own
        }

        if top["stylesheet"] == nil, let given = sheet {
            // Resolved on its own: an overlay sheet (`Stylesheet.overlay`) may still name parents it lacks.
            sheet = try given.merged(over: .empty)
        }
        let builder = TemplateBuilder(reader: reader, sheet: sheet ?? .empty, hasSheet: sheet != nil)
        let layout = try builder.layout(try reader.required(top, "layout", what: "section"), "layout")
        var samples: [RowData] = []
        if let samplesNode = top["samples"], !YAMLReader.isNull(samplesNode) {
            let bound = BoundFields(layout)
            for (index, item) in try reader.sequence(samplesNode, "samples", expected: "a list of rows").enumerated() {
                samples.append(try builder.row(item, "samples[\(index)]", bound: bound))
            }
        }
        self.init(name: name, layout: layout, samples: samples)
        warnings = sheet?.warnings ?? []
        stylesheetFile = sheetFile
    }

    /// Reads and parses the template at `path`; its `stylesheet:` is relative to the file's folder.
    public init(contentsOf path: String, stylesheet: Stylesheet?) throws(StyleError) {
        try self.init(yaml: try readYAMLFile(path, what: "template"), file: path, stylesheet: stylesheet)
    }

    /// `relative` taken from the folder of `file` (unchanged when absolute or `file` has no folder).
    static func resolve(_ relative: String, against file: String) -> String {
        if relative.hasPrefix("/") { return relative }
        let folder = (file as NSString).deletingLastPathComponent
        // "-" alone would be standard input to the readers; beside the template it is a file.
        if folder.isEmpty { return relative == InputFile.standardInputPath ? "./-" : relative }
        return (folder as NSString).appendingPathComponent(relative)
    }
}

/// Turns layout nodes into ``CellLayout`` values, looking text styles up in one stylesheet.
struct TemplateBuilder {
    let reader: YAMLReader
    let sheet: Stylesheet
    let hasSheet: Bool

    /// The node kinds, one key each.
    static let kinds = ["text", "box", "vstack", "hstack", "inset", "sized", "sideBySide", "frames", "background"]

    func layout(_ node: Node, _ path: String) throws(StyleError) -> CellLayout {
        let fields = try reader.mapping(node, path, allowed: Self.kinds + ["child"],
                                        expected: "a layout node (\(Self.kinds.joined(separator: ", ")))")
        let kinds = fields.entries.filter { $0.key != "child" }
        guard let (kind, _, value) = kinds.first else {
            throw reader.error(.missingKey, at: node, path,
                               "missing node kind: expected one of \(Self.kinds.joined(separator: ", "))")
        }
        if kinds.count > 1 {
            throw reader.error(.wrongType, at: kinds[1].keyNode, fields.path(kinds[1].key),
                               "a layout node has one kind, found both '\(kind)' and '\(kinds[1].key)'")
        }
        let path = fields.path(kind)
        if kind != "inset", let childKey = fields.keyNode("child") {
            throw reader.error(.unknownKey, at: childKey, fields.path("child"),
                               "'child' goes inside '\(kind)', not next to it")
        }
        switch kind {
        case "text": return try text(value, path)
        case "box": return try box(value, path)
        case "vstack": return try stack(value, path, axis: .vertical)
        case "hstack": return try stack(value, path, axis: .horizontal)
        case "inset": return try inset(value, path, sibling: fields)
        case "sized": return try sized(value, path)
        case "sideBySide": return try sideBySide(value, path)
        case "frames": return try frames(value, path)
        default: return try background(value, path)
        }
    }

    // MARK: Styles

    /// The resolved style of `node`'s name, or an `.unknownStyle` error located at `node`.
    func style(_ node: Node, _ path: String) throws(StyleError) -> (name: String, style: StyleDefinition) {
        let name = try reader.string(node, path, expected: "a style name")
        guard let style = sheet.styles[name] else {
            let detail = hasSheet ? "" : " (no stylesheet: give one with 'stylesheet:' or --stylesheet)"
            throw reader.error(.unknownStyle, at: node, path, "unknown style '\(shortenedForMessage(name))'\(detail)",
                               suggestion: didYouMean(name, among: sheet.names))
        }
        return (name, style)
    }

    // MARK: Nodes

    func text(_ node: Node, _ path: String) throws(StyleError) -> CellLayout {
        let fields = try reader.mapping(node, path, allowed: ["field", "text", "style", "maxLines", "trim"],
                                        expected: "{field: name} or {text: \"literal\"}")
        let source: TextSource
        switch (fields["field"], fields["text"]) {
        case (let field?, nil): source = .field(try reader.string(field, fields.path("field"), expected: "a field name"))
        case (nil, let literal?): source = .literal(try reader.string(literal, fields.path("text"), expected: "a string"))
        case (_?, _?):
            throw reader.error(.wrongType, at: fields.keyNode("text"), fields.path("text"), "a text has either 'field' or 'text', not both")
        case (nil, nil):
            throw reader.error(.missingKey, at: node, path, "missing required key 'field' (or 'text' for a literal)")
        }
        var style = StyleDefinition()
        if let styleNode = fields["style"] { style = try self.style(styleNode, fields.path("style")).style }
        var maxLines = style.maxLines
        if let value = fields["maxLines"] {
            maxLines = YAMLReader.isNull(value) ? nil : try reader.integer(value, fields.path("maxLines"), in: 1...Int.max)
        }
        let trimmed = try fields["trim"].map { (value: Node) throws(StyleError) in try reader.bool(value, fields.path("trim")) } ?? true
        let element = CellLayout.text(TextElement(source, appearance: style.appearance, maxLines: maxLines, trimmed: trimmed))
        if let padding = style.padding { return .inset(padding, element) }
        return element
    }

    func box(_ node: Node, _ path: String) throws(StyleError) -> CellLayout {
        let fields = try reader.mapping(node, path, allowed: ["width", "height", "image", "color"], expected: "{width, height, image or color}")
        let width = try reader.length(try reader.required(fields, "width"), fields.path("width"), minimum: 0)
        let height = try reader.length(try reader.required(fields, "height"), fields.path("height"), minimum: 0)
        var content = BoxContent.empty
        if let image = fields["image"] {
            if fields["color"] != nil {
                throw reader.error(.wrongType, at: fields.keyNode("color"), fields.path("color"), "a box shows either 'image' or 'color', not both")
            }
            content = .image(try self.image(image, fields.path("image")))
        } else if let color = fields["color"] {
            content = .color(try reader.color(color, fields.path("color")))
        }
        return .box(BoxElement(width: width, height: height, content: content))
    }

    func image(_ node: Node, _ path: String) throws(StyleError) -> ImageSource {
        if case .scalar = node { return .named(try reader.string(node, path, expected: "an image name")) }
        let fields = try reader.mapping(node, path, allowed: ["field", "name"], expected: "an image name or {field: name}")
        if let field = fields["field"] { return .field(try reader.string(field, fields.path("field"), expected: "a field name")) }
        if let name = fields["name"] { return .named(try reader.string(name, fields.path("name"), expected: "an image name")) }
        throw reader.error(.missingKey, at: node, path, "missing required key 'field' (or 'name')")
    }

    func stack(_ node: Node, _ path: String, axis: StackElement.Axis) throws(StyleError) -> CellLayout {
        let allowed = axis == .horizontal ? ["spacing", "alignment", "flexible", "children"] : ["spacing", "alignment", "children"]
        let fields = try reader.mapping(node, path, allowed: allowed, expected: "{spacing, alignment, children: [...]}")
        let spacing = try fields["spacing"].map { (value: Node) throws(StyleError) in try reader.length(value, fields.path("spacing"), minimum: 0) } ?? 0
        var alignment = StackElement.Alignment.start
        if let value = fields["alignment"] {
            let names = ["start", "center", "end"]
            alignment = StackElement.Alignment(rawValue: try reader.choice(value, fields.path("alignment"), names, what: "alignment")) ?? .start
        }
        let childrenPath = fields.path("children")
        let items = try reader.sequence(try reader.required(fields, "children"), childrenPath, expected: "a list of layout nodes")
        var children: [CellLayout] = []
        for (index, item) in items.enumerated() { children.append(try layout(item, "\(childrenPath)[\(index)]")) }
        var flexible: Int?
        if let value = fields["flexible"] {
            flexible = try reader.integer(value, fields.path("flexible"), in: 0...max(0, children.count - 1))
        }
        return .stack(StackElement(axis, spacing: spacing, alignment: alignment, flexible: flexible, children: children))
    }

    func inset(_ node: Node, _ path: String, sibling: YAMLFields) throws(StyleError) -> CellLayout {
        let insets = try reader.insets(node, path, extraKeys: ["child"])
        var inner: (node: Node, path: String)?
        if case .mapping = node, let fields = try? reader.mapping(node, path, allowed: nil), let child = fields["child"] {
            inner = (child, fields.path("child"))
        }
        if let child = sibling["child"] {
            if inner != nil {
                throw reader.error(.wrongType, at: sibling.keyNode("child"), sibling.path("child"), "the inset's child is given twice")
            }
            inner = (child, sibling.path("child"))
        }
        guard let inner else {
            throw reader.error(.missingKey, at: sibling.node, sibling.path("inset"), "missing required key 'child' (next to 'inset')")
        }
        return .inset(insets, try layout(inner.node, inner.path))
    }

    func sized(_ node: Node, _ path: String) throws(StyleError) -> CellLayout {
        let fields = try reader.mapping(node, path, allowed: ["width", "height", "minWidth", "minHeight", "verticalAlignment", "child"],
                                        expected: "{width, height, minWidth, minHeight, verticalAlignment, child}")
        func size(_ key: String) throws(StyleError) -> Double? {
            guard let value = fields[key], !YAMLReader.isNull(value) else { return nil }
            return try reader.length(value, fields.path(key), minimum: 0)
        }
        var alignment = StackElement.Alignment.start
        if let value = fields["verticalAlignment"] {
            alignment = StackElement.Alignment(rawValue: try reader.choice(value, fields.path("verticalAlignment"),
                                                                           ["start", "center", "end"], what: "alignment")) ?? .start
        }
        let constraint = SizeConstraint(width: try size("width"), height: try size("height"),
                                        minWidth: try size("minWidth"), minHeight: try size("minHeight"),
                                        verticalAlignment: alignment)
        return .sized(constraint, try layout(try reader.required(fields, "child"), fields.path("child")))
    }

    func sideBySide(_ node: Node, _ path: String) throws(StyleError) -> CellLayout {
        let fields = try reader.mapping(node, path, allowed: ["spacing", "verticalSpacing", "first", "second"],
                                        expected: "{spacing, verticalSpacing, first, second}")
        func gap(_ key: String) throws(StyleError) -> Double {
            guard let value = fields[key] else { return 0 }
            return try reader.length(value, fields.path(key), minimum: 0)
        }
        let first = try layout(try reader.required(fields, "first"), fields.path("first"))
        let second = try layout(try reader.required(fields, "second"), fields.path("second"))
        return .sideBySide(SideBySideElement(first: first, second: second, spacing: try gap("spacing"),
                                             verticalSpacing: try gap("verticalSpacing")))
    }

    func frames(_ node: Node, _ path: String) throws(StyleError) -> CellLayout {
        var elements: [FramedElement] = []
        for (index, item) in try reader.sequence(node, path, expected: "a list of {frame, child}").enumerated() {
            let itemPath = "\(path)[\(index)]"
            let fields = try reader.mapping(item, itemPath, allowed: ["frame", "style", "child"], expected: "{frame: [x, y, w, h], child: …}")
            var frame: StyleFrame?
            if let styleNode = fields["style"] {
                let (name, style) = try self.style(styleNode, fields.path("style"))
                frame = style.frame
                if frame == nil, fields["frame"] == nil {
                    throw reader.error(.missingKey, at: styleNode, fields.path("style"),
                                       "style '\(shortenedForMessage(name))' has no 'frame', and the element gives none")
                }
            }
            if let frameNode = fields["frame"] { frame = try reader.frame(frameNode, fields.path("frame")) }
            guard let frame else {
                throw reader.error(.missingKey, at: item, itemPath, "missing required key 'frame' (or a 'style' with a frame)")
            }
            let child = try layout(try reader.required(fields, "child"), fields.path("child"))
            elements.append(FramedElement(x: frame.x, y: frame.y, width: frame.width, height: frame.height, child: child))
        }
        return .frames(elements)
    }

    func background(_ node: Node, _ path: String) throws(StyleError) -> CellLayout {
        let fills = ["color", "gradient", "image"]
        let fields = try reader.mapping(node, path, allowed: fills + ["highlighted", "border", "cornerRadius", "child"],
                                        expected: "{color | gradient | image, highlighted, border, cornerRadius, child}")
        var background = Background(fill: try fill(fields) ?? .none)
        if let value = fields["highlighted"] {
            let highlighted = try reader.mapping(value, fields.path("highlighted"), allowed: fills, expected: "{color | gradient | image}")
            guard let fill = try fill(highlighted) else {
                throw reader.error(.missingKey, at: value, fields.path("highlighted"), "missing 'color', 'gradient' or 'image'")
            }
            background.highlightedFill = fill
        }
        if let value = fields["border"] {
            let border = try reader.mapping(value, fields.path("border"), allowed: ["color", "width"], expected: "{color, width}")
            background.borderColor = try reader.color(try reader.required(border, "color"), border.path("color"))
            background.borderWidth = try border["width"].map { (value: Node) throws(StyleError) in
                try reader.length(value, border.path("width"), minimum: 0)
            } ?? 1
        }
        if let value = fields["cornerRadius"] {
            background.cornerRadius = try reader.length(value, fields.path("cornerRadius"), minimum: 0)
        }
        return .background(background, try layout(try reader.required(fields, "child"), fields.path("child")))
    }

    /// The fill named by one of `color`, `gradient`, `image` in `fields` (nil when none is given).
    func fill(_ fields: YAMLFields) throws(StyleError) -> Background.Fill? {
        let given = fields.entries.filter { ["color", "gradient", "image"].contains($0.key) }
        if given.count > 1 {
            throw reader.error(.wrongType, at: given[1].keyNode, fields.path(given[1].key),
                               "a background has one fill, found both '\(given[0].key)' and '\(given[1].key)'")
        }
        guard let (key, _, value) = given.first else { return nil }
        let path = fields.path(key)
        switch key {
        case "color": return .color(try reader.color(value, path))
        case "image": return .image(try image(value, path))
        default:
            if case .mapping = value {
                let gradient = try reader.mapping(value, path, allowed: ["top", "bottom"], expected: "[top, bottom] or {top, bottom}")
                return .verticalGradient(top: try reader.color(try reader.required(gradient, "top"), gradient.path("top")),
                                         bottom: try reader.color(try reader.required(gradient, "bottom"), gradient.path("bottom")))
            }
            let stops = try reader.sequence(value, path, expected: "[top color, bottom color]")
            guard stops.count == 2 else {
                throw reader.error(.wrongType, at: value, path, "expected [top color, bottom color], got \(stops.count) colors")
            }
            return .verticalGradient(top: try reader.color(stops[0], "\(path)[0]"), bottom: try reader.color(stops[1], "\(path)[1]"))
        }
    }

    // MARK: Samples

    /// A sample row: field names to strings or numbers (null leaves the field out), checked
    /// against the fields the layout reads as a row file's rows are (a misspelled field drew an
    /// empty row without a word).
    func row(_ node: Node, _ path: String, bound: BoundFields) throws(StyleError) -> RowData {
        let fields = try reader.mapping(node, path, allowed: nil, expected: "a row mapping of field names to values")
        var row = RowData()
        for (key, keyNode, value) in fields.entries {
            let valuePath = fields.path(key)
            guard bound.all.contains(key) else {
                let known = bound.all.sorted()
                throw reader.error(.unknownKey, at: keyNode, valuePath,
                                   "unknown field '\(shortenedForMessage(key))'; the layout reads \(known.isEmpty ? "no fields" : known.map { shortenedForMessage($0) }.joined(separator: ", "))",
                                   suggestion: didYouMean(key, among: known))
            }
            guard case .scalar(let scalar) = value else {
                throw reader.error(.wrongType, at: value, valuePath, "expected a string or a number, got \(YAMLReader.describe(value))")
            }
            switch value.tagName {
            case .null: continue
            case .int, .float:
                if bound.images.contains(key) {
                    throw reader.error(.wrongType, at: value, valuePath, "field '\(shortenedForMessage(key))' names an image: expected a string, got \(YAMLReader.describe(value))")
                }
                // A sample shows its field as written: `zip: 01234` and `time: 1:30` are that
                // text (YAML 1.1 would read octal 668 and base-60 90).
                if YAMLReader.yaml11NumberProblem(scalar, value: 0) != nil {
                    row.fields[key] = .string(scalar.string)
                    continue
                }
                let number = try reader.number(value, valuePath)
                // Kept as written when its Double would print differently (huge integers, 1.50).
                row.fields[key] = FieldValue(numberText: scalar.string) ?? .number(number)
            default: row.fields[key] = .string(scalar.string)
            }
        }
        return row
    }
}
