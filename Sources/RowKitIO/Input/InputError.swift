/// A place in a text input: 1-based line and column (columns count Unicode scalars).
public struct TextPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based line; 0 when unknown.
    public var line: Int
    /// 1-based column in Unicode scalars; 0 when unknown.
    public var column: Int

    /// A position; `line` and `column` are 1-based (0 when unknown).
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of a text.
    public static let start = TextPosition(line: 1, column: 1)

    /// Whether `a` comes before `b` in the text (line first, then column).
    public static func < (a: TextPosition, b: TextPosition) -> Bool { (a.line, a.column) < (b.line, b.column) }

    /// `line:column`, or `line` when the column is unknown, or "" when both are.
    public var description: String {
        if line <= 0 { return "" }
        return column > 0 ? "\(line):\(column)" : "\(line)"
    }
}

/// A problem with an input: a file that cannot be read, a limit exceeded, malformed text.
///
/// The description reads like a compiler diagnostic: `rows.jsonl:7:12: unexpected '}'`.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Kind: String, Sendable, Hashable {
        /// The input cannot be opened or read (missing, a directory, permission, I/O error).
        case unreadable
        /// The input, or one record of it, is over a documented limit.
        case limitExceeded
        /// The text is malformed (bad JSON, bad UTF-8, a bad record).
        case malformed
    }

    /// What kind of problem this is.
    public var kind: Kind
    /// The input as named to the user: the path as given, or `stdin`.
    public var source: String
    /// Where in the input, when known.
    public var position: TextPosition?
    /// What is wrong.
    public var message: String
    /// The `errno` value, when a system call failed.
    public var code: Int32?

    /// An error in `source` (at `position`, when known).
    public init(_ kind: Kind = .malformed, source: String, position: TextPosition? = nil, message: String, code: Int32? = nil) {
        self.kind = kind
        self.code = code
        self.source = source
        self.position = position
        self.message = message
    }

    /// `source:line:column: message`.
    public var description: String {
        if let position, position.line > 0 { return "\(source):\(position): \(message)" }
        return "\(source): \(message)"
    }
}

/// The size limits on inputs. Inputs over a limit are refused with an ``InputError`` naming
/// the limit, before the memory is spent.
public enum InputLimits {
    /// One record of a streamed input (a JSON Lines line, one element of a JSON array): 16 MiB.
    /// Streamed inputs (`measure`, `heights`) have no limit on their total size; memory stays
    /// bounded by this and the number of records handled at once.
    public static let recordBytes = 16 << 20
    /// Inputs held in memory whole (the rows of `render`, the texts of `draw`): 256 MiB.
    public static let wholeInputBytes = 256 << 20
    /// Rows and section titles held in memory whole (`render`, `view`): 2,000,000. The byte
    /// limit alone let 256 MiB of `{},` hold 85 million rows (about 350 bytes each: tens of GB;
    /// 6 million empty rows from an 18 MB file ran out of 1.5 GB and trapped).
    public static let wholeInputRows = 2_000_000
    /// Bad rows of a file read whole that are kept and reported: 1,000 (then reading stops). A
    /// file of bad rows kept every error (a message each) without bound.
    public static let reportedErrors = 1_000
    /// YAML templates and stylesheets: 8 MiB.
    public static let yamlBytes = 8 << 20
    /// Image files: 64 MiB (decoded pixels have their own limit in RowKitDraw).
    public static let imageBytes = 64 << 20
    /// Font files named by path: 256 MiB.
    public static let fontBytes = 256 << 20
    /// Nesting of JSON arrays and objects: 512 levels.
    public static let jsonDepth = 512
}
