/// Reads JSON from a ``BufferedInput`` one token or one value at a time, so that a document of
/// any size (a JSON array of a million rows) is read in bounded memory.
///
/// Errors are ``InputError``s with line and column. Each call skips white space first.
///
/// Not thread-safe.
public final class JSONReader {
    /// The input read from.
    public let input: BufferedInput

    /// A reader over `input`.
    public init(_ input: BufferedInput) {
        self.input = input
    }

    /// Where the next unread byte is.
    public var position: TextPosition { input.position }

    /// Runs `body` on a scanner over the window from the last committed point; reads more and
    /// runs it again while it needs more; commits where it stopped when `commit` is true.
    private enum StepFailure: Error {
        case needMore
        case invalid(String, TextPosition)
    }

    /// Runs `body` on a scanner over the window from the last committed point; reads more and
    /// runs it again while it needs more; commits where it stopped when `commit` is true.
    private func step<R>(commit: Bool = true, _ body: (inout JSONScanner) throws(JSONScanError) -> R) throws(InputError) -> R {
        try input.skipByteOrderMark()
        while true {
            let outcome: Result<(R, Int, TextPosition), StepFailure> = input.withWindow { bytes, isFinal in
                var scanner = JSONScanner(bytes, isFinal: isFinal, origin: input.position)
                do throws(JSONScanError) {
                    let result = try body(&scanner)
                    return .success((result, scanner.i, scanner.position))
                } catch .invalid(let message, let offset) {
                    return .failure(.invalid(message, scanner.position(ofOffset: offset)))
                } catch {
                    return .failure(.needMore)
                }
            }
            switch outcome {
            case .success(let (result, offset, position)):
                if commit { input.commit(offset, position: position) }
                return result
            case .failure(.needMore):
                // At the end of the input the next scan is final.
                if try input.fill() == .full {
                    throw InputError(.limitExceeded, source: input.name, position: input.position,
                                     message: "a JSON value is longer than the \(byteCountText(input.maximumRecord)) record limit")
                }
            case .failure(.invalid(let message, let position)):
                throw InputError(source: input.name, position: position, message: message)
            }
        }
    }

    /// The next byte after white space, without consuming it; nil at the end of the input.
    public func peek() throws(InputError) -> UInt8? {
        try step { (scanner) throws(JSONScanError) in try scanner.skipWhitespace() }
    }

    /// Consumes `byte` when it is next (after white space).
    public func consume(_ byte: UInt8) throws(InputError) -> Bool {
        try step { (scanner) throws(JSONScanError) in try scanner.consume(byte) }
    }

    /// Consumes `byte`, or throws "expected `what`".
    public func expect(_ byte: UInt8, _ what: String) throws(InputError) {
        try step { (scanner) throws(JSONScanError) in
            guard try scanner.consume(byte) else { throw scanner.unexpected(what) }
        }
    }

    /// Reads one whole value, and where it starts.
    public func readValue() throws(InputError) -> (value: JSONValue, position: TextPosition) {
        try step { (scanner) throws(JSONScanError) in
            _ = try scanner.skipWhitespace()
            let position = scanner.position
            return (try scanner.value(), position)
        }
    }

