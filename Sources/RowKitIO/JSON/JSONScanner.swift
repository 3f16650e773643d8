#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a scan stopped: the bytes ran out before the value ended (read more and scan again),
/// or the text is not valid JSON (message and byte offset in the window).
enum JSONScanError: Error {
    case needMore
    case invalid(String, offset: Int)
}

/// A recursive-descent JSON scanner over a window of bytes (RFC 8259, strict: no comments,
/// no trailing commas, no NaN, no leading zeros, UTF-8 only, no lone surrogates).
///
/// Tracks line and column as it goes (columns in Unicode scalars), so positions cost nothing.
/// When the window is not the end of the input (`isFinal` false) and a value runs past it, the
/// scan throws `.needMore`; the caller reads more and scans again from the same start.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let isFinal: Bool
    var i = 0
    /// Line of the byte at `lineStart`.
    private var line: Int
    /// Offset where the current line starts (0 when it started before the window).
    private var lineStart = 0
    /// Column of the byte at `lineStart`.
    private var lineStartColumn: Int
    /// UTF-8 continuation bytes between `lineStart` and `i` (they add no column).
    private var continuations = 0
    let maximumDepth: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, origin: TextPosition, maximumDepth: Int = InputLimits.jsonDepth) {
        self.bytes = bytes
        self.isFinal = isFinal
        self.line = origin.line
        self.lineStartColumn = origin.column
        self.maximumDepth = maximumDepth
    }

    /// The position of the byte at `i` (valid for offsets on the current line, at or after the
    /// last line start; earlier offsets are only asked for on the current line).
    var position: TextPosition {
        TextPosition(line: line, column: lineStartColumn + (i - lineStart) - continuations)
    }

    // MARK: Whitespace and punctuation

    /// Skips spaces, tabs, CR and LF; returns the next byte (nil at the end of a final window).
    mutating func skipWhitespace() throws(JSONScanError) -> UInt8? {
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                line += 1
                lineStart = i
                lineStartColumn = 1
                continuations = 0
            default: return b
            }
        }
        if isFinal { return nil }
        throw .needMore
    }

    /// Consumes `byte` if it is next (after white space).
    mutating func consume(_ byte: UInt8) throws(JSONScanError) -> Bool {
        guard try skipWhitespace() == byte else { return false }
        i += 1
        return true
    }

    func unexpected(_ what: String) -> JSONScanError {
        guard i < bytes.count else { return .invalid("unexpected end of input, expected \(what)", offset: i) }
        if isByteOrderMark(at: i) { return .invalid(Self.byteOrderMarkMessage, offset: i) }
        return .invalid("unexpected \(describeByte(bytes[i])), expected \(what)", offset: i)
    }

    /// Said of a UTF-8 byte order mark after the first bytes of an input: it is not JSON white
    /// space (reading it as "byte 0xEF", or skipping it on any line, hid what was wrong).
    static let byteOrderMarkMessage = "unexpected byte order mark (U+FEFF): only the start of a file may have one"

    /// Whether a byte order mark (EF BB BF) starts at `offset`.
    func isByteOrderMark(at offset: Int) -> Bool {
        offset + 2 < bytes.count && bytes[offset] == 0xEF && bytes[offset + 1] == 0xBB && bytes[offset + 2] == 0xBF
    }

    /// Throws the byte order mark error when one is next (after white space); needs more input
    /// while the next bytes could still be one.
    mutating func refuseByteOrderMark() throws(JSONScanError) {
        guard try skipWhitespace() == 0xEF else { return }
        if i + 2 >= bytes.count && !isFinal { throw .needMore }
        if isByteOrderMark(at: i) { throw .invalid(Self.byteOrderMarkMessage, offset: i) }
    }

    func describeByte(_ b: UInt8) -> String {
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b == 0x20 { return "space" }
        if b >= 0x80 { return "byte 0x\(String(b, radix: 16, uppercase: true))" }
        return "control character U+\(String(format4(b)))"
    }

    private func format4(_ b: UInt8) -> String {
        let hex = String(b, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - hex.count) + hex
    }

    // MARK: Values

    /// Scans one value (after white space).
    mutating func value(depth: Int = 0) throws(JSONScanError) -> JSONValue {
        guard let b = try skipWhitespace() else { throw unexpected("a JSON value") }
        switch b {
        case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try array(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw unexpected("a JSON value")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONScanError) {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for k in 0..<count {
            guard i + k < bytes.count else {
                if isFinal { throw .invalid("unexpected end of input in '\(word)'", offset: i) }
                throw .needMore
            }
            guard bytes[i + k] == expected[k] else {
                throw .invalid("invalid literal (expected '\(word)')", offset: i)
            }
        }
        i += count
        // A literal runs into the next token only through letters or digits ("trueX", "null1").
        if i < bytes.count, isWordByte(bytes[i]) { throw .invalid("invalid literal (expected '\(word)')", offset: i - count) }
        if i == bytes.count, !isFinal { throw .needMore }
    }

    private func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == UInt8(ascii: "_") || b >= 0x80
    }

    private mutating func object(depth: Int) throws(JSONScanError) -> JSONObject {
        guard depth <= maximumDepth else { throw .invalid("arrays and objects nested deeper than \(maximumDepth) levels", offset: i) }
        i += 1 // {
        var members: [JSONMember] = []
        if try consume(UInt8(ascii: "}")) { return JSONObject(members: members) }
        // Rows have a few fields: one allocation for up to four (growing from one took two).
        members.reserveCapacity(4)
        while true {
            guard try skipWhitespace() == UInt8(ascii: "\"") else { throw unexpected("a string key") }
            let keyPosition = position
            let key = try string()
            guard try consume(UInt8(ascii: ":")) else { throw unexpected("':' after the key") }
            _ = try skipWhitespace()
            let valuePosition = position
            let value = try self.value(depth: depth)
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: value, valuePosition: valuePosition))
            if try consume(UInt8(ascii: ",")) { continue }
            if try consume(UInt8(ascii: "}")) { return JSONObject(members: members) }
            throw unexpected("',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws(JSONScanError) -> [JSONValue] {
        guard depth <= maximumDepth else { throw .invalid("arrays and objects nested deeper than \(maximumDepth) levels", offset: i) }
        i += 1 // [
        var items: [JSONValue] = []
        if try consume(UInt8(ascii: "]")) { return items }
        while true {
            items.append(try value(depth: depth))
            if try consume(UInt8(ascii: ",")) { continue }
            if try consume(UInt8(ascii: "]")) { return items }
            throw unexpected("',' or ']'")
        }
    }

    // MARK: Numbers

    private mutating func number() throws(JSONScanError) -> JSONNumber {
        let begin = i
        func digit(_ k: Int) -> Bool { k < bytes.count && bytes[k] >= 0x30 && bytes[k] <= 0x39 }
        func needMoreOrInvalid(_ message: String) -> JSONScanError {
            i >= bytes.count && !isFinal ? .needMore : .invalid(message, offset: begin)
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { throw needMoreOrInvalid("invalid number: expected a digit after '-'") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if digit(i) { throw .invalid("invalid number: leading zeros are not allowed", offset: begin) }
        } else {
            while digit(i) { i += 1 }
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { throw needMoreOrInvalid("invalid number: expected a digit after '.'") }
            while digit(i) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard digit(i) else { throw needMoreOrInvalid("invalid number: expected a digit in the exponent") }
            while digit(i) { i += 1 }
        }
        // The number may go on in bytes not read yet.
        if i == bytes.count && !isFinal { throw .needMore }
        if i < bytes.count, isWordByte(bytes[i]) || bytes[i] == UInt8(ascii: ".") {
            // Say what follows the number ("0x10", "12px", "1.5.2" were all just "invalid number").
            let written = shortenedForMessage(String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<i]), as: UTF8.self))
            let next = bytes[i] < 0x80 ? "'\(Character(Unicode.Scalar(bytes[i])))'" : "a non-ASCII character"
            let hint = bytes[i] == UInt8(ascii: "x") || bytes[i] == UInt8(ascii: "X") ? " (JSON numbers are decimal)" : ""
            throw .invalid("invalid number: \(next) after '\(written)'\(hint)", offset: begin)
        }
        return JSONNumber(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<i]), as: UTF8.self))
    }

    // MARK: Strings

    /// Scans a string starting at the quote at `i`.
    mutating func string() throws(JSONScanError) -> String {
        let quote = i
        i += 1
        let begin = i
        let count = bytes.count
        // Fast path: no escapes. The closing quote (or a backslash or control character) is
        // found eight bytes at a time, counting UTF-8 continuation bytes (they add no column) as
        // it goes; the standard library then makes the string, and the UTF-8 was valid exactly
        // when the string's bytes are the input's (it replaces each invalid sequence with
        // U+FFFD, which is never what was written there). Checking each sequence here as well
        // cost ~12 instructions a byte on top of the standard library's own check.
        var end = begin
        var extra = 0 // continuation bytes
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            // Continuation bytes are summed per byte lane (a software popcount per word cost
            // ~25 instructions), the lanes added up every 255 words and at the end.
            var lanes: UInt64 = 0, words = 0
            while end + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)
                if Self.hasStringEnd(word) { break }
                lanes &+= Self.continuationLanes(word)
                end += 8
                words += 1
                if words == 255 {
                    extra += Self.sumOfLanes(lanes)
                    lanes = 0
                    words = 0
                }
            }
            extra += Self.sumOfLanes(lanes)
            while end < count {
                let b = base[end]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
                if b & 0xC0 == 0x80 { extra += 1 }
                end += 1
            }
        }
        if end < count, bytes[end] == UInt8(ascii: "\"") {
            let slice = UnsafeBufferPointer(rebasing: bytes[begin..<end])
            var text = String(decoding: slice, as: UTF8.self)
            let valid = text.utf8.count == slice.count && text.withUTF8 { made in
                slice.isEmpty || memcmp(made.baseAddress!, slice.baseAddress!, slice.count) == 0
            }
            if !valid { throw .invalid("invalid UTF-8 in a string", offset: quote) }
            continuations += extra
            i = end + 1
            return text
        }
        i = end
        if i < count, bytes[i] < 0x20 { throw controlCharacter(bytes[i]) }
        if i == count {
            if isFinal { throw .invalid("unterminated string", offset: quote) }
            throw .needMore
        }
        var extraContinuations = 0
        for k in begin..<i where bytes[k] & 0xC0 == 0x80 { extraContinuations += 1 }
        // Slow path: decode escapes into bytes.
        var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[begin..<i]))
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                continuations += extraContinuations
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw .invalid("invalid UTF-8 in a string", offset: quote)
                }
                return text
            }
            if b < 0x20 { throw controlCharacter(b) }
            if b != UInt8(ascii: "\\") {
                if b & 0xC0 == 0x80 { extraContinuations += 1 }
                out.append(b)
                i += 1
                continue
            }
            guard i + 1 < bytes.count else { break }
            let escape = bytes[i + 1]
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let escapeStart = i
                guard var scalar = try hex4(at: i + 2) else { throw .invalid("invalid \\u escape: expected four hex digits", offset: escapeStart) }
                i += 6
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    guard i + 1 < bytes.count || isFinal else { throw .needMore }
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
                          let low = try hex4(at: i + 2), low >= 0xDC00 && low <= 0xDFFF else {
                        throw .invalid("invalid \\u escape: a high surrogate must be followed by a low one", offset: escapeStart)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                    throw .invalid("invalid \\u escape: a lone low surrogate", offset: escapeStart)
                }
                out.append(contentsOf: Array(String(Unicode.Scalar(scalar)!).utf8))
                continue
            default:
                throw .invalid("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string", offset: i)
            }
            i += 2
        }
        if isFinal { throw .invalid("unterminated string", offset: quote) }
        throw .needMore
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether one of the eight bytes of `word` ends a string's plain run: a quote, a backslash
    /// or a control character (below U+0020). Exact (the classic "has a zero byte" tests).
    @inline(__always)
    static func hasStringEnd(_ word: UInt64) -> Bool {
        let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
        let zeroQuote = (quotes &- ones) & ~quotes
        let zeroBackslash = (backslashes &- ones) & ~backslashes
        let below20 = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | below20) & highs != 0
    }

    /// 1 in each byte lane of `word` that holds a UTF-8 continuation byte (10xxxxxx), else 0.
    @inline(__always)
    static func continuationLanes(_ word: UInt64) -> UInt64 {
        (word & highs & ~(word << 1)) >> 7
    }

    /// The sum of the eight byte lanes of `lanes` (each at most 255).
    @inline(__always)
    static func sumOfLanes(_ lanes: UInt64) -> Int {
        let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
        return Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)
    }

    private func controlCharacter(_ b: UInt8) -> JSONScanError {
        if b == 0x0A { return .invalid("line break inside a string (write it as \\n)", offset: i) }
        return .invalid("control character U+\(format4(b)) inside a string (escape it)", offset: i)
    }

    /// Four hex digits at `k` as a number; nil when they are not hex digits; `.needMore` when
    /// they run past the window.
    private func hex4(at k: Int) throws(JSONScanError) -> UInt32? {
        guard k + 4 <= bytes.count else {
            if isFinal { return nil }
            throw .needMore
        }
        var value: UInt32 = 0
        for j in k..<(k + 4) {
            let b = bytes[j]
            let digit: UInt8
            switch b {
            case 0x30...0x39: digit = b - 0x30
            case 0x41...0x46: digit = b - 0x41 + 10
            case 0x61...0x66: digit = b - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The position of `offset`, which must be on the current line at or after its start
    /// (error offsets are); earlier ones fall back to the line start.
    func position(ofOffset offset: Int) -> TextPosition {
        guard offset >= lineStart else { return TextPosition(line: line, column: lineStartColumn) }
        var column = lineStartColumn
        var k = lineStart
        while k < min(offset, bytes.count) {
            if bytes[k] & 0xC0 != 0x80 { column += 1 }
            k += 1
        }
        return TextPosition(line: line, column: column)
    }
}
