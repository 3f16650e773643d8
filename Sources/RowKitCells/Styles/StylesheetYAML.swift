import Foundation
import RowKitIO
import RowKitText
import Yams

extension Stylesheet {
    /// The keys a style may set.
    static let styleKeys = ["font", "size", "weight", "italic", "color", "lineHeight", "alignment", "direction", "lang", "shadow",
                            "highlightedColor", "maxLines", "padding", "frame", "extends"]

    /// Named font weights (CSS numbers).
    static let weightNames: [(String, Int)] = [
        ("thin", 100), ("extralight", 200), ("light", 300), ("regular", 400), ("normal", 400),
        ("medium", 500), ("semibold", 600), ("bold", 700), ("extrabold", 800), ("heavy", 900), ("black", 900),
    ]

    /// Alignment names: the `TextAlignment` cases plus `left` and `right`.
    static let alignmentNames: [String] = TextAlignment.allCases.map(\.rawValue) + ["left", "right"]

    /// Parses a stylesheet from YAML (`styles:` mapping of named styles); `file` names the source in errors.
    ///
    /// Every problem — malformed YAML, unknown keys, wrong types, bad colors, out-of-range numbers,
    /// unknown `extends` parents and cycles — is a ``StyleError`` with file, line and column.
    public init(yaml: String, file: String) throws(StyleError) {
        try self.init(yaml: yaml, file: file, overlay: false)
    }

    /// Parses a stylesheet meant to be merged over another with ``merged(over:)`` (a template's
    /// own sheet, as `rowkit --stylesheet` is): a style may extend one that only the other sheet
    /// defines, so an unknown parent is reported by ``merged(over:)``, at its file, line and
    /// column (until then such a style has only its own fields). Every other problem, cycles
    /// included, is reported as by ``init(yaml:file:)``.
    public static func overlay(yaml: String, file: String) throws(StyleError) -> Stylesheet {
        try Stylesheet(yaml: yaml, file: file, overlay: true)
    }

    /// Reads a stylesheet file meant to be merged over another (see ``overlay(yaml:file:)``).
    public static func overlay(contentsOf path: String) throws(StyleError) -> Stylesheet {
        try Stylesheet(yaml: try readYAMLFile(path, what: "stylesheet"), file: yamlFileName(path), overlay: true)
    }

    init(yaml: String, file: String, overlay: Bool) throws(StyleError) {
        let reader = YAMLReader(file: file)
        guard let root = try reader.compose(yaml) else {
            throw StyleError(kind: .missingKey, file: file, line: 1, column: 1, keyPath: "styles",
                             message: "missing required section 'styles' (the document is empty)")
        }
        // A template given where a stylesheet belongs: say so (it was "name: unknown key 'name'").
        if case .mapping(let mapping) = root, let layoutKey = mapping.keys.first(where: { $0.string == "layout" }),
           !mapping.keys.contains(where: { $0.string == "styles" }) {
            throw reader.error(.unknownKey, at: layoutKey, "layout",
                               "this is a cell template, not a stylesheet (it has 'layout' and no 'styles'); give it as a cell (rowkit: --cell)")
        }
        let top = try reader.mapping(root, "", allowed: ["styles"], expected: "a mapping with a 'styles' section")
        try self.init(styles: try reader.required(top, "styles", what: "section"), reader: reader, overlay: overlay)
    }

    /// Reads and parses the stylesheet at `path` (errors name the path as given).
    public init(contentsOf path: String) throws(StyleError) {
        try self.init(yaml: try readYAMLFile(path, what: "stylesheet"), file: yamlFileName(path))
    }

    /// Parses a `styles:` mapping node (shared with templates).
    init(styles node: Node, reader: YAMLReader, overlay: Bool = false) throws(StyleError) {
        let styles = try reader.mapping(node, "styles", allowed: nil, expected: "a mapping of style names to styles")
        var names: [String] = []
        var definitions: [String: StyleDefinition] = [:]
        var origins: [String: Origin] = [:]
        var warnings: [StyleWarning] = []
        for (name, _, value) in styles.entries {
            let path = styles.path(name)
            let (definition, extendsNode, fontNode) = try Self.definition(value, path, reader: reader)
            names.append(name)
            definitions[name] = definition
            if let extendsNode {
                origins[name] = Origin(file: reader.file, line: extendsNode.mark?.line ?? 0,
                                       column: extendsNode.mark?.column ?? 0, keyPath: YAMLReader.join(path, "extends"))
            }
            // A family that is not installed still draws (with the standard font), so it is a
            // warning, reported here where the file and line are known.
            if let family = definition.font {
                if var message = FontLibrary.shared.missingFamilyWarning(family) {
                    // The family is quoted as every input is (the font library already cuts it
                    // short; this also escapes bidi controls), and a file name is said to be one:
                    // a style's font is a family, never a file.
                    message = message.replacingOccurrences(of: family, with: shortenedForMessage(family))
                    let lowercased = family.lowercased()
                    if family.contains("/") || [".ttf", ".otf", ".ttc", ".otc"].contains(where: lowercased.hasSuffix) {
                        message += " (a style's font is a family name: font files are not read from stylesheets)"
                    }
                    warnings.append(StyleWarning(file: reader.file, line: fontNode?.mark?.line ?? 0, column: fontNode?.mark?.column ?? 0,
                                                 keyPath: YAMLReader.join(path, "font"), message: message))
                } else if let fontNode, (try? FontLibrary.shared.font(for: FontDescriptor(family: family))) == nil {
                    // A list with no family in it ("", ",", "''") has nothing to fall back
                    // from: every text in the style failed when a row was bound ("no installed
                    // font matches ', 400'", no place in the file). An error where it was written.
                    throw reader.error(.wrongType, at: fontNode, YAMLReader.join(path, "font"),
                                       "'\(shortenedForMessage(family))' names no font family; expected a family name or a CSS list such as 'Noto Sans, sans-serif'")
                }
            }
        }
        try self.init(file: reader.file, names: names, definitions: definitions, origins: origins, allowingUnknownParents: overlay)
        self.warnings = warnings
    }

