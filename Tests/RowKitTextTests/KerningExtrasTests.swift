import Testing
@testable import RowKitText

/// The measuring form's kerning pairs (MetricsBlock.swift, `KernPacking`, docs/DESIGN.md
/// "Measuring form: kerning extras in 4 bytes a pair"): a text whose extras are only kerning
/// pairs has a 4-byte extras header instead of 32, and a pair takes 4 bytes when its unit and
/// growth fit 32 bits together, else 8. Whatever the encoding, what is read back is what was
/// written.
@Suite struct KerningExtrasTests {
    static let style = TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 16, lineHeight: .normal)

    /// The block of `text` as the builder writes it, with its kerning pairs (and line-start
    /// widths) replaced by `kerns` (and `alone`) when given; and the builder's own pairs.
    static func block(_ text: String, style: TextStyle = style, kerns: [Int32]? = nil,
                      alone: [Int32]? = nil) throws -> (words: [UInt64], builderKerns: [Int32]) {
        try Preparation.prepare(text, style: style, fonts: .shared, cache: .shared, keepRuns: false) { _, input, planner in
            var input = input
            let own = Array(input.kerns)
            let k = kerns ?? own, a = alone ?? Array(input.alone)
            return k.withUnsafeBufferPointer { kb in
                a.withUnsafeBufferPointer { ab in
                    input.kerns = kb
                    input.alone = ab
                    planner.plan(input)
                    var words = [UInt64](repeating: 0, count: max(1, (planner.byteCount + 7) / 8))
                    words.withUnsafeMutableBytes { planner.write(input, to: $0.baseAddress!) }
                    return (words, own)
                }
            }
        }
    }

    static func view<R>(_ words: [UInt64], _ body: (MetricsBlock.View) -> R) -> R {
        words.withUnsafeBytes { body(MetricsBlock.View($0.baseAddress!)) }
    }

    /// Every pair of `kerns` is read back, and no growth where there is no pair.
    static func expectRoundTrip(_ words: [UInt64], _ kerns: [Int32]) {
        let expected = stride(from: 0, to: kerns.count, by: 2).map { (unit: Int(kerns[$0]), growth: kerns[$0 + 1]) }
        view(words) { v in
            let read = v.extras.kerningPairs
            #expect(read.map(\.unit) == expected.map(\.unit) && read.map(\.growth) == expected.map(\.growth),
                    "pairs read back \(read), written \(expected)")
            let byUnit = Dictionary(uniqueKeysWithValues: expected.map { ($0.unit, Int64($0.growth)) })
            let units = Set(expected.map(\.unit)).union(Set(expected.flatMap { [$0.unit - 1, $0.unit + 1] })).union([0, v.unitCount])
            for u in units.sorted() where u >= 0 {
                #expect(v.extras.kerningGrowth(at: u) == byUnit[u] ?? 0, "growth at unit \(u)")
            }
        }
    }

    @Test func kernsOnlyTextsHaveTheShortHeaderAndFourBytePairs() throws {
        let text = "Plain words with no other extras at all."
        let kerns: [Int32] = [1, -3_000, 5, 12_000, 9, -131_072, 30, 65_535, 38, 1]
        let plain = try Self.block(text, kerns: [])
        let kerned = try Self.block(text, kerns: kerns)
        Self.view(kerned.words) { v in
            #expect(v.headerFlags & MetricsBlock.HeaderFlag.extras != 0)
            #expect(v.headerFlags & MetricsBlock.HeaderFlag.kernsOnly != 0)
            #expect(v.extrasCounts.kerns == 5 && v.extrasCounts.kernPacking > 0)
            // 4 header bytes and 5 pairs of 4 bytes: 24 bytes (an 8-byte header would make 32;
            // the full header and 8-byte pairs made 72).
            let plainBytes = Self.view(plain.words) { $0.byteCount }
            #expect(v.byteCount - plainBytes == 24)
        }
        Self.view(plain.words) { #expect($0.headerFlags & MetricsBlock.HeaderFlag.extras == 0) }
        Self.expectRoundTrip(kerned.words, kerns)
    }

    @Test func pairsThatDoNotFitFourBytesAreStoredInEight() throws {
        // Growths needing all 32 bits.
        let text = "Plain words with no other extras at all."
        let extreme: [Int32] = [2, Int32.max, 4, Int32.min, 7, -1]
        let a = try Self.block(text, kerns: extreme)
        Self.view(a.words) { v in
            #expect(v.headerFlags & MetricsBlock.HeaderFlag.kernsOnly != 0)
            #expect(v.extrasCounts.kernPacking == 0)
        }
        Self.expectRoundTrip(a.words, extreme)
        // A text of 70,000 units leaves 15 bits for the growth: 300,000 (4.6 px) needs 20.
        let long = String(repeating: "ab ", count: 23_334)
        let far: [Int32] = [3, -300_000, 40_000, 65_536, 69_998, 300_000]
        let b = try Self.block(long, kerns: far)
        Self.view(b.words) { v in
            #expect(v.unitCount > 65_535)
            #expect(v.extrasCounts.kernPacking == 0)
        }
        Self.expectRoundTrip(b.words, far)
        // The same units with small growths (the 15 bits suffice) pack in 4 bytes.
        let near: [Int32] = [3, -16_384, 40_000, 16_383, 69_998, 1]
        let c = try Self.block(long, kerns: near)
        Self.view(c.words) { #expect($0.extrasCounts.kernPacking == 15) }
        Self.expectRoundTrip(c.words, near)
    }

    @Test func kernsBesideOtherExtrasKeepTheFullHeader() throws {
        let kerns: [Int32] = [1, -4_000, 3, 20_000]
        // Line-start widths (synthetic) beside the pairs.
        let text = "Plain words with no other extras at all."
        let withAlone = try Self.block(text, kerns: kerns, alone: [0, 2, 123_456, 5, 7, 654_321])
        Self.view(withAlone.words) { v in
            #expect(v.headerFlags & MetricsBlock.HeaderFlag.kernsOnly == 0)
            #expect(v.extrasCounts.alone == 2 && v.extrasCounts.kernPacking > 0)
            #expect(v.extras.aloneWidth(0, 2) == 123_456 && v.extras.aloneWidth(5, 7) == 654_321)
        }
        Self.expectRoundTrip(withAlone.words, kerns)
        // Bidi level runs (mixed directions, rounded per run).
        let mixed = "Hello שלום עולם and more English words here עברית again."
        let bidiPlain = try Self.block(mixed, kerns: [])
        let bidi = try Self.block(mixed, kerns: kerns)
        let runCount = Self.view(bidiPlain.words) { $0.bidiRunTable.count }
        Self.view(bidi.words) { v in
            #expect(v.headerFlags & MetricsBlock.HeaderFlag.kernsOnly == 0)
            #expect(v.bidiRunTable.count == runCount && runCount > 0)
        }
        Self.expectRoundTrip(bidi.words, kerns)
        // Dictionary-script ranges, their text and the language.
        let thai = TextStyle(font: FontDescriptor(family: "Noto Sans Thai"), size: 16, lang: "th")
        let dictionary = try Self.block("ภาษาไทยเขียนติดกัน ไม่มีช่องว่าง", style: thai, kerns: kerns)
        Self.view(dictionary.words) { v in
            #expect(v.headerFlags & MetricsBlock.HeaderFlag.kernsOnly == 0)
            #expect(v.extras.dictionaryRange(holding: 0) != nil && v.extras.language == "th")
        }
        Self.expectRoundTrip(dictionary.words, kerns)
    }

    /// Real pairs as the builder makes them (caption-like Latin text kerns: `Te`, `AV`, `y.`).
    @Test func theBuildersPairsReadBackUnchanged() throws {
        let texts = ["AVATAR Today: WAVY Type, yes. To Va Ty.", "Your VAT was Tyler's LAWYER; P.A. Fay, Yvonne.",
                     "Kerning pairs: AT AV AW AY Fa Ta Te To Tr Tu Tw Ty Va Ve Vo Wa We Wo Ya Ye Yo"]
        var packed = 0
        for text in texts {
            for style in [Self.style, TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: .bold), size: 13)] {
                let b = try Self.block(text, style: style)
                Self.expectRoundTrip(b.words, b.builderKerns)
                if !b.builderKerns.isEmpty { packed += Self.view(b.words) { $0.extrasCounts.kernPacking > 0 ? 1 : 0 } }
            }
        }
        #expect(packed > 0, "no text had kerning pairs")
    }
}
