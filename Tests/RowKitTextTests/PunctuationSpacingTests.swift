import Testing
@testable import RowKitText

/// CJK punctuation classes as Chromium reads them from the glyphs as drawn: FreeType's control
/// box in whole pixels, after the synthetic-italic skew and synthetic bold, against half the advance
/// (docs/CHROMIUM.md §3(e)). Each pair below trims (`halt`) only when the first mark's class is
/// not `other`: `あ。「あ` tells the full stop's class, `あ：「あ` the colon's, `」“あ` whether the
/// quotes are fullwidth. Expected values measured in Chromium 156 (one-line widths).
@Suite struct PunctuationSpacingTests {
    func cjk(_ family: String, weight: Int = 400, italic: Bool = false, size: Double, lang: String) -> TextStyle {
        TextStyle(font: FontDescriptor(family: family, weight: FontWeight(weight), italic: italic), size: size,
                  lineHeight: .pixels(20), lang: lang)
    }

    /// Whether the pair in `text` (ideographic-width characters) is trimmed by half an em.
    func trims(_ text: String, _ style: TextStyle) throws -> Bool {
        let full = try width(String(repeating: "あ", count: text.count), style)
        let w = try width(text, style)
        #expect(w == full || abs(full - w - style.size / 2) < 0.1, "\(text): \(w) of \(full)")
        return w < full
    }

    @Test func wholePixelBoundsDecideTheQuotes() throws {
        // Noto Serif CJK SC Bold's `”` ends at 0.468 em: 11.23 px at 24 px, 12 whole pixels — more
        // than the 11.99996 px half advance (FreeType's scale of 24 px rounds down), so the quotes
        // are not fullwidth; at 31 px they are.
        for size in [13.0, 16, 24] {
            #expect(try !trims("」“あ", cjk("serif", weight: 700, size: size, lang: "zh-Hans")), "\(size)")
        }
        #expect(try trims("」“あ", cjk("serif", weight: 700, size: 31, lang: "zh-Hans")))
        // Regular: fullwidth from 13 px, not at 10.
        #expect(try !trims("」“あ", cjk("serif", size: 10, lang: "zh-Hans")))
        #expect(try trims("」“あ", cjk("serif", size: 13, lang: "zh-Hans")))
    }

    @Test func syntheticItalicSkewsTheBounds() throws {
        // DejaVu Sans italic → Noto Sans CJK TC drawn with synthetic italic: the slanted full
        // stop (centred in TC) keeps its class at 13, 16 and 31 px, is `other` at 10, 18, 20, 24 px.
        let expected: [(Double, Bool)] = [(10, false), (13, true), (16, true), (18, false), (20, false), (24, false), (31, true)]
        for (size, trimmed) in expected {
            #expect(try trims("あ。「あ", cjk("DejaVu Sans", italic: true, size: size, lang: "zh-Hant")) == trimmed, "\(size)")
            // Upright, always.
            #expect(try trims("あ。「あ", cjk("DejaVu Sans", size: size, lang: "zh-Hant")), "\(size)")
        }
        // Noto Serif CJK SC italic: the colon is not trimmed at 10 px only.
        #expect(try !trims("あ：「あ", cjk("serif", italic: true, size: 10, lang: "zh-Hans")))
        #expect(try trims("あ：「あ", cjk("serif", italic: true, size: 13, lang: "zh-Hans")))
    }

    @Test func syntheticBoldGrowsTheBounds() throws {
        // DejaVu Sans (and sans-serif) bold italic → Noto Sans CJK JP Regular drawn with synthetic
        // bold and italic at 10 px: the slant alone keeps `。、，` in the box's left half, the
        // emboldening (size/48 px a side) pushes them over it, so Chromium does not trim `。「`
        // (`あ。「あ` at 36 px: two lines). Bold upright and italic 400 still trim (one line).
        for family in ["DejaVu Sans", "sans-serif"] {
            for lang in ["en", "ja"] {
                for mark in ["。", "、", "，"] {
                    let text = "あ\(mark)「あ"
                    #expect(try !trims(text, cjk(family, weight: 700, italic: true, size: 10, lang: lang)), "\(family) \(lang) \(mark)")
                    #expect(try trims(text, cjk(family, weight: 700, size: 10, lang: lang)), "\(family) \(lang) \(mark)")
                    #expect(try trims(text, cjk(family, italic: true, size: 10, lang: lang)), "\(family) \(lang) \(mark)")
                }
            }
        }
    }

    @Test func aClosingQuoteEndingALineIsTrimmedWhereItsPairsAreNot() throws {
        // The pixel bounds make these quotes narrow for pairs (no trim in `」“あ`), but Chromium
        // still trims `”` at a line end: `！”` fits 39 px at 21 px (the sample's cjk-chinese/0023,
        // seed 777), 17 px at 10 px, 40 px in Noto Serif CJK SC Bold at 24 px.
        let cases: [(TextStyle, Double)] = [
            (cjk("sans-serif", italic: true, size: 21, lang: "zh-Hans"), 39),
            (cjk("serif", italic: true, size: 21, lang: "zh-Hans"), 39),
            (cjk("serif", size: 10, lang: "zh-Hans"), 17),
            (cjk("serif", weight: 700, size: 24, lang: "zh-Hans"), 40),
        ]
        for (style, width) in cases {
            #expect(try !trims("」“あ", style))
            #expect(try lineTexts("好！”她", width: width, style) == ["好", "！”", "她"], "\(style.size)")
        }
    }

    @Test func aTrimmedLineEndIsTheLineUpToTheMarkAndTheMarkEachRoundedUp() throws {
        // Chromium shapes the trimmed mark again as a part of its own; the line up to it (by its
        // positions in the shaping item) and the mark are each rounded up to 1/64 px, then the
        // usual 1/64 px of allowance. At 16 px (13 px) FreeType makes the em 16.00003 px
        // (13.00002): `好”` is 16.015625 + 8.015625, so at 40 px `好！”` breaks before `”`,
        // which stands alone; after `あ` the line starts off the 1/64 px grid and the same end
        // fits. At 10 px (9.99998) the pieces round to whole halves: `好”` fits 14.984375 px.
        // HarfBuzz's `halt` takes half the design advance at the linear scale: 10.55 px at 21.1 px
        // (`好好」` fits 52.734375). All measured in Chromium (docs/CHROMIUM.md §3(e)).
        for family in ["sans-serif", "serif"] {
            let style16 = cjk(family, size: 16, lang: "zh-Hans"), style13 = cjk(family, size: 13, lang: "zh-Hans")
            #expect(try lineTexts("好！”", width: 40, style16) == ["好！", "”"], "\(family)")
            #expect(try lineTexts("好！”", width: 40.015625, style16) == ["好！”"], "\(family)")
            #expect(try lineTexts("あ好！”", width: 40, style16) == ["あ", "好！”"], "\(family)")
            #expect(try lineTexts("好！”", width: 32.5, style13) == ["好！", "”"], "\(family)")
            #expect(try lineTexts("あ好！”", width: 32.5, style13) == ["あ", "好！”"], "\(family)")
        }
        let style10 = cjk("sans-serif", size: 10, lang: "zh-Hans")
        #expect(try lineTexts("好”", width: 14.984375, style10) == ["好”"])
        #expect(try lineTexts("好”", width: 14.96875, style10) == ["好", "”"])
        let style21 = cjk("sans-serif", size: 21.1, lang: "zh-Hans")
        #expect(try lineTexts("好好」", width: 52.734375, style21) == ["好好」"])
        #expect(try lineTexts("好好」", width: 52.71875, style21) == ["好", "好」"])
    }
}
