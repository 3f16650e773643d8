/// A JSON value as written, with exact numbers and the positions of object members.
///
/// Unlike `JSONSerialization`, numbers and booleans never mix: `0` and `1` are numbers,
/// `true` and `false` booleans. Numbers keep their text, so large integers stay exact.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, with its text kept (exact whatever its size).
    case number(JSONNumber)
    /// A string, escapes decoded.
    case string(String)
    /// An array of values.
    case array([JSONValue])
    /// An object: members in file order, with their positions.
    case object(JSONObject)

    /// "null", "a boolean", "the number 12", "a string", "an array" or "an object", for messages.
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "the boolean \(value)"
        case .number(let number): return "the number \(number.text)"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON number: its text as written and its value.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written in the input, e.g. `-12.50e3`.
    public let text: String

    /// A number from its JSON text (not checked: the reader only makes valid ones).
    public init(text: String) { self.text = text }

    /// The nearest `Double` (infinite when out of range, e.g. `1e400`).
    public var doubleValue: Double { Double(text) ?? .nan }

    /// Whether the text is a whole number without fraction or exponent.
    public var isIntegerLiteral: Bool { !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") } }

    /// The exact value as an `Int`, when the text is an integer literal that fits.
    public var intValue: Int? { isIntegerLiteral ? Int(text) : nil }

    /// The number's text as written in the file.
    public var description: String { text }
}

/// A JSON object's members in input order, with where each key and value starts.
public struct JSONObject: Sendable, Hashable {
    /// The members in input order (duplicate keys are kept; see ``firstDuplicateKey``).
    public var members: [JSONMember]

    /// An object of `members`.
    public init(members: [JSONMember]) { self.members = members }

    /// The first member named `key`.
    public subscript(key: String) -> JSONMember? { members.first { $0.key == key } }

    /// The first key given twice, with both members.
    public var firstDuplicateKey: (first: JSONMember, second: JSONMember)? {
        guard members.count > 1 else { return nil }
        if members.count <= 16 {
            // Rows have a handful of fields: comparing pairs beats hashing them.
            for j in 1..<members.count {
                for i in 0..<j where members[i].key == members[j].key { return (members[i], members[j]) }
            }
            return nil
        }
        var seen: [String: Int] = [:]
        for (i, member) in members.enumerated() {
            if let earlier = seen[member.key] { return (members[earlier], member) }
            seen[member.key] = i
        }
        return nil
    }
}

/// One `"key": value` of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The key.
    public var key: String
    /// Where the key starts.
    public var keyPosition: TextPosition
    /// The value.
    public var value: JSONValue
    /// Where the value starts.
    public var valuePosition: TextPosition

    /// A member.
    public init(key: String, keyPosition: TextPosition, value: JSONValue, valuePosition: TextPosition) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
        self.valuePosition = valuePosition
    }
}
