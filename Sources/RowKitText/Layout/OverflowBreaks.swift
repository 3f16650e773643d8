/// Where lines end inside a word wider than the line (`overflow-wrap: break-word`) and at line
/// starts that are not safe to break: Chromium's shaping line breaker's rules (measured,
/// docs/CHROMIUM.md §3(h, n)), read from the measuring form alone.
extension MetricsBlock.View {
    /// Where a line that starts at unit `u` of an overflowing word ends when overflow-wrap
    /// breaks the word (`u..<contentEnd` is the rest of the word), as Chromium's shaping line
    /// breaker finds it (docs/CHROMIUM.md §3(h)): the candidate is the cluster that reaches past
    /// the limit; a break before it when it starts after `u`, or inside it before one of its
    /// graphemes, the last whose prefix (shaped alone, see ``ClusterSplit``) still fits; a line
    /// that fits nothing keeps the first cluster but its last grapheme, or the first grapheme.
    /// `endTrim` is what a closing bracket ending the word may give up to fit
    /// (``trimmedEndFits(_:lastAdvance:trim:itemX:limit:)``). Returns the end,
    /// the line's width there (untrimmed) and whether the bracket's trim made it fit.
    func breakWordLine(from u: Int, contentEnd: Int, limit: Int64, endTrim: Int64) -> (end: Int, width: Int64, trimmed: Bool) {
        var itemPens: (unit: Int, x: Int64) = (0, 0)
        var itemRest = ItemRest()
        return breakWordLine(from: u, contentEnd: contentEnd, limit: limit, endTrim: endTrim, itemPens: &itemPens, itemRest: &itemRest)
    }

    /// ``breakWordLine(from:contentEnd:limit:endTrim:)`` with the caller's `itemPen(at:cache:)`
    /// and `itemRest(from:cache:)` caches, so that the pens of one text's lines are walked once,
    /// not from the start per word.
    func breakWordLine(from u: Int, contentEnd: Int, limit: Int64, endTrim: Int64,
                       itemPens: inout (unit: Int, x: Int64), itemRest: inout ItemRest) -> (end: Int, width: Int64, trimmed: Bool) {
        let piece = breakWordLineByAdvances(from: u, contentEnd: contentEnd, limit: limit, endTrim: endTrim, itemPens: &itemPens)
        // A break inside a joined Arabic word is checked again as Chromium checks it (it can only
        // come earlier: `rightToLeftJoinedBreak`).
        guard !piece.trimmed, piece.end > u,
              let b = rightToLeftJoinedBreak(from: u, contentEnd: contentEnd, before: piece.end, limit: limit, cache: &itemRest),
              b < piece.end else { return piece }
        return (b, lineStartWidth(u, b), false)
    }

