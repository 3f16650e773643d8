import Testing
@testable import RowKitText

/// `ClusterSplit.width`, answered from the thread's `ShapedWidthMemo` when the text was shaped
/// before, gives what HarfBuzz gives for the text shaped alone: texts of 1–8 units cut from
/// every corpora file, in three fonts, both directions and two shaping languages, each asked
/// once to fill the memo and again to read it back. A key that left out the font, direction,
/// language or a unit would hand one combination another's width.
@Suite struct ShapedWidthMemoTests {
    @Test(.enabled(if: Corpora.folder != nil, "the corpora are absent (ROWKIT_CORPORA, ../shared/corpora)"))
    func memoizedWidthsAreTheWidthsShapedAlone() throws {
        let folder = try #require(Corpora.folder)
        let paragraphs = Corpora.paragraphs(folder)
        let fonts = try ["Noto Sans", "Noto Sans Thai", "DejaVu Serif"].map { try FontLibrary.shared.font(for: FontDescriptor(family: $0)) }
        let languages = [ShapingLanguage(nil), ShapingLanguage("ja")]
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        let memo = PrepareScratch.current.shapedWidths
        var texts: [[UInt16]] = []
        for (k, paragraph) in paragraphs.enumerated() where k % 3 == 0 {
            let units = Array(paragraph.text.utf16)
            for start in stride(from: 0, to: units.count, by: max(1, units.count / 3)) {
                let length = 1 + (start + k) % ShapedWidthMemo.maximumLength
                texts.append(Array(units[start..<min(units.count, start + length)]))
            }
        }
        #expect(texts.count > 3000)
        var compared = 0, answeredFromMemo = 0, differingByCombination = 0
        for text in texts {
            try text.withUnsafeBufferPointer { text in
                var expected: [Int32] = []
                for font in fonts {
                    for rightToLeft in [false, true] {
                        for language in languages {
                            let alone = ClusterSplit.shapedWidth(text, font: font, rightToLeft: rightToLeft, language: language, buffer: buffer)
                            expected.append(alone)
                            #expect(ClusterSplit.width(text, 0..<text.count, font: font, rightToLeft: rightToLeft, language: language,
                                                       buffer: buffer) == alone)
                        }
                    }
                }
                if Set(expected).count > 1 { differingByCombination += 1 }
                var k = 0
                for font in fonts {
                    for rightToLeft in [false, true] {
                        for language in languages {
                            let place = try #require(memo.slot(text, font: font.id, rightToLeft: rightToLeft, language: language.id))
                            if memo.width(at: place) != nil { answeredFromMemo += 1 }
                            let width = ClusterSplit.width(text, 0..<text.count, font: font, rightToLeft: rightToLeft,
                                                           language: language, buffer: buffer)
                            if width != expected[k] {
                                Issue.record("\(Array(text)) in \(font.family), rtl \(rightToLeft), language \(language.id): \(width), alone \(expected[k])")
                                return
                            }
                            compared += 1
                            k += 1
                        }
                    }
                }
            }
        }
        // The second round read the memo (most keys kept their slot) and combinations differ.
        #expect(answeredFromMemo * 2 > compared)
        #expect(differingByCombination * 2 > texts.count)
    }
}
