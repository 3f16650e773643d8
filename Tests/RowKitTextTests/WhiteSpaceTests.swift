import Testing
@testable import RowKitText

/// White-space normalization (Prepare/WhiteSpace.swift), CSS `white-space: normal` / `pre-wrap`.
@Suite struct WhiteSpaceTests {
    @Test func normalCollapsesRunsAndTrimsEnds() throws {
        // docs/CHROMIUM.md §3(l): "  a \t\n  b  " renders exactly like "a b".
        let p = try prepare("  a \t\n  b  ")
        #expect(p.text == "a b")
        #expect(p.width(of: 0..<p.units.count) == (try width("a b")))
        #expect(try p.measure(width: 1000).maxLineWidth == (try prepare("a b").measure(width: 1000).maxLineWidth))
    }

    @Test func normalTurnsNewlinesIntoSpacesAndDoesNotBreak() throws {
        let p = try prepare("aaa\nbbb\r\nccc")
        #expect(p.text == "aaa bbb ccc")
        #expect(try p.lineCount(width: .infinity) == 1)
        #expect(try p.lineCount(width: 10_000) == 1)
    }

    @Test func preWrapForcesBreaksAtNewlines() throws {
        let s = style(.preWrap)
        #expect(try lineTexts("aaa\nbbb", width: .infinity, s) == ["aaa", "bbb"])
        #expect(try lineTexts("a\n\nb", width: 1000, s) == ["a", "", "b"])
        // CR LF is one newline; a lone CR is dropped (Chromium: invisible, no break).
        #expect(try prepare("a\r\nb\rc", s).text == "a\nbc")
        #expect(try prepare("a\r\nb\rc", s).lineCount(width: 1000) == 2)
    }

    @Test func preWrapTrailingNewlineAddsNoEmptyLine() throws {
        // A newline ends its line; nothing follows, so no extra (empty) line box.
        #expect(try prepare("a\n", style(.preWrap)).lineCount(width: 1000) == 1)
        #expect(try prepare("\n", style(.preWrap)).lineCount(width: 1000) == 1)
        #expect(try prepare("\n\n", style(.preWrap)).lineCount(width: 1000) == 2)
    }

    @Test func preWrapKeepsSpaces() throws {
        let s = style(.preWrap)
        let p = try prepare("a   b", s)
        #expect(p.text == "a   b")
        let space = try width("a b") - width("a") - width("b")
        #expect(space > 0)
        let expected = try width("a", s) + 3 * space + width("b", s)
        #expect(abs(p.width(of: 0..<5) - expected) < 0.001)
    }

    @Test func emptyAndWhitespaceOnlyTextHasNoLinesInNormal() throws {
        for text in ["", " ", "   ", "\n\t \n", "\r\n"] {
            let p = try prepare(text)
            let m = try p.measure(width: 100)
            #expect(m.lineCount == 0, "\(text.debugDescription)")
            #expect(m.height == 0)
            #expect(m.maxLineWidth == 0)
            #expect(try p.layout(width: 100).lines.isEmpty)
        }
    }

    @Test func emptyTextHasNoLinesInPreWrap() throws {
        #expect(try prepare("", style(.preWrap)).lineCount(width: 100) == 0)
    }

    @Test func spacesOnlyMakeOneLineInPreWrap() throws {
        // Preserved spaces still form a line box (it is just empty of ink).
        #expect(try prepare("   ", style(.preWrap)).lineCount(width: 100) == 1)
    }

    @Test(arguments: ["\u{A0}", "\u{AD}", "\u{200B}"])
    func invisibleButNonCollapsibleCharacterMakesOneLine(_ text: String) throws {
        // docs/CHROMIUM.md §3(c),(k): NBSP, SHY or ZWSP alone produce a 16 px line.
        let m = try prepare(text).measure(width: 100)
        #expect(m.lineCount == 1)
        #expect(m.height == 16)
    }

    @Test func nbspOnlyTextIsOneLineEvenWhenRepeated() throws {
        #expect(try prepare("\u{A0}\u{A0}\u{A0}").lineCount(width: 100) == 1)
    }

    /// U+3000 hangs behind the word it ends, but after a break after a space it is content
    /// (docs/CHROMIUM.md §3(e)): `漢漢 　漢漢` at 33 px is `漢漢 ` / `　漢` / `漢` in Chromium.
    @Test func ideographicSpaceAfterASpaceIsContent() throws {
        #expect(try lineTexts("漢漢 \u{3000}漢漢", width: 33) == ["漢漢", "\u{3000}漢", "漢"])
        #expect(try lineTexts("漢漢\u{3000}漢漢", width: 33) == ["漢漢", "漢漢"])
        #expect(try prepare("ab\u{3000}\u{3000}\u{3000}").lineCount(width: 21) == 1)
        // pre-wrap: it hangs behind the space (`Line 　 Keep` at 9 px, measured).
        #expect(try prepare("ab \u{3000} cd", style(.preWrap)).lineCount(width: 9) == 4)
        #expect(try prepare("ab \u{3000} cd").lineCount(width: 9) == 5)
    }

