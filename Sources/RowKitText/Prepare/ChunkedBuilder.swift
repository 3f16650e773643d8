/// Builds a paragraph's analysis chunk by chunk through this thread's ``WordCache``.
///
/// A chunk is a word with the white space after it: its edges are breaks whatever surrounds
/// them (the browser breaks after every space run and after every newline), its grapheme
/// clusters and glyph runs stay inside it (runs split after spaces for fonts that do not kern
/// across them), and what its analysis depends on from outside — the style, the font-fallback
/// state carried in, its bidi levels — is part of the cache key. So the paragraph's analysis is
/// the concatenation of its chunks' analyses, each found in the cache or made once with the
/// same code that analyses whole paragraphs (``Builder/analyse(_:levels:buffer:)``). The few
/// paragraphs where that does not hold (a font that kerns across spaces at a chunk edge, a
/// combining mark right after a space) are analysed whole instead.
struct ChunkedBuilder {
    var unitAdvances = RawBuffer<Int32>()
    var graphemeStartBits = RawBuffer<UInt64>()
    var segmentEnds = RawBuffer<Int32>()
    var contentEnds = RawBuffer<Int32>()
    var widths = RawBuffer<Int32>()
    var spaceWidths = RawBuffer<Int32>()
    var flags = RawBuffer<UInt8>()
    var endTrimSegments = RawBuffer<Int32>()
    var endTrimAmounts = RawBuffer<Int32>()
    var clusterInnerBits = RawBuffer<UInt64>()
    /// Kerning growths and cluster rests shaped alone (``RunExtras``), from the chunks' runs.
    var kerns: [Int32] = []
    var alone: [Int32] = []
    /// Reshaped CJK punctuation line starts and their fonts (``LineStartReshape``).
    var reshapedFonts: [(unit: Int32, font: Font)] = []
    /// Glyph runs (absolute offsets) and, when runs are kept, their shaped glyphs.
    var runs = RawBuffer<WordCache.Run>()
    var shaped: [ShapedRun] = []
    /// A missed chunk's share of the paragraph's breaks and grapheme ends, kept from paragraph
    /// to paragraph (grown afresh for each, they were reallocated ~4 times a paragraph).
    private var shareBreaks: [Int32] = [], shareMandatory: [UInt8] = [], shareGraphemes: [Int32] = []
    /// The share of this thread's recent chunks that missed the word cache, as 65,536ths
    /// (each chunk weighs 1/64 of it): a choice between exact ways of finding line breaks,
    /// never an answer.
    private var recentMisses: UInt32 = 0
    /// Recent answers of ``mayStartWithExtender(_:)``, direct-mapped by a hash of the unit:
    /// `(unit + 1) << 1 | answer`, 0 when empty. Its two property lookups in the standard
    /// library cost ~800 instructions, asked once or twice for every missed chunk.
    private var extenderMemo: [UInt32] = []
    /// Whether the paragraph last built holds a unit of a dictionary-segmented script (found by
    /// `build`'s scan; the measuring form's planner then need not scan again).
    var mayHoldDictionaryScript = true
    /// Below this miss rate a paragraph of any script finds a missed chunk's breaks alone.
    static let chunkAloneMissRate: UInt32 = 65_536 * 30 / 100

    /// Frees the buffers.
    mutating func deallocate() {
        unitAdvances.deallocate(); graphemeStartBits.deallocate(); segmentEnds.deallocate(); contentEnds.deallocate()
        widths.deallocate(); spaceWidths.deallocate(); flags.deallocate(); endTrimSegments.deallocate()
        endTrimAmounts.deallocate(); runs.deallocate(); clusterInnerBits.deallocate()
        kerns = []
        alone = []
        shaped = []
        shareBreaks = []
        shareMandatory = []
        shareGraphemes = []
        extenderMemo = []
    }

