import Testing
@testable import RowKitText

/// A chunk the word cache misses finds its line breaks over itself alone when
/// `ChunkedBuilder.breaksAlone` allows it: they must be its share of the paragraph's, both
/// Chromium's opportunities (`BreakOpportunities.find`) and ICU's own (kept for `ClusterSplit`).
/// Every chunk of every paragraph of the corpora, cut as `ChunkedBuilder` cuts them, with the
/// rules of no language, Japanese and Chinese, and the same for windows of each paragraph cut at
/// arbitrary units (as `rowkit heights`' rows are cut).
@Suite struct ChunkLineBreaksTests {
    /// The chunks of `text` as `ChunkedBuilder` cuts them: content, then spaces and tabs, then
    /// at most one newline.
    static func chunks(_ text: UnsafeBufferPointer<UInt16>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var p = 0
        while p < text.count {
            var q = p
            while q < text.count && text[q] != 0x20 && text[q] != 0x09 && text[q] != 0x0A { q += 1 }
            while q < text.count {
                if text[q] == 0x0A { q += 1; break }
                if text[q] != 0x20 && text[q] != 0x09 { break }
                q += 1
            }
            out.append(p..<q)
            p = q
        }
        return out
    }

    /// Compares every chunk of `units` that may break alone, and the rest of the paragraph
    /// from it (what `ChunkedBuilder` asks after two misses in a row); returns (compared, refused).
    static func compare(_ units: [UInt16], language: String?, label: String) throws -> (Int, Int) {
        var compared = 0, refused = 0
        try units.withUnsafeBufferPointer { (text) throws(TextError) in
            var icu: [Int32] = []
            let whole = try BreakOpportunities.find(text, language: language, icu: &icu)
            var spans: [Range<Int>] = []
            let dictionary = text.contains(where: DictionaryScripts.contains)
            for (k, chunk) in chunks(text).enumerated() {
                spans.append(chunk)
                // The rest of the paragraph from a chunk: from every chunk of a dictionary
                // script's paragraph, from every fourth of others (the test's own cost).
                if chunk.upperBound < text.count && (dictionary || k % 4 == 0) {
                    spans.append(chunk.lowerBound..<text.count)
                }
            }
            for chunk in spans {
                guard ChunkedBuilder.breaksAlone(text, at: chunk.lowerBound) else { refused += 1; continue }
                let piece = UnsafeBufferPointer(rebasing: text[chunk])
                var pieceICU: [Int32] = []
                let alone = try BreakOpportunities.find(piece, language: language, icu: &pieceICU)
                var share: [Int32] = [], shareMandatory: [UInt8] = []
                for (k, end) in whole.ends.enumerated() where Int(end) > chunk.lowerBound && Int(end) <= chunk.upperBound {
                    share.append(end - Int32(chunk.lowerBound))
                    shareMandatory.append(whole.mandatory[k])
                }
                if alone.ends != share || alone.mandatory != shareMandatory {
                    Issue.record("\(label): chunk \(chunk): paragraph \(share) \(shareMandatory), alone \(alone.ends) \(alone.mandatory)")
                    return
                }
                // ICU's own breaks strictly inside the chunk (what `ParagraphLineBreaks.inside` hands out).
                let icuShare = icu.filter { Int($0) > chunk.lowerBound && Int($0) < chunk.upperBound }.map { $0 - Int32(chunk.lowerBound) }
                if pieceICU.filter({ Int($0) < piece.count }) != icuShare {
                    Issue.record("\(label): chunk \(chunk): ICU over the paragraph \(icuShare), alone \(pieceICU)")
                    return
                }
                compared += 1
            }
        }
        return (compared, refused)
    }

    @Test(.enabled(if: Corpora.folder != nil, "the corpora are absent (ROWKIT_CORPORA, ../shared/corpora)"))
    func chunksBreakAloneAsInTheirParagraph() throws {
        let folder = try #require(Corpora.folder)
        var compared = 0, refused = 0
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for (index, paragraph) in Corpora.paragraphs(folder).enumerated() {
            let full = Array(paragraph.text.utf16)
            var texts = [full]
            // A window cut at arbitrary units, as the heights rows are.
            if full.count > 8 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let start = Int(seed >> 33) % (full.count / 2)
                texts.append(Array(full[start..<min(full.count, start + 240)]))
            }
            let languages: [String?] = index % 4 == 0 ? [nil, "ja", "zh"] : [nil]
            for units in texts {
                for language in languages {
                    let (c, r) = try Self.compare(units, language: language, label: "\(paragraph.file) \(language ?? "-")")
                    compared += c
                    refused += r
                }
            }
        }
        #expect(compared > 100_000)
        #expect(refused > 0)
    }

    /// Hand-made chunks around the rules the condition is about, including white space other
    /// than a single space (tabs, newlines, runs of spaces), quotation marks and hyphens.
    @Test func handMadeChunksBreakAloneAsInTheirParagraph() throws {
        let texts = [
            "aa –abc x", "aa\n–abc", "«a» “b” ‘c’ „d“", "x «\u{A0}a\u{A0}» y", "(a) [b] {c}", "a  \tb\t c",
            "ผมไปตลาด แล้ว\nกลับบ้าน", "ខ្ញុំ​ទៅ ផ្សារ", "မင်္ဂလာ ပါ", "日本語の 文章です。 「引用」", "中文 （括号） 文字",
            "١٢٣ abc-123 ‐αβγ – δ", "a\u{2014} b\u{2014}c", "\u{2018}a\u{2019} \u{201C}b\u{201D}",
        ]
        var compared = 0
        for text in texts {
            for language: String? in [nil, "ja", "zh"] {
                compared += try Self.compare(Array(text.utf16), language: language, label: text).0
            }
        }
        #expect(compared > 50)
    }

    /// The cases the condition refuses do differ: a chunk after a tab that starts with a
    /// hyphen (LB20a glues it to the letter at the start of a text, not after a tab), and a
    /// chunk that starts with a combining mark (LB9 joins it to the white space before).
    @Test func refusedChunksCanDiffer() throws {
        func breaks(_ text: String) throws -> [Int32] {
            try Array(text.utf16).withUnsafeBufferPointer { (p) throws(TextError) in try BreakOpportunities.find(p, language: nil).ends }
        }
        // "a\t‐bc": the paragraph breaks after the hyphen, the chunk alone does not.
        let tabbed = try breaks("a\t\u{2010}bc")
        let alone = try breaks("\u{2010}bc")
        #expect(tabbed.contains(3))
        #expect(!alone.contains(1))
        Array("a\t\u{2010}bc".utf16).withUnsafeBufferPointer { #expect(!ChunkedBuilder.breaksAlone($0, at: 2)) }
        Array("a \u{301}bc".utf16).withUnsafeBufferPointer { #expect(!ChunkedBuilder.breaksAlone($0, at: 2)) }
        Array("a \u{2010}bc".utf16).withUnsafeBufferPointer { #expect(ChunkedBuilder.breaksAlone($0, at: 2)) }
    }
}
