import Synchronization

/// The language text is shaped in: HarfBuzz picks language-specific glyphs (OpenType `locl`)
/// from it, as Chromium does with the content language — Noto Sans CJK has Korean,
/// Japanese and Chinese spaces and punctuation of different widths (measured: `a a` in Noto
/// Sans CJK KR at 21 px is 28.36 px wide without `lang`, 29.53 px with `lang="ko"`).
struct ShapingLanguage: Sendable {
    /// Small id for the shape-cache key; 0 is "no language" (HarfBuzz's default).
    let id: UInt16
    /// HarfBuzz's language, nil for none.
    nonisolated(unsafe) let language: HBLanguage?

    /// No language: shaped with HarfBuzz's default, as Chromium shapes text without `lang`.
    static let none = ShapingLanguage(id: 0, language: nil)

    private static let registry = Mutex<[String: UInt16]>([:])

    /// The shaping language of a content language (a BCP 47 tag), interned.
    init(_ lang: String?) {
        guard let lang, !lang.isEmpty else { self = .none; return }
        let tag = lang.lowercased()
        let id = Self.registry.withLock { table -> UInt16 in
            if let known = table[tag] { return known }
            // Bounded: past 60,000 languages (absurd) all share the last id.
            let next = UInt16(min(table.count + 1, 60_000))
            table[tag] = next
            return next
        }
        self.init(id: id, language: HarfBuzz.language(tag))
    }

    private init(id: UInt16, language: HBLanguage?) {
        self.id = id
        self.language = language
    }
}
