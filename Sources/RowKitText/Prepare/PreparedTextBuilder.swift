
/// Builds the arrays of a ``PreparedText`` in one pass over the paragraph.
struct Builder {
    private(set) var resolved: ResolvedStyle
    private(set) var style: TextStyle
    private(set) var primary: Font
    private(set) var fonts: FontLibrary
    private(set) var cache: ShapeCache
    /// Font choice per grapheme cluster.
    var fallback: FontFallback
    /// The content language HarfBuzz shapes with.
    private(set) var language: ShapingLanguage
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
    /// Units inside a glyph run where no HarfBuzz cluster starts (bit per unit).
    var clusterInnerBits: [UInt64] = []
    /// (unit, growth) of break-word line ends after a kerned cluster, flat (``LineEndKerning``).
    var kerns: [Int32] = []
    /// (from, to, width) of cluster rests shaped alone, flat (``ClusterSplit``).
    var alone: [Int32] = []
    /// Break opportunities of printable-ASCII text (``asciiLineBreaks(_:)``), reused.
    var asciiBreaks: [Int32] = []
    var asciiMandatory: [UInt8] = []
    /// ICU's own break opportunities of a chunk (``lineBreaks(ofChunk:at:into:_:)``), reused.
    var icuBreaks: [Int32] = []
    /// Fonts a chooser started afresh took for short pieces (``afreshFont(_:)``): the piece
    /// (up to three units, 16 bits each, and its length in the top bits), the style context's
    /// id (ids are never reused on a thread) and the font; at most 64.
    var afreshFonts: [(piece: UInt64, context: Int32, font: Font)] = []
    /// Units shaped half-width (trimmed CJK punctuation).
    var trimmed: Set<Int> = []
    /// Starts of the runs in a font with half-width punctuation whose shaping script ignores
    /// `halt` (``halfWidthApplies(_:_:_:font:commonScript:)``, decided as each run is closed):
    /// nothing in them is trimmed, in pairs or at a line end. Empty for nearly every text.
    var halfWidthIgnoredRuns: [Int32] = []
    /// Units whose line-start width is recorded in ``alone`` (``LineStartReshape``).
    var reshapedStarts: Set<Int> = []
    /// Widths were recorded that do not follow from the shaped runs (reshaped line starts,
    /// trimmed line ends: ``LineStartReshape``, ``LineEndReshape``), so the chunk is not cached.
    var recordsBeyondRuns = false
    /// The font each of those marks is shaped with at a line start (its line box with
    /// `line-height: normal`).
    var reshapedFonts: [(unit: Int32, font: Font)] = []
    /// A run has only Common characters and takes the script of the text around it
    /// (``CommonScript``): the analysis depends on text outside it, so a chunk with one is not
    /// cached.
    var shapedWithContextScript = false
    /// A run in a font with half-width punctuation was closed in this analysis (only then can
    /// CJK punctuation be trimmed or reshaped at line starts: ``collectReshapedLineStarts(_:buffer:)``).
    var closedHalfWidthRun = false
    /// (cluster start, kerning 16.16 px) of the clusters kerned against the next one, flat, in
    /// the order the runs were closed (``LineEndKerning``).
    var kerned: [Int32] = []
    /// Fonts chosen for clusters met before, and the style context they were chosen in (−1:
    /// none; the memo then keys on nothing shared with other builders).
    let fontMemo = FontChoiceMemo()
    /// When analysing a chunk of a paragraph (the word cache's misses): the paragraph and where
    /// the chunk starts in it — font fallback plans look ahead in the paragraph.
    var paragraph: UnsafeBufferPointer<UInt16>? { didSet { commonScriptMemo = CommonScript.Memo() } }
    var paragraphOffset = 0
    /// `CommonScript`'s searches in the text being analysed (reset with each paragraph, and
    /// with each text analysed whole).
    var commonScriptMemo = CommonScript.Memo()
    private(set) var contextID: Int32 = -1
    /// ICU's line breaks of the paragraph being analysed, for its runs' cluster splits.
    var paragraphBreaks = ParagraphLineBreaks()
    /// From this many segments on, ``collectSegments(_:breaks:mandatory:buffer:)`` writes
    /// through pointers (a choice between two exact ways; the tests set it to compare them).
    var segmentsThroughPointersFrom = 6

    init(_ resolved: ResolvedStyle, fonts: FontLibrary, cache: ShapeCache) {
        self.init(resolved, fonts: fonts, cache: cache, fallback: FontFallback(style: resolved.style, primary: resolved.primary, fonts: fonts))
    }

    /// A builder starting from `fallback` (its carried state included).
    init(_ resolved: ResolvedStyle, fonts: FontLibrary, cache: ShapeCache, fallback: FontFallback) {
        self.resolved = resolved
        self.style = resolved.style
        self.primary = resolved.primary
        self.fonts = fonts
        self.cache = cache
        self.fallback = fallback
        self.language = ShapingLanguage(resolved.style.lang)
    }

    /// Makes this builder one for `context`'s style, its arrays kept (emptied) for reuse. Its
    /// font chooser is not reset here: both ways of analysing a paragraph start with
    /// ``resetFallback(_:)`` (a chooser is a large value; one copy per text is enough).
    mutating func reset(_ context: PrepareScratch.Context) {
        if contextID != context.id || cache !== context.cache {
            resolved = context.resolved
            style = context.style
            primary = context.resolved.primary
            fonts = context.fonts
            cache = context.cache
            language = context.language
            contextID = context.id
        }
    }

