/// Line breaking over a compact measuring form (``MetricsBlock``), as Chromium does with
/// `white-space: normal; overflow-wrap: break-word`: greedy; trailing spaces hang; a word wider
/// than the line moves to a new line and breaks between grapheme clusters there (inside a
/// ligature too, OverflowBreaks.swift); forced breaks end lines; a line ending at a soft hyphen
/// shows a hyphen, which must fit. Integer arithmetic only: no shaping, and no allocation but
/// on the rare paths (a word broken inside, a soft hyphen that does not fit).
extension MetricsBlock.View {
    typealias Flag = MetricsBlock.Flag

    /// The fit limit for `maxWidth` in 16.16 pixels. Chromium snaps the box width down to its
    /// 1/64 px layout unit and lets a line be one layout unit wider (measured, docs/CHROMIUM.md
    /// §3a); a line fits when its width, rounded up to 1/64 px, is at most this.
    @inline(__always) static func fitLimit(_ maxWidth: Double) -> Int64 {
        guard maxWidth < 1_000_000_000 else { return Int64.max / 4 }
        // ⌊maxWidth · 64⌋ by truncation (`rounded(.down)` is a call to libm's floor on
        // baseline x86-64, and this runs for every text a list re-measures).
        let scaled = maxWidth * 64
        var units = Int64(scaled)
        if Double(units) > scaled { units -= 1 }
        return (units + 1) * 1024
    }

    /// A 16.16 width rounded up to 1/64 px.
    @inline(__always) static func ceilToLayoutUnit(_ width: Int64) -> Int64 { (width + 1023) & ~1023 }

