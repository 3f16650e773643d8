import Testing
@testable import RowKitText

/// The fast paths a missed word's analysis takes (issue 8, twenty-second round) answer as the
/// general paths do: ASCII script and bracket answers against ICU and the standard library, the
/// constant rows of the ASCII break table against the table, the reused-array break finder
/// against the rule written out, and a reused builder's arrays against a fresh builder's.
@Suite struct MissedWordFastPathTests {
    @Test func asciiScriptsAreICUs() {
        var latin = 0, common = 0
        for value in UInt32(0)..<0x80 {
            let fast = ScriptRuns.script(of: value), icu = ScriptRuns.scriptFromICU(value)
            #expect(fast == icu, "U+\(String(value, radix: 16))")
            if icu == ScriptRuns.latin { latin += 1 } else if icu == -1 { common += 1 }
        }
        #expect(latin == 52 && common == 76)  // ICU did answer both ways
        // Just past ASCII the general path answers (Latin-1 letters are Latin, its signs Common).
        #expect(ScriptRuns.script(of: 0xE9) == ScriptRuns.latin && ScriptRuns.script(of: 0xA0) == -1)
    }

    @Test func asciiOpeningsAreTheCategorys() {
        var openings = 0
        for value in UInt32(0)..<0x100 {
            let category = Unicode.Scalar(value)!.properties.generalCategory
            #expect(ScriptRuns.isOpening(value) == (category == .openPunctuation), "U+\(String(value, radix: 16))")
            if category == .openPunctuation { openings += 1 }
        }
        #expect(openings == 3)  // ( [ { (Latin-1's « is an initial quote, not Ps)
    }

    /// Every ASCII unit outside the constant rows has an empty row in the table (whatever comes
    /// before it), and every unit inside allows a break before something (the rows are tight).
    @Test func constantRowsAreTheTables() {
        for a in UInt16(0)..<0x80 {
            var allows = false
            for b in UInt16(0)..<0x80 where ASCIIBreakRules.applies(a, b) {
                for before: UInt16 in [0, 0x20, 0x31, 0x41, 0x61, 0x2D, 0x3F, 0x7E] where ASCIIBreakRules.allowsBreak(before: before, a, b) {
                    allows = true
                }
            }
            #expect(ASCIIBreakRules.mayAllowBreak(after: a) == allows, "\(a)")
        }
        #expect(ASCIIBreakRules.mayAllowBreak(after: 0x80) && ASCIIBreakRules.mayAllowBreak(after: 0x3000))
    }

    /// The break rule of printable ASCII as it was written before the fast path (a reference).
    static func referenceBreaks(_ units: [UInt16]) -> (ends: [Int32], mandatory: [UInt8]) {
        var ends: [Int32] = [], mandatory: [UInt8] = []
        for p in 1..<max(1, units.count) {
            let a = units[p - 1], b = units[p]
            if a == 0x0A {
                ends.append(Int32(p)); mandatory.append(1)
            } else if a == 0x20 || a == 0x09 {
                if b != 0x20 && b != 0x09 && b != 0x0A { ends.append(Int32(p)); mandatory.append(0) }
            } else if ASCIIBreakRules.applies(a, b) && ASCIIBreakRules.allowsBreak(before: p >= 2 ? units[p - 2] : 0, a, b) {
                ends.append(Int32(p)); mandatory.append(0)
            }
        }
        ends.append(Int32(units.count))
        mandatory.append(units[units.count - 1] == 0x0A ? 1 : 0)
        return (ends, mandatory)
    }

    static func builder() throws -> (Builder, PrepareScratch.Context) {
        let context = try PrepareScratch.current.context(TextStyle(font: FontDescriptor(family: "DejaVu Sans"), size: 15),
                                                         fonts: .shared, cache: .shared)
        return (Builder(context.resolved, fonts: .shared, cache: .shared, fallback: context.fallback), context)
    }

