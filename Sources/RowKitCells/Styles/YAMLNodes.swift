import Foundation
import RowKitIO
import RowKitText
import Yams

// Helpers shared by the stylesheet and template readers: typed access to Yams nodes that turns
// every mismatch into a `StyleError` naming file, line, column and key path.

/// A mapping node's entries, checked against the keys its context allows.
struct YAMLFields {
    /// The mapping node itself (its mark locates "missing key" errors).
    let node: Node
    /// Key path of the mapping, e.g. `styles.caption`.
    let path: String
    /// Entries in document order.
    let entries: [(key: String, keyNode: Node, value: Node)]

    subscript(key: String) -> Node? { entries.first { $0.key == key }?.value }

    func keyNode(_ key: String) -> Node? { entries.first { $0.key == key }?.keyNode }

    func path(_ key: String) -> String { YAMLReader.join(path, key) }
}

/// Reads typed values out of a composed YAML tree, reporting errors against one file.
struct YAMLReader {
    let file: String

    /// A key path for messages; the key is quoted short (a YAML key may be megabytes long).
    static func join(_ path: String, _ key: String) -> String {
        let key = shortenedForMessage(key)
        return path.isEmpty ? key : "\(path).\(key)"
    }

    // MARK: Errors

    func error(_ kind: StyleError.Kind, at node: Node?, _ path: String, _ message: String,
               suggestion: String? = nil) -> StyleError {
        StyleError(kind: kind, file: file, line: node?.mark?.line ?? 0, column: node?.mark?.column ?? 0,
                   keyPath: path, message: message, suggestion: suggestion)
    }

