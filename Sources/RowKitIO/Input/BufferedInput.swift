#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A window over an input's bytes, read in chunks, for line and JSON readers that stream.
///
/// The window holds the bytes from the last committed point on; readers parse a record from
/// its start and, when the record runs past the bytes read so far, ask for more and start the
/// record again. Memory stays bounded by the largest record (``maximumRecord`` bytes, default
/// ``InputLimits/recordBytes``). A leading UTF-8 byte order mark is skipped, and the position
/// (line and column) of the window's start is kept for messages.
///
/// Not thread-safe.
public final class BufferedInput {
    /// The name used in messages (`stdin` or the path).
    public let name: String
    /// The largest record, in bytes, a reader may need at once.
    public let maximumRecord: Int
    /// The input's total size when known (regular files), for progress.
    public let byteCount: Int?
    private let file: InputFile?
    private var storage: [UInt8]
    /// Offset of the first unconsumed byte in `storage`.
    private(set) var start = 0
    /// Offset after the last byte read into `storage`.
    private(set) var end = 0
    /// Whether the input has no more bytes beyond `end`.
    private(set) var atEndOfInput = false
    /// Position of `storage[start]`.
    public private(set) var position = TextPosition.start
    private var checkedByteOrderMark = false
    /// Bytes consumed before `storage[start]` (for progress).
    public private(set) var consumedBytes = 0

    /// Streams `file`; records may be up to `maximumRecord` bytes.
    public init(_ file: InputFile, maximumRecord: Int = InputLimits.recordBytes) {
        self.file = file
        self.name = file.name
        self.byteCount = file.byteCount
        self.maximumRecord = max(1, maximumRecord)
        self.storage = [UInt8](repeating: 0, count: min(1 << 18, self.maximumRecord + 1))
    }

    /// Streams bytes held in memory (tests, fuzzing); `name` is used in messages.
    public init(bytes: [UInt8], name: String, maximumRecord: Int = InputLimits.recordBytes) {
        self.file = nil
        self.name = name
        self.byteCount = bytes.count
        self.maximumRecord = max(1, maximumRecord)
        self.storage = bytes
        self.end = bytes.count
        self.atEndOfInput = true
    }