    /// `breakWordLine(from:contentEnd:limit:endTrim:itemPens:itemRest:)` by the measured advances,
    /// before the right-to-left check.
    private func breakWordLineByAdvances(from u: Int, contentEnd: Int, limit: Int64, endTrim: Int64,
                                         itemPens: inout (unit: Int, x: Int64)) -> (end: Int, width: Int64, trimmed: Bool) {
        let units = self.units
        let extras = self.extras
        @inline(__always) func boundary(_ k: Int) -> Bool { k >= contentEnd || (units.isClusterStart(k) && units.isGraphemeStart(k)) }
        // A line that starts inside a cluster (after a break inside it) begins with the rest of
        // the cluster shaped alone, as Chromium reshapes a line start that is not safe to break
        // (a lone Myanmar vowel sign then gets HarfBuzz's dotted circle).
        let startsInside = !boundary(u)
        if u > 0 && headerFlags & MetricsBlock.HeaderFlag.extras != 0,
           let unsafe = unsafeStartBreak(from: u, contentEnd: contentEnd, limit: limit) {
            return (unsafe.end, unsafe.width, false)
        }
        if u > 0 && headerFlags & MetricsBlock.HeaderFlag.extras != 0,
           let kerned = kernedStartBreak(from: u, contentEnd: contentEnd, limit: limit) {
            return (kerned.end, kerned.width, false)
        }
        // A bidi level run ending inside the word, the line starting inside it: its part from
        // `u` is rounded up on its own, not with the whole run's folded pad (BidiItemRounding).
        var runLast = -1
        var runCorrection: Int64 = 0
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0, let run = bidiRunTable.run(endingAtOrAfter: u)?.run,
           u > Int(run.start), Int(run.last) < contentEnd {
            runLast = Int(run.last)
            var padded: Int64 = 0
            for k in u...runLast { padded += units.advance(k) }
            runCorrection = BidiItemRounding.correction(part: padded - Int64(run.pad), pad: run.pad)
        }
        // Every grapheme boundary after `u` so far, with the width of the line ending there as
        // Chromium checks it: inside a cluster its prefix shaped alone; at a cluster end the
        // cluster's own width when kerning tied it to the next one.
        // `fit`: the width the fit test reads (see the kerned cluster ends below).
        var candidates: [(end: Int, width: Int64, fit: Int64)] = []
        var x: Int64 = 0
        // The line's width up to the last cluster boundary that no kerning crosses.
        var safeX: Int64 = 0
        var c = u
        while c < contentEnd {
            var c1 = c + 1
            while !boundary(c1) { c1 += 1 }
            // A line start inside a cluster, or at CJK punctuation reshaped there (``LineStartReshape``).
            let alone = c == u && (startsInside || (u > 0 && headerFlags & MetricsBlock.HeaderFlag.extras != 0
                                                        && extras.aloneWidth(u, c1) != nil))
            var total: Int64 = 0
            if alone { total = shapedAlone(u..<c1) } else { for k in c..<c1 { total += units.advance(k) } }
            if c <= runLast && runLast < c1 { total += runCorrection }
            var prefix: Int64 = 0
            var k = c
            for g in c + 1..<c1 where units.isGraphemeStart(g) {
                if alone {
                    prefix = shapedAlone(u..<g)
                } else {
                    while k < g { prefix += units.advance(k); k += 1 }
                }
                candidates.append((g, x + prefix, x + prefix))
            }
            if x + total > limit {
                if c1 == contentEnd && endTrim > 0 {
                    if Self.trimmedEndFits(x + total, lastAdvance: units.advance(contentEnd - 1), trim: endTrim,
                                           itemX: itemPen(at: u, cache: &itemPens), limit: limit) { return (contentEnd, x + total, true) }
                }
                // A closing mark inside the word trims at the line end (a negative line-end
                // kerning entry, ``collectInWordLineEndTrims``): the line may end after it.
                if c1 < contentEnd, case let g = extras.kerningGrowth(at: c1), g < 0, x + total + g <= limit {
                    candidates.append((c1, x + total + g, x + total + g))
                }
                // The latest boundary up to the cluster reaching past the limit whose line fits.
                if let fit = candidates.last(where: { $0.fit <= limit }) { return (fit.end, fit.width, false) }
                // Nothing fits: the line overflows up to the latest boundary, or takes the first grapheme.
                if let last = candidates.last { return (last.end, last.width, false) }
                return (c1, total, false)
            }
            x += total
            c = c1
            if c < contentEnd {
                let growth = extras.kerningGrowth(at: c)
                var fit = x + growth
                if growth > 0 {
                    // Two tests (docs/CHROMIUM.md §3(d), "A reshaped line end in a split"): the
                    // line's end from the last boundary safe to break (no kerning across it) is
                    // shaped again alone and must fit the space after that boundary's position
                    // in the shaping item, both positions rounded up to the layout unit
                    // (ShapingLineBreaker::ShapeLine), and the whole line so shaped must fit too.
                    let pen = itemPen(at: u, cache: &itemPens)
                    fit = max(fit, Self.ceilToLayoutUnit(pen + safeX) - Self.ceilToLayoutUnit(pen) + (x - safeX) + growth)
                } else {
                    safeX = x
                }
                candidates.append((c, x + growth, fit))
            }
        }
        return (contentEnd, x, false)
    }