    /// Walks the lines at `maxWidth`, calling `emit(start, end, width, hyphenated)` for each
    /// (UTF-16 range including hanging spaces; width excluding them, in 16.16 px). `emit`
    /// returns false to stop.
    ///
    /// `Rounding`: `RoundsLevelRuns` for a block with bidi level runs (`BidiItemRounding`),
    /// `IgnoresLevelRuns` for every other block, which then runs the loop without a trace of
    /// that rule. The callers pick the copy (each with its own `emit`: one closure handed to
    /// both copies would keep the caller's captured counters in memory in the plain one).
    @inline(__always)
    func forEachLine<Rounding: LevelRunRounding>(maxWidth: Double, _: Rounding.Type, _ emit: (Int32, Int32, Int64, Bool) -> Bool) {
        let n = segmentCount
        guard n > 0 else { return }
        let limit = Self.fitLimit(maxWidth)
        let single = singleLineWidth
        if single <= limit {
            _ = emit(0, Int32(unitCount), single, false)
            return
        }
        let hyphenWidth = Int64(self.hyphenWidth)
        let widths = self.widths, codes = self.codes, trail = self.trail
        var lineStart: Int32 = 0
        var lineFirst = 0           // first segment on the current line
        var x: Int64 = 0            // pen after the last placed segment, hanging spaces included
        var content: Int64 = 0      // line width up to the end of the last placed content
        var placed = 0              // segments on the current line
        var lastFlags: UInt8 = 0
        var i = 0
        // A line starts inside segment i at this unit (after an overflow break whose rest is
        // still wider than the line, which is broken again between graphemes); -1: none.
        var resume = -1
        // The pen at a line start from its shaping item's start, for lines with a reshaped end.
        var itemPens: (unit: Int, x: Int64) = (0, 0)
        // The rest of the shaping item from a line start, for joined Arabic words split there.
        var itemRest = ItemRest()
        // Where the line starts when it holds the rest of a word split there (-1: not so).
        var joinedRestStart = -1
        // `breakable` only matters for a segment wider than the line, which the fast loop
        // leaves to the general path anyway.
        let specialFlags = ~Flag.breakable
        // The stored level runs (read once; only with direction changes).
        let levelRuns = Rounding.on ? bidiRunTable : MetricsBlock.BidiRunTable(base: base, count: 0)
        // A line starting inside a dictionary-script run may find its words again: blocks that
        // list such starts begin every line but the first in the general path.
        let refindsWords = hasRefoundLineStarts
        // Lines within the last layout unit of the limit whose start is kerned to the text
        // before it (``unsafeLineStartFits``): only blocks with extras record kerning.
        let band = limit &- 1024
        let checksStarts = headerFlags & MetricsBlock.HeaderFlag.extras != 0
        while i < n {
            if lastFlags & specialFlags == 0 && resume < 0 && !(refindsWords && placed == 0 && i > 0) {
                // Tight loop over plain segments (no soft hyphen, tab, forced break,
                // white-space-only segment or trimmable bracket) that fit a line alone: the
                // common case, kept small so its state stays in registers. Only whether a
                // line holds segments matters to the general path, not how many.
                var px = x, pc = content, ps = lineStart, pf = lineFirst
                var pn = placed
                if pn == 0 { px = 0; pf = i }
                // With level runs, the loop also stops at the next segment ending one.
                let nextRunEnd = Rounding.on ? levelRuns.segmentEndingRun(atOrAfter: i, else: n) : n
                while i < n {
                    let w = Int64(widths[i])
                    let code = codes[i]
                    if code & MetricsBlock.Code.special != 0 || (Rounding.on && i == nextRunEnd) { break }
                    // Wrapping adds: widths are Int32 sums, far from overflowing Int64.
                    let nx = px &+ w
                    // Within the last layout unit, a line whose start kerning tied to the text
                    // before it may still not fit (``unsafeLineStartFits``).
                    if nx <= limit && (nx <= band || pn == 0 || !checksStarts
                                       || unsafeLineStartFits(lineStart: Int(ps), contentEnd: contentEnd(i), limit: limit, pens: &itemPens)) {
                        pc = nx
                        px = nx &+ Int64(trail[Int(code & MetricsBlock.Code.trailMask)])
                        pn = 1
                        i &+= 1
                        continue
                    }
                    // Segment i starts a new line, when it fits one alone.
                    if pn == 0 || w > limit || refindsWords { break }
                    let e = end(i - 1)
                    if !emit(ps, e, pc, false) { return }
                    ps = e
                    pf = i
                    pc = w
                    px = w &+ Int64(trail[Int(code & MetricsBlock.Code.trailMask)])
                    i &+= 1
                }
                x = px; content = pc; placed = pn; lineStart = ps; lineFirst = pf
                if i >= n { break }
            }
            let f = flags(i)
            let segmentStart = resume >= 0 ? Int32(resume) : start(i)
            var w = resume >= 0 ? lineStartWidth(resume, contentEnd(i)) : Int64(widths[i])
            // A segment ending a level run the line started inside: its part from the line start
            // is rounded on its own, not with the run's folded pad (BidiItemRounding). The
            // plain loop stops at such a segment.
            var runEndGrowth: (content: Int64, trailing: Int64) = (0, 0)
            if Rounding.on {
                runEndGrowth = levelRunEndCorrection(levelRuns, segment: i, lineStart: placed > 0 ? Int(lineStart) : Int(segmentStart),
                                               pen: x, lineFirst: lineFirst, limit: limit)
                w += runEndGrowth.content
            }
            resume = -1
            var trim: Int64 = 0
            // A soft hyphen ending the text or a forced line must fit with its (undrawn) hyphen.
            let endHyphen = f & Flag.softHyphen != 0 && (i == n - 1 || f & Flag.mandatoryBreak != 0) ? hyphenWidth : 0
            // A line whose start kerning tied to the text before it (``unsafeLineStartFits``).
            let startRefuses = placed > 0 && f & Flag.whitespaceOnly == 0 && x + w <= limit && x + w > band
                && !unsafeLineStartFits(lineStart: Int(lineStart), contentEnd: contentEnd(i), limit: limit, pens: &itemPens)
            if placed > 0 && f & Flag.whitespaceOnly == 0
                && (x + w > limit || startRefuses
                    || (endHyphen > 0 && !Self.endingSoftHyphenFits(x + w, hyphen: endHyphen, limit: limit))) {
                // A closing mark ending the line gives up its end half only when the break
                // follows it directly, not after white space — a `pre-wrap` tab too, whose
                // advance is found at layout, not in `trailing` (docs/CHROMIUM.md §3(e)).
                if !startRefuses && f & Flag.endTrim != 0 && f & (Flag.mandatoryBreak | Flag.tab) == 0 && trailing(i) == 0 { trim = lineEndTrim(segment: i) }
                // The trimmed mark is shaped again, a part of its own (docs/CHROMIUM.md §3(e)).
                if trim == 0 || !Self.trimmedEndFits(x + w, lastAdvance: units.advance(contentEnd(i) - 1), trim: trim,
                                                     itemX: itemPen(at: Int(lineStart), cache: &itemPens), limit: limit) {
                    // The line ends before segment i: after the last placed segment, unless
                    // that one ends in a soft hyphen whose hyphen does not fit, or in a full
                    // stop that is full width at a line end and then does not fit — then at
                    // the latest earlier opportunity where it does (docs/CHROMIUM.md §3(b, e)).
                    var endSegment = i - 1
                    var width = content
                    var hyphen = lastFlags & Flag.softHyphen != 0
                    var growth = lastFlags & Flag.endTrim != 0 ? lineEndGrowth(segment: endSegment)
                        : hyphen ? softHyphenGrowth(segment: endSegment) : 0
                    if lastFlags & Flag.ideographicSpaceOnly != 0 && endSegment > lineFirst,
                       let before = lineBreakBefore(i, lineFirst: lineFirst, lineStart: lineStart, limit: limit, hyphenWidth: hyphenWidth),
                       before.segment == endSegment - 1 {
                        // A U+3000 after a space does not end a line it shares: the line ends
                        // before it (docs/CHROMIUM.md §3(l)).
                        (endSegment, width, hyphen, growth) = before
                    }
                    if (hyphen && Self.ceilToLayoutUnit(content + growth) + Self.ceilToLayoutUnit(hyphenWidth) > limit)
                        || (growth > 0 && !grownEndFits(segment: endSegment, content + growth, itemX: itemPen(at: Int(lineStart), cache: &itemPens), limit: limit)) {
                        if let fallback = lineBreakBefore(i, lineFirst: lineFirst, lineStart: lineStart, limit: limit, hyphenWidth: hyphenWidth) {
                            endSegment = fallback.segment
                            width = fallback.width
                            hyphen = fallback.hyphen
                            growth = fallback.growth
                        } else if let split = hyphen
                                    ? softHyphenOverflowBreak(lineStart: Int(lineStart), limit: limit, hyphenWidth: hyphenWidth)
                                    : lineFirst == endSegment ? grownEndOverflowBreak(lineStart: Int(lineStart), contentEnd: contentEnd(endSegment), limit: limit) : nil {
                            // overflow-wrap breaks the word between graphemes instead
                            // (docs/CHROMIUM.md §3(b, e)); the line resumes where it broke.
                            // The split can fall in an earlier segment than the last placed one
                            // (back through soft hyphens): the line resumes in the segment
                            // holding it, so a soft hyphen left at its start is still a break
                            // (a hyphen-only line, docs/CHROMIUM.md §3(b)).
                            var j = lineFirst
                            while j < n && Int(end(j)) <= split.end { j += 1 }
                            // When only the segment's hanging white space is left after the split
                            // (`\u{AD}\u{3000} `: a soft hyphen before an ideographic space), it
                            // hangs at the end of this line instead of starting one.
                            var splitEnd = split.end
                            if j < n && splitEnd >= contentEnd(j) {
                                splitEnd = Int(end(j))
                                j += 1
                            }
                            if !emit(lineStart, Int32(splitEnd), split.width, split.hyphen) { return }
                            lineStart = Int32(splitEnd)
                            if j < n && j > 0 && Int(end(j - 1)) == splitEnd {
                                placed = 0
                                lastFlags = 0
                                x = 0
                                content = 0
                                i = j
                            } else if j < n && flags(j) & Flag.breakable != 0
                                        && lineStartWidth(splitEnd, contentEnd(j)) > limit {
                                // The rest of the word is still wider than the line: broken
                                // again between graphemes, from where the line starts.
                                placed = 0
                                lastFlags = 0
                                x = 0
                                content = 0
                                i = j
                                resume = splitEnd
                            } else if j < n {
                                lineFirst = j
                                content = lineStartWidth(splitEnd, contentEnd(j))
                                var trailingGrowth: Int64 = 0
                                if Rounding.on {
                                    // A level run ending in the segment is rounded from the
                                    // split, not with its folded pad (BidiItemRounding).
                                    let g = levelRunEndCorrection(levelRuns, segment: j, lineStart: splitEnd, pen: 0, lineFirst: j, limit: limit)
                                    content += g.content
                                    trailingGrowth = g.trailing
                                }
                                let fj = flags(j)
                                // A tab after the rest of the word goes to the next stop from it.
                                x = content + (fj & Flag.tab != 0 ? tabbedSpaceWidth(segment: j, from: content) : trailing(j)) + trailingGrowth
                                placed = 1
                                lastFlags = fj & ~Flag.mandatoryBreak
                                i = j + 1
                                if fj & Flag.mandatoryBreak != 0 {
                                    if !emit(lineStart, end(j), content, false) { return }
                                    lineStart = end(j)
                                    placed = 0
                                    lastFlags = 0
                                    x = 0
                                    content = 0
                                }
                            } else {
                                placed = 0
                                i = n
                            }
                            continue
                        } else {
                            hyphen = false
                        }
                    }
                    let e = end(endSegment)
                    if !emit(lineStart, e, width + growth + (hyphen ? hyphenWidth : 0), hyphen) { return }
                    lineStart = e
                    placed = 0
                    lastFlags = 0
                    trim = 0
                    if endSegment < i - 1 {
                        i = endSegment + 1
                        continue
                    }
                }
            }
            if placed > 0 {
                if f & Flag.whitespaceOnly == 0 { content = x + w - trim }
            } else {
                if refindsWords && i > 0 && segmentStart == start(i), let breaks = refoundDictionaryBreaks(at: Int(segmentStart)) {
                    // The line starts between two words of a dictionary-script run, whose rest
                    // Chromium segments again from here (docs/CHROMIUM.md §3(g)).
                    guard let next = layOutDictionaryRun(breaks, lineStart: &lineStart, content: &content, x: &x,
                                                         limit: limit, emit) else { return }
                    i = next
                    placed = 1
                    lineFirst = i - 1
                    let fl = flags(i - 1)
                    lastFlags = fl & ~(Flag.softHyphen | Flag.endTrim | Flag.mandatoryBreak)
                    if fl & Flag.mandatoryBreak != 0 {
                        if !emit(lineStart, end(i - 1), content, false) { return }
                        lineStart = end(i - 1)
                        placed = 0
                        lastFlags = 0
                        x = 0
                        content = 0
                    }
                    continue
                }
                lineFirst = i
                // CJK punctuation starting the line is shaped again alone (docs/CHROMIUM.md §3(e)).
                var w = f & Flag.lineStartAlone != 0 ? lineStartWidth(Int(segmentStart), contentEnd(i)) : w - runEndGrowth.content
                if Rounding.on {
                    // Now from the segment's start.
                    runEndGrowth = levelRunEndCorrection(levelRuns, segment: i, lineStart: Int(segmentStart), pen: 0, lineFirst: i, limit: limit)
                    w += runEndGrowth.content
                }
                // A line resumed before the segment (a word joined across it) can break anywhere.
                if (w > limit || (endHyphen > 0 && !Self.endingSoftHyphenFits(w, hyphen: endHyphen, limit: limit)))
                    && (f & Flag.breakable != 0 || segmentStart < start(i)) {
                    // overflow-wrap: break-word — whole graphemes per line, at least one; a
                    // closing bracket that ends the word may shrink to fit.
                    var gx: Int64 = 0
                    var u = Int(segmentStart)
                    let contentEnd = self.contentEnd(i)
                    let endTrim = f & Flag.endTrim != 0 ? lineEndTrim(segment: i) : 0
                    var dictionary: [Int32]?
                    var joined = false
                    while u < contentEnd {
                        var piece = breakWordLine(from: u, contentEnd: contentEnd, limit: limit, endTrim: endTrim,
                                                  itemPens: &itemPens, itemRest: &itemRest)
                        if piece.end == contentEnd && endHyphen > 0 && !Self.endingSoftHyphenFits(piece.width, hyphen: endHyphen, limit: limit) {
                            // The rest does not fit with the hyphen: broken in the space left for it —
                            // before the soft hyphen itself too, which then makes a line of its own
                            // (`r\u{00AD}` where `r‐` does not fit is two lines), but soft hyphens
                            // stay together (docs/CHROMIUM.md §3(b)).
                            let shorter = breakWordLine(from: u, contentEnd: contentEnd, limit: limit - Self.ceilToLayoutUnit(endHyphen), endTrim: 0)
                            if shorter.end < contentEnd - 1 || (shorter.end == contentEnd - 1 && !self.units.isSoftHyphen(shorter.end - 1)) {
                                piece = shorter
                            }
                        }
                        if piece.end == contentEnd {
                            gx = piece.width
                            if piece.trimmed { trim = endTrim }
                            break
                        }
                        if i + 1 < n && self.units.joinsAtLineStart(piece.end) {
                            // The line starts at the word's last grapheme, which has no break
                            // after it seen from there: the word goes on into the next segment
                            // (BreakOpportunities.lineStartJoins, docs/CHROMIUM.md §3(d)).
                            if !emit(lineStart, Int32(piece.end), piece.width, false) { return }
                            lineStart = Int32(piece.end)
                            joined = true
                            break
                        }
                        if !emit(lineStart, Int32(piece.end), piece.width, false) { return }
                        lineStart = Int32(piece.end)
                        u = piece.end
                        dictionary = dictionaryBreaks(from: u)
                        if dictionary != nil { break }
                    }
                    if joined {
                        placed = 0
                        lastFlags = 0
                        x = 0
                        content = 0
                        resume = Int(lineStart)
                        i += 1
                        continue
                    }
                    if Rounding.on && Int(lineStart) > Int(segmentStart) {
                        // The word's last line starts where it was broken, not at the segment:
                        // a level run ending in its hanging space is rounded from there
                        // (breakWordLine already rounds one ending in the word).
                        runEndGrowth = (0, levelRunEndCorrection(levelRuns, segment: i, lineStart: Int(lineStart), pen: 0,
                                                                 lineFirst: i, limit: limit).trailing)
                    }
                    content = gx - trim
                    if trim == 0 && dictionary == nil && Int(lineStart) > Int(segmentStart) { joinedRestStart = Int(lineStart) }
                    if let breaks = dictionary {
                        // The line starts inside a dictionary-segmented word: Chromium finds
                        // the words from here again (docs/CHROMIUM.md §3(g)).
                        guard let next = layOutDictionaryRun(breaks, lineStart: &lineStart, content: &content, x: &x,
                                                             limit: limit, emit) else { return }
                        i = next
                        placed = 1
                        lineFirst = i - 1
                        let fl = flags(i - 1)
                        lastFlags = fl & ~(Flag.softHyphen | Flag.endTrim | Flag.mandatoryBreak)
                        if fl & Flag.mandatoryBreak != 0 {
                            if !emit(lineStart, end(i - 1), content, false) { return }
                            lineStart = end(i - 1)
                            placed = 0
                            lastFlags = 0
                            x = 0
                            content = 0
                        }
                        continue
                    }
                } else {
                    content = w
                }
            }
            let pen = f & Flag.whitespaceOnly != 0 && placed > 0 ? x : content
            placed += 1
            lastFlags = f
            x = trim > 0 ? limit + 1 : pen + (f & Flag.tab != 0 ? tabbedSpaceWidth(segment: i, from: pen) : trailing(i))
            if Rounding.on && trim == 0 { x += runEndGrowth.trailing }
            if f & Flag.mandatoryBreak != 0 {
                let e = end(i)
                if !emit(lineStart, e, content, false) { return }
                lineStart = e
                placed = 0
                lastFlags = 0
                x = 0
                content = 0
            }
            if joinedRestStart >= 0 {
                // The rest of a word split at a joined Arabic letter: the words after it on
                // this line are held to the positions of its reshaped start.
                let from = joinedRestStart
                joinedRestStart = -1
                if placed > 0 && f & specialFlags == 0,
                   let cut = resumedJoinedLineEnd(from: from, after: i, pen: x, content: content, limit: limit, cache: &itemRest) {
                    let e = end(cut.segment)
                    if !emit(lineStart, e, cut.width, false) { return }
                    lineStart = e
                    placed = 0
                    lastFlags = 0
                    x = 0
                    content = 0
                    i = cut.segment + 1
                    continue
                }
            }
            i += 1
        }
        if placed > 0 { _ = emit(lineStart, Int32(unitCount), content, false) }
    }

