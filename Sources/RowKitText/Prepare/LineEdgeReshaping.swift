/// Kerning a line end gives back: Chromium shapes a line's end again alone when the break is
/// not safe to break (HarfBuzz kerned across it), and checks that the line still fits
/// (ShapingLineBreaker::ShapeLine, docs/CHROMIUM.md §3(h)). A cluster that kerning tightened
/// against the next one is wider at a line end by what the kerning took away.
enum LineEndKerning {
    /// (run offset, kerning in design units) of each cluster whose last glyph GPOS tightened
    /// against a next cluster that HarfBuzz marks unsafe to break before, flat, read from
    /// HarfBuzz's output (`clusterOffset`: where the run starts in the shaped text), written to
    /// `pairs` (room for two values a glyph); returns how many values it wrote. Zero-width
    /// glyphs (marks) are left out. Written to the caller's room, not to an array: an array
    /// was a heap block for the 44% of shaped runs that have a pair, freed once copied.
    static func collect(_ glyphs: HarfBuzz.Glyphs, clusterOffset: Int32, rightToLeft: Bool, font: Font,
                        into pairs: UnsafeMutablePointer<Int32>) -> Int {
        let n = glyphs.count
        var count = 0
        for i in 0..<n where glyphs.xAdvance(i) != 0 {
            // The glyph that follows in logical order, and whether it starts another cluster.
            let next = rightToLeft ? i - 1 : i + 1
            guard next >= 0 && next < n, glyphs.cluster(next) != glyphs.cluster(i), glyphs.unsafeToBreak(next) else { continue }
            // Only the cluster's last glyph in logical order.
            let own = HarfBuzz.advance(font.hbFont, glyph: glyphs.glyph(i))
            let kern = glyphs.xAdvance(i) &- own
            guard kern < 0, own > 0 else { continue }
            pairs[count] = Int32(bitPattern: glyphs.cluster(i)) - clusterOffset
            pairs[count + 1] = kern
            count += 2
        }
        return count
    }
}

/// Line starts Chromium shapes again (docs/CHROMIUM.md §3(e), "Line starts that are reshaped"):
/// CJK punctuation that `text-spacing-trim` kerned against the character before it (an opening
/// mark after an opening, middle, closing or narrow opening one; a closing mark after a closing
/// one that it trims) is not safe to break before. When a line starts there, Chromium shapes
/// the mark again **alone**, untrimmed, with font fallback started afresh from the mark — so
/// `《` after `。` takes fontconfig's first font for `《` (Noto Sans Lisu, 0.46 em), `「` after
/// `・` is full width again. After U+3000 nothing is reshaped (the break follows a space).
enum LineStartReshape {
    /// Whether the pair `previous`, `this` (UTF-16 units in one font with `spacing`) is kerned
    /// by text-spacing-trim, so that a line starting at `this` reshapes it.
    static func kerned(_ previous: UInt16, _ this: UInt16, spacing: PunctuationSpacing) -> Bool {
        guard previous != 0x3000 else { return false }
        let p = CJKPunctuation.kind(previous, in: spacing), t = CJKPunctuation.kind(this, in: spacing)
        return CJKPunctuation.trimsOpening(t, after: p) || CJKPunctuation.trimsClosing(p, before: t)
    }
}

/// A closing mark trimmed to fit a line end is shaped again alone with font fallback afresh
/// (``Builder/lineEndTrimAmount``); with `line-height: normal` the line box of a line trimmed
/// there counts the mark with that font, not its run's (`》` in Noto Sans Lisu, whose descent
/// is larger than Noto Sans CJK's at some sizes and whose ascent is smaller).
enum LineEndReshape {
    /// Marks a ``ParagraphArrays/reshapedFonts`` entry as a line end's (the unit is in the
    /// other bits; texts are at most 2^24 units).
    static let unitFlag: Int32 = 0x4000_0000
}

