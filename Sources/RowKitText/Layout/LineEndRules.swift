/// Line-end rules of Chromium's line breaker that depend on where a line ends (used by
/// `forEachLine`; measured, docs/CHROMIUM.md §3(b, e, n)). They read only the measuring form,
/// so a ``TextMetrics`` breaks lines exactly as its ``PreparedText`` does.
extension MetricsBlock.View {
    /// How much wider segment `i` (flagged `endTrim`) is when it ends a line: a fullwidth `。`
    /// or `、` shaped half-width because punctuation follows it is full width again when the line
    /// breaks between them (Chromium trims only pairs on one line, and never trims a full stop
    /// or comma at a line end); a segment kerned against the next one measures as shaped alone.
    func lineEndGrowth(segment i: Int) -> Int64 {
        max(0, -Int64(special(i).trimAmount))
    }

    /// How much wider the line ending with segment `i` is when it breaks at its soft hyphen: the
    /// end is shaped again alone, without the kerning HarfBuzz applied across the (invisible)
    /// soft hyphen (Noto Sans Italic 13.5 px: `or‐` is 17.20 px, `r` kerned against `d` in
    /// `or­di` 0.27 px less, so at 17 px Chromium breaks `o` / `r­di`; docs/CHROMIUM.md §3(b)).
    func softHyphenGrowth(segment i: Int) -> Int64 {
        let e = Int(end(i))
        guard e > 0, e < unitCount, units.isSoftHyphen(e - 1) else { return 0 }
        return extras.kerningGrowth(at: e - 1)
    }

    /// Whether a line of content width `width` (16.16 px) whose end is shaped again alone (a
    /// break HarfBuzz flags unsafe, or a full stop full width again at the end) fits `limit`
    /// (``fitLimit``). Chromium measures such a line by positions in its shaping item: the
    /// line's start and end, each rounded up to the 1/64 px layout unit, are at most the box
    /// width apart — no layout unit of allowance. `itemX` is the pen at the line start from
    /// the item's start (the text's start, or in `pre-wrap` the last newline or tab). So a line
    /// starting on the layout grid (the item's start) gets no allowance, one starting between
    /// two grid points usually does (measured, docs/CHROMIUM.md §3(e)): Noto Sans CJK 29.5 px at
    /// 118 px, `今日はとて` is `今日は` / `とて` (`と` kerned against `て`, 118.0156 px alone) but
    /// `ああああ今日はとて` keeps `今日はと`; `とギョーザ` at 60 px is `とギョ` / `ーザ`,
    /// `ラーメンとギョーザ` keeps `とギョー`.
    static func reshapedEndFits(_ width: Int64, itemX: Int64, limit: Int64) -> Bool {
        ceilToLayoutUnit(itemX + width) - ceilToLayoutUnit(itemX) <= limit - 1024
    }

    /// Whether a line of content width `width` (16.16 px) whose last glyph, a closing mark of
    /// advance `lastAdvance`, gives up `trim` at the line end fits `limit` (``fitLimit``).
    /// Chromium shapes the mark again with `halt` as a part of its own: the line up to the mark
    /// is measured by its positions in the shaping item (as in ``reshapedEndFits(_:itemX:limit:)``)
    /// and the trimmed mark alone, each rounded up to the 1/64 px layout unit, with the layout
    /// unit of allowance. So `好”` at 16 px (the em 16.00003 px) needs 24.015625 px, at 10 px
    /// (9.99998) 14.984375 (measured at 32 sizes, docs/CHROMIUM.md §3(e)).
    static func trimmedEndFits(_ width: Int64, lastAdvance: Int64, trim: Int64, itemX: Int64, limit: Int64) -> Bool {
        ceilToLayoutUnit(itemX + width - lastAdvance) - ceilToLayoutUnit(itemX) + ceilToLayoutUnit(lastAdvance - trim) <= limit
    }

