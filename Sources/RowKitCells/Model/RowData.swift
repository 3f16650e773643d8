/// One field of a row: a string (text or image name) or a number.
public enum FieldValue: Sendable, Hashable, CustomStringConvertible {
    /// Text, or an image name for an image field.
    case string(String)
    /// A number, printed as ``description`` shows when a text element reads it.
    case number(Double)

    /// The value as text: whole numbers print as integers (all their digits, never an
    /// exponent, up to 2⁶³), others in their shortest exact form (`0.1`, `1e-07`).
    public var description: String {
        switch self {
        case .string(let text): return text
        case .number(let value):
            if value == value.rounded(), abs(value) < 9.2e18 { return String(Int64(value)) }
            return String(value)
        }
    }

    /// A number as written in a data file (JSON or YAML): `.number` when the number prints back
    /// exactly as written, otherwise `.string` of the text as written — so that a row shows
    /// `123456789012345678` or `1.50` exactly, never `1.2345678901234568e+17` or `1.5`.
    /// Nil when `text` is not a finite number.
    public init?(numberText text: String) {
        guard let value = Double(text), value.isFinite else { return nil }
        let number = FieldValue.number(value)
        self = number.description == text ? number : .string(text)
    }
}

/// A row's data: named fields a cell template binds to.
public struct RowData: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The fields by name.
    public var fields: [String: FieldValue]

    /// A row of these fields.
    public init(_ fields: [String: FieldValue] = [:]) { self.fields = fields }

    /// A row of string fields.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = Dictionary(elements.map { ($0.0, FieldValue.string($0.1)) }, uniquingKeysWith: { _, last in last })
    }

    /// The field named `name`, if the row has one; setting nil removes it.
    public subscript(_ name: String) -> FieldValue? {
        get { fields[name] }
        set { fields[name] = newValue }
    }
}

/// The state a cell is drawn in; it changes drawing, never height.
public enum CellState: String, Sendable, Hashable, CaseIterable {
    /// Not touched, not selected: normal fills, text colors and shadows.
    case normal
    /// Touched: highlighted fills, highlighted text colors, no text shadows.
    case highlighted
    /// Selected: drawn as highlighted.
    case selected
}

/// The row fields a layout reads: text fields (strings or numbers) and image fields (image names).
///
/// Row data is checked against these: a field the template does not bind is a misspelling or a
/// row meant for another template, and an image field must hold a name (a string).
public struct BoundFields: Sendable, Hashable {
    /// Fields shown as text.
    public private(set) var text: Set<String> = []
    /// Fields holding an image name.
    public private(set) var images: Set<String> = []
    /// Every field the layout reads.
    public private(set) var all: Set<String> = []

    /// No fields.
    public init() {}

    /// The fields `layout` reads.
    public init(_ layout: CellLayout) {
        collect(layout)
        all = text.union(images)
    }

    private mutating func collect(_ layout: CellLayout) {
        switch layout {
        case .text(let element):
            if case .field(let name) = element.source { text.insert(name) }
        case .box(let box):
            if case .image(.field(let name)) = box.content { images.insert(name) }
        case .stack(let stack):
            for child in stack.children { collect(child) }
        case .inset(_, let child), .sized(_, let child):
            collect(child)
        case .sideBySide(let pair):
            collect(pair.first)
            collect(pair.second)
        case .frames(let elements):
            for element in elements { collect(element.child) }
        case .background(let background, let child):
            for fill in [background.fill, background.highlightedFill] {
                if case .image(.field(let name))? = fill { images.insert(name) }
            }
            collect(child)
        }
    }
}

extension CellTemplate {
    /// The row fields this template's layout reads.
    public var boundFields: BoundFields { BoundFields(layout) }
}
