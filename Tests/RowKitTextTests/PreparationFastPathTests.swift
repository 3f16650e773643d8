import Testing
import PropertyBased
@testable import RowKitText

/// The shortcuts preparing takes for common text give what the general path gives: white-space
/// normalization of ASCII text read from its UTF-8 bytes, and bidi levels of `dir=auto` text
/// without right-to-left units taken as all 0 without asking ICU.
@Suite struct PreparationFastPathTests {
    /// White-space normalization as WhiteSpace.swift documents it, unit by unit (the model).
    static func model(_ text: String, _ whiteSpace: WhiteSpace) -> [UInt16] {
        let units = Array(text.utf16)
        switch whiteSpace {
        case .preWrap:
            return units.filter { $0 != 0x0D && $0 != 0x0C }
        case .normal:
            if units.allSatisfy({ $0 == 0x20 || (0x09...0x0D).contains($0) }) { return [] }
            var out: [UInt16] = []
            var pending = false
            for u in units {
                if u == 0x20 || u == 0x09 || u == 0x0A || u == 0x0D { pending = !out.isEmpty; continue }
                if pending { out.append(0x20); pending = false }
                out.append(u)
            }
            return out
        }
    }

    static let pieces = ["a", "Word", " ", "  ", "\t", "\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\u{0}", ".", "~", "x y", "é", "漢",
                         "Ж", "ไทย", "😀", "\u{10000}", "\u{10FFFF}", "\u{FFFF}", "\u{3000}", "\u{85}"]

    @Test func normalizationMatchesTheModel() async {
        let gen = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...24)
        await propertyCheck(count: 500, input: gen, Gen.bool) { indices, ascii in
            // ASCII texts take the byte path; the others (2-, 3- and 4-byte UTF-8) the transcoding one.
            let text = indices.map { Self.pieces[$0] }.filter { !ascii || $0.utf8.allSatisfy { $0 < 0x80 } }.joined()
            for whiteSpace in WhiteSpace.allCases {
                #expect(whiteSpace.normalize(text) == Self.model(text, whiteSpace), "\(whiteSpace) \(text.debugDescription)")
                // Small (inline) and large (heap) strings alike.
                let long = String(repeating: text, count: 3)
                #expect(whiteSpace.normalize(long) == Self.model(long, whiteSpace), "\(whiteSpace) \(long.debugDescription)")
            }
        }
    }

    /// Texts longer than the counting pass's 255-byte blocks (WhiteSpace.swift, `Census`): a
    /// non-ASCII byte, a space or a 4-byte sequence on either side of a block's edge, and white
    /// space alone, at lengths around the edges.
    @Test func longTextsAcrossCountingBlocksMatchTheModel() {
        for length in [254, 255, 256, 509, 510, 511, 766, 1000] {
            for filler in ["a", " ", "\u{0B}", "é", "漢", "😀"] {
                for last in ["b", " ", "é", "😀", "\r\n"] {
                    var text = ""
                    while text.utf8.count < length { text += filler }
                    text += last
                    for whiteSpace in WhiteSpace.allCases {
                        #expect(whiteSpace.normalize(text) == Self.model(text, whiteSpace), "\(whiteSpace) \(length) \(filler) \(last)")
                        let spaces = String(repeating: " \t\n", count: length / 3)
                        #expect(whiteSpace.normalize(spaces) == Self.model(spaces, whiteSpace))
                    }
                }
            }
        }
    }

    /// Units of every script the corpora and the fidelity grid use, none right-to-left.
    static let leftToRight = ["Hello", " ", "1234", "3.14", "+-", "(", ")", "\"", "é", "漢字", "かな", "한국", "हिन्दी", "ไทย",
                              "ខ្មែរ", "မြန်", "—", "…", "\u{200B}", "\u{200E}", "\u{AD}", "Ω", "Ж", "ß", "€", "€5", "12:30"]

    @Test func autoDirectionWithoutRightToLeftUnitsIsAllLevelZero() async throws {
        let gen = Gen.int(in: 0...(Self.leftToRight.count - 1)).array(of: 1...20)
        await propertyCheck(count: 300, input: gen) { indices in
            let units = Array(indices.map { Self.leftToRight[$0] }.joined().utf16)
            #expect(!units.contains(where: UnicodeAnalysis.mayBeRightToLeft))
            var levels = [UInt8](repeating: 0xFF, count: units.count)
            let paragraph = units.withUnsafeBufferPointer { u in
                levels.withUnsafeMutableBufferPointer { ICU.bidiLevels(u, paragraphLevel: 0xFE, levels: $0.baseAddress) }
            }
            #expect(paragraph == 0 && levels.allSatisfy { $0 == 0 }, "ICU disagrees for \(units)")
            let fast = try units.withUnsafeBufferPointer { (u) throws(TextError) in try UnicodeAnalysis.bidiLevels(u, direction: .auto) }
            #expect(fast.levels == nil && fast.paragraphLevel == 0)
        }
    }

    @Test func autoDirectionWithRightToLeftTextStillAsksICU() throws {
        let units = Array("abc שלום".utf16)
        let result = try units.withUnsafeBufferPointer { (u) throws(TextError) in try UnicodeAnalysis.bidiLevels(u, direction: .auto) }
        #expect(result.paragraphLevel == 0)
        #expect(result.levels?.last == 1)
    }
}
