import RowKitIO
import RowKitText

/// A problem in a stylesheet or cell template, located at a file, line and column and a key path.
///
/// The description reads like a compiler diagnostic:
/// `cells.yaml:7:5: styles.caption.colour: unknown key 'colour' (did you mean 'color'?)`.
public struct StyleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The text is not valid YAML (reported at the YAML parser's line and column).
        case malformedYAML
        /// A file could not be read.
        case unreadableFile
        /// A style name (in `extends` or a template's `style`) that the stylesheet does not define.
        case unknownStyle
        /// Styles that extend each other in a circle.
        case extendsCycle
        /// A color that is neither a known name, a hex code nor a color mapping.
        case badColor
        /// A value of the wrong type, e.g. `size: "big"` or `weight: 950.5`.
        case wrongType
        /// A key this position does not know (misspelled, or an unknown node kind).
        case unknownKey
        /// A number outside its range: a size ≤ 0, NaN, a negative line height.
        case outOfRange
        /// A required section or key is absent.
        case missingKey
        /// The file is over a documented limit: size, nodes after alias expansion, nesting
        /// (see ``YAMLLimits``).
        case limitExceeded
    }

    /// What kind of problem this is.
    public var kind: Kind
    /// The file (as given to the loader) the problem is in.
    public var file: String
    /// 1-based line, or 0 when unknown.
    public var line: Int
    /// 1-based column, or 0 when unknown.
    public var column: Int
    /// Dotted path of the offending key, e.g. `styles.caption.color` or `layout.vstack.children[1]`.
    public var keyPath: String
    /// What is wrong.
    public var message: String
    /// A close match for a misspelled name, shown as "did you mean …?".
    public var suggestion: String?

    /// Makes an error; `line` and `column` are 1-based (0 when unknown).
    public init(kind: Kind, file: String, line: Int, column: Int, keyPath: String, message: String, suggestion: String? = nil) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
        self.suggestion = suggestion
    }

    /// `file:line:column: key.path: message (did you mean 'x'?)`.
    public var description: String {
        var text = file
        if line > 0 { text += ":\(line):\(column)" }
        text += ": "
        if !keyPath.isEmpty { text += "\(keyPath): " }
        text += message
        if let suggestion { text += " (did you mean '\(shortenedForMessage(suggestion))'?)" }
        return text
    }
}

/// A frame a style gives an element of a `frames` layout: position and width, and a fixed height
/// or nil for the child's measured height.
public struct StyleFrame: Sendable, Hashable {
    /// Left edge and top edge relative to the cell, and width, in pixels.
    public var x: Double, y: Double, width: Double
    /// Fixed height, or nil for "auto" (the child's measured height).
    public var height: Double?

    /// Makes a frame; a nil `height` means the child's measured height.
    public init(x: Double, y: Double, width: Double, height: Double?) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// One named style as written: every field is optional, and unset fields are inherited from the
/// `extends` parent (then from the defaults when the appearance is built).
public struct StyleDefinition: Sendable, Hashable {
    /// Font family, resolved through fontconfig.
    public var font: String?
    /// Font size in pixels (> 0).
    public var size: Double?
    /// Font weight (regular 400, bold 700).
    public var weight: FontWeight?
    /// Whether to use the italic face.
    public var italic: Bool?
    /// Text color in the normal state.
    public var color: Color?
    /// Baseline-to-baseline distance; default `round(1.25 × size)` pixels.
    public var lineHeight: LineHeight?
    /// Horizontal alignment of the lines.
    public var alignment: TextAlignment?
    /// Paragraph direction (default `.auto`: the first strong character decides, as `rowkit draw`).
    public var direction: TextDirection?
    /// Content language (BCP 47, as HTML `lang`): fallback fonts and CJK line breaking.
    public var lang: String?
    /// Shadow drawn under the text in the normal state.
    public var shadow: TextShadow?
    /// Text color in the highlighted and selected states (default white).
    public var highlightedColor: Color?
    /// At most this many lines; a template's `maxLines` overrides it.
    public var maxLines: Int?
    /// Padding around texts of this style: a template wraps them in an inset.
    public var padding: Insets?
    /// Where an element of this style sits in a `frames` layout.
    public var frame: StyleFrame?
    /// The parent style this one inherits unset fields from.
    public var extends: String?

