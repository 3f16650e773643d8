import Testing
@testable import RowKitText

/// A chooser reused from text to text (`FontFallback.restart(from:)`, which sets its fields one
/// by one and keeps its plan arrays, longer from earlier plans) chooses exactly what a fresh
/// copy of the text's initial chooser chooses: every grapheme of every third paragraph of the
/// corpora, the texts' styles alternating as a list's caption and body do, left to right and
/// right to left.
@Suite struct FontFallbackRestartTests {
    @Test(.enabled(if: Corpora.folder != nil, "the corpora are absent (ROWKIT_CORPORA, ../shared/corpora)"))
    func aRestartedChooserChoosesWhatAFreshOneChooses() throws {
        let folder = try #require(Corpora.folder)
        let paragraphs = Corpora.paragraphs(folder)
        #expect(paragraphs.count > 5000)
        let styles = [TextStyle(font: FontDescriptor(family: "Noto Sans"), size: 16, lineHeight: .normal),
                      TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: .bold), size: 13),
                      TextStyle(font: FontDescriptor(family: "Liberation Serif"), size: 15, whiteSpace: .preWrap, lang: "ja")]
        let initials = try styles.map { style in
            FontFallback(style: style, primary: try ResolvedStyle(style, fonts: .shared).primary, fonts: .shared)
        }
        var reused = initials[0]
        var compared = 0, plans = 0
        for (k, paragraph) in paragraphs.enumerated() where k % 3 == 0 {
            let initial = initials[(k / 3) % initials.count]
            let rightToLeft = (k / 9) % 2 == 1
            let units = Array(paragraph.text.utf16)
            let levels = [UInt8](repeating: rightToLeft ? 1 : 0, count: units.count)
            try units.withUnsafeBufferPointer { (text) throws(TextError) in
                let graphemes = try UnicodeAnalysis.graphemeEnds(text)
                reused.restart(from: initial)
                var fresh = initial
                reused.paragraphGraphemes = graphemes
                fresh.paragraphGraphemes = graphemes
                levels.withUnsafeBufferPointer { levels in
                    reused.paragraphLevels = rightToLeft ? levels : nil
                    fresh.paragraphLevels = rightToLeft ? levels : nil
                    var g0 = 0
                    for end in graphemes {
                        let g1 = Int(end)
                        let a = reused.font(for: text, g0, g1), b = fresh.font(for: text, g0, g1)
                        if a !== b {
                            Issue.record("\(paragraph.file): unit \(g0) takes \(a.family) restarted, \(b.family) fresh")
                            return
                        }
                        compared += 1
                        g0 = g1
                    }
                    #expect(reused.plansMade == fresh.plansMade && reused.planHintEnd == fresh.planHintEnd)
                    plans += fresh.plansMade
                }
                reused.paragraphLevels = nil
            }
        }
        #expect(compared > 100_000 && plans > 1000, "compared \(compared) graphemes, \(plans) plans")
    }
}
