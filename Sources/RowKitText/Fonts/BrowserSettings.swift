/// Chromium's default font settings on Linux: the family each CSS generic family (and the
/// standard font, used when no family of a list is installed) names, per script of the
/// content language. Measured with `CSS.getPlatformFontsForNode` (docs/CHROMIUM.md §2.0):
/// without a language, or for most scripts, serif and the standard font are Times New Roman,
/// sans-serif Arial, monospace Monospace, cursive Comic Sans MS, fantasy Impact; Japanese,
/// Chinese, Korean and Devanagari content has its own serif, sans-serif and standard fonts
/// (and Japanese its own monospace).
enum BrowserSettings {
    /// The script group of a content language that has its own settings.
    enum Script: Hashable, Sendable {
        case common, japanese, simplifiedChinese, traditionalChinese, korean, devanagari
    }

    /// The generic families and the standard font.
    enum Generic: Hashable, Sendable {
        case standard, serif, sansSerif, monospace, cursive, fantasy
    }

    /// The family name a generic family stands for in `script`.
    static func family(_ generic: Generic, script: Script) -> String {
        switch (generic, script) {
        case (.standard, .common), (.serif, .common): return "Times New Roman"
        case (.sansSerif, .common): return "Arial"
        case (.monospace, .japanese): return "Noto Sans Mono CJK JP"
        case (.monospace, _): return "Monospace"
        case (.cursive, _): return "Comic Sans MS"
        case (.fantasy, _): return "Impact"
        case (.serif, .japanese): return "Noto Serif CJK JP"
        case (.serif, .simplifiedChinese): return "Noto Serif CJK SC"
        case (.serif, .traditionalChinese): return "Noto Serif CJK TC"
        case (.serif, .korean): return "Noto Serif CJK KR"
        case (.serif, .devanagari): return "Noto Serif Devanagari"
        case (_, .japanese): return "Noto Sans CJK JP"
        case (_, .simplifiedChinese): return "Noto Sans CJK SC"
        case (_, .traditionalChinese): return "Noto Sans CJK TC"
        case (_, .korean): return "Noto Sans CJK KR"
        case (_, .devanagari): return "Noto Sans Devanagari"
        }
    }

    /// The script group of a content language, from ICU's likely script ("ja" → Jpan,
    /// "zh-HK" → Hant, "hi" → Deva, "ja-Latn" → Latn).
    static func script(for lang: String?) -> Script {
        guard let lang, !lang.isEmpty, lang.utf8.count < 64 else { return .common }
        guard let script = ICU.likelyScript(lang) else { return .common }
        switch script {
        case "Jpan", "Hira", "Kana": return .japanese
        case "Hans": return .simplifiedChinese
        case "Hant": return .traditionalChinese
        case "Kore", "Hang": return .korean
        case "Deva": return .devanagari
        default: return .common
        }
    }
}
