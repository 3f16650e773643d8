import Testing
@testable import RowKitText

/// `RestBreakMemo` (issue 8, eighteenth round): ICU's breaks of a short rest of a
/// dictionary-script run, remembered by its text, are ICU's breaks of that text.
@Suite struct RestBreakMemoTests {
    /// ICU's answer as the memo's mask (bit e: a break e units in).
    static func icuMask(_ text: [UInt16], language: String?) throws -> UInt32 {
        var ends: [Int32] = []
        try text.withUnsafeBufferPointer { (u) throws(TextError) in try UnicodeAnalysis.lineBreaks(u, language: language, into: &ends) }
        return ends.reduce(0) { $1 > 0 ? $0 | 1 << UInt32($1) : $0 }
    }

    /// Every rest of up to the memo's length in Thai, Khmer and Myanmar text (and the same with
    /// a unit more or less, a trailing NUL, another language) gets ICU's answer, asked first or
    /// found again, in an order that makes neighbouring texts meet in the memo.
    @Test func everyRestGetsICUsAnswerFirstAndAgain() throws {
        let texts = [
            "ช่างทองลังเลในใจ ไม่กล้าเรียก", "ดอกแลผล บาง", "เวตาลกล่าวว่า",
            "ថ្ងៃមួយនោះ ស្ដេចបានយាងទៅ", "ထိုအချိန်မှစ၍ ဗျိုင်းသည်", "လိုက်ပါရစေ”ဟု ခွင့်",
        ].map { Array($0.utf16) }
        var memo = RestBreakMemo()
        var scratch: [Int32] = []
        var checked = 0
        for round in 0..<2 {
            for language in [nil, "th"] as [String?] {
                for text in texts {
                    for start in 0..<text.count {
                        for length in 1...min(RestBreakMemo.maximumLength, text.count - start) {
                            var rest = Array(text[start..<(start + length)])
                            if round == 1 && length < RestBreakMemo.maximumLength { rest.append(0) }
                            let expected = try Self.icuMask(rest, language: language)
                            let mask = rest.withUnsafeBufferPointer { memo.breaks(of: $0, language: language, scratch: &scratch) }
                            #expect(mask == expected, "\(rest) \(language ?? "-")")
                            // Found again (the rests of the first round, asked again in the
                            // second with a NUL after them, are other texts).
                            let again = rest.withUnsafeBufferPointer { memo.breaks(of: $0, language: language, scratch: &scratch) }
                            #expect(again == expected, "\(rest) \(language ?? "-") again")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 2_000)
    }

    /// Texts that pack into the same words but differ in length (trailing NULs) are told apart.
    @Test func keysTellLengthsApart() {
        let a: [UInt16] = [0x0E01, 0x0E02], b: [UInt16] = [0x0E01, 0x0E02, 0], c: [UInt16] = [0x0E01, 0x0E02, 0, 0]
        let keys = [a, b, c].map { $0.withUnsafeBufferPointer { RestBreakMemo.Key($0) } }
        #expect(keys[0] != keys[1] && keys[1] != keys[2] && keys[0] != keys[2])
        #expect(keys[0] == a.withUnsafeBufferPointer { RestBreakMemo.Key($0) })
        let full = (0..<RestBreakMemo.maximumLength).map { UInt16(0x0E01 + $0) }
        var last = full
        last[RestBreakMemo.maximumLength - 1] += 1
        #expect(full.withUnsafeBufferPointer { RestBreakMemo.Key($0) } != last.withUnsafeBufferPointer { RestBreakMemo.Key($0) })
    }

    /// More rests than the table has slots, and pairs of rests that share a slot, asked and asked
    /// again in turns: a rest that lost its slot is asked of ICU again, never answered with the
    /// text that took it.
    @Test func restsSharingASlotKeepTheirOwnAnswers() throws {
        let forward = Array("ช่างทองลังเลในใจไม่กล้าเรียกดอกแลผลบางเวตาลกล่าวว่าថ្ងៃមួយនោះស្ដេចបានយាងទៅထိုအချိန်မှစ၍ဗျိုင်းသည်".utf16)
        let source = forward + forward.reversed() + forward.map { $0 ^ 1 }
        var rests: [[UInt16]] = []
        for start in 0..<(source.count - 1) {
            for length in 2...min(RestBreakMemo.maximumLength, source.count - start) { rests.append(Array(source[start..<(start + length)])) }
        }
        #expect(rests.count > RestBreakMemo.slotCount)
        // Two rests in one slot.
        var bySlot: [Int: [UInt16]] = [:]
        var colliding: [([UInt16], [UInt16])] = []
        for rest in rests {
            let slot = rest.withUnsafeBufferPointer { RestBreakMemo.Key($0).slot }
            if let other = bySlot[slot], other != rest { colliding.append((other, rest)) } else { bySlot[slot] = rest }
        }
        #expect(colliding.count > 10)
        var memo = RestBreakMemo()
        var scratch: [Int32] = []
        for (a, b) in colliding.prefix(200) {
            for text in [a, b, a, b, b, a] {
                let mask = text.withUnsafeBufferPointer { memo.breaks(of: $0, language: nil, scratch: &scratch) }
                #expect(try mask == Self.icuMask(text, language: nil), "\(text)")
            }
        }
        for round in 0..<2 {
            for rest in rests where round == 0 || rest.count % 3 == 0 {
                let mask = rest.withUnsafeBufferPointer { memo.breaks(of: $0, language: nil, scratch: &scratch) }
                #expect(try mask == Self.icuMask(rest, language: nil), "\(rest)")
            }
        }
    }

    /// A language change forgets the answers of the other rules: Chinese rules break before a
    /// wave dash, the rules of no language do not.
    @Test func aLanguageChangeForgetsOtherRulesAnswers() throws {
        let text = Array("あ〜い〜う".utf16)
        let plain = try Self.icuMask(text, language: nil), chinese = try Self.icuMask(text, language: "zh")
        #expect(plain != chinese)
        var memo = RestBreakMemo()
        var scratch: [Int32] = []
        for language in [nil, "zh", "zh", nil, nil, "zh"] as [String?] {
            let mask = text.withUnsafeBufferPointer { memo.breaks(of: $0, language: language, scratch: &scratch) }
            #expect(mask == (language == nil ? plain : chinese), "\(language ?? "-")")
        }
    }
}
