import Testing
import PropertyBased
@testable import RowKitText

#if canImport(Glibc)
import Glibc
#endif

/// Preparing chunk by chunk through the word cache (Prepare/ChunkedBuilder.swift,
/// WordCache.swift) gives exactly what analysing whole paragraphs gives: the same measuring
/// form, byte for byte, and the same glyph runs — on random texts and on the real corpora.
@Suite struct ChunkedPreparationTests {
    /// The two preparations of `text` agree, byte for byte and run for run.
    static func expectSame(_ text: String, _ style: TextStyle, cache: ShapeCache = .shared, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let chunked = try PreparedText(text, style: style, cache: cache)
        let whole = try PreparedText(text, style: style, fonts: .shared, cache: cache, wholeParagraph: true)
        let a = chunked.withView { Array(UnsafeRawBufferPointer(start: $0.base, count: $0.byteCount)) }
        let b = whole.withView { Array(UnsafeRawBufferPointer(start: $0.base, count: $0.byteCount)) }
        #expect(a == b, "measuring forms differ for \(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(chunked.runs.count == whole.runs.count, "runs differ for \(text.debugDescription)", sourceLocation: sourceLocation)
        for (x, y) in zip(chunked.runs, whole.runs) where x.font !== y.font || x.start != y.start || x.end != y.end
            || x.bidiLevel != y.bidiLevel || x.shaped.glyphs != y.shaped.glyphs || x.shaped.advances != y.shaped.advances {
            Issue.record("run \(x.start)..<\(x.end) differs in \(text.debugDescription)", sourceLocation: sourceLocation)
            break
        }
        #expect(chunked.paragraphLevel == whole.paragraphLevel)
        let metrics = try TextMetrics(text, style: style, cache: cache)
        #expect(metrics.withView { Array(UnsafeRawBufferPointer(start: $0.base, count: $0.byteCount)) } == b, sourceLocation: sourceLocation)
    }

    static let pieces = textPieces + ["مرحبا بالعالم", "שלום", "123", "हिन्दी", "ខ្មែរ", "“quoted”", "it’s", "—", "…", "《红》",
                                      "（注）", " \u{301}x", "e\u{301}", "a\u{200D}b", "x\u{FE0F}", "\u{AD}", "Ünïcödé", "ﬁ"]

    /// A preparation started while this thread's workspace is in use (inside another's
    /// `finish`) makes its own arrays: it gives the text it gives alone, and the outer one's
    /// input, read after it, is still the outer text's.
    @Test func aPreparationInsideAnotherGivesWhatItGivesAlone() throws {
        let outerText = "outer words “quoted” مرحبا بالعالم 漢字", innerText = "inner text, other words ไทย"
        let alone = try TextMetrics(innerText, style: style())
        let outerAlone = try TextMetrics(outerText, style: style())
        let bytes = { (m: TextMetrics) in m.withView { Array(UnsafeRawBufferPointer(start: $0.base, count: $0.byteCount)) } }
        let (inner, outerUnits, outerWidths) = try Preparation.prepare(outerText, style: style(), fonts: .shared, cache: .shared,
                                                                       keepRuns: false) { _, input, _ in
            let inner = try? TextMetrics(innerText, style: style())
            return (inner, Array(input.units), Array(input.widths))
        }
        #expect(try #require(inner).withView { Array(UnsafeRawBufferPointer(start: $0.base, count: $0.byteCount)) } == bytes(alone))
        #expect(outerUnits == Array(outerText.utf16))
        #expect(outerWidths.reduce(0, +) > 0)
        // The thread's workspace is free again: the next preparation is the same as before.
        #expect(bytes(try TextMetrics(outerText, style: style())) == bytes(outerAlone))
    }

