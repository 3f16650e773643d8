// The one place RowKitCells calls C: libyaml's event parser (the copy Yams builds), for a pass
// that bounds a document's size after alias expansion before Yams composes it.
import CYaml
import RowKitIO
import Yams

/// Limits on YAML templates and stylesheets, checked before the document is composed, so a
/// small hostile file (an alias chain that expands to a billion nodes, ten thousand nested
/// lists) fails fast with a clear error instead of exhausting memory, time or the stack.
public enum YAMLLimits {
    /// Nodes (scalars, lists, mappings; keys count) after every alias is expanded: 100,000.
    /// Real templates have a few hundred.
    public static let maximumNodes = 100_000
    /// Lists and mappings nested inside each other: 256 levels.
    public static let maximumDepth = 256
    /// File size: 8 MiB (`InputLimits.yamlBytes` in RowKitIO).
    public static let maximumBytes = InputLimits.yamlBytes

    /// Counts the nodes of `yaml` with aliases expanded and its nesting depth; throws a
    /// `.limitExceeded` error at the node that crosses a limit. Also finds a mapping key written
    /// twice (by its text, as the readers compare keys) and reports it where it is repeated,
    /// with its key path and the first place (Yams reports the first place only, without a path,
    /// and takes `1` and `"1"` as different keys), and an explicit tag the readers cannot honour
    /// (`tagProblem(_:on:)`; Yams keeps no record of which tags were written). A syntax error stops the pass quietly:
    /// composing the document reports it with Yams's own message.
    static func check(_ yaml: String, file: String) throws(StyleError) {
        var bytes = Array(yaml.utf8)
        if bytes.count > maximumBytes {
            throw StyleError(kind: .limitExceeded, file: file, line: 0, column: 0, keyPath: "",
                             message: "larger than the \(byteCountText(maximumBytes)) limit for YAML files")
        }
        bytes.append(0)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        var failure: StyleError?
        bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count - 1)
            // Expanded size of each finished anchored node, and of each open collection.
            var anchors: [String: Int] = [:]
            // The text of each anchored scalar (an alias may be a key).
            var anchoredScalars: [String: String] = [:]
            var open: [OpenCollection] = []
            var total = 0
            func fail(_ event: yaml_event_t, _ message: String) {
                failure = StyleError(kind: .limitExceeded, file: file, line: Int(event.start_mark.line) + 1,
                                     column: Int(event.start_mark.column) + 1, keyPath: "", message: message)
            }
            func failTag(_ event: yaml_event_t, _ path: String, _ message: String) {
                failure = StyleError(kind: .wrongType, file: file, line: Int(event.start_mark.line) + 1,
                                     column: Int(event.start_mark.column) + 1, keyPath: path, message: message)
            }
            func add(_ size: Int) {
                total += size
                if !open.isEmpty { open[open.count - 1].size += size }
            }
            func anchor(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
                pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            }
            /// A node starts inside the innermost open collection: as a mapping's key (`keyText`
            /// is its text when it is a scalar) or value, or a list's item. Returns the node's key path.
            func start(_ event: yaml_event_t, keyText: String?) -> String {
                guard !open.isEmpty else { return "" }
                let line = Int(event.start_mark.line) + 1, column = Int(event.start_mark.column) + 1
                var parent = open.removeLast()
                defer { open.append(parent) }
                guard parent.isMapping else {
                    parent.items += 1
                    return "\(parent.path)[\(parent.items - 1)]"
                }
                let isKey = parent.nextIsKey
                parent.nextIsKey.toggle()
                if isKey {
                    // A key: remembered by its text.
                    parent.key = keyText ?? "?"
                    guard let keyText else { return parent.path }
                    if let first = parent.keys[keyText] {
                        failure = StyleError(kind: .malformedYAML, file: file, line: line, column: column,
                                             keyPath: YAMLReader.join(parent.path, keyText),
                                             message: "duplicate key '\(shortenedForMessage(keyText))' (first at \(first.line):\(first.column))")
                    } else {
                        parent.keys[keyText] = (line, column)
                    }
                    return parent.path
                }
                return YAMLReader.join(parent.path, parent.key)
            }
            var sawAlias = false
            while failure == nil {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    // libyaml's own nesting limit (1,000) can stop it before ours is reached.
                    if let problem = parser.problem, String(cString: problem).contains("nesting level") {
                        failure = StyleError(kind: .limitExceeded, file: file, line: Int(parser.problem_mark.line) + 1,
                                             column: Int(parser.problem_mark.column) + 1, keyPath: "",
                                             message: "lists and mappings nested deeper than \(maximumDepth) levels (the limit for YAML files)")
                    }
                    return
                }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return
                case YAML_SCALAR_EVENT:
                    add(1)
                    let scalar = event.data.scalar
                    let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
                    let path = start(event, keyText: text)
                    if let name = anchor(scalar.anchor) { anchors[name] = 1; anchoredScalars[name] = text }
                    if let tag = anchor(scalar.tag), let problem = tagProblem(tag, on: .scalar(text)) {
                        failTag(event, path, problem)
                    }
                case YAML_ALIAS_EVENT:
                    sawAlias = true
                    let name = anchor(event.data.alias.anchor)
                    _ = start(event, keyText: name.flatMap { anchoredScalars[$0] })
                    add(name.flatMap { anchors[$0] } ?? 1)
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    total += 1
                    let isMapping = event.type == YAML_MAPPING_START_EVENT
                    let name = isMapping ? anchor(event.data.mapping_start.anchor) : anchor(event.data.sequence_start.anchor)
                    let path = start(event, keyText: nil)
                    open.append(OpenCollection(anchor: name, size: 1, isMapping: isMapping, path: path))
                    let tag = isMapping ? anchor(event.data.mapping_start.tag) : anchor(event.data.sequence_start.tag)
                    if let tag, let problem = tagProblem(tag, on: isMapping ? .mapping : .sequence) {
                        failTag(event, path, problem)
                    }
                    if open.count > maximumDepth {
                        fail(event, "lists and mappings nested deeper than \(maximumDepth) levels (the limit for YAML files)")
                    }
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let finished = open.popLast() else { break }
                    if !open.isEmpty { open[open.count - 1].size += finished.size }
                    if let name = finished.anchor { anchors[name] = finished.size }
                default:
                    break
                }
                if total > maximumNodes && failure == nil {
                    // The alias hint only where there are aliases: a long file without any was
                    // asked "is an alias repeated inside another?".
                    fail(event, sawAlias
                         ? "more than \(maximumNodes) nodes once aliases are expanded (the limit for YAML files; is an alias repeated inside another?)"
                         : "more than \(maximumNodes) nodes (the limit for YAML files)")
                }
            }
        }
        if let failure { throw failure }
    }

    /// What a node written with an explicit tag is, for `tagProblem(_:on:)`.
    enum TaggedNode {
        case scalar(String), sequence, mapping
    }

    /// Why an explicit YAML tag cannot be used, or nil when it can. The readers take plain
    /// values, so only the core schema's tags that agree with the node are accepted (`!!str`
    /// on any scalar, `!!int 5`, `!!float 1`, `!!bool true`, `!!null ~`, `!!seq` on a list,
    /// `!!map` on a mapping, and `!`). Before, every other tag was dropped silently:
    /// `layout: !custom {…}` loaded, `name: !!binary aGk=` named the template "aGk=", and
    /// `inset: !!int abc` said "expected a number, got number abc".
    static func tagProblem(_ tag: String, on node: TaggedNode) -> String? {
        if tag == "!" { return nil }
        let core = "tag:yaml.org,2002:"
        let name = tag.hasPrefix(core) ? String(tag.dropFirst(core.count)) : nil
        let written = shortenedForMessage(name.map { "!!" + $0 } ?? tag)
        switch (node, name) {
        case (.sequence, "seq"), (.mapping, "map"), (.scalar, "str"):
            return nil
        case (.scalar(let text), "int"), (.scalar(let text), "float"), (.scalar(let text), "bool"), (.scalar(let text), "null"):
            let resolved = Resolver.default.resolveTag(of: Node(text)).rawValue
            let fits = resolved == tag || (name == "float" && resolved == core + "int")
            return fits ? nil : "'\(shortenedForMessage(text))' is not a valid \(written) value"
        case (_, "seq"), (_, "map"), (_, "str"), (_, "int"), (_, "float"), (_, "bool"), (_, "null"):
            let what = switch node { case .scalar: "a single value"; case .sequence: "a list"; case .mapping: "a mapping" }
            return "the tag '\(written)' does not fit \(what)"
        default:
            return "the tag '\(written)' is not supported: templates and stylesheets take plain strings, numbers, "
                + "booleans, lists and mappings (remove the tag)"
        }
    }

    /// A list or mapping whose end event has not come yet, during `check`.
    private struct OpenCollection {
        var anchor: String?
        /// Nodes inside it so far, aliases expanded, itself included.
        var size: Int
        var isMapping: Bool
        /// Its key path (`styles.caption`, `layout.vstack.children[1]`).
        var path: String
        /// A mapping's next node is a key (toggled at each node that starts in it).
        var nextIsKey = true
        /// A mapping's latest key, for its value's path.
        var key = ""
        /// A mapping's keys so far with their 1-based line and column.
        var keys: [String: (line: Int, column: Int)] = [:]
        /// A list's items so far.
        var items = 0
    }
}

/// The name errors give a YAML file read from `path`: `stdin` for standard input (`-`), as
/// every other input names it (a stylesheet read from it was reported as "-:1:2: …").
func yamlFileName(_ path: String) -> String {
    path == InputFile.standardInputPath ? "stdin" : path
}

/// Reads a YAML template or stylesheet through RowKit's one input path: a missing file, a
/// directory, a device, a file over the size limit or text that is not UTF-8 is an
/// `.unreadableFile` or `.limitExceeded` error naming the path (and line and column for bad UTF-8).
func readYAMLFile(_ path: String, what: String) throws(StyleError) -> String {
    do throws(InputError) {
        return try InputFile(path, what: what).readText(limit: YAMLLimits.maximumBytes, what: what)
    } catch {
        throw StyleError(kind: error.kind == .limitExceeded ? .limitExceeded : .unreadableFile, file: path,
                         line: error.position?.line ?? 0, column: error.position?.column ?? 0, keyPath: "",
                         message: error.message)
    }
}