    /// Whether a line that starts at `s` after an ordinary break, where kerning tied the text
    /// before it to the line's first cluster, may end its content at `b` (`limit`: ``fitLimit``).
    /// Chromium's `ShapingLineBreaker::ShapeLine` shapes such a start again up to the first
    /// offset safe to break, `fs`, and narrows the space by what that costs in its positions
    /// (each character's x in the shaping item rounded up to the layout unit): the candidate
    /// end satisfies `ceil64(w(s, fs)) + pos(b) − pos(fs) ≤ limit` — two roundings where the
    /// line's own width has one, so a line within a layout unit of the limit may not fit
    /// (measured, docs/CHROMIUM.md §3(a)): Liberation Serif 28.18 px at 151 px, `This function`
    /// (151.0112 px, the space before `T` kerned) stays one line after `nineties; ` but not
    /// after `the nineties; `. Only the kerning the measuring form records marks a start unsafe
    /// (``LineEndKerning``: tightening pairs). The shaping item is the bidi level run holding
    /// `s` (or the text since its last newline or tab); a line reaching past it is not checked.
    /// `pens` carries ``itemPen(at:cache:)``'s walk across calls with increasing line starts.
    @inline(never)
    func unsafeLineStartFits(lineStart s: Int, contentEnd b: Int, limit: Int64, pens: inout (unit: Int, x: Int64)) -> Bool {
        guard s > 0, s < b else { return true }
        let extras = self.extras
        guard extras.kerningGrowth(at: s) > 0 else { return true }
        let units = self.units
        var fs = s + 1
        while fs < b && (!units.isClusterStart(fs) || extras.kerningGrowth(at: fs) > 0) { fs += 1 }
        // No safe offset before the end: the whole line is shaped again, its width alone decides.
        guard fs < b else { return true }
        var ps: Int64, pfs: Int64, pb: Int64
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns == 0 {
            ps = itemPen(at: s, cache: &pens)
            pfs = itemPen(at: fs, cache: &pens)
            pb = itemPen(at: b, cache: &pens)
        } else {
            // The level run holding `s`: a stored run (its pad folded into its last unit), or
            // the stretch between two stored runs.
            let runs = bidiRunTable
            var low = 0, high = runs.count
            while low < high {
                let mid = (low + high) / 2
                if Int(runs[mid].run.last) < s { low = mid + 1 } else { high = mid }
            }
            var itemStart = low > 0 ? Int(runs[low - 1].run.last) + 1 : 0
            var itemEnd = unitCount
            var pad: Int64 = 0
            if low < runs.count {
                let run = runs[low].run
                if Int(run.start) <= s {
                    itemStart = Int(run.start)
                    itemEnd = Int(run.last) + 1
                    pad = Int64(run.pad)
                } else {
                    itemEnd = Int(run.start)
                }
            }
            // Pens summed here: only for items of moderate length (this runs at line ends).
            guard b <= itemEnd, s - itemStart <= 4096 else { return true }
            var x: Int64 = 0
            ps = 0; pfs = 0
            for k in itemStart..<b {
                if k == s { ps = x }
                if k == fs { pfs = x }
                if units.endsItem(k) {
                    guard k < s else { return true }
                    x = 0
                } else {
                    x += units.advance(k)
                }
            }
            pb = x - (b == itemEnd ? pad : 0)
        }
        // A tab or newline between them starts another item (not a case measured).
        guard ps <= pfs, pfs <= pb else { return true }
        return Self.ceilToLayoutUnit(pfs - ps) + Self.ceilToLayoutUnit(pb) - Self.ceilToLayoutUnit(pfs) <= limit
    }

    /// The pen at unit `u` from the start of its shaping item: the text's start, or the last
    /// newline or tab before `u` in `pre-wrap` (each ends an item, docs/CHROMIUM.md §2.6).
    /// `cache` carries the last answer, so that a walk over increasing units reads each unit
    /// once.
    func itemPen(at u: Int, cache: inout (unit: Int, x: Int64)) -> Int64 {
        let units = self.units
        if u < cache.unit { cache = (0, 0) }
        var (k, x) = cache
        while k < u {
            if units.endsItem(k) {
                x = 0
            } else {
                x += units.advance(k)
            }
            k += 1
        }
        cache = (k, x)
        return x
    }

    /// Whether a line of content width `width` that ends the text (or a forced line) with a soft
    /// hyphen fits: Chromium counts the hyphen there although it draws none (measured,
    /// docs/CHROMIUM.md §3(b)): DejaVu Sans 16 px, `er\u{AD}` (16.42 px, hyphen 5.78) at 18 px is
    /// `e` / `r\u{AD}`, at 30 px one line 16.42 px wide.
    @inline(__always) static func endingSoftHyphenFits(_ width: Int64, hyphen: Int64, limit: Int64) -> Bool {
        ceilToLayoutUnit(width) + ceilToLayoutUnit(hyphen) <= limit
    }

