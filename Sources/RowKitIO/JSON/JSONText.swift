/// Writing JSON values as text: the one rule for numbers and strings that every RowKit output
/// (`rowkit measure`/`heights`/`render`, the window's frame log) follows.
public enum JSONText {
    /// A number: integral values as integers (`35`, not `35.0`; exact up to ±9.2 × 10¹⁸),
    /// others in Swift's shortest round-tripping form (`12.5`, `1e-07`), and `null` for NaN and
    /// infinities, which JSON cannot write.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded() && abs(value) < 9.2e18 { return String(Int64(value)) }
        return String(value)
    }

    /// Appends `value`'s decimal digits (and sign) to `bytes`: `number(Double(value))` for
    /// integers, without making a `String` (``writeInteger(_:to:)``'s bytes).
    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { room in
            let p = room.baseAddress!
            bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: writeInteger(value, to: p)))
        }
    }

    /// Appends `number(Double(units) / 64)` to `bytes` (a length in the list engine's 1/64 px
    /// units) without making a `String`: below 2³³ px such a number's shortest round-trip form
    /// is its exact decimal expansion (at most six decimals), ``writeSixtyFourths(_:to:)``'s bytes.
    public static func appendSixtyFourths(_ units: Int64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 28) { room in
            let p = room.baseAddress!
            if let count = writeSixtyFourths(units, to: p) {
                bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: count))
            } else {
                bytes.append(contentsOf: number(Double(units) / 64).utf8)
            }
        }
    }

    /// Writes `value`'s decimal digits (and sign) at `p` and returns how many bytes it wrote (at
    /// most 20).
    @inline(__always)
    public static func writeInteger(_ value: Int64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if value < 0 { p[0] = UInt8(ascii: "-"); n = 1 }
        var magnitude = value.magnitude
        var digits = 1
        var scan = magnitude
        while scan >= 10 { scan /= 10; digits += 1 }
        var k = n + digits - 1
        repeat {
            p[k] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            k -= 1
        } while magnitude > 0
        return n + digits
    }

    /// Writes `number(Double(units) / 64)` at `p` (its exact decimal expansion, at most six
    /// decimals) and returns how many bytes it wrote (at most 28); nil, writing nothing, for
    /// lengths of 2³³ px or more, whose shortest form only `number` knows.
    @inline(__always)
    public static func writeSixtyFourths(_ units: Int64, to p: UnsafeMutablePointer<UInt8>) -> Int? {
        guard units.magnitude < 1 << 39 else { return nil }
        let whole = units / 64, rest = Int64(units.magnitude % 64)
        if rest == 0 { return writeInteger(whole, to: p) }
        var n = 0
        if units < 0 { p[0] = UInt8(ascii: "-"); n = 1 }
        n += writeInteger(Int64(whole.magnitude), to: p + n)
        p[n] = UInt8(ascii: ".")
        n += 1
        // rest / 64 = rest × 15,625 / 10⁶: six digits, trailing zeros dropped.
        var fraction = rest * 15_625
        var digits = 6
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        for k in stride(from: digits - 1, through: 0, by: -1) {
            p[n + k] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
        }
        return n + digits
    }

    /// A string literal with quotes, backslashes and control characters (U+0000…U+001F,
    /// U+007F) escaped; everything else as is (UTF-8).
    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
