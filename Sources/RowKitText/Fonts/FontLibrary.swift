import CFontconfig
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The next font id, process-wide.
private let fontIDs = Mutex<Int32>(0)

/// Finds fonts through fontconfig (by family, weight and slant, or by file) and picks fallback
/// fonts for characters the primary font lacks. Every lookup is cached; fonts are loaded once
/// per file and face and kept for the life of the process.
public final class FontLibrary: Sendable {
    /// The process-wide library.
    public static let shared = FontLibrary()

    private struct FileKey: Hashable { var path: String; var index: Int32 }

    private struct State {
        var config: OpaquePointer?
        var fonts: [FileKey: Font] = [:]
        var primary: [FontDescriptor: Font] = [:]
        var fallback: [UInt32: Font?] = [:]
        var emoji: Font??
        var systemSorted: UnsafeMutablePointer<FcFontSet>?
        var warned: Set<String> = []
    }

    private let state = Mutex(State())
    /// Where "family not installed" warnings go; stderr by default.
    private let warn: @Sendable (String) -> Void

    /// A library that reports each missing family once through `warn` (stderr by default).
    public init(warn: @escaping @Sendable (String) -> Void = { message in
        var line = "rowkit: warning: \(message)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }) {
        self.warn = warn
    }

    /// The font for a descriptor: the file it names, or fontconfig's best match for its family,
    /// weight and slant. A family that is not installed falls back to fontconfig's match, with
    /// one warning per family.
    public func font(for descriptor: FontDescriptor) throws(TextError) -> Font {
        try font(for: descriptor, warnIfMissing: true)
    }

    private func font(for descriptor: FontDescriptor, warnIfMissing: Bool) throws(TextError) -> Font {
        if let cached = state.withLock({ $0.primary[descriptor] }) { return cached }
        let font: Font
        var warning: String?
        if let path = descriptor.path {
            guard access(path, R_OK) == 0 else { throw .fontFileUnreadable(path) }
            guard let loaded = state.withLock({ load(path: path, index: 0, family: path, in: &$0) }) else {
                throw .fontFileUnreadable(path)
            }
            font = loaded
        } else {
            guard !descriptor.family.isEmpty else { throw .noFontFound(descriptor.description) }
            let family = FontDescriptor.browserFamily(for: descriptor.family)
            let result = state.withLock { state -> (Font?, String?) in
                guard let match = match(family: family, weight: descriptor.weight, italic: descriptor.italic, in: &state) else {
                    return (nil, nil)
                }
                let resolved = !match.families.isEmpty || family != descriptor.family
                var note: String?
                if !resolved, warnIfMissing, state.warned.insert(descriptor.family.lowercased()).inserted {
                    note = "font family '\(descriptor.family)' is not installed; using '\(match.font.family)'"
                }
                return (match.font, note)
            }
            guard let matched = result.0 else { throw .noFontFound(descriptor.description) }
            font = matched
            warning = result.1
        }
        state.withLock { $0.primary[descriptor] = font }
        if let warning { warn(warning) }
        return font
    }

    /// The browser's standard font, the second link of every fallback chain: what fontconfig
    /// gives for "Times New Roman" (Chromium's default standard family on Linux; usually
    /// Liberation Serif) at the requested weight and slant.
    func standardFont(weight: FontWeight, italic: Bool) -> Font? {
        try? font(for: FontDescriptor(family: "Times New Roman", weight: weight, italic: italic), warnIfMissing: false)
    }

    /// The color emoji font (fontconfig's "emoji" family when it has color glyphs).
    var emojiFont: Font? {
        if let cached = state.withLock({ $0.emoji }) { return cached }
        let found = (try? font(for: FontDescriptor(family: "emoji"), warnIfMissing: false)).flatMap { $0.hasColorGlyphs ? $0 : nil }
        state.withLock { $0.emoji = .some(found) }
        return found
    }

    /// The system fallback for `scalar`, as Chromium finds it: fontconfig's sorted list for
    /// `lang=en-us, scalable` (independent of the requested family and weight), first font
    /// whose charset has the character. Nil when no installed font has it.
    func systemFallback(for scalar: UInt32) -> Font? {
        state.withLock { state in
            if let cached = state.fallback[scalar] { return cached }
            let found = systemMatch(scalar, in: &state)
            if state.fallback.count > 65_536 { state.fallback.removeAll(keepingCapacity: true) }
            state.fallback[scalar] = .some(found)
            return found
        }
    }

    // MARK: fontconfig (always called with the lock held)

    private func configuration(_ state: inout State) -> OpaquePointer? {
        if state.config == nil { state.config = FcInitLoadConfigAndFonts() }
        return state.config
    }

    private func load(path: String, index: Int32, family: String, in state: inout State) -> Font? {
        let key = FileKey(path: path, index: index)
        if let font = state.fonts[key] { return font }
        // Ids are unique across every library in the process: the shape cache is shared.
        let id = fontIDs.withLock { next -> Int32 in
            defer { next += 1 }
            return next
        }
        guard let font = Font(id: id, path: path, faceIndex: index, family: family) else { return nil }
        state.fonts[key] = font
        return font
    }

    private func pattern(weight: FontWeight, italic: Bool) -> OpaquePointer {
        let pattern = FcPatternCreate()!
        FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(weight.value)))
        FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        return pattern
    }

    private func families(of pattern: OpaquePointer) -> [String] {
        var names: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        var n: Int32 = 0
        while FcPatternGetString(pattern, FC_FAMILY, n, &value) == FcResultMatch, let value {
            names.append(String(cString: value))
            n += 1
        }
        return names
    }

    /// Loads the font a fontconfig result pattern names.
    private func font(from match: OpaquePointer, in state: inout State) -> Font? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(match, FC_INDEX, 0, &index)
        return load(path: String(cString: file), index: index, family: families(of: match).first ?? "", in: &state)
    }

    private func match(family: String, weight: FontWeight, italic: Bool, in state: inout State) -> (font: Font, families: [String])? {
        guard let config = configuration(&state) else { return nil }
        let request = pattern(weight: weight, italic: italic)
        defer { FcPatternDestroy(request) }
        FcPatternAddString(request, FC_FAMILY, family)
        FcConfigSubstitute(config, request, FcMatchPattern)
        FcDefaultSubstitute(request)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, request, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        guard let font = font(from: match, in: &state) else { return nil }
        // The family counts as installed when the match is the family itself or one of its
        // strong aliases ("Arial" → Liberation Sans), not one of the weak defaults fontconfig
        // appends for any unknown name.
        let strong = Set(strongFamilies(of: request).map { $0.lowercased() })
        return (font, families(of: match).filter { strong.contains($0.lowercased()) })
    }

    /// Families of a substituted pattern bound strongly (the request and its aliases).
    private func strongFamilies(of pattern: OpaquePointer) -> [String] {
        var iterator = FcPatternIter()
        guard FcPatternFindIter(pattern, &iterator, FC_FAMILY) != 0 else { return [] }
        var names: [String] = []
        var id: Int32 = 0
        var value = FcValue()
        var binding = FcValueBindingWeak
        while FcPatternIterGetValue(pattern, &iterator, id, &value, &binding) == FcResultMatch {
            if binding != FcValueBindingWeak, value.type == FcTypeString, let text = value.u.s {
                names.append(String(cString: text))
            }
            id += 1
        }
        return names
    }

    private func systemMatch(_ scalar: UInt32, in state: inout State) -> Font? {
        guard let config = configuration(&state) else { return nil }
        if state.systemSorted == nil {
            let request = FcPatternCreate()!
            defer { FcPatternDestroy(request) }
            FcPatternAddString(request, FC_LANG, "en-us")
            FcPatternAddBool(request, FC_SCALABLE, 1)
            FcConfigSubstitute(config, request, FcMatchPattern)
            FcDefaultSubstitute(request)
            var result = FcResultNoMatch
            state.systemSorted = FcFontSort(config, request, 0, nil, &result)
        }
        guard let sorted = state.systemSorted else { return nil }
        let set = sorted.pointee
        for i in 0..<Int(set.nfont) {
            guard let candidate = set.fonts[i] else { continue }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(candidate, FC_CHARSET, 0, &charset) == FcResultMatch,
                  FcCharSetHasChar(charset, scalar) != 0 else { continue }
            if let font = font(from: candidate, in: &state), font.covers(scalar) { return font }
        }
        return nil
    }
}

extension FontDescriptor {
    /// CSS generic families, named as Chromium's Linux defaults name them (then resolved by
    /// fontconfig): sans-serif is Arial (Liberation Sans), serif Times New Roman (Liberation
    /// Serif), monospace fontconfig's Monospace.
    static func browserFamily(for family: String) -> String {
        switch family.lowercased() {
        case "sans-serif", "system-ui": return "Arial"
        case "serif": return "Times New Roman"
        case "monospace": return "Monospace"
        default: return family
        }
    }
}