    /// The end of the shaping item holding unit `s` (the bidi level run's end, or a `pre-wrap`
    /// newline or tab before it, or the text's end) and the width of the item's units from `s`
    /// on, without the run's folded pad (`BidiItemRounding`). `cache` holds the last answer: a
    /// later unit of the same item is found from it by the advances in between.
    func itemRest(from s: Int, cache: inout ItemRest) -> ItemRest {
        if cache.unit >= 0 && cache.unit <= s && s < cache.end {
            cache.rest -= advanceSum(cache.unit..<s)
            cache.unit = s
            return cache
        }
        let units = self.units
        var e = unitCount
        var pad: Int64 = 0
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0, let run = bidiRunTable.run(endingAtOrAfter: s)?.run {
            e = Int(run.last) + 1
            pad = Int64(run.pad)
        }
        var rest: Int64 = 0
        var k = s
        while k < e {
            if units.endsItem(k) { break }
            rest += units.advance(k)
            k += 1
        }
        if k < e { pad = 0 }
        cache = ItemRest(unit: s, end: k, rest: rest - pad, pad: pad)
        return cache
    }

    /// Where Chromium ends an overflow-wrap line starting at `s` inside or at an Arabic word
    /// whose letters join (measured and read from its source, docs/CHROMIUM.md §3(n), thirteenth
    /// and fourteenth rounds), when that is before `before` (the caller's break by advances, at
    /// most `contentEnd`, the word's end) — nil otherwise, or when the rule does not apply (no
    /// joined letter up to `before`: then Chromium's break is not earlier).
    /// `ShapingLineBreaker::ShapeLine` finds breaks by positions in the item's shape result: in a
    /// right-to-left item, position `pos(o)` is the width of the item from `o` to its end,
    /// rounded up to the layout unit. Then:
    /// - A line that starts before a joined letter (unsafe to break) is shaped again up to the
    ///   first safe offset `fs`; the available width `A` (``fitLimit``) becomes
    ///   `A + (pos(s) − pos(fs)) − ceil(width(s, fs))`.
    /// - The candidate is the last offset whose position is at most that from the line start's;
    ///   the break, the last grapheme boundary up to it.
    /// - A break before a joined letter, when a safe offset lies between the line start and it,
    ///   is shaped again from the last safe offset `ls` before it and kept only if
    ///   `width(ls, b) ≤ pos(ls) − pos(s) + A` (the exact width against rounded positions);
    ///   otherwise the boundary before is tried the same way. With no safe offset in between
    ///   the line is taken unchecked.
    /// The line breaker then still requires the line's own width, rounded up, to fit (the
    /// caller's break by advances): the earlier of the two wins. DejaVu Sans 12.73 px, `rtl`:
    /// `المساء ذهب` needs 1671/64 px for the first line `المس` where `المساء ذ` needs 1670/64
    /// (the text after the word moves the rounding of the positions).
    func rightToLeftJoinedBreak(from lineStart: Int, contentEnd: Int, before: Int, limit lineLimit: Int64, cache: inout ItemRest) -> Int? {
        let units = self.units
        // Only units up to the caller's break are read here: a word's lines read it once.
        var joined = false
        for k in lineStart..<min(before + 1, contentEnd) where units.isJoinedToPrevious(k) { joined = true; break }
        guard joined else { return nil }
        // A word that goes on into other items (`吧。مرحبا`): the items that fit are placed whole,
        // each rounded up, and the first that does not is broken in the width left.
        var s = lineStart, limit = lineLimit
        var item = itemRest(from: s, cache: &cache)
        while item.end < contentEnd {
            guard item.end > s else { return nil }
            let part = Self.ceilToLayoutUnit(lineStartWidth(s, item.end) - item.pad)
            if part > limit { break }
            limit -= part
            s = item.end
            item = itemRest(from: s, cache: &cache)
        }
        let e = item.end
        let contentEnd = min(contentEnd, e)
        joined = false
        for k in s..<min(before + 1, contentEnd) where units.isJoinedToPrevious(k) { joined = true; break }
        guard joined, s < before else { return nil }
        @inline(__always) func advance(_ k: Int) -> Int64 { units.advance(k) - (k == e - 1 ? item.pad : 0) }
        @inline(__always) func safe(_ k: Int) -> Bool { k >= e || (units.isClusterStart(k) && !units.isJoinedToPrevious(k)) }
        @inline(__always) func boundary(_ k: Int) -> Bool { k >= contentEnd || (units.isClusterStart(k) && units.isGraphemeStart(k)) }
        @inline(__always) func width(_ a: Int, _ b: Int) -> Int64 {
            var w: Int64 = 0
            for k in a..<b { w += advance(k) }
            return w
        }
        // The position of offset `o` (16.16, a multiple of 1/64 px).
        @inline(__always) func position(_ o: Int) -> Int64 { o >= e ? 0 : Self.ceilToLayoutUnit(item.rest - width(s, o)) }
        let start = position(s)
        var available = limit
        var firstSafe = s
        if !safe(s) {
            // (A joined stretch running far past the line is left to the advances: each line
            // would walk it again.)
            repeat { firstSafe += 1 } while !safe(firstSafe) && firstSafe < before + 256
            guard safe(firstSafe) else { return nil }
            available += (start - position(firstSafe)) - Self.ceilToLayoutUnit(width(s, firstSafe))
            available = max(available, 0)
        }
        // What a line ending at `k` gives up: a closing mark right before it that an
        // overflow-wrap line end trims (a negative line-end kerning entry,
        // ``Builder/collectInWordLineEndTrims``), 0 elsewhere.
        let extras = self.extras
        @inline(__always) func endTrim(_ k: Int) -> Int64 { k < contentEnd ? min(0, extras.kerningGrowth(at: k)) : 0 }
        // The candidate: the last cluster boundary whose position fits (CachedOffsetForPosition),
        // a trimmed closing mark counted trimmed.
        var candidate = s
        var x: Int64 = 0
        while candidate < contentEnd {
            var next = candidate + 1
            while next < contentEnd && !units.isClusterStart(next) { next += 1 }
            var w: Int64 = 0
            for k in candidate..<next { w += advance(k) }
            let p = next >= e ? 0 : Self.ceilToLayoutUnit(item.rest - x - w)
            if start - p > available {
                if boundary(next), case let trim = endTrim(next), trim < 0, start - p + trim <= available { candidate = next }
                break
            }
            x += w
            candidate = next
        }
        guard candidate < contentEnd else { return nil }
        var b = candidate
        while b > s && !boundary(b) { b -= 1 }
        guard b > s else { return nil }
        if firstSafe >= b { return b }
        while b > s {
            var lastSafe = b
            while lastSafe > s && !safe(lastSafe) { lastSafe -= 1 }
            if lastSafe == b { return b }
            if lastSafe < firstSafe { lastSafe = s }
            if width(lastSafe, b) + endTrim(b) <= position(lastSafe) - start + available { return b }
            b -= 1
            while b > s && !boundary(b) { b -= 1 }
        }
        // Nothing fits after reshaping: Chromium lets the line overflow; the caller's break stands.
        return nil
    }

