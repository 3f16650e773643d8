#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input opened for reading: a file by path, or standard input for `-`.
///
/// This is the one way RowKit's command reads anything. Opening checks what the path is:
/// a directory is refused with a clear error (reading one would fail later with EISDIR), and
/// files, pipes, terminals and character devices are read as byte streams. Every failure is an
/// ``InputError`` with the operating system's reason. A closed standard input (`<&-`) reads as
/// an error ("Bad file descriptor"), never as empty input, once ``StandardStreams/reserve()``
/// has run.
///
/// Not thread-safe: read from one thread at a time.
public final class InputFile {
    /// The name `-` stands for standard input.
    public static let standardInputPath = "-"

    /// The path as given (`-` for standard input).
    public let path: String
    /// The name used in messages: the path, or `stdin`.
    public let name: String
    /// The size of a regular file when opened (nil for pipes, terminals and devices).
    public let byteCount: Int?
    /// Bytes read so far.
    public private(set) var bytesRead = 0
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens `path` (or standard input for `-`); `what` names the input in errors ("data file").
    public init(_ path: String, what: String = "input") throws(InputError) {
        self.path = path
        if path == Self.standardInputPath {
            if StandardStreams.wasClosed(0) {
                throw InputError(.unreadable, source: "stdin", message: "cannot read \(what): standard input is closed", code: EBADF)
            }
            name = "stdin"
            descriptor = 0
            ownsDescriptor = false
        } else {
            name = path
            guard !path.isEmpty else { throw InputError(.unreadable, source: "''", message: "cannot open \(what): the path is empty") }
            guard !path.utf8.contains(0) else { throw InputError(.unreadable, source: path, message: "cannot open \(what): the path contains a NUL character") }
            var fd: Int32
            repeat { fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) } while fd < 0 && errno == EINTR
            guard fd >= 0 else {
                let code = errno
                throw InputError(.unreadable, source: path, message: "cannot open \(what): \(systemErrorText(code))", code: code)
            }
            descriptor = fd
            ownsDescriptor = true
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = systemErrorText(errno)
            if ownsDescriptor { close(descriptor) }
            throw InputError(.unreadable, source: name, message: "cannot read \(what): \(reason)")
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR {
            if ownsDescriptor { close(descriptor) }
            throw InputError(.unreadable, source: name, message: "cannot read \(what): it is a directory")
        }
        byteCount = type == S_IFREG ? Int(info.st_size) : nil
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input. Retries on EINTR.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(descriptor, base, buffer.count)
            #else
            let n = Darwin.read(descriptor, base, buffer.count)
            #endif
            if n >= 0 {
                bytesRead += n
                return n
            }
            let code = errno
            if code == EINTR { continue }
            throw InputError(.unreadable, source: name, message: "read error: \(systemErrorText(code))", code: code)
        }
    }

    /// Whether a read would return at once: bytes (or the end, or an error) are ready on the
    /// descriptor. Always true for regular files.
    public var hasBytesReady: Bool {
        if byteCount != nil { return true }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) != 0 // ready, hung up, or an error a read will report
    }

    /// The whole input, refused when larger than `limit` bytes (checked before reading for
    /// regular files, while reading for streams). A leading UTF-8 byte order mark is dropped.
    public func readAll(limit: Int, what: String = "input") throws(InputError) -> [UInt8] {
        if let byteCount, byteCount > limit { throw tooLarge(limit, what) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(limit, byteCount.map { $0 + 1 } ?? 1 << 16))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { raw in Result { () throws(InputError) in try read(into: raw) } }.get()
            if n == 0 { break }
            guard bytes.count + n <= limit else { throw tooLarge(limit, what) }
            bytes.append(contentsOf: chunk[0..<n])
        }
        if bytes.starts(with: Self.byteOrderMark) { bytes.removeFirst(3) }
        return bytes
    }

    /// The whole input as UTF-8 text (see ``readAll(limit:what:)``); invalid UTF-8 is an error
    /// naming the line and column of the first bad byte.
    public func readText(limit: Int, what: String = "input") throws(InputError) -> String {
        let bytes = try readAll(limit: limit, what: what)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        if let problem = otherEncodingProblem(Array(bytes.prefix(4))) {
            throw InputError(.malformed, source: name, position: .start, message: problem)
        }
        throw InputError(source: name, position: firstInvalidUTF8(in: bytes), message: "not valid UTF-8 text")
    }

    func tooLarge(_ limit: Int, _ what: String) -> InputError {
        InputError(.limitExceeded, source: name, message: "\(what) is larger than the \(byteCountText(limit)) limit")
    }

    /// The UTF-8 byte order mark, EF BB BF.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}

