import CHarfBuzz
import CICU

/// A run of glyphs in one font and direction, covering `start..<end` of the prepared text.
public struct GlyphRun: Sendable {
    /// The font the glyphs come from.
    public let font: Font
    /// UTF-16 range of the prepared text the run covers.
    public let start: Int32, end: Int32
    /// Bidi embedding level (odd = right-to-left).
    public let bidiLevel: UInt8
    /// The shaped glyphs (shared through the shape cache).
    public let shaped: ShapedRun
}

/// A text analysed once for a style: normalized, split at line-break opportunities, assigned
/// fonts, shaped, and reduced to compact arrays of widths.
///
/// Laying out a prepared text at any width (``layout(width:maxLines:)``, ``measure(width:)``)
/// is integer arithmetic over these arrays: nothing is shaped again. A *segment* is the text
/// between two break opportunities: its content, then the spaces that hang at a line end.
/// Widths are pixels in 16.16 fixed point, rounded per glyph as FreeType (and so Chromium)
/// rounds them.
public struct PreparedText: Sendable {
    /// Longest text accepted, in UTF-16 units.
    public static let maximumLength = 1 << 24

    /// The style the text was prepared with.
    public var style: TextStyle { storage.style }
    /// The style's font, as resolved.
    public var primaryFont: Font { storage.primaryFont }
    /// The normalized text, in UTF-16 (line ranges index into it).
    public var units: [UInt16] { storage.units }
    /// Font size in pixels.
    public var fontSize: Double { storage.style.size }
    /// Resolved distance between baselines, in pixels.
    public var lineHeight: Double { storage.lineHeight }
    /// Primary font ascent and descent in pixels (for placing the baseline inside a line box).
    public var ascent: Double { storage.ascent }
    public var descent: Double { storage.descent }
    /// Paragraph bidi level: 0 left-to-right, 1 right-to-left.
    public var paragraphLevel: UInt8 { storage.paragraphLevel }
    /// Glyph runs in logical order; drawing uses these, so it draws exactly what was measured.
    public var runs: [GlyphRun] { storage.runs }

    /// Everything, in one reference-counted box: copying a `PreparedText` (say, out of an
    /// array of them) costs one retain instead of one per field, which halves re-measuring.
    nonisolated(unsafe) let storage: Storage

    var unitAdvances: UnsafeBufferPointer<Int32> { storage.unitAdvances }
    var graphemeStartBits: UnsafeBufferPointer<UInt64> { storage.graphemeStartBits }
    var segmentEnds: UnsafeBufferPointer<Int32> { storage.segmentEnds }
    var contentEnds: UnsafeBufferPointer<Int32> { storage.contentEnds }
    var widths: UnsafeBufferPointer<Int32> { storage.widths }
    var spaceWidths: UnsafeBufferPointer<Int32> { storage.spaceWidths }
    var flags: UnsafeBufferPointer<UInt8> { storage.flags }
    var endTrimSegments: UnsafeBufferPointer<Int32> { storage.endTrimSegments }
    var endTrimAmounts: UnsafeBufferPointer<Int32> { storage.endTrimAmounts }
    var hyphenWidth: Int32 { storage.hyphenWidth }
    var spaceWidth: Int32 { storage.spaceWidth }
    var ellipsisWidth: Int32 { storage.ellipsisWidth }
    var singleLineWidth: Int64 { storage.singleLineWidth }

    enum Flag {
        static let mandatoryBreak: UInt8 = 1
        static let softHyphen: UInt8 = 2
        static let tab: UInt8 = 4
        static let endTrim: UInt8 = 8
        /// The content has two or more grapheme clusters, so it can be broken inside.
        static let breakable: UInt8 = 16
        /// The segment is only white space (pre-wrap): it hangs wherever it falls.
        static let whitespaceOnly: UInt8 = 32
    }

    /// Number of segments (break opportunities).
    public var segmentCount: Int { widths.count }

    /// The normalized text.
    public var text: String { String(decoding: units, as: UTF16.self) }

