import CHarfBuzz
import CICU

/// Builds the arrays of a ``PreparedText`` in one pass over the paragraph.
struct Builder {
    let resolved: ResolvedStyle
    let style: TextStyle
    let primary: Font
    let fonts: FontLibrary
    let cache: ShapeCache
    /// Font choice per grapheme cluster.
    var fallback: FontFallback
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

    init(_ resolved: ResolvedStyle, fonts: FontLibrary, cache: ShapeCache) {
        self.resolved = resolved
        self.style = resolved.style
        self.primary = resolved.primary
        self.fonts = fonts
        self.cache = cache
        self.fallback = FontFallback(style: resolved.style, primary: resolved.primary, fonts: fonts)
    }

    /// The analysed paragraph as the measuring form's writer reads it.
    func withInput<R>(_ units: UnsafeBufferPointer<UInt16>, _ body: (MetricsBlock.Input) -> R) -> R {
        var singleLine: Int64 = 0
        if flags.contains(where: { $0 & (MetricsBlock.Flag.mandatoryBreak | MetricsBlock.Flag.tab) != 0 }) {
            singleLine = .max
        } else if !widths.isEmpty {
            for i in widths.indices { singleLine += Int64(widths[i]) + Int64(spaceWidths[i]) }
            singleLine -= Int64(spaceWidths[widths.count - 1])
        }
        let (classMetrics, classRuns) = fontClasses(unitCount: units.count)
        return unitAdvances.withUnsafeBufferPointer { unitAdvances in
            graphemeStartBits.withUnsafeBufferPointer { graphemeStartBits in
                segmentEnds.withUnsafeBufferPointer { segmentEnds in
                    contentEnds.withUnsafeBufferPointer { contentEnds in
                        widths.withUnsafeBufferPointer { widths in
                            spaceWidths.withUnsafeBufferPointer { spaceWidths in
                                flags.withUnsafeBufferPointer { flags in
                                    endTrimSegments.withUnsafeBufferPointer { endTrimSegments in
                                        endTrimAmounts.withUnsafeBufferPointer { endTrimAmounts in
                                            body(MetricsBlock.Input(
                                                units: units, unitAdvances: unitAdvances, graphemeStartBits: graphemeStartBits,
                                                segmentEnds: segmentEnds, contentEnds: contentEnds, widths: widths,
                                                spaceWidths: spaceWidths, flags: flags, endTrimSegments: endTrimSegments,
                                                endTrimAmounts: endTrimAmounts, classMetrics: classMetrics, classRuns: classRuns,
                                                lineHeight: resolved.lineHeight, hyphenWidth: resolved.hyphenWidth,
                                                ellipsisWidth: resolved.ellipsisWidth, spaceWidth: resolved.spaceWidth,
                                                singleLineWidth: singleLine))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// With `line-height: normal` and a fallback font that needs more room than the primary
    /// font: each such font's room (class 1…; class 0 is the primary font) and where along the
    /// text the class changes. Empty otherwise: every line is then `lineHeight` tall.
    func fontClasses(unitCount: Int) -> (metrics: [(above: Double, below: Double)], runs: [(start: Int32, cls: Int32)]) {
        guard style.lineHeight == .normal else { return ([], []) }
        let p = resolved.normalMetrics
        var metrics: [(above: Double, below: Double)] = [p]
        var fontsSeen: [(font: Font, cls: Int32)] = []
        var classRuns: [(start: Int32, cls: Int32)] = []
        func add(_ start: Int32, _ cls: Int32) {
            if let last = classRuns.last {
                if last.cls == cls { return }
                if last.start == start { classRuns[classRuns.count - 1].cls = cls; return }
            }
            classRuns.append((start, cls))
        }
        var position: Int32 = 0
        for run in runs {
            var cls: Int32 = 0
            if run.font !== primary {
                if let seen = fontsSeen.first(where: { $0.font === run.font }) {
                    cls = seen.cls
                } else {
                    let m = run.font.normalLineMetrics(size: style.size)
                    if m.above > p.above || m.below > p.below {
                        if let k = metrics.firstIndex(where: { $0.above == m.above && $0.below == m.below }) {
                            cls = Int32(k)
                        } else {
                            cls = Int32(metrics.count)
                            metrics.append(m)
                        }
                    }
                    fontsSeen.append((run.font, cls))
                }
            }
            if run.start > position { add(position, 0) }
            add(run.start, cls)
            position = run.end
        }
        if Int(position) < unitCount { add(position, 0) }
        guard metrics.count > 1 else { return ([], []) }
        if classRuns.first?.start != 0 { classRuns.insert((0, 0), at: 0) }
        return (metrics, classRuns)
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
            var flag: UInt8 = mandatory[k] != 0 ? MetricsBlock.Flag.mandatoryBreak : 0
            var content: Int64 = 0, trailing: Int64 = 0
            var graphemeCount = 0
            for u in start..<end {
                if u < contentEnd {
                    content += Int64(unitAdvances[u])
                    if graphemeStartBits[u >> 6] & (1 << UInt64(u & 63)) != 0 { graphemeCount += 1 }
                } else {
                    trailing += Int64(unitAdvances[u])
                    if units[u] == 0x09 { flag |= MetricsBlock.Flag.tab }
                }
            }
            if graphemeCount >= 2 { flag |= MetricsBlock.Flag.breakable }
            if contentEnd == start { flag |= MetricsBlock.Flag.whitespaceOnly }
            if contentEnd > start {
                let last = contentEnd - 1
                if units[last] == 0xAD { flag |= MetricsBlock.Flag.softHyphen }
                if CJKPunctuation.kind(units[last]) == .close && !trimmed.contains(last), unitAdvances[last] > 0,
                   let run = runs.last(where: { Int($0.start) <= last }), run.font.hasHalfWidthPunctuation {
                    flag |= MetricsBlock.Flag.endTrim
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
}

/// A 16.16 width as Int32, saturating (a segment wider than 32767 px is absurd anyway).
@inline(__always) func clamp(_ value: Int64) -> Int32 {
    Int32(clamping: value)
}
