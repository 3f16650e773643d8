import Testing
@testable import RowKitText

/// Preparing text (Prepare/PreparedText.swift): validation of the style's numbers, limits, odd
/// input, and what a prepared text exposes.
@Suite struct PreparedTextTests {
    func expectInvalid(_ name: String, _ style: TextStyle, sourceLocation: SourceLocation = #_sourceLocation) {
        do throws(TextError) {
            _ = try PreparedText("text", style: style)
            Issue.record("\(name) accepted: \(style)", sourceLocation: sourceLocation)
        } catch {
            guard case .invalidNumber(let n, _) = error else {
                Issue.record("unexpected \(error)", sourceLocation: sourceLocation); return
            }
            #expect(n == name, sourceLocation: sourceLocation)
        }
    }

    // MARK: Font size and line height

    @Test(arguments: [Double.nan, 0, -0.0, -1, -Double.infinity, Double.infinity, 10_000.5, 1e9, .greatestFiniteMagnitude])
    func invalidFontSizeThrows(_ size: Double) {
        expectInvalid("font size", style(size: size))
    }

    @Test(arguments: [0.01, 1, 10_000])
    func extremeButValidFontSizesWork(_ size: Double) throws {
        let p = try prepare("Hello 漢字 👍", style(size: size))
        let m = try p.measure(width: 100)
        #expect(m.lineCount >= 1)
        #expect(m.maxLineWidth.isFinite)
    }

    @Test func hugeFontSizeMakesProportionallyWideText() throws {
        // 10 000 px: a character is 625× its 16 px width (same FreeType arithmetic); a
        // segment wider than 32767 px saturates, so compare one letter only.
        let small = try width("m", style(size: 16))
        let big = try width("m", style(size: 10_000))
        #expect(abs(big / small - 625) < 0.01)
    }

    @Test(arguments: [-1.0, -0.001, .nan, .infinity, -Double.infinity, 100_001])
    func invalidLineHeightThrows(_ lineHeight: Double) {
        expectInvalid("line height", style(lineHeight: .pixels(lineHeight)))
    }

    @Test func zeroLineHeightIsAllowed() throws {
        let m = try prepare("a b", style(lineHeight: .pixels(0))).measure(width: 0)
        #expect(m.lineCount == 2)
        #expect(m.height == 0)
    }

    // MARK: Length limits and huge input

    @Test func textLongerThanTheLimitThrows() {
        let length = PreparedText.maximumLength + 1
        let text = String(repeating: "a", count: length)
        #expect(throws: TextError.textTooLong(length: length)) { try PreparedText(text) }
    }

    @Test func aMillionCharactersPrepareAndMeasure() throws {
        let word = "lorem ipsum dolor sit amet 漢字 "
        let text = String(repeating: word, count: 1_000_000 / word.count + 1)
        #expect(text.count >= 1_000_000)
        let p = try prepare(text)
        let m = try p.measure(width: 300)
        #expect(m.lineCount > 10_000)
        #expect(m.maxLineWidth <= 300 + 1.0 / 64)
        #expect(try p.measure(width: .infinity).lineCount == 1)
        #expect(p.byteCount > p.units.count * 2)
    }

    @Test func aMillionCharacterWordBreaksAtGraphemes() throws {
        let text = String(repeating: "x", count: 1_000_000)
        let p = try prepare(text)
        let per = p.width(of: 0..<1)
        var perLine = 0
        while fits(Double(perLine + 1) * per, in: 500) { perLine += 1 }
        #expect(try p.lineCount(width: 500) == (1_000_000 + perLine - 1) / perLine)
    }

    // MARK: Odd characters

    @Test func loneSurrogatesAreReplacedAndDoNotCrash() throws {
        // A Swift String cannot hold a lone surrogate: decoding repairs it to U+FFFD.
        let text = String(decoding: [0xD800, 0x61, 0xDC00, 0x62, 0xDBFF] as [UInt16], as: UTF16.self)
        let p = try prepare(text)
        #expect(p.units.allSatisfy { !(0xD800...0xDFFF).contains($0) })
        #expect(try p.lineCount(width: 1) >= 1)
    }

