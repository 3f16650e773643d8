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
        let n = widths.count
        guard n > 0 else { return }
        let limit = Self.fitLimit(maxWidth)
        if singleLineWidth <= limit {
            _ = emit(0, Int32(units.count), singleLineWidth, false)
            return
        }
        widths.withUnsafeBufferPointer { widths in
        spaceWidths.withUnsafeBufferPointer { spaces in
        flags.withUnsafeBufferPointer { flags in
        segmentEnds.withUnsafeBufferPointer { ends in
            var lineStart: Int32 = 0
            var x: Int64 = 0            // pen after the last placed segment, hanging spaces included
            var content: Int64 = 0      // line width up to the end of the last placed content
            var placed = 0              // segments on the current line
            var lastFlags: UInt8 = 0
            var contentBeforeLast: Int64 = 0, flagsBeforeLast: UInt8 = 0
            var i = 0
            while i < n {
                let w = Int64(widths[i])
                let segmentStart = i == 0 ? 0 : ends[i - 1]
                var trim: Int64 = 0
                if placed > 0 && x + w > limit {
                    if flags[i] & Flag.endTrim != 0 { trim = endTrim(segment: i) }
                    if x + w - trim > limit || trim == 0 {
                        // Line ends before segment i. A soft hyphen that would not fit moves its
                        // word down too (one step back).
                        if lastFlags & Flag.softHyphen != 0 && placed > 1
                            && Self.ceilToLayoutUnit(content) + Self.ceilToLayoutUnit(Int64(hyphenWidth)) > limit {
                            i -= 1
                            let hyphen = flagsBeforeLast & Flag.softHyphen != 0
                            let end = ends[i - 1]
                            if !emit(lineStart, end, contentBeforeLast + (hyphen ? Int64(hyphenWidth) : 0), hyphen) { return }
                            lineStart = end
                            placed = 0
                            continue
                        }
                        let hyphen = lastFlags & Flag.softHyphen != 0
                        if !emit(lineStart, segmentStart, content + (hyphen ? Int64(hyphenWidth) : 0), hyphen) { return }
                        lineStart = segmentStart
                        placed = 0
                        trim = 0
                    }
                }
                contentBeforeLast = content
                flagsBeforeLast = lastFlags
                if placed > 0 {
                    content = x + w - trim
                } else if w > limit && flags[i] & Flag.breakable != 0 {
                    // overflow-wrap: break-word — whole graphemes per line, at least one.
                    var gx: Int64 = 0
                    var onLine = 0
                    var u = Int(segmentStart)
                    let contentEnd = Int(contentEnds[i])
                    while u < contentEnd {
                        var v = u + 1
                        var gw = Int64(unitAdvances[u])
                        while v < contentEnd && !isGraphemeStart(v) { gw += Int64(unitAdvances[v]); v += 1 }
                        if onLine > 0 && gx + gw > limit {
                            if !emit(lineStart, Int32(u), gx, false) { return }
                            lineStart = Int32(u)
                            gx = 0
                            onLine = 0
                        }
                        gx += gw
                        onLine += 1
                        u = v
                    }
                    content = gx
                } else {
                    content = w
                }
                placed += 1
                lastFlags = flags[i]
                x = trim > 0 ? limit + 1 : content + (lastFlags & Flag.tab != 0 ? tabbedSpaceWidth(segment: i, from: content) : Int64(spaces[i]))
                if lastFlags & Flag.mandatoryBreak != 0 {
                    if !emit(lineStart, ends[i], content, false) { return }
                    lineStart = ends[i]
                    placed = 0
                    x = 0
                }
                i += 1
            }
            if placed > 0 { _ = emit(lineStart, Int32(units.count), content, false) }
        }}}}
    }

    /// How much segment `i`'s closing CJK bracket may shrink when it ends a line.
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
        let tabSize = Int64(spaceWidth) * 8
        var pen = x
        for unit in units[Int(contentEnds[i])..<Int(segmentEnds[i])] {
            if unit == 0x20 { pen += Int64(spaceWidth) }
            else if unit == 0x09 && tabSize > 0 { pen = (pen / tabSize + 1) * tabSize }
        }
        return pen - x
    }
}
