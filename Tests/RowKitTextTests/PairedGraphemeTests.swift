import Testing
@testable import RowKitText

/// Grapheme ends found with ICU's iterator only over the stretches the units around a position
/// leave open (`rk_grapheme_breaks_paired`) are the iterator's over the whole text: checked for
/// every UTF-16 unit between and next to units of every grapheme-break class and the joining
/// sequences (virama + consonant, coeng, ZWJ + emoji, regional indicators, Hangul jamo), and
/// for every paragraph of the corpora and windows cut from them at any unit.
@Suite struct PairedGraphemeTests {
    static func ends(_ units: [UInt16], byIterator: Bool) -> [Int32] {
        var ends = [Int32](repeating: 0, count: units.count + 1)
        let count = units.withUnsafeBufferPointer { u in
            ends.withUnsafeMutableBufferPointer {
                byIterator ? ICU.graphemeBreaksByIterator(u, breaks: $0.baseAddress, capacity: Int32(units.count + 1))
                    : ICU.graphemeBreaks(u, breaks: $0.baseAddress, capacity: Int32(units.count + 1))
            }
        }
        return Array(ends.prefix(Int(max(-1, count))))
    }

    /// One unit of each grapheme-break class, and the units of the sequences ICU joins.
    static let neighbours: [[UInt16]] = [
        [0x61], [0x0628], [0x05D0], [0x0915], [0x0E01], [0x1780], [0x1000], [0x4E00], // Other
        [0x0A], [0x0D], [0x0D, 0x0A], [0x200B], [0x01],                                // LF, CR, Control
        [0x0301], [0x064E], [0x0E34], [0x200C], [0xFE0F],                              // Extend
        [0x094D], [0x094D, 0x0915], [0x09CD, 0x0995],                                  // virama + consonant (GB9.3)
        [0x0915, 0x094D], [0x0995, 0x09CD], [0x0A95, 0x0ACD], [0x0B15, 0x0B4D],        // linking consonant + virama
        [0x0C15, 0x0C4D], [0x0D15, 0x0D4D], [0x0915, 0x094D, 0x200D], [0x0B95, 0x0BCD], // (Tamil is no linker)
        [0x0915, 0x093C, 0x094D], [0x0E01, 0x0E31], [0x0E33], [0x0628, 0x064E, 0x0651], // nukta; Thai, Arabic marks
        [0x17D2], [0x17D2, 0x1780], [0x1039], [0x1039, 0x1000],                        // coeng, Myanmar virama
        [0x200D], [0x200D, 0x2764], [0x2764], [0x00A9], [0xD83D, 0xDC4D],             // ZWJ, pictographs
        [0x0903], [0x0E33], [0x093E],                                                  // SpacingMark
        [0x0600], [0x0D4E], [0xD804, 0xDCBD],                                                // Prepend
        [0x1100], [0x1161], [0x11A8], [0xAC00], [0xAC01],                              // L, V, T, LV, LVT
        [0xD83C, 0xDDE6], [0xD83C, 0xDDE8], [0xD83C], [0xDDE6],                        // regional indicators, lone halves
    ]

    @Test func everyUnitBetweenEveryClassBreaksAsTheIteratorDoes() {
        var decided = 0
        for value in 0...0xFFFF {
            let unit = UInt16(value)
            var text: [UInt16] = []
            for n in Self.neighbours {
                text += n; text.append(unit); text.append(unit); text += n; text.append(unit)
            }
            let whole = Self.ends(text, byIterator: true)
            let paired = Self.ends(text, byIterator: false)
            #expect(paired == whole, "U+\(String(value, radix: 16, uppercase: true))")
            if paired != whole { return }
            decided += 1
        }
        #expect(decided == 65536)
    }