    /// Starts font choice over from `initial` (a context's chooser in its first state), with
    /// this builder's memo of cluster answers.
    mutating func resetFallback(_ initial: FontFallback) {
        fallback.restart(from: initial)
        fallback.memo = fontMemo
        fallback.memoContext = contextID
    }

    /// Analyses a whole paragraph: bidi levels, then everything else (``analyse(_:levels:buffer:)``).
    mutating func build(_ units: UnsafeBufferPointer<UInt16>) throws(TextError) {
        guard !units.isEmpty else { return }
        let (levels, level) = try UnicodeAnalysis.bidiLevels(units, direction: style.direction)
        paragraphLevel = level
        let buffer = HarfBuzz.createBuffer()
        defer { HarfBuzz.destroy(buffer: buffer) }
        if let levels {
            try levels.withUnsafeBufferPointer { (levels) throws(TextError) in try analyse(units, levels: levels, buffer: buffer) }
        } else {
            try analyse(units, levels: nil, buffer: buffer)
        }
    }

    /// Breaks, graphemes, fonts, shaping and segments of `units` — a paragraph, or a piece of
    /// one whose edges are certain breaks (the word cache's chunks) — with the given bidi
    /// levels (nil: all 0), starting from `fallback`'s carried state. `given` supplies the
    /// break opportunities and grapheme ends (a chunk's share of its paragraph's) instead of
    /// finding them.
    mutating func analyse(_ units: UnsafeBufferPointer<UInt16>, levels: UnsafeBufferPointer<UInt8>?, buffer: HBBuffer,
                          given: (breaks: [Int32], mandatory: [UInt8], graphemes: [Int32])? = nil,
                          forceUnicode: Bool = false) throws(TextError) {
        // The arrays may hold a previous text's analysis (builders are reused). `emptyKeepingCapacity()`:
        // a missed chunk's arrays mostly hold one element (one run, segment, bit word), and
        // the mostly empty ones none (`removeAll(keepingCapacity:)` costs ~70 instructions
        // whatever the count, ten or so a missed chunk).
        // The zero-filled ones are zeroed in place when their count stays (the bit words: one
        // for nearly every chunk) and otherwise resized without the generic
        // `append(contentsOf:)` where only a few elements come or go (``Array/resetToZeros(count:)``).
        emptyArrays(unitCount: units.count)
        guard !units.isEmpty else { return }
        if paragraph == nil { paragraphBreaks.reset(); commonScriptMemo = CommonScript.Memo() }
        if paragraph == nil { fallback.paragraphLevels = levels }
        defer { if paragraph == nil { fallback.paragraphLevels = nil } }
        // Printable ASCII (with spaces, and tabs and newlines) is common and simple: its grapheme
        // clusters are single units and the browser decides its breaks without ICU.
        let ascii = given == nil && !forceUnicode && Self.isPrintableASCII(units)
        var breaks: [Int32], mandatory: [UInt8]
        // Grapheme ends (ASCII: every unit is one).
        let graphemes: [Int32]?
        if let given {
            (breaks, mandatory, graphemes) = (given.breaks, given.mandatory, given.graphemes)
        } else if ascii {
            asciiLineBreaks(units)
            (breaks, mandatory) = (asciiBreaks, asciiMandatory)
            graphemes = nil
        } else {
            (breaks, mandatory) = try lineBreaks(units, keeping: paragraph == nil)
            graphemes = try UnicodeAnalysis.graphemeEnds(units)
            // A whole paragraph: font fallback plans reuse its graphemes.
            if paragraph == nil { fallback.paragraphGraphemes = graphemes }
        }
        // A CR or FF that pre-wrap dropped still glues its neighbours (docs/CHROMIUM.md §3(m)).
        if given == nil && paragraph == nil { WhiteSpace.removeBreaks(atDroppedControls: fallback.itemBoundaries, units, &breaks, &mandatory) }

        // 1. Fonts per grapheme → runs → shaped glyphs → per-unit advances.
        if runs.capacity < breaks.count { runs.reserveCapacity(breaks.count) }
        // Every unit of ASCII text starts a grapheme: its bits are set word by word here, not
        // one unit at a time in the loop below.
        if graphemes == nil { Self.setAll(&graphemeStartBits, count: units.count) }
        let primaryID = ObjectIdentifier(primary)
        var runStart = -1
        var runFont = primary
        var runLevel: UInt8 = 0
        var nextBreak = 0
        var g0 = 0
        var graphemeIndex = 0
        var script: Int32 = -1  // the script of the text so far (ScriptRuns), -1 before any
        // The next break at or after the grapheme (Int.max: none), read from `breaks` only when
        // passed: the array's count and subscript were calls for every unit.
        let breakCount = breaks.count
        var nextBreakAt = breakCount > 0 ? Int(breaks[0]) : Int.max
        // The next offset where pre-wrap dropped a CR or FF (`fallback.itemBoundaries`, ascending;
        // none for most texts): Chromium keeps it as a control item, which ends the shaping item
        // there (docs/CHROMIUM.md §3(m)).
        var droppedIndex = 0
        var nextDroppedAt = fallback.itemBoundaries.first ?? Int.max
        while g0 < units.count {
            var g1: Int
            if let graphemes {
                g1 = Int(graphemes[graphemeIndex])
                graphemeIndex += 1
            } else {
                g1 = g0 + 1
            }
            defer { g0 = g1 }
            if graphemes != nil { graphemeStartBits[g0 >> 6] |= 1 << UInt64(g0 & 63) }
            while nextBreakAt < g0 {
                nextBreak += 1
                nextBreakAt = nextBreak < breakCount ? Int(breaks[nextBreak]) : Int.max
            }
            let atBreakAfterSpace = nextBreakAt == g0 && g0 > 0 && units[g0 - 1] == 0x20
            while nextDroppedAt < g0 {
                droppedIndex += 1
                nextDroppedAt = droppedIndex < fallback.itemBoundaries.count ? fallback.itemBoundaries[droppedIndex] : Int.max
            }
            let atDroppedControl = nextDroppedAt == g0
            let unit = units[g0]
            // Fast path: printable ASCII continuing a run of the primary font (no font choice,
            // no reference counting).
            // (Identities compared as `ObjectIdentifier`s: `===` is a call into the standard library.)
            if g1 == g0 + 1 && unit >= 0x20 && unit < 0x7F && primaryCoversASCII && runStart >= 0 && ObjectIdentifier(runFont) == primaryID
                && runLevel == (levels?[g0] ?? 0) && !(atBreakAfterSpace && !primary.kernsAcrossSpaces) && !atDroppedControl
                && (script == ScriptRuns.latin || (unit | 0x20) &- 0x61 >= 26) {
                // The printable ASCII units after a non-space one, up to the next space or other
                // unit, take this path too (each is one grapheme, its unit before is no space so
                // it is at no break after one, the script is Latin and no level changes): one
                // scan instead of ~30 instructions a unit through the loop (9 units a missed word).
                if graphemes == nil && levels == nil && unit != 0x20 && script == ScriptRuns.latin {
                    while g1 < units.count && g1 < nextDroppedAt && units[g1] &- 0x21 < 0x5E { g1 += 1 }
                }
                continue
            }
            if unit == 0x0A || unit == 0x09 {
                if runStart >= 0 { closeRun(units, runStart, g0, runFont, runLevel, buffer) }
                runStart = -1
                script = -1
                continue
            }
            let font = paragraph.map { fallback.font(for: $0, paragraphOffset + g0, paragraphOffset + g1) }
                ?? fallback.font(for: units, g0, g1)
            let lvl = levels?[g0] ?? 0
            // Words of fonts that do not kern across spaces are shaped alone (and cached): the
            // script so far restarts with each, as when a word is analysed by itself.
            if atBreakAfterSpace && !font.kernsAcrossSpaces { script = -1 }
            let first = UnicodeAnalysis.scalar(at: g0, in: units).0
            if ScriptRuns.isOpening(first) { script = -1 }
            let clusterScript = ScriptRuns.script(of: first)
            let scriptChanges = clusterScript >= 0 && script >= 0 && clusterScript != script
            if clusterScript >= 0 { script = clusterScript }
            // Runs split where the font, direction or script changes, and after a space for fonts
            // that do not kern across spaces (so words are shaped alone and shared through the cache).
            if runStart < 0 || ObjectIdentifier(font) != ObjectIdentifier(runFont) || lvl != runLevel || scriptChanges || (atBreakAfterSpace && !font.kernsAcrossSpaces)
                || atDroppedControl {
                if runStart >= 0 { closeRun(units, runStart, g0, runFont, runLevel, buffer) }
                runStart = g0
                runFont = font
                runLevel = lvl
            }
            if g1 - g0 > Self.longestShapedCluster {
                // A grapheme of thousands of units (a letter under a pile of combining marks) is
                // shaped in pieces: HarfBuzz's mark positioning searches back over every mark
                // for the base, so one call takes time in the square of the pile (80,000 marks:
                // 13 s). Marks of a later piece are placed without their base.
                var cut = g0 + Self.longestShapedCluster
                while cut < g1 {
                    if UTF16.isTrailSurrogate(units[cut]) { cut -= 1 }
                    closeRun(units, runStart, cut, runFont, runLevel, buffer)
                    runStart = cut
                    cut += Self.longestShapedCluster
                }
            }
        }
        if runStart >= 0 { closeRun(units, runStart, units.count, runFont, runLevel, buffer) }
        collectRunExtras()
        if closedHalfWidthRun {
            reshapedStarts = collectReshapedLineStarts(units, buffer: buffer)
        } else {
            // Without a run in a font with half-width punctuation nothing is trimmed or
            // reshaped: what `collectReshapedLineStarts` would find (and empty) without its calls.
            if !reshapedFonts.isEmpty { reshapedFonts.removeAll() }
            if !reshapedStarts.isEmpty { reshapedStarts.removeAll() }
        }
        // Unsafe line starts come from `alone` entries (``UnsafeLineStart``): none without any.
        if !alone.isEmpty {
            let unsafeStarts = collectUnsafeSegmentStarts(units, breaks: breaks, skipping: reshapedStarts, buffer: buffer)
            if !unsafeStarts.isEmpty { reshapedStarts.formUnion(unsafeStarts) }
        }

        // 2. Segments: content and hanging-space widths.
        collectSegments(units, breaks: breaks, mandatory: mandatory, buffer: buffer)
    }