    /// Where Chromium ends a line that starts at `s`, a joined Arabic letter after an
    /// overflow-wrap split, when the word's rest ends in segment `i` and the words after it
    /// would fit by their advances (docs/CHROMIUM.md §3(n), fourteenth round): the line's
    /// candidate is found once, by positions, with the width its reshaped start left
    /// (`rightToLeftJoinedBreak`), so a word after the rest goes on the line only if it ends by
    /// that candidate. `pen`: the pen after segment `i`, its hanging white space included;
    /// `content`: the line's width up to segment `i`'s content. Returns the last segment the
    /// line keeps and the line's width, when that is before where the advances would end it;
    /// nil otherwise or where not modelled (a segment that is not plain, the item's end).
    func resumedJoinedLineEnd(from s: Int, after i: Int, pen: Int64, content: Int64, limit: Int64,
                              cache: inout ItemRest) -> (segment: Int, width: Int64)? {
        let units = self.units
        guard s > 0, s < unitCount, units.isJoinedToPrevious(s) else { return nil }
        let item = itemRest(from: s, cache: &cache)
        let e = item.end
        @inline(__always) func safe(_ k: Int) -> Bool { k >= e || (units.isClusterStart(k) && !units.isJoinedToPrevious(k)) }
        // The positions from the line start: pos(o) = ceil64(rest − width(s, o)).
        var firstSafe = s
        var w: Int64 = 0
        repeat { w += units.advance(firstSafe); firstSafe += 1 } while !safe(firstSafe) && firstSafe < s + 256
        guard safe(firstSafe), firstSafe < e else { return nil }
        let start = Self.ceilToLayoutUnit(item.rest)
        let available = max(0, limit + (start - Self.ceilToLayoutUnit(item.rest - w)) - Self.ceilToLayoutUnit(w))
        var j = i + 1
        var pen = pen, content = content
        var x = w                       // width(s, o) for the walk below
        var o = firstSafe
        while j < segmentCount {
            guard codes[j] & MetricsBlock.Code.special == 0, Int(end(j)) < e else { return nil }
            let next = pen + Int64(widths[j])
            if next > limit { return nil }
            // Segment j ends the line by positions if its content end is past the candidate.
            let ce = contentEnd(j)
            while o < ce { x += units.advance(o); o += 1 }
            if start - Self.ceilToLayoutUnit(item.rest - x) > available { return (j - 1, content) }
            content = next
            pen = next + trailing(j)
            j += 1
        }
        return nil
    }

