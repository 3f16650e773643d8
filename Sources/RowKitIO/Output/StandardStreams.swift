#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The process's standard streams, made safe to use when closed, full or broken.
///
/// Call ``reserve()`` first thing in `main`: a closed descriptor 0, 1 or 2 is opened on
/// `/dev/null` in the wrong direction (standard input write-only, standard output and error
/// read-only). Files opened later can then never land on those numbers (a PDF on descriptor 1
/// would receive the program's output), and using the stream fails with EBADF exactly as the
/// closed one would — reported, never taken for empty input or a silent success.
public enum StandardStreams {
    private static let closedAtStart = Mutex<[Bool]>([false, false, false])

    /// Reserves closed standard descriptors (see the type's description), ignores SIGPIPE (a
    /// broken pipe is then an EPIPE write error) and checks, at exit,
    /// that C's `stdout` buffer (used by the argument parser's help) was written: if not, the
    /// reason goes to standard error and the exit status becomes 1.
    public static func reserve() {
        // A reader that went away must be an EPIPE error (ended quietly, status 1, temporary
        // files removed), not a SIGPIPE that kills the program mid-write.
        signal(SIGPIPE, SIG_IGN)
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let flags = fd == 0 ? O_WRONLY : O_RDONLY
            let opened = open("/dev/null", flags)
            if opened >= 0 && opened != fd {
                dup2(opened, fd)
                close(opened)
            }
            closedAtStart.withLock { $0[Int(fd)] = true }
        }
        atexit {
            if fflush(nil) != 0 {
                let code = errno
                if code != 32 { // EPIPE: the reader went away, nothing to say
                    Diagnostics.error("standard output: write error: \(systemErrorText(code))")
                }
                _exit(1)
            }
            if Diagnostics.standardErrorFailed { _exit(1) }
        }
    }

    /// Whether descriptor `fd` (0, 1 or 2) was closed when the program started.
    public static func wasClosed(_ fd: Int32) -> Bool {
        guard (0...2).contains(fd) else { return false }
        return closedAtStart.withLock { $0[Int(fd)] }
    }
}

/// Writes all of `bytes` to `fd`, retrying partial writes and EINTR; returns errno on failure.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard var pointer = bytes.baseAddress else { return nil }
    var remaining = bytes.count
    while remaining > 0 {
        #if canImport(Glibc)
        let n = Glibc.write(fd, pointer, remaining)
        #else
        let n = Darwin.write(fd, pointer, remaining)
        #endif
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        if n == 0 { return EIO }
        remaining -= n
        pointer += n
    }
    return nil
}

/// A buffered writer of text to standard output (or another descriptor), that reports write
/// errors instead of trapping. Holds at most `capacity` bytes before writing them.
///
/// Not thread-safe: write from one thread.
public final class OutputWriter {
    /// The descriptor written to.
    public let descriptor: Int32
    /// The name in messages, e.g. `standard output`.
    public let name: String
    /// Bytes buffered before a write.
    public let capacity: Int
    private var buffer: [UInt8] = []

    /// A writer to `descriptor` (standard output by default).
    public init(descriptor: Int32 = 1, name: String = "standard output", capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.name = name
        self.capacity = max(1, capacity)
        buffer.reserveCapacity(self.capacity)
    }

    /// Appends `text`; writes the buffer out when it is full.
    public func write(_ text: String) throws(OutputError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try flush() }
    }

    /// Appends `line` and a line break.
    public func writeLine(_ line: String) throws(OutputError) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= capacity { try flush() }
    }

    /// Appends `bytes` (UTF-8 text, a line built without a `String`) and a line break.
    public func writeLine(bytes: [UInt8]) throws(OutputError) {
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        if buffer.count >= capacity { try flush() }
    }

    /// Appends `bytes` (UTF-8 text, a line built in place) and a line break.
    public func writeLine(bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        if buffer.count >= capacity { try flush() }
    }

    /// Writes out everything buffered.
    public func flush() throws(OutputError) {
        guard !buffer.isEmpty else { return }
        let failure = buffer.withUnsafeBytes { writeAll(descriptor, $0) }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw OutputError(target: name, doing: "write error", code: failure) }
    }
}