    @Test func preWrapDroppedCarriageReturnAndFormFeedGlueTheirNeighbours() throws {
        // Chromium 156, Noto Sans 16 px, pre-wrap (docs/CHROMIUM.md §3(m), eleventh round): no
        // break on either side of a dropped CR or FF, where the text without it would break
        // (`快|快` and `。|M`); `normal` turns the CR into a space, a break.
        let pre = style(.preWrap, family: "Noto Sans", lineHeight: .pixels(20))
        for control in ["\r", "\u{C}"] {
            #expect(try lineTexts("快快\(control)快快快快", width: 40, pre) == ["快", "快快", "快快", "快"])
            #expect(try lineTexts("报告。\(control)Measuring", width: 100, pre) == ["报", "告。Measuri", "ng"])
            #expect(try lineTexts("快快\(control)Measuring", width: 70, pre) == ["快", "快Measu", "ring"])
        }
        #expect(try lineTexts("快快\r快快快快", width: 40, style(.normal, family: "Noto Sans", lineHeight: .pixels(20))) == ["快快", "快快", "快快"])
    }
    @Test func preWrapDroppedControlEndsArabicJoining() throws {
        // Chromium 156, DejaVu Sans 31 px, pre-wrap (docs/CHROMIUM.md §3(m), thirty-first session;
        // the sample's controls/0723, seed 31006): Chromium keeps a dropped CR or FF in its text as
        // a control item, so the letters on either side are shaped apart and do not join —
        // `الطقس\u{C}جميل` is `الطقس` 98.70 px + `جميل` 69.92 px, not `الطقسجميل` 157.59 px; at
        // 239.66 px `الطقس\u{C}جميل اليوم` is therefore two lines. `normal` keeps the FF as a glyph.
        let pre = style(.preWrap, size: 31, lineHeight: .pixels(36.8))
        for control in ["\r", "\u{C}"] {
            #expect(try width("الطقس\(control)جميل", pre) >= 168.6)
            #expect(try lineTexts("الطقس\(control)جميل اليوم", width: 239.66, pre).count == 2)
        }
        #expect(try abs(width("الطقسجميل", pre) - 157.59) < 0.01)
        #expect(try TextMetrics("الطقس\u{C}جميل اليوم", style: pre).measure(width: 239.66).lineCount == 2)
    }

    @Test func preWrapSeveralDroppedControlsEachGlue() throws {
        // Chromium 156, Noto Sans 16 px, line-height 20 px, pre-wrap (measured 2026-11-24): every
        // dropped CR or FF of a text glues its neighbours, also two in a row.
        let pre = style(.preWrap, family: "Noto Sans", lineHeight: .pixels(20))
        #expect(try lineTexts("快快\r快快快快\r快快快快", width: 40, pre) == ["快", "快快", "快快", "快快", "快快", "快"])
        #expect(try lineTexts("快快\r快快快快\r快快快快", width: 56, pre) == ["快快快", "快快", "快快快", "快快"])
        #expect(try lineTexts("快\r快\r快\r快\r快\r快", width: 40, pre) == ["快快", "快快", "快快"])
        #expect(try lineTexts("快快\u{C}快快\r快快快快\r\r快", width: 40, pre) == ["快", "快快", "快快", "快快", "快快"])
        #expect(try lineTexts("快快\u{C}快快\r快快快快\r\r快", width: 100, pre) == ["快快快快快快", "快快快"])
        // Chromium's line texts here are without their trailing space (the harness's form).
        let trimmed = try lineTexts("报告。\r告。\rMeasuring 快快\r快快", width: 56, pre).map { String($0.reversed().drop { $0 == " " }.reversed()) }
        #expect(trimmed == ["报", "告。告", "。Mea", "suring", "快快快", "快"])
    }

    /// `.normal`'s ASCII path, which collapses white space without a branch on it (issue 8,
    /// twenty-second round), against the rule written out: runs of space, tab, LF and CR become
    /// one space, none at either end; VT, FF and other controls stay. Random texts over those
    /// bytes and letters, of every length up to 40 (and a long one), and the non-ASCII path
    /// (one `é` added) for the same texts.
    @Test func normalCollapsesASCIIWhiteSpaceAsTheRuleSays() {
        var state: UInt64 = 0x57AC_E022
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet: [UInt8] = [0x20, 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C, 0x00, 0x1F, 0x61, 0x62, 0x41, 0x7E, 0x7F, 0x2E, 0x3F, 0x40]
        func reference(_ bytes: [UInt8]) -> [UInt16] {
            let collapsible: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
            if bytes.allSatisfy({ $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }) { return [] }
            var out: [UInt16] = [], pending = false
            for b in bytes {
                if collapsible.contains(b) { pending = !out.isEmpty; continue }
                if pending { out.append(0x20); pending = false }
                out.append(UInt16(b))
            }
            return out
        }
        var texts: [[UInt8]] = []
        for length in 0...40 {
            for _ in 0..<25 { texts.append((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }) }
        }
        texts.append((0..<3000).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
        for bytes in texts {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(WhiteSpace.normal.normalize(text) == reference(bytes), "\(bytes)")
            let wide = String(decoding: bytes + [0xC3, 0xA9], as: UTF8.self)
            #expect(WhiteSpace.normal.normalize(wide) == reference(bytes + [0xC3, 0xA9]).map { $0 == 0xC3 ? 0xE9 : $0 }.filter { $0 != 0xA9 },
                    "\(bytes) + é")
        }
    }
}
