/// Size of a text at a width, without per-line detail: the allocation-free measuring result.
public struct TextMeasure: Sendable, Hashable {
    /// Number of lines (0 for empty or, with `.normal` white space, whitespace-only text).
    public var lineCount: Int
    /// Total height: `lineCount × lineHeight`, except with `line-height: normal` where a line
    /// holding a taller fallback font (CJK, Thai, emoji…) grows as a browser grows it.
    public var height: Double
    /// Width of the widest line, hanging spaces excluded.
    public var maxLineWidth: Double
}

/// One laid-out line: a UTF-16 range of the prepared text and its width.
public struct Line: Sendable, Hashable {
    /// UTF-16 range in ``PreparedText/units``, hanging spaces included.
    public var start: Int, end: Int
    /// Advance width of the line's content (hanging spaces excluded, hyphen or ellipsis included).
    public var width: Double
    /// The line ends at a soft hyphen, drawn as a hyphen.
    public var hyphenated: Bool
    /// The line was cut short by `maxLines` and ends with an ellipsis; `end` is where the cut is.
    public var ellipsized: Bool
}

/// A prepared text broken into lines at a width: what drawing draws and what measuring returns.
public struct TextLayout: Sendable {
    /// The prepared text the lines index into.
    public let prepared: PreparedText
    /// The width the lines were broken at.
    public let maxWidth: Double
    /// The lines, top to bottom.
    public let lines: [Line]
    /// Whether `maxLines` cut the text short.
    public let isTruncated: Bool

    /// Distance between baselines, in pixels.
    public var lineHeight: Double { prepared.lineHeight }
    /// Total height: the sum of the line heights (line count × line height unless a
    /// `line-height: normal` line holds a taller fallback font).
    public var height: Double {
        prepared.storage.hasTallerLines ? lines.reduce(0) { $0 + prepared.lineBoxHeight($1.start, $1.end) }
            : Double(lines.count) * prepared.lineHeight
    }

    /// Top of line `i`, from the top of the layout.
    public func top(ofLine i: Int) -> Double {
        guard prepared.storage.hasTallerLines else { return Double(i) * prepared.lineHeight }
        return lines[..<i].reduce(0) { $0 + prepared.lineBoxHeight($1.start, $1.end) }
    }

    /// Height of line `i`.
    public func height(ofLine i: Int) -> Double { prepared.lineBoxHeight(lines[i].start, lines[i].end) }
    /// Widest line.
    public var maxLineWidth: Double { lines.reduce(0) { max($0, $1.width) } }
    /// The text of line `i` (hanging spaces removed).
    public func text(ofLine i: Int) -> String {
        var end = lines[i].end
        while end > lines[i].start && isHangingSpace(prepared.units[end - 1]) { end -= 1 }
        return String(decoding: prepared.units[lines[i].start..<end], as: UTF16.self)
    }
}

extension PreparedText {
    /// Line count, height and widest line at `width`, without building lines.
    public func measure(width: Double) throws(TextError) -> TextMeasure {
        try Self.check(width)
        var count = 0
        var widest: Int64 = 0
        if storage.hasTallerLines {
            var height = 0.0
            forEachLine(maxWidth: width) { start, end, w, _ in
                count += 1
                widest = max(widest, w)
                height += lineBoxHeight(Int(start), Int(end))
                return true
            }
            return TextMeasure(lineCount: count, height: height, maxLineWidth: Self.pixels(widest))
        }
        forEachLine(maxWidth: width) { _, _, w, _ in
            count += 1
            widest = max(widest, w)
            return true
        }
        return TextMeasure(lineCount: count, height: Double(count) * lineHeight, maxLineWidth: Self.pixels(widest))
    }

    /// Number of lines at `width`.
    public func lineCount(width: Double) throws(TextError) -> Int {
        try Self.check(width)
        var count = 0
        forEachLine(maxWidth: width) { _, _, _, _ in count += 1; return true }
        return count
    }

    /// The lines at `width`. With `maxLines`, at most that many lines are kept and the last
    /// kept line ends in an ellipsis ("…") when text was cut (an empty line when the width
    /// cannot hold even the ellipsis).
    public func layout(width: Double, maxLines: Int? = nil) throws(TextError) -> TextLayout {
        try Self.check(width)
        if let maxLines, maxLines < 1 { throw .invalidNumber(name: "maxLines", value: Double(maxLines)) }
        let cap = maxLines ?? Int.max
        var lines: [Line] = []
        var truncated = false
        forEachLine(maxWidth: width) { start, end, w, hyphen in
            if lines.count == cap { truncated = true; return false }
            lines.append(Line(start: Int(start), end: Int(end), width: Self.pixels(w), hyphenated: hyphen, ellipsized: false))
            return true
        }
        if truncated { lines[lines.count - 1] = ellipsized(lines[lines.count - 1], maxWidth: width) }
        return TextLayout(prepared: self, maxWidth: width, lines: lines, isTruncated: truncated)
    }

    static func check(_ width: Double) throws(TextError) {
        guard !width.isNaN, width >= 0 else { throw .invalidNumber(name: "width", value: width) }
    }

    /// 16.16 fixed point to pixels.
    @inline(__always) static func pixels(_ fixed: Int64) -> Double { Double(fixed) / 65536 }

    /// `line` shortened at a grapheme boundary so that its content plus an ellipsis fits.
    func ellipsized(_ line: Line, maxWidth: Double) -> Line {
        let available = Self.fitLimit(maxWidth) - Int64(ellipsisWidth)
        // Not even the ellipsis fits: the line is left empty rather than overflowing.
        guard available >= 0 else { return Line(start: line.start, end: line.start, width: 0, hyphenated: false, ellipsized: false) }
        var best = line.start
        var bestWidth: Int64 = 0
        var x: Int64 = 0
        var u = line.start
        while u < line.end {
            var v = u + 1
            var gw = Int64(unitAdvances[u])
            while v < line.end && !isGraphemeStart(v) { gw += Int64(unitAdvances[v]); v += 1 }
            if units[u] == 0x09 { gw = TabStop.end(from: x, spaceWidth: spaceWidth) - x }
            x += gw
            if x > available { break }
            if !isHangingSpace(units[v - 1]) { best = v; bestWidth = x }
            u = v
        }
        return Line(start: line.start, end: best, width: Self.pixels(bestWidth + Int64(ellipsisWidth)), hyphenated: false, ellipsized: true)
    }

    /// Advance width of the units in `range`, in pixels: the sum of their shaped glyph advances.
    public func width(of range: Range<Int>) -> Double {
        var total: Int64 = 0
        for u in range.clamped(to: 0..<unitAdvances.count) { total += Int64(unitAdvances[u]) }
        return Self.pixels(total)
    }
}