/// Checks that `path` names a readable regular file of at most `limit` bytes (a font file, an
/// image) without reading it; the error says what is wrong.
public func checkReadableFile(_ path: String, limit: Int, what: String) throws(InputError) {
    // Refused before opening: opening a FIFO waits for a writer, forever if none comes.
    var info = stat()
    if !path.isEmpty, !path.utf8.contains(0), path != InputFile.standardInputPath, stat(path, &info) == 0,
       info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
        throw InputError(.unreadable, source: path, message: "\(what) is not a regular file")
    }
    let file = try InputFile(path, what: what)
    guard path != InputFile.standardInputPath else {
        throw InputError(.unreadable, source: "-", message: "\(what) cannot be standard input")
    }
    guard let size = file.byteCount else {
        throw InputError(.unreadable, source: path, message: "\(what) is not a regular file")
    }
    if size > limit { throw file.tooLarge(limit, what) }
}

/// What is wrong with a text that starts with `bytes` (its first four bytes or fewer) when they
/// are a UTF-16 or UTF-32 byte order mark: such a file is read as UTF-8 and fails with a
/// confusing error (a NUL byte, bad UTF-8 at 1:1). Nil for any other start.
func otherEncodingProblem(_ bytes: [UInt8]) -> String? {
    let encoding: String
    if bytes.starts(with: [0xFF, 0xFE, 0, 0]) { encoding = "UTF-32 (little-endian)" }
    else if bytes.starts(with: [0, 0, 0xFE, 0xFF]) { encoding = "UTF-32 (big-endian)" }
    else if bytes.starts(with: [0xFF, 0xFE]) { encoding = "UTF-16 (little-endian)" }
    else if bytes.starts(with: [0xFE, 0xFF]) { encoding = "UTF-16 (big-endian)" }
    else { return nil }
    let mark = bytes.prefix(encoding.hasPrefix("UTF-32") ? 4 : 2).map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
    return "the text is \(encoding) (it starts with the byte order mark \(mark)); RowKit reads UTF-8: "
        + "convert it first, e.g. with iconv -f \(encoding.prefix(6)) -t UTF-8"
}

/// The line and column of the first byte that is not valid UTF-8 (nil when all are valid).
public func firstInvalidUTF8(in bytes: [UInt8]) -> TextPosition? {
    var position = TextPosition.start
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar):
            if scalar == "\n" { position.line += 1; position.column = 1 } else { position.column += 1 }
        case .emptyInput: return nil
        case .error: return position
        }
    }
}

/// Checks that `path` names a folder that can be listed; the error says what is wrong.
public func checkDirectory(_ path: String, what: String) throws(InputError) {
    guard !path.isEmpty, !path.utf8.contains(0) else { throw InputError(.unreadable, source: "'\(path)'", message: "\(what): not a valid path") }
    var info = stat()
    guard stat(path, &info) == 0 else {
        let code = errno
        throw InputError(.unreadable, source: path, message: "\(what): \(systemErrorText(code))", code: code)
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
        throw InputError(.unreadable, source: path, message: "\(what) is not a directory")
    }
    guard access(path, R_OK | X_OK) == 0 else {
        let code = errno
        throw InputError(.unreadable, source: path, message: "\(what): \(systemErrorText(code))", code: code)
    }
}