    /// The latest break before the last one on the line `lineFirst..<i` (starting at unit
    /// `lineStart`) whose line fits, counting a soft hyphen's hyphen and a full stop's growth
    /// where the break follows one; nil if there is none.
    func lineBreakBefore(_ i: Int, lineFirst: Int, lineStart: Int32, limit: Int64, hyphenWidth: Int64)
        -> (segment: Int, width: Int64, hyphen: Bool, growth: Int64)? {
        var best: (segment: Int, width: Int64, hyphen: Bool, growth: Int64)?
        var itemPens: (unit: Int, x: Int64) = (0, 0)
        var x: Int64 = 0
        var content: Int64 = 0
        // Every candidate but the last (j = i - 1) counts; the latest one that fits wins.
        for j in lineFirst..<i {
            let f = flags(j)
            var w: Int64 = 0
            if j == lineFirst {
                if f & Flag.lineStartAlone != 0 && lineStart == start(j) {
                    w = lineStartWidth(Int(lineStart), contentEnd(j))
                } else {
                    let units = self.units
                    for u in Int(lineStart)..<contentEnd(j) { w += units.advance(u) }
                }
            } else {
                w = Int64(widths[j])
            }
            var runEndGrowth: (content: Int64, trailing: Int64) = (0, 0)
            if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0 {
                runEndGrowth = levelRunEndCorrection(bidiRunTable, segment: j, lineStart: Int(lineStart), pen: j == lineFirst ? 0 : x,
                                                     lineFirst: lineFirst, limit: limit)
                w += runEndGrowth.content
            }
            if f & Flag.whitespaceOnly == 0 || j == lineFirst { content = (j == lineFirst ? 0 : x) + w }
            let pen = f & Flag.whitespaceOnly != 0 && j > lineFirst ? x : content
            x = pen + (f & Flag.tab != 0 ? tabbedSpaceWidth(segment: j, from: pen) : trailing(j)) + runEndGrowth.trailing
            guard j < i - 1 else { break }
            let extra = f & Flag.softHyphen != 0 ? Self.ceilToLayoutUnit(hyphenWidth) : 0
            let growth = f & Flag.endTrim != 0 ? lineEndGrowth(segment: j)
                : f & Flag.softHyphen != 0 ? softHyphenGrowth(segment: j) : 0
            let fits = growth > 0 && extra == 0
                ? grownEndFits(segment: j, content + growth, itemX: itemPen(at: Int(lineStart), cache: &itemPens), limit: limit)
                : Self.ceilToLayoutUnit(content + growth) + extra <= limit
            if fits { best = (j, content, f & Flag.softHyphen != 0, growth) }
        }
        return best
    }