    /// A closing mark's trim depends on the script its run is shaped in, which a Common run takes
    /// from the text before it (`a` here, not the Hebrew after it): the whole paragraph decides it
    /// as the runs are closed, as the chunk does (found by the property below: the decision was
    /// once asked after every run was closed, of a search memo that answers only forward).
    @Test func aClosingMarksTrimIsDecidedByTheTextBeforeItBothWays() throws {
        for text in ["a」שלום 42", "a」שלום", "שלום」a 42", "x」 שלום」 42"] {
            for s in [style(), style(family: "Noto Sans", direction: .rtl)] {
                try Self.expectSame(text, s)
                try Self.expectSame(text, s)
            }
        }
    }

    @Test func randomTextsPrepareTheSameBothWays() async {
        let styles: [TextStyle] = [style(), style(.preWrap), style(family: "Noto Sans", lineHeight: .normal),
                                   style(family: "Noto Sans", direction: .rtl), style(family: "Noto Sans", direction: .auto),
                                   style(family: "Liberation Serif"), style(size: 13, italic: true)]
        let gen = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...30)
        await propertyCheck(count: 300, input: gen, Gen.int(in: 0...(styles.count - 1))) { indices, s in
            // The same text twice: the second time every chunk comes from the cache.
            let text = randomText(indices, from: Self.pieces)
            try Self.expectSame(text, styles[s])
            try Self.expectSame(text, styles[s])
        }
    }

    /// Words in font-fallback plans (text the style's fonts lack, filled per script segment
    /// from the system's fonts, Fonts/FontFallback.swift): a word that starts a plan is cached
    /// when the plan's hint character is inside it (a hit makes the plan again), and a word in
    /// a plan that tried several fonts when its holes all take the first. Random texts of such
    /// words, in one cache, so later texts hit the earlier ones' words in other surroundings.
    @Test func wordsInFallbackPlansPrepareTheSameBothWays() async {
        let pieces = ["وقال", "رجل", "دجاجة.", "عمر:", "كلمة", "⌘", "⌘كلمة", "☃", "«كلمة»", "word", "٣٤", "12", "—", "漢字",
                      "한국어", "ไทย", "😀", "(", ")", "ﷺ", "ن", "שלום", "हिन्दी", "e\u{301}", "⸮", "x"]
        let styles: [TextStyle] = [style(family: "Noto Sans", lineHeight: .normal), style(family: "Noto Sans", direction: .rtl),
                                   style(family: "Noto Sans", direction: .auto), style(size: 13, italic: true),
                                   TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: .bold), size: 15)]
        let cache = ShapeCache(capacity: 10_000)
        let gen = Gen.int(in: 0...(pieces.count - 1)).array(of: 1...12)
        await propertyCheck(count: 400, input: gen, Gen.int(in: 0...(styles.count - 1))) { indices, s in
            try Self.expectSame(indices.map { pieces[$0] }.joined(separator: " "), styles[s], cache: cache)
        }
    }

    /// A word whose hole takes a plan's second font is not cached under the plan's first font:
    /// the second depends on the holes elsewhere in the segment. In “हिन्दी ✀ हिन्दी⦿ हिन्दी” the
    /// system's font for ✀ (Noto Sans Symbols2) also takes ⦿; in “हिन्दी हिन्दी⦿ हिन्दी” ⦿ asks
    /// for its own. Both plans start with the font for the Devanagari letters. (⦿ follows a
    /// letter in its word: a word of Common characters alone takes its script from outside and
    /// is not cached anyway. Left to right: a right-to-left segment asks for its last hole's
    /// font first, so there ⦿ would ask before ✀ in both texts.)
    @Test func wordTakingAPlansSecondFontIsNotReused() throws {
        let cache = ShapeCache(capacity: 1000)
        let style = style(family: "Noto Sans")
        func fontOfTarget(_ text: String) throws -> String? {
            let p = try PreparedText(text, style: style, cache: cache)
            let u = Int32(Array(text.utf16).firstIndex(of: 0x29BF)!)
            return p.runs.first { $0.start <= u && u < $0.end }?.font.family
        }
        try Self.expectSame("हिन्दी ✀ हिन्दी⦿ हिन्दी", style, cache: cache)
        try Self.expectSame("हिन्दी हिन्दी⦿ हिन्दी", style, cache: cache)
        #expect(try fontOfTarget("हिन्दी ✀ हिन्दी⦿ हिन्दी") != fontOfTarget("हिन्दी हिन्दी⦿ हिन्दी"), "the scenario needs two different fonts for ⦿")
    }

    /// The first word of a left-to-right paragraph in a script the primary font lacks starts a
    /// plan whose hint is its own first letter; met again at the start of another paragraph it
    /// comes from the cache.
    @Test func wordStartingAPlanIsFoundInTheCache() throws {
        PrepareScratch.startOverOnThisThread()
        let cache = ShapeCache(capacity: 1000)
        let style = style(family: "Noto Sans", lineHeight: .normal)
        try Self.expectSame("हिन्दी में एक कहानी", style, cache: cache)
        let before = PrepareScratch.current.words!.hits
        try Self.expectSame("हिन्दी पाठ", style, cache: cache)
        // Both preparations of the second text (drawing and measuring form) find “हिन्दी ” again.
        #expect(PrepareScratch.current.words!.hits - before >= 2)
    }

    /// Words whose runs carry kerning growths (line-end kerning, ``RunExtras``) found again in
    /// the cache give them from the entry (stored when first collected, relative to the word)
    /// — the same bytes as collecting them again, at every position they are placed at.
    @Test func storedRunExtrasEqualCollectedOnes() throws {
        PrepareScratch.startOverOnThisThread()
        let style = style(family: "Noto Sans", lineHeight: .normal)
        let cache = ShapeCache(capacity: 1_000)
        let text = "AVATAR Tower WAVE “Yes,” AVATAR office. Tower AVATAR WAVE, Tower “Yes,” AVATAR"
        try Self.expectSame(text, style, cache: cache)
        try Self.expectSame(String(text.reversed()), style, cache: cache)
        try Self.expectSame("x " + text, style, cache: cache)
        let words = try #require(PrepareScratch.current.words)
        #expect(words.young.entries.contains { $0.flags & WordCache.Flag.storedExtras != 0 && $0.kernValues > 0 },
                "no cached word kept its kerning growths")
    }

    /// Every paragraph of the real corpora (skipped when they are absent), in the benchmark's style.
    @Test(.enabled(if: Corpora.folder != nil, "the corpora are absent (ROWKIT_CORPORA, ../shared/corpora)"))
    func corporaPrepareTheSameBothWays() throws {
        let folder = try #require(Corpora.folder)
        let style = TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 16, lineHeight: .normal)
        let cache = ShapeCache(capacity: 100_000)
        var checked = 0
        var file = "", k = 0
        for paragraph in Corpora.paragraphs(folder) {
            if paragraph.file != file { file = paragraph.file; k = 0 }
            defer { k += 1 }
            // Every third paragraph of a file keeps the test quick; the cache sees the others' words too.
            guard k % 3 == 0 else { continue }
            try Self.expectSame(paragraph.text, style, cache: cache)
            checked += 1
        }
        #expect(checked > 1000)
    }
}