    /// The table decides where it should (letters of many scripts break from each other, marks
    /// join what they follow) and leaves linkers, joiners, Prepend, CR, jamo and surrogates to
    /// the iterator: a table that decided nothing would pass the equality tests without saving
    /// anything, one that decided too much fails them.
    @Test func pairClassesDecideLettersAndMarksAndLeaveJoinersOpen() {
        let classes = ICU.graphemePairClasses()
        for unit: UInt16 in [0x41, 0x20, 0x0628, 0x05D0, 0x0915, 0x0E01, 0x4E00, 0xAC00, 0x0430] {
            #expect(classes[Int(unit)] & 3 == 3, "U+\(String(unit, radix: 16))")
        }
        for unit: UInt16 in [0x0301, 0x064E, 0x0E34, 0x094D] {  // extenders: join, and break before non-Indic letters
            #expect(classes[Int(unit)] & (4 | 32) == 4 | 32 && classes[Int(unit)] & 3 == 0, "U+\(String(unit, radix: 16))")
        }
        #expect(classes[0x0915] & 8 == 0 && classes[0x0E01] & 8 != 0)  // a Devanagari consonant may follow a virama
        for unit: UInt16 in [0x17D2, 0x1039, 0x200D, 0x1100, 0x1161, 0x11A8, 0xD83D, 0xDC4D] {
            #expect(classes[Int(unit)] & (1 | 2 | 4 | 8) == 0, "U+\(String(unit, radix: 16))")
        }
        #expect(classes[0x0D] & (1 | 16) == 0 && classes[0x0600] & (1 | 2) == 2 && classes[0x0903] & (1 | 2 | 32) == 1 | 32)
        // The newer conjunct linkers (a coeng or virama before a letter of its script is decided
        // without the iterator), and nothing else.
        #expect((0...0xFFFF).filter { classes[$0] & 64 != 0 } == [0x1039, 0x17D2, 0x1A60, 0x1B44, 0x1BAB, 0xA9C0])
    }

    @Test(.enabled(if: Corpora.folder != nil, "the corpora are absent (ROWKIT_CORPORA, ../shared/corpora)"))
    func corporaParagraphsAndWindowsBreakAsTheIteratorDoes() throws {
        let folder = try #require(Corpora.folder)
        let paragraphs = Corpora.paragraphs(folder)
        #expect(paragraphs.count > 1000)
        var windows = 0
        for (file, text) in paragraphs {
            let units = Array(text.utf16)
            guard !units.isEmpty else { continue }
            #expect(Self.ends(units, byIterator: false) == Self.ends(units, byIterator: true), "\(file)")
            // Windows from every 7th unit, of 1 to 40 units: starts inside clusters and after marks.
            var start = 0
            while start < units.count {
                let window = Array(units[start..<min(units.count, start + 1 + start % 40)])
                let paired = Self.ends(window, byIterator: false)
                let whole = Self.ends(window, byIterator: true)
                #expect(paired == whole, "\(file) at \(start)")
                if paired != whole { return }
                windows += 1
                start += 7
            }
        }
        #expect(windows > 10_000)
    }
}

extension PairedGraphemeTests {
    /// `QuotationRules.mayBeQuotation` skips ICU's class lookup only for units ICU does not call
    /// quotation marks (a filter that dropped one — `"`, `«`, `’`, `❛`, `⸂` — fails here).
    @Test func quotationFilterKeepsEveryQuotationMark() {
        var skipped = 0
        for value in 0...0xFFFF {
            let unit = UInt16(value)
            if QuotationRules.mayBeQuotation(unit) { continue }
            skipped += 1
            #expect(ICU.quotationKind(UInt32(value)) == 0, "U+\(String(value, radix: 16, uppercase: true))")
        }
        #expect(skipped > 40_000)
        for unit: UInt16 in [0x22, 0x27, 0xAB, 0xBB, 0x2018, 0x201D, 0x275B, 0x2E02, 0xD83D] {
            #expect(QuotationRules.mayBeQuotation(unit))
        }
    }
}