    /// How much segment `i`'s (flagged `endTrim`) closing bracket may shrink at a line end.
    func lineEndTrim(segment i: Int) -> Int64 {
        max(0, Int64(special(i).trimAmount))
    }

    /// Where Chromium ends a line whose last break is a soft hyphen that does not fit with its
    /// hyphen and that has no earlier break that fits: overflow-wrap breaks the word between
    /// graphemes, through the following soft hyphens too. The break goes at the furthest
    /// grapheme boundary whose position in the shaped text fits (a soft hyphen has no width, so
    /// that is never just before one); a boundary where kerning tied two clusters is checked
    /// with the end shaped alone and, when that no longer fits, the break moves back a grapheme
    /// at a time. When the break follows a soft hyphen whose hyphen does not fit, Chromium takes
    /// the hyphen's width from the space and looks again, so the line can end well short of the
    /// limit (Noto Sans CJK TC Bold 12 px, whose hyphen is 1 em: `hensi‐bil` at 33 px is `he` /
    /// `nsi‐bil`, at 30 px `hens` / `i‐bil`; `gren‐zung` at 33 px is `gre` / `n‐` / `zung`, as
    /// `grenz` is 32.9 px kerned but 33.06 alone; DejaVu Sans Bold 31.5 px `un‐be‐liev` at 55 px:
    /// `u` / `n‐` / `bel`; docs/CHROMIUM.md §3(b)). When none fits, the line takes its first
    /// grapheme (`m` / `‐`). Returns the line's end, width (hyphen included) and whether it
    /// shows a hyphen; nil when the line starts at the end of the text.
    func softHyphenOverflowBreak(lineStart: Int, limit: Int64, hyphenWidth: Int64) -> (end: Int, width: Int64, hyphen: Bool)? {
        let units = self.units
        let extras = self.extras
        let count = unitCount
        // Grapheme boundaries whose shaped position fits, with the growth of a line ending there.
        var boundaries: [(end: Int, x: Int64, growth: Int64, afterSoftHyphen: Bool)] = []
        var first: (end: Int, width: Int64, hyphen: Bool)?
        // A bidi level run ending inside the word, the line starting inside it: its part from
        // the line start is rounded up on its own, not with the whole run's folded pad
        // (BidiItemRounding), as in `breakWordLine`.
        var runLast = -1
        var runPad: Int32 = 0
        if headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0, let run = bidiRunTable.run(endingAtOrAfter: lineStart)?.run,
           lineStart > Int(run.start) {
            runLast = Int(run.last)
            runPad = run.pad
        }
        var x: Int64 = 0
        var u = lineStart
        while u < count {
            if units.endsWord(u) { break }
            var v = u + 1
            var w = units.advance(u)
            while v < count && !units.isGraphemeStart(v) { w += units.advance(v); v += 1 }
            // CJK punctuation starting the line is shaped again alone (``LineStartReshape``), as drawn.
            if u == lineStart && u > 0 && units.isClusterStart(u) && units.isGraphemeStart(u) { w = lineStartWidth(u, v) }
            x += w
            if u <= runLast && runLast < v {
                var part = x - Int64(runPad)
                for k in runLast + 1..<v { part -= units.advance(k) }
                x += BidiItemRounding.correction(part: part, pad: runPad)
            }
            let afterSoftHyphen = units.isSoftHyphen(v - 1)
            if first == nil { first = (v, afterSoftHyphen ? x + hyphenWidth : x, afterSoftHyphen) }
            if x > limit { break }
            // A break after a soft hyphen: the kerning that tied the cluster before it to the next.
            let tie = afterSoftHyphen ? v - 1 : v
            boundaries.append((v, x, tie < count ? extras.kerningGrowth(at: tie) : 0, afterSoftHyphen))
            u = v
        }
        var space = limit
        var k = boundaries.count - 1
        while k >= 0 {
            let b = boundaries[k]
            if b.x > space { k -= 1; continue }
            if b.afterSoftHyphen {
                if Self.ceilToLayoutUnit(b.x + b.growth) + Self.ceilToLayoutUnit(hyphenWidth) <= limit {
                    return (b.end, b.x + b.growth + hyphenWidth, true)
                }
                // The hyphen does not fit: look again in the space left for it.
                space = limit - Self.ceilToLayoutUnit(hyphenWidth)
            } else if b.x + b.growth <= space {
                return (b.end, b.x + b.growth, false)
            }
            k -= 1
        }
        return first
    }