extension ChunkedPreparationTests {
    /// Words met again come from the cache: after one paragraph, a second one made of its
    /// words adds no entry; emptying the shape cache empties the word cache too.
    @Test func repeatedWordsAreFoundInTheCache() throws {
        PrepareScratch.startOverOnThisThread()
        let cache = ShapeCache(capacity: 1000)
        func entries() -> Int { PrepareScratch.current.words?.young.count ?? 0 }
        _ = try PreparedText("the quick brown fox jumps over the lazy dog", style: style(), cache: cache)
        let count = entries()
        #expect(count >= 8)
        _ = try TextMetrics("lazy dog jumps over the quick brown fox", style: style(), cache: cache)
        #expect(entries() == count + 2, "only the chunks with a new ending (“fox” and “dog ”) are new")
        cache.removeAll()
        _ = try TextMetrics("lazy", style: style(), cache: cache)
        #expect(entries() == 1)
    }

    /// The record header docs/DESIGN.md's cache table counts on (56 bytes of the ~150 a cached
    /// word's record takes with its text, advances, segment and run).
    @Test func cacheEntriesStaySmall() {
        #expect(WordCache.Layout.header <= 56)
        #expect(MemoryLayout<WordCache.Segment>.stride == 24 && MemoryLayout<WordCache.Run>.stride == 24)
    }
}