extension Builder {
    /// How `font` spaces CJK punctuation in this text: in its language, at its size, slanted and
    /// emboldened as the font draws this style (Chromium classes punctuation from the glyphs as
    /// drawn, synthetic italic and bold included, docs/CHROMIUM.md §3(e)).
    func punctuationSpacing(of font: Font) -> PunctuationSpacing {
        let synthesis = fonts.synthesis(for: font, style: style)
        return font.punctuationSpacing(language, size: style.size, synthesis: synthesis)
    }

    /// Whether HarfBuzz applies `font`'s `halt` to the run `units[start..<end]`: in the script
    /// the run is shaped in — `commonScript` for a run of only Common characters (its
    /// ``CommonScript`` answer, found as the run is closed), else its first definite
    /// character's (HarfBuzz's guess) — `halt` may do nothing (a Hebrew run in a CJK font,
    /// ``Font/halfWidthApplies(inScript:)``), and then no mark of the run is trimmed, in pairs
    /// or at a line end (``halfWidthIgnoredRuns``).
    func halfWidthApplies(_ units: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, font: Font, commonScript: UInt32?) -> Bool {
        if let commonScript { return font.halfWidthApplies(inScript: commonScript) }
        var i = start
        while i < end {
            let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
            if CommonScript.isDefinite(scalar) { return font.halfWidthApplies(inScript: HarfBuzz.script(of: scalar)) }
            i += length
        }
        return font.halfWidthApplies(inScript: 0)
    }

    /// `units[range]` shaped alone with font fallback started afresh from it (a chooser that
    /// sees only these units, so they are their own hint character): the font and the width.
    mutating func shapedAfresh(_ units: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, rightToLeft: Bool,
                               buffer: HBBuffer) -> (font: Font, width: Int32) {
        let piece = UnsafeBufferPointer(rebasing: units[range])
        let font = afreshFont(piece)
        let designUnits = ClusterSplit.width(units, range, font: font, rightToLeft: rightToLeft, language: language, buffer: buffer)
        return (font, clamp(font.fixedAdvance(designUnits, scale: font.fixedScale(size: style.size), size: style.size)))
    }

    /// The font a chooser started afresh takes for `piece` (seeing only it). A fresh
    /// `FontFallback` costs ~20 k instructions to set up and ask; its answer depends only on
    /// the piece and the style context, so pieces of up to three units are remembered with the
    /// context's id (``afreshFonts``; not for a builder outside any context, `contextID` −1).
    /// Keyed by context rather than emptied when it changes: a list's cells alternate styles.
    mutating func afreshFont(_ piece: UnsafeBufferPointer<UInt16>) -> Font {
        guard piece.count <= 3, contextID >= 0 else {
            var fresh = FontFallback(style: style, primary: primary, fonts: fonts)
            return fresh.font(for: piece, 0, piece.count)
        }
        var key = UInt64(piece.count) << 60
        for i in 0..<piece.count { key |= UInt64(piece[i]) << UInt64(16 * i) }
        for entry in afreshFonts where entry.piece == key && entry.context == contextID { return entry.font }
        var fresh = FontFallback(style: style, primary: primary, fonts: fonts)
        let font = fresh.font(for: piece, 0, piece.count)
        if afreshFonts.count >= 64 { afreshFonts.removeAll() }
        afreshFonts.append((key, contextID, font))
        return font
    }

