import ArgumentParser
import Foundation
import RowKitIO
import RowKitText
import Synchronization

/// Font and paragraph options shared by the commands that take text.
struct TextOptions: ParsableArguments {
    @Option(help: "Font family, or the path of a font file.")
    var font: String = "DejaVu Sans"

    @Option(parsing: .unconditional, help: "Font weight: regular, bold or 1...1000 (400 is regular, 700 bold).")
    var weight: String = "regular"

    @Option(parsing: .unconditional, help: "Font size in pixels.")
    var size: Double = 13

    @Option(name: .customLong("line-height"), parsing: .unconditional, help: "Line height in pixels (0...100000), or normal (default: round(1.25 × size)).")
    var lineHeight: LineHeightArgument?

    @Option(name: .customLong("white-space"), help: "normal (collapse white space) or pre-wrap (keep it, break at \\n).")
    var whiteSpace: String = "normal"

    /// --italic, --oblique, --direction, --lang (Sources/rowkit/StyleKeys.swift).
    @OptionGroup var styleFlags: StyleFlags

    func validate() throws {
        guard !font.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--font needs a family name or a font file, not an empty string")
        }
        guard FontWeight(parsing: weight) != nil else {
            throw ValidationError("--weight must be regular, bold or a number 1...1000, not '\(shortenedForMessage(weight))'")
        }
        guard size.isFinite, size > 0, size <= 10_000 else { throw ValidationError("--size must be a number in (0, 10000], not \(size)") }
        guard WhiteSpace(rawValue: whiteSpace) != nil else {
            throw ValidationError("--white-space must be normal or pre-wrap, not '\(shortenedForMessage(whiteSpace))'")
        }
    }

    /// Checks `--font` as a family list (run after the warning handler is set: asking the font
    /// library may warn that a family is not installed, which must carry the command's name).
    func checkFont() throws {
        if !TextOptions.isFontPath(font) && noFontIsInstalled {
            throw CommandError("no font is installed: fontconfig finds none, not even for 'sans-serif' (install one, such as fonts-dejavu-core, or give --font a font file)")
        }
        if let problem = fontFamilyProblem(font) {
            Diagnostics.error("--font \(problem)")
            throw ExitCode(64) // a usage mistake, as if the parser had refused it
        }
        try FontPaths.check(font)
    }

    /// The style these options describe, with per-text overrides (style keys: StyleKeys.swift).
    func style(font family: String? = nil, size overrideSize: Double? = nil, overrides: StyleOverrides = StyleOverrides()) -> TextStyle {
        let size = overrideSize ?? self.size
        var style = TextStyle(font: Self.descriptor(family ?? font, weight: FontWeight(parsing: weight) ?? .regular),
                              size: size, lineHeight: lineHeight?.lineHeight ?? .pixels((1.25 * size).rounded()),
                              whiteSpace: WhiteSpace(rawValue: whiteSpace) ?? .normal)
        styleFlags.apply(to: &style)
        overrides.apply(to: &style)
        return style
    }

    /// A family name, or a file when the name looks like a font path.
    static func descriptor(_ name: String, weight: FontWeight) -> FontDescriptor {
        // A family name may be a CSS list: `Foo, "Noto Sans", sans-serif`.
        if isFontPath(name) {
            return FontDescriptor(family: "", weight: weight, path: name)
        }
        return FontDescriptor(family: name, weight: weight)
    }

    /// Whether `name` is the path of a font file (it has a font extension; `Bold.ttf` is a file
    /// in the current folder, never a family that would silently fall back to another font).
    static func isFontPath(_ name: String) -> Bool {
        let lower = name.lowercased()
        return [".ttf", ".otf", ".ttc", ".otc"].contains(where: lower.hasSuffix)
    }
}

/// Why `name` (a `--font` value or a line's "font") cannot be used as a family list: it names
/// no family at all (",", "''"), so there is nothing to fall back from — the text engine then
/// failed every text with "no installed font matches ', 400'". Nil when usable (a font path,
/// or a list with a family in it, installed or not: a missing family falls back with a warning).
func fontFamilyProblem(_ name: String) -> String? {
    guard !TextOptions.isFontPath(name) else { return nil }
    if (try? FontLibrary.shared.font(for: FontDescriptor(family: name))) != nil { return nil }
    // With no font at all, no list resolves: that is not the list's fault (it said
    // "--font 'DejaVu Sans' names no font family" of the default, a usage error).
    if noFontIsInstalled { return nil }
    return "'\(shortenedForMessage(name))' names no font family; give a family name or a CSS list such as 'Noto Sans, sans-serif'"
}

/// Whether fontconfig finds no font at all (an empty or broken configuration).
let noFontIsInstalled: Bool = (try? FontLibrary.shared.font(for: FontDescriptor(family: "sans-serif"))) == nil

/// Parses "300" or "150,300,600" into widths.
func parseWidths(_ text: String) throws -> [Double] {
    try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
        let trimmed = part.trimmingCharacters(in: .whitespaces)
        guard let value = Double(trimmed), value.isFinite, value >= 0 else {
            throw ValidationError("--width takes non-negative numbers separated by commas, not '\(shortenedForMessage(text))'")
        }
        return value
    }
}

/// Font files named by path, checked through the one input path before the text engine opens
/// them: a missing file, a directory, a device or a file over the limit is a clear error. Each
/// path is checked once (opened as a font too); at most 1,000 results are remembered (then the
/// memory is cleared).
enum FontPaths {
    private static let checked = Mutex<[String: InputError?]>([:])

    /// Throws when `name` is a font path (see `TextOptions.descriptor`) that cannot be used.
    static func check(_ name: String) throws(InputError) {
        guard TextOptions.isFontPath(name) else { return }
        if let known = checked.withLock({ $0[name] }) {
            if let known { throw known }
            return
        }
        var failure: InputError?
        do throws(InputError) {
            try checkReadableFile(name, limit: InputLimits.fontBytes, what: "font file")
            // A readable file that is not a font: found once here, so `measure --font notes.ttf`
            // is one error before any line is read, not "cannot read font file" on every line.
            if (try? FontLibrary.shared.font(for: FontDescriptor(family: "", path: name))) == nil {
                throw InputError(.malformed, source: name,
                                 message: "not a font file FreeType can read (a TrueType or OpenType font, or a collection of them)")
            }
        } catch {
            failure = error
        }
        checked.withLock { cache in
            if cache.count >= 1_000 { cache.removeAll() }
            cache[name] = .some(failure)
        }
        if let failure { throw failure }
    }
}