    /// Where Chromium ends a line holding one word that ends in a full stop or comma shaped
    /// half-width before the punctuation that follows it, when the line breaks between them and
    /// the stop, full width again, no longer fits: overflow-wrap breaks the word between
    /// graphemes before the stop, at the last boundary that fits (at least one grapheme), and
    /// the stop starts the next line (measured: DejaVu Sans 16 px `a。「` at 18 px is `a` / `。` /
    /// `「`, `aa。「` at 30 px is `aa` / `。「`, docs/CHROMIUM.md §3(e)). Nil when the stop is
    /// the line's only grapheme. The same for a word kerned against the next one (a line end
    /// shaped again alone): when the line up to the last grapheme ends where kerning tied it to
    /// that grapheme, that end is shaped alone too and the break moves back a grapheme more if it
    /// no longer fits (Noto Sans 700 10.45 px `ro\u{200B}width` at 10.9 px: `r` / `o\u{200B}`,
    /// `ro` alone being 10.98 px; docs/CHROMIUM.md §3(n), eighteenth round).
    func grownEndOverflowBreak(lineStart: Int, contentEnd: Int, limit: Int64) -> (end: Int, width: Int64, hyphen: Bool)? {
        let units = self.units
        // Zero-width graphemes at the end (a zero width space) stay with the grapheme before
        // them: the line up to them is shaped alone as wide as with them, so breaking before
        // them gains nothing (Chromium keeps `T\u{200B}` whole when `T` alone overflows).
        var e = contentEnd
        while e - 1 > lineStart && units.advance(e - 1) == 0 && units.isGraphemeStart(e - 1) { e -= 1 }
        var g = e - 1
        while g > lineStart && !units.isGraphemeStart(g) { g -= 1 }
        guard g > lineStart else { return nil }
        let piece = breakWordLine(from: lineStart, contentEnd: g, limit: limit, endTrim: 0)
        guard piece.end == g, case let growth = extras.kerningGrowth(at: g), growth > 0 else { return (piece.end, piece.width, false) }
        if piece.width + growth > limit, let earlier = grownEndOverflowBreak(lineStart: lineStart, contentEnd: g, limit: limit) {
            return earlier
        }
        return (piece.end, piece.width + growth, false)
    }

