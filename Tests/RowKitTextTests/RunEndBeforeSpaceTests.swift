import Testing
@testable import RowKitText

/// A run of a dictionary script whose font is not the space's ends right before a space, and
/// takes its share of the paragraph's ICU breaks there too (`ParagraphLineBreaks.isRunEnd`):
/// the breaks strictly inside it must be what ICU finds over the run alone
/// (`UnicodeAnalysis.lineBreaks`), as `ClusterSplit` would ask otherwise.
@Suite struct RunEndBeforeSpaceTests {
    /// ICU's breaks strictly inside `start..<end` of `text`, asked over the run alone.
    private static func alone(_ text: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) throws(TextError) -> [Int32] {
        let run = UnsafeBufferPointer(rebasing: text[start..<end])
        return try UnicodeAnalysis.lineBreaks(run).ends.filter { Int($0) < run.count }
    }

    @Test(.enabled(if: Corpora.folder != nil, "the corpora are absent (ROWKIT_CORPORA, ../shared/corpora)"))
    func runsEndingBeforeASpaceBreakAsTheyBreakAlone() throws {
        let folder = try #require(Corpora.folder)
        var compared = 0, withBreaksInside = 0, differingWhenCut = 0
        // Each paragraph, and a window of it starting after its third space.
        for (file, units) in Corpora.dictionaryScriptTexts(folder) {
            try units.withUnsafeBufferPointer { (text) throws(TextError) in
                var kept = ParagraphLineBreaks()
                kept.keep(try UnicodeAnalysis.lineBreaks(text).ends, of: text, language: nil)
                var starts = [0]
                for p in 1..<text.count where ParagraphLineBreaks.isEdge(p, in: text) && text[p] != 0x20 { starts.append(p) }
                for end in 1..<text.count where !ParagraphLineBreaks.isEdge(end, in: text) && ParagraphLineBreaks.isRunEnd(end, in: text) {
                    // The runs from the last three word starts before the end.
                    for start in starts.filter({ $0 < end }).suffix(3) {
                        let run = UnsafeBufferPointer(rebasing: text[start..<end])
                        guard run.contains(where: DictionaryScripts.contains) else { continue }
                        let alone = try Self.alone(text, start, end)
                        guard kept.expectShare(start, end, of: text, equals: alone, file: file) else { return }
                        compared += 1
                        if !alone.isEmpty { withBreaksInside += 1 }
                    }
                    // Cut one unit short (inside the word, where no run ends), the shares
                    // and ICU alone differ somewhere: the comparison above can fail.
                    if let start = starts.last(where: { $0 < end - 1 }), DictionaryScripts.contains(text[end - 2]) {
                        let alone = try Self.alone(text, start, end - 1)
                        let shared = kept.ends.filter { Int($0) > start && Int($0) < end - 1 }.map { $0 - Int32(start) }
                        if alone != shared { differingWhenCut += 1 }
                    }
                }
            }
        }
        #expect(compared > 5000)
        #expect(withBreaksInside * 2 > compared)
        #expect(differingWhenCut > 0)
    }

    /// Every unit of the dictionary scripts' blocks (letters, marks, digits, punctuation) at the
    /// end of a run before a space, with several things after the space: the run's share equals
    /// ICU alone.
    @Test func everyDictionaryBlockUnitBeforeASpace() throws {
        let blocks: [ClosedRange<UInt16>] = [0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x19E0...0x19FF,
                                             0x1A20...0x1AAF, 0xA9E0...0xA9FF, 0xAA60...0xAA7F]
        let words = ["ภาษาไทยนั้น", "မြန်မာစာ", "ភាសាខ្មែរ", "ພາສາລາວ"].map { Array($0.utf16) }
        let afters = [" ", " (ก", " \u{201D}x", " ภาษา", " 12", " \u{3001}", "  \u{0E01}", " \u{200B}"].map { Array($0.utf16) }
        var compared = 0, cases = 0
        for block in blocks {
            for u in block {
                guard DictionaryScripts.contains(u) else { continue }
                for word in words {
                    for after in afters {
                        let units = Array("a ".utf16) + word + [u] + after
                        let start = 2, end = 2 + word.count + 1
                        try units.withUnsafeBufferPointer { (text) throws(TextError) in
                            #expect(ParagraphLineBreaks.isRunEnd(end, in: text))
                            cases += 1
                            var kept = ParagraphLineBreaks()
                            kept.keep(try UnicodeAnalysis.lineBreaks(text).ends, of: text, language: nil)
                            guard let shared = kept.inside(start, end, of: text) else {
                                Issue.record("U+\(String(u, radix: 16)) after \(word) before \(after): refused")
                                return
                            }
                            let alone = try Self.alone(text, start, end)
                            #expect(shared == alone, "U+\(String(u, radix: 16)) after \(word) before \(after): \(shared) != \(alone)")
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared > 10_000)
        #expect(compared == cases)
    }

    /// Only a dictionary letter or mark before the space makes a run's end: after a Latin
    /// letter, an opening bracket or a quotation mark (rules that read across spaces start at
    /// those), or before anything but a space, the run asks ICU alone.
    @Test func otherEndsAreRefused() throws {
        for (text, end) in [("ภาษาa b", 5), ("ภาษา( b", 5), ("ภาษา\u{201C} b", 5), ("ภาษาไทย", 4), ("ภาษา\u{00A0}ไทย", 4)] {
            let units = Array(text.utf16)
            try units.withUnsafeBufferPointer { (text) throws(TextError) in
                #expect(!ParagraphLineBreaks.isRunEnd(end, in: text), "\(Array(text))")
                var kept = ParagraphLineBreaks()
                kept.keep(try UnicodeAnalysis.lineBreaks(text).ends, of: text, language: nil)
                #expect(kept.inside(0, end, of: text) == nil)
            }
        }
        // A run ending before a space after a Thai letter is accepted.
        let units = Array("ภาษาไทย ดี".utf16)
        units.withUnsafeBufferPointer { text in
            #expect(ParagraphLineBreaks.isRunEnd(7, in: text))
        }
    }
}
