import Testing
@testable import RowKitText

/// `ShapedRun`'s one allocation (Prepare/ShapedRun.swift): the counts and the arrays share one
/// block, laid end to end without overlap, `byteCount` covers them, the arrays hold what
/// HarfBuzz made, and a run outlives the cache generations that held it.
@Suite struct ShapedRunTests {
    static func shape(_ text: String, rightToLeft: Bool = false, buffer: HBBuffer) throws -> ShapedRun {
        let font = try FontLibrary.shared.font(for: FontDescriptor(family: "DejaVu Sans"))
        return Array(text.utf16).withUnsafeBufferPointer { units in
            ShapedRun.shape(units, font: font, rightToLeft: rightToLeft, halfWidth: [], buffer: buffer)
        }
    }

    /// Words on the one-glyph-per-unit path, with kerning pairs, and clusters of several units
    /// (combining marks, a ligature, Arabic right to left, an emoji sequence).
    static let texts: [(String, Bool)] = [("word", false), ("AVAWAY To", false), ("e\u{301}te\u{301}", false), ("office", false),
                                          ("مرحبا بكم", true), ("👍🏽 ok", false), ("", false)]

    @Test func arraysLieEndToEndInsideTheAllocation() throws {
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        for (text, rightToLeft) in Self.texts {
            let run = try Self.shape(text, rightToLeft: rightToLeft, buffer: buffer)
            let n = run.glyphCount, u = text.utf16.count
            #expect(run.glyphIDs.count == n && run.glyphAdvances.count == n && run.glyphClusters.count == n, "\(text)")
            #expect(run.unitAdvances.count == u, "\(text)")
            let parts: [UnsafeRawBufferPointer] = [UnsafeRawBufferPointer(run.glyphIDs), UnsafeRawBufferPointer(run.glyphAdvances),
                                                   UnsafeRawBufferPointer(run.glyphOffsetsX), UnsafeRawBufferPointer(run.glyphOffsetsY),
                                                   UnsafeRawBufferPointer(run.glyphClusters), UnsafeRawBufferPointer(run.unitAdvances),
                                                   UnsafeRawBufferPointer(run.kerning), UnsafeRawBufferPointer(run.aloneWidths)]
            for k in 1..<parts.count { #expect(parts[k - 1].baseAddress! + parts[k - 1].count == parts[k].baseAddress!, "\(text) part \(k)") }
            // The arrays sit in the run's own allocation, after the object header and counts.
            let object = UnsafeRawPointer(Unmanaged.passUnretained(run).toOpaque())
            let start = parts[0].baseAddress!, end = parts[parts.count - 1].baseAddress! + parts[parts.count - 1].count
            #expect(start >= object + 16 + 17, "\(text)")
            #expect(run.byteCount >= end - object + 8, "\(text): byteCount \(run.byteCount) below \(end - object) bytes used")
            #expect(run.byteCount <= end - object + 64, "\(text): byteCount \(run.byteCount) for \(end - object) bytes used")
            for cluster in run.glyphClusters { #expect(cluster >= 0 && Int(cluster) < max(1, u), "\(text)") }
            if text == "word" {
                // One glyph per unit: each unit is credited its glyph's advance.
                #expect(Array(run.unitAdvances) == run.advances)
                #expect(run.clusters == [0, 1, 2, 3])
                #expect(!run.hasMultiAdvanceClusters)
            }
        }
    }

    /// A run's line-end kerning pairs (``LineEndKerning``, collected into room the caller gives)
    /// are the pairs written out from HarfBuzz's output: each advancing glyph kerned (its
    /// advance below the font's own) against a next glyph of another cluster that HarfBuzz
    /// marks unsafe to break before — for short words and for a run of 300 glyphs (room past
    /// the stack's), both directions.
    @Test func kerningPairsAreTheOnesWrittenOutFromHarfBuzzsOutput() throws {
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        let font = try FontLibrary.shared.font(for: FontDescriptor(family: "DejaVu Sans"))
        var withPairs = 0
        for (text, rightToLeft) in Self.texts + [(String(repeating: "AVAWAY To ", count: 30), false), ("To AV مرحبا", true)] {
            let units = Array(text.utf16)
            let expected: [Int32] = units.withUnsafeBufferPointer { p in
                let g = HarfBuzz.shape(p.baseAddress, count: p.count, item: 0..<p.count, font: font.shapingFont(for: p),
                                       rightToLeft: rightToLeft, language: nil, buffer: buffer)
                var pairs: [Int32] = []
                for i in 0..<g.count where g.xAdvance(i) != 0 {
                    let next = rightToLeft ? i - 1 : i + 1
                    guard next >= 0 && next < g.count && g.cluster(next) != g.cluster(i) && g.unsafeToBreak(next) else { continue }
                    let own = HarfBuzz.advance(font.hbFont, glyph: g.glyph(i))
                    if g.xAdvance(i) - own < 0 && own > 0 { pairs += [Int32(g.cluster(i)), g.xAdvance(i) - own] }
                }
                return pairs
            }
            let run = try Self.shape(text, rightToLeft: rightToLeft, buffer: buffer)
            #expect(Array(run.kerning) == expected, "\(text)")
            if !expected.isEmpty { withPairs += 1 }
        }
        #expect(withPairs >= 2, "no text had kerning pairs")
    }

    @Test func runsOutliveTheGenerationsThatHeldThem() throws {
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        let cache = ShapeCache(capacity: 4)
        var kept: [(String, ShapedRun)] = []
        for i in 0..<200 {
            let text = "w\(i) \(Self.texts[i % Self.texts.count].0)"
            let run = try Self.shape(text, buffer: buffer)
            if i % 10 == 0 { kept.append((text, run)) }
            let units = Array(text.utf16)
            // Twice: the doorkeeper admits a run on its second miss once generations rotate.
            for _ in 0..<2 {
                units.withUnsafeBufferPointer { text in
                    ShapeCache.withKey(font: 1, rightToLeft: false, text: text, halfWidth: [], context: nil, script: 0, language: 0) {
                        cache.store(run, for: $0)
                    }
                }
            }
        }
        #expect(cache.statistics.runs <= 8)
        for (text, run) in kept {
            let fresh = try Self.shape(text, buffer: buffer)
            #expect(run.glyphs == fresh.glyphs && run.advances == fresh.advances && run.clusters == fresh.clusters, "\(text)")
            #expect(Array(run.unitAdvances) == Array(fresh.unitAdvances) && Array(run.aloneWidths) == Array(fresh.aloneWidths), "\(text)")
        }
    }
}
