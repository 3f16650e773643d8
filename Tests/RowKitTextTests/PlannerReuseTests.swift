import Foundation
import Testing
@testable import RowKitText

/// The measuring-form planner keeps its arrays from one text to the next on a thread (issue 8,
/// eighteenth round: its unit codes are only lengthened, its mostly empty arrays emptied only
/// when not empty). A text planned after others gives the bytes it gives on a thread that has
/// planned nothing before.
@Suite struct PlannerReuseTests {
    static func bytes(_ text: String, _ style: TextStyle) throws -> [UInt8] {
        try TextMetrics(text, style: style).withView { Array(UnsafeRawBufferPointer(start: $0.base, count: $0.byteCount)) }
    }

    /// Long before short, dictionary-script text (ranges, refound line starts, language bytes)
    /// before none, special segments (tabs, newlines, soft hyphens) before none, several space
    /// widths before one.
    @Test func aTextPlannedAfterOthersGivesItsBytesOnAFreshThread() async throws {
        let thai = TextStyle(font: FontDescriptor(family: "Noto Sans Thai"), size: 16, whiteSpace: .preWrap, lang: "th")
        let plain = TextStyle(size: 14, whiteSpace: .preWrap)
        let texts: [(String, TextStyle)] = [
            (String(repeating: "ช่างทองลังเลในใจ ไม่กล้าเรียก ดอกแลผล บาง ", count: 40), thai),
            ("in", plain),
            ("ในใจ", thai),
            ("a\tb\nc\u{AD}d e\u{3000}f", plain),
            ("plain words", plain),
            (String(repeating: "مرحبا بالعالم ", count: 30), plain),
            ("x", plain),
            ("", plain),
        ]
        var inSequence: [[UInt8]] = []
        for (text, style) in texts { inSequence.append(try Self.bytes(text, style)) }
        for (k, (text, style)) in texts.enumerated() {
            let fresh: [UInt8]? = await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: try? Self.bytes(text, style)) }.start()
            }
            #expect(fresh == inSequence[k], "text \(k)")
        }
    }
}
