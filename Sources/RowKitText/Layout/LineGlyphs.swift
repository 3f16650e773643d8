/// Glyphs of one font on one line, positioned for drawing.
public struct PlacedGlyphs: Sendable {
    /// The font the glyph ids belong to.
    public let font: Font
    /// Font size in pixels.
    public let size: Double
    /// Glyph ids in the font, in drawing order.
    public let glyphs: [UInt32]
    /// Glyph origins relative to the line's left edge (x) and baseline (y, down is positive).
    public let x: [Double], y: [Double]
    /// How far each glyph moves the pen: the shaped advances the line width was summed from.
    public let advances: [Double]
}

extension TextLayout {
    /// Left edge of line `i` inside the layout width, from the style's alignment and the
    /// paragraph direction. Lines start at 0 when the width is unbounded.
    public func lineOffset(_ i: Int) -> Double {
        guard maxWidth.isFinite else { return 0 }
        let free = max(0, maxWidth - lines[i].width)
        let rightToLeft = prepared.paragraphLevel & 1 == 1
        switch prepared.style.alignment {
        case .natural, .leading: return rightToLeft ? free : 0
        case .trailing: return rightToLeft ? 0 : free
        case .center: return free / 2
        }
    }

    /// Baseline of line `i`, measured from the top of the layout: the font's ascent plus half
    /// the leading (line height minus ascent and descent), as CSS places text in a line box.
    public func baseline(ofLine i: Int) -> Double {
        if prepared.hasTallerLines {
            // line-height: normal with taller fonts: the baseline sits below the most room any
            // font on the line needs above it.
            return top(ofLine: i) + prepared.lineBoxMetrics(of: lines[i], maxWidth: maxWidth).above
        }
        let ascent = prepared.ascent.rounded(), descent = prepared.descent.rounded()
        let halfLeading = ((prepared.lineHeight - (ascent + descent)) / 2).rounded(.down)
        return Double(i) * prepared.lineHeight + halfLeading + ascent
    }