    @Test func controlAndFormatCharactersDoNotCrash() throws {
        let odd = [
            "\u{0}", "\u{1}\u{2}\u{7}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}", "\u{FEFF}",
            "\u{202E}abc\u{202C}", "\u{2067}unterminated isolate", "\u{202B}\u{202B}\u{202B}", "\u{200D}", "\u{FE0F}",
            "\u{301}", String(repeating: "\u{301}", count: 200), "a" + String(repeating: "\u{301}", count: 200),
            "\u{E000}\u{F8FF}", "\u{10FFFF}", "\u{FFFE}\u{FFFF}", "\u{1F3FB}", "\u{1F1E6}", "\u{E0067}\u{E007F}",
            "\u{0B}\u{0C}", "\t\t", "a\u{0}b", "\u{AD}\u{AD}\u{AD}", "\u{200B}\u{200B}",
        ]
        for text in odd {
            for ws in WhiteSpace.allCases {
                for direction in TextDirection.allCases {
                    let p = try prepare(text, style(ws, direction: direction))
                    for w in [0.0, 1, 50, .infinity] {
                        let layout = try p.layout(width: w, maxLines: 2)
                        for i in layout.lines.indices {
                            _ = layout.glyphs(ofLine: i)
                            _ = layout.text(ofLine: i)
                        }
                        _ = try p.measure(width: w)
                    }
                }
            }
        }
    }

    @Test func unitsAreTheNormalizedText() throws {
        let p = try prepare("  a  b  ")
        #expect(p.units == Array("a b".utf16))
        #expect(p.text == "a b")
        let q = try prepare("  a  b  ", style(.preWrap))
        #expect(q.units == Array("  a  b  ".utf16))
    }

    @Test func widthOfAClampsItsRange() throws {
        let p = try prepare("abc")
        #expect(p.width(of: 0..<100) == p.width(of: 0..<3))
        #expect(p.width(of: 5..<9) == 0)
        #expect(p.width(of: 1..<1) == 0)
        #expect(p.width(of: 0..<1) + p.width(of: 1..<3) == p.width(of: 0..<3))
    }

    @Test func advancesFollowFreeTypeFixedPoint() throws {
        // docs/CHROMIUM.md §1: one CJK ideograph at 16 px = 16.0000305 px (upem 1000), the
        // four-ideograph span is ceil64 → 64.015625 in Chromium.
        let p = try prepare("汉字中文")
        let w = p.width(of: 0..<4)
        #expect(w > 64 && w < 64.001)
        #expect((w * 64).rounded(.up) / 64 == 64.015625)
        // Noto Color Emoji: advance = 136 × size / 109; four clusters at 16 px → 79.859375.
        let e = try prepare("👍🇫🇷🚀👨‍👩‍👧")
        #expect((e.width(of: 0..<e.units.count) * 64).rounded(.up) / 64 == 79.859375)
    }

    @Test func liberationSerifShapesAcrossSpaces() throws {
        // docs/CHROMIUM.md §1: Liberation Serif kerns space pairs; Chromium shapes the whole run.
        let s = style(family: "Liberation Serif")
        #expect((try width("T A T A T A T A T A T A", s) * 64).rounded(.up) / 64 == 159.078125)
        #expect((try width("Ta Ta Ta Ta", s) * 64).rounded(.up) / 64 == 74.171875)
    }

    @Test func mixedSpanWidthMatchesChromium() throws {
        // docs/CHROMIUM.md §3(l) and §1: measured span widths.
        #expect((try width("a b") * 64).rounded(.up) / 64 == 25.046875)
        #expect((try width("hello عربي") * 64).rounded(.up) / 64 == 79.921875)
    }

    @Test func preparedTextIsReusableAcrossWidthsAndThreads() async throws {
        let p = try prepare("The quick brown fox jumps over the lazy dog 漢字 👍")
        let expected = try (0..<50).map { try p.measure(width: Double($0) * 10) }
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<50).allSatisfy { (try? p.measure(width: Double($0) * 10)) == expected[$0] }
                }
            }
            for await ok in group { #expect(ok) }
        }
    }

    @Test func sharedShapeCacheGivesIdenticalResults() throws {
        let cache = ShapeCache(capacity: 1)
        let text = "alpha beta gamma alpha beta 漢字"
        let a = try PreparedText(text, style: style(), cache: cache)
        let b = try PreparedText(text, style: style(), cache: ShapeCache(capacity: 1000))
        #expect(a.width(of: 0..<a.units.count) == b.width(of: 0..<b.units.count))
        #expect(try a.measure(width: 80) == b.measure(width: 80))
        cache.removeAll()
        #expect(cache.statistics.runs == 0)
    }
}
