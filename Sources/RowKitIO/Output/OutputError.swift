/// A write that failed: which output, and the operating system's reason.
///
/// `cannot write 'out.png': No space left on device`.
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The output as named to the user: the path, `standard output` or `standard error`.
    public var target: String
    /// What was being done ("write", "create", "rename", …) and why it failed.
    public var message: String
    /// The `errno` value, when the failure came from a system call.
    public var code: Int32?

    /// An error writing `target`.
    public init(target: String, message: String, code: Int32? = nil) {
        self.target = target
        self.message = message
        self.code = code
    }

    /// An error from a failed system call, with the C library's text for `code`.
    public init(target: String, doing action: String, code: Int32) {
        self.init(target: target, message: "\(action): \(systemErrorText(code))", code: code)
    }

    /// Whether the reader of a pipe went away (EPIPE): not worth a message.
    public var isBrokenPipe: Bool {
        code == 32 // EPIPE on Linux and macOS
    }

    /// "target: message", e.g. "out.png: No space left on device".
    public var description: String { "\(target): \(message)" }
}
