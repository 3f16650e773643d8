import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The next font id, process-wide.
private let fontIDs = Mutex<Int32>(0)

/// Finds fonts as Chromium on Linux finds them: a CSS family list resolved family by family
/// (fontconfig, with Chromium's rule for when fontconfig's answer counts as the family), the
/// browser's standard font after them, and per-character system fallback in the content
/// language. Every lookup is cached (bounded); fonts are loaded once per file and face and kept
/// for the life of the process.
public final class FontLibrary: Sendable {
    /// The process-wide library.
    public static let shared = FontLibrary()

    private struct FileKey: Hashable { var path: String; var index: Int32 }
    private struct FamilyKey: Hashable { var name: String; var weight: Int; var slant: FontSlant }
    private struct FallbackKey: Hashable { var language: String; var scalar: UInt32 }
    private struct ChainKey: Hashable { var descriptor: FontDescriptor; var script: BrowserSettings.Script }

    private struct State {
        var config: FcConfigHandle?
        var fonts: [FileKey: Font] = [:]
        /// ``separatorsAsSpaceVariant(of:)`` by the font's id (one per loaded face at most).
        var separatorVariants: [Int32: Font] = [:]
        var families: [FamilyKey: Font?] = [:]
        var chains: [ChainKey: FontChain] = [:]
        var scripts: [String: BrowserSettings.Script] = [:]
        var fallback: [FallbackKey: Font?] = [:]
        var sorted: [String: Fontconfig.FontSet] = [:]
        /// The font loaded for a candidate of a `sorted` set (its pattern lives as long as the
        /// set): a system fallback walks the same candidates for every new character, and
        /// loading one (its file, family names and the `fonts` table) cost ~8,000 instructions.
        var candidateFonts: [FcPatternHandle: Font] = [:]
        var emoji: Font??
        var systemUIFamily: String??
        /// Families already warned about (lower-cased); bounded by `warnedLimit`.
        var warned: Set<String> = []

        /// Records a warning about `family`; false when it was given before, or when
        /// `warnedLimit` families have been warned about (then nothing more is said, so a
        /// stream of made-up names can neither grow this set nor flood standard error).
        mutating func claimWarning(_ family: String) -> Bool {
            guard warned.count < FontLibrary.warnedLimit else { return false }
            return warned.insert(family).inserted
        }
    }

    private let state = Mutex(State())
    /// At most this many different families are warned about per library.
    static let warnedLimit = 256
    /// Where "family not installed" warnings go; standard error by default.
    private let warningHandler: Mutex<@Sendable (String) -> Void>

    /// A library that reports each family list with no installed family once through `warn`
    /// (standard error, as `RowKitText: warning: …`, by default).
    public init(warn: @escaping @Sendable (String) -> Void = FontLibrary.writeWarningToStandardError) {
        warningHandler = Mutex(warn)
    }