    /// A short description of a node for "expected X, got Y" messages.
    static func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            switch node.tagName {
            case .null: return "nothing"
            case .int, .float: return "number \(shortenedForMessage(scalar.string))"
            case .bool: return "boolean \(scalar.string)"
            default: return "string '\(shortenedForMessage(scalar.string))'"
            }
        }
    }


    // MARK: Parsing

    /// The character at a 1-based line and column of `text` (columns in Unicode scalars, as
    /// libyaml counts them), if there is one.
    static func character(in text: String, line: Int, column: Int) -> Unicode.Scalar? {
        guard line >= 1, column >= 1 else { return nil }
        var lines = text.unicodeScalars.split(separator: "\n", maxSplits: line, omittingEmptySubsequences: false).dropFirst(line - 1).makeIterator()
        guard let found = lines.next() else { return nil }
        let index = found.index(found.startIndex, offsetBy: column - 1, limitedBy: found.endIndex)
        guard let index, index < found.endIndex else { return nil }
        return found[index]
    }

    /// Composes `yaml` into a node tree with marks; Yams errors become `.malformedYAML`.
    func compose(_ yaml: String) throws(StyleError) -> Node? {
        try YAMLLimits.check(yaml, file: file)
        do {
            return try Yams.compose(yaml: yaml)
        } catch let yamlError as YamlError {
            throw malformed(yamlError, in: yaml)
        } catch {
            throw StyleError(kind: .malformedYAML, file: file, line: 0, column: 0, keyPath: "",
                             message: "malformed YAML: \(error)")
        }
    }

    private func malformed(_ yamlError: YamlError, in yaml: String) -> StyleError {
        func make(_ mark: Mark, _ problem: String, _ context: YamlError.Context?) -> StyleError {
            var message = "malformed YAML: \(problem)"
            if let context { message += " (\(context.text) at \(context.mark.line):\(context.mark.column))" }
            // libyaml says only "found character that cannot start any token" of a tab.
            if Self.character(in: yaml, line: mark.line, column: mark.column) == "\t" {
                message += ": a tab (YAML indents with spaces only)"
            }
            return StyleError(kind: .malformedYAML, file: file, line: mark.line, column: mark.column,
                              keyPath: "", message: message)
        }
        switch yamlError {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            return make(mark, problem, context)
        case let .reader(problem, offset, _, yaml):
            var line = 0, column = 0
            if let offset {
                let prefix = yaml.prefix(offset)
                line = prefix.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
                column = prefix.reversed().prefix { $0 != "\n" }.count + 1
            }
            return StyleError(kind: .malformedYAML, file: file, line: line, column: column, keyPath: "",
                              message: "malformed YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.sorted().map { "'\(shortenedForMessage($0))'" }.joined(separator: ", ")
            return StyleError(kind: .malformedYAML, file: file, line: context.mark.line, column: context.mark.column,
                              keyPath: "", message: "malformed YAML: duplicate key \(keys) in one mapping")
        default:
            return StyleError(kind: .malformedYAML, file: file, line: 0, column: 0, keyPath: "",
                              message: "malformed YAML: \(yamlError)")
        }
    }

    // MARK: Structure

    /// The entries of a mapping node; keys outside `allowed` are `.unknownKey` errors with a suggestion.
    func mapping(_ node: Node, _ path: String, allowed: [String]?, expected: String = "a mapping") throws(StyleError) -> YAMLFields {
        guard case .mapping(let mapping) = node else {
            throw error(.wrongType, at: node, path, "expected \(expected), got \(Self.describe(node))")
        }
        var entries: [(key: String, keyNode: Node, value: Node)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw error(.wrongType, at: keyNode, path, "keys must be plain names, got \(Self.describe(keyNode))")
            }
            let key = scalar.string
            if key == "<<" {
                // YAML 1.1 merge keys: Yams composes them as a plain key, so say what to use instead.
                throw error(.unknownKey, at: keyNode, Self.join(path, key),
                            "YAML merge keys ('<<') are not supported: write the keys out, or give styles a parent with 'extends'")
            }
            if let allowed, !allowed.contains(key) {
                throw error(.unknownKey, at: keyNode, Self.join(path, key), "unknown key '\(shortenedForMessage(key))'",
                            suggestion: didYouMean(key, among: allowed))
            }
            entries.append((key, keyNode, value))
        }
        return YAMLFields(node: node, path: path, entries: entries)
    }

    /// The value of a required key, or a `.missingKey` error located at the mapping.
    func required(_ fields: YAMLFields, _ key: String, what: String = "key") throws(StyleError) -> Node {
        guard let value = fields[key] else {
            throw error(.missingKey, at: fields.node, fields.path.isEmpty ? key : fields.path,
                        "missing required \(what) '\(key)'")
        }
        return value
    }

    /// The items of a sequence node.
    func sequence(_ node: Node, _ path: String, expected: String = "a list") throws(StyleError) -> [Node] {
        guard case .sequence(let sequence) = node else {
            throw error(.wrongType, at: node, path, "expected \(expected), got \(Self.describe(node))")
        }
        return Array(sequence)
    }

    // MARK: Scalars

    static func isNull(_ node: Node) -> Bool {
        if case .scalar = node, node.tagName == .null { return true }
        return false
    }

    /// A string scalar (numbers and booleans are taken as written; null is an error).
    func string(_ node: Node, _ path: String, expected: String = "a string") throws(StyleError) -> String {
        guard case .scalar(let scalar) = node, node.tagName != .null else {
            throw error(.wrongType, at: node, path, "expected \(expected), got \(Self.describe(node))")
        }
        return scalar.string
    }

    /// A finite number, at least `minimum` (and above it when `exclusive`).
    func number(_ node: Node, _ path: String, minimum: Double? = nil, exclusive: Bool = false,
                maximum: Double? = nil) throws(StyleError) -> Double {
        let value: Double?
        switch node.tagName {
        case .int: value = node.int.map(Double.init) ?? Self.integerBeyondYams(node)
        case .float: value = node.float
        default: value = nil
        }
        guard case .scalar(let scalar) = node, let value else {
            // CSS habits: `13px` is a string to YAML; say how to write it.
            var hint = ""
            if case .scalar(let scalar) = node, scalar.string.hasSuffix("px"), let number = Double(scalar.string.dropLast(2)), number.isFinite {
                hint = " (values are pixels without a unit: write \(scalar.string.dropLast(2)))"
            }
            throw error(.wrongType, at: node, path, "expected a number, got \(Self.describe(node))\(hint)")
        }
        // The number as written, quoted short: a 5,000-digit number was quoted whole, and the
        // message cut at 2,000 characters before it said what was wrong.
        let written = shortenedForMessage(scalar.string)
        guard value.isFinite else {
            // `.inf` and `.nan` are not finite; `1e400` and 400 nines are numbers too large for a
            // double ("1e400 is not a finite number", and the nines were "expected a number,
            // got number 999…").
            guard !value.isNaN, !Self.isWrittenInfinity(scalar.string) else {
                throw error(.outOfRange, at: node, path, "\(written) is not a finite number")
            }
            var bound = ""
            if value > 0, let maximum { bound = ": must be at most \(Self.format(maximum))" }
            if value < 0, let minimum { bound = ": must be \(exclusive ? "greater than" : "at least") \(Self.format(minimum))" }
            throw error(.outOfRange, at: node, path, "\(written) is out of range\(bound.isEmpty ? " (too large for a number)" : bound)")
        }
        if let problem = Self.yaml11NumberProblem(scalar, value: value) { throw error(.wrongType, at: node, path, problem) }
        if let minimum, exclusive ? value <= minimum : value < minimum {
            let bound = exclusive ? "greater than" : "at least"
            throw error(.outOfRange, at: node, path, "\(written) is out of range: must be \(bound) \(Self.format(minimum))")
        }
        if let maximum, value > maximum {
            throw error(.outOfRange, at: node, path, "\(written) is out of range: must be at most \(Self.format(maximum))")
        }
        return value
    }

    /// Whether a YAML float is written as an infinity (`.inf`, `-.Inf`, `+.INF`), not as a
    /// number too large for a double.
    static func isWrittenInfinity(_ text: String) -> Bool {
        var text = Substring(text)
        if text.first == "-" || text.first == "+" { text = text.dropFirst() }
        return [".inf", ".Inf", ".INF"].contains(text)
    }

    /// Why a plain number that YAML 1.1 reads unlike its look is refused: `013` is octal (11)
    /// and `1:30` base 60 (90), so `size: 013` drew 11 px text and `size: 1:30` 90 px, silently.
    /// Nil for every other number (`0o13` and `0x0d` say what they are).
    static func yaml11NumberProblem(_ scalar: Node.Scalar, value: Double) -> String? {
        guard scalar.style == .plain else { return nil }
        var text = Substring(scalar.string)
        let sign = text.first == "-" ? "-" : ""
        if text.first == "-" || text.first == "+" { text = text.dropFirst() }
        let shown = shortenedForMessage(Self.format(value))
        let written = shortenedForMessage(scalar.string)
        if text.count > 1, text.first == "0", text.allSatisfy({ ("0"..."7").contains($0) || $0 == "_" }) {
            let digits = text.filter { $0 != "_" }.drop { $0 == "0" }
            return "'\(written)' is an octal number in YAML (\(shown)): write it without the leading 0, or \(sign)0o\(shortenedForMessage(digits.isEmpty ? "0" : String(digits))) for octal"
        }
        if text.contains(":"), text.first?.isNumber == true {
            return "'\(written)' is a base-60 number in YAML (\(shown)): write \(shown), or quote it"
        }
        return nil
    }

    /// An integer scalar Yams resolves as `int` but cannot convert: a signed zero (`-0`, `+0`,
    /// read as an octal prefix) or more digits than `Int` holds. Without this, both were
    /// "expected a number, got number -0" — a wrong-type error for a number.
    static func integerBeyondYams(_ node: Node) -> Double? {
        guard case .scalar(let scalar) = node else { return nil }
        let digits = scalar.string.replacingOccurrences(of: "_", with: "")
        // Too many digits for a double is infinite: out of range, said by the caller.
        guard let value = Double(digits), value.isNaN == false, value == value.rounded() else { return nil }
        return value == 0 ? 0 : value // -0 is 0
    }

    /// The largest length a YAML file may give (insets, spacings, sizes, frames, offsets), in
    /// pixels: far above any real cell, far below where heights stop being exact (a list row
    /// holds at most `Int32.max / 64` px), so an absurd value is an error at its place in the
    /// file instead of a row silently cut to the list's maximum.
    static let maximumLength = 1_000_000.0

    /// A length in pixels: a finite number within ±``maximumLength`` (and at least `minimum`).
    func length(_ node: Node, _ path: String, minimum: Double? = nil) throws(StyleError) -> Double {
        try number(node, path, minimum: max(minimum ?? -Self.maximumLength, -Self.maximumLength), maximum: Self.maximumLength)
    }

    /// A whole number in `range`.
    func integer(_ node: Node, _ path: String, in range: ClosedRange<Int>) throws(StyleError) -> Int {
        var parsed: Int?
        // A whole number too large for Int is a whole number all the same: out of range, not of
        // the wrong type (`maxLines: 1e20` was "expected a whole number, got number 1e20").
        func clamped(_ whole: Double) -> Int { abs(whole) < 9e18 ? Int(whole) : whole < 0 ? Int.min : Int.max }
        switch node.tagName {
        case .int:
            parsed = node.int
            if parsed == nil, let whole = Self.integerBeyondYams(node) { parsed = clamped(whole) }
        case .float:
            // `1e400` is a whole number too large for Int (not `.inf`, which is no number).
            if let value = node.float, !value.isNaN, value == value.rounded(),
               case .scalar(let scalar) = node, !Self.isWrittenInfinity(scalar.string) { parsed = clamped(value) }
        default: break
        }
        guard case .scalar(let scalar) = node, let value = parsed else {
            throw error(.wrongType, at: node, path, "expected a whole number, got \(Self.describe(node))")
        }
        if let problem = Self.yaml11NumberProblem(scalar, value: Double(value)) { throw error(.wrongType, at: node, path, problem) }
        guard range.contains(value) else {
            let upper = range.upperBound == Int.max ? "" : " and at most \(range.upperBound)"
            throw error(.outOfRange, at: node, path, "\(shortenedForMessage(scalar.string)) is out of range: must be at least \(range.lowerBound)\(upper)")
        }
        return value
    }

    func bool(_ node: Node, _ path: String) throws(StyleError) -> Bool {
        guard node.tagName == .bool, let value = node.bool else {
            throw error(.wrongType, at: node, path, "expected true or false, got \(Self.describe(node))")
        }
        return value
    }

    /// One of `choices` (a string scalar), with a suggestion when it is close to one.
    func choice(_ node: Node, _ path: String, _ choices: [String], what: String) throws(StyleError) -> String {
        let text = try string(node, path, expected: what)
        guard choices.contains(text) else {
            throw error(.wrongType, at: node, path,
                        "unknown \(what) '\(shortenedForMessage(text))': expected \(choices.joined(separator: ", "))",
                        suggestion: didYouMean(text, among: choices))
        }
        return text
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    // MARK: Colors

    static let colorNames: [(String, Color)] = [
        ("black", .black), ("white", .white), ("clear", .clear),
        ("gray", Color(white: 0.5)), ("grey", Color(white: 0.5)),
        ("darkgray", Color(white: 1.0 / 3)), ("darkgrey", Color(white: 1.0 / 3)),
        ("lightgray", Color(white: 2.0 / 3)), ("lightgrey", Color(white: 2.0 / 3)),
        ("red", Color(red: 1, green: 0, blue: 0)), ("green", Color(red: 0, green: 1, blue: 0)),
        ("blue", Color(red: 0, green: 0, blue: 1)), ("cyan", Color(red: 0, green: 1, blue: 1)),
        ("yellow", Color(red: 1, green: 1, blue: 0)), ("magenta", Color(red: 1, green: 0, blue: 1)),
        ("orange", Color(red: 1, green: 0.5, blue: 0)), ("purple", Color(red: 0.5, green: 0, blue: 0.5)),
        ("brown", Color(red: 0.6, green: 0.4, blue: 0.2)),
    ]

    /// A color: a name, `#rgb`, `#rrggbb`, `#rrggbbaa`, `{white: w, alpha: a}` or `{red, green, blue, alpha}`.
    func color(_ node: Node, _ path: String) throws(StyleError) -> Color {
        switch node {
        case .scalar(let scalar) where node.tagName == .str || node.tagName == .nonSpecific || node.tagName == .implicit:
            let text = scalar.string.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("#") {
                // Hex digits only: Color(hex:) also takes a sign ("#+12345" was #012345).
                guard text.dropFirst().allSatisfy({ $0.isASCII && $0.isHexDigit }), let color = Color(hex: text) else {
                    throw error(.badColor, at: node, path, "bad color '\(shortenedForMessage(text))': expected #rgb, #rrggbb or #rrggbbaa hex digits")
                }
                return color
            }
            let key = text.lowercased().replacingOccurrences(of: " ", with: "")
            if let named = Self.colorNames.first(where: { $0.0 == key }) { return named.1 }
            throw error(.badColor, at: node, path, "unknown color '\(shortenedForMessage(text))'",
                        suggestion: didYouMean(key, among: Self.colorNames.map(\.0)))
        case .mapping:
            let fields = try mapping(node, path, allowed: ["white", "red", "green", "blue", "alpha"])
            func component(_ key: String) throws(StyleError) -> Double? {
                guard let value = fields[key] else { return nil }
                return try number(value, fields.path(key), minimum: 0, maximum: 1)
            }
            let alpha = try component("alpha") ?? 1
            if let white = try component("white") {
                for key in ["red", "green", "blue"] where fields[key] != nil {
                    throw error(.badColor, at: fields.keyNode(key), fields.path(key), "a color has either 'white' or 'red', 'green', 'blue'")
                }
                return Color(white: white, alpha: alpha)
            }
            guard let red = try component("red"), let green = try component("green"), let blue = try component("blue") else {
                throw error(.badColor, at: node, path, "bad color: a color mapping needs 'white' or all of 'red', 'green', 'blue'")
            }
            return Color(red: red, green: green, blue: blue, alpha: alpha)
        default:
            let hint = Self.isNull(node) ? " (quote hex colors: \"#rrggbb\"; an unquoted # starts a comment)" : ""
            throw error(.badColor, at: node, path,
                        "bad color: expected a name, \"#rrggbb\" or {white: 0.5}, got \(Self.describe(node))\(hint)")
        }
    }

    // MARK: Geometry

    /// Insets: a number for every side, or `{top, left, bottom, right}` / `{horizontal, vertical}` / `{all}`.
    /// `extraKeys` are allowed in the mapping form (and ignored here).
    func insets(_ node: Node, _ path: String, extraKeys: [String] = []) throws(StyleError) -> Insets {
        if case .scalar = node {
            return Insets(try length(node, path, minimum: 0))
        }
        let fields = try mapping(node, path, allowed: ["all", "horizontal", "vertical", "top", "left", "bottom", "right"] + extraKeys,
                                 expected: "a number or {top, left, bottom, right}")
        func side(_ key: String) throws(StyleError) -> Double? {
            guard let value = fields[key] else { return nil }
            return try length(value, fields.path(key), minimum: 0)
        }
        var insets = Insets(try side("all") ?? 0)
        if let horizontal = try side("horizontal") { insets.left = horizontal; insets.right = horizontal }
        if let vertical = try side("vertical") { insets.top = vertical; insets.bottom = vertical }
        if let top = try side("top") { insets.top = top }
        if let left = try side("left") { insets.left = left }
        if let bottom = try side("bottom") { insets.bottom = bottom }
        if let right = try side("right") { insets.right = right }
        return insets
    }

    /// A frame height: a number, or `auto` / null for "the child's measured height".
    func frameHeight(_ node: Node, _ path: String) throws(StyleError) -> Double? {
        if Self.isNull(node) { return nil }
        if case .scalar(let scalar) = node, node.tagName == .str, scalar.string == "auto" { return nil }
        if case .scalar = node, node.tagName != .int, node.tagName != .float {
            throw error(.wrongType, at: node, path, "expected a number or 'auto', got \(Self.describe(node))")
        }
        return try length(node, path, minimum: 0)
    }

    /// A frame: `[x, y, width, height|auto]` or `{x, y, width, height}`.
    func frame(_ node: Node, _ path: String) throws(StyleError) -> StyleFrame {
        if case .sequence = node {
            let items = try sequence(node, path)
            guard items.count == 4 else {
                throw error(.wrongType, at: node, path, "expected [x, y, width, height], got \(items.count) numbers")
            }
            return StyleFrame(x: try length(items[0], "\(path)[0]"), y: try length(items[1], "\(path)[1]"),
                              width: try length(items[2], "\(path)[2]", minimum: 0),
                              height: try frameHeight(items[3], "\(path)[3]"))
        }
        let fields = try mapping(node, path, allowed: ["x", "y", "width", "height"], expected: "[x, y, width, height] or {x, y, width, height}")
        let x = try length(try required(fields, "x"), fields.path("x"))
        let y = try length(try required(fields, "y"), fields.path("y"))
        let width = try length(try required(fields, "width"), fields.path("width"), minimum: 0)
        let height = try fields["height"].map { (value: Node) throws(StyleError) -> Double? in try frameHeight(value, fields.path("height")) } ?? nil
        return StyleFrame(x: x, y: y, width: width, height: height)
    }
}

// MARK: Suggestions

/// The candidate closest to `name` (Levenshtein distance ≤ 2, case-insensitive, or a prefix
/// either way), for "did you mean" hints; nil when none is close.
public func didYouMean(_ name: String, among candidates: [String]) -> String? {
    let lowered = name.lowercased()
    guard !lowered.isEmpty else { return nil }
    // Rank: one edit, then a prefix, then two edits; the first of equals wins.
    var best: (candidate: String, score: Double)?
    for candidate in candidates where candidate != name {
        let other = candidate.lowercased()
        let distance = levenshtein(lowered, other)
        let isPrefix = lowered.count >= 2 && (other.hasPrefix(lowered) || lowered.hasPrefix(other))
        let score: Double
        if distance <= 1 { score = Double(distance) } else if isPrefix { score = 1.5 } else if distance == 2 { score = 2 } else { continue }
        if best == nil || score < best!.score { best = (candidate, score) }
    }
    return best?.candidate
}

/// Edit distance between two strings, by characters.
func levenshtein(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

extension Node {
    /// The resolved tag's name (`Tag.name` is internal to Yams).
    var tagName: Tag.Name { Tag.Name(rawValue: tag.rawValue) }
}