    /// Builds `units` (with bidi `levels`, nil when all 0) in `context`; returns false when the
    /// paragraph must be analysed whole. With `keepRuns`, `shaped` gets each run's glyphs.
    mutating func build(_ units: UnsafeBufferPointer<UInt16>, levels: UnsafeBufferPointer<UInt8>?, context: PrepareScratch.Context,
                        words: inout WordCache, builder: inout Builder, buffer: HBBuffer, keepRuns: Bool) throws(TextError) -> Bool {
        let n = units.count
        unitAdvances.removeAll()
        unitAdvances.reserve(n)
        graphemeStartBits.removeAll()
        graphemeStartBits.append(repeating: 0, count: (n + 63) / 64)
        clusterInnerBits.removeAll()
        clusterInnerBits.append(repeating: 0, count: (n + 63) / 64)
        kerns.emptyKeepingCapacity()
        alone.emptyKeepingCapacity()
        if !reshapedFonts.isEmpty { reshapedFonts.removeAll() }
        segmentEnds.removeAll()
        contentEnds.removeAll()
        widths.removeAll()
        spaceWidths.removeAll()
        flags.removeAll()
        endTrimSegments.removeAll()
        endTrimAmounts.removeAll()
        runs.removeAll()
        shaped.emptyKeepingCapacity()
        guard !context.resolved.primary.kernsAcrossSpaces else { return false }

        // One fallback chooser for the whole paragraph: its plans (system fallback for a script
        // segment's holes) look ahead in the paragraph, whichever chunk they start in.
        builder.resetFallback(context.fallback)
        builder.paragraphBreaks.reset()
        builder.paragraph = units
        builder.fallback.paragraphLevels = levels
        defer { builder.paragraph = nil; builder.paragraphOffset = 0; builder.fallback.paragraphLevels = nil }
        // The paragraph's break opportunities, found (once) when a chunk that is not printable
        // ASCII is missing from the cache: the chunk's analysis takes its share. `from`: the
        // unit they were found from (0, or a chunk's start: the rest of a dictionary-script
        // paragraph), offsets relative to it.
        var paragraph: (from: Int, breaks: [Int32], mandatory: [UInt8])?
        // The end of the last chunk that missed and took a share of the breaks.
        var previousMissEnd = -1
        // Its grapheme ends alone, found first when a hit makes a plan again (`planStart`).
        var paragraphGraphemes: [Int32]?
        var breakIndex = 0, graphemeIndex = 0
        // A missed chunk's share of them, rebased (arrays reused from chunk to chunk and from
        // paragraph to paragraph).
        var breaks: [Int32] = [], mandatory: [UInt8] = [], graphemes: [Int32] = []
        swap(&breaks, &shareBreaks)
        swap(&mandatory, &shareMandatory)
        swap(&graphemes, &shareGraphemes)
        defer {
            swap(&breaks, &shareBreaks)
            swap(&mandatory, &shareMandatory)
            swap(&graphemes, &shareGraphemes)
        }
        // Mostly-ASCII paragraphs (Latin text with a few curly quotes) analyse their few
        // non-ASCII misses alone; others run ICU once over the paragraph.
        var complex = 0
        // Whether the paragraph holds a script ICU breaks by dictionary (Thai, Khmer, Myanmar…).
        var dictionary = false
        for unit in units where unit >= 0x7F {
            complex += 1
            if !dictionary && unit >= 0x0E00 && unit <= 0xAA7F && DictionaryScripts.contains(unit) { dictionary = true }
        }
        mayHoldDictionaryScript = dictionary
        let shareParagraphAnalysis = 4 * complex > n
        // The next two chunks, found ahead (start −1: none), with their keys' hashes as most
        // chunks' keys are (no bidi levels, outside any fallback plan).
        var ahead = Lookahead.none, beyond = Lookahead.none
        var p = 0
        while p < n {
            let q = p == ahead.start ? ahead.end : Self.chunkEnd(units, from: p)
            let chunk = UnsafeBufferPointer(rebasing: units[p..<q])
            let afterSpace = p > 0 && units[p - 1] == 0x20
            // A space before a tab: ICU breaks between them, the printable-ASCII rules do not,
            // so such a chunk is analysed as its paragraph is (not cached: rare, pre-wrap only).
            var spaceTab = false
            if complex > 0 {
                for k in p..<(q - 1) where units[k] == 0x20 && units[k + 1] == 0x09 { spaceTab = true; break }
            }
            var key = WordCache.Levels()
            // The font-fallback state the chunk's font choices depend on (nil: a plan ends
            // inside the chunk, or tried several fonts — analysed, not cached).
            let carried = builder.fallback.carried(at: p, through: q)
            let state = carried ?? FontFallback.CarriedState.outsidePlan
            var cacheable = q - p <= WordCache.maximumLength && !spaceTab && carried != nil
            if let levels, cacheable {
                key.low = levels[p]
                key.high = key.low
                for k in p..<q where levels[k] != key.low {
                    if key.high == key.low { key.high = levels[k] } else if levels[k] != key.high { cacheable = false; break }
                    key.mask |= 1 << UInt64(k - p)
                }
            }
            var hash: UInt64 = 0
            if cacheable {
                hash = p == ahead.start && ahead.hashed && levels == nil && state == .outsidePlan
                    ? ahead.hash : WordCache.hash(context: context.analysisID, state: state, levels: key, units: chunk)
            }
            // A lookup is a chain of dependent cache misses (table slot, entry, text): the
            // chunk after next has its table slots fetched now and the next one its entry (its
            // slot fetched one chunk ago), so that their misses overlap this chunk's work. A
            // wrong guess of their keys costs the fetches and nothing else.
            if q < n && levels == nil {
                ahead = beyond.start == q ? beyond : Lookahead(units, from: q, context: context.analysisID)
                beyond = ahead.end < n ? Lookahead(units, from: ahead.end, context: context.analysisID) : .none
                if beyond.hashed { words.prefetchSlots(beyond.hash) }
                if ahead.hashed { words.prefetchEntry(ahead.hash) }
            } else {
                ahead = .none
                beyond = .none
            }
            if cacheable, let index = words.find(hash, context: context.analysisID, state: state, levels: key, units: chunk) {
                words.hits += 1
                recentMisses -= recentMisses >> 6
                let e = words.young.entry(at: index)
                if e.flags & WordCache.Flag.joinsNeighbours != 0 { return false }
                if afterSpace && e.flags & WordCache.Flag.startsWithExtender != 0 { return false }
                append(words.young, index, at: p, keepRuns: keepRuns, size: context.style.size)
                // The plan the chunk's analysis started, made again for the chunks after it.
                if e.planStart >= 0 {
                    // With the paragraph's graphemes, as a miss here would have found them.
                    if shareParagraphAnalysis && paragraphGraphemes == nil {
                        paragraphGraphemes = try UnicodeAnalysis.graphemeEnds(units)
                        builder.fallback.paragraphGraphemes = paragraphGraphemes
                    }
                    _ = builder.fallback.planFont(units, from: p + Int(e.planStart))
                }
            } else {
                // Analyse the chunk with the code that analyses whole paragraphs.
                words.misses += 1
                if cacheable { words.prefetchAdmission(hash) }
                recentMisses += 1024 - (recentMisses >> 6)
                builder.paragraphOffset = p
                let plansBefore = builder.fallback.plansMade
                let levelSlice = levels.map { UnsafeBufferPointer(rebasing: $0[p..<q]) }
                if shareParagraphAnalysis && chunk.contains(where: { $0 >= 0x7F || ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) }) {
                    if paragraphGraphemes == nil {
                        paragraphGraphemes = try UnicodeAnalysis.graphemeEnds(units)
                        builder.fallback.paragraphGraphemes = paragraphGraphemes
                    }
                    let wholeGraphemes = paragraphGraphemes!
                    // This chunk's share of the grapheme ends, rebased: those in p+1...q.
                    while graphemeIndex < wholeGraphemes.count && Int(wholeGraphemes[graphemeIndex]) <= p { graphemeIndex += 1 }
                    // A chunk starting inside a grapheme cluster (a mark after a space) cannot be analysed alone.
                    if p > 0 && (graphemeIndex == 0 || Int(wholeGraphemes[graphemeIndex - 1]) != p) { return false }
                    graphemes.removeAll(keepingCapacity: true)
                    var k = graphemeIndex
                    while k < wholeGraphemes.count && Int(wholeGraphemes[k]) <= q {
                        graphemes.append(wholeGraphemes[k] - Int32(p))
                        k += 1
                    }
                    // In a paragraph of a dictionary script (Thai, Khmer, Myanmar…), or of any
                    // script while most chunks hit the word cache, the breaks are found from the
                    // chunk on, over the text alone (``breaksAlone(_:at:)``: the same as the
                    // paragraph's share), so ICU does not run over the chunks that hit (its
                    // dictionary: ~40 k instructions a Myanmar paragraph): over this chunk alone,
                    // or over the rest of the paragraph once the chunk before missed too (new
                    // text: one call for the rest costs less than one a chunk). While many chunks
                    // miss (a text seen for the first time), other scripts ask ICU once over the
                    // paragraph: a call's fixed cost (~3 k instructions with its arrays) for each
                    // missed word costs more than ICU's few hundred a unit over the words that hit.
                    if paragraph == nil && (dictionary || recentMisses < Self.chunkAloneMissRate) && breaksAloneRemembered(units, at: p)
                        && previousMissEnd != p {
                        try builder.lineBreaks(ofChunk: chunk, at: p, into: &breaks, &mandatory)
                    } else {
                        if paragraph == nil {
                            if (dictionary || recentMisses < Self.chunkAloneMissRate) && breaksAloneRemembered(units, at: p) {
                                let rest = UnsafeBufferPointer(rebasing: units[p...])
                                let (breaks, mandatory) = try builder.lineBreaks(ofChunk: rest, at: p)
                                paragraph = (p, breaks, mandatory)
                            } else {
                                let (breaks, mandatory) = try builder.lineBreaks(units, keeping: true)
                                paragraph = (0, breaks, mandatory)
                            }
                        }
                        let whole = paragraph!
                        // This chunk's share, rebased: the breaks in p+1...q.
                        let from = Int32(whole.from), start = Int32(p)
                        while breakIndex < whole.breaks.count && whole.breaks[breakIndex] + from <= start { breakIndex += 1 }
                        breaks.emptyKeepingCapacity()
                        mandatory.emptyKeepingCapacity()
                        k = breakIndex
                        while k < whole.breaks.count && Int(whole.breaks[k] + from) <= q {
                            breaks.append(whole.breaks[k] + from - start)
                            mandatory.append(whole.mandatory[k])
                            k += 1
                        }
                    }
                    previousMissEnd = q
                    guard breaks.last == Int32(q - p), graphemes.last == Int32(q - p) else { return false }
                    try builder.analyse(chunk, levels: levelSlice, buffer: buffer, given: (breaks, mandatory, graphemes))
                } else {
                    try builder.analyse(chunk, levels: levelSlice, buffer: buffer, forceUnicode: spaceTab)
                }
                if let first = builder.runs.first, let last = builder.runs.last,
                   first.font.kernsAcrossSpaces || last.font.kernsAcrossSpaces { return false }
                let extended = mayStartWithExtenderRemembered(chunk[0]) && Self.startsWithExtender(chunk)
                if afterSpace && extended { return false }
                // Inside a plan that tried several fonts, the chunk's holes must all take its
                // first (the key names only that one).
                if state.script == 1 && !builder.fallback.holesTakeFirstFont(p, q) { cacheable = false }
                // A plan started in the chunk looked past it: its analysis holds wherever the same
                // plan starts at the same place (a hit makes the plan again) when it was the only
                // one, its hint character was inside the chunk and the chunk's holes took its first font
                // (and its segment did not continue a script run from before it).
                var planStart = -1
                if builder.fallback.plansMade != plansBefore {
                    let start = builder.fallback.plannedStart
                    if cacheable && state == .outsidePlan && builder.fallback.plansMade == plansBefore + 1 && start >= p && start < q
                        && builder.fallback.planHintEnd <= q && builder.fallback.holesTakeFirstFont(p, q)
                        && !builder.fallback.planContinuesRunBefore {
                        planStart = start - p
                    } else {
                        cacheable = false
                    }
                }
                // Line-start widths of reshaped CJK punctuation are not in the shaped runs.
                if builder.recordsBeyondRuns || builder.shapedWithContextScript { cacheable = false }
                if cacheable && words.admits(hash) {
                    words.rotateIfFull()
                    let index = words.young.insert(builder, chunk: chunk, hash: hash, context: context.analysisID, in: state,
                                                  levels: key, extended: extended)
                    if planStart >= 0 { words.young.setPlanStart(index, Int8(planStart)) }
                    let kernsBefore = kerns.count, aloneBefore = alone.count
                    append(words.young, index, at: p, keepRuns: keepRuns, size: context.style.size)
                    if words.young.entry(at: index).flags & WordCache.Flag.hasRunExtras != 0 {
                        words.young.storeExtras(index, kerns: kerns[kernsBefore...], alone: alone[aloneBefore...], offset: Int32(p))
                    }
                } else {
                    append(builder, at: p, keepRuns: keepRuns)
                }
            }
            p = q
        }
        RunExtras.sortKerns(&kerns)
        return true
    }

    /// A chunk found ahead of the one being built, and its key's hash as most chunks' keys are
    /// (no bidi levels, outside any fallback plan), when it is short enough to be cached.
    struct Lookahead {
        var start: Int, end: Int
        var hash: UInt64
        var hashed: Bool

        static let none = Lookahead(start: -1, end: 0, hash: 0, hashed: false)

        init(start: Int, end: Int, hash: UInt64, hashed: Bool) {
            self.start = start
            self.end = end
            self.hash = hash
            self.hashed = hashed
        }

        @inline(__always)
        init(_ units: UnsafeBufferPointer<UInt16>, from start: Int, context: Int32) {
            self.start = start
            end = ChunkedBuilder.chunkEnd(units, from: start)
            hashed = end - start <= WordCache.maximumLength
            hash = hashed ? WordCache.hash(context: context, state: .outsidePlan, levels: WordCache.Levels(),
                                           units: UnsafeBufferPointer(rebasing: units[start..<end])) : 0
        }
    }

    /// The end of the chunk starting at `p`: its content, then spaces and tabs, then at most
    /// one newline.
    @inline(__always)
    static func chunkEnd(_ units: UnsafeBufferPointer<UInt16>, from p: Int) -> Int {
        let n = units.count
        var q = p
        while q < n {
            let u = units[q]
            if u == 0x20 || u == 0x09 || u == 0x0A { break }
            q += 1
        }
        while q < n {
            let u = units[q]
            if u == 0x0A { q += 1; break }
            if u != 0x20 && u != 0x09 { break }
            q += 1
        }
        return q
    }

    /// Whether the line breaks of the chunk starting at `p` (up to and after its white space)
    /// may be found over the chunk alone: they equal its share of the paragraph's when the
    /// chunk starts the paragraph or follows a space or a newline and does not start with a
    /// grapheme extender. Why: the break right after white space is Chromium's whatever ICU
    /// says (``BreakOpportunities``), UAX #14's rules that reach across spaces (LB14–LB17,
    /// LB8) decide only that position, the dictionary segments each run of its characters by
    /// itself (a space ends one), and the rules that look before a unit treat the start of the
    /// text as they treat a space or a newline (the word-initial hyphen of LB20a, the quotation
    /// marks of LB15a). A tab is not such a unit for LB20a, and a mark after white space joins
    /// it (LB9). `ChunkLineBreaksTests` compares both over every chunk of the corpora.
    @inline(__always)
    static func breaksAlone(_ units: UnsafeBufferPointer<UInt16>, at p: Int) -> Bool {
        p == 0 || ((units[p - 1] == 0x20 || units[p - 1] == 0x0A) && !mayStartWithExtender(units[p]))
    }

    /// ``breaksAlone(_:at:)`` with the extender filter's answers remembered.
    @inline(__always)
    mutating func breaksAloneRemembered(_ units: UnsafeBufferPointer<UInt16>, at p: Int) -> Bool {
        p == 0 || ((units[p - 1] == 0x20 || units[p - 1] == 0x0A) && !mayStartWithExtenderRemembered(units[p]))
    }

    /// ``mayStartWithExtender(_:)``, remembered for recent units (``extenderMemo``).
    @inline(__always)
    mutating func mayStartWithExtenderRemembered(_ unit: UInt16) -> Bool {
        guard unit >= 0x300 else { return false }
        if extenderMemo.isEmpty { extenderMemo = zeroFilledArray(UInt32(0), count: 1024) }
        let slot = Int((UInt32(unit) &* 0x9E37_79B1) >> 22)
        let entry = extenderMemo[slot]
        if entry >> 1 == UInt32(unit) + 1 { return entry & 1 != 0 }
        let answer = Self.mayStartWithExtender(unit)
        extenderMemo[slot] = (UInt32(unit) + 1) << 1 | (answer ? 1 : 0)
        return answer
    }

    /// Whether a chunk starting with `unit` might start with a grapheme extender: a combining
    /// or spacing mark, a joiner, a variation selector, an emoji modifier (surrogates), or one
    /// of the letters that are spacing marks (Thai and Lao AM). A cheap filter before asking ICU.
    static func mayStartWithExtender(_ unit: UInt16) -> Bool {
        guard unit >= 0x300, !CategoryFilter.isPlainEastAsianLetter(unit) else { return false }
        if unit == 0x200C || unit == 0x200D || unit == 0x0E33 || unit == 0x0EB3 || (unit >= 0xD800 && unit <= 0xDFFF)
            || (unit >= 0xFE00 && unit <= 0xFE0F) { return true }
        guard let scalar = Unicode.Scalar(unit) else { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return scalar.properties.isGraphemeExtend
        }
    }

    /// Whether the chunk's first character is a grapheme extender (a combining mark, ZWJ…):
    /// after a space it would join the space's cluster, which chunk-by-chunk analysis cannot do.
    static func startsWithExtender(_ chunk: UnsafeBufferPointer<UInt16>) -> Bool {
        var probe: [UInt16] = [0x20]
        probe.append(contentsOf: chunk.prefix(4))
        guard let ends = try? probe.withUnsafeBufferPointer({ (p) throws(TextError) in try UnicodeAnalysis.graphemeEnds(p) }) else { return true }
        return ends.first != 1
    }

    /// Appends the cached chunk whose record is at `offset` in generation `g`, placed at unit `p`.
    @inline(__always)
    mutating func append(_ g: borrowing WordCache.Generation, _ offset: Int, at p: Int, keepRuns: Bool, size: Double) {
        g.data.withUnsafeBytes { raw in
            let record = raw.baseAddress! + 8 * offset
            let e = record.load(as: WordCache.Entry.self)
            let layout = WordCache.Layout(e)
            let n = Int(e.length)
            unitAdvances.append(fromRaw: record + layout.advances, count: n)
            let bits = graphemeStartBits.base!
            let starts = (record + layout.starts).assumingMemoryBound(to: UInt8.self)
            if e.flags & WordCache.Flag.everyUnitStartsGrapheme != 0 {
                ChunkedBuilder.setBits(bits, from: p, count: n)
            } else {
                for k in 0..<n where starts[k] & 1 != 0 { bits[(p + k) >> 6] |= 1 << UInt64((p + k) & 63) }
            }
            if e.flags & WordCache.Flag.hasClusterInner != 0 {
                let inner = clusterInnerBits.base!
                for k in 0..<n where starts[k] & 4 != 0 { inner[(p + k) >> 6] |= 1 << UInt64((p + k) & 63) }
            }
            let offset = Int32(p)
            // The segments and runs are written through pointers to room made once (appending
            // element by element checked capacity and stored five counts per segment: ~0.7% of
            // `rowkit heights`).
            let count = Int(e.segmentCount)
            if count > 0 {
                let firstSegment = widths.count
                let ends = segmentEnds.extend(by: count), contents = contentEnds.extend(by: count), w = widths.extend(by: count)
                let spaces = spaceWidths.extend(by: count), f = flags.extend(by: count)
                for k in 0..<count {
                    let s = record.load(fromByteOffset: layout.segments + k * MemoryLayout<WordCache.Segment>.stride, as: WordCache.Segment.self)
                    if s.flags & MetricsBlock.Flag.endTrim != 0 {
                        endTrimSegments.append(Int32(firstSegment + k))
                        endTrimAmounts.append(s.trim)
                    }
                    ends[k] = offset &+ s.end
                    contents[k] = offset &+ s.contentEnd
                    w[k] = s.width
                    spaces[k] = s.space
                    f[k] = s.flags
                }
            }
            let runCount = Int(e.runCount)
            if runCount > 0 {
                let out = runs.extend(by: runCount)
                for k in 0..<runCount {
                    var run = record.load(fromByteOffset: layout.runs + k * MemoryLayout<WordCache.Run>.stride, as: WordCache.Run.self)
                    run.start &+= offset
                    run.end &+= offset
                    out[k] = run
                }
            }
            // Force-unwrapped: only the old generation holds moved (nil) runs, and chunks are
            // appended from the young one.
            if keepRuns { for k in Int(e.runStart)..<Int(e.runStart) + runCount { shaped.append(g.shapedRuns[k]!) } }
            if e.flags & WordCache.Flag.storedExtras != 0 {
                appendStoredExtras(record + layout.extras, e, at: p)
            } else if e.flags & WordCache.Flag.hasRunExtras != 0 {
                appendRunExtras(g, record + layout.runs, e, at: p, size: size)
            }
        }
    }

    /// Sets bits `from..<from + count` of the bit array at `bits`, a 64-bit word at a time.
    @inline(__always)
    static func setBits(_ bits: UnsafeMutablePointer<UInt64>, from: Int, count: Int) {
        var k = from
        let end = from + count
        while k < end {
            let shift = k & 63
            let take = min(64 - shift, end - k)
            let mask: UInt64 = take == 64 ? ~0 : ((1 << UInt64(take)) - 1) << UInt64(shift)
            bits[k >> 6] |= mask
            k += take
        }
    }

    /// The run extras stored with cached entry `e` (``WordCache/Flag/storedExtras``) at
    /// `extras`, placed at unit `p`: what ``appendRunExtras(_:_:_:at:size:)`` would collect again.
    @inline(never)
    mutating func appendStoredExtras(_ extras: UnsafeRawPointer, _ e: WordCache.Entry, at p: Int) {
        let offset = Int32(p)
        let x = extras.assumingMemoryBound(to: Int32.self)
        var k = 0
        let kernEnd = Int(e.kernValues), aloneEnd = kernEnd + Int(e.aloneValues)
        while k < kernEnd {
            kerns.append(x[k] &+ offset)
            kerns.append(x[k + 1])
            k += 2
        }
        while k < aloneEnd {
            alone.append(x[k] &+ offset)
            alone.append(x[k + 1] &+ offset)
            alone.append(x[k + 2])
            k += 3
        }
    }

    /// The kerning growths and line-start widths of cached entry `e`'s runs (at `runs`), placed
    /// at unit `p` (kept out of ``append(_:_:at:keepRuns:size:)``, which runs for every cached word).
    @inline(never)
    mutating func appendRunExtras(_ g: borrowing WordCache.Generation, _ runs: UnsafeRawPointer, _ e: WordCache.Entry, at p: Int,
                                  size: Double) {
        for k in 0..<Int(e.runCount) {
            let run = runs.load(fromByteOffset: k * MemoryLayout<WordCache.Run>.stride, as: WordCache.Run.self)
            RunExtras.collect(g.shapedRuns[Int(e.runStart) + k]!, font: run.font.takeUnretainedValue(), size: size, at: p + Int(run.start),
                              end: p + Int(run.end), graphemeStartBits: graphemeStartBits.elements, kerns: &kerns, alone: &alone)
        }
    }

    /// Appends a chunk analysed but not cached, placed at unit `p`.
    mutating func append(_ b: borrowing Builder, at p: Int, keepRuns: Bool) {
        let offset = Int32(p)
        b.unitAdvances.withUnsafeBufferPointer { unitAdvances.append(from: $0.baseAddress!, count: $0.count) }
        for k in 0..<b.unitAdvances.count {
            if b.graphemeStartBits[k >> 6] & (1 << UInt64(k & 63)) != 0 { graphemeStartBits[(p + k) >> 6] |= 1 << UInt64((p + k) & 63) }
            if b.clusterInnerBits[k >> 6] & (1 << UInt64(k & 63)) != 0 { clusterInnerBits[(p + k) >> 6] |= 1 << UInt64((p + k) & 63) }
        }
        for k in stride(from: 0, to: b.kerns.count, by: 2) {
            kerns.append(b.kerns[k] + offset)
            kerns.append(b.kerns[k + 1])
        }
        for r in b.reshapedFonts { reshapedFonts.append((r.unit + offset, r.font)) }
        for k in stride(from: 0, to: b.alone.count, by: 3) {
            alone.append(b.alone[k] + offset)
            alone.append(b.alone[k + 1] + offset)
            alone.append(b.alone[k + 2])
        }
        var trim = 0
        let count = b.widths.count
        if count > 0 {
            let firstSegment = widths.count
            let ends = segmentEnds.extend(by: count), contents = contentEnds.extend(by: count), w = widths.extend(by: count)
            let spaces = spaceWidths.extend(by: count), f = flags.extend(by: count)
            for i in 0..<count {
                if b.flags[i] & MetricsBlock.Flag.endTrim != 0 {
                    while trim < b.endTrimSegments.count && Int(b.endTrimSegments[trim]) < i { trim += 1 }
                    endTrimSegments.append(Int32(firstSegment + i))
                    endTrimAmounts.append(trim < b.endTrimSegments.count ? b.endTrimAmounts[trim] : 0)
                }
                ends[i] = offset + b.segmentEnds[i]
                contents[i] = offset + b.contentEnds[i]
                w[i] = b.widths[i]
                spaces[i] = b.spaceWidths[i]
                f[i] = b.flags[i]
            }
        }
        if !b.runs.isEmpty {
            let out = runs.extend(by: b.runs.count)
            for (k, run) in b.runs.enumerated() {
                out[k] = WordCache.Run(start: offset + run.start, end: offset + run.end, level: run.bidiLevel, font: .passUnretained(run.font))
                if keepRuns { shaped.append(run.shaped) }
            }
        }
    }
}

