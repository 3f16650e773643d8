import ArgumentParser
import Foundation
import RowKitIO
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

    /// Reads the style keys of one input object; a bad value names its key, what it expects
    /// and its column.
    static func parse(_ object: JSONObject) throws(LineError) -> StyleOverrides {
        var s = StyleOverrides()
        if let member = object["weight"] {
            switch member.value {
            case .string(let text) where FontWeight(parsing: text) != nil:
                s.weight = FontWeight(parsing: text)
            case .number(let number) where number.doubleValue == number.doubleValue.rounded() && (1...1000).contains(number.doubleValue):
                s.weight = FontWeight(Int(number.doubleValue))
            default:
                throw .message("\"weight\" must be \"normal\", \"bold\" or a number 1...1000, not \(member.value.kindDescription)",
                               column: member.valuePosition.column)
            }
        }
        if let member = object["italic"] {
            switch member.value {
            case .bool(let flag): s.slant = flag ? .italic : .normal
            case .string(let text) where FontSlant(rawValue: text.lowercased()) != nil: s.slant = FontSlant(rawValue: text.lowercased())
            default:
                throw .message("\"italic\" must be true, false, \"italic\", \"oblique\" or \"normal\", not \(member.value.kindDescription)",
                               column: member.valuePosition.column)
            }
        }
        if let member = object["whiteSpace"] {
            guard case .string(let text) = member.value, let value = WhiteSpace(rawValue: text) else {
                throw .message("\"whiteSpace\" must be \"normal\" or \"pre-wrap\"", column: member.valuePosition.column)
            }
            s.whiteSpace = value
        }
        if let member = object["direction"] {
            guard case .string(let text) = member.value, let value = TextDirection(rawValue: text) else {
                throw .message("\"direction\" must be \"ltr\", \"rtl\" or \"auto\"", column: member.valuePosition.column)
            }
            s.direction = value
        }
        if let member = object["lang"] {
            guard case .string(let text) = member.value, let lang = Self.language(text) else {
                throw .message("\"lang\" must be a language tag such as \"ja\" or \"zh-Hant\" (or \"\" for none)",
                               column: member.valuePosition.column)
            }
            s.lang = .some(lang.isEmpty ? nil : lang)
        }
        if let member = object["lineHeight"] {
            switch member.value {
            case .string("normal"): s.lineHeight = .normal
            case .number(let number) where number.doubleValue.isFinite && number.doubleValue >= 0 && number.doubleValue <= 100_000:
                s.lineHeight = .pixels(number.doubleValue)
            default:
                throw .message("\"lineHeight\" must be a number in [0, 100000] or \"normal\", not \(member.value.kindDescription)",
                               column: member.valuePosition.column)
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
            throw ValidationError("--direction must be ltr, rtl or auto, not '\(shortenedForMessage(direction))'")
        }
        if let lang, StyleOverrides.language(lang) == nil {
            throw ValidationError("--lang must be a language tag such as ja or zh-Hant, not '\(shortenedForMessage(lang))'")
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