    /// Makes a definition; every field defaults to unset.
    public init(font: String? = nil, size: Double? = nil, weight: FontWeight? = nil, italic: Bool? = nil,
                color: Color? = nil, lineHeight: LineHeight? = nil, alignment: TextAlignment? = nil,
                direction: TextDirection? = nil, lang: String? = nil, shadow: TextShadow? = nil, highlightedColor: Color? = nil, maxLines: Int? = nil,
                padding: Insets? = nil, frame: StyleFrame? = nil, extends: String? = nil) {
        self.font = font; self.size = size; self.weight = weight; self.italic = italic
        self.color = color; self.lineHeight = lineHeight; self.alignment = alignment
        self.direction = direction; self.lang = lang
        self.shadow = shadow; self.highlightedColor = highlightedColor; self.maxLines = maxLines
        self.padding = padding; self.frame = frame; self.extends = extends
    }

    /// This definition with every unset field taken from `parent` (`extends` is kept).
    public func inheriting(from parent: StyleDefinition) -> StyleDefinition {
        StyleDefinition(font: font ?? parent.font, size: size ?? parent.size, weight: weight ?? parent.weight,
                        italic: italic ?? parent.italic, color: color ?? parent.color,
                        lineHeight: lineHeight ?? parent.lineHeight, alignment: alignment ?? parent.alignment,
                        direction: direction ?? parent.direction, lang: lang ?? parent.lang,
                        shadow: shadow ?? parent.shadow, highlightedColor: highlightedColor ?? parent.highlightedColor,
                        maxLines: maxLines ?? parent.maxLines, padding: padding ?? parent.padding,
                        frame: frame ?? parent.frame, extends: extends)
    }

    /// The text appearance with defaults for unset fields: DejaVu Sans 13 px regular, line height
    /// `round(1.25 × size)` px, black, natural alignment, direction auto, no language, no shadow,
    /// white when highlighted.
    public var appearance: TextAppearance {
        let size = self.size ?? Stylesheet.defaultSize
        let style = TextStyle(font: FontDescriptor(family: font ?? Stylesheet.defaultFamily, weight: weight ?? .regular,
                                                   italic: italic ?? false),
                              size: size,
                              lineHeight: lineHeight ?? .pixels((1.25 * size).rounded()),
                              color: color ?? .black,
                              alignment: alignment ?? .natural,
                              direction: direction ?? .auto,
                              lang: lang)
        return TextAppearance(style: style, shadow: shadow, highlightedColor: highlightedColor ?? .white)
    }
}

/// Named text styles, with `extends` chains resolved when the sheet is made (so unknown parents
/// and cycles are reported at load time, never when a style is used).
public struct Stylesheet: Sendable, Hashable {
    /// Family used when no style in the chain sets `font`.
    public static let defaultFamily = "DejaVu Sans"
    /// Size used when no style in the chain sets `size`.
    public static let defaultSize = 13.0

    /// Where an `extends` value was written, to locate errors found while resolving.
    struct Origin: Sendable, Hashable {
        var file: String, line: Int, column: Int, keyPath: String
    }

    /// The file the sheet was loaded from ("" for sheets made in Swift).
    public private(set) var file: String
    /// Style names in definition order.
    public private(set) var names: [String]
    /// Styles as written (unresolved), by name.
    public private(set) var definitions: [String: StyleDefinition]
    /// Styles with their `extends` chains applied, by name.
    public private(set) var styles: [String: StyleDefinition]
    /// Location of each style's `extends` value, when known.
    var origins: [String: Origin]

    /// What loading found that works but is probably not meant — each `font` naming a family
    /// that is not installed (`FontLibrary.missingFamilyWarning(_:)` of RowKitText), with file, line and
    /// column; the warnings of both sheets after ``merged(over:)``. Empty for sheets made in Swift.
    public internal(set) var warnings: [StyleWarning] = []

    /// A sheet without styles.
    public static let empty = Stylesheet(file: "", names: [], definitions: [:], styles: [:], origins: [:])

    private init(file: String, names: [String], definitions: [String: StyleDefinition],
                 styles: [String: StyleDefinition], origins: [String: Origin]) {
        self.file = file; self.names = names; self.definitions = definitions; self.styles = styles; self.origins = origins
    }

    /// A sheet from definitions made in Swift, resolving `extends`; throws for unknown parents and cycles.
    public init(styles: [(name: String, definition: StyleDefinition)], file: String = "") throws(StyleError) {
        var definitions: [String: StyleDefinition] = [:]
        var names: [String] = []
        for (name, definition) in styles {
            if definitions[name] == nil { names.append(name) }
            definitions[name] = definition
        }
        try self.init(file: file, names: names, definitions: definitions, origins: [:])
    }

    /// A sheet from ordered definitions with known `extends` locations; resolves every chain.
    /// With `allowingUnknownParents` (an overlay sheet), a style whose parent is not defined here
    /// keeps only its own fields until ``merged(over:)`` resolves it against the other sheet.
    init(file: String, names: [String], definitions: [String: StyleDefinition], origins: [String: Origin],
         allowingUnknownParents: Bool = false) throws(StyleError) {
        var resolved: [String: StyleDefinition] = [:]
        for name in names {
            try Self.resolve(name, definitions: definitions, origins: origins, file: file,
                             allowingUnknownParents: allowingUnknownParents, into: &resolved)
        }
        self.init(file: file, names: names, definitions: definitions, styles: resolved, origins: origins)
    }