    /// The break of an overflow-wrap line starting at `u` when Chromium takes it unchecked
    /// (``UnsafeLineStart``): positions as in the shaped text (a cluster's characters at its
    /// start, so a line starting inside a cluster starts at the cluster's start); the cluster
    /// reaching past the limit has several graphemes, and no offset from `u` up to its start is
    /// safe to break. The line then ends before that cluster's last grapheme. Nil otherwise.
    /// The limit is moved by what shaping the line's start again changes (Chromium widens the
    /// available space by the stretch's width in context minus its width alone): a line starting
    /// inside a cluster counts the cluster's rest shaped alone, not the whole cluster — Noto Sans
    /// Myanmar `လာရာ` at 45 px is `လ` / `ာရ` / `ာ` (the lone `ာ`, 37.25 px alone, where `လာ` is
    /// 56.14 in context; docs/CHROMIUM.md §3(n), eighteenth round).
    func unsafeStartBreak(from u: Int, contentEnd: Int, limit: Int64) -> (end: Int, width: Int64)? {
        let units = self.units
        let extras = self.extras
        @inline(__always) func boundary(_ k: Int) -> Bool { k >= contentEnd || (units.isClusterStart(k) && units.isGraphemeStart(k)) }
        var p = u
        while p > 0 && !boundary(p) { p -= 1 }
        let first = p
        var x: Int64 = 0
        while p < contentEnd {
            var q = p + 1
            while !boundary(q) { q += 1 }
            var advance: Int64 = 0
            if p < u { advance = shapedAlone(u..<q) } else { for k in p..<q { advance += units.advance(k) } }
            if x + advance > limit {
                guard p > first || p == u, let distance = extras.aloneWidth(p, p), p - Int(distance) < u else { return nil }
                var last = -1
                for g in p + 1..<q where units.isGraphemeStart(g) { last = g }
                guard last > p else { return nil }
                return (last, lineStartWidth(u, p) + shapedAlone(p..<last))
            }
            x += advance
            p = q
        }
        return nil
    }