    /// What the closing mark at `last` (in `run`, whose font trims it) gives up when a line
    /// ending there must be trimmed to fit (16.16 px): Chromium shapes the mark again alone,
    /// with font fallback afresh, trimmed when that font trims it — half its advance in the
    /// same CJK font, but `》` becomes Noto Sans Lisu's 0.46 em (docs/CHROMIUM.md §3(e)).
    ///
    /// The half is HarfBuzz's `halt` adjustment: half the mark's design advance at the font's
    /// linear scale, not at FreeType's rounded one (16 px: 8 px off a 16.00003 px mark, 21.1 px:
    /// 10.55 px; docs/CHROMIUM.md §3(e)).
    /// `recordsReshape`: record the reshaped font for the line box (a segment's end; not a mark
    /// inside a word, whose line box is not followed).
    mutating func lineEndTrimAmount(_ units: UnsafeBufferPointer<UInt16>, last: Int, run: GlyphRun, buffer: HBBuffer,
                                    recordsReshape: Bool = true) -> Int32 {
        // Below 1/64 px the font's scale is 0: no design advance to recover (and no room to save).
        let scale = run.font.fixedScale(size: style.size)
        guard scale > 0 else { return unitAdvances[last] / 2 }
        let designUnits = (Double(unitAdvances[last]) * 64 / Double(scale)).rounded()
        let half = clamp(Int64((designUnits * Double(Font.platformSize(style.size)) / Double(run.font.unitsPerEm) * 32768).rounded()))
        guard units[last] < 0xD800 || units[last] >= 0xE000 else { return half }
        let (font, width) = shapedAfresh(units, last..<(last + 1), rightToLeft: run.bidiLevel & 1 == 1, buffer: buffer)
        if font === run.font { return half }
        if recordsReshape && style.lineHeight == .normal {
            // A line trimmed here counts the mark in its line box with the font it is reshaped
            // in (docs/CHROMIUM.md §5, twelfth round). Not derived from the shaped runs.
            reshapedFonts.append((Int32(last) | LineEndReshape.unitFlag, font))
            recordsBeyondRuns = true
        }
        let trims = font.hasHalfWidthPunctuation && CJKPunctuation.trimsAtLineEnd(units[last], in: punctuationSpacing(of: font))
        return max(0, unitAdvances[last] - (trims ? width / 2 : width))
    }

    /// After the runs are shaped (``trimmed`` known): the widths of the punctuation marks a line
    /// start would reshape (``LineStartReshape``), recorded as (mark, grapheme end, width) in
    /// ``alone`` where they differ from the mark's width in context, in order. Returns the units
    /// that got one (segments starting there are flagged ``MetricsBlock/Flag/lineStartAlone``).
    mutating func collectReshapedLineStarts(_ units: UnsafeBufferPointer<UInt16>, buffer: HBBuffer) -> Set<Int> {
        if !reshapedFonts.isEmpty { reshapedFonts.removeAll() }
        collectInWordLineEndTrims(units, buffer: buffer)
        guard !trimmed.isEmpty else { return [] }
        var candidates = Set<Int>()
        for t in trimmed {
            if t > 0 { candidates.insert(t) }
            if t + 1 < units.count { candidates.insert(t + 1) }
        }
        var found = Set<Int>()
        for u in candidates.sorted() {
            guard let run = runs.last(where: { Int($0.start) <= u - 1 }), Int(run.end) > u, run.font.hasHalfWidthPunctuation,
                  LineStartReshape.kerned(units[u - 1], units[u], spacing: punctuationSpacing(of: run.font)) else { continue }
            var g1 = u + 1
            while g1 < units.count && graphemeStartBits[g1 >> 6] & (1 << UInt64(g1 & 63)) == 0 { g1 += 1 }
            let (font, width) = shapedAfresh(units, u..<g1, rightToLeft: run.bidiLevel & 1 == 1, buffer: buffer)
            var inContext: Int64 = 0
            for k in u..<g1 { inContext += Int64(unitAdvances[k]) }
            guard Int64(width) != inContext else { continue }
            // Keep `alone` ordered by (from, to): the entries so far are a run's cluster rests.
            var p = alone.count
            while p >= 3 && (alone[p - 3] > Int32(u) || (alone[p - 3] == Int32(u) && alone[p - 2] > Int32(g1))) { p -= 3 }
            alone.insert(contentsOf: [Int32(u), Int32(g1), width], at: p)
            found.insert(u)
            reshapedFonts.append((Int32(u), font))
        }
        if !found.isEmpty { recordsBeyondRuns = true }
        return found
    }

