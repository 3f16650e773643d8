import Glibc
import Testing
@testable import RowKitText

/// Khmer words break where Chromium breaks them: with the browser's own Khmer dictionary, read
/// from its ICU data, and without leaving a rest of two code points or fewer in a run
/// (docs/CHROMIUM.md §3(g), eighteenth round). Lines measured in headless Chromium 156,
/// Noto Sans Khmer 16 px; zero-width spaces left out of the line texts.
@Suite struct BreakDictionariesTests {
    static let chromiumDataInstalled = BreakDictionaries.source != nil

    private func lines(_ text: String, width: Double) throws -> [String] {
        let style = TextStyle(font: FontDescriptor(family: "Noto Sans Khmer"), size: 16)
        return try lineTexts(text, width: width, style).map { $0.filter { $0 != "\u{200B}" && $0 != " " } }
    }

    private func breaks(_ text: String) throws -> [Int32] {
        let units = Array(text.utf16)
        return try units.withUnsafeBufferPointer { try UnicodeAnalysis.lineBreaks($0).ends }
    }

    /// Where a browser is installed (CI installs Chromium), its dictionary is the one used.
    @Test(.enabled(if: chromiumDataInstalled, "no Chromium ICU data on this machine"))
    func chromiumsDictionaryIsInstalledFromItsData() throws {
        let source = try #require(BreakDictionaries.source)
        #expect(source.hasSuffix("icudtl.dat"))
        // `អាទិត្យ` (sun) is two words to Chromium's dictionary, one to the system's.
        #expect(try breaks("អាទិត្យ") == [2, 7])
    }

    /// Chromium's dictionary words, and the words its line breaker keeps whole.
    @Test(.enabled(if: chromiumDataInstalled, "no Chromium ICU data on this machine"))
    func khmerLinesBreakAsInChromium() throws {
        #expect(try lines("ព្រះ\u{200B}អាទិត្យ តា", width: 40) == ["ព្រះអា", "ទិត្យ", "តា"])
        #expect(try lines("ក\u{200B}ភ្ញាក់ផ្អើល\u{200B}ណា", width: 40) == ["កភ្ញាក់", "ផ្អើល", "ណា"])
        #expect(try lines("ប្រជានុរាស្ត្រ\u{200B}ខ្មែរ", width: 30) == ["ប្រជា", "នុរា", "ស្ត្រ", "ខ្មែរ"])
        // The dictionary ends `សម្លា` before `ប់`: kept whole with the short rest, broken there
        // when more of the run follows.
        #expect(try lines("អញ\u{200B}សម្លាប់ កុំ", width: 40) == ["អញ", "សម្លាប់", "កុំ"])
        #expect(try lines("សម្លាប់ខ្លា", width: 30) == ["សម្លា", "ប់ខ្លា"])
        #expect(try lines("ពល\u{200B}បរិវារ\u{200B}ជា", width: 30) == ["ពល", "បរិវារ", "ជា"])
    }

    /// Lao with Chromium's dictionary (Noto Sans Lao 16 px, `lang="lo"`, 60 px): the system's
    /// dictionary gave `ລັດຖະການ` / `ຂອງ` and `ເປັນ` / `ພາສາແມ່` where Chromium has these lines.
    @Test(.enabled(if: chromiumDataInstalled, "no Chromium ICU data on this machine"))
    func laoLinesBreakAsInChromium() throws {
        let style = TextStyle(font: FontDescriptor(family: "Noto Sans Lao"), size: 16, lang: "lo")
        let text = "ພາສາລາວ ແມ່ນພາສາລັດຖະການຂອງ ສາທາລະນະລັດ ປະຊາທິປະໄຕ ປະຊາຊົນລາວ. ແລະເປັນພາສາແມ່ຂອງຄົນເຊື້ອຊາດລາວ ທັງຢູ່ພາຍໃນ ແລະຕ່າງປະເທດ."
        #expect(try lineTexts(text, width: 60, style).map { $0.filter { $0 != " " } } == [
            "ພາສາລາວ", "ແມ່ນ", "ພາສາ", "ລັດຖະກາ", "ນຂອງ", "ສາທາລະນ", "ະລັດ", "ປະຊາທິປະ", "ໄຕ", "ປະຊາຊົນ", "ລາວ.ແລະ",
            "ເປັນພາສາ", "ແມ່ຂອງ", "ຄົນເຊື້ອ", "ຊາດລາວ", "ທັງຢູ່", "ພາຍໃນ", "ແລະຕ່າງ", "ປະເທດ.",
        ])
    }

    /// The short-rest rule alone, on ICU's breaks: none before a rest of one or two code points
    /// of the run, whatever the dictionary.
    @Test func noKhmerBreakLeavesARestOfTwoCodePointsOrFewer() throws {
        for word in ["សម្លាប់", "បរិវារ", "ផ្លែឈើ", "ត្រេកអរ"] {
            let units = Array(word.utf16)
            let found = try breaks(word + " ក")
            for p in found where Int(p) < units.count {
                #expect(units.count - Int(p) > 2, "\(word) broken at \(p)")
            }
        }
        let units = Array("សម្លាប់".utf16)
        #expect(units.withUnsafeBufferPointer { UnicodeAnalysis.endsShortKhmerRest($0, at: 5) })
        #expect(!units.withUnsafeBufferPointer { UnicodeAnalysis.endsShortKhmerRest($0, at: 2) })
    }

    /// The unit test of the rule's character class against ICU's properties (script Khmer and
    /// line-break class SA), over the whole BMP.
    @Test func khmerDictionaryUnitsAreICUsKhmerSACharacters() {
        for unit in UInt16(0)...UInt16.max {
            #expect(UnicodeAnalysis.isKhmerDictionaryUnit(unit) == ICU.isKhmerDictionaryCharacter(UInt32(unit)),
                     "U+\(String(unit, radix: 16))")
        }
    }

    /// A file that is not ICU data, or is cut short, gives no dictionary (and no crash).
    @Test func malformedDataFilesGiveNoDictionary() throws {
        let path = "/tmp/rowkit-break-dictionaries-test-\(getpid()).dat"
        defer { unlink(path) }
        var header: [UInt8] = [32, 0, 0xDA, 0x27, 20, 0, 0, 0, 0, 0, 2, 0] + Array("CmnD".utf8) + [1, 0, 0, 0]
        header += [UInt8](repeating: 0, count: 32 - header.count)
        for bytes in [[], Array("not ICU data".utf8), header, header + [0xFF, 0xFF, 0xFF, 0x7F], header + [1, 0, 0, 0, 200, 0, 0, 0]] {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            #expect(fd >= 0)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            let items = BreakDictionaries.readItems(path: path, names: BreakDictionaries.dictionaryNames)
            #expect(items == nil || items!.isEmpty)
        }
        #expect(BreakDictionaries.readItems(path: "/nonexistent/icudtl.dat", names: ["khmerdict.dict"]) == nil)
    }
}
