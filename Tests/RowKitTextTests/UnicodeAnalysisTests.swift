import Testing
@testable import RowKitText

/// The browser's changes to ICU's line breaks (Prepare/Unicode.swift), checked through layout.
/// Expected lines are Chromium 156's (docs/CHROMIUM.md §3(m), eleventh round), Noto Sans 16 px,
/// `white-space: normal`, with the controls left out of the line texts.
@Suite struct UnicodeAnalysisTests {
    private let noto = style(family: "Noto Sans", lineHeight: .pixels(20))

    private func visibleLines(_ text: String, width: Double) throws -> [String] {
        try lineTexts(text, width: width, noto).map { line in
            String(String.UnicodeScalarView(line.unicodeScalars.filter { $0.value >= 0x20 && ($0.value < 0x7F || $0.value > 0x9F) }))
        }
    }

    @Test func c0ControlGluesToWhatFollows() throws {
        // ICU (UAX #14 LB9) breaks after `快\u{1}` before an ideograph or a Cyrillic letter;
        // Chromium does not: at 60 px the control's line holds `快\u{1}快快`, at 45 px `快\u{1}ж`.
        #expect(try visibleLines("快快快\u{1}快快快", width: 60) == ["快快", "快快快", "快"])
        #expect(try visibleLines("快快快\u{1}жжж", width: 45) == ["快快", "快ж", "жж"])
        #expect(try visibleLines("快快快\u{1F}жжж", width: 60) == ["快快", "快жж", "ж"])
        #expect(try visibleLines("快快快\u{0}жжж", width: 60) == ["快快", "快жжж"])
    }

    @Test func c1ControlGluesToASCIIAfterIt() throws {
        // A C1 control before ASCII is decided like DEL, by Chromium's table: no break
        // (`快。\u{90}Chiiiiii` at 50 px is overflow-wrapped after `C`); before other text ICU
        // decides (a break before `ж`, as in the seed-3101 sample's `快。\u{90}Children`).
        #expect(try visibleLines("快。\u{90}Chiiiiii", width: 50) == ["快。C", "hiiiiii"])
        #expect(try visibleLines("快\u{9F}Chiiiiii", width: 50) == ["快Chiii", "iii"])
        #expect(try visibleLines("快快快\u{80}111", width: 60) == ["快快", "快111"])
        #expect(try visibleLines("快\u{90}жжжж", width: 50) == ["快", "жжжж"])
        // NEL stays a break.
        #expect(try visibleLines("快。\u{85}Chiiiiii", width: 50) == ["快。", "Chiiiiii"])
    }

    @Test func formatCharactersInsideAnArabicWordLeaveItJoined() throws {
        // Chromium 156, `Times` 34.5 px (Liberation Serif; Arabic from DejaVu Sans): a word
        // joiner, ZWSP, LRM, RLM, an embedding or an invisible operator between two beh is
        // transparent to joining — 43.48 px like `بب`, not two isolated forms (64.97) — while a
        // bidi isolate ends the shaping item. The seed-3108 sample's controls/0260 split
        // `على\u{2060}مساعدتك` at 61 px after `مس`, not `مسا`.
        var times = style(family: "Times", size: 34.5, lineHeight: .pixels(37))
        times.font = FontDescriptor(family: "Times")
        let joined = try width("بب", times)
        #expect(abs(joined - 43.484) < 0.02)
        for format in ["\u{2060}", "\u{200B}", "\u{200F}", "\u{202C}", "\u{2061}"] {
            #expect(abs(try width("ب\(format)ب", times) - joined) < 0.02, "\(format.unicodeScalars.first!.value)")
        }
        #expect(abs(try width("ب\u{2066}ب", times) - 64.969) < 0.02)
        #expect(try lineTexts("على\u{2060}مساعدتك", width: 61, times).map { $0.filter { $0 != "\u{2060}" } } == ["على", "مس", "اعدت", "ك"])
    }
}