    /// Skips one value without keeping it, however long (its bytes are scanned as they stream
    /// past, never held whole): after ``readValue()`` threw ``InputError/Kind/limitExceeded``
    /// for an array element, reading goes on with the next one. Only the nesting and strings
    /// are followed, so a malformed value is skipped as far as its brackets say.
    public func skipValue() throws(InputError) {
        try input.skipByteOrderMark()
        var started = false, done = false, inString = false, escaped = false, isScalar = false
        var depth = 0
        while !done {
            var position = input.position
            let consumed: Int = input.withWindow { bytes, _ in
                var i = 0
                scan: while i < bytes.count {
                    let byte = bytes[i]
                    if !started {
                        switch byte {
                        case 0x20, 0x09, 0x0D, 0x0A: break
                        case UInt8(ascii: "{"), UInt8(ascii: "["): started = true; depth = 1
                        case UInt8(ascii: "\""): started = true; inString = true
                        default: started = true; isScalar = true
                        }
                    } else if inString {
                        if escaped { escaped = false }
                        else if byte == UInt8(ascii: "\\") { escaped = true }
                        else if byte == UInt8(ascii: "\"") { inString = false; if depth == 0 { done = true } }
                    } else if isScalar {
                        // A number or literal ends before a delimiter, which is not consumed.
                        if [0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(byte) { done = true; break scan }
                    } else {
                        switch byte {
                        case UInt8(ascii: "\""): inString = true
                        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1; if depth == 0 { done = true }
                        default: break
                        }
                    }
                    if byte == 0x0A { position = TextPosition(line: position.line + 1, column: 1) }
                    else if byte & 0xC0 != 0x80 { position.column += 1 }
                    i += 1
                    if done { break }
                }
                return i
            }
            input.commit(consumed, position: position)
            if done { return }
            if try input.fill() == .ended {
                if isScalar && started { return }
                throw InputError(source: input.name, position: input.position, message: "unexpected end of input inside a value")
            }
        }
    }

    /// Reads `"key" :` and returns the key and where it starts.
    public func readKey() throws(InputError) -> (key: String, position: TextPosition) {
        try step { (scanner) throws(JSONScanError) in
            guard try scanner.skipWhitespace() == UInt8(ascii: "\"") else { throw scanner.unexpected("a string key") }
            let position = scanner.position
            let key = try scanner.string()
            guard try scanner.consume(UInt8(ascii: ":")) else { throw scanner.unexpected("':' after the key") }
            return (key, position)
        }
    }

    /// When the input starts with `{ "key"`, that first key (nothing is consumed).
    public func peekFirstKey() throws(InputError) -> String? {
        try step(commit: false) { (scanner) throws(JSONScanError) -> String? in
            guard try scanner.consume(UInt8(ascii: "{")), try scanner.skipWhitespace() == UInt8(ascii: "\"") else { return nil }
            return try scanner.string()
        }
    }

    /// When the input starts with `{ "key" :`, that first key and the first byte of its value
    /// (nil when the input ends there); nothing is consumed.
    public func peekFirstMember() throws(InputError) -> (key: String, valueStart: UInt8?)? {
        try step(commit: false) { (scanner) throws(JSONScanError) -> (key: String, valueStart: UInt8?)? in
            guard try scanner.consume(UInt8(ascii: "{")), try scanner.skipWhitespace() == UInt8(ascii: "\"") else { return nil }
            let key = try scanner.string()
            guard try scanner.consume(UInt8(ascii: ":")) else { return (key, nil) }
            return (key, try scanner.skipWhitespace())
        }
    }

    /// Throws "unexpected byte order mark" when the next bytes (after white space) are one: the
    /// input skips the mark at its start, so one here is a second (nothing is consumed).
    public func refuseByteOrderMark() throws(InputError) {
        try step(commit: false) { (scanner) throws(JSONScanError) in try scanner.refuseByteOrderMark() }
    }

    /// Consumes the rest of the current line (JSON Lines error recovery).
    public func nextLine() throws(InputError) -> BufferedInput.Line? {
        try input.nextLine()
    }
}

/// Parses a complete JSON text (one value, white space around it) held in memory; `origin` is
/// the position of its first byte (for a line of a JSON Lines file). A byte order mark at the
/// start is skipped when `skipsByteOrderMark` (a line of a file is not a file's start: its
/// reader passes false); anywhere else it is an error. Text after the value is an error
/// naming the end of `unit` ("the end of the line" for a JSON Lines line).
public func parseJSON(_ bytes: [UInt8], source: String, origin: TextPosition = .start,
                      skipsByteOrderMark: Bool = true, unit: String = "input") throws(InputError) -> JSONValue {
    let skip = skipsByteOrderMark && bytes.starts(with: InputFile.byteOrderMark) ? 3 : 0
    let result: Result<JSONValue, InputError> = bytes.withUnsafeBufferPointer { all in
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: all[skip...]), isFinal: true, origin: origin)
        do throws(JSONScanError) {
            let value = try scanner.value()
            if try scanner.skipWhitespace() != nil {
                throw scanner.unexpected("the end of the \(unit) after the JSON value")
            }
            return .success(value)
        } catch .invalid(let message, let offset) {
            return .failure(InputError(source: source, position: scanner.position(ofOffset: offset), message: message))
        } catch {
            return .failure(InputError(source: source, position: scanner.position, message: "unexpected end of input"))
        }
    }
    return try result.get()
}
