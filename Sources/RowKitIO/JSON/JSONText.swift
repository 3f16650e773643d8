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