    /// Writes `RowKitText: warning: message` to standard error in one write.
    public static let writeWarningToStandardError: @Sendable (String) -> Void = { message in
        var line = "RowKitText: warning: \(message)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// Sends later "family not installed" warnings to `handler` instead (a command-line tool
    /// prefixes them with its own name).
    public func setWarningHandler(_ handler: @escaping @Sendable (String) -> Void) {
        warningHandler.withLock { $0 = handler }
    }

    /// A family name as the warnings quote it: on one line and at most 60 characters, then `…`
    /// (a 100,000-letter name, or one with a line break, would otherwise be the message, and the
    /// command cuts long messages before their advice). The command's `shortenedForMessage`
    /// (RowKitIO) does the same for its own messages; the text engine does not depend on it.
    static func quotedInMessage(_ name: String) -> String {
        var result = ""
        var count = 0
        for character in name {
            if count == 60 { return result + "…" }
            if character.isNewline {
                result += "\\n"
            } else if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                for scalar in character.unicodeScalars { result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" }
            } else {
                result.append(character)
            }
            count += 1
        }
        return result
    }

    /// The warning for a family list (CSS syntax) none of whose families is installed — "font
    /// family 'X' is not installed; using 'Y'" — or nil when one is, or when the list names a
    /// generic family. Asking counts as reporting: the library does not warn about this family
    /// again, so a loader can report it once, with the file and line it was written at.
    public func missingFamilyWarning(_ family: String) -> String? {
        state.withLock { _ = $0.claimWarning(family.lowercased()) }
        return (try? chain(for: FontDescriptor(family: family), language: nil))?.missingFamilyMessage
    }

    private func warn(_ message: String) {
        let handler = warningHandler.withLock { $0 }
        handler(message)
    }

    /// The primary font for a descriptor: the file it names, or the first family of its list
    /// that is installed (as Chromium decides it), else the browser's standard font.
    public func font(for descriptor: FontDescriptor) throws(TextError) -> Font {
        try chain(for: descriptor, language: nil).primary
    }

    /// The primary font of a style: like ``font(for:)``, with generic families and the standard
    /// font resolved for the style's content language (`serif` in Japanese is a Japanese serif).
    public func primaryFont(for style: TextStyle) throws(TextError) -> Font {
        try chain(for: style.font, language: style.lang).primary
    }

    /// The script group whose browser settings apply to a content language (cached).
    func script(for language: String?) -> BrowserSettings.Script {
        guard let language else { return .common }
        if let known = state.withLock({ $0.scripts[language] }) { return known }
        let script = BrowserSettings.script(for: language)
        state.withLock { state in
            if state.scripts.count > 1024 { state.scripts.removeAll() }
            state.scripts[language] = script
        }
        return script
    }

    /// The fonts a descriptor's text is shaped with before any system fallback, in order.
    func chain(for descriptor: FontDescriptor, language: String?) throws(TextError) -> FontChain {
        let script = self.script(for: language)
        let key = ChainKey(descriptor: descriptor, script: script)
        if let cached = state.withLock({ $0.chains[key] }) { return cached }
        let chain: FontChain
        var warning: String?
        if let path = descriptor.path {
            // Only regular files: FreeType would open a FIFO and wait for a writer forever.
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(path, R_OK) == 0 else {
                throw .fontFileUnreadable(path)
            }
            guard let loaded = state.withLock({ load(path: path, index: 0, family: path, in: &$0) }) else {
                throw .fontFileUnreadable(path)
            }
            chain = FontChain(fonts: [loaded], familyCount: 1, normalStyle: nil)
        } else {
            let list = FamilyList.parse(descriptor.family)
            guard !list.isEmpty else { throw .noFontFound(descriptor.description) }
            let weight = descriptor.weight.value, slant = descriptor.slant
            var fonts: [Font] = []
            for family in list {
                guard let font = resolve(family, weight: weight, slant: slant, script: script) else { continue }
                if !fonts.contains(where: { $0 === font }) { fonts.append(font) }
            }
            let familyCount = fonts.count
            let standardName = BrowserSettings.family(.standard, script: script)
            if let standard = resolveNamed(standardName, weight: weight, slant: slant), !fonts.contains(where: { $0 === standard }) {
                fonts.append(standard)
            }
            guard !fonts.isEmpty else { throw .noFontFound(descriptor.description) }
            // Bold or italic text falls back to the first family at normal weight and slant
            // before any system font; Chromium names that family as written, and like every
            // family lookup it tries the alternate name when that finds nothing (Helvetica →
            // Arial: Liberation Sans Regular; docs/CHROMIUM.md §2.1, §3(n)).
            var normalStyle: Font?
            if weight >= 600 || slant != .normal {
                let written = list[0].writtenName
                normalStyle = resolveNamed(written, weight: 400, slant: .normal)
                    ?? Self.alternateName(written).flatMap { resolveNamed($0, weight: 400, slant: .normal) }
            }
            let hasGeneric = list.contains { if case .generic = $0 { return true }; return false }
            var missing: String?
            if familyCount == 0 && !hasGeneric {
                missing = list.count == 1
                    ? "font family '\(Self.quotedInMessage(descriptor.family))' is not installed; using '\(fonts[0].family)'"
                    : "no family of '\(Self.quotedInMessage(descriptor.family))' is installed; using '\(fonts[0].family)'"
                let key = descriptor.family.lowercased()
                if state.withLock({ $0.claimWarning(key) }) { warning = missing }
            }
            chain = FontChain(fonts: fonts, familyCount: familyCount, normalStyle: normalStyle, missingFamilyMessage: missing)
        }
        state.withLock { state in
            if state.chains.count > 4096 { state.chains.removeAll(keepingCapacity: true) }
            state.chains[key] = chain
        }
        if let warning { warn(warning) }
        return chain
    }

    /// The color emoji font (fontconfig's "emoji" family when it has color glyphs).
    var emojiFont: Font? {
        if let cached = state.withLock({ $0.emoji }) { return cached }
        let found = resolveNamed("emoji", weight: 400, slant: .normal).flatMap { $0.hasColorGlyphs ? $0 : nil }
        state.withLock { $0.emoji = .some(found) }
        return found
    }

    /// The last font Chromium tries before giving up on a character: its last-resort family
    /// ("Sans") at the style's weight and slant.
    func lastResortFont(weight: FontWeight, slant: FontSlant) -> Font? {
        resolveNamed("Sans", weight: weight.value, slant: slant)
    }

    /// The system fallback for `scalar`, as Chromium finds it: fontconfig's list sorted for the
    /// content language (``FallbackLanguage``), independent of the requested family and weight;
    /// the first scalable TrueType/CFF font whose charset has the character. Nil when none has it.
    func systemFallback(for scalar: UInt32, language: String) -> Font? {
        state.withLock { state in
            let key = FallbackKey(language: language, scalar: scalar)
            if let cached = state.fallback[key] { return cached }
            let found = systemMatch(scalar, language: language, in: &state)
            if state.fallback.count > 65_536 { state.fallback.removeAll(keepingCapacity: true) }
            state.fallback[key] = .some(found)
            return found
        }
    }

    // MARK: family resolution

    /// A family of a CSS list as Chromium resolves it: generics through the browser's settings,
    /// a name through fontconfig, then through Chromium's alternate name (Arial ↔ Helvetica,
    /// Times ↔ Times New Roman, Courier ↔ Courier New).
    private func resolve(_ family: FamilyName, weight: Int, slant: FontSlant, script: BrowserSettings.Script) -> Font? {
        var name = family.browserName(script: script)
        if case .generic(.systemUI) = family {
            guard let system = systemUIFamily() else { return nil }
            name = system
        }
        if let font = resolveNamed(name, weight: weight, slant: slant) { return font }
        if let alternate = Self.alternateName(name) { return resolveNamed(alternate, weight: weight, slant: slant) }
        return nil
    }

    static func alternateName(_ name: String) -> String? {
        switch name.lowercased() {
        case "courier": return "Courier New"
        case "courier new": return "Courier"
        case "times": return "Times New Roman"
        case "times new roman": return "Times"
        case "arial": return "Helvetica"
        case "helvetica": return "Arial"
        default: return nil
        }
    }

    /// The system UI family (CSS `system-ui`): the family fontconfig gives for no family at all.
    private func systemUIFamily() -> String? {
        if let cached = state.withLock({ $0.systemUIFamily }) { return cached }
        let name = state.withLock { state -> String? in
            guard let config = configuration(&state) else { return nil }
            guard let match = Fontconfig.defaultMatch(config) else { return nil }
            defer { Fontconfig.destroy(match) }
            return Fontconfig.families(of: match).first
        }
        state.withLock { $0.systemUIFamily = .some(name) }
        return name
    }

    /// One family name at a weight and slant, or nil when it is not installed as Chromium sees it.
    func resolveNamed(_ name: String, weight: Int, slant: FontSlant) -> Font? {
        let key = FamilyKey(name: name.lowercased(), weight: weight, slant: slant)
        return state.withLock { state in
            if let cached = state.families[key] { return cached }
            let found = matchFamily(name, weight: weight, slant: slant, in: &state)
            if state.families.count > 4096 { state.families.removeAll(keepingCapacity: true) }
            state.families[key] = .some(found)
            return found
        }
    }

    // MARK: fontconfig (always called with the lock held)

    private func configuration(_ state: inout State) -> FcConfigHandle? {
        if state.config == nil { state.config = Fontconfig.loadConfiguration() }
        return state.config
    }

    private func load(path: String, index: Int32, family: String, in state: inout State) -> Font? {
        let key = FileKey(path: path, index: index)
        if let font = state.fonts[key] { return font }
        guard let font = Font(id: Self.nextFontID(), path: path, faceIndex: index, family: family) else { return nil }
        state.fonts[key] = font
        return font
    }

    /// A new font id: ids are unique across every library in the process (the shape cache is shared).
    private static func nextFontID() -> Int32 {
        fontIDs.withLock { next -> Int32 in
            defer { next += 1 }
            return next
        }
    }

    /// The same face as `font`, drawing U+2028 and U+2029 with its space glyph even where the
    /// face has glyphs of its own: Chromium shows a separator that follows text of a fallback
    /// font in its shaping item so (docs/CHROMIUM.md §3(m)). Made once per face, kept for the life
    /// of the process like the face; `font` itself when it already is the variant.
    func separatorsAsSpaceVariant(of font: Font) -> Font {
        if font.drawsSeparatorsAsSpace { return font }
        return state.withLock { state in
            if let known = state.separatorVariants[font.id] { return known }
            guard let variant = Font(id: Self.nextFontID(), path: font.path, faceIndex: font.faceIndex, family: font.family,
                                     drawsSeparatorsAsSpace: true) else { return font }
            state.separatorVariants[font.id] = variant
            return variant
        }
    }

    /// Loads the font a fontconfig result pattern names.
    private func font(from match: FcPatternHandle, in state: inout State) -> Font? {
        guard let file = Fontconfig.file(of: match) else { return nil }
        return load(path: file.path, index: file.index, family: Fontconfig.families(of: match).first ?? "", in: &state)
    }

    /// Chromium's (Skia's) family match: sort fontconfig's fonts for the family, weight, normal
    /// width and slant; take the first usable one; accept it only if one of its family names is
    /// the first family of the substituted pattern or the requested name, or both are of one
    /// metric-compatible class (Arial/Liberation Sans…) — except for "sans", "serif" and
    /// "monospace", which accept whatever fontconfig gives. So "Noto Sans Mono" (not installed)
    /// is rejected although fontconfig would answer DejaVu Sans Mono.
    private func matchFamily(_ name: String, weight: Int, slant: FontSlant, in state: inout State) -> Font? {
        guard let config = configuration(&state), !name.isEmpty, name.utf8.count <= 2048 else { return nil }
        guard let (set, afterConfig) = Fontconfig.sortFamily(config, name: name, weight: weight, slant: slant) else { return nil }
        defer { set.destroy() }
        var match: FcPatternHandle?
        for i in 0..<set.count {
            if let candidate = set[i], Fontconfig.isUsable(candidate) { match = candidate; break }
        }
        guard let match else { return nil }
        if !Self.acceptsAnything(name) {
            let accepted = Fontconfig.families(of: match).contains { found in
                found.caseInsensitiveEquals(afterConfig) || found.caseInsensitiveEquals(name)
                    || Self.metricCompatible(name, found)
            }
            guard accepted else { return nil }
        }
        return font(from: match, in: &state)
    }

    /// Names for which Chromium takes whatever fontconfig gives (its "fallback allowed" names).
    static func acceptsAnything(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower == "sans" || lower == "serif" || lower == "monospace"
    }

    /// Families Chromium treats as interchangeable (metric-compatible), by class.
    private static let metricClasses: [String: Int] = [
        "arial": 1, "arimo": 1, "liberation sans": 1,
        "times new roman": 2, "tinos": 2, "liberation serif": 2,
        "courier new": 3, "cousine": 3, "liberation mono": 3,
        "symbol": 4, "symbol neu": 4,
        "ms pgothic": 5, "ｍｓ ｐゴシック": 5, "noto sans cjk jp": 5, "ipapgothic": 5, "motoyag04gothic": 5,
        "ms gothic": 6, "ｍｓ ゴシック": 6, "noto sans mono cjk jp": 6, "ipagothic": 6, "motoyag04gothicmono": 6,
        "ms pmincho": 7, "ｍｓ ｐ明朝": 7, "noto serif cjk jp": 7, "ipapmincho": 7, "motoyag04mincho": 7,
        "ms mincho": 8, "ｍｓ 明朝": 8, "ipamincho": 8, "motoyag04minchomono": 8,
        "simsun": 9, "宋体": 9, "noto serif cjk sc": 9, "msung gb18030": 9, "song asc": 9,
        "simhei": 10, "黑体": 10, "noto sans cjk sc": 10, "myingheigb18030": 10, "myingheib5hk": 10,
        "pmingliu": 11, "新細明體": 11, "noto serif cjk tc": 11, "msung b5hk": 11,
        "cambria": 12, "caladea": 12, "calibri": 13, "carlito": 13,
    ]

    static func metricCompatible(_ a: String, _ b: String) -> Bool {
        guard let ca = metricClasses[a.lowercased()], let cb = metricClasses[b.lowercased()] else { return false }
        return ca == cb
    }

    private func systemMatch(_ scalar: UInt32, language: String, in state: inout State) -> Font? {
        guard let config = configuration(&state) else { return nil }
        if state.sorted[language] == nil {
            if state.sorted.count >= 64 {
                for set in state.sorted.values { set.destroy() }
                state.sorted.removeAll()
                state.candidateFonts.removeAll()
            }
            guard let set = Fontconfig.sortLanguage(config, language: language) else { return nil }
            state.sorted[language] = set
        }
        guard let sorted = state.sorted[language] else { return nil }
        for i in 0..<sorted.count {
            guard let candidate = sorted[i],
                  Fontconfig.hasCharacter(candidate, scalar), Fontconfig.isUsable(candidate) else { continue }
            let font: Font
            if let known = state.candidateFonts[candidate] {
                font = known
            } else {
                guard let loaded = self.font(from: candidate, in: &state) else { continue }
                state.candidateFonts[candidate] = loaded
                font = loaded
            }
            if font.covers(scalar) { return font }
        }
        return nil
    }
}

/// The fonts a style's text is shaped with before system fallback: the installed families of
/// its list, then the standard font; the first one is the primary font.
final class FontChain: Sendable {
    let fonts: [Font]
    /// How many of `fonts` come from the family list (the rest is the standard font).
    let familyCount: Int
    /// For bold or italic styles, the first family at normal weight and slant (if installed).
    let normalStyle: Font?
    /// "font family 'X' is not installed; using 'Y'" when no family of the list is installed
    /// and it names no generic family.
    let missingFamilyMessage: String?
    var primary: Font { fonts[0] }