extension WordCache.Generation {
    /// Adds the analysis of `chunk` made by `b`, and returns its record's offset.
    mutating func insert(_ b: borrowing Builder, chunk: UnsafeBufferPointer<UInt16>, hash: UInt64, context: Int32,
                in state: FontFallback.CarriedState, levels: WordCache.Levels, extended: Bool) -> Int {
        let n = chunk.count
        var flags: UInt8 = 0
        if let first = b.runs.first, let last = b.runs.last, first.font.kernsAcrossSpaces || last.font.kernsAcrossSpaces {
            flags |= WordCache.Flag.joinsNeighbours
        }
        if !b.kerns.isEmpty || !b.alone.isEmpty { flags |= WordCache.Flag.hasRunExtras }
        if b.clusterInnerBits.contains(where: { $0 != 0 }) { flags |= WordCache.Flag.hasClusterInner }
        var every = true
        for k in 0..<n where b.graphemeStartBits[k >> 6] & (1 << UInt64(k & 63)) == 0 { every = false; break }
        if every { flags |= WordCache.Flag.everyUnitStartsGrapheme }
        if extended { flags |= WordCache.Flag.startsWithExtender }
        return insert(chunk, hash: hash, context: context, in: state, levels: levels, flags: flags, segmentCount: b.widths.count,
                      runs: b.runs.count, fill: { record, layout in
            for k in 0..<n {
                var bits: UInt8 = b.graphemeStartBits[k >> 6] & (1 << UInt64(k & 63)) != 0 ? 1 : 0
                if k == 0 && extended { bits |= 2 }
                if b.clusterInnerBits[k >> 6] & (1 << UInt64(k & 63)) != 0 { bits |= 4 }
                record.storeBytes(of: bits, toByteOffset: layout.starts + k, as: UInt8.self)
            }
            b.unitAdvances.withUnsafeBytes { if let base = $0.baseAddress { record.advanced(by: layout.advances).copyMemory(from: base, byteCount: min($0.count, 4 * n)) } }
            var trim = 0
            for i in b.widths.indices {
                var amount: Int32 = 0
                if b.flags[i] & MetricsBlock.Flag.endTrim != 0 {
                    while trim < b.endTrimSegments.count && Int(b.endTrimSegments[trim]) < i { trim += 1 }
                    if trim < b.endTrimSegments.count { amount = b.endTrimAmounts[trim] }
                }
                record.storeBytes(of: WordCache.Segment(end: b.segmentEnds[i], contentEnd: b.contentEnds[i], width: b.widths[i],
                                                        space: b.spaceWidths[i], trim: amount, flags: b.flags[i]),
                                  toByteOffset: layout.segments + i * MemoryLayout<WordCache.Segment>.stride, as: WordCache.Segment.self)
            }
            for (k, run) in b.runs.enumerated() {
                record.storeBytes(of: WordCache.Run(start: run.start, end: run.end, level: run.bidiLevel, font: .passUnretained(run.font)),
                                  toByteOffset: layout.runs + k * MemoryLayout<WordCache.Run>.stride, as: WordCache.Run.self)
            }
        }, shaped: { b.runs[$0].shaped })
    }
}

extension ChunkedBuilder {
    /// ``ParagraphArrays/withInput(_:_:levels:_:)`` on the builder in place. Called on
    /// `pointee` of a pointer into this thread's workspace, the non-mutating method got a copy
    /// of the whole builder (its arrays retained, then released: ~470 instructions and some
    /// twenty reference counts a text, on every prepared text): `body` may write through other
    /// pointers into the same memory, so the builder could not be lent as it lies. A mutating
    /// call lends it (nothing else may touch it meanwhile).
    mutating func withInputInPlace<R>(_ units: UnsafeBufferPointer<UInt16>, _ resolved: ResolvedStyle,
                                      levels: UnsafeBufferPointer<UInt8>?, _ body: (MetricsBlock.Input) -> R) -> R {
        withInput(units, resolved, levels: levels, body)
    }
}
