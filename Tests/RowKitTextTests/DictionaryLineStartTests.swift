import Testing
@testable import RowKitText

/// A line starting between two words of a dictionary-script run finds the rest of the run's
/// words again from its start, as Chromium runs its break iterator from every line start; ICU's
/// dictionary engines break no range of four code points or fewer (docs/CHROMIUM.md §3(g),
/// sixteenth round). Lines measured in headless Chromium 156.
@Suite struct DictionaryLineStartTests {
    /// Myanmar: `မှစ၍` after `ချိန်` (Noto Sans Myanmar 16 px, 25 px wide): the rest `မှစ` is
    /// three code points, so it has no break from there; RowKit broke it `မှ` / `စ၍` as ICU does
    /// over the whole text.
    @Test func aShortRestOfAMyanmarRunIsNotBrokenAtItsWords() throws {
        let s = TextStyle(font: FontDescriptor(family: "Noto Sans Myanmar"), size: 16, lineHeight: .pixels(35))
        #expect(try lineTexts("ထိုအချိန်မှစ၍ ဗျိုင်းသည်", width: 25, s).map { $0.filter { $0 != " " } }
                == ["ထို", "အ", "ချိန်", "မှစ", "၍", "ဗျို", "င်း", "သ", "ည်"])
        // `ရစေ` after `လိုက်ပါ` at 55 px: one piece with the quotation mark after it.
        #expect(try lineTexts("လိုက်ပါရစေ”ဟု ခွင့်", width: 55, s).map { $0.filter { $0 != " " } }
                == ["လိုက်ပါ", "ရစေ”", "ဟုခွင့်"])
    }

    /// Thai: `ในใจ` (four code points) on a line of its own at 21 px is broken between
    /// graphemes (`ในใ` / `จ`), not at the dictionary's `ใน` / `ใจ`.
    @Test func aShortRestOfAThaiRunIsBrokenBetweenGraphemes() throws {
        let s = TextStyle(font: FontDescriptor(family: "Noto Sans Thai"), size: 16, lineHeight: .pixels(24))
        let lines = try lineTexts("ช่างทองลังเลในใจ ไม่กล้าเรียก", width: 21, s).map { $0.filter { $0 != " " } }
        #expect(lines.contains("ในใ") && lines.contains("จ"))
        #expect(!lines.contains("ใน"))
    }

    /// Thai in DejaVu Sans 16 px (→ Noto Sans Thai) and Mono 39 px: from `แ` ICU sees `แลผล`
    /// (the whole text: `แล|ผล`), from `ต` `ตฤดู`, and after `เวตาลกล่าวว่า` is split at `ล่า|ว`,
    /// from `ว` `วว่า` (the sample's corpus-th/0057, seed 6101). Chromium 156's lines.
    @Test func thaiLinesFindTheWordsFromTheirStart() throws {
        let s = TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 16)
        #expect(try lineTexts("ดอกแลผล บาง", width: 30, s) == ["ดอก", "แลผ", "ล", "บาง"])
        #expect(try lineTexts("วันหนึ่งในวสันตฤดู", width: 28.5, s) == ["วัน", "หนึ่ง", "ในว", "สัน", "ตฤ", "ดู"])
        let mono = TextStyle(font: FontDescriptor(family: "DejaVu Sans Mono"), size: 39, lineHeight: .pixels(49))
        #expect(try lineTexts("เวตาลกล่าวว่า", width: 38.54, mono) == ["เว", "ต", "าล", "ก", "ล่า", "วว่", "า"])
        #expect(try lineTexts("ดอกแลผล บาง", width: 47, s) == ["ดอกแล", "ผล", "บาง"])
    }

    /// A run's words found from the run's start stay where a line does not start inside a
    /// short rest: at 200 px the whole text is two lines broken at the space.
    @Test func wideLinesKeepTheStoredBreaks() throws {
        let s = TextStyle(font: FontDescriptor(family: "Noto Sans Thai"), size: 16, lineHeight: .pixels(24))
        #expect(try lineTexts("ช่างทองลังเลในใจ ไม่กล้าเรียก", width: 200, s).count == 1)
        #expect(try lineTexts("ช่างทองลังเลในใจ ไม่กล้าเรียก", width: 120, s).map { $0.filter { $0 != " " } }
                == ["ช่างทองลังเลในใจ", "ไม่กล้าเรียก"])
    }
}