    /// Whether a line ending with segment `j`, its end shaped again alone (width `width`), fits
    /// (``reshapedEndFits(_:itemX:limit:)``). A segment ending in a zero width space, the letter
    /// before it kerned through it, keeps the layout unit of allowance: Chromium's `ShapeLine`
    /// compares the reshaped end with the available width plus that unit, and ten of forty
    /// swept texts (`ro\u{200B}width`, `AVATAR\u{200B}Tower`, `To\u{200B}wer`… in eight fonts)
    /// fit one layout unit earlier than without it, none later (docs/CHROMIUM.md §3(n),
    /// eighteenth round). A zero advance at a grapheme start that is no soft hyphen stands for
    /// the space (the measuring form keeps no text).
    @inline(__always) func grownEndFits(segment j: Int, _ width: Int64, itemX: Int64, limit: Int64) -> Bool {
        let e = contentEnd(j)
        let units = self.units
        if e > 0 && units.advance(e - 1) == 0 && units.isGraphemeStart(e - 1) && !units.isSoftHyphen(e - 1) {
            return Self.ceilToLayoutUnit(itemX + width) - Self.ceilToLayoutUnit(itemX) <= limit
        }
        return Self.reshapedEndFits(width, itemX: itemX, limit: limit)
    }

    /// Width of segment `i`'s trailing white space when it holds tabs: spaces advance by the
    /// space width, a tab to its next stop (``TabStop``) from the line start.
    func tabbedSpaceWidth(segment i: Int, from x: Int64) -> Int64 {
        trailingWidth(contentEnd(i), Int(end(i)), from: x, tabbed: true)
    }