    /// Empties the arrays of a previous analysis for one of `unitCount` units (a function of
    /// its own, as ``collectSegments(_:breaks:mandatory:buffer:)``: inside `analyse` the
    /// optimizer left the arrays' `count` and subscripts as calls, ~18 a missed word).
    @inline(never)
    private mutating func emptyArrays(unitCount: Int) {
        runs.emptyKeepingCapacity()
        unitAdvances.resetToZeros(count: unitCount)
        graphemeStartBits.resetToZeros(count: (unitCount + 63) / 64)
        segmentEnds.emptyKeepingCapacity()
        contentEnds.emptyKeepingCapacity()
        widths.emptyKeepingCapacity()
        spaceWidths.emptyKeepingCapacity()
        flags.emptyKeepingCapacity()
        endTrimSegments.emptyKeepingCapacity()
        endTrimAmounts.emptyKeepingCapacity()
        clusterInnerBits.resetToZeros(count: (unitCount + 63) / 64)
        kerns.emptyKeepingCapacity()
        alone.emptyKeepingCapacity()
        if !trimmed.isEmpty { trimmed.removeAll() }
        if !halfWidthIgnoredRuns.isEmpty { halfWidthIgnoredRuns.removeAll() }
        shapedWithContextScript = false
        recordsBeyondRuns = false
        closedHalfWidthRun = false
        kerned.emptyKeepingCapacity()
    }

