/// A run of glyphs in one font and direction, covering `start..<end` of the prepared text.
package struct GlyphRun: Sendable {
    /// The font the glyphs come from.
    package let font: Font
    /// UTF-16 range of the prepared text the run covers.
    package let start: Int32, end: Int32
    /// Bidi embedding level (odd = right-to-left).
    package let bidiLevel: UInt8
    /// The shaped glyphs (shared through the shape cache).
    package let shaped: ShapedRun
}

/// A text analysed once for a style — normalized, split at line-break opportunities, assigned
/// fonts, shaped — ready to be measured at any width and drawn.
///
/// Measuring at a width (``measure(width:)``, ``layout(width:maxLines:)``) is integer arithmetic
/// over the text's compact measuring form (``metrics``): nothing is shaped again. Drawing
/// (``TextLayout/glyphs(ofLine:)``) uses the very glyphs whose advances were summed, so what
/// is drawn is exactly as wide as what was measured. The prepared form is opaque: it is a
/// value (one reference-counted allocation), safe to share between threads.
///
/// Keep a `PreparedText` for texts being drawn; to keep many texts only for measuring (a list
/// of a million rows), keep their ``TextMetrics`` — a few hundred bytes instead of kilobytes.
public struct PreparedText: Sendable {
    /// Longest text accepted, in UTF-16 units.
    public static let maximumLength = 1 << 24

    typealias Flag = MetricsBlock.Flag

    /// Everything, in one reference-counted box: copying a `PreparedText` (say, out of an
    /// array of them) costs one retain instead of one per field.
    nonisolated(unsafe) let storage: Storage

    /// The style the text was prepared with.
    public var style: TextStyle { storage.style }
    /// The normalized text (white space collapsed or kept as the style says); line ranges of
    /// a ``TextLayout`` are UTF-16 offsets into it.
    public var text: String { String(decoding: units, as: UTF16.self) }
    /// Distance between baselines, in pixels (lines holding a taller fallback font grow with
    /// `line-height: normal`).
    public var lineHeight: Double { storage.view.lineHeight }

    /// The style's font, as resolved.
    package var primaryFont: Font { storage.primaryFont }
    /// The normalized text in UTF-16.
    package var units: [UInt16] { storage.units }
    /// Glyph runs in logical order; drawing uses these, so it draws exactly what was measured.
    package var runs: [GlyphRun] { storage.runs }
    /// Font size in pixels.
    package var fontSize: Double { storage.style.size }
    /// Primary font ascent and descent in pixels (for placing the baseline inside a line box).
    package var ascent: Double { storage.ascent }
    package var descent: Double { storage.descent }
    /// Paragraph bidi level: 0 left-to-right, 1 right-to-left.
    package var paragraphLevel: UInt8 { storage.paragraphLevel }
    /// Number of segments (text between two break opportunities).
    package var segmentCount: Int { storage.view.segmentCount }
    package var hyphenWidth: Int32 { storage.view.hyphenWidth }
    package var spaceWidth: Int32 { storage.view.spaceWidth }
    package var ellipsisWidth: Int32 { storage.view.ellipsisWidth }
    /// `line-height: normal` with a fallback font taller than the primary font.
    package var hasTallerLines: Bool { storage.view.hasTallerLines }

    /// Prepares `text` for layout in `style`, using the shared font library and shape cache.
    /// Throws for a style with bad numbers, an unreadable font file or a text longer than
    /// ``maximumLength``.
    public init(_ text: String, style: TextStyle = TextStyle(),
                fonts: FontLibrary = .shared, cache: ShapeCache = .shared) throws(TextError) {
        try self.init(text, style: style, fonts: fonts, cache: cache, wholeParagraph: false)
    }

    /// Prepares as ``init(_:style:fonts:cache:)``; with `wholeParagraph`, without the word
    /// cache (the reference analysis).
    init(_ text: String, style: TextStyle, fonts: FontLibrary, cache: ShapeCache, wholeParagraph: Bool) throws(TextError) {
        self.storage = try Preparation.prepare(text, style: style, fonts: fonts, cache: cache, keepRuns: true,
                                               wholeParagraph: wholeParagraph) { analysed, input, planner in
            let header = Header(style: style, primaryFont: analysed.resolved.primary, units: analysed.units, runs: analysed.runs,
                                ascent: analysed.resolved.ascent, descent: analysed.resolved.descent, paragraphLevel: analysed.paragraphLevel)
            planner.plan(input)
            return Storage.make(header, input: input, planner: planner)
        }
    }

    /// The compact measuring form of this text: it measures exactly as this prepared text does,
    /// holds no glyphs, and costs a few bytes per word.
    public var metrics: TextMetrics {
        let storage = self.storage
        return withExtendedLifetime(storage) { TextMetrics(copying: storage.view) }
    }

    /// Bytes this prepared text holds of its own (the shared shaped runs are not counted):
    /// its storage (drawing fields and measuring form), its text and its list of runs.
    public var byteCount: Int {
        let units = storage.units.isEmpty ? 0 : 32 + storage.units.count * 2
        let runs = storage.runs.isEmpty ? 0 : 32 + storage.runs.count * MemoryLayout<GlyphRun>.stride
        return MemoryLayout<PreparedText>.size + heapBytes(storage) + units + runs
    }

    /// As ``measure(width:)`` (`maxLines` 0) or as the layout with at most `maxLines` lines
    /// measures, without building lines; `width` must be a number ≥ 0 (the caller checks).
    @inline(__always)
    package func measureUnchecked(width: Double, maxLines: Int) -> TextMeasure {
        withView { maxLines > 0 ? $0.measure(width: width, maxLines: maxLines) : $0.measure(width: width) }
    }

    /// Runs `body` on the measuring form, kept alive meanwhile.
    @inline(__always) func withView<R>(_ body: (MetricsBlock.View) -> R) -> R {
        let storage = self.storage
        return withExtendedLifetime(storage) { body(storage.view) }
    }

    /// Height of the line holding units `start..<end`: `lineHeight`, or with `line-height:
    /// normal` the room the fonts on that line need (the primary font always counts).
    func lineBoxHeight(_ start: Int, _ end: Int) -> Double { withView { $0.lineBoxHeight(start, end) } }

    /// Room above and below the baseline that the line `start..<end` needs (normal line height).
    func lineBoxMetrics(_ start: Int, _ end: Int) -> (above: Double, below: Double) { withView { $0.lineBoxMetrics(start, end) } }

    /// Advance credited to unit `u` (16.16 px).
    func unitAdvance(_ u: Int) -> Int64 { withView { $0.advance(u) } }

    @inline(__always) func isGraphemeStart(_ u: Int) -> Bool { withView { $0.isGraphemeStart(u) } }
}

extension PreparedText {
    /// End unit of each segment (text between two break opportunities), for tests and tools.
    package var segmentEnds: [Int32] { withView { v in (0..<v.segmentCount).map { v.end($0) } } }

    /// How much wider a break-word line ending at unit `u` is because the cluster before it was
    /// kerned against the next one (``LineEndKerning``), 16.16 px.
    package func kerningGrowth(at u: Int) -> Int64 { withView { $0.extras.kerningGrowth(at: u) } }

    /// How much wider segment `i` is when a line ends after it (a full stop shaped half-width
    /// before punctuation, a cluster kerned against the next one), 16.16 px.
    package func lineEndGrowth(segment i: Int) -> Int64 {
        withView { $0.flags(i) & Flag.endTrim != 0 ? $0.lineEndGrowth(segment: i) : 0 }
    }
}
