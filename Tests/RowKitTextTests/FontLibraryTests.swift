import Testing
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
@testable import RowKitText

/// Font lookup and fallback (Fonts/FontLibrary.swift, Fonts/Font.swift).
@Suite struct FontLibraryTests {
    final class Warnings: Sendable {
        let messages = Mutex<[String]>([])
        var all: [String] { messages.withLock { $0 } }
        func append(_ m: String) { messages.withLock { $0.append(m) } }
    }

    @Test func missingFontFileThrows() {
        let path = "/nonexistent/rowkit/font.ttf"
        #expect(throws: TextError.fontFileUnreadable(path)) {
            try PreparedText("a", style: TextStyle(font: .file(path)))
        }
    }

    @Test func aFileThatIsNotAFontThrows() throws {
        let path = "/tmp/rowkit-text-tests-not-a-font-\(UInt32.random(in: 0...UInt32.max)).ttf"
        let file = fopen(path, "w")
        try #require(file != nil)
        fputs("this is not a font\n", file)
        fclose(file)
        defer { remove(path) }
        #expect(throws: TextError.fontFileUnreadable(path)) {
            try PreparedText("a", style: TextStyle(font: .file(path)))
        }
        #expect(throws: TextError.fontFileUnreadable("/tmp")) {
            try PreparedText("a", style: TextStyle(font: .file("/tmp")))
        }
    }

    /// `line-height: normal` metrics at sizes a style accepts, and the documented (0, 0) for the
    /// sizes it rejects (never NaN or a trap).
    @Test func normalLineMetricsOfAbsurdSizesAreZero() throws {
        let font = try FontLibrary.shared.font(for: FontDescriptor(family: "DejaVu Sans Mono"))
        let m = font.normalLineMetrics(size: 37.17)
        #expect(m.above + m.below == 43, "the 37.16 px font's line (docs/CHROMIUM.md §5)")
        for size in [Double.nan, .infinity, -.infinity, 0, -3, 10_000.5, 1e300] {
            let z = font.normalLineMetrics(size: size)
            #expect(z.above == 0 && z.below == 0, "size \(size)")
        }
    }

    @Test func fontFileByPathIsUsed() throws {
        let byFamily = try FontLibrary.shared.font(for: FontDescriptor(family: "DejaVu Sans"))
        let p = try PreparedText("abc", style: TextStyle(font: .file(byFamily.path), size: 16))
        #expect(p.primaryFont.path == byFamily.path)
        #expect(p.width(of: 0..<3) == (try width("abc")))
    }

    @Test func unknownFamilyFallsBackAndWarnsOnce() throws {
        let warnings = Warnings()
        let library = FontLibrary(warn: { warnings.append($0) })
        let s = TextStyle(font: FontDescriptor(family: "No Such Family RowKit"), size: 16)
        let p = try PreparedText("hello", style: s, fonts: library)
        #expect(try p.lineCount(width: 100) == 1)
        _ = try PreparedText("again", style: s, fonts: library)
        var bold = s
        bold.font.weight = .bold
        _ = try PreparedText("bold", style: bold, fonts: library)
        var lower = s
        lower.font.family = "no such family rowkit"
        _ = try PreparedText("lower", style: lower, fonts: library)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("No Such Family RowKit") == true)
    }

    /// A loader that asks first reports the family itself (with its file and line); the
    /// library then does not warn again, and the answer does not depend on who asked before.
    @Test func askingForTheMissingFamilyWarningCountsAsReporting() throws {
        let warnings = Warnings()
        let library = FontLibrary(warn: { warnings.append($0) })
        let family = "Asked Before RowKit"
        #expect(library.missingFamilyWarning(family)?.contains("font family '\(family)' is not installed; using '") == true)
        #expect(library.missingFamilyWarning(family) == library.missingFamilyWarning(family))
        #expect(library.missingFamilyWarning("Nope One, Nope Two")?.hasPrefix("no family of 'Nope One, Nope Two' is installed") == true)
        for installed in ["DejaVu Sans", "Nope, serif", "monospace"] { #expect(library.missingFamilyWarning(installed) == nil, "\(installed)") }
        _ = try PreparedText("x", style: TextStyle(font: FontDescriptor(family: family), size: 16), fonts: library)
        #expect(warnings.all.isEmpty)
        // The handler can be replaced (a command prefixes its own name).
        let other = Warnings()
        library.setWarningHandler { other.append($0) }
        _ = try PreparedText("x", style: TextStyle(font: FontDescriptor(family: "Later Missing RowKit"), size: 16), fonts: library)
        #expect(warnings.all.isEmpty && other.all.count == 1)
    }

    @Test func warningsStopAfterTheLimitOfFamilies() throws {
        let warnings = Warnings()
        let library = FontLibrary(warn: { warnings.append($0) })
        for i in 0..<(FontLibrary.warnedLimit + 40) {
            _ = try library.font(for: FontDescriptor(family: "Made Up \(i) RowKit"))
        }
        #expect(warnings.all.count == FontLibrary.warnedLimit)
    }

    @Test func installedFamiliesDoNotWarn() throws {
        let warnings = Warnings()
        let library = FontLibrary(warn: { warnings.append($0) })
        for family in ["DejaVu Sans", "dejavu sans", "DejaVu Serif", "Liberation Serif", "Liberation Sans", "Noto Sans"] {
            let p = try PreparedText("x", style: TextStyle(font: FontDescriptor(family: family), size: 16), fonts: library)
            #expect(p.primaryFont.family.lowercased() == family.lowercased())
        }
        #expect(warnings.all.isEmpty)
    }

    @Test func emptyFamilyThrowsNoFontFound() {
        #expect(throws: TextError.noFontFound(FontDescriptor(family: "").description)) {
            try PreparedText("x", style: TextStyle(font: FontDescriptor(family: "")))
        }
    }

    @Test func genericFamiliesMapToTheBrowserDefaults() throws {
        // docs/CHROMIUM.md §2.1: sans-serif → Arial → Liberation Sans, serif → Times New Roman →
        // Liberation Serif (not fontconfig's own sans-serif/serif), and without a warning.
        let warnings = Warnings()
        let library = FontLibrary(warn: { warnings.append($0) })
        let sans = try PreparedText("x", style: TextStyle(font: FontDescriptor(family: "sans-serif")), fonts: library)
        let serif = try PreparedText("x", style: TextStyle(font: FontDescriptor(family: "serif")), fonts: library)
        #expect(sans.primaryFont.family == "Liberation Sans")
        #expect(serif.primaryFont.family == "Liberation Serif")
        #expect(warnings.all.isEmpty)
    }

    // MARK: Fallback (docs/CHROMIUM.md §2.2)

    func fonts(of text: String, _ family: String = "DejaVu Sans") throws -> [String] {
        try prepare(text, style(family: family)).runs.map(\.font.family)
    }

    @Test func cjkAndHangulFallBackToNotoSansCJK() throws {
        for text in ["汉字", "あカ", "한국어", "。「」、"] {
            let families = try fonts(of: text)
            #expect(families.allSatisfy { $0.hasPrefix("Noto Sans CJK") }, "\(text): \(families)")
        }
    }

    @Test func thaiFallsBackToNotoSansThai() throws {
        #expect(try fonts(of: "ภาษาไทย") == ["Noto Sans Thai"])
    }

    @Test func emojiSequencesUseTheColorEmojiFont() throws {
        for text in ["👨‍👩‍👧", "🇫🇷", "👍🏽", "1️⃣", "❤️"] {
            let runs = try prepare(text, style(family: "Noto Sans")).runs
            #expect(runs.count == 1)
            #expect(runs.first?.font.hasColorGlyphs == true, "\(text)")
        }
    }

    @Test func emojiPresentationCharacterComesFromDejaVuSansWhenItHasIt() throws {
        // 😀 with DejaVu Sans primary → DejaVu Sans (monochrome); with Noto Sans → Noto Color Emoji.
        #expect(try prepare("😀").runs.first?.font.family == "DejaVu Sans")
        #expect(try prepare("😀", style(family: "Noto Sans")).runs.first?.font.hasColorGlyphs == true)
    }

    @Test func standardFontCoversSymbolsThePrimaryLacks() throws {
        // Noto Sans lacks ☺ → Liberation Serif (the standard font), not DejaVu Sans.
        #expect(try fonts(of: "☺", "Noto Sans") == ["Liberation Serif"])
    }

    @Test func boldStyleStillWorksWithFallback() throws {
        var s = style()
        s.font.weight = .bold
        let p = try prepare("Bold 漢字 👍", s)
        #expect(p.primaryFont.family == "DejaVu Sans")
        #expect(try p.lineCount(width: 1000) == 1)
    }

    /// QA-84: the "not installed" warning quoted the family whole, so a 100,000-letter name (or
    /// one with a line break) was the message, and the command cut it before "using …".
    @Test func aMissingFamilyIsQuotedShortAndOnOneLineInItsWarning() throws {
        let long = "RowKitMissing" + String(repeating: "A", count: 100_000)
        let message = try #require(FontLibrary.shared.missingFamilyWarning(long))
        #expect(message.count < 200)
        #expect(message.contains("…' is not installed; using '"))
        let twoLines = try #require(FontLibrary.shared.missingFamilyWarning("RowKit\nMissing Family"))
        #expect(!twoLines.contains("\n") && twoLines.contains("RowKit\\nMissing Family"))
        #expect(FontLibrary.quotedInMessage("DejaVu Sans") == "DejaVu Sans")
    }
}