    /// The glyphs of line `i` in visual (left-to-right) order, relative to the line's left edge
    /// and baseline. These are the shaped glyphs whose advances the line width was summed from;
    /// a hyphen or ellipsis the line ends with is appended in the primary font.
    public func glyphs(ofLine i: Int) -> [PlacedGlyphs] {
        let line = lines[i]
        let p = prepared
        var contentEnd = line.end
        while contentEnd > line.start && isHangingSpace(p.units[contentEnd - 1]) { contentEnd -= 1 }

        // Pieces of runs on this line, in logical order.
        struct Piece { var run: Int; var first: Int; var last: Int }
        var pieces: [Piece] = []
        var levels: [UInt8] = []
        // Runs are in logical order and do not overlap: the line's are found by a search, not a
        // scan (a 10 MB text has a run per word, and every drawn line would pass them all).
        let runs = p.runs
        var r = Self.firstRun(in: runs, endingAfter: line.start)
        while r < runs.count && Int(runs[r].start) < contentEnd {
            let run = runs[r]
            guard let (first, last) = Self.glyphRange(of: run, units: line.start..<contentEnd) else { r += 1; continue }
            pieces.append(Piece(run: r, first: first, last: last))
            levels.append(run.bidiLevel)
            r += 1
        }
        var order = Array(0..<Int32(pieces.count))
        if levels.contains(where: { $0 != 0 }) {
            order.withUnsafeMutableBufferPointer { o in
                levels.withUnsafeBufferPointer { ICU.reorderVisual($0.baseAddress, count: Int32(pieces.count), visualToLogical: o.baseAddress) }
            }
        }

        var placed: [PlacedGlyphs] = []
        var pen = 0.0
        let rightToLeft = p.paragraphLevel & 1 == 1
        func appendMark(_ scalar: UInt32) {
            guard let glyph = p.primaryFont.nominalGlyph(scalar) else { return }
            let font = p.primaryFont
            let advance = PreparedText.pixels(font.fixedAdvance(font.nominalAdvance(scalar) ?? 0, scale: font.fixedScale(size: p.fontSize), size: p.fontSize))
            let at: Double
            if rightToLeft {
                // The mark goes at the visual start: shift everything placed so far.
                placed = placed.map { PlacedGlyphs(font: $0.font, size: $0.size, glyphs: $0.glyphs, x: $0.x.map { $0 + advance }, y: $0.y, advances: $0.advances) }
                at = 0
            } else {
                at = pen
            }
            placed.append(PlacedGlyphs(font: p.primaryFont, size: p.fontSize, glyphs: [glyph], x: [at], y: [0], advances: [advance]))
            pen += advance
        }
        // Tabs have no glyphs: in a left-to-right line, each run starts where the measured
        // advances (tab stops included) put it.
        let tabbed = !levels.contains(where: { $0 & 1 == 1 }) && p.units[line.start..<contentEnd].contains(0x09)
        // CJK punctuation reshaped at the line start (measured alone, ``LineStartReshape``)
        // changes the line's width by this much; tab stops count from the changed pen.
        let startDeltaFixed = p.lineStartDelta(at: line.start)
        let startDelta = PreparedText.pixels(startDeltaFixed)
        // Where the start's glyph is placed: the piece (visual index) and the glyph within it.
        var startGlyph: (piece: Int, glyph: Int)?
        // Chromium's items (bidi level runs) are each rounded up to 1/64 px, as measured
        // (BidiItemRounding): each level run's part but the line's logically last one ends in
        // that gap. A run's pieces are logically consecutive with one level, so visually adjacent.
        var group = [Int](repeating: 0, count: pieces.count)
        for k in pieces.indices.dropFirst() { group[k] = group[k - 1] + (levels[k] != levels[k - 1] ? 1 : 0) }
        var groupStart = 0.0
        // Only where the measuring form rounds runs (not in a paragraph with tabs, whose stops
        // count from the unrounded pen).
        let roundsRuns = p.withView { $0.headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0 }
        // The line's logically last part has its gap too when the line ends where its run does
        // (the run's rounding is then in the measured width).
        func level(_ u: Int) -> UInt8? {
            let k = Self.firstRun(in: runs, endingAfter: u)
            return k < runs.count && Int(runs[k].start) <= u ? runs[k].bidiLevel : nil
        }
        let endsAtRunEnd = roundsRuns && contentEnd > line.start && contentEnd < p.units.count && level(contentEnd - 1) != nil
            && level(contentEnd) != nil && level(contentEnd) != level(contentEnd - 1)
        for (v, index) in order.enumerated() {
            let piece = pieces[Int(index)]
            let run = p.runs[piece.run]
            let font = run.font
            let fixedScale = font.fixedScale(size: p.fontSize)
            let s = run.shaped
            if tabbed {
                // (Less the start's change, which every piece after the first gets below.)
                pen = p.penPosition(of: max(line.start, Int(run.start)), lineStart: line.start, startDelta: startDeltaFixed)
                    - (Int(run.start) > line.start ? startDelta : 0)
            }
            var glyphs: [UInt32] = [], xs: [Double] = [], ys: [Double] = [], advances: [Double] = []
            let clusters = s.glyphClusters, ids = s.glyphIDs, offsetsX = s.glyphOffsetsX, offsetsY = s.glyphOffsetsY, shapedAdvances = s.glyphAdvances
            for g in piece.first...piece.last {
                let unit = Int(run.start) + Int(clusters[g])
                guard unit >= line.start && unit < contentEnd else { continue }
                if unit == line.start && startGlyph == nil { startGlyph = (placed.count, glyphs.count) }
                glyphs.append(ids[g])
                xs.append(pen + PreparedText.pixels(font.fixedAdvance(offsetsX[g], scale: fixedScale, size: p.fontSize)))
                ys.append(-PreparedText.pixels(font.fixedAdvance(offsetsY[g], scale: fixedScale, size: p.fontSize)))
                var advance = PreparedText.pixels(font.fixedAdvance(shapedAdvances[g], scale: fixedScale, size: p.fontSize))
                if p.units[unit] & 0xFFF0 == 0x2000, let space = font.fallbackSpaceAdvance(p.units[unit], size: p.fontSize) {
                    advance = PreparedText.pixels(space)  // drawn where it was measured
                }
                advances.append(advance)
                pen += advance
            }
            placed.append(PlacedGlyphs(font: run.font, size: p.fontSize, glyphs: glyphs, x: xs, y: ys, advances: advances))
            let g = group[Int(index)]
            if v + 1 == order.count || group[Int(order[v + 1])] != g {
                if g != group.last || endsAtRunEnd || line.ellipsized, roundsRuns {
                    let width = pen - groupStart
                    var gap = (width * 64).rounded(.up) / 64 - width
                    if line.ellipsized {
                        // An ellipsized line is measured by its advances, which carry each run's pad.
                        let runs = pieces.indices.filter { group[$0] == g }.map { p.runs[pieces[$0].run] }
                        let lo = max(line.start, runs.map { Int($0.start) }.min() ?? line.start)
                        let hi = min(contentEnd, runs.map { Int($0.end) }.max() ?? contentEnd)
                        gap = lo < hi ? p.width(of: lo..<hi) - width : 0
                    }
                    if gap > 0, let last = placed.indices.last, !placed[last].advances.isEmpty {
                        var advances = placed[last].advances
                        advances[advances.count - 1] += gap
                        placed[last] = PlacedGlyphs(font: placed[last].font, size: placed[last].size, glyphs: placed[last].glyphs,
                                                    x: placed[last].x, y: placed[last].y, advances: advances)
                        pen += gap
                    }
                }
                groupStart = pen
            }
        }
        // The reshaped line start: its glyph takes the measured width, and what follows it
        // visually moves with it. Its blank side is dropped: left to right the glyph moves
        // left; right to left (mirrored, at the visual end of its piece, perhaps after other
        // pieces) it stays and its right side goes.
        if startDelta != 0, let (k, g0) = startGlyph {
            let movesItself = level(line.start).map { $0 & 1 == 0 } ?? true
            for j in k..<placed.count {
                var xs = placed[j].x, advances = placed[j].advances
                for g in xs.indices where j > k || g > g0 || (g == g0 && movesItself) { xs[g] += startDelta }
                if j == k { advances[g0] += startDelta }
                placed[j] = PlacedGlyphs(font: placed[j].font, size: placed[j].size, glyphs: placed[j].glyphs, x: xs,
                                         y: placed[j].y, advances: advances)
            }
            pen += startDelta
        }
        // A closing CJK bracket trimmed to fit at the line end: its blank half is dropped; a full
        // stop trimmed before punctuation on the next line gets its blank half back, and so does
        // a cluster kerned against the next one, which the line end reshapes alone. (In a line
        // with right-to-left runs the pen skips the tabs' stops; count them here.)
        let skippedTabs = !tabbed && p.units[line.start..<contentEnd].contains(0x09)
            ? p.penPosition(of: contentEnd, lineStart: line.start) - p.width(of: line.start..<contentEnd) : 0
        // A line broken at a soft hyphen: its end too is reshaped, unkerned (``BreakRules``).
        let hyphenMark = line.hyphenated ? PreparedText.pixels(Int64(p.hyphenWidth)) : 0
        let excess = pen + skippedTabs + hyphenMark - line.width
        if !line.ellipsized && abs(excess) > 1e-6, contentEnd > line.start,
           line.hyphenated
               ? excess < 0 && p.units[contentEnd - 1] == 0xAD && p.kerningGrowth(at: contentEnd - 1) > 0
               : excess > 0 ? CJKPunctuation.isClosingMark(p.units[contentEnd - 1])
               : CJKPunctuation.growsAtLineEnd(p.units[contentEnd - 1]) || p.kerningGrowth(at: contentEnd) > 0,
           let last = placed.indices.last, !placed[last].advances.isEmpty {
            var advances = placed[last].advances
            advances[advances.count - 1] -= excess
            placed[last] = PlacedGlyphs(font: placed[last].font, size: placed[last].size, glyphs: placed[last].glyphs,
                                        x: placed[last].x, y: placed[last].y, advances: advances)
            pen -= excess
        }
        if line.hyphenated { appendMark(p.primaryFont.covers(0x2010) ? 0x2010 : 0x2D) }
        if line.ellipsized { appendMark(0x2026) }
        return placed
    }

