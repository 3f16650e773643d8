import Testing
@testable import RowKitText

/// `Builder.collectSegments` writes a text of many segments through pointers and a missed
/// word's few segments by appending: both ways give the same segments, flags and line-end
/// trims, for every paragraph of the corpora (CJK punctuation trimmed at line ends, kerned
/// Latin, Thai and Khmer dictionary breaks, tabs and ideographic spaces) in several styles.
@Suite struct SegmentWritingTests {
    struct Segments: Equatable {
        var ends: [Int32], contents: [Int32], widths: [Int32], spaces: [Int32], flags: [UInt8]
        var trimSegments: [Int32], trimAmounts: [Int32], reshaped: Int, beyondRuns: Bool
    }

    static func segments(_ text: [UInt16], _ style: TextStyle, from threshold: Int) throws -> Segments {
        let fonts = FontLibrary.shared
        var builder = Builder(try ResolvedStyle(style, fonts: fonts), fonts: fonts, cache: ShapeCache(capacity: 1000))
        builder.segmentsThroughPointersFrom = threshold
        try text.withUnsafeBufferPointer { (units) throws(TextError) in try builder.build(units) }
        return Segments(ends: builder.segmentEnds, contents: builder.contentEnds, widths: builder.widths, spaces: builder.spaceWidths,
                        flags: builder.flags, trimSegments: builder.endTrimSegments, trimAmounts: builder.endTrimAmounts,
                        reshaped: builder.reshapedFonts.count, beyondRuns: builder.recordsBeyondRuns)
    }

    @Test(.enabled(if: Corpora.folder != nil, "the corpora are absent (ROWKIT_CORPORA, ../shared/corpora)"))
    func pointersAndAppendsGiveTheSameSegments() throws {
        let folder = try #require(Corpora.folder)
        let styles = [style(family: "Noto Sans", lineHeight: .normal), style(.preWrap, family: "DejaVu Sans"),
                      TextStyle(font: FontDescriptor(family: "Noto Sans CJK JP"), size: 15, lineHeight: .normal, lang: "ja")]
        var compared = 0, trimmed = 0
        var perFile: [String: Int] = [:]
        for paragraph in Corpora.paragraphs(folder) {
            guard perFile[paragraph.file, default: 0] < 25 else { continue }
            perFile[paragraph.file, default: 0] += 1
            let text = Array(paragraph.text.utf16.prefix(500)) + Array("「括弧」、\u{3000}、。\tx".utf16)
            for style in styles {
                let appended = try Self.segments(text, style, from: Int.max)
                let written = try Self.segments(text, style, from: 1)
                #expect(appended == written, "\(paragraph.file)")
                #expect(appended.ends.count > 1)
                compared += 1
                if !appended.trimSegments.isEmpty { trimmed += 1 }
            }
        }
        #expect(compared > 100)
        #expect(trimmed > 20)
    }
}
