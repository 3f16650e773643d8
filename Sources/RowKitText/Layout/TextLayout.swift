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
    /// UTF-16 range in the normalized text (``PreparedText/text``), hanging spaces included.
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
        prepared.hasTallerLines ? lines.reduce(0) { $0 + prepared.lineBoxHeight(of: $1, maxWidth: maxWidth) }
            : Double(lines.count) * prepared.lineHeight
    }

    /// Top of line `i`, from the top of the layout.
    public func top(ofLine i: Int) -> Double {
        guard prepared.hasTallerLines else { return Double(i) * prepared.lineHeight }
        return lines[..<i].reduce(0) { $0 + prepared.lineBoxHeight(of: $1, maxWidth: maxWidth) }
    }

    /// Height of line `i`.
    public func height(ofLine i: Int) -> Double { prepared.lineBoxHeight(of: lines[i], maxWidth: maxWidth) }
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
    /// Height of `line`, broken at `maxWidth` (a line ending trimmed at a reshaped closing mark
    /// counts the mark's reshaped font, `LineEndReshape`; one Chromium lays out without the
    /// word's last letter does not count that letter's font, `droppedLineStart`).
    func lineBoxHeight(of line: Line, maxWidth: Double) -> Double {
        withView { $0.lineBoxHeight(line.start, line.end, width: Int64((line.width * 65536).rounded()),
                                    limit: MetricsBlock.View.fitLimit(maxWidth)) }
    }

    /// Room above and below the baseline of `line`, broken at `maxWidth`.
    func lineBoxMetrics(of line: Line, maxWidth: Double) -> (above: Double, below: Double) {
        withView { $0.lineBoxMetrics(line.start, line.end, width: Int64((line.width * 65536).rounded()),
                                     limit: MetricsBlock.View.fitLimit(maxWidth)) }
    }

    /// Line count, height and widest line at `width` (pixels, ≥ 0; `.infinity` lays out one
    /// line per paragraph), without building lines. Throws ``TextError/invalidNumber(name:value:)``
    /// for a negative or NaN width.
    @inline(__always)
    public func measure(width: Double) throws(TextError) -> TextMeasure {
        try Self.check(width)
        return withView { $0.measure(width: width) }
    }

    /// Number of lines at `width` (as ``measure(width:)`` takes it).
    public func lineCount(width: Double) throws(TextError) -> Int {
        try Self.check(width)
        return withView { $0.lineCount(width: width) }
    }

    /// The lines at `width`. With `maxLines`, at most that many lines are kept and the last
    /// kept line ends in an ellipsis ("…") when text was cut (an empty line when the width
    /// cannot hold even the ellipsis). Throws ``TextError/invalidNumber(name:value:)`` for a
    /// negative or NaN width or a `maxLines` under 1.
    public func layout(width: Double, maxLines: Int? = nil) throws(TextError) -> TextLayout {
        try Self.check(width)
        if let maxLines, maxLines < 1 { throw .invalidNumber(name: "maxLines", value: Double(maxLines)) }
        let (lines, truncated) = withView { $0.lines(width: width, maxLines: maxLines) }
        return TextLayout(prepared: self, maxWidth: width, lines: lines, isTruncated: truncated)
    }

    static func check(_ width: Double) throws(TextError) {
        guard !width.isNaN, width >= 0 else { throw .invalidNumber(name: "width", value: width) }
    }

    /// 16.16 fixed point to pixels.
    @inline(__always) static func pixels(_ fixed: Int64) -> Double { Double(fixed) / 65536 }

    /// Advance width of the UTF-16 units in `range` of the normalized text, in pixels: the sum
    /// of their shaped glyph advances (a range outside the text is clamped to it).
    public func width(of range: Range<Int>) -> Double {
        Self.pixels(withView { $0.advanceSum(range) })
    }
}