    /// Index of the first of `runs` (logical order, not overlapping) that ends after unit `u`;
    /// `runs.count` when none does.
    static func firstRun(in runs: [GlyphRun], endingAfter u: Int) -> Int {
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(runs[mid].end) <= u { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The first and last glyph of `run` whose cluster lies in `units`; nil when none does. A run
    /// the range covers whole takes all its glyphs. One the range cuts (a word split by
    /// overflow-wrap, perhaps millions of glyphs long) is searched: HarfBuzz's clusters are
    /// monotonic in a run at its default cluster level (ascending left to right, descending right
    /// to left); the bounds found are checked against their neighbours, and a run that does not
    /// pass is scanned glyph by glyph.
    static func glyphRange(of run: GlyphRun, units: Range<Int>) -> (first: Int, last: Int)? {
        let clusters = run.shaped.glyphClusters
        let count = clusters.count, start = Int(run.start)
        guard count > 0 else { return nil }
        if start >= units.lowerBound && Int(run.end) <= units.upperBound { return (0, count - 1) }
        func unit(_ g: Int) -> Int { start + Int(clusters[g]) }
        func partition(_ isAfter: (Int) -> Bool) -> Int {
            var lo = 0, hi = count
            while lo < hi {
                let mid = (lo + hi) / 2
                if isAfter(mid) { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        let ascending = clusters[0] <= clusters[count - 1]
        let first = ascending ? partition { unit($0) >= units.lowerBound } : partition { unit($0) < units.upperBound }
        let last = (ascending ? partition { unit($0) >= units.upperBound } : partition { unit($0) < units.lowerBound }) - 1
        if first > last {
            // No glyph in range: its neighbours on either side of the search's answer are outside.
            if (first == count || !units.contains(unit(first))) && (first == 0 || !units.contains(unit(first - 1))) { return nil }
        } else if units.contains(unit(first)) && units.contains(unit(last))
                    && (first == 0 || !units.contains(unit(first - 1))) && (last == count - 1 || !units.contains(unit(last + 1))) {
            return (first, last)
        }
        var lo = Int.max, hi = -1
        for g in 0..<count where units.contains(unit(g)) { lo = min(lo, g); hi = max(hi, g) }
        return hi >= 0 ? (lo, hi) : nil
    }
}

extension PreparedText {
    /// x of unit `u` from the start of a line at `lineStart`, tab stops included.
    /// `startDelta`: how much the line's reshaped start (``lineStartDelta(at:)``) changed it.
    func penPosition(of u: Int, lineStart: Int, startDelta: Int64 = 0) -> Double {
        var x: Int64 = u > lineStart ? startDelta : 0
        for k in lineStart..<u {
            if units[k] == 0x09 {
                x = k > 0 && units[k - 1] == 0xAD ? TabStop.end(from: x, spaceWidth: spaceWidth, afterHyphen: Int64(hyphenWidth))
                    : TabStop.end(from: x, spaceWidth: spaceWidth)
            } else {
                x += unitAdvance(k)
            }
        }
        return Self.pixels(x)
    }
}
