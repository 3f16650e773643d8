import Testing
@testable import RowKitText

/// `ClusterSplit.holdsNoInnerStart`: when it says a run's clusters hold no grapheme start and
/// no line break inside, the general path of `creditGraphemes` (graphemes, the dictionary's
/// breaks, ICU from stacked clusters) changes no advance and returns no rests. Checked for
/// every glyph run of the corpora's complex-script paragraphs, with the paragraph's breaks as
/// the builder shares them and without any.
@Suite struct ClusterSplitFastPathTests {
    @Test(.enabled(if: Corpora.folder != nil, "the corpora are absent (ROWKIT_CORPORA, ../shared/corpora)"))
    func runsSaidToHoldNoInnerStartGainNothingFromTheGeneralPath() throws {
        let folder = try #require(Corpora.folder)
        let style = style(family: "Noto Sans", lineHeight: .normal)
        let cache = ShapeCache(capacity: 10_000)
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        var fast = 0, general = 0, generalCredits = 0
        var perFile: [String: Int] = [:]
        for paragraph in Corpora.paragraphs(folder) {
            // Scripts with clusters of several units: Indic, Thai, Lao, Myanmar, Khmer, Arabic, Hebrew.
            guard paragraph.text.utf16.contains(where: { $0 >= 0x0590 && $0 < 0x1800 }) else { continue }
            guard perFile[paragraph.file, default: 0] < 60 else { continue }
            perFile[paragraph.file, default: 0] += 1
            let units = Array(paragraph.text.utf16.prefix(600))
            let text = String(decoding: units, as: UTF16.self)
            let prepared = try PreparedText(text, style: style, cache: cache)
            let p = Array(prepared.units)
            try p.withUnsafeBufferPointer { (units) throws(TextError) in
                var kept = ParagraphLineBreaks()
                kept.keep(try UnicodeAnalysis.lineBreaks(units).ends, of: units, language: nil)
                for run in prepared.runs where run.end - run.start > 1 {
                    let item = Int(run.start)..<Int(run.end)
                    let rightToLeft = run.bidiLevel & 1 == 1
                    let glyphs = HarfBuzz.shape(units.baseAddress, count: units.count, item: item, font: run.font.shapingFont(for: units),
                                                rightToLeft: rightToLeft, language: nil, buffer: buffer)
                    var clusters: [Int32] = [], advances = [Int32](repeating: 0, count: item.count)
                    for i in 0..<glyphs.count {
                        let c = Int32(bitPattern: glyphs.cluster(i)) - Int32(item.lowerBound)
                        clusters.append(c)
                        advances[Int(c)] &+= glyphs.xAdvance(i)
                    }
                    let share = ParagraphLineBreaks.Share(breaks: kept, paragraph: units, start: item.lowerBound, end: item.upperBound)
                    for known in [share, nil] as [ParagraphLineBreaks.Share?] {
                        var credited = advances
                        let alone = ClusterSplit.creditGraphemes(&credited, clusters: clusters, units: units, item: item, font: run.font,
                                                                 rightToLeft: rightToLeft, language: .none, buffer: buffer,
                                                                 knownBreaks: known, checkingFirst: false)
                        if !alone.isEmpty || credited != advances { generalCredits += 1 }
                        if ClusterSplit.holdsNoInnerStart(clusters: clusters, units: units, item: item, knownBreaks: known) {
                            fast += 1
                            #expect(alone.isEmpty && credited == advances, "\(paragraph.file): run \(item) \(Array(units[item]))")
                            // And the call with the check gives the general path's answer.
                            var checked = advances
                            let quick = ClusterSplit.creditGraphemes(&checked, clusters: clusters, units: units, item: item, font: run.font,
                                                                     rightToLeft: rightToLeft, language: .none, buffer: buffer, knownBreaks: known)
                            #expect(quick == alone && checked == credited)
                        } else {
                            general += 1
                        }
                    }
                }
            }
        }
        // The check decides most runs, and the general path credits graphemes in some others
        // (so a check that said yes too often would be caught).
        #expect(fast > 2_000)
        #expect(general > 100)
        #expect(generalCredits > 50)
    }

    /// Hand-made runs: a Thai consonant with its marks is one cluster (decided), a Myanmar
    /// stacked consonant or a cluster of two graphemes is not, nor a run whose dictionary
    /// breaks are not known.
    @Test func decidedAndUndecidedClusters() throws {
        func decided(_ text: String, clusters: [Int32], known: Bool) -> Bool {
            let units = Array(text.utf16)
            return units.withUnsafeBufferPointer { u in
                var kept = ParagraphLineBreaks()
                kept.keep((try? UnicodeAnalysis.lineBreaks(u).ends) ?? [], of: u, language: nil)
                let share = ParagraphLineBreaks.Share(breaks: kept, paragraph: u, start: 0, end: u.count)
                return ClusterSplit.holdsNoInnerStart(clusters: clusters, units: u, item: 0..<u.count, knownBreaks: known ? share : nil)
            }
        }
        // ก่ำ + ดี: clusters [0, 0, 0, 3, 4]
        #expect(decided("ก่ำดี", clusters: [0, 0, 0, 3, 4], known: true))
        #expect(!decided("ก่ำดี", clusters: [0, 0, 0, 3, 4], known: false))
        // Latin without marks needs no breaks: one unit a cluster.
        #expect(decided("abc", clusters: [0, 1, 2], known: false))
        // A ligature of two graphemes ("fi") is not decided.
        #expect(!decided("fi", clusters: [0], known: false))
        // Myanmar virama stacking (U+1039) is left to the general path.
        #expect(!decided("\u{1019}\u{1039}\u{1018}", clusters: [0, 0, 0], known: true))
        // Clusters out of order are left to it too.
        #expect(!decided("ก่ดี", clusters: [2, 0, 3], known: true))
    }
}