    /// The segments of the text analysed: ends, content and hanging-space widths, flags.
    ///
    /// Texts of many segments (CJK text has one per ideograph) take the five arrays out of the
    /// builder for the loop and write them through pointers to room made once: an append per
    /// value cost a uniqueness check and a capacity test, ~85 instructions a segment. A missed
    /// word's one or two segments are appended as before (taking the arrays out costs more there).
    @inline(never)
    private mutating func collectSegments(_ units: UnsafeBufferPointer<UInt16>, breaks: [Int32], mandatory: [UInt8], buffer: HBBuffer) {
        let breakCount = breaks.count
        guard breakCount > 0 else { return }
        // (Reserved only when short: a call each costs ~36 instructions even when it has room.)
        if segmentEnds.capacity < breaks.count { segmentEnds.reserveCapacity(breaks.count) }
        if contentEnds.capacity < breaks.count { contentEnds.reserveCapacity(breaks.count) }
        if widths.capacity < breaks.count { widths.reserveCapacity(breaks.count) }
        if spaceWidths.capacity < breaks.count { spaceWidths.reserveCapacity(breaks.count) }
        if flags.capacity < breaks.count { flags.reserveCapacity(breaks.count) }
        if breakCount < segmentsThroughPointersFrom {
            var start = 0
            for k in 0..<breakCount {
                let end = Int(breaks[k])
                let (contentEnd, content, trailing, flag) = segment(k, start, end, units, mandatory: mandatory, buffer: buffer)
                segmentEnds.append(Int32(end))
                contentEnds.append(Int32(contentEnd))
                widths.append(content)
                spaceWidths.append(trailing)
                flags.append(flag)
                start = end
            }
            return
        }
        var endArray: [Int32] = [], contentArray: [Int32] = [], widthArray: [Int32] = [], spaceArray: [Int32] = []
        var flagArray: [UInt8] = []
        swap(&endArray, &segmentEnds)
        swap(&contentArray, &contentEnds)
        swap(&widthArray, &widths)
        swap(&spaceArray, &spaceWidths)
        swap(&flagArray, &flags)
        defer {
            swap(&endArray, &segmentEnds)
            swap(&contentArray, &contentEnds)
            swap(&widthArray, &widths)
            swap(&spaceArray, &spaceWidths)
            swap(&flagArray, &flags)
        }
        let base = widthArray.count
        endArray.append(contentsOf: repeatElement(0, count: breakCount))
        contentArray.append(contentsOf: repeatElement(0, count: breakCount))
        widthArray.append(contentsOf: repeatElement(0, count: breakCount))
        spaceArray.append(contentsOf: repeatElement(0, count: breakCount))
        flagArray.append(contentsOf: repeatElement(0, count: breakCount))
        endArray.withUnsafeMutableBufferPointer { ends in
        contentArray.withUnsafeMutableBufferPointer { contents in
        widthArray.withUnsafeMutableBufferPointer { w in
        spaceArray.withUnsafeMutableBufferPointer { spaces in
        flagArray.withUnsafeMutableBufferPointer { f in
            var start = 0
            for k in 0..<breakCount {
                let end = Int(breaks[k])
                let (contentEnd, content, trailing, flag) = segment(k, start, end, units, mandatory: mandatory, buffer: buffer)
                ends[base + k] = Int32(end)
                contents[base + k] = Int32(contentEnd)
                w[base + k] = content
                spaces[base + k] = trailing
                f[base + k] = flag
                start = end
            }
        }
        }
        }
        }
        }
    }


