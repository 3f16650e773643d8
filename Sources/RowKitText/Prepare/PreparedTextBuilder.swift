import CHarfBuzz
import CICU

/// Builds the arrays of a ``PreparedText`` in one pass over the paragraph.
struct Builder {
    let style: TextStyle
    let primary: Font
    let fonts: FontLibrary
    let cache: ShapeCache
    /// Font choice per grapheme cluster.
    var fallback: FontFallback
    /// The content language HarfBuzz shapes with.
    let language: ShapingLanguage
    var primaryCoversASCII: Bool { fallback.primaryCoversASCII }

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
    /// Kerning (16.16 px) of the clusters starting at these units (``LineEndKerning``).
    var kerned: [Int: Int32] = [:]

    init(style: TextStyle, primary: Font, fonts: FontLibrary, cache: ShapeCache) {
        self.style = style
        self.primary = primary
        self.fonts = fonts
        self.cache = cache
        self.fallback = FontFallback(style: style, primary: primary, fonts: fonts)
        self.language = ShapingLanguage(style.lang)
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
            let font = fallback.font(for: units, g0, g1)
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
                } else if trimmed.contains(last), CJKPunctuation.growsAtLineEnd(units[last]) {
                    // Trimmed because punctuation follows: full width again if the line ends here.
                    flag |= PreparedText.Flag.endTrim
                    endTrimSegments.append(Int32(k))
                    endTrimAmounts.append(-unitAdvances[last])
                } else if contentEnd == end, !kerned.isEmpty, let kern = kerned[units[last] & 0xFC00 == 0xDC00 ? last - 1 : last], kern < 0 {
                    // Kerned against the next segment: its own width if the line ends here.
                    flag |= PreparedText.Flag.endTrim
                    endTrimSegments.append(Int32(k))
                    endTrimAmounts.append(kern)
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
        let (icu, icuMandatory) = try UnicodeAnalysis.lineBreaks(units, language: style.lang)
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
        // Joining scripts are shaped with their neighbours as context, as Chromium shapes them.
        let (before, after) = UnicodeAnalysis.joiningContext(units, start, end)
        let context = UnsafeBufferPointer(rebasing: units[(start - before)..<(end + after)])
        let key = ShapeCache.Key(font: font.id, rightToLeft: level & 1 == 1, text: slice, halfWidth: halfWidth,
                                 context: before + after > 0 ? Array(context) + [UInt16(before)] : [], language: language.id)
        let shaped: ShapedRun
        if let cached = cache.run(for: key) {
            shaped = cached
        } else {
            shaped = ShapedRun.shape(context, item: before..<(before + end - start), font: font, rightToLeft: key.rightToLeft,
                                     halfWidth: halfWidth, language: language, buffer: buffer)
            cache.store(shaped, for: key)
        }
        runs.append(GlyphRun(font: font, start: Int32(start), end: Int32(end), bidiLevel: level, shaped: shaped))
        let scale = font.fixedScale(size: style.size)
        for p in stride(from: 0, to: shaped.kerning.count, by: 2) {
            kerned[start + Int(shaped.kerning[p])] = clamp(font.fixedAdvance(shaped.kerning[p + 1], scale: scale, size: style.size))
        }
        for u in start..<end {
            let designUnits = shaped.unitAdvances[u - start]
            if designUnits != 0 { unitAdvances[u] = clamp(font.fixedAdvance(designUnits, scale: scale, size: style.size)) }
        }
    }
}

/// A 16.16 width as Int32, saturating (a segment wider than 32767 px is absurd anyway).
@inline(__always) func clamp(_ value: Int64) -> Int32 {
    Int32(clamping: value)
}
