/// One entry of a CSS `font-family` list.
enum FamilyName: Hashable, Sendable {
    /// A family name, quoted or not ("DejaVu Sans", `Foo Bar`).
    case named(String)
    /// A CSS generic family keyword (unquoted).
    case generic(GenericFamily)

    /// What the browser asks the system for: a family name, or for generics the family its
    /// settings name for the content's script (Chromium on Linux, measured: docs/CHROMIUM.md §2.0).
    func browserName(script: BrowserSettings.Script) -> String {
        switch self {
        case .named(let name): return name
        case .generic(let generic): return generic.browserName(script: script)
        }
    }

    /// The name as written, which Chromium hands to fontconfig raw when it falls back to the
    /// first family at normal weight (`serif` bold → fontconfig's "serif", Noto Serif).
    var writtenName: String {
        switch self {
        case .named(let name): return name
        case .generic(let generic): return generic.rawValue
        }
    }
}

/// The CSS generic families Chromium maps to a configured family on Linux. Other generic
/// keywords (`ui-serif`, `math`, `fangsong`, `emoji`…) are looked up by their name, which finds
/// nothing, or for `emoji` fontconfig's emoji font — exactly what Chromium does with them.
enum GenericFamily: String, Sendable, CaseIterable {
    case serif, sansSerif = "sans-serif", monospace, cursive, fantasy, systemUI = "system-ui"

    /// The family Chromium's settings name for this generic in `script` (``BrowserSettings``);
    /// system-ui is the system UI font (resolved by the library).
    func browserName(script: BrowserSettings.Script) -> String {
        switch self {
        case .serif: return BrowserSettings.family(.serif, script: script)
        case .sansSerif: return BrowserSettings.family(.sansSerif, script: script)
        case .monospace: return BrowserSettings.family(.monospace, script: script)
        case .cursive: return BrowserSettings.family(.cursive, script: script)
        case .fantasy: return BrowserSettings.family(.fantasy, script: script)
        case .systemUI: return "system-ui"
        }
    }
}

enum FamilyList {
    /// Parses a CSS `font-family` value: names separated by commas; a quoted name ('…' or "…",
    /// with backslash escapes) is always a family name; an unquoted one is a run of words joined
    /// by single spaces, and a generic family when it is one generic keyword (ASCII case-
    /// insensitive). Empty entries are dropped.
    static func parse(_ css: String) -> [FamilyName] {
        var result: [FamilyName] = []
        var scalars = Array(css.unicodeScalars)[...]
        func skipSpaces() { while let c = scalars.first, isSpace(c) { scalars.removeFirst() } }
        while !scalars.isEmpty {
            skipSpaces()
            guard let first = scalars.first else { break }
            if first == "\"" || first == "'" {
                scalars.removeFirst()
                var name = String.UnicodeScalarView()
                while let c = scalars.popFirst(), c != first {
                    if c == "\\", let next = scalars.popFirst() { name.append(next) } else { name.append(c) }
                }
                if !name.isEmpty { result.append(.named(String(name))) }
                // Anything between the closing quote and the comma is invalid CSS; skip it.
                while let c = scalars.first, c != "," { scalars.removeFirst() }
            } else {
                var words: [String] = []
                var word = String.UnicodeScalarView()
                while let c = scalars.first, c != "," {
                    scalars.removeFirst()
                    if isSpace(c) {
                        if !word.isEmpty { words.append(String(word)); word = String.UnicodeScalarView() }
                    } else if c == "\\", let next = scalars.popFirst() {
                        word.append(next)
                    } else {
                        word.append(c)
                    }
                }
                if !word.isEmpty { words.append(String(word)) }
                if words.count == 1, let generic = GenericFamily(rawValue: words[0].lowercased()) {
                    result.append(.generic(generic))
                } else if !words.isEmpty {
                    result.append(.named(words.joined(separator: " ")))
                }
            }
            if scalars.first == "," { scalars.removeFirst() }
        }
        return result
    }

    private static func isSpace(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}"
    }
}