    /// Segment `k` (`start..<end`): its content end, content and hanging widths and flags; a
    /// line-end trim is recorded (``endTrimSegments``, ``endTrimAmounts``) as it is found.
    /// Reads no segment array (``collectSegments(_:breaks:mandatory:buffer:)`` may hold them).
    @inline(__always)
    private mutating func segment(_ k: Int, _ start: Int, _ end: Int, _ units: UnsafeBufferPointer<UInt16>, mandatory: [UInt8],
                                  buffer: HBBuffer) -> (contentEnd: Int, content: Int32, trailing: Int32, flag: UInt8) {
        let contentEnd = contentEnd(ofSegment: start, end, in: units, whiteSpace: style.whiteSpace)
        var flag: UInt8 = mandatory[k] != 0 ? MetricsBlock.Flag.mandatoryBreak : 0
        var content: Int64 = 0, trailing: Int64 = 0
        var graphemeCount = 0
        // Through pointers: the arrays' subscripts were calls for every unit.
        unitAdvances.withUnsafeBufferPointer { unitAdvances in
            graphemeStartBits.withUnsafeBufferPointer { graphemeStartBits in
                for u in start..<end {
                    if u < contentEnd {
                        content += Int64(unitAdvances[u])
                        if graphemeStartBits[u >> 6] & (1 << UInt64(u & 63)) != 0 { graphemeCount += 1 }
                    } else {
                        trailing += Int64(unitAdvances[u])
                        if units[u] == 0x09 { flag |= MetricsBlock.Flag.tab }
                    }
                }
            }
        }
        if graphemeCount >= 2 { flag |= MetricsBlock.Flag.breakable }
        if contentEnd == start { flag |= MetricsBlock.Flag.whitespaceOnly }
        if !reshapedStarts.isEmpty && reshapedStarts.contains(start) { flag |= MetricsBlock.Flag.lineStartAlone }
        if units[start] == 0x3000 && contentEnd > start && style.whiteSpace == .normal
            && !units[start..<contentEnd].contains(where: { $0 != 0x3000 }) { flag |= MetricsBlock.Flag.ideographicSpaceOnly }
        if contentEnd > start {
            let last = contentEnd - 1
            if units[last] == 0xAD { flag |= MetricsBlock.Flag.softHyphen }
            // (The unit's own tests before the set's: an ideograph or kana, nearly every
            // segment of CJK text, is no closing mark, and each `trimmed` lookup was a call.)
            if units[last] >= 0x2019, CJKPunctuation.isClosingMark(units[last]), !trimmed.contains(last), unitAdvances[last] > 0,
               let run = runs.last(where: { Int($0.start) <= last }), run.font.hasHalfWidthPunctuation,
               CJKPunctuation.trimsAtLineEnd(units[last], in: punctuationSpacing(of: run.font)),
               !halfWidthIgnoredRuns.contains(run.start) {
                flag |= MetricsBlock.Flag.endTrim
                endTrimSegments.append(Int32(k))
                endTrimAmounts.append(lineEndTrimAmount(units, last: last, run: run, buffer: buffer))
            } else if !trimmed.isEmpty, CJKPunctuation.growsAtLineEnd(units[last]), trimmed.contains(last) {
                // Trimmed because punctuation follows: full width again if the line ends here.
                flag |= MetricsBlock.Flag.endTrim
                endTrimSegments.append(Int32(k))
                endTrimAmounts.append(-unitAdvances[last])
            } else if contentEnd == end, !kerned.isEmpty, let kern = kerning(at: lastKernable(units, last, after: start)), kern < 0 {
                // Kerned against the next segment: its own width if the line ends here.
                flag |= MetricsBlock.Flag.endTrim
                endTrimSegments.append(Int32(k))
                endTrimAmounts.append(kern)
            }
        }
        return (contentEnd, clamp(content), clamp(trailing), flag)
    }

    /// Break opportunities of printable ASCII text, as Chromium finds them without ICU: after a
    /// space or tab (before anything else but white space), after a newline (forced), and
    /// between two printable characters by its table — into ``asciiBreaks`` and
    /// ``asciiMandatory``, reused (the word cache's misses are short chunks analysed one after
    /// another; two fresh arrays for each cost more than the rule).
    mutating func asciiLineBreaks(_ units: UnsafeBufferPointer<UInt16>) {
        // Emptied in place (a missed word's one break goes through `removeLast`), grown only
        // when short: `removeAll(keepingCapacity:)` and `reserveCapacity` on both arrays, and
        // the table's lazy global for every pair, cost a missed word ~500 instructions.
        asciiBreaks.emptyKeepingCapacity()
        asciiMandatory.emptyKeepingCapacity()
        let n = units.count
        if asciiBreaks.capacity < n / 4 + 1 { asciiBreaks.reserveCapacity(n / 4 + 1) }
        if asciiMandatory.capacity < n / 4 + 1 { asciiMandatory.reserveCapacity(n / 4 + 1) }
        for p in 1..<max(1, n) {
            let a = units[p - 1], b = units[p]
            if a == 0x0A {
                asciiBreaks.append(Int32(p)); asciiMandatory.append(1)
            } else if a == 0x20 || a == 0x09 {
                if b != 0x20 && b != 0x09 && b != 0x0A { asciiBreaks.append(Int32(p)); asciiMandatory.append(0) }
            } else if ASCIIBreakRules.mayAllowBreak(after: a) && ASCIIBreakRules.applies(a, b)
                        && ASCIIBreakRules.allowsBreak(before: p >= 2 ? units[p - 2] : 0, a, b) {
                asciiBreaks.append(Int32(p)); asciiMandatory.append(0)
            }
        }
        asciiBreaks.append(Int32(n))
        asciiMandatory.append(units[n - 1] == 0x0A ? 1 : 0)
    }

