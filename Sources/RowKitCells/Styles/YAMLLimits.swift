// The one place RowKitCells calls C: libyaml's event parser (the copy Yams builds), for a pass
// that bounds a document's size after alias expansion before Yams composes it.
import CYaml
import RowKitIO

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
    /// `.limitExceeded` error at the node that crosses a limit. A syntax error stops the count
    /// quietly: composing the document reports it with Yams's own message.
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
            var open: [(anchor: String?, size: Int)] = []
            var total = 0
            func fail(_ event: yaml_event_t, _ message: String) {
                failure = StyleError(kind: .limitExceeded, file: file, line: Int(event.start_mark.line) + 1,
                                     column: Int(event.start_mark.column) + 1, keyPath: "", message: message)
            }
            func add(_ size: Int) {
                total += size
                if !open.isEmpty { open[open.count - 1].size += size }
            }
            func anchor(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
                pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            }
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
                    if let name = anchor(event.data.scalar.anchor) { anchors[name] = 1 }
                case YAML_ALIAS_EVENT:
                    add(anchor(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1)
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    total += 1
                    let name = event.type == YAML_SEQUENCE_START_EVENT ? anchor(event.data.sequence_start.anchor)
                        : anchor(event.data.mapping_start.anchor)
                    open.append((name, 1))
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
                    fail(event, "more than \(maximumNodes) nodes once aliases are expanded (the limit for YAML files; "
                         + "is an alias repeated inside another?)")
                }
            }
        }
        if let failure { throw failure }
    }
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
