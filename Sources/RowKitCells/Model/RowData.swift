/// One field of a row: a string (text or image name) or a number.
public enum FieldValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case number(Double)

    /// The value as text: numbers without a fractional part print as integers.
    public var description: String {
        switch self {
        case .string(let text): return text
        case .number(let value):
            if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        }
    }
}

/// A row's data: named fields a cell template binds to.
public struct RowData: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    public var fields: [String: FieldValue]

    public init(_ fields: [String: FieldValue] = [:]) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = Dictionary(elements.map { ($0.0, FieldValue.string($0.1)) }, uniquingKeysWith: { _, last in last })
    }

    public subscript(_ name: String) -> FieldValue? { fields[name] }
}

/// The state a cell is drawn in; it changes drawing, never height.
public enum CellState: String, Sendable, Hashable, CaseIterable {
    case normal, highlighted, selected
}