    /// ICU's UAX #14 opportunities, with Chromium's table deciding between printable ASCII pairs
    /// (``BreakOpportunities``).
    /// With `keeping`, `units` is the paragraph and ICU's own breaks are kept (``paragraphBreaks``).
    mutating func lineBreaks(_ units: UnsafeBufferPointer<UInt16>, keeping: Bool = false) throws(TextError)
        -> (ends: [Int32], mandatory: [UInt8]) {
        guard keeping else { return try BreakOpportunities.find(units, language: style.lang) }
        var icu: [Int32] = []
        let found = try BreakOpportunities.find(units, language: style.lang, icu: &icu)
        paragraphBreaks.keep(icu, of: units, language: style.lang)
        return found
    }

    /// The line breaks of `chunk`, a chunk of the paragraph at unit `offset` whose breaks are
    /// found alone (``ChunkedBuilder/breaksAlone(_:at:)``); ICU's own breaks are kept for its runs
    /// (``paragraphBreaks``).
    mutating func lineBreaks(ofChunk chunk: UnsafeBufferPointer<UInt16>, at offset: Int) throws(TextError)
        -> (ends: [Int32], mandatory: [UInt8]) {
        var ends: [Int32] = [], mandatory: [UInt8] = []
        try lineBreaks(ofChunk: chunk, at: offset, into: &ends, &mandatory)
        return (ends, mandatory)
    }

    /// The same into `ends` and `mandatory` (emptied first, capacity kept); ICU's own breaks
    /// go through ``icuBreaks``, reused.
    mutating func lineBreaks(ofChunk chunk: UnsafeBufferPointer<UInt16>, at offset: Int, into ends: inout [Int32],
                             _ mandatory: inout [UInt8]) throws(TextError) {
        try BreakOpportunities.find(chunk, language: style.lang, icu: &icuBreaks, ends: &ends, mandatory: &mandatory)
        paragraphBreaks.keep(icuBreaks, ofChunk: chunk, at: offset, paragraphCount: paragraph?.count ?? chunk.count, language: style.lang)
    }

    /// Shapes `start..<end` (through the cache), records it as a glyph run and credits its
    /// advances, in 16.16 pixels, to the paragraph's units.
    /// The most units of one grapheme shaped in one HarfBuzz call (longer graphemes are shaped
    /// in pieces of this size, see `analyse`); far above any real cluster (a family emoji is 11).
    static let longestShapedCluster = 64

    mutating func closeRun(_ units: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, _ font: Font, _ level: UInt8,
                           _ buffer: HBBuffer) {
        guard end > start else { return }
        let slice = UnsafeBufferPointer(rebasing: units[start..<end])
        // A run of only Common characters takes the script of the text around it (``CommonScript``).
        let commonScript = CommonScript.script(ofRun: units, start, end, paragraph: paragraph, offset: paragraphOffset,
                                               memo: &commonScriptMemo)
        if commonScript?.outside == true { shapedWithContextScript = true }
        var halfWidth: [UInt16] = []
        if font.hasHalfWidthPunctuation {
            closedHalfWidthRun = true
            let spacing = punctuationSpacing(of: font)
            for u in start..<end where CJKPunctuation.isTrimmed(units, u, run: start..<end, spacing: spacing) {
                halfWidth.append(UInt16(truncatingIfNeeded: u - start))
            }
            // In a script whose shaping ignores `halt` nothing is trimmed (HarfBuzz would not),
            // decided here, as the run is closed, for the line-end rules read after all runs are
            // closed too.
            if !halfWidth.isEmpty || (start..<end).contains(where: { CJKPunctuation.isClosingMark(units[$0]) }),
               !halfWidthApplies(units, start, end, font: font, commonScript: commonScript?.script) {
                halfWidth.removeAll()
                halfWidthIgnoredRuns.append(Int32(start))
            }
            for offset in halfWidth { trimmed.insert(start + Int(offset)) }
        }
        // Joining scripts are shaped with their neighbours as context, as Chromium shapes them —
        // not across a CR or FF that pre-wrap dropped, which Chromium keeps in the text and which
        // joins nothing (`الطقس\u{C}جميل` is two unjoined words, docs/CHROMIUM.md §3(m)).
        var (before, after) = UnicodeAnalysis.joiningContext(units, start, end)
        if !fallback.itemBoundaries.isEmpty {
            if before > 0 && FontFallback.contains(fallback.itemBoundaries, start) { before = 0 }
            if after > 0 && FontFallback.contains(fallback.itemBoundaries, end) { after = 0 }
        }
        let context = UnsafeBufferPointer(rebasing: units[(start - before)..<(end + after)])
        let script = commonScript?.script ?? 0
        let keyContext = before + after > 0 ? (units: context, before: before) : nil
        let rightToLeft = level & 1 == 1
        let cache = cache, language = language
        let shaped = ShapeCache.withKey(font: font.id, rightToLeft: rightToLeft, text: slice, halfWidth: halfWidth,
                                        context: keyContext, script: script, language: language.id) { key in
            if let cached = cache.run(for: key) { return cached }
            // The paragraph's ICU breaks inside the run, when it is whole chunks of the paragraph.
            let offset = paragraph == nil ? 0 : paragraphOffset
            // Only a run with text of a dictionary script uses them (``ClusterSplit``): the share
            // (a copy of the paragraph's breaks) is made for those alone.
            let shaped: ShapedRun
            if paragraphBreaks.count > 0 && slice.contains(where: DictionaryScripts.contains) {
                let share = ParagraphLineBreaks.Share(breaks: paragraphBreaks, paragraph: paragraph ?? units, start: offset + start, end: offset + end)
                shaped = ShapedRun.shape(context, item: before..<(before + end - start), font: font, rightToLeft: rightToLeft,
                                         halfWidth: halfWidth, language: language, script: script, buffer: buffer, knownBreaks: share)
            } else {
                shaped = ShapedRun.shape(context, item: before..<(before + end - start), font: font, rightToLeft: rightToLeft,
                                         halfWidth: halfWidth, language: language, script: script, buffer: buffer)
            }
            cache.store(shaped, for: key)
            return shaped
        }
        runs.append(GlyphRun(font: font, start: Int32(start), end: Int32(end), bidiLevel: level, shaped: shaped))
        let size = style.size
        let scale = font.fixedScale(size: size)
        let shapedAdvances = shaped.unitAdvances
        // Through one pointer: a subscript write per unit checked the array's uniqueness each time.
        unitAdvances.withUnsafeMutableBufferPointer { unitAdvances in
            for u in start..<end {
                let designUnits = shapedAdvances[u - start]
                if designUnits != 0 {
                    unitAdvances[u] = clamp(font.fixedAdvance(designUnits, scale: scale, size: size))
                    // A space the font lacks: HarfBuzz's fallback width (``Font/fallbackSpaceAdvance(_:size:)``).
                    if units[u] & 0xFFF0 == 0x2000, let space = font.fallbackSpaceAdvance(units[u], size: size) { unitAdvances[u] = clamp(space) }
                }
            }
        }
        if shaped.hasMultiAdvanceClusters {
            // Each glyph becomes pixels on its own, as drawn (``ClusterAdvances``).
            ClusterAdvances.credit(shaped, font: font, size: style.size, at: start, into: &unitAdvances)
        }
        let kerning = shaped.kerning
        for p in stride(from: 0, to: kerning.count, by: 2) {
            kerned.append(Int32(start) + kerning[p])
            kerned.append(clamp(font.fixedAdvance(kerning[p + 1], scale: scale, size: style.size)))
        }
        RunExtras.mark(shaped, at: start, count: end - start, clusterInnerBits: &clusterInnerBits)
    }