extension ChunkedPreparationTests {
    /// Styles that differ only in colour, line height or alignment share their words (a list's
    /// body, subtitle and content texts in one font and size): the second style adds no entry
    /// for words the first met, and its forms equal the whole-paragraph analysis in that style
    /// (with its own line height in the header).
    @Test func stylesDifferingOnlyInColourShareTheirWords() throws {
        PrepareScratch.startOverOnThisThread()
        let cache = ShapeCache(capacity: 1000)
        func entries() -> Int { PrepareScratch.current.words?.young.count ?? 0 }
        let text = "the quick brown fox jumps over the lazy dog"
        var black = style(family: "DejaVu Sans", size: 13)
        black.color = Color(white: 0)
        var gray = black
        gray.color = Color(white: 0.5)
        gray.lineHeight = .pixels(20)
        gray.alignment = .center
        _ = try TextMetrics(text, style: black, cache: cache)
        let count = entries()
        #expect(count >= 8)
        try Self.expectSame(text, gray, cache: cache)
        #expect(entries() == count, "a colour, line height or alignment of its own makes no new entry")
        #expect(try TextMetrics(text, style: gray, cache: cache).lineHeight == 20)
        // What analysis reads keeps words apart: size, weight, language, white space, direction.
        var bigger = black
        bigger.size = 14
        var bold = black
        bold.font.weight = .bold
        var japanese = black
        japanese.lang = "ja"
        var preWrap = black
        preWrap.whiteSpace = .preWrap
        var rtl = black
        rtl.direction = .rtl
        for other in [bigger, bold, japanese, preWrap, rtl] {
            #expect(!PrepareScratch.sharesAnalysis(black, other))
            let before = entries()
            try Self.expectSame(text, other, cache: cache)
            #expect(entries() > before)
        }
    }
}

extension ChunkedPreparationTests {
    /// The doorkeeper: every missed chunk is stored until the young generation first fills;
    /// after that, a chunk only the second time it is missed; emptying the cache starts over.
    @Test func chunksAreAdmittedOnTheirSecondMissOnceTheCacheHasFilled() {
        var cache = WordCache()
        let a: UInt64 = 0x1234_5678_9ABC_DEF0, b: UInt64 = 0x0FED_CBA9_8765_4321
        let before = (cache.admits(a), cache.admits(a))
        #expect(before == (true, true), "no doorkeeper before the cache has filled")
        cache.rotate()
        let first = cache.admits(a), second = cache.admits(a), other = cache.admits(b)
        #expect(!first, "first miss under pressure: not stored")
        #expect(second, "second miss: stored")
        #expect(!other)
        cache.removeAll()
        let afterEmptying = cache.admits(b)
        #expect(afterEmptying)
    }

    @Test func theWordCacheIsBoundedAndPaysForItsTableAloneUpFront() {
        var cache = WordCache()
        #expect(cache.young.capacity == WordCache.capacity)
        #expect(cache.young.table.count == 2 * WordCache.capacity)
        #expect(cache.young.data.capacity == 0 && cache.young.shapedRuns.capacity == 0)
        #expect(cache.young.unitCapacity == 32 * WordCache.capacity)
        cache.rotate()
        cache.rotate()
        #expect(cache.young.capacity == WordCache.capacity && cache.old.capacity == WordCache.capacity)
        #expect(cache.byteCount < 2 * 8 * WordCache.capacity + 4 * 65_536 + 64, "two empty tables and the doorkeeper")
    }
}