    /// Resolves `name`'s chain into `resolved`. A loop, not recursion: a chain written child
    /// first (`s0: {extends: s1}`, `s1: {extends: s2}`, … 25,000 styles fit the YAML limits)
    /// recursed once per style and overflowed the stack (signal 11).
    private static func resolve(_ name: String, definitions: [String: StyleDefinition],
                                origins: [String: Origin], file: String, allowingUnknownParents: Bool,
                                into resolved: inout [String: StyleDefinition]) throws(StyleError) {
        guard resolved[name] == nil, definitions[name] != nil else { return }
        // Up the chain to a style that is resolved or inherits nothing; `chain` holds the
        // unresolved styles from `name` up, `position` their places (to find a cycle at once).
        var chain: [String] = []
        var position: [String: Int] = [:]
        var inherited: StyleDefinition?
        var current = name
        while let definition = definitions[current] {
            position[current] = chain.count
            chain.append(current)
            guard let parent = definition.extends else { break }
            let origin = origins[current] ?? Origin(file: file, line: 0, column: 0, keyPath: "styles.\(shortenedForMessage(current)).extends")
            if let start = position[parent] {
                // A long cycle is shown by its ends (a cycle of 3,000 styles was 23,000
                // characters, cut at 2,000 in the middle of a name).
                var members = (chain[start...] + [parent]).map { shortenedForMessage($0) }
                var count = ""
                if members.count > 12 {
                    count = " of \(members.count - 1) styles"
                    members = Array(members.prefix(5)) + ["… (\(members.count - 9) more)"] + Array(members.suffix(4))
                }
                throw StyleError(kind: .extendsCycle, file: origin.file, line: origin.line, column: origin.column,
                                 keyPath: origin.keyPath, message: "extends cycle\(count): \(members.joined(separator: " → "))")
            }
            if let done = resolved[parent] {
                inherited = done
                break
            }
            guard definitions[parent] != nil else {
                if allowingUnknownParents { break }
                throw StyleError(kind: .unknownStyle, file: origin.file, line: origin.line, column: origin.column,
                                 keyPath: origin.keyPath, message: "'\(shortenedForMessage(current))' extends unknown style '\(shortenedForMessage(parent))'",
                                 suggestion: didYouMean(parent, among: Array(definitions.keys).sorted()))
            }
            current = parent
        }
        // Down again, each style taking what it does not set from the one above it.
        for link in chain.reversed() {
            guard let definition = definitions[link] else { continue }
            let result = inherited.map { definition.inheriting(from: $0) } ?? definition
            resolved[link] = result
            inherited = result
        }
    }

    /// This sheet on top of `base`: styles of this sheet replace same-named styles of `base`, and
    /// every `extends` chain is resolved again across both (so overriding a parent restyles its children).
    public func merged(over base: Stylesheet) throws(StyleError) -> Stylesheet {
        var names = base.names
        var definitions = base.definitions
        var origins = base.origins
        for name in self.names {
            if definitions[name] == nil { names.append(name) }
            definitions[name] = self.definitions[name]
            origins[name] = self.origins[name]
        }
        var sheet = try Stylesheet(file: file, names: names, definitions: definitions, origins: origins)
        sheet.warnings = base.warnings + warnings.filter { !base.warnings.contains($0) }
        return sheet
    }

    /// The resolved style of this name; an `.unknownStyle` error (with a suggestion) if there is none.
    public func style(named name: String) throws(StyleError) -> StyleDefinition {
        guard let style = styles[name] else {
            throw StyleError(kind: .unknownStyle, file: file, line: 0, column: 0, keyPath: "styles",
                             message: "unknown style '\(shortenedForMessage(name))'", suggestion: didYouMean(name, among: names))
        }
        return style
    }

    /// The text appearance of the named style, defaults filled in.
    public func appearance(named name: String) throws(StyleError) -> TextAppearance {
        try style(named: name).appearance
    }

    /// The named style's padding, if it sets one.
    public func padding(named name: String) throws(StyleError) -> Insets? {
        try style(named: name).padding
    }

    /// The named style's frame (for `frames` layouts), if it sets one.
    public func frame(named name: String) throws(StyleError) -> StyleFrame? {
        try style(named: name).frame
    }

    /// The named style's line limit, if it sets one.
    public func maxLines(named name: String) throws(StyleError) -> Int? {
        try style(named: name).maxLines
    }
}