    /// A closing mark inside a word (no break after it: `ك”.`) that an overflow-wrap split right
    /// after it trims as at a segment end (docs/CHROMIUM.md §3(n), twelfth round): recorded as
    /// a negative entry of the line-end kerning table at the unit after it, which the split's
    /// candidates add. Not derived from the shaped runs (``recordsBeyondRuns``).
    mutating func collectInWordLineEndTrims(_ units: UnsafeBufferPointer<UInt16>, buffer: HBBuffer) {
        // A mark's trim depends on the mark, its advance, its font and direction: shaped afresh
        // once per paragraph (most texts repeat a few quotes and brackets).
        var known: [(unit: UInt16, advance: Int32, font: ObjectIdentifier, rtl: Bool, amount: Int32)] = []
        // By index: copying every run (its font and shaped arrays) cost ~180,000 retains and
        // releases over the multilingual corpus.
        for k in runs.indices where runs[k].font.hasHalfWidthPunctuation {
            let run = runs[k]
            var spacing: PunctuationSpacing?
            for u in Int(run.start)..<Int(run.end) where u + 1 < units.count && CJKPunctuation.isClosingMark(units[u]) {
                let next = units[u + 1]
                // After it: a break (white space), a soft hyphen (the hyphen ends the line) or
                // punctuation the pair rules trim against; and only at a grapheme boundary.
                guard next != 0x20, next != 0x09, next != 0x0A, next != 0x0D, next != 0x3000, next != 0xAD, next >= 0x20,
                      !trimmed.contains(u), graphemeStartBits[(u + 1) >> 6] & (1 << UInt64((u + 1) & 63)) != 0,
                      !CJKPunctuation.isClosingMark(next) else { continue }
                if spacing == nil { spacing = punctuationSpacing(of: run.font) }
                guard CJKPunctuation.trimsAtLineEnd(units[u], in: spacing!) else { continue }
                guard !halfWidthIgnoredRuns.contains(run.start) else { break }
                let key = (unit: units[u], advance: unitAdvances[u], font: ObjectIdentifier(run.font), rtl: run.bidiLevel & 1 == 1)
                let amount: Int32
                if let hit = known.first(where: { $0.unit == key.unit && $0.advance == key.advance && $0.font == key.font && $0.rtl == key.rtl }) {
                    amount = hit.amount
                } else {
                    amount = lineEndTrimAmount(units, last: u, run: run, buffer: buffer, recordsReshape: false)
                    known.append((key.unit, key.advance, key.font, key.rtl, amount))
                }
                guard amount > 0 else { continue }
                var p = kerns.count
                while p >= 2 && kerns[p - 2] > Int32(u + 1) { p -= 2 }
                if p >= 2 && kerns[p - 2] == Int32(u + 1) { continue }
                kerns.insert(contentsOf: [Int32(u + 1), -amount], at: p)
                recordsBeyondRuns = true
            }
        }
    }
}


extension PreparedText {
    /// How much wider (negative: narrower) the cluster at unit `u` is when a line starts there
    /// than in context, 16.16 px: nonzero for CJK punctuation reshaped at a line start
    /// (``LineStartReshape``), so that drawing moves its glyph into the width that was measured.
    func lineStartDelta(at u: Int) -> Int64 {
        withView { view in
            guard u > 0, u < view.unitCount, view.headerFlags & MetricsBlock.HeaderFlag.extras != 0 else { return 0 }
            let units = view.units
            guard units.isClusterStart(u) && units.isGraphemeStart(u) else { return 0 }
            var c1 = u + 1
            while c1 < view.unitCount && !(units.isClusterStart(c1) && units.isGraphemeStart(c1)) { c1 += 1 }
            guard let reshaped = view.extras.aloneWidth(u, c1) else { return 0 }
            return reshaped - view.advanceSum(u..<c1)
        }
    }
}