    /// Room above and below the baseline that the line `start..<end` (width `width`, 16.16 px)
    /// needs (normal line height): the primary font's, grown by every fallback font on the line.
    /// `limit`: the fit limit the line was broken at (``fitLimit``), or -1 when not known.
    func lineBoxMetrics(_ start: Int, _ end: Int, width: Int64, limit: Int64 = -1) -> (above: Double, below: Double) {
        let classes = self.classes
        var (above, below) = classes.metrics(0)
        let stop = max(end, start + 1)
        // The class run holding `start`, then every run that starts before `stop`.
        var low = 0, high = classes.runCount
        while high - low > 1 {
            let mid = (low + high) / 2
            if classes.run(mid).start <= start { low = mid } else { high = mid }
        }
        let conditional = Int(MetricsBlock.conditionalClass)
        let lineEnd = Int(MetricsBlock.lineEndClass)
        while low > 0 && classes.run(low).cls & conditional != 0 { low -= 1 }
        // A line starting at CJK punctuation reshaped there (``LineStartReshape``): that unit
        // counts with the font it is reshaped in, not with its run's.
        var from = start
        var k = low + 1
        while k < classes.runCount, classes.run(k).start <= start {
            let run = classes.run(k)
            if run.start == start && run.cls & conditional != 0 && run.cls & lineEnd == 0 {
                let m = classes.metrics(run.cls & ~conditional)
                above = max(above, m.above)
                below = max(below, m.below)
                from = start + 1
            }
            k += 1
        }
        // A line trimmed at a closing mark reshaped there (`LineEndReshape`): the same at its end.
        var to = stop
        if let reshaped = trimmedEndReshape(start, end, width: width, classes) {
            let m = classes.metrics(reshaped.cls)
            above = max(above, m.above)
            below = max(below, m.below)
            to = reshaped.unit
        }
        // A line Chromium lays out without the word's last letter it starts with
        // (`droppedLineStart`): that letter's font does not count.
        var dropped = false
        if from == start, let letterEnd = droppedLineStart(start, end, limit: limit) {
            from = letterEnd
            dropped = true
        }
        k = low
        while k < classes.runCount {
            let run = classes.run(k)
            if run.start >= to { break }
            if run.cls != 0 && run.cls & conditional == 0
                && ((k != low && (!dropped || run.start >= from)) || (from == start && start < to)
                    || (to > from && reaches(past: from, after: k, classes))) {
                let m = classes.metrics(run.cls)
                above = max(above, m.above)
                below = max(below, m.below)
            }
            k += 1
        }
        return (above, below)
    }

    /// `lineBoxMetrics(_:_:width:)` of a line not trimmed at its end.
    func lineBoxMetrics(_ start: Int, _ end: Int) -> (above: Double, below: Double) { lineBoxMetrics(start, end, width: .max / 4) }

    /// `lineBoxHeight(_:_:width:)` of a line not trimmed at its end.
    func lineBoxHeight(_ start: Int, _ end: Int) -> Double { lineBoxHeight(start, end, width: .max / 4) }

