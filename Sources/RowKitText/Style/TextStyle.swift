/// How a text looks and flows: font, size, line height, color, alignment, direction, language
/// and white-space rules.
///
/// A style is a plain value; two texts prepared with equal styles share shaped segments.
public struct TextStyle: Sendable, Hashable {
    /// Font families (a CSS `font-family` list) with weight and slant, or the path of a font file.
    public var font: FontDescriptor
    /// Font size in pixels.
    public var size: Double
    /// Distance between baselines of consecutive lines.
    public var lineHeight: LineHeight
    /// Fill color of the glyphs.
    public var color: Color
    /// Horizontal placement of each line inside the layout width.
    public var alignment: TextAlignment
    /// Base direction of the paragraph (bidi); `.auto` follows the first strong character.
    public var direction: TextDirection
    /// Whether runs of white space collapse (`.normal`) or are kept with `\n` breaking (`.preWrap`).
    public var whiteSpace: WhiteSpace
    /// Content language (a BCP 47 tag such as "ja", "zh-Hant" or "ko", as in HTML `lang`), or nil.
    /// It picks the fallback fonts (Han characters look different in Japanese, Simplified and
    /// Traditional Chinese and Korean fonts) and the CJK line-breaking rules, as a browser does.
    public var lang: String?

    /// A style; the defaults are DejaVu Sans 13 px, `line-height: normal`, black, left to right,
    /// `white-space: normal`, no content language.
    public init(font: FontDescriptor = FontDescriptor(), size: Double = 13,
                lineHeight: LineHeight = .normal, color: Color = .black,
                alignment: TextAlignment = .natural, direction: TextDirection = .ltr,
                whiteSpace: WhiteSpace = .normal, lang: String? = nil) {
        self.font = font
        self.size = size
        self.lineHeight = lineHeight
        self.color = color
        self.alignment = alignment
        self.direction = direction
        self.whiteSpace = whiteSpace
        self.lang = lang
    }
}

/// Which font to use: families looked up as a browser looks them up, or a font file.
public struct FontDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// A CSS `font-family` value: one family ("DejaVu Sans") or a list tried in order
    /// (`Foo, "Noto Sans", sans-serif`), with the CSS generic families `serif`, `sans-serif`,
    /// `monospace`, `cursive`, `fantasy`, `system-ui`, `emoji` and `math` (quoted names are
    /// family names, never generics). Ignored when `path` is set.
    public var family: String
    /// The weight asked for (the nearest face is used; bold is synthesized where a family has none).
    public var weight: FontWeight
    /// Upright, italic or oblique (CSS `font-style`).
    public var slant: FontSlant
    /// A font file (TTF/OTF/TTC) to use directly instead of a fontconfig lookup.
    public var path: String?

    /// Whether the style is italic or oblique; setting it picks italic or upright.
    public var italic: Bool {
        get { slant != .normal }
        set { slant = newValue ? .italic : .normal }
    }

    /// A family (or a CSS list of families) or, with `path`, a font file; `italic` asks for the
    /// italic slant.
    public init(family: String = "DejaVu Sans", weight: FontWeight = .regular, italic: Bool = false, path: String? = nil) {
        self.init(family: family, weight: weight, slant: italic ? .italic : .normal, path: path)
    }

    /// A family (or a CSS list of families) or, with `path`, a font file, in the given slant.
    public init(family: String, weight: FontWeight = .regular, slant: FontSlant, path: String? = nil) {
        self.family = family
        self.weight = weight
        self.slant = slant
        self.path = path
    }

    /// A descriptor for a font file.
    public static func file(_ path: String) -> FontDescriptor { FontDescriptor(family: "", path: path) }

    /// The family (or file), weight and slant, as a person would write them.
    public var description: String {
        if let path { return path }
        return "\(family) \(weight.value)\(slant == .normal ? "" : " " + slant.rawValue)"
    }
}

/// CSS `font-style`: upright, italic, or oblique (a slanted face, else the upright one slanted).
public enum FontSlant: String, Sendable, Hashable, CaseIterable {
    /// Upright, italic or oblique (CSS `font-style`; a face with that slant, else the upright face slanted).
    case normal, italic, oblique
}

/// CSS font weight, 1...1000 (400 regular, 700 bold).
public struct FontWeight: Sendable, Hashable, Comparable {
    /// The CSS weight, 1...1000 (400 regular, 700 bold).
    public let value: Int
    /// CSS `normal` (400).
    public static let regular = FontWeight(400)
    /// CSS `bold` (700).
    public static let bold = FontWeight(700)

    /// A weight, clamped to 1...1000.
    public init(_ value: Int) { self.value = min(1000, max(1, value)) }

    /// Parses "regular", "normal", "bold" or a number 1...1000; nil for anything else.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "regular", "normal": self = .regular
        case "bold": self = .bold
        default:
            guard let number = Int(text), (1...1000).contains(number) else { return nil }
            self.init(number)
        }
    }

    /// Lighter weights order first.
    public static func < (a: FontWeight, b: FontWeight) -> Bool { a.value < b.value }
}

/// Distance between baselines.
public enum LineHeight: Sendable, Hashable {
    /// The primary font's own ascent + descent + line gap at the style's size.
    case normal
    /// A fixed number of pixels.
    case pixels(Double)
}

/// Horizontal alignment of lines. `.natural` is leading for LTR paragraphs, trailing for RTL.
public enum TextAlignment: String, Sendable, Hashable, CaseIterable {
    /// Natural (by the paragraph's direction), at the leading edge, centred, at the trailing edge.
    case natural, leading, center, trailing
}

/// Paragraph base direction for bidirectional text.
public enum TextDirection: String, Sendable, Hashable, CaseIterable {
    /// Left to right, right to left, or from the first strong character (HTML `dir=auto`).
    case ltr, rtl, auto
}

/// CSS `white-space`: `.normal` collapses spaces, tabs and newlines; `.preWrap` keeps them.
public enum WhiteSpace: String, Sendable, Hashable, CaseIterable {
    /// Runs of white space collapse to one space; newlines are spaces.
    case normal
    /// White space is kept, newlines break lines, and lines still wrap.
    case preWrap = "pre-wrap"
}

/// An sRGB color with alpha, each component 0...1.
public struct Color: Sendable, Hashable {
    /// Components in 0...1 (sRGB, alpha not premultiplied).
    public var red: Double, green: Double, blue: Double, alpha: Double

    /// A color from sRGB components in 0...1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A gray level (0 black, 1 white).
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// Opaque black.
    public static let black = Color(white: 0)
    /// Opaque white.
    public static let white = Color(white: 1)
    /// Fully transparent.
    public static let clear = Color(white: 0, alpha: 0)

    /// Parses "#rgb", "#rrggbb" or "#rrggbbaa"; nil when malformed.
    public init?(hex: String) {
        var digits = Substring(hex)
        guard digits.first == "#" else { return nil }
        digits = digits.dropFirst()
        // Hex digits only: `UInt64(_:radix:)` also takes a leading sign (`#+12345` was #012345).
        guard digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        if digits.count == 3 { digits = Substring(digits.flatMap { [$0, $0] }) }
        guard digits.count == 6 || digits.count == 8, let value = UInt64(digits, radix: 16) else { return nil }
        let hasAlpha = digits.count == 8
        let rgb = hasAlpha ? value >> 8 : value
        self.init(red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
                  blue: Double(rgb & 0xFF) / 255, alpha: hasAlpha ? Double(value & 0xFF) / 255 : 1)
    }
}
