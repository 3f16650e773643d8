import CFontconfig

#if canImport(Glibc)
import Glibc
#endif

// The only door from RowKitText to fontconfig: the few requests ``FontLibrary`` makes and the
// properties it reads from their answers. Nothing else in the module imports CFontconfig.

/// A fontconfig configuration (`FcConfig *`).
typealias FcConfigHandle = OpaquePointer
/// A fontconfig pattern (`FcPattern *`): a request or one font of an answer.
typealias FcPatternHandle = OpaquePointer

enum Fontconfig {
    /// Fontconfig's configuration with its fonts loaded, nil when it cannot be loaded.
    static func loadConfiguration() -> FcConfigHandle? { FcInitLoadConfigAndFonts() }

    /// The font fontconfig matches for an empty request (no family at all); release it with
    /// ``destroy(_:)``.
    static func defaultMatch(_ config: FcConfigHandle) -> FcPatternHandle? {
        let request = FcPatternCreate()!
        defer { FcPatternDestroy(request) }
        FcConfigSubstitute(config, request, FcMatchPattern)
        FcDefaultSubstitute(request)
        var result = FcResultNoMatch
        return FcFontMatch(config, request, &result)
    }

    /// Fontconfig's fonts sorted for a family at an OpenType weight, normal width and `slant`,
    /// scalable, and the first family of the substituted request ("" when none); nil when
    /// fontconfig has no answer. Release the set with ``FontSet/destroy()``.
    static func sortFamily(_ config: FcConfigHandle, name: String, weight: Int, slant: FontSlant) -> (set: FontSet, afterConfig: String)? {
        let request = FcPatternCreate()!
        defer { FcPatternDestroy(request) }
        FcPatternAddString(request, FC_FAMILY, name)
        FcPatternAddInteger(request, FC_WEIGHT, FcWeightFromOpenType(Int32(weight)))
        FcPatternAddInteger(request, FC_WIDTH, FC_WIDTH_NORMAL)
        FcPatternAddInteger(request, FC_SLANT, slant == .normal ? FC_SLANT_ROMAN : slant == .italic ? FC_SLANT_ITALIC : FC_SLANT_OBLIQUE)
        FcPatternAddBool(request, FC_SCALABLE, 1)
        FcConfigSubstitute(config, request, FcMatchPattern)
        FcDefaultSubstitute(request)
        var postConfig: UnsafeMutablePointer<FcChar8>?
        let afterConfig = FcPatternGetString(request, FC_FAMILY, 0, &postConfig) == FcResultMatch && postConfig != nil
            ? String(cString: postConfig!) : ""
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, request, 0, nil, &result) else { return nil }
        return (FontSet(set), afterConfig)
    }

    /// Fontconfig's scalable fonts sorted for a fontconfig language tag; nil when fontconfig
    /// has no answer. Release the set with ``FontSet/destroy()``.
    static func sortLanguage(_ config: FcConfigHandle, language: String) -> FontSet? {
        let request = FcPatternCreate()!
        defer { FcPatternDestroy(request) }
        FcPatternAddString(request, FC_LANG, language)
        FcPatternAddBool(request, FC_SCALABLE, 1)
        FcConfigSubstitute(config, request, FcMatchPattern)
        FcDefaultSubstitute(request)
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, request, 0, nil, &result) else { return nil }
        return FontSet(set)
    }

    /// A sorted list of fonts (`FcFontSet *`), owned by whoever asked for it.
    struct FontSet {
        private let pointer: UnsafeMutablePointer<FcFontSet>

        fileprivate init(_ pointer: UnsafeMutablePointer<FcFontSet>) { self.pointer = pointer }

        var count: Int { Int(pointer.pointee.nfont) }
        /// The `i`-th font, best first.
        subscript(i: Int) -> FcPatternHandle? { pointer.pointee.fonts[i] }
        func destroy() { FcFontSetDestroy(pointer) }
    }

    /// Releases a pattern from ``defaultMatch(_:)``.
    static func destroy(_ pattern: FcPatternHandle) { FcPatternDestroy(pattern) }

    /// Every family name a font declares, in fontconfig's order.
    static func families(of pattern: FcPatternHandle) -> [String] {
        var names: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        var n: Int32 = 0
        while FcPatternGetString(pattern, FC_FAMILY, n, &value) == FcResultMatch, let value {
            names.append(String(cString: value))
            n += 1
        }
        return names
    }

    /// The font's file and face index (0 when it has none), nil without a file.
    static func file(of pattern: FcPatternHandle) -> (path: String, index: Int32)? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
        return (String(cString: file), index)
    }

    /// A font Chromium can use: scalable, TrueType or CFF, and readable.
    static func isUsable(_ pattern: FcPatternHandle) -> Bool {
        var scalable: FcBool = 0
        guard FcPatternGetBool(pattern, FC_SCALABLE, 0, &scalable) == FcResultMatch, scalable != 0 else { return false }
        var format: UnsafeMutablePointer<FcChar8>?
        if FcPatternGetString(pattern, FC_FONTFORMAT, 0, &format) == FcResultMatch, let format {
            let name = String(cString: format)
            guard name == "TrueType" || name == "CFF" else { return false }
        }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { return false }
        return access(file, R_OK) == 0
    }

    /// Whether the font's character set holds `scalar`.
    static func hasCharacter(_ pattern: FcPatternHandle, _ scalar: UInt32) -> Bool {
        var charset: OpaquePointer?
        return FcPatternGetCharSet(pattern, FC_CHARSET, 0, &charset) == FcResultMatch && FcCharSetHasChar(charset, scalar) != 0
    }
}