    /// The last content unit of the line `start..<end` and the class it is reshaped in, when the
    /// line ends trimmed at a closing mark reshaped there in another font (`LineEndReshape`).
    /// Trimmed: the line is narrower than its units' advances by at least half the trim (bidi
    /// and line-end roundings only ever add 1/64 px parts).
    private func trimmedEndReshape(_ start: Int, _ end: Int, width: Int64, _ classes: MetricsBlock.ClassReader) -> (unit: Int, cls: Int)? {
        guard headerFlags & MetricsBlock.HeaderFlag.lineEndClasses != 0 else { return nil }
        let conditional = Int(MetricsBlock.conditionalClass), lineEnd = Int(MetricsBlock.lineEndClass)
        let units = self.units
        var last = end - 1
        while last > start && units.isHanging(last) { last -= 1 }
        guard last >= start else { return nil }
        var low = 0, high = classes.runCount
        while high - low > 1 {
            let mid = (low + high) / 2
            if classes.run(mid).start <= last { low = mid } else { high = mid }
        }
        var k = low
        while k >= 0 && classes.run(k).start == last && classes.run(k).cls & lineEnd == 0 { k -= 1 }
        guard k >= 0, classes.run(k).start == last, classes.run(k).cls & conditional != 0 else { return nil }
        // The segment whose content ends after the mark.
        var lo = 0, hi = segmentCount - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if contentEnd(mid) <= last { lo = mid + 1 } else { hi = mid }
        }
        guard contentEnd(lo) == last + 1, flags(lo) & Flag.endTrim != 0 else { return nil }
        let trim = lineEndTrim(segment: lo)
        guard trim > 0, width + trim / 2 <= lineStartWidth(start, last + 1) else { return nil }
        return (last, classes.run(k).cls & ~(conditional | lineEnd))
    }

    /// Whether the regular class run `k` goes on past unit `from - 1` (the next regular run
    /// starts after `from`) and the line holds units from `from` on.
    private func reaches(past from: Int, after k: Int, _ classes: MetricsBlock.ClassReader) -> Bool {
        var j = k + 1
        while j < classes.runCount && classes.run(j).cls & Int(MetricsBlock.conditionalClass) != 0 { j += 1 }
        return j >= classes.runCount || classes.run(j).start > from
    }

    /// Height of the line holding units `start..<end`.
    @inline(__always) func lineBoxHeight(_ start: Int, _ end: Int, width: Int64, limit: Int64 = -1) -> Double {
        guard hasTallerLines else { return lineHeight }
        let (above, below) = lineBoxMetrics(start, end, width: width, limit: limit)
        return above + below
    }

    /// The line `start..<end` (width `width`) shortened at a grapheme boundary so that its
    /// content plus an ellipsis fits `maxWidth`: its new end and width (an empty line when not
    /// even the ellipsis fits).
    func ellipsized(start: Int, end: Int, maxWidth: Double) -> (end: Int, width: Int64, ellipsized: Bool) {
        let ellipsis = Int64(ellipsisWidth)
        let available = Self.fitLimit(maxWidth) - ellipsis
        // Not even the ellipsis fits: the line is left empty rather than overflowing.
        guard available >= 0 else { return (start, 0, false) }
        var best = start
        var bestWidth: Int64 = 0
        // The line's start counts as it is drawn: CJK punctuation reshaped there, or the rest of
        // a cluster a break split (``lineStartWidth(_:_:)``), from the first grapheme kept on.
        var x: Int64 = start < end ? lineStartWidth(start, end) - advanceSum(start..<end) : 0
        var u = start
        let units = self.units
        while u < end {
            var v = u + 1
            var gw = units.advance(u)
            while v < end && !units.isGraphemeStart(v) { gw += units.advance(v); v += 1 }
            if units.kind(u) == MetricsBlock.Attribute.tab {
                gw = (u > 0 && units.isSoftHyphen(u - 1) ? TabStop.end(from: x, spaceWidth: spaceWidth, afterHyphen: Int64(hyphenWidth))
                    : TabStop.end(from: x, spaceWidth: spaceWidth)) - x
            }
            x += gw
            if x > available { break }
            if !units.isHanging(v - 1) { best = v; bestWidth = x }
            u = v
        }
        return (best, bestWidth + ellipsis, true)
    }

    /// Sum of the advances of units `range` (16.16 px).
    func advanceSum(_ range: Range<Int>) -> Int64 {
        var total: Int64 = 0
        let units = self.units
        for u in range.clamped(to: 0..<unitCount) { total += units.advance(u) }
        return total
    }

    // MARK: measuring

    /// Line count, height and widest line at `width`, without building lines.
    @inline(__always)
    func measure(width: Double) -> TextMeasure { Self.measure(base, width: width) }

    /// ``measure(width:)`` of the block at `base`. The common cases — one line, or plain
    /// text — read a few header fields and the segment arrays; the rest goes out of line, so
    /// that what is inlined into every caller (a cell measures several texts per row) stays
    /// small and keeps no view in memory.
    @inline(__always)
    static func measure(_ base: UnsafeRawPointer, width: Double) -> TextMeasure {
        let limit = fitLimit(width)
        // The whole text on one line (any width at least its width, `.infinity` included).
        typealias H = MetricsBlock.HeaderOffset
        let single = base.load(fromByteOffset: H.singleLineWidth, as: Int64.self)
        let flags = base.load(fromByteOffset: H.flags, as: UInt16.self)
        if single <= limit {
            guard flags & MetricsBlock.HeaderFlag.tallerLines == 0 else { return measureLines(base, width: width) }
            guard base.load(fromByteOffset: H.segmentCount, as: Int32.self) > 0 else { return TextMeasure(lineCount: 0, height: 0, maxLineWidth: 0) }
            return TextMeasure(lineCount: 1, height: base.load(fromByteOffset: H.lineHeight, as: Double.self), maxLineWidth: pixels(single))
        }
        let view = MetricsBlock.View(base)
        // (Blocks with bidi level runs take measureLines: `plainLinesRoundingRuns`.)
        // (And blocks with kerned segment starts take the general loop: ``unsafeLineStartFits``.)
        if flags & (MetricsBlock.HeaderFlag.tallerLines | MetricsBlock.HeaderFlag.bidiRuns | MetricsBlock.HeaderFlag.refoundLineStarts
                    | MetricsBlock.HeaderFlag.kernedSegmentStarts) == 0,
           view.specialCount == 0,
           let plain = view.plainLines(limit: limit, maxCount: Int.max) {
            return TextMeasure(lineCount: plain.count, height: Double(plain.count) * view.lineHeight, maxLineWidth: pixels(plain.widest))
        }
        return measureLines(base, width: width)
    }

    /// ``measure(width:)`` of the block at `base` by the general loop, line by line.
    @inline(never)
    static func measureLines(_ base: UnsafeRawPointer, width: Double) -> TextMeasure {
        MetricsBlock.View(base).measureLines(width: width)
    }

    /// ``measure(width:)`` by the general loop, line by line.
    func measureLines(width: Double) -> TextMeasure {
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0 { return measureLinesRoundingRuns(width: width) }
        return measureLines(width: width, IgnoresLevelRuns.self)
    }

    /// `measureLines(width:)` of a block with bidi level runs: plain text in a loop like
    /// `plainLines(limit:maxCount:)`, the rest line by line.
    @inline(never)
    func measureLinesRoundingRuns(width: Double) -> TextMeasure {
        if singleLineWidth > Self.fitLimit(width) && !hasTallerLines && !hasRefoundLineStarts && !hasKernedSegmentStarts && specialCount == 0,
           let plain = plainLinesRoundingRuns(limit: Self.fitLimit(width), maxCount: Int.max) {
            return TextMeasure(lineCount: plain.count, height: Double(plain.count) * lineHeight, maxLineWidth: pixels(plain.widest))
        }
        return measureLines(width: width, RoundsLevelRuns.self)
    }

    /// `measureLines(width:)` with the line breaker's copy `Rounding`.
    @inline(__always)
    func measureLines<Rounding: LevelRunRounding>(width: Double, _: Rounding.Type) -> TextMeasure {
        // The whole text on one line (any width at least its width, `.infinity` included).
        let single = singleLineWidth
        if single <= Self.fitLimit(width) {
            guard segmentCount > 0 else { return TextMeasure(lineCount: 0, height: 0, maxLineWidth: 0) }
            return TextMeasure(lineCount: 1, height: lineBoxHeight(0, unitCount, width: single), maxLineWidth: pixels(single))
        }
        var count = 0
        var widest: Int64 = 0
        if hasTallerLines {
            var height = 0.0
            forEachLine(maxWidth: width, Rounding.self) { start, end, w, _ in
                count += 1
                widest = max(widest, w)
                height += lineBoxHeight(Int(start), Int(end), width: w, limit: Self.fitLimit(width))
                return true
            }
            return TextMeasure(lineCount: count, height: height, maxLineWidth: pixels(widest))
        }
        forEachLine(maxWidth: width, Rounding.self) { _, _, w, _ in
            count += 1
            widest = max(widest, w)
            return true
        }
        return TextMeasure(lineCount: count, height: Double(count) * lineHeight, maxLineWidth: pixels(widest))
    }

    /// Line count and widest line (16.16 px) at fit limit `limit` of a block with no special
    /// segments that does not fit one line, as `forEachLine` finds them — or nil
    /// when a segment does not fit a line alone (the general loop breaks it inside) or the
    /// text takes more than `maxCount` lines. The common case of re-measuring (plain prose at a
    /// width every word fits), in a loop with nothing else to track: no line ends, no flags.
    @inline(__always)
    func plainLines(limit: Int64, maxCount: Int) -> (count: Int, widest: Int64)? {
        let n = segmentCount
        let widths = self.widths, codes = self.codes, trail = self.trail
        let mask = MetricsBlock.Code.trailMask
        var w = Int64(widths[0])
        guard w <= limit else { return nil }
        // Wrapping adds: widths are Int32 sums, far from overflowing Int64.
        var content = w
        var pen = w &+ Int64(trail[Int(codes[0] & mask)])
        var count = 1
        var widest: Int64 = 0
        var i = 1
        while i < n {
            w = Int64(widths[i])
            let next = pen &+ w
            let hanging = Int64(trail[Int(codes[i] & mask)])
            if next <= limit {
                content = next
                pen = next &+ hanging
            } else {
                // Segment i starts the next line, which it must fit alone.
                guard w <= limit, count < maxCount else { return nil }
                widest = max(widest, content)
                count &+= 1
                content = w
                pen = w &+ hanging
            }
            i &+= 1
        }
        return (count, max(widest, content))
    }

    /// `plainLines(limit:maxCount:)` for a block with bidi level runs (`BidiItemRounding`):
    /// at a segment ending a run that the line started inside (after the run's start), the
    /// run's part from the line start — the pen summed here plus the run's stored `tail` — is
    /// rounded up on its own instead of carrying the run's folded pad; decided as
    /// `forEachLine` decides it. Between run ends, the plain loop's inner loop; a few
    /// instructions per run end.
    @inline(never)
    func plainLinesRoundingRuns(limit: Int64, maxCount: Int) -> (count: Int, widest: Int64)? {
        let n = segmentCount
        let widths = self.widths, codes = self.codes, trail = self.trail
        let mask = MetricsBlock.Code.trailMask
        let runs = bidiRunTable
        var w = Int64(widths[0])
        guard w <= limit else { return nil }
        var content = w
        var pen = w &+ Int64(trail[Int(codes[0] & mask)])
        var count = 1
        var widest: Int64 = 0
        var lineFirst = 0
        var i = 1
        var k = 0                                   // the next run to end
        // Segment 0 starts the text: no line starts inside a run ending there.
        while k < runs.count && runs.segment(k) == 0 { k &+= 1 }
        while true {
            // The plain segments before the next one ending a run, as plainLines has them.
            let stop = k < runs.count ? runs.segment(k) : n
            while i < stop {
                w = Int64(widths[i])
                let next = pen &+ w
                let hanging = Int64(trail[Int(codes[i] & mask)])
                if next <= limit {
                    content = next
                    pen = next &+ hanging
                } else {
                    // Segment i starts the next line, which it must fit alone.
                    guard w <= limit, count < maxCount else { return nil }
                    widest = max(widest, content)
                    count &+= 1
                    lineFirst = i
                    content = w
                    pen = w &+ hanging
                }
                i &+= 1
            }
            guard i < n else { break }
            // Segment i holds the last unit of run k (the first run ending in it); a line
            // starting inside that run rounds the run's part from the line start.
            w = Int64(widths[i])
            let hanging = Int64(trail[Int(codes[i] & mask)])
            let (run, tail, runHanging) = runs[k]
            var grow: Int64 = 0
            if run.start < start(lineFirst) {
                grow = BidiItemRounding.correction(part: pen &+ tail, pad: run.pad)
            }
            let next = pen &+ w &+ (runHanging ? 0 : grow)
            if next <= limit {
                content = next
                pen = next &+ hanging &+ (runHanging ? grow : 0)
            } else {
                // Segment i starts the next line: the part is the tail, if the run started before.
                grow = run.start < start(i) ? BidiItemRounding.correction(part: tail, pad: run.pad) : 0
                let line = w &+ (runHanging ? 0 : grow)
                guard line <= limit, count < maxCount else { return nil }
                widest = max(widest, content)
                count &+= 1
                lineFirst = i
                content = line
                pen = line &+ hanging &+ (runHanging ? grow : 0)
            }
            while k < runs.count && runs.segment(k) == i { k &+= 1 }
            i &+= 1
        }
        return (count, max(widest, content))
    }

    /// The same as ``measure(width:)`` of the layout with at most `maxLines` lines, the last
    /// one ellipsized when text was cut — as `layout(width:maxLines:)` would measure it.
    func measure(width: Double, maxLines: Int) -> TextMeasure {
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0 { return measureRoundingRuns(width: width, maxLines: maxLines) }
        return measure(width: width, maxLines: maxLines, IgnoresLevelRuns.self)
    }

    /// `measure(width:maxLines:)` of a block with bidi level runs.
    @inline(never)
    func measureRoundingRuns(width: Double, maxLines: Int) -> TextMeasure {
        measure(width: width, maxLines: maxLines, RoundsLevelRuns.self)
    }

    /// `measure(width:maxLines:)` with the line breaker's copy `Rounding`.
    @inline(__always)
    func measure<Rounding: LevelRunRounding>(width: Double, maxLines: Int, _: Rounding.Type) -> TextMeasure {
        // One line, or plain text that needs no more lines than it may have: nothing is cut,
        // so the measure is the one without a line limit.
        let limit = Self.fitLimit(width)
        if singleLineWidth <= limit { return measure(width: width) }
        if !hasTallerLines, !hasRefoundLineStarts, !hasKernedSegmentStarts, specialCount == 0,
           let plain = Rounding.on ? plainLinesRoundingRuns(limit: limit, maxCount: maxLines) : plainLines(limit: limit, maxCount: maxLines) {
            return TextMeasure(lineCount: plain.count, height: Double(plain.count) * lineHeight, maxLineWidth: pixels(plain.widest))
        }
        var count = 0
        var widest: Int64 = 0          // widest of the lines before the last kept one
        var last: (start: Int32, end: Int32, width: Int64) = (0, 0, 0)
        var height = 0.0               // heights of the lines before the last kept one
        var truncated = false
        let taller = hasTallerLines
        forEachLine(maxWidth: width, Rounding.self) { start, end, w, _ in
            if count == maxLines { truncated = true; return false }
            if count > 0 {
                widest = max(widest, last.width)
                height += taller ? lineBoxHeight(Int(last.start), Int(last.end), width: last.width, limit: limit) : lineHeight
            }
            last = (start, end, w)
            count += 1
            return true
        }
        guard count > 0 else { return TextMeasure(lineCount: 0, height: 0, maxLineWidth: 0) }
        var lastEnd = Int(last.end), lastWidth = last.width
        if truncated {
            let cut = ellipsized(start: Int(last.start), end: Int(last.end), maxWidth: width)
            lastEnd = cut.end
            lastWidth = cut.width
        }
        widest = max(widest, lastWidth)
        if taller {
            height += lineBoxHeight(Int(last.start), lastEnd, width: lastWidth, limit: limit)
            return TextMeasure(lineCount: count, height: height, maxLineWidth: pixels(widest))
        }
        return TextMeasure(lineCount: count, height: Double(count) * lineHeight, maxLineWidth: pixels(widest))
    }

    /// Number of lines at `width`.
    @inline(__always)
    func lineCount(width: Double) -> Int {
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0 { return lineCountRoundingRuns(width: width) }
        return lineCount(width: width, IgnoresLevelRuns.self)
    }

    /// `lineCount(width:)` of a block with bidi level runs.
    @inline(never)
    func lineCountRoundingRuns(width: Double) -> Int { lineCount(width: width, RoundsLevelRuns.self) }

    /// `lineCount(width:)` with the line breaker's copy `Rounding`.
    @inline(__always)
    func lineCount<Rounding: LevelRunRounding>(width: Double, _: Rounding.Type) -> Int {
        var count = 0
        forEachLine(maxWidth: width, Rounding.self) { _, _, _, _ in count += 1; return true }
        return count
    }

    /// The lines at `width`, at most `maxLines` (the last one ellipsized when text was cut).
    func lines(width: Double, maxLines: Int?) -> (lines: [Line], truncated: Bool) {
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0 { return linesRoundingRuns(width: width, maxLines: maxLines) }
        return lines(width: width, maxLines: maxLines, IgnoresLevelRuns.self)
    }

    /// `lines(width:maxLines:)` of a block with bidi level runs.
    @inline(never)
    func linesRoundingRuns(width: Double, maxLines: Int?) -> (lines: [Line], truncated: Bool) {
        lines(width: width, maxLines: maxLines, RoundsLevelRuns.self)
    }

    /// `lines(width:maxLines:)` with the line breaker's copy `Rounding`.
    @inline(__always)
    func lines<Rounding: LevelRunRounding>(width: Double, maxLines: Int?, _: Rounding.Type) -> (lines: [Line], truncated: Bool) {
        let cap = maxLines ?? Int.max
        var lines: [Line] = []
        var truncated = false
        forEachLine(maxWidth: width, Rounding.self) { start, end, w, hyphen in
            if lines.count == cap { truncated = true; return false }
            lines.append(Line(start: Int(start), end: Int(end), width: pixels(w), hyphenated: hyphen, ellipsized: false))
            return true
        }
        if truncated, let line = lines.last {
            let cut = ellipsized(start: line.start, end: line.end, maxWidth: width)
            lines[lines.count - 1] = Line(start: line.start, end: cut.end, width: pixels(cut.width), hyphenated: false, ellipsized: cut.ellipsized)
        }
        return (lines, truncated)
    }
}

/// 16.16 fixed point to pixels.
@inline(__always) func pixels(_ fixed: Int64) -> Double { Double(fixed) / 65536 }