    /// Every string of up to three units of printable ASCII, tab and newline, then random
    /// longer ones, through one reused builder (its arrays shrink and grow between calls).
    @Test func asciiBreaksAreTheRules() throws {
        var (builder, _) = try Self.builder()
        let alphabet: [UInt16] = [0x09, 0x0A] + Array(0x20...0x7E)
        var texts: [[UInt16]] = alphabet.map { [$0] }
        for a in alphabet { for b in alphabet { texts.append([a, b]) } }
        let some: [UInt16] = Array("-?(a1 .)\t\n[}".utf16)
        for a in alphabet { for b in some { for c in alphabet { texts.append([a, b, c]) } } }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            texts.append((0..<Int.random(in: 1...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
        }
        var differing = 0
        for text in texts {
            text.withUnsafeBufferPointer { builder.asciiLineBreaks($0) }
            let expected = Self.referenceBreaks(text)
            if builder.asciiBreaks != expected.ends || builder.asciiMandatory != expected.mandatory {
                differing += 1
                if differing < 10 { Issue.record("\(text): \(builder.asciiBreaks) \(builder.asciiMandatory), expected \(expected)") }
            }
        }
        #expect(differing == 0)
    }

    /// The one-compare ASCII check against the two-sided rule, for every unit alone and after
    /// or before printable text.
    @Test func printableASCIICheckIsTheRule() {
        func rule(_ units: [UInt16]) -> Bool { !units.contains { $0 >= 0x7F || ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) } }
        var printable = 0, differing = 0
        for unit in UInt16(0)...UInt16.max {
            for text in [[unit], [0x61, unit], [unit, 0x20, 0x7E], [0x41, 0x0A, unit, 0x09]] {
                let fast = text.withUnsafeBufferPointer { Builder.isPrintableASCII($0) }
                if fast != rule(text) {
                    differing += 1
                    if differing < 10 { Issue.record("\(text)") }
                }
            }
            if rule([unit]) { printable += 1 }
        }
        #expect(differing == 0)
        #expect(printable == 97)  // 95 printable, tab, newline
        #expect([UInt16]().withUnsafeBufferPointer { Builder.isPrintableASCII($0) })
    }

    @Test func zeroResetsAreFreshZeros() {
        for old in 0...12 {
            for new in 0...12 {
                var words = [UInt64](repeating: 0xFFFF, count: old)
                words.reserveCapacity(old + 3)
                words.resetToZeros(count: new)
                #expect(words == [UInt64](repeating: 0, count: new), "\(old) → \(new)")
                var advances = (0..<old).map { Int32($0 + 7) }
                advances.resetToZeros(count: new)
                #expect(advances == [Int32](repeating: 0, count: new), "\(old) → \(new)")
            }
        }
        for count in 0...200 {
            var bits = [UInt64](repeating: 0, count: (count + 63) / 64)
            Builder.setAll(&bits, count: count)
            var expected = [UInt64](repeating: 0, count: (count + 63) / 64)
            for u in 0..<count { expected[u >> 6] |= 1 << UInt64(u & 63) }
            #expect(bits == expected, "\(count)")
        }
    }

    /// A builder reused over texts of many lengths (ASCII and not, words and paragraphs) makes
    /// the arrays a fresh builder makes for each.
    @Test func reusedBuilderAnalysesAsAFreshOne() throws {
        var (reused, context) = try Self.builder()
        var texts = ["a", "word ", "Hello, world! ", "x", "(quoted) ", "fi ", "naïve café ", "漢字 ", "ok\n",
                     String(repeating: "abc def-ghi ", count: 12), "e\u{301}e ", "AV To ", "a\tb ", "7-8 "]
        var rng = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyzAVTW.,;:-?!()[]{}'\" 0123456789")
        for _ in 0..<300 { texts.append(String((0..<Int.random(in: 1...90, using: &rng)).map { _ in letters.randomElement(using: &rng)! })) }
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        for text in texts + texts.reversed() {
            let units = Array(text.utf16)
            var fresh = Builder(context.resolved, fonts: .shared, cache: .shared, fallback: context.fallback)
            reused.resetFallback(context.fallback)
            try units.withUnsafeBufferPointer { (u) throws(TextError) in
                try reused.analyse(u, levels: nil, buffer: buffer)
                try fresh.analyse(u, levels: nil, buffer: buffer)
            }
            #expect(reused.unitAdvances == fresh.unitAdvances, "\(text)")
            #expect(reused.graphemeStartBits == fresh.graphemeStartBits, "\(text)")
            #expect(reused.clusterInnerBits == fresh.clusterInnerBits, "\(text)")
            #expect(reused.segmentEnds == fresh.segmentEnds && reused.contentEnds == fresh.contentEnds, "\(text)")
            #expect(reused.widths == fresh.widths && reused.spaceWidths == fresh.spaceWidths && reused.flags == fresh.flags, "\(text)")
            #expect(reused.kerns == fresh.kerns && reused.alone == fresh.alone && reused.kerned == fresh.kerned, "\(text)")
            #expect(reused.runs.count == fresh.runs.count && reused.reshapedStarts == fresh.reshapedStarts, "\(text)")
            #expect(reused.unitAdvances.count == units.count && reused.graphemeStartBits.count == (units.count + 63) / 64)
        }
    }
}
