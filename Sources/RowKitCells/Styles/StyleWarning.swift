/// Something in a stylesheet or template file that works but is probably not what was meant —
/// a font family that is not installed — with where it was written.
public struct StyleWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file (as given to the loader).
    public var file: String
    /// 1-based line and column of the value, or 0 when unknown.
    public var line: Int, column: Int
    /// Dotted path of the key, e.g. `styles.title.font`.
    public var keyPath: String
    /// What is wrong and what is used instead.
    public var message: String

    /// Makes a warning; `line` and `column` are 1-based (0 when unknown).
    public init(file: String, line: Int, column: Int, keyPath: String, message: String) {
        self.file = file; self.line = line; self.column = column; self.keyPath = keyPath; self.message = message
    }

    /// `file:line:column: key.path: message`, as ``StyleError`` is written.
    public var description: String {
        var text = file
        if line > 0 { text += ":\(line):\(column)" }
        text += ": "
        if !keyPath.isEmpty { text += "\(keyPath): " }
        return text + message
    }
}
