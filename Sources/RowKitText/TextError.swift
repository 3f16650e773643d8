/// What can go wrong while preparing or laying out text. Messages name the offending value.
public enum TextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A font file path that does not exist, is not a regular file (a FIFO, a device) or is not a font.
    case fontFileUnreadable(String)
    /// fontconfig found no font at all for a descriptor (no fonts installed).
    case noFontFound(String)
    /// A size, line height, width or line limit out of range: NaN, negative, zero where a
    /// positive number is needed, absurdly large, or infinite (except a width: `.infinity`
    /// lays out one line per paragraph).
    case invalidNumber(name: String, value: Double)
    /// The text is longer than the engine's limit (UTF-16 offsets are 32-bit).
    case textTooLong(length: Int)
    /// ICU failed to analyse the text.
    case unicodeAnalysisFailed(String)

    /// What each number the engine checks may be, for the messages.
    private static let allowed: [String: String] = [
        "font size": "more than 0 and at most 10,000 px",
        "line height": "0 to 100,000 px",
        "width": "0 or more; .infinity lays out one line per paragraph",
        "maxLines": "1 or more",
    ]

    /// What went wrong, naming the value or file, for people.
    public var description: String {
        switch self {
        case .fontFileUnreadable(let path): return "cannot read font file '\(path)'"
        case .noFontFound(let font): return "no installed font matches '\(font)'"
        case .invalidNumber(let name, let value):
            // Whole numbers without ".0" (a line limit is an integer), and what is allowed.
            let shown = value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
            return "invalid \(name): \(shown)" + (Self.allowed[name].map { " (\($0))" } ?? "")
        case .textTooLong(let length): return "text too long: \(length) UTF-16 units (limit \(PreparedText.maximumLength))"
        case .unicodeAnalysisFailed(let what): return "ICU failed: \(what)"
        }
    }
}
