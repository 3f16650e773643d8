import ArgumentParser
import Foundation
import RowKitText

/// The style keys of `measure` and `draw`: per input line (JSON) and as command-line flags.
///
/// An input line is a JSON string or an object with "text" and any of "font", "size", "width"
/// and the style keys below; a key on a line wins over the flag.
///
/// | key | values | flag |
/// | --- | --- | --- |
/// | `weight` | `"normal"`, `"regular"`, `"bold"`, or a number 1...1000 | `--weight` |
/// | `italic` | `true`, `false`, `"italic"`, `"oblique"`, `"normal"` | `--italic`, `--oblique` |
/// | `whiteSpace` | `"normal"`, `"pre-wrap"` | `--white-space` |
/// | `direction` | `"ltr"`, `"rtl"`, `"auto"` | `--direction` |
/// | `lang` | a BCP 47 tag (`"ja"`, `"zh-Hant"`, `"ko"`…), `""` for none | `--lang` |
/// | `lineHeight` | pixels, or `"normal"` | `--line-height` |
struct StyleOverrides: Equatable {
    var weight: FontWeight?
    var slant: FontSlant?
    var whiteSpace: WhiteSpace?
    var direction: TextDirection?
    /// `.some(nil)`: the line says "no language" (`""`), overriding `--lang`.
    var lang: String??
    var lineHeight: LineHeight?

    static let keys: Set<String> = ["weight", "italic", "whiteSpace", "direction", "lang", "lineHeight"]

    /// Reads the style keys of one input object; a bad value names its key and what it expects.
    static func parse(_ object: [String: Any]) throws(LineError) -> StyleOverrides {
        var s = StyleOverrides()
        if let raw = object["weight"] {
            if let text = raw as? String, let weight = FontWeight(parsing: text) {
                s.weight = weight
            } else if let number = Self.number(raw), number == number.rounded(), (1...1000).contains(number) {
                s.weight = FontWeight(Int(number))
            } else {
                throw .message("\"weight\" must be \"normal\", \"bold\" or a number 1...1000")
            }
        }
        if let raw = object["italic"] {
            if Self.isBool(raw), let flag = raw as? Bool {
                s.slant = flag ? .italic : .normal
            } else if let text = raw as? String, let slant = FontSlant(rawValue: text.lowercased()) {
                s.slant = slant
            } else {
                throw .message("\"italic\" must be true, false, \"italic\", \"oblique\" or \"normal\"")
            }
        }
        if let raw = object["whiteSpace"] {
            guard let text = raw as? String, let value = WhiteSpace(rawValue: text) else {
                throw .message("\"whiteSpace\" must be \"normal\" or \"pre-wrap\"")
            }
            s.whiteSpace = value
        }
        if let raw = object["direction"] {
            guard let text = raw as? String, let value = TextDirection(rawValue: text) else {
                throw .message("\"direction\" must be \"ltr\", \"rtl\" or \"auto\"")
            }
            s.direction = value
        }
        if let raw = object["lang"] {
            guard let text = raw as? String, let lang = Self.language(text) else {
                throw .message("\"lang\" must be a language tag such as \"ja\" or \"zh-Hant\" (or \"\" for none)")
            }
            s.lang = .some(lang.isEmpty ? nil : lang)
        }
        if let raw = object["lineHeight"] {
            if let text = raw as? String, text == "normal" {
                s.lineHeight = .normal
            } else if let number = Self.number(raw), number.isFinite, number >= 0, number <= 100_000 {
                s.lineHeight = .pixels(number)
            } else {
                throw .message("\"lineHeight\" must be a number in [0, 100000] or \"normal\"")
            }
        }
        return s
    }

    /// Applies the keys that are set to `style`.
    func apply(to style: inout TextStyle) {
        if let weight { style.font.weight = weight }
        if let slant { style.font.slant = slant }
        if let whiteSpace { style.whiteSpace = whiteSpace }
        if let direction { style.direction = direction }
        if let lang { style.lang = lang }
        if let lineHeight { style.lineHeight = lineHeight }
    }

    /// A JSON number (not a boolean), as a Double.
    static func number(_ raw: Any) -> Double? {
        guard !isBool(raw), let number = raw as? NSNumber else { return nil }
        return number.doubleValue
    }

    /// Whether a JSONSerialization value is `true` or `false` (a boolean NSNumber, whose class
    /// differs from a number's; `is Bool` also holds for the numbers 0 and 1).
    static func isBool(_ raw: Any) -> Bool {
        type(of: raw) == booleanType
    }

    private static let booleanType = type(of: NSNumber(value: true))

    /// A BCP 47-like tag (letters, digits, `-`/`_`, at most 64 characters), or "" for none.
    static func language(_ text: String) -> String? {
        if text.isEmpty { return "" }
        guard text.utf8.count <= 64, text.first?.isLetter == true,
              text.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
        else { return nil }
        return text
    }
}

/// `--line-height`: pixels or `normal`.
enum LineHeightArgument: ExpressibleByArgument, Equatable {
    case normal
    case pixels(Double)

    init?(argument: String) {
        if argument == "normal" { self = .normal; return }
        guard let value = Double(argument), value.isFinite, value >= 0, value <= 100_000 else { return nil }
        self = .pixels(value)
    }

    var lineHeight: LineHeight {
        switch self {
        case .normal: return .normal
        case .pixels(let px): return .pixels(px)
        }
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// The style flags `TextOptions` does not have itself.
struct StyleFlags: ParsableArguments {
    @Flag(help: "Italic (a slanted face, else the upright face slanted).")
    var italic = false

    @Flag(help: "Oblique (like --italic, but prefers an oblique face).")
    var oblique = false

    @Option(help: "Paragraph direction: ltr, rtl or auto (first strong character). Default: ltr for measure, auto for draw.")
    var direction: String?

    @Option(help: "Content language, a BCP 47 tag such as ja, zh-Hans, zh-Hant or ko: picks CJK fonts and line-breaking rules.")
    var lang: String?

    func validate() throws {
        if italic && oblique { throw ValidationError("give --italic or --oblique, not both") }
        if let direction, TextDirection(rawValue: direction) == nil {
            throw ValidationError("--direction must be ltr, rtl or auto, not '\(direction)'")
        }
        if let lang, StyleOverrides.language(lang) == nil {
            throw ValidationError("--lang must be a language tag such as ja or zh-Hant, not '\(lang)'")
        }
    }

    /// Applies the flags that were given to `style`.
    func apply(to style: inout TextStyle) {
        if italic { style.font.slant = .italic }
        if oblique { style.font.slant = .oblique }
        if let direction, let value = TextDirection(rawValue: direction) { style.direction = value }
        if let lang, !lang.isEmpty { style.lang = lang }
    }
}
