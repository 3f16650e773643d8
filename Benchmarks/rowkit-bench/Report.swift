// Number formatting and the machine-readable summary (no Foundation needed).

import RowKitIO

/// `x` with `digits` decimals ("n/a" when not finite).
func fixed(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(x) * scale).rounded()
    guard scaled < 9e17 else { return x < 0 ? "-huge" : "huge" }
    let n = UInt64(scaled)
    let unit = UInt64(scale)
    let whole = String(n / unit)
    let sign = x < 0 && n != 0 ? "-" : ""
    guard digits > 0 else { return sign + whole }
    return sign + whole + "." + String(n % unit).leftPadded(to: digits)
}

/// A duration in microseconds, with precision adapted to its size.
func micros(_ x: Double) -> String {
    x >= 100 ? fixed(x, 1) : x >= 1 ? fixed(x, 2) : x >= 0.01 ? fixed(x, 4) : fixed(x, 5)
}

/// A ratio such as "1234×" (whole numbers from 100 up).
func times(_ x: Double) -> String { (x >= 100 ? fixed(x, 0) : x >= 10 ? fixed(x, 1) : fixed(x, 2)) + "×" }

/// An integer with thousands separators: 1,234,567.
func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + out
}

/// A byte count in MiB.
func mebibytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1_048_576, 1) + " MiB" }

/// "met" / "MISSED" for a target.
func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }

/// Text padded with spaces to `width` characters (left-aligned) or right-aligned.
func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return right ? fill + text : text + fill
}

/// A flat JSON object, written in insertion order.
struct JSONObject {
    private var fields: [String] = []

    mutating func add(_ key: String, _ value: Double) {
        fields.append("\"\(key)\":" + (value.isFinite ? "\(value)" : "null"))
    }
    mutating func add(_ key: String, _ value: Double?) {
        if let value { add(key, value) } else { fields.append("\"\(key)\":null") }
    }
    mutating func add(_ key: String, _ value: Int) { fields.append("\"\(key)\":\(value)") }
    mutating func add(_ key: String, _ value: Int?) {
        if let value { add(key, value) } else { fields.append("\"\(key)\":null") }
    }
    mutating func add(_ key: String, _ value: Bool) { fields.append("\"\(key)\":\(value)") }
    mutating func add(_ key: String, _ value: String) { fields.append("\"\(key)\":\(JSONText.string(value))") }
    mutating func add(_ key: String, _ value: JSONObject) { fields.append("\"\(key)\":\(value.text)") }

    var text: String { "{" + fields.joined(separator: ",") + "}" }
}
