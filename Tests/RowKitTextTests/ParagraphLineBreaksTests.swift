import Testing
@testable import RowKitText

/// `ClusterSplit` takes the line breaks inside a run from its paragraph's ICU breaks
/// (`ParagraphLineBreaks`) when the run is whole chunks of the paragraph: it must get what ICU
/// finds over the run alone. Every paragraph of the corpora that holds a dictionary script
/// (Thai, Khmer, Myanmar, Lao…), every run of one to three words of it (edges after spaces and
/// around zero width spaces), and the same
/// for a window of the paragraph cut after a space: ICU alone against the paragraph's share.
@Suite struct ParagraphLineBreaksTests {
    @Test(.enabled(if: Corpora.folder != nil, "the corpora are absent (ROWKIT_CORPORA, ../shared/corpora)"))
    func runsOfWholeChunksBreakAsTheyBreakAlone() throws {
        let folder = try #require(Corpora.folder)
        var compared = 0, withBreaksInside = 0, refused = 0, differingWhenCut = 0
        // Each paragraph, and a window of it starting after its third space.
        for (file, units) in Corpora.dictionaryScriptTexts(folder) {
            try units.withUnsafeBufferPointer { (text) throws(TextError) in
                var kept = ParagraphLineBreaks()
                kept.keep(try UnicodeAnalysis.lineBreaks(text).ends, of: text, language: nil)
                // Word edges: after each run of spaces, around zero width spaces.
                var edges = [0]
                for p in 1..<text.count where ParagraphLineBreaks.isEdge(p, in: text) && text[p] != 0x20 { edges.append(p) }
                edges.append(text.count)
                for i in 0..<(edges.count - 1) {
                    for span in 1...3 where i + span < edges.count {
                        let start = edges[i], end = edges[i + span]
                        let run = UnsafeBufferPointer(rebasing: text[start..<end])
                        guard run.contains(where: DictionaryScripts.contains) else { continue }
                        let alone = try UnicodeAnalysis.lineBreaks(run).ends.filter { Int($0) < run.count }
                        guard kept.expectShare(start, end, of: text, equals: alone, file: file) else { return }
                        compared += 1
                        if !alone.isEmpty { withBreaksInside += 1 }
                    }
                }
                // Runs that do not start after a space are refused: cut inside a word, the
                // dictionary segments what is left differently (counted, so the comparison
                // above is seen to notice a difference).
                for p in stride(from: 1, to: text.count, by: 7) where !ParagraphLineBreaks.isEdge(p, in: text) && DictionaryScripts.contains(text[p]) {
                    if kept.inside(p, text.count, of: text) != nil { Issue.record("\(file): run from \(p) accepted") }
                    refused += 1
                    let rest = UnsafeBufferPointer(rebasing: text[p...])
                    let alone = try UnicodeAnalysis.lineBreaks(rest).ends.filter { Int($0) < rest.count }
                    let shared = kept.ends.filter { Int($0) > p && Int($0) < text.count }.map { $0 - Int32(p) }
                    if alone != shared { differingWhenCut += 1 }
                }
            }
        }
        #expect(compared > 5000)
        #expect(withBreaksInside * 2 > compared)
        #expect(refused > 100)
        #expect(differingWhenCut > 0)
    }
}

extension ParagraphLineBreaks {
    /// Whether the paragraph's breaks kept inside `start..<end` of `text` are `alone` (ICU's
    /// breaks of that run by itself); records an issue naming `file` and the run when they are
    /// not, or when the run is refused.
    func expectShare(_ start: Int, _ end: Int, of text: UnsafeBufferPointer<UInt16>, equals alone: [Int32], file: String) -> Bool {
        guard let shared = inside(start, end, of: text) else {
            Issue.record("\(file): run \(start)..<\(end) refused")
            return false
        }
        if shared != alone {
            Issue.record("\(file): run \(start)..<\(end): paragraph \(shared), alone \(alone)")
            return false
        }
        return true
    }
}
