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

    /// The scalar fields of a prepared text, stored in front of its parallel arrays.
    struct Header {
        let style: TextStyle
        let primaryFont: Font
        let units: [UInt16]
        let lineHeight: Double
        let ascent: Double, descent: Double
        let paragraphLevel: UInt8
        let runs: [GlyphRun]
        let hyphenWidth: Int32
        let spaceWidth: Int32
        let ellipsisWidth: Int32
        /// Width of the whole text on one line, or `Int64.max` when it has a forced break or tab.
        let singleLineWidth: Int64
        /// `line-height: normal` with a fallback font that needs more room than the primary
        /// font: lines are then as tall as the fonts on them need, not all `lineHeight`.
        let hasTallerLines: Bool
        /// Number of UTF-16 units, segments, and trimmable-bracket segments.
        let unitCount: Int, segmentCount: Int, trimCount: Int
        /// Byte offsets of the arrays in the tail.
        let graphemeOffset: Int, segmentOffset: Int, trimOffset: Int, flagsOffset: Int
    }

    /// The fields and every parallel array in ONE allocation (a header and a tail of words):
    /// per unit its advance (Int32, 16.16 px) and a grapheme-start bit; per segment its end,
    /// content end, width and hanging-space width (Int32 each) and flags (UInt8); the segments
    /// whose closing CJK bracket may shrink at a line end, and by how much. One allocation
    /// instead of a dozen makes preparing faster and a prepared text ~400 bytes smaller.
    final class Storage: ManagedBuffer<Header, UInt64>, @unchecked Sendable {
        /// The header in place (reading a field through it copies nothing, unlike `header.x`,
        /// which may copy the whole header and retain its references).
        @inline(__always) private var h: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }
        @inline(__always) private func pointer<T>(_ offset: Int, _ count: Int, _ type: T.Type) -> UnsafeBufferPointer<T> {
            withUnsafeMutablePointerToElements { base in
                UnsafeBufferPointer(start: (UnsafeRawPointer(base) + offset).assumingMemoryBound(to: T.self), count: count)
            }
        }
        /// Advance of each UTF-16 unit (a cluster's advance is credited to its first unit), 16.16 px.
        var unitAdvances: UnsafeBufferPointer<Int32> { pointer(0, h.pointee.unitCount, Int32.self) }
        /// Bit u is set when a grapheme cluster starts at unit u.
        var graphemeStartBits: UnsafeBufferPointer<UInt64> { pointer(h.pointee.graphemeOffset, (h.pointee.unitCount + 63) / 64, UInt64.self) }
        var segmentEnds: UnsafeBufferPointer<Int32> { pointer(h.pointee.segmentOffset, h.pointee.segmentCount, Int32.self) }
        var contentEnds: UnsafeBufferPointer<Int32> { pointer(h.pointee.segmentOffset + 4 * h.pointee.segmentCount, h.pointee.segmentCount, Int32.self) }
        var widths: UnsafeBufferPointer<Int32> { pointer(h.pointee.segmentOffset + 8 * h.pointee.segmentCount, h.pointee.segmentCount, Int32.self) }
        var spaceWidths: UnsafeBufferPointer<Int32> { pointer(h.pointee.segmentOffset + 12 * h.pointee.segmentCount, h.pointee.segmentCount, Int32.self) }
        var endTrimSegments: UnsafeBufferPointer<Int32> { pointer(h.pointee.trimOffset, h.pointee.trimCount, Int32.self) }
        var endTrimAmounts: UnsafeBufferPointer<Int32> { pointer(h.pointee.trimOffset + 4 * h.pointee.trimCount, h.pointee.trimCount, Int32.self) }
        var flags: UnsafeBufferPointer<UInt8> { pointer(h.pointee.flagsOffset, h.pointee.segmentCount, UInt8.self) }

        var style: TextStyle { h.pointee.style }
        var primaryFont: Font { h.pointee.primaryFont }
        var units: [UInt16] { h.pointee.units }
        var unitCount: Int { h.pointee.unitCount }
        var lineHeight: Double { h.pointee.lineHeight }
        var ascent: Double { h.pointee.ascent }
        var descent: Double { h.pointee.descent }
        var paragraphLevel: UInt8 { h.pointee.paragraphLevel }
        var runs: [GlyphRun] { h.pointee.runs }
        var hyphenWidth: Int32 { h.pointee.hyphenWidth }
        var spaceWidth: Int32 { h.pointee.spaceWidth }
        var ellipsisWidth: Int32 { h.pointee.ellipsisWidth }
        var singleLineWidth: Int64 { h.pointee.singleLineWidth }
        var hasTallerLines: Bool { h.pointee.hasTallerLines }

        /// What line breaking reads, fetched in one access (each accessor above is a call that
        /// may retain the buffer; the hot path makes one).
        struct SegmentView {
            let count: Int, unitCount: Int
            let ends: UnsafePointer<Int32>, widths: UnsafePointer<Int32>, spaces: UnsafePointer<Int32>
            let flags: UnsafePointer<UInt8>
            let singleLineWidth: Int64, hyphenWidth: Int64
        }

        @inline(__always) var segmentView: SegmentView {
            withUnsafeMutablePointers { h, base in
                let raw = UnsafeRawPointer(base)
                let n = h.pointee.segmentCount, o = h.pointee.segmentOffset
                return SegmentView(count: n, unitCount: h.pointee.unitCount,
                                   ends: (raw + o).assumingMemoryBound(to: Int32.self),
                                   widths: (raw + o + 8 * n).assumingMemoryBound(to: Int32.self),
                                   spaces: (raw + o + 12 * n).assumingMemoryBound(to: Int32.self),
                                   flags: (raw + h.pointee.flagsOffset).assumingMemoryBound(to: UInt8.self),
                                   singleLineWidth: h.pointee.singleLineWidth, hyphenWidth: Int64(h.pointee.hyphenWidth))
            }
        }

        /// Bytes of the tail.
        var tailBytes: Int { h.pointee.flagsOffset + h.pointee.segmentCount }

        static func make(style: TextStyle, primaryFont: Font, units: [UInt16], lineHeight: Double, ascent: Double, descent: Double,
                         paragraphLevel: UInt8, runs: [GlyphRun], unitAdvances: [Int32], graphemeStartBits: [UInt64],
                         segmentEnds: [Int32], contentEnds: [Int32], widths: [Int32], spaceWidths: [Int32], flags: [UInt8],
                         endTrimSegments: [Int32], endTrimAmounts: [Int32],
                         hyphenWidth: Int32, spaceWidth: Int32, ellipsisWidth: Int32, singleLineWidth: Int64,
                         hasTallerLines: Bool) -> Storage {
            func align8(_ n: Int) -> Int { (n + 7) & ~7 }
            let u = unitAdvances.count, n = segmentEnds.count, t = endTrimSegments.count
            let graphemeOffset = align8(4 * u)
            let segmentOffset = graphemeOffset + 8 * graphemeStartBits.count
            let trimOffset = segmentOffset + 16 * n
            let flagsOffset = trimOffset + 8 * t
            let words = max(1, (flagsOffset + n + 7) / 8)
            let header = Header(style: style, primaryFont: primaryFont, units: units, lineHeight: lineHeight, ascent: ascent,
                                descent: descent, paragraphLevel: paragraphLevel, runs: runs, hyphenWidth: hyphenWidth,
                                spaceWidth: spaceWidth, ellipsisWidth: ellipsisWidth, singleLineWidth: singleLineWidth,
                                hasTallerLines: hasTallerLines, unitCount: u, segmentCount: n, trimCount: t, graphemeOffset: graphemeOffset,
                                segmentOffset: segmentOffset, trimOffset: trimOffset, flagsOffset: flagsOffset)
            let buffer = Storage.create(minimumCapacity: words) { _ in header } as! Storage
            buffer.withUnsafeMutablePointerToElements { base in
                let raw = UnsafeMutableRawPointer(base)
                raw.initializeMemory(as: UInt64.self, repeating: 0, count: words)
                func copy<T>(_ array: [T], _ offset: Int) {
                    array.withUnsafeBytes { bytes in
                        if let source = bytes.baseAddress { (raw + offset).copyMemory(from: source, byteCount: bytes.count) }
                    }
                }
                copy(unitAdvances, 0)
                copy(graphemeStartBits, graphemeOffset)
                copy(segmentEnds, segmentOffset)
                copy(contentEnds, segmentOffset + 4 * n)
                copy(widths, segmentOffset + 8 * n)
                copy(spaceWidths, segmentOffset + 12 * n)
                copy(endTrimSegments, trimOffset)
                copy(endTrimAmounts, trimOffset + 4 * t)
                copy(flags, flagsOffset)
            }
            return buffer
        }
    }

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
        let font = try fonts.font(for: style.font)
        var builder = Builder(style: style, primary: font, fonts: fonts, cache: cache)
        let units = style.whiteSpace.normalize(text)
        try units.withUnsafeBufferPointer { (buffer) throws(TextError) in try builder.build(buffer) }

        let scale = style.size / Double(font.unitsPerEm)
        let lineHeight: Double
        switch style.lineHeight {
        case .pixels(let px): lineHeight = px
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

/// Builds the arrays of a ``PreparedText`` in one pass over the paragraph.
private struct Builder {
    let style: TextStyle
    let primary: Font
    let fonts: FontLibrary
    let cache: ShapeCache
    let primaryCoversASCII: Bool

    var paragraphLevel: UInt8 = 0
    var runs: [GlyphRun] = []
    var unitAdvances: [Int32] = []
    var graphemeStartBits: [UInt64] = []
    var segmentEnds: [Int32] = []
    var contentEnds: [Int32] = []
    var widths: [Int32] = []
    var spaceWidths: [Int32] = []
    var flags: [UInt8] = []
    var endTrimSegments: [Int32] = []
    var endTrimAmounts: [Int32] = []
    /// Units shaped half-width (trimmed CJK punctuation).
    var trimmed: Set<Int> = []
    /// The system fallback font chosen in the current script run: Chromium picks a fallback
    /// font for the first character of a script run the listed fonts lack, then uses it for
    /// every later character of the run it has (so `感激。《红` is all one CJK font, while `《`
    /// alone may come from another font).
    var runFallback: Font?
    var runScript: Int32 = -1

    init(style: TextStyle, primary: Font, fonts: FontLibrary, cache: ShapeCache) {
        self.style = style
        self.primary = primary
        self.fonts = fonts
        self.cache = cache
        self.primaryCoversASCII = (0x21...0x7E).allSatisfy { primary.covers(UInt32($0)) }
    }

    func advance(of scalar: UInt32, in font: Font) -> Int32 {
        clamp(font.fixedAdvance(font.nominalAdvance(scalar) ?? 0, scale: font.fixedScale(size: style.size), size: style.size))
    }

    mutating func build(_ units: UnsafeBufferPointer<UInt16>) throws(TextError) {
        guard !units.isEmpty else { return }
        // Printable ASCII (with spaces, and tabs and newlines) is common and simple: its grapheme
        // clusters are single units and the browser decides its breaks without ICU.
        let ascii = !units.contains { $0 >= 0x7F || ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) }
        let (breaks, mandatory) = ascii ? asciiLineBreaks(units) : try lineBreaks(units)
        let graphemes = ascii ? (1...units.count).map { Int32($0) } : try UnicodeAnalysis.graphemeEnds(units)
        let (levels, level) = try UnicodeAnalysis.bidiLevels(units, direction: style.direction)
        paragraphLevel = level

        // 1. Fonts per grapheme → runs → shaped glyphs → per-unit advances.
        unitAdvances = [Int32](repeating: 0, count: units.count)
        runs.reserveCapacity(breaks.count)
        graphemeStartBits = [UInt64](repeating: 0, count: (units.count + 63) / 64)
        let buffer = hb_buffer_create()!
        defer { hb_buffer_destroy(buffer) }
        var runStart = -1
        var runFont = primary
        var runLevel: UInt8 = 0
        var nextBreak = 0
        var g0 = 0
        for end in graphemes {
            let g1 = Int(end)
            defer { g0 = g1 }
            graphemeStartBits[g0 >> 6] |= 1 << UInt64(g0 & 63)
            while nextBreak < breaks.count && Int(breaks[nextBreak]) < g0 { nextBreak += 1 }
            let atBreakAfterSpace = nextBreak < breaks.count && Int(breaks[nextBreak]) == g0 && g0 > 0 && units[g0 - 1] == 0x20
            let unit = units[g0]
            // Fast path: printable ASCII continuing a run of the primary font (no font choice,
            // no reference counting).
            if g1 == g0 + 1 && unit >= 0x20 && unit < 0x7F && primaryCoversASCII && runStart >= 0 && runFont === primary
                && runLevel == (levels?[g0] ?? 0) && !(atBreakAfterSpace && !primary.kernsAcrossSpaces) {
                continue
            }
            if unit == 0x0A || unit == 0x09 {
                if runStart >= 0 { closeRun(units, runStart, g0, runFont, runLevel, buffer) }
                runStart = -1
                continue
            }
            let font = chooseFont(units, g0, g1)
            let lvl = levels?[g0] ?? 0
            // Runs split where the font or direction changes, and after a space for fonts that
            // do not kern across spaces (so words are shaped alone and shared through the cache).
            if runStart < 0 || font !== runFont || lvl != runLevel || (atBreakAfterSpace && !font.kernsAcrossSpaces) {
                if runStart >= 0 { closeRun(units, runStart, g0, runFont, runLevel, buffer) }
                runStart = g0
                runFont = font
                runLevel = lvl
            }
        }
        if runStart >= 0 { closeRun(units, runStart, units.count, runFont, runLevel, buffer) }

        // 2. Segments: content and hanging-space widths.
        segmentEnds.reserveCapacity(breaks.count)
        contentEnds.reserveCapacity(breaks.count)
        widths.reserveCapacity(breaks.count)
        spaceWidths.reserveCapacity(breaks.count)
        flags.reserveCapacity(breaks.count)
        var start = 0
        for (k, endOffset) in breaks.enumerated() {
            let end = Int(endOffset)
            var contentEnd = end
            while contentEnd > start && isHangingSpace(units[contentEnd - 1]) { contentEnd -= 1 }
            var flag: UInt8 = mandatory[k] != 0 ? PreparedText.Flag.mandatoryBreak : 0
            var content: Int64 = 0, trailing: Int64 = 0
            var graphemeCount = 0
            for u in start..<end {
                if u < contentEnd {
                    content += Int64(unitAdvances[u])
                    if graphemeStartBits[u >> 6] & (1 << UInt64(u & 63)) != 0 { graphemeCount += 1 }
                } else {
                    trailing += Int64(unitAdvances[u])
                    if units[u] == 0x09 { flag |= PreparedText.Flag.tab }
                }
            }
            if graphemeCount >= 2 { flag |= PreparedText.Flag.breakable }
            if contentEnd == start { flag |= PreparedText.Flag.whitespaceOnly }
            if contentEnd > start {
                let last = contentEnd - 1
                if units[last] == 0xAD { flag |= PreparedText.Flag.softHyphen }
                if CJKPunctuation.kind(units[last]) == .close && !trimmed.contains(last), unitAdvances[last] > 0,
                   let run = runs.last(where: { Int($0.start) <= last }), run.font.hasHalfWidthPunctuation {
                    flag |= PreparedText.Flag.endTrim
                    endTrimSegments.append(Int32(k))
                    endTrimAmounts.append(unitAdvances[last] / 2)
                }
            }
            segmentEnds.append(Int32(end))
            contentEnds.append(Int32(contentEnd))
            widths.append(clamp(content))
            spaceWidths.append(clamp(trailing))
            flags.append(flag)
            start = end
        }
    }

    /// Break opportunities of printable ASCII text, as Chromium finds them without ICU: after a
    /// space or tab (before anything else but white space), after a newline (forced), and
    /// between two printable characters by its table.
    func asciiLineBreaks(_ units: UnsafeBufferPointer<UInt16>) -> (ends: [Int32], mandatory: [UInt8]) {
        var ends: [Int32] = []
        var mandatory: [UInt8] = []
        ends.reserveCapacity(units.count / 4 + 1)
        mandatory.reserveCapacity(units.count / 4 + 1)
        for p in 1..<max(1, units.count) {
            let a = units[p - 1], b = units[p]
            if a == 0x0A {
                ends.append(Int32(p)); mandatory.append(1)
            } else if a == 0x20 || a == 0x09 {
                if b != 0x20 && b != 0x09 && b != 0x0A { ends.append(Int32(p)); mandatory.append(0) }
            } else if ASCIIBreakRules.applies(a, b) && ASCIIBreakRules.allowsBreak(before: p >= 2 ? units[p - 2] : 0, a, b) {
                ends.append(Int32(p)); mandatory.append(0)
            }
        }
        ends.append(Int32(units.count))
        mandatory.append(units[units.count - 1] == 0x0A ? 1 : 0)
        return (ends, mandatory)
    }

    /// ICU's UAX #14 opportunities, with Chromium's table deciding between printable ASCII pairs.
    func lineBreaks(_ units: UnsafeBufferPointer<UInt16>) throws(TextError) -> (ends: [Int32], mandatory: [UInt8]) {
        let (icu, icuMandatory) = try UnicodeAnalysis.lineBreaks(units)
        var ends: [Int32] = []
        var mandatory: [UInt8] = []
        ends.reserveCapacity(icu.count + 4)
        mandatory.reserveCapacity(icu.count + 4)
        var k = 0
        for p in 1..<units.count {
            var isBreak = false, forced: UInt8 = 0
            if k < icu.count && Int(icu[k]) == p { isBreak = true; forced = icuMandatory[k]; k += 1 }
            let a = units[p - 1], b = units[p]
            if forced == 0 && (a == 0x20 || a == 0x09) && b != 0x20 && b != 0x09 && b != 0x0A {
                // Chromium breaks after every space, even before `!` or `)` where UAX #14 would not.
                isBreak = true
            } else if forced == 0 && ASCIIBreakRules.applies(a, b) {
                isBreak = ASCIIBreakRules.allowsBreak(before: p >= 2 ? units[p - 2] : 0, a, b)
            } else if !isBreak && (a >= 0x80 || b >= 0x80) {
                isBreak = QuotationRules.allowsBreak(units, at: p)
            }
            if isBreak { ends.append(Int32(p)); mandatory.append(forced) }
        }
        ends.append(Int32(units.count))
        mandatory.append(icu.last.map { Int($0) == units.count ? icuMandatory[icu.count - 1] : 0 } ?? 0)
        return (ends, mandatory)
    }

    /// Shapes `start..<end` (through the cache), records it as a glyph run and credits its
    /// advances, in 16.16 pixels, to the paragraph's units.
    mutating func closeRun(_ units: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, _ font: Font, _ level: UInt8,
                           _ buffer: OpaquePointer) {
        guard end > start else { return }
        let slice = UnsafeBufferPointer(rebasing: units[start..<end])
        var halfWidth: [UInt16] = []
        if font.hasHalfWidthPunctuation {
            for u in start..<end where CJKPunctuation.isTrimmed(units, u, run: start..<end) {
                halfWidth.append(UInt16(truncatingIfNeeded: u - start))
                trimmed.insert(u)
            }
        }
        let key = ShapeCache.Key(font: font.id, rightToLeft: level & 1 == 1, text: slice, halfWidth: halfWidth)
        let shaped: ShapedRun
        if let cached = cache.run(for: key) {
            shaped = cached
        } else {
            shaped = ShapedRun.shape(slice, font: font, rightToLeft: key.rightToLeft, halfWidth: halfWidth, buffer: buffer)
            cache.store(shaped, for: key)
        }
        runs.append(GlyphRun(font: font, start: Int32(start), end: Int32(end), bidiLevel: level, shaped: shaped))
        let scale = font.fixedScale(size: style.size)
        for u in start..<end {
            let designUnits = shaped.unitAdvances[u - start]
            if designUnits != 0 { unitAdvances[u] = clamp(font.fixedAdvance(designUnits, scale: scale, size: style.size)) }
        }
    }

    /// The font for the grapheme `g0..<g1`, in Chromium's order: with VS16 the color emoji
    /// font; else the style's font, then the standard font (Liberation Serif), then the emoji
    /// font for emoji clusters, then fontconfig's system fallback for the first character. A
    /// font qualifies when it has every visible character of the cluster.
    mutating func chooseFont(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> Font {
        let first = units[g0]
        if g1 == g0 + 1 && first < 0x7F && first >= 0x20 && primaryCoversASCII { return primary }
        let (base, baseLength) = UnicodeAnalysis.scalar(at: g0, in: units)
        var variation16 = false, variation15 = false, sequence = false
        var i = g0 + baseLength
        while i < g1 {
            let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
            if scalar == 0xFE0F { variation16 = true }
            else if scalar == 0xFE0E { variation15 = true }
            else if scalar == 0x200D || rk_is_emoji_modifier(scalar) != 0 || scalar == 0x20E3 || rk_is_regional_indicator(scalar) != 0 { sequence = true }
            i += length
        }
        let script = rk_script(base)
        if script > 1 && script != 103 && script != runScript {
            runScript = script
            runFallback = nil
        }
        let emojiCluster = !variation15 && (variation16 || sequence || rk_is_emoji_presentation(base) != 0 || rk_is_regional_indicator(base) != 0)
        if variation16 && !variation15, let emoji = fonts.emojiFont, emoji.covers(base) { return emoji }
        if covers(primary, units, g0, g1) { return primary }
        if let standard = fonts.standardFont(weight: style.font.weight, italic: style.font.italic), covers(standard, units, g0, g1) { return standard }
        if emojiCluster, let emoji = fonts.emojiFont, emoji.covers(base) { return emoji }
        if let fallback = runFallback, covers(fallback, units, g0, g1) { return fallback }
        if let system = fonts.systemFallback(for: base) {
            runFallback = system
            return system
        }
        return primary
    }

    /// Whether `font` renders the cluster: it has every visible character, or every character
    /// of the cluster's NFC composition (HarfBuzz composes `e` + U+0302 + U+0323 into `ệ` when
    /// the font has the composed glyph, and Chromium counts that as rendered).
    func covers(_ font: Font, _ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> Bool {
        if coversEach(font, UnsafeBufferPointer(rebasing: units[g0..<g1])) { return true }
        guard g1 - g0 > 1 && g1 - g0 <= 32 else { return false }
        var composed = [UInt16](repeating: 0, count: 64)
        let n = composed.withUnsafeMutableBufferPointer { out in
            rk_compose_nfc(units.baseAddress! + g0, Int32(g1 - g0), out.baseAddress, 64)
        }
        guard n > 0 && Int(n) < g1 - g0 else { return false }
        return composed.withUnsafeBufferPointer { coversEach(font, UnsafeBufferPointer(rebasing: $0[0..<Int(n)])) }
    }

    private func coversEach(_ font: Font, _ units: UnsafeBufferPointer<UInt16>) -> Bool {
        var i = 0
        while i < units.count {
            let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
            if !font.covers(scalar) && rk_is_default_ignorable(scalar) == 0 { return false }
            i += length
        }
        return true
    }
}

/// A 16.16 width as Int32, saturating (a segment wider than 32767 px is absurd anyway).
@inline(__always) func clamp(_ value: Int64) -> Int32 {
    Int32(clamping: value)
}