    /// Calls `body` with the unconsumed bytes read so far and whether they run to the end of the input.
    func withWindow<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>, _ isFinal: Bool) throws(E) -> R) throws(E) -> R {
        let final = atEndOfInput
        let s = start, e = end
        return try storage.withUnsafeBufferPointer { (all) throws(E) -> R in
            try body(UnsafeBufferPointer(rebasing: all[s..<e]), final)
        }
    }

    /// What ``fill()`` did.
    enum Fill { case read, ended, full }

    /// Reads more bytes into the window (moving the unconsumed ones to the front, growing the
    /// buffer up to the record limit): `.ended` when the input has no more, `.full` when the
    /// window already holds more than `maximumRecord` bytes; throws on a read error.
    func fill() throws(InputError) -> Fill {
        guard let file, !atEndOfInput else { return .ended }
        if start > 0 {
            let count = end - start
            storage.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                memmove(base, base + start, count)
            }
            end = count
            start = 0
        }
        if end == storage.count {
            let limit = maximumRecord + 1
            guard storage.count < limit else { return .full }
            storage.append(contentsOf: repeatElement(0, count: min(storage.count, limit - storage.count)))
        }
        let filled = end
        let n = try storage.withUnsafeMutableBytes { raw in
            Result { () throws(InputError) in try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...])) }
        }.get()
        if n == 0 { atEndOfInput = true; return .ended }
        end += n
        return .read
    }

    /// ``fill()`` as a Bool: whether bytes were read (a full window is the record-limit error).
    @discardableResult
    func fillMore() throws(InputError) -> Bool {
        switch try fill() {
        case .read: return true
        case .ended: return false
        case .full: throw recordTooLong()
        }
    }

    /// Skips a byte order mark at the very start of the input; a UTF-16 or UTF-32 one is an
    /// error that names the encoding (it was "binary data (a NUL byte)").
    func skipByteOrderMark() throws(InputError) {
        guard !checkedByteOrderMark else { return }
        checkedByteOrderMark = true
        while end - start < 3, try fillMore() {}
        if end - start >= 3, storage[start] == 0xEF, storage[start + 1] == 0xBB, storage[start + 2] == 0xBF {
            start += 3
            consumedBytes += 3
        } else if end - start >= 2, [0x00, 0xFE, 0xFF].contains(storage[start]) {
            // Never the start of UTF-8 text, so waiting for a fourth byte (UTF-16 or UTF-32?)
            // cannot hold back the answer to a short first line typed at a terminal.
            while end - start < 4, try fillMore() {}
            if let problem = otherEncodingProblem(Array(storage[start..<min(end, start + 4)])) {
                throw InputError(.malformed, source: name, position: .start, message: problem)
            }
        }
    }

    /// Consumes the window up to `offset` (relative to the window start), whose position is `position`.
    func commit(_ offset: Int, position: TextPosition) {
        start += offset
        consumedBytes += offset
        self.position = position
    }

    func recordTooLong() -> InputError {
        InputError(.limitExceeded, source: name, position: position,
                   message: "a record (one line, or one value of a JSON array) is longer than the \(byteCountText(maximumRecord)) limit")
    }

    // MARK: Lines

    /// One line of text: its 1-based number and bytes without the line break (a CR before the
    /// LF is dropped too); `isTooLong` lines were skipped for exceeding the record limit.
    public struct Line: Sendable {
        /// 1-based line number.
        public var number: Int
        /// 1-based column of the first byte (1 unless the start of the line was consumed).
        public var column: Int = 1
        /// The line's bytes (empty when `isTooLong`).
        public var bytes: [UInt8]
        /// Whether the line was longer than the record limit (its bytes were skipped).
        public var isTooLong: Bool

        /// A line (tests and fuzzing make their own).
        public init(number: Int, column: Int = 1, bytes: [UInt8], isTooLong: Bool = false) {
            self.number = number
            self.column = column
            self.bytes = bytes
            self.isTooLong = isTooLong
        }
    }

    /// Whether ``nextLine()`` can return without waiting for the input: a whole line is in the
    /// window, the input has ended, it is a file (reads do not wait), or bytes are ready now on a
    /// pipe or terminal. A reader that batches lines uses this to finish its batch before it
    /// would wait — so `rowkit measure` answers each line typed at a terminal or written by a
    /// program that waits for the answer, instead of waiting for 4,096 lines or the end.
    public var hasLineWithoutWaiting: Bool {
        if atEndOfInput { return true }
        let hasLine: Bool = storage.withUnsafeBytes { raw in
            guard end > start, let base = raw.baseAddress else { return false }
            return memchr(base + start, 0x0A, end - start) != nil
        }
        if hasLine { return true }
        guard let file else { return true }
        return file.byteCount != nil || file.hasBytesReady
    }

    /// The next line, or nil at the end of the input. A last line without a line break counts.
    public func nextLine() throws(InputError) -> Line? {
        try skipByteOrderMark()
        var searched = 0
        while true {
            let found: Int? = storage.withUnsafeBytes { raw in
                guard end - start - searched > 0, let base = raw.baseAddress else { return nil }
                guard let hit = memchr(base + start + searched, 0x0A, end - start - searched) else { return nil }
                return base.distance(to: UnsafeRawPointer(hit)) - start
            }
            if let found {
                return try takeLine(length: found, consumed: found + 1)
            }
            searched = end - start
            if atEndOfInput {
                return end > start ? try takeLine(length: end - start, consumed: end - start) : nil
            }
            if end - start > maximumRecord { return try skipLongLine() }
            if try fill() == .full { return try skipLongLine() }
            searched = min(searched, end - start)
        }
    }

    /// Throws when the window's bytes `from..<to` (relative to `start`) hold a NUL byte: text
    /// inputs never do, and a binary file or device (/dev/zero) would otherwise be read forever.
    private func checkText(_ from: Int, _ to: Int, line: Int) throws(InputError) {
        let hasNul: Bool = storage.withUnsafeBytes { raw in
            guard to > from, let base = raw.baseAddress else { return false }
            return memchr(base + start + from, 0, to - from) != nil
        }
        if hasNul {
            throw InputError(.malformed, source: name, position: TextPosition(line: line, column: 0),
                             message: "binary data (a NUL byte): not a text file")
        }
    }

    private func takeLine(length: Int, consumed: Int) throws(InputError) -> Line {
        try checkText(0, length, line: position.line)
        var count = length
        if count > 0 && storage[start + count - 1] == 0x0D { count -= 1 }
        let line = Line(number: position.line, column: position.column, bytes: Array(storage[start..<(start + count)]), isTooLong: false)
        commit(consumed, position: TextPosition(line: position.line + 1, column: 1))
        return line
    }

    /// Discards the rest of an over-long line (reading on to its line break) and reports it.
    private func skipLongLine() throws(InputError) -> Line {
        let number = position.line
        while true {
            let found: Int? = storage.withUnsafeBytes { raw in
                guard end > start, let base = raw.baseAddress, let hit = memchr(base + start, 0x0A, end - start) else { return nil }
                return base.distance(to: UnsafeRawPointer(hit)) - start
            }
            try checkText(0, found ?? (end - start), line: number)
            if let found {
                commit(found + 1, position: TextPosition(line: number + 1, column: 1))
                return Line(number: number, bytes: [], isTooLong: true)
            }
            commit(end - start, position: position)
            if !(try fillMore()) {
                return Line(number: number, bytes: [], isTooLong: true)
            }
        }
    }
}