    /// The first segment ending at or after unit `p`.
    func segment(endingAtOrAfter p: Int) -> Int {
        var low = 0, high = segmentCount - 1
        while low < high {
            let mid = (low + high) / 2
            if Int(end(mid)) < p { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// For a line that starts inside a word of a script ICU segments with a dictionary (Thai,
    /// Lao, Khmer, Myanmar…) after overflow-wrap split the word: Chromium runs its break
    /// iterator again on the text from the line start, which finds other words than it found in
    /// the whole text (`รายงานก่อน` split as `รายง` continues `า|นก่อ|นวัน`; measured: without
    /// context before the line start, `ควา` continues `มก|ว้าง`, not `ม|กว้าง`). Returns the new
    /// break offsets after `lineStart`, up to the end of the dictionary run (an original break),
    /// or nil when the text there is not such a script. The text comes from the block's extras
    /// (the dictionary ranges are kept for this).
    func dictionaryBreaks(from lineStart: Int) -> [Int32]? {
        let extras = self.extras
        guard lineStart < unitCount, let (range, textStart) = extras.dictionaryRange(holding: lineStart) else { return nil }
        @inline(__always) func unit(_ k: Int) -> UInt16 { extras.textUnit(textStart + k - range.lowerBound) }
        guard DictionaryScripts.contains(unit(lineStart)) else { return nil }
        var p = lineStart
        while p < range.upperBound && (DictionaryScripts.contains(unit(p)) || DictionaryScripts.isMark(unit(p))) { p += 1 }
        // Extend to the original break at or after the run's end (inside the kept range).
        let runEnd = min(Int(end(segment(endingAtOrAfter: p))), range.upperBound)
        let text = (lineStart..<runEnd).map(unit)
        let language = extras.language
        let found = text.withUnsafeBufferPointer { buffer in try? UnicodeAnalysis.lineBreaks(buffer, language: language) }
        guard let found else { return nil }
        var result = found.ends.map { $0 + Int32(lineStart) }.filter { Int($0) > lineStart }
        if result.last.map({ Int($0) }) != runEnd { result.append(Int32(runEnd)) }
        return result
    }

    /// For a line that starts at an ordinary break inside a dictionary-script run (between two
    /// of its words): Chromium runs its break iterator from every line start, so the rest of the
    /// run is segmented again from there, and ICU's dictionary engines find no break in a range
    /// of at most four code points (their minimum span for two words): `မရပေ။` at 1 px is
    /// `မ` / `ရပေ။` in Chromium, not `မ` / `ရ` / `ပေ။` (docs/CHROMIUM.md §3(g), sixteenth
    /// round). Returns the breaks found again from `p` (``dictionaryBreaks(from:)``) when they
    /// differ from the stored ones (preparing lists such starts), else nil. Only a short rest
    /// of a run is asked about: over the Thai, Khmer and Myanmar corpora every difference had a
    /// rest of at most four units, and a run's words found from one of its word starts are
    /// otherwise the words found from its start.
    func refoundDictionaryBreaks(at p: Int) -> [Int32]? {
        guard extras.isRefoundStart(p) else { return nil }
        return dictionaryBreaks(from: p)
    }

    /// The longest rest of a dictionary run (UTF-16 units) that ``refoundDictionaryBreaks(at:)``
    /// asks ICU about again: twice ICU's four code points, for marks.
    static var refoundRestLimit: Int { 8 }

    /// Width of the hanging white space `a..<b` after content ending at pen `x`: its advances,
    /// or with a tab (or `tabbed`), the spaces' advances and tab stops (``TabStop``). A space's
    /// advance is its shaped one, kerned as drawn: Chromium's `a\t Wikipedia` (Liberation Serif
    /// 60 px) has the space after the tab 13.92 px wide, kerned before `W`, not the font's
    /// 15 px space (docs/CHROMIUM.md §3(n), twelfth round).
    func trailingWidth(_ a: Int, _ b: Int, from x: Int64, tabbed: Bool = false) -> Int64 {
        let units = self.units
        var hasTab = tabbed
        if !hasTab { for u in a..<b where units.kind(u) == MetricsBlock.Attribute.tab { hasTab = true; break } }
        guard hasTab else { return advanceSum(a..<b) }
        var pen = x
        for u in a..<b {
            switch units.kind(u) {
            case MetricsBlock.Attribute.space: pen += units.advance(u)
            case MetricsBlock.Attribute.tab:
                pen = u > 0 && units.isSoftHyphen(u - 1) ? TabStop.end(from: pen, spaceWidth: spaceWidth, afterHyphen: Int64(hyphenWidth))
                    : TabStop.end(from: pen, spaceWidth: spaceWidth)
            default: break
            }
        }
        return pen - x
    }

    /// Lays out a dictionary-script run from a line start inside one of its words with the break
    /// offsets ``dictionaryBreaks(from:)`` found (the last is an original break), greedily and
    /// with overflow-wrap, finding the words again after every split inside a word. On return
    /// the line holding the run's last piece is still open: `lineStart`, `content` and `x`
    /// describe it. Returns the index of the first segment after the run, or nil when `emit`
    /// asked to stop.
    func layOutDictionaryRun(_ firstBreaks: [Int32], lineStart: inout Int32, content: inout Int64, x: inout Int64,
                             limit: Int64, _ emit: (Int32, Int32, Int64, Bool) -> Bool) -> Int? {
        let units = self.units
        let levelRuns = bidiRunTable
        var breaks = firstBreaks
        var k = 0
        var a = Int(lineStart)
        var placed = false
        content = 0
        x = 0
        while k < breaks.count {
            let b = Int(breaks[k])
            var contentEnd = b
            while contentEnd > a && units.isHanging(contentEnd - 1) { contentEnd -= 1 }
            var w = a == Int(lineStart) && !placed ? lineStartWidth(a, contentEnd) : advanceSum(a..<contentEnd)
            // A bidi level run the line starts inside, ending in this word: its part rounded on
            // its own (BidiItemRounding), as the general loop's `levelRunEndCorrection`.
            var growth = dictionaryWordRunGrowth(levelRuns, lineStart: Int(lineStart), word: a, contentEnd: contentEnd, end: b)
            w += growth.content
            if placed && x + w > limit {
                if !emit(lineStart, Int32(a), content, false) { return nil }
                lineStart = Int32(a)
                placed = false
                // The new line finds the run's words again from its start (these breaks were
                // found from an earlier line start, so ICU is asked again here, on this rare path:
                // `เวตาลกล่าวว่า` split at `ล่า|ว` sees `วว่า` from `ว`).
                if let again = dictionaryBreaks(from: a), !again.elementsEqual(breaks[k...]) {
                    breaks = again
                    k = 0
                    continue
                }
                // The word now starts a line: inside a cluster it is shaped again from there.
                growth = dictionaryWordRunGrowth(levelRuns, lineStart: a, word: a, contentEnd: contentEnd, end: b)
                w = lineStartWidth(a, contentEnd) + growth.content
            }
            if !placed && w > limit {
                // Overflow-wrap breaks only between graphemes: a word that the dictionary ends
                // inside one (Myanmar `စ္|စ`, `င်္|က`: ICU words, one Unicode 16 grapheme) is
                // split up to that grapheme's end, into the next word (Chromium at 1 px:
                // `ပ` / `စ္စ` / `ည်` / `း`; docs/CHROMIUM.md §3(d)).
                let wordEnd = contentEnd
                if contentEnd == b {
                    let last = Int(breaks[breaks.count - 1])
                    while contentEnd < last && !units.isGraphemeStart(contentEnd) { contentEnd += 1 }
                    if contentEnd > wordEnd {
                        while k + 1 < breaks.count && Int(breaks[k]) < contentEnd { k += 1 }
                    }
                }
                var gx: Int64 = 0, u = a
                var again: [Int32]?
                while u < contentEnd {
                    let piece = breakWordLine(from: u, contentEnd: contentEnd, limit: limit, endTrim: 0)
                    if piece.end == contentEnd { gx = piece.width; break }
                    if !emit(lineStart, Int32(piece.end), piece.width, false) { return nil }
                    lineStart = Int32(piece.end)
                    u = piece.end
                    if let found = dictionaryBreaks(from: u) { again = found; break }
                }
                if let again {
                    breaks = again
                    k = 0
                    a = Int(lineStart)
                    continue
                }
                content = gx
                // The last piece's content is corrected by `breakWordLine`; its hanging white
                // space, on the line the last piece starts, here.
                growth = dictionaryWordRunGrowth(levelRuns, lineStart: Int(lineStart), word: a, contentEnd: contentEnd, end: b)
                growth.content = 0
                if contentEnd > wordEnd {
                    // The line goes on inside word k, after the grapheme.
                    x = content
                    placed = true
                    a = contentEnd
                    continue
                }
            } else {
                content = placed ? x + w : w
            }
            x = content + trailingWidth(contentEnd, b, from: content) + growth.trailing
            placed = true
            a = b
            k += 1
        }
        // The segment that ends where the run ends.
        return segment(endingAtOrAfter: a) + 1
    }

    /// How much the dictionary word `a..<end` (content up to `contentEnd`) grows, in its content
    /// or its hanging white space, on a line starting at unit `lineStart`: nonzero when it holds
    /// the last unit of the bidi level run the line starts inside (after the run's start).
    /// Chromium rounds the run's part from the line start, `ceil64(part) − part`, where the
    /// stored advances carry the whole run's pad. Rejects in a compare or two (no runs; the run
    /// ends outside the word); otherwise sums the line's units up to the run's end once, as
    /// this path sums every word it places (lines after an overflow-wrap split, rare).
    @inline(__always)
    func dictionaryWordRunGrowth(_ runs: MetricsBlock.BidiRunTable, lineStart: Int, word a: Int, contentEnd: Int,
                                 end: Int) -> (content: Int64, trailing: Int64) {
        guard runs.count > 0, let (run, _, _) = runs.run(endingAtOrAfter: max(lineStart, a)), lineStart > Int(run.start) else { return (0, 0) }
        let last = Int(run.last)
        guard last >= a && last < end else { return (0, 0) }
        let part = advanceSum(lineStart..<last + 1) - Int64(run.pad)
        let amount = BidiItemRounding.correction(part: part, pad: run.pad)
        return last < contentEnd ? (amount, 0) : (0, amount)
    }
}