/// `text` as a message quotes a value read from an input (a key, a name, an id): on one line
/// and at most `limit` characters, then `…`. A hostile input's 16 MiB key or a text file's whole
/// content would otherwise be the message. Control characters and bidi controls are written as
/// escapes (`\u{1B}`), so an input's escape sequences never reach the terminal (a key could
/// clear the screen, retitle the window or reorder the line) and a NUL never ends the message.
public func shortenedForMessage(_ text: String, limit: Int = 60) -> String {
    var result = ""
    var count = 0
    for character in text {
        if count == limit { return result + "…" }
        if character == "\n" || character == "\r\n" {
            result += "\\n"
        } else if character == "\t" {
            result += "\\t"
        } else if character.unicodeScalars.contains(where: isEscapedInMessages) {
            for scalar in character.unicodeScalars {
                result += isEscapedInMessages(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
            }
        } else {
            result.append(character)
        }
        count += 1
    }
    return result
}

/// The longest message written, in characters; a longer one is cut (with how much was left out).
let maximumMessageCharacters = 2_000

/// `message` with every control character but the line break (and every bidi control) written
/// as an escape, and cut at `maximumMessageCharacters`: the last guard for names a message
/// quotes whole (a file name, a YAML key path, a font family a library names).
func escapingControls(_ message: String) -> String {
    var message = message
    if message.utf8.count > maximumMessageCharacters, message.count > maximumMessageCharacters {
        let cut = message.prefix(maximumMessageCharacters)
        message = cut + "… (\(message.count - cut.count) more characters)"
    }
    guard message.unicodeScalars.contains(where: { $0 != "\n" && isEscapedInMessages($0) }) else { return message }
    var result = ""
    for scalar in message.unicodeScalars {
        if scalar != "\n" && isEscapedInMessages(scalar) {
            result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}

/// C0 and C1 controls and DEL (terminal escape sequences start with them), and the bidi
/// formatting controls that reorder how the rest of a line is shown.
private func isEscapedInMessages(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
}

/// Messages for the user on standard error: `rowkit heights: rows.jsonl:7: …`.
///
/// Each message is one `write` (so lines from several threads never interleave). A message
/// that cannot be written (standard error closed or full) is dropped and remembered, and the
/// program then exits with status 1 (see ``StandardStreams/reserve()``).
public enum Diagnostics {
    private struct State {
        var program = "rowkit"
        var failed = false
        var progressLineShown = false
    }
    private static let state = Mutex(State())

    /// The prefix of every message, e.g. `rowkit heights`.
    public static var programName: String {
        get { state.withLock { $0.program } }
        set { state.withLock { $0.program = newValue } }
    }

    /// Whether a message could not be written.
    public static var standardErrorFailed: Bool { state.withLock { $0.failed } }

    /// `program: message`.
    public static func error(_ message: String) { emit("\(programName): \(escapingControls(message))\n") }

    /// `program: warning: message`.
    public static func warning(_ message: String) { emit("\(programName): warning: \(escapingControls(message))\n") }

    /// A message as is (a line break is added), but for its control characters.
    public static func note(_ message: String) { emit(escapingControls(message) + "\n") }

    /// Writes `text` to standard error as one write; remembers a failure.
    public static func emit(_ text: String) {
        state.withLock { state in
            var bytes = Array(text.utf8)
            // A progress bar may be on the terminal's last line: clear it first.
            if state.progressLineShown {
                bytes.insert(contentsOf: Array("\r\u{1B}[K".utf8), at: 0)
                state.progressLineShown = false
            }
            if bytes.withUnsafeBytes({ writeAll(2, $0) }) != nil { state.failed = true }
        }
    }

    /// Draws a progress line (no line break) on standard error; the next message clears it.
    public static func progress(_ line: String) {
        state.withLock { state in
            let bytes = Array("\r\u{1B}[K\(line)".utf8)
            if bytes.withUnsafeBytes({ writeAll(2, $0) }) != nil { state.failed = true }
            state.progressLineShown = true
        }
    }

    /// Clears a progress line, if one is shown.
    public static func clearProgress() {
        state.withLock { state in
            guard state.progressLineShown else { return }
            let bytes = Array("\r\u{1B}[K".utf8)
            if bytes.withUnsafeBytes({ writeAll(2, $0) }) != nil { state.failed = true }
            state.progressLineShown = false
        }
    }
}