    /// Where the cluster a segment ending at unit `last` could be kerned with starts: a segment
    /// ending in zero width spaces is kerned through them (HarfBuzz skips default ignorables, so
    /// `o` in `ro\u{200B}w` is kerned against `w`), and a line ending after them is shaped again
    /// alone as after the letter itself (docs/CHROMIUM.md §3(n), eighteenth round); a trailing
    /// surrogate stands for its pair.
    @inline(__always) func lastKernable(_ units: UnsafeBufferPointer<UInt16>, _ last: Int, after start: Int) -> Int {
        var k = last
        while k > start && units[k] == 0x200B { k -= 1 }
        return units[k] & 0xFC00 == 0xDC00 ? k - 1 : k
    }

    /// The kerning of the cluster starting at unit `u` (the last recorded), if it was kerned.
    func kerning(at u: Int) -> Int32? {
        var p = kerned.count - 2
        while p >= 0 {
            if Int(kerned[p]) == u { return kerned[p + 1] }
            p -= 2
        }
        return nil
    }

    /// After the runs are closed: the kerning growths and line-start widths of the runs, from
    /// their shaped glyphs (``RunExtras``).
    mutating func collectRunExtras() {
        for run in runs where !run.shaped.kerning.isEmpty || !run.shaped.aloneWidths.isEmpty {
            graphemeStartBits.withUnsafeBufferPointer { bits in
                RunExtras.collect(run.shaped, font: run.font, size: style.size, at: Int(run.start), end: Int(run.end),
                                  graphemeStartBits: bits, kerns: &kerns, alone: &alone)
            }
        }
        RunExtras.sortKerns(&kerns)
    }
}

extension Builder {
    /// Whether every unit is printable ASCII (U+0020–007E), a tab or a newline: one compare a
    /// unit in the common case (the two-sided test cost ~13 instructions a unit).
    @inline(__always) static func isPrintableASCII(_ units: UnsafeBufferPointer<UInt16>) -> Bool {
        for unit in units where unit &- 0x20 >= 0x5F {
            if unit != 0x09 && unit != 0x0A { return false }
        }
        return true
    }

    /// Sets the first `count` bits of `bits` (its words hold at least `count` bits).
    @inline(__always) static func setAll(_ bits: inout [UInt64], count: Int) {
        guard count > 0 else { return }
        bits.withUnsafeMutableBufferPointer { bits in
            let full = count >> 6
            for w in 0..<full { bits[w] = ~0 }
            if count & 63 != 0 { bits[full] |= (1 << UInt64(count & 63)) &- 1 }
        }
    }
}