    /// Prepares `text` for layout in `style`, using the shared font library and shape cache.
    public init(_ text: String, style: TextStyle = TextStyle(),
                fonts: FontLibrary = .shared, cache: ShapeCache = .shared) throws(TextError) {
        guard style.size.isFinite, style.size > 0, style.size <= 10_000 else {
            throw .invalidNumber(name: "font size", value: style.size)
        }
        if case .pixels(let px) = style.lineHeight, !(px.isFinite && px >= 0 && px <= 100_000) {
            throw .invalidNumber(name: "line height", value: px)
        }
        guard text.utf16.count <= Self.maximumLength else { throw .textTooLong(length: text.utf16.count) }
        let font = try fonts.primaryFont(for: style)
        var builder = Builder(style: style, primary: font, fonts: fonts, cache: cache)
        let units = style.whiteSpace.normalize(text)
        try units.withUnsafeBufferPointer { (buffer) throws(TextError) in try builder.build(buffer) }

        let scale = style.size / Double(font.unitsPerEm)
        let lineHeight: Double
        switch style.lineHeight {
        // Chromium snaps a line height to its 1/64 px layout unit (rounding to nearest).
        case .pixels(let px): lineHeight = (px * 64).rounded() / 64
        case .normal:
            // Chromium rounds each metric at the size, then adds them.
            lineHeight = (Double(font.ascender) * scale).rounded() + (Double(font.descender) * scale).rounded()
                + (Double(font.lineGap) * scale).rounded()
        }
        let singleLine: Int64
        if builder.flags.contains(where: { $0 & (Flag.mandatoryBreak | Flag.tab) != 0 }) {
            singleLine = .max
        } else {
            var total: Int64 = 0
            for i in builder.widths.indices { total += Int64(builder.widths[i]) + Int64(builder.spaceWidths[i]) }
            singleLine = builder.widths.isEmpty ? 0 : total - Int64(builder.spaceWidths[builder.widths.count - 1])
        }
        self.storage = Storage.make(
            style: style, primaryFont: font, units: units, lineHeight: lineHeight,
            ascent: Double(font.ascender) * scale, descent: Double(font.descender) * scale,
            paragraphLevel: builder.paragraphLevel, runs: builder.runs,
            unitAdvances: builder.unitAdvances, graphemeStartBits: builder.graphemeStartBits,
            segmentEnds: builder.segmentEnds, contentEnds: builder.contentEnds, widths: builder.widths,
            spaceWidths: builder.spaceWidths, flags: builder.flags, endTrimSegments: builder.endTrimSegments,
            endTrimAmounts: builder.endTrimAmounts,
            hyphenWidth: builder.advance(of: font.covers(0x2010) ? 0x2010 : 0x2D, in: font),
            spaceWidth: builder.advance(of: 0x20, in: font), ellipsisWidth: builder.advance(of: 0x2026, in: font),
            singleLineWidth: singleLine,
            hasTallerLines: style.lineHeight == .normal && builder.runs.contains { run in
                let m = run.font.normalLineMetrics(size: style.size), p = font.normalLineMetrics(size: style.size)
                return run.font !== font && (m.above > p.above || m.below > p.below)
            })
    }

    /// Bytes this prepared text holds of its own (the shared shaped runs are not counted):
    /// its one storage block, its text and its list of runs.
    public var byteCount: Int {
        let header = 32 // heap object header
        let units = storage.units.isEmpty ? 0 : header + storage.units.count * 2
        let runs = storage.runs.isEmpty ? 0 : header + storage.runs.count * MemoryLayout<GlyphRun>.stride
        return MemoryLayout<PreparedText>.size + header + MemoryLayout<Header>.stride + storage.tailBytes + units + runs
    }

    /// Height of the line holding units `start..<end`: `lineHeight`, or with `line-height:
    /// normal` the room the fonts on that line need (the primary font always counts).
    func lineBoxHeight(_ start: Int, _ end: Int) -> Double {
        guard storage.hasTallerLines else { return lineHeight }
        let (above, below) = lineBoxMetrics(start, end)
        return above + below
    }

    /// Room above and below the baseline that the line `start..<end` needs (normal line height).
    func lineBoxMetrics(_ start: Int, _ end: Int) -> (above: Double, below: Double) {
        var (above, below) = primaryFont.normalLineMetrics(size: fontSize)
        for run in runs where Int(run.end) > start && Int(run.start) < max(end, start + 1) && run.font !== primaryFont {
            let m = run.font.normalLineMetrics(size: fontSize)
            above = max(above, m.above)
            below = max(below, m.below)
        }
        return (above, below)
    }

    @inline(__always) func isGraphemeStart(_ u: Int) -> Bool {
        storage.graphemeStartBits[u >> 6] & (1 << UInt64(u & 63)) != 0
    }
}
