import Testing
@testable import RowKitText

/// Texts built to make preparing slow (a letter under thousands of combining marks, long
/// stretches without a letter): the rules that keep their cost linear, checked by what they
/// produce (speed itself is the benchmarks' business).
@Suite struct LongStretchTests {
    /// A grapheme longer than `Builder.longestShapedCluster` units is shaped in pieces of that
    /// size (one HarfBuzz call over it took time in the square of its marks: 80,000 marks, 13 s),
    /// and the pieces' marks add no width: the line is as wide as the letter with one mark,
    /// and drawn as wide as measured.
    @Test(arguments: ["e\u{301}", "\u{628}\u{64E}"])
    func aGraphemeOfThousandsOfMarksIsShapedInPiecesAsWideAsOne(_ letterAndMark: String) throws {
        let mark = String(letterAndMark.unicodeScalars.last!)
        let text = letterAndMark + String(repeating: mark, count: 5_000)
        let p = try prepare(text)
        let pieceLength = Builder.longestShapedCluster
        #expect(p.runs.count >= text.utf16.count / pieceLength)
        #expect(p.runs.allSatisfy { Int($0.end - $0.start) <= pieceLength })
        #expect(abs(p.width(of: 0..<p.units.count) - (try width(letterAndMark))) < 0.001)
        let layout = try p.layout(width: 320)
        #expect(layout.lines.count == 1)
        if let drawn = drawnWidth(layout, line: 0) { expectDrawnEqualsMeasured(layout, line: 0, drawn: drawn) }
    }

    /// `CommonScript.script(ofRun:…)` with its memo gives what a search from scratch gives, for
    /// every run of random texts of letters, digits, punctuation and marks asked in text order
    /// (as a text's runs are), in chunks of a paragraph and in whole texts.
    @Test func theCommonScriptMemoAnswersAsAFreshSearch() {
        var rng = SystemRandomNumberGenerator()
        let alphabet: [String] = ["a", "1", " ", ".", "\u{301}", "ب", "漢", "-", "ж", "(", "٣"]
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 1...60, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
            let units = Array(text.utf16)
            units.withUnsafeBufferPointer { all in
                var memo = CommonScript.Memo()
                var start = 0
                while start < all.count {
                    let end = min(all.count, start + Int.random(in: 1...6, using: &rng))
                    var fresh = CommonScript.Memo()
                    let expected = CommonScript.script(ofRun: all, start, end, paragraph: nil, offset: 0, memo: &fresh)
                    let answer = CommonScript.script(ofRun: all, start, end, paragraph: nil, offset: 0, memo: &memo)
                    #expect(answer?.script == expected?.script && answer?.outside == expected?.outside,
                            "\(text.debugDescription) \(start)..<\(end)")
                    start = end
                }
            }
        }
    }
}
