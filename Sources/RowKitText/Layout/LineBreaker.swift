/// Line breaking over a ``PreparedText``'s arrays, as Chromium does with `white-space:
/// normal; overflow-wrap: break-word`: greedy; trailing spaces hang; a word wider than the line
/// moves to a new line and breaks between grapheme clusters there; forced breaks end lines; a
/// line ending at a soft hyphen shows a hyphen, which must fit. Integer arithmetic only: no
/// shaping and no allocation.
extension PreparedText {
    /// The fit limit for `maxWidth` in 16.16 pixels. Chromium snaps the box width down to its
    /// 1/64 px layout unit and lets a line be one layout unit wider (measured, docs/CHROMIUM.md
    /// §3a); a line fits when its width, rounded up to 1/64 px, is at most this.
    @inline(__always) static func fitLimit(_ maxWidth: Double) -> Int64 {
        guard maxWidth < 1_000_000_000 else { return Int64.max / 4 }
        return (Int64((maxWidth * 64).rounded(.down)) + 1) * 1024
    }

    /// A 16.16 width rounded up to 1/64 px.
    @inline(__always) static func ceilToLayoutUnit(_ width: Int64) -> Int64 { (width + 1023) & ~1023 }

    /// Walks the lines at `maxWidth`, calling `emit(start, end, width, hyphenated)` for each
    /// (UTF-16 range including hanging spaces; width excluding them, in 16.16 px). `emit`
    /// returns false to stop.
    @inline(__always)
    func forEachLine(maxWidth: Double, _ emit: (Int32, Int32, Int64, Bool) -> Bool) {
        let storage = self.storage
        withExtendedLifetime(storage) {
        let view = storage.segmentView
        let n = view.count
        guard n > 0 else { return }
        let limit = Self.fitLimit(maxWidth)
        if view.singleLineWidth <= limit {
            _ = emit(0, Int32(view.unitCount), view.singleLineWidth, false)
            return
        }
        let hyphenWidth = view.hyphenWidth
        let widths = view.widths, spaces = view.spaces, flags = view.flags, ends = view.ends
            var lineStart: Int32 = 0
            var lineFirst = 0           // first segment on the current line
            var x: Int64 = 0            // pen after the last placed segment, hanging spaces included
            var content: Int64 = 0      // line width up to the end of the last placed content
            var placed = 0              // segments on the current line
            var lastFlags: UInt8 = 0
            var i = 0
            // `breakable` only matters for a segment wider than the line, which the fast loop
            // leaves to the general path anyway.
            let special = ~Flag.breakable
            while i < n {
                if lastFlags & special == 0 {
                    // Tight loop over plain segments (no soft hyphen, tab, forced break,
                    // white-space-only segment or trimmable bracket) that fit a line alone: the
                    // common case, kept small so its state stays in registers.
                    var px = x, pc = content, pn = placed, ps = lineStart, pf = lineFirst
                    while i < n {
                        let w = Int64(widths[i])
                        if flags[i] & special != 0 || w > limit { break }
                        if pn > 0 {
                            // Wrapping adds: widths are Int32 sums, far from overflowing Int64.
                            if px &+ w <= limit {
                                pc = px &+ w
                                px = pc &+ Int64(spaces[i])
                                pn &+= 1
                                i &+= 1
                                continue
                            }
                            if !emit(ps, ends[i - 1], pc, false) { return }
                            ps = ends[i - 1]
                        }
                        pf = i
                        pc = w
                        px = w &+ Int64(spaces[i])
                        pn = 1
                        i &+= 1
                    }
                    x = px; content = pc; placed = pn; lineStart = ps; lineFirst = pf
                    if i >= n { break }
                }
                let w = Int64(widths[i])
                let f = flags[i]
                let segmentStart = i == 0 ? 0 : ends[i - 1]
                var trim: Int64 = 0
                if placed > 0 && f & Flag.whitespaceOnly == 0 && x + w > limit {
                    if f & Flag.endTrim != 0 { trim = lineEndTrim(segment: i) }
                    if trim == 0 || x + w - trim > limit {
                        // The line ends before segment i: after the last placed segment, unless
                        // that one ends in a soft hyphen whose hyphen does not fit, or in a full
                        // stop that is full width at a line end and then does not fit — then at
                        // the latest earlier opportunity where it does (docs/CHROMIUM.md §3(b, e)).
                        var end = i - 1
                        var width = content
                        var hyphen = lastFlags & Flag.softHyphen != 0
                        var growth = lastFlags & Flag.endTrim != 0 ? lineEndGrowth(segment: end) : 0
                        if (hyphen && Self.ceilToLayoutUnit(content) + Self.ceilToLayoutUnit(hyphenWidth) > limit)
                            || (growth > 0 && content + growth > limit) {
                            if let fallback = lineBreakBefore(i, lineFirst: lineFirst, lineStart: lineStart, limit: limit, hyphenWidth: hyphenWidth) {
                                end = fallback.segment
                                width = fallback.width
                                hyphen = fallback.hyphen
                                growth = fallback.growth
                            } else if hyphen, let split = softHyphenOverflowBreak(lineStart: Int(lineStart), limit: limit, hyphenWidth: hyphenWidth) {
                                // overflow-wrap breaks the word between graphemes instead
                                // (docs/CHROMIUM.md §3(b)); the line resumes where it broke.
                                if !emit(lineStart, Int32(split.end), split.width, split.hyphen) { return }
                                lineStart = Int32(split.end)
                                var j = end
                                while j < n && Int(ends[j]) <= split.end { j += 1 }
                                if j < n && j > 0 && Int(ends[j - 1]) == split.end {
                                    placed = 0
                                    lastFlags = 0
                                    x = 0
                                    content = 0
                                    i = j
                                } else if j < n {
                                    lineFirst = j
                                    content = self.width(Int32(split.end), contentEnds[j])
                                    x = content + Int64(spaces[j])
                                    placed = 1
                                    lastFlags = flags[j] & ~Flag.mandatoryBreak
                                    i = j + 1
                                    if flags[j] & Flag.mandatoryBreak != 0 {
                                        if !emit(lineStart, ends[j], content, false) { return }
                                        lineStart = ends[j]
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
                        if !emit(lineStart, ends[end], width + growth + (hyphen ? hyphenWidth : 0), hyphen) { return }
                        lineStart = ends[end]
                        placed = 0
                        lastFlags = 0
                        trim = 0
                        if end < i - 1 {
                            i = end + 1
                            continue
                        }
                    }
                }
                if placed > 0 {
                    if f & Flag.whitespaceOnly == 0 { content = x + w - trim }
                } else {
                    lineFirst = i
                    if w > limit && f & Flag.breakable != 0 {
                        // overflow-wrap: break-word — whole graphemes per line, at least one; a
                        // closing bracket that ends the word may shrink to fit.
                        var gx: Int64 = 0
                        var u = Int(segmentStart)
                        let contentEnd = Int(storage.contentEnds[i])
                        let endTrim = f & Flag.endTrim != 0 ? lineEndTrim(segment: i) : 0
                        var dictionary: [Int32]?
                        while u < contentEnd {
                            let piece = breakWordLine(from: u, contentEnd: contentEnd, limit: limit, endTrim: endTrim)
                            if piece.end == contentEnd {
                                gx = piece.width
                                if piece.trimmed { trim = endTrim }
                                break
                            }
                            if !emit(lineStart, Int32(piece.end), piece.width, false) { return }
                            lineStart = Int32(piece.end)
                            u = piece.end
                            dictionary = dictionaryBreaks(from: u)
                            if dictionary != nil { break }
                        }
                        content = gx - trim
                        if let breaks = dictionary {
                            // The line starts inside a dictionary-segmented word: Chromium finds
                            // the words from here again (docs/CHROMIUM.md §3(g)).
                            guard let next = layOutDictionaryRun(breaks, lineStart: &lineStart, content: &content, x: &x,
                                                                 limit: limit, emit) else { return }
                            i = next
                            placed = 1
                            lineFirst = i - 1
                            lastFlags = flags[i - 1] & ~(Flag.softHyphen | Flag.endTrim | Flag.mandatoryBreak)
                            if flags[i - 1] & Flag.mandatoryBreak != 0 {
                                if !emit(lineStart, ends[i - 1], content, false) { return }
                                lineStart = ends[i - 1]
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
                x = trim > 0 ? limit + 1 : pen + (f & Flag.tab != 0 ? tabbedSpaceWidth(segment: i, from: pen) : Int64(spaces[i]))
                if f & Flag.mandatoryBreak != 0 {
                    if !emit(lineStart, ends[i], content, false) { return }
                    lineStart = ends[i]
                    placed = 0
                    lastFlags = 0
                    x = 0
                    content = 0
                }
                i += 1
            }
            if placed > 0 { _ = emit(lineStart, Int32(view.unitCount), content, false) }
        }
    }

    /// The latest break before the last one on the line `lineFirst..<i` (starting at unit
    /// `lineStart`) whose line fits, counting a soft hyphen's hyphen and a full stop's growth
    /// where the break follows one; nil if there is none.
    func lineBreakBefore(_ i: Int, lineFirst: Int, lineStart: Int32, limit: Int64, hyphenWidth: Int64)
        -> (segment: Int, width: Int64, hyphen: Bool, growth: Int64)? {
        let storage = self.storage
        var candidates: [(segment: Int, width: Int64, hyphen: Bool, growth: Int64)] = []
        var x: Int64 = 0
        var content: Int64 = 0
        for j in lineFirst..<i {
            let f = storage.flags[j]
            let start = j == lineFirst ? Int(lineStart) : Int(storage.segmentEnds[j - 1])
            var w: Int64 = 0
            if j == lineFirst {
                for u in start..<Int(storage.contentEnds[j]) { w += Int64(storage.unitAdvances[u]) }
            } else {
                w = Int64(storage.widths[j])
            }
            if f & Flag.whitespaceOnly == 0 || j == lineFirst { content = (j == lineFirst ? 0 : x) + w }
            let pen = f & Flag.whitespaceOnly != 0 && j > lineFirst ? x : content
            x = pen + (f & Flag.tab != 0 ? tabbedSpaceWidth(segment: j, from: pen) : Int64(storage.spaceWidths[j]))
            candidates.append((j, content, f & Flag.softHyphen != 0, f & Flag.endTrim != 0 ? lineEndGrowth(segment: j) : 0))
        }
        for candidate in candidates.dropLast().reversed() {
            let extra = candidate.hyphen ? Self.ceilToLayoutUnit(hyphenWidth) : 0
            if Self.ceilToLayoutUnit(candidate.width + candidate.growth) + extra <= limit { return candidate }
        }
        return nil
    }

    /// Sum of the advances of units `a..<b`, 16.16 px.
    @inline(__always) func width(_ a: Int32, _ b: Int32) -> Int64 {
        var total: Int64 = 0
        let advances = storage.unitAdvances
        for u in Int(a)..<Int(b) { total += Int64(advances[u]) }
        return total
    }

    /// What happens to segment `i`'s last character when it ends a line: positive, a closing
    /// CJK bracket may shrink by that much; negative, a full stop grows by that much
    /// (``lineEndTrim(segment:)``, ``lineEndGrowth(segment:)``).
    func endTrim(segment i: Int) -> Int64 {
        var low = 0, high = endTrimSegments.count
        while low < high {
            let mid = (low + high) / 2
            if Int(endTrimSegments[mid]) < i { low = mid + 1 } else { high = mid }
        }
        return low < endTrimSegments.count && Int(endTrimSegments[low]) == i ? Int64(endTrimAmounts[low]) : 0
    }

    /// Width of segment `i`'s trailing white space when it holds tabs: spaces advance by the
    /// space width, a tab to the next multiple of 8 spaces (CSS `tab-size: 8`) from the line start.
    func tabbedSpaceWidth(segment i: Int, from x: Int64) -> Int64 {
        var pen = x
        for unit in units[Int(contentEnds[i])..<Int(segmentEnds[i])] {
            if unit == 0x20 { pen += Int64(spaceWidth) }
            else if unit == 0x09 { pen = TabStop.end(from: pen, spaceWidth: spaceWidth) }
        }
        return pen - x
    }
}