    /// The break of an overflow-wrap line starting at `u` where kerning tied the cluster before
    /// to `u` (HarfBuzz: not safe to break before `u`), when Chromium takes it unchecked
    /// (docs/CHROMIUM.md §3(n), twelfth round): `ShapingLineBreaker::ShapeLine` reshapes such a
    /// line from `u` up to the next offset safe to break, and a candidate break (the furthest
    /// cluster end whose position in the shaped text, kerned, fits) inside that stretch is the
    /// line, its reshaped width not checked again — Liberation Serif 31.2 px `de VAT` at 40 px
    /// is `de` / `VA` (41.03 px) / `T`, where `VAT` alone is `V` / `AT`. Not after only white
    /// space from the paragraph's start (`  VAT` in pre-wrap is `  ` / `V` / `AT`). Nil otherwise.
    func kernedStartBreak(from u: Int, contentEnd: Int, limit: Int64) -> (end: Int, width: Int64)? {
        let units = self.units
        let extras = self.extras
        guard extras.kerningGrowth(at: u) > 0, units.isClusterStart(u) && units.isGraphemeStart(u) else { return nil }
        var p = u - 1
        while p >= 0 && units.isHanging(p) { p -= 1 }
        guard p >= 0 else { return nil }
        var best: (end: Int, width: Int64)? = nil
        var x: Int64 = 0
        var c = u
        while c < contentEnd {
            var c1 = c + 1
            while c1 < contentEnd && !(units.isClusterStart(c1) && units.isGraphemeStart(c1)) { c1 += 1 }
            for k in c..<c1 { x += units.advance(k) }
            // The whole rest fits, or the stretch ends at a safe offset up to the candidate.
            if x > limit || c1 >= contentEnd { break }
            let growth = extras.kerningGrowth(at: c1)
            guard growth > 0 else { return nil }
            best = (c1, x + growth)
            c = c1
        }
        return x > limit ? best : nil
    }

    /// Width of `a..<b` at the start of a line: when `a` is inside a cluster (a break inside it
    /// ended the previous line), the rest of the cluster counts shaped alone (``shapedAlone(_:)``).
    /// CJK punctuation a line start shapes again alone (``LineStartReshape``) counts with its
    /// recorded width too.
    func lineStartWidth(_ a: Int, _ b: Int) -> Int64 {
        let units = self.units
        guard a > 0, a < b else { return advanceSum(a..<b) }
        let atCluster = units.isClusterStart(a) && units.isGraphemeStart(a)
        if atCluster && headerFlags & MetricsBlock.HeaderFlag.extras == 0 { return advanceSum(a..<b) }
        var c1 = a + 1
        while c1 < b && !(units.isClusterStart(c1) && units.isGraphemeStart(c1)) { c1 += 1 }
        if atCluster {
            guard let reshaped = extras.aloneWidth(a, c1) else { return advanceSum(a..<b) }
            return reshaped + advanceSum(c1..<b)
        }
        return shapedAlone(a..<c1) + advanceSum(c1..<b)
    }

    /// Width of `range` (the rest of a cluster from a grapheme inside it) shaped alone with its
    /// run's font, 16.16 px, as recorded when the text was prepared (``ClusterSplit``); the sum
    /// of its advances when not recorded.
    func shapedAlone(_ range: Range<Int>) -> Int64 {
        extras.aloneWidth(range.lowerBound, range.upperBound) ?? advanceSum(range)
    }
}

/// The end of a shaping item and the width of its units from `unit` to there
/// (`itemRest(from:cache:)`); `unit` -1: nothing known yet.
struct ItemRest {
    var unit = -1, end = 0
    var rest: Int64 = 0, pad: Int64 = 0
}