    init(fonts: [Font], familyCount: Int, normalStyle: Font?, missingFamilyMessage: String? = nil) {
        self.fonts = fonts
        self.familyCount = familyCount
        self.normalStyle = normalStyle
        self.missingFamilyMessage = missingFamilyMessage
    }
}

/// The fontconfig language Chromium's system fallback sorts fonts for, from the content
/// language (docs/CHROMIUM.md §2.3); no language is the browser's en-US.
/// - For a Han ideograph (`han`), Chinese is disambiguated as Blink's `LocaleForHan` does:
///   Simplified ("zh-cn") or, with Hant or a TW/HK/MO region, Traditional ("zh-tw"; measured:
///   zh-HK gets the TC font, not HK).
/// - For every other character, Chinese goes to fontconfig as written, lowercased: "zh-Hans" is
///   "zh-hans", which no fontconfig rule knows, so `x` takes Noto Sans, not Noto Sans CJK SC
///   (measured with a cluster only Noto Sans renders, `x\u{305}` bold: zh-Hans, zh-Hant, zh,
///   zh-Hans-CN and yue like en; zh-CN, zh-TW, zh-HK, zh-SG take a CJK font).
/// - Other languages: the language and a two-letter region.
enum FallbackLanguage {
    static func fontconfigLanguage(for lang: String?, han: Bool) -> String {
        guard let lang, !lang.isEmpty else { return "en-us" }
        let subtags = lang.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let primary = subtags.first else { return "en-us" }
        if primary == "zh" || primary == "yue" {
            guard han else { return subtags.joined(separator: "-") }
            let traditional = primary == "yue" || subtags.dropFirst().contains { ["hant", "tw", "hk", "mo"].contains($0) }
            return traditional ? "zh-tw" : "zh-cn"
        }
        // fontconfig's language tags: a language and an optional region.
        if subtags.count > 1, subtags[1].count == 2 { return primary + "-" + subtags[1] }
        return primary
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        self.count == other.count && self.lowercased() == other.lowercased()
    }
}