    /// One style mapping; also returns its `extends` and `font` value nodes, to locate
    /// resolution errors and font warnings.
    static func definition(_ node: Node, _ path: String, reader: YAMLReader) throws(StyleError) -> (StyleDefinition, extends: Node?, font: Node?) {
        var style = StyleDefinition()
        if YAMLReader.isNull(node) { return (style, nil, nil) }
        let fields = try reader.mapping(node, path, allowed: styleKeys, expected: "a style mapping")
        for (key, _, value) in fields.entries {
            let path = fields.path(key)
            switch key {
            case "font": style.font = try reader.string(value, path, expected: "a font family name")
            case "size": style.size = try reader.number(value, path, minimum: 0, exclusive: true, maximum: 1000)
            case "weight": style.weight = try weight(value, path, reader: reader)
            case "italic": style.italic = try reader.bool(value, path)
            case "color": style.color = try reader.color(value, path)
            case "highlightedColor": style.highlightedColor = try reader.color(value, path)
            case "lineHeight":
                if case .scalar(let scalar) = value, value.tagName == .str, scalar.string == "normal" {
                    style.lineHeight = .normal
                } else if case .scalar = value, value.tagName == .str {
                    throw reader.error(.wrongType, at: value, path, "expected a number of pixels or 'normal', got \(YAMLReader.describe(value))")
                } else {
                    style.lineHeight = .pixels(try reader.number(value, path, minimum: 0, exclusive: true, maximum: 10_000))
                }
            case "alignment":
                let name = try reader.choice(value, path, alignmentNames, what: "alignment")
                style.alignment = name == "left" ? .leading : name == "right" ? .trailing : TextAlignment(rawValue: name)
            case "direction":
                style.direction = TextDirection(rawValue: try reader.choice(value, path, TextDirection.allCases.map(\.rawValue), what: "direction"))
            case "lang":
                let tag = try reader.string(value, path, expected: "a language tag such as ja, zh-Hant or ko")
                guard !tag.isEmpty, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                    throw reader.error(.wrongType, at: value, path, "expected a language tag such as ja, zh-Hant or ko, got \(YAMLReader.describe(value))")
                }
                style.lang = tag
            case "shadow": style.shadow = try shadow(value, path, reader: reader)
            case "maxLines": style.maxLines = try reader.integer(value, path, in: 1...Int.max)
            case "padding": style.padding = try reader.insets(value, path)
            case "frame": style.frame = try reader.frame(value, path)
            case "extends": style.extends = try reader.string(value, path, expected: "a style name")
            default: break
            }
        }
        return (style, fields["extends"], fields["font"])
    }

    static func weight(_ node: Node, _ path: String, reader: YAMLReader) throws(StyleError) -> FontWeight {
        if node.tagName == .int || node.tagName == .float {
            do {
                return FontWeight(try reader.integer(node, path, in: 1...1000))
            } catch where error.kind == .wrongType {
                throw reader.error(.wrongType, at: node, path,
                                   "expected a weight (regular, bold, … or a whole number 1…1000), got \(YAMLReader.describe(node))")
            }
        }
        let text = try reader.string(node, path, expected: "a weight (regular, bold or 1…1000)")
        let key = text.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: " ", with: "")
        if let named = weightNames.first(where: { $0.0 == key }) { return FontWeight(named.1) }
        throw reader.error(.wrongType, at: node, path, "expected a weight (regular, bold, … or 1…1000), got \(YAMLReader.describe(node))",
                           suggestion: didYouMean(key, among: weightNames.map(\.0)))
    }

    static func shadow(_ node: Node, _ path: String, reader: YAMLReader) throws(StyleError) -> TextShadow {
        let fields = try reader.mapping(node, path, allowed: ["dx", "dy", "color"], expected: "{dx, dy, color}")
        let dx = try fields["dx"].map { (value: Node) throws(StyleError) in try reader.length(value, fields.path("dx")) } ?? 0
        let dy = try fields["dy"].map { (value: Node) throws(StyleError) in try reader.length(value, fields.path("dy")) } ?? 0
        let color = try reader.color(try reader.required(fields, "color"), fields.path("color"))
        return TextShadow(dx: dx, dy: dy, color: color)
    }
}