extension Array where Element: FixedWidthInteger {
    /// Makes the array `count` zeros, keeping its capacity: zeroed in place while the count
    /// stays, a few elements appended or removed one by one otherwise (the standard library's
    /// `removeAll(keepingCapacity:)` and `append(contentsOf:)` of a repeated zero cost ~200
    /// instructions whatever the count: a missed word's three zero-filled arrays paid them).
    @inline(__always)
    mutating func resetToZeros(count n: Int) {
        let old = count
        if old > n && old - n <= 2 {
            removeLast()
            if old - n == 2 { removeLast() }
        } else if old > n {
            emptyKeepingCapacity()
        }
        let kept = Swift.min(count, n)
        if kept == 1 {
            self[0] = 0
        } else if kept > 1 {
            withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        let missing = n - kept
        if missing <= 4 {
            for _ in 0..<missing { append(0) }
        } else {
            append(contentsOf: repeatElement(0, count: missing))
        }
    }
}

/// A 16.16 width as Int32, saturating (a segment wider than 32767 px is absurd anyway).
@inline(__always) func clamp(_ value: Int64) -> Int32 {
    Int32(clamping: value)
}

/// What a run's shaped glyphs add to the measuring form besides advances: where HarfBuzz
/// clusters start, the growth of break-word line ends after kerned clusters and the widths of
/// cluster rests shaped alone. Shared by both builders (the word cache keeps the shaped runs,
/// so a cached chunk yields them again without shaping).
enum RunExtras {
    /// Marks the units of a run at `start` (`count` units) where no cluster starts. HarfBuzz's
    /// clusters are monotonic (ascending, or descending in right-to-left runs): the units between
    /// two consecutive cluster values are inside a cluster.
    static func mark(_ shaped: ShapedRun, at start: Int, count: Int, clusterInnerBits bits: inout [UInt64]) {
        let clusters = shaped.glyphClusters
        let n = clusters.count
        // The common case: one glyph per unit, in order.
        if n == count && (n == 0 || (clusters[0] == 0 && clusters[n - 1] == Int32(n - 1))) && (n < 3 || clusters[1] == 1) {
            var plain = true
            for g in 0..<n where clusters[g] != Int32(g) { plain = false; break }
            if plain { return }
        }
        bits.withUnsafeMutableBufferPointer { bits in mark(clusters, n: n, at: start, count: count, bits: bits) }
    }

    private static func mark(_ clusters: UnsafeBufferPointer<Int32>, n: Int, at start: Int, count: Int,
                             bits: UnsafeMutableBufferPointer<UInt64>) {
        @inline(__always) func inner(_ k: Int) {
            let u = start + k
            bits[u >> 6] |= 1 << UInt64(u & 63)
        }
        let descending = n > 1 && clusters[0] > clusters[n - 1]
        var previous = -1
        var monotonic = true
        for i in 0..<n {
            let c = Int(clusters[descending ? n - 1 - i : i])
            if c < previous { monotonic = false; break }
            if c > previous {
                if previous >= 0 { for k in previous + 1..<c { inner(k) } } else { for k in 0..<min(c, count) { inner(k) } }
                previous = c
            }
        }
        if monotonic {
            if previous >= 0 { for k in previous + 1..<count { inner(k) } }
            return
        }
        var isStart = [Bool](repeating: false, count: count)
        for c in clusters where c >= 0 && Int(c) < count { isStart[Int(c)] = true }
        for k in 0..<count {
            let u = start + k
            if isStart[k] { bits[u >> 6] &= ~(1 << UInt64(u & 63)) } else { inner(k) }
        }
    }

    /// Appends the run's kerning growths, keyed by the unit where a line ending after the kerned
    /// cluster's first grapheme ends, and its rests shaped alone, in absolute units and 16.16 px.
    static func collect(_ shaped: ShapedRun, font: Font, size: Double, at start: Int, end: Int,
                        graphemeStartBits bits: UnsafeBufferPointer<UInt64>, kerns: inout [Int32], alone: inout [Int32]) {
        let scale = font.fixedScale(size: size)
        let kerning = shaped.kerning
        for p in stride(from: 0, to: kerning.count, by: 2) {
            var e = start + Int(kerning[p]) + 1
            while e < end && bits[e >> 6] & (1 << UInt64(e & 63)) == 0 { e += 1 }
            // The kerned pair lies inside the run, so a line ending at the run's end holds both.
            // Nor does a line end undo a cluster kerned against the next cluster of its own
            // grapheme (Devanagari द against its vowel sign ी when HarfBuzz makes them two
            // clusters): no line ends between them.
            if e >= end { continue }
            var next = Int.max
            for c in shaped.glyphClusters where Int(c) > Int(kerning[p]) && Int(c) < next { next = Int(c) }
            if next != Int.max && start + next < e { continue }
            kerns.append(Int32(e))
            kerns.append(clamp(-font.fixedAdvance(kerning[p + 1], scale: scale, size: size)))
        }
        let widths = shaped.aloneWidths
        for t in stride(from: 0, to: widths.count, by: 3) {
            alone.append(Int32(start) + widths[t])
            alone.append(Int32(start) + widths[t + 1])
            // (c, c, distance) entries are unit counts (``UnsafeLineStart``), not widths.
            alone.append(widths[t] == widths[t + 1] ? widths[t + 2] : clamp(font.fixedAdvance(widths[t + 2], scale: scale, size: size)))
        }
    }

    /// Sorts (unit, growth) pairs by unit, keeping the last pair for a unit.
    static func sortKerns(_ kerns: inout [Int32]) {
        guard kerns.count > 2 else { return }
        var sorted = true
        for p in stride(from: 2, to: kerns.count, by: 2) where kerns[p] <= kerns[p - 2] { sorted = false; break }
        if sorted { return }
        var pairs: [(Int32, Int32, Int)] = []
        for p in stride(from: 0, to: kerns.count, by: 2) { pairs.append((kerns[p], kerns[p + 1], p)) }
        pairs.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.2 < $1.2 }
        kerns.removeAll(keepingCapacity: true)
        for (k, pair) in pairs.enumerated() where k + 1 == pairs.count || pairs[k + 1].0 != pair.0 {
            kerns.append(pair.0)
            kerns.append(pair.1)
        }
    }
}
