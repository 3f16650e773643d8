/// The compact measuring form of a text as bytes: everything line breaking reads, nothing it
/// does not (no glyphs, fonts or text). ``TextMetrics`` owns one; a ``PreparedText`` keeps one
/// in its storage; a cell's measuring form (RowKitCells) packs several into one allocation.
///
/// Two parts, each 8-byte aligned: the HOT part, all that measuring reads in the common case (a
/// width at which every word fits), then the COLD part, wherever the header's `cold` offset
/// says — right after the hot part in a text's own block; a cell's measuring form (RowKitCells)
/// packs its texts' hot parts together at its front and their cold parts after them, so a list
/// re-measuring a million rows sweeps a few contiguous cache lines per row.
///
/// Hot part (offsets from the block start):
///
///     header (32 B)      line height, single-line width, segment count, cold offset, special
///                        count, trail count, unit bits, flags (``HeaderOffset``)
///     widths  [n] Int32  content width of each segment (16.16 px)
///     codes   [n] UInt8  bit 7: special (flags in the special list), bit 6: breakable (two or
///                        more grapheme clusters), bits 0–5: index of the hanging-space width in
///                        the trailing table (63: only in the special list)
///     trail   [t] Int32  the distinct hanging-space widths (entry 0 is 0)
///
/// Cold part (offsets from the header's `cold`, 8-byte aligned):
///
///     cold header (20 B) unit count, hyphen, ellipsis and space widths, palette count
///     ends    [n] UInt16 or Int32 (wide texts)  end unit of each segment
///     specials[s] 16 B   segment, hanging width, trimmable amount, flags: the rare segments
///                        (forced break, soft hyphen, tab, white-space only, trimmable bracket)
///     (only with line-height: normal and a fallback font taller than the primary font:)
///     r, b    2×Int32    counts of the next two parts
///     boxes   [b] 2×Float64  above/below room of each font class (class 0: the primary font)
///     classes [r] 2×Int32  (first unit, class) where the font class changes
///     palette [p] Int32 advances, then [p] UInt8 attributes (grapheme start, kind)
///     units   [u] palette index of each UTF-16 unit, packed in as few bits as the palette
///                        needs (5 for a paragraph of English), then 7 bytes of padding
///     (only when a browser line-breaking rule needs more than advances, ``ExtrasCounts``:)
///     counts  8×Int32    kerning pairs, line-start widths, dictionary ranges and units,
///                        language bytes, bidi runs, refound line starts, the kerning pairs'
///                        packing (``KernPacking``) — or, when the extras are only kerning pairs
///                        (header flag `kernsOnly`, most texts with extras), one UInt32: the
///                        pair count << 8 | the packing
///     runs    [r] 6×Int32  (start, last, width, pad, tail, segment) of each bidi level run
///                        another follows (`BidiItemRounding.records`): 24 bytes per direction
///                        change, first so that the line breaker finds them cheaply
///     kerns   [k] UInt32 or 2×Int32 (unit, growth): a cluster kerned against the next one is
///                        that much wider when a break-word line ends before `unit`; 4 bytes a
///                        pair (unit in the high bits, growth in the low `packing` bits) when
///                        both fit, else 8 (``KernPacking``)
///     alone   [a] 3×Int32  (from, to, width): units `from..<to` of a multi-grapheme cluster
///                        shaped alone, for a line that starts inside the cluster at `from`
///     ranges  [d] 2×Int32  text ranges of dictionary-segmented scripts (Thai, Khmer…), whose
///                        words are found again from a line start inside one
///     text    UTF-16 units of those ranges, then the content language (ASCII)
///
/// The per-unit part is what overflow-wrap, ellipses, tabs and soft hyphens need; the common
/// case (a width at which every word fits) reads only the header, `widths`, `codes` and `trail`.
/// A text's distinct (advance, attribute) pairs are few (a few dozen for a paragraph), so a unit
/// costs five or six bits instead of the five bytes a plain advance and bit would.
package enum MetricsBlock {
    static let headerSize = 32
    static let coldHeaderSize = 20

    /// Where the header's fields lie (bytes from the block start). The hot header holds what
    /// the common case reads; the cold header (at `cold`) the rest.
    enum HeaderOffset {
        static let lineHeight = 0, singleLineWidth = 8, segmentCount = 16, cold = 20, specialCount = 24
        static let trailCount = 28, unitBits = 29, flags = 30
        /// From the cold part's start.
        static let unitCount = 0, hyphenWidth = 4, ellipsisWidth = 8, spaceWidth = 12, paletteCount = 16
    }

    /// Marks a font-class run that applies only to a line starting at its unit (CJK punctuation
    /// reshaped there, ``LineStartReshape``); the class is in the other bits.
    static let conditionalClass: Int32 = 0x4000_0000
    /// With ``conditionalClass``: the run applies instead to a line that ends trimmed at its unit
    /// (a closing mark reshaped there, `LineEndReshape`).
    static let lineEndClass: Int32 = 0x2000_0000

    /// Per-segment flags as line breaking sees them (codes and the special list combined).
    enum Flag {
        static let mandatoryBreak: UInt8 = 1
        static let softHyphen: UInt8 = 2
        static let tab: UInt8 = 4
        static let endTrim: UInt8 = 8
        /// The content has two or more grapheme clusters, so it can be broken inside.
        static let breakable: UInt8 = 16
        /// The segment is only white space (pre-wrap): it hangs wherever it falls.
        static let whitespaceOnly: UInt8 = 32
        /// The segment starts with CJK punctuation that a line start shapes again alone
        /// (``LineStartReshape``): its width there is ``View/lineStartWidth(_:_:)``.
        static let lineStartAlone: UInt8 = 64
        /// The content is only U+3000 (after a break, so after white space; white-space: normal):
        /// it does not end a line it shares with earlier segments (docs/CHROMIUM.md §3(l)).
        static let ideographicSpaceOnly: UInt8 = 128
        /// Flags that only the special list carries.
        static let specialMask: UInt8 = mandatoryBreak | softHyphen | tab | endTrim | whitespaceOnly | lineStartAlone
            | ideographicSpaceOnly
    }

    enum Code {
        static let special: UInt8 = 0x80
        static let breakable: UInt8 = 0x40
        static let trailMask: UInt8 = 0x3F
        /// Trailing widths beyond the table live in the special list.
        static let trailOverflow: UInt8 = 0x3F
    }

    /// Unit attributes in the palette.
    enum Attribute {
        static let graphemeStart: UInt8 = 1
        /// Bits 1–2: 0 content, 1 space, 2 tab, 3 newline or U+3000 (the last three hang at a
        /// line end).
        static let kindMask: UInt8 = 0b110
        static let space: UInt8 = 1 << 1, tab: UInt8 = 2 << 1, newline: UInt8 = 3 << 1
        /// A HarfBuzz cluster starts at the unit (units no glyph run covers count as starts).
        static let clusterStart: UInt8 = 1 << 3
        /// The unit is a soft hyphen (U+00AD).
        static let softHyphen: UInt8 = 1 << 4
        /// The unit is the ideographic space U+3000 (kind newline: it hangs, but is no newline).
        static let ideographicSpace: UInt8 = 1 << 5
        /// A line starting at the unit after an overflow-wrap split has no break after its
        /// grapheme (``BreakOpportunities/lineStartJoins(_:segmentEnds:contentEnds:graphemeStartBits:language:)``).
        static let joinsAtLineStart: UInt8 = 1 << 6
        /// An Arabic-script letter joined to the letter before it: HarfBuzz flags the break
        /// before it unsafe (`ArabicJoining.joinsLetterBefore`, `rightToLeftJoinedBreak`).
        static let joinedToPrevious: UInt8 = 1 << 7
    }

    /// Header flag bits.
    enum HeaderFlag {
        static let tallerLines: UInt16 = 1
        static let wideEnds: UInt16 = 2
        static let extras: UInt16 = 4
        /// The extras hold bidi level runs (`BidiItemRounding`): line starts need them.
        static let bidiRuns: UInt16 = 8
        /// A class run applies to a line trimmed at its unit (``lineEndClass``): only then does a
        /// line's box look at how its end was trimmed (most texts have none, and re-measuring
        /// skips that look).
        static let lineEndClasses: UInt16 = 16
        /// The extras list line starts inside a dictionary-script run from which ICU finds the
        /// rest of the run's words otherwise (`refoundDictionaryBreaks(at:)`): the plain loops,
        /// which never look at line starts, do not apply.
        static let refoundLineStarts: UInt16 = 32
        /// The extras are only kerning pairs: their header is one UInt32 (count << 8 | packing)
        /// instead of eight Int32 counts (``ExtrasCounts/isKernsOnly``).
        static let kernsOnly: UInt16 = 64
        /// Kerning tied a segment's start to the text before it (a kerning pair recorded at a
        /// segment start, ``LineEndKerning``): a line starting there may fit by Chromium's
        /// rounded positions rather than its width (`unsafeLineStartFits`), which the plain
        /// loops do not look at — such blocks take the general loop.
        static let kernedSegmentStarts: UInt16 = 128
    }

    /// Sizes of the extras part (all 0: no extras part).
    struct ExtrasCounts: Equatable {
        var kerns = 0, alone = 0, ranges = 0, text = 0, language = 0, bidiRuns = 0, refound = 0
        /// How the kerning pairs are stored (``KernPacking``): 0, 8 bytes a pair; else 4 bytes,
        /// this many low bits for the growth.
        var kernPacking = 0
        var isEmpty: Bool {
            kerns == 0 && alone == 0 && ranges == 0 && text == 0 && language == 0 && bidiRuns == 0 && refound == 0
        }
        /// Only kerning pairs (the common case: a letter kerned against the next one), fewer than
        /// 2^24: the extras' header is then the short one (``Offsets/kernsOnlyHeaderSize``).
        var isKernsOnly: Bool {
            kerns > 0 && kerns < 1 << 24 && alone == 0 && ranges == 0 && text == 0 && language == 0 && bidiRuns == 0 && refound == 0
        }
        /// Bytes of one stored kerning pair.
        var kernPairSize: Int { kernPacking == 0 ? 8 : 4 }
    }

    /// How a text's (unit, growth 16.16 px) kerning pairs are stored: 4 bytes a pair — a UInt32
    /// with the unit in its high bits and the growth, signed, in its low `bits` bits — when the
    /// last pair's unit and every growth fit in 32 bits together, else 8 (two Int32s). A text
    /// of fewer than 1,024 units (a caption) leaves the growth 22 bits or more (±32 px), one of
    /// up to 65,535 units 16 (±0.5 px), one of 2^24 units 7: what does not fit falls back.
    enum KernPacking {
        /// The growth's bits for `kerns` (flat (unit, growth) pairs by unit), or 0 (8-byte pairs).
        static func bits(_ kerns: UnsafeBufferPointer<Int32>) -> Int {
            guard kerns.count >= 2 else { return 0 }
            var lastUnit = 0, magnitude = 0
            for k in stride(from: 0, to: kerns.count - 1, by: 2) {
                let unit = Int(kerns[k]), growth = Int(kerns[k + 1])
                guard unit >= 0 else { return 0 }
                lastUnit = max(lastUnit, unit)
                magnitude |= growth < 0 ? ~growth : growth
            }
            let unitBits = max(1, Int.bitWidth - lastUnit.leadingZeroBitCount)
            let growthBits = Int.bitWidth - magnitude.leadingZeroBitCount + 1
            return unitBits + growthBits <= 32 ? 32 - unitBits : 0
        }

        /// Pair (`unit`, `growth`) packed with `bits` growth bits.
        @inline(__always) static func pack(_ unit: Int32, _ growth: Int32, bits: Int) -> UInt32 {
            UInt32(bitPattern: unit) &<< UInt32(bits) | UInt32(bitPattern: growth) & (UInt32.max &>> UInt32(32 - bits))
        }

        @inline(__always) static func unit(_ packed: UInt32, bits: Int) -> Int { Int(packed &>> UInt32(bits)) }

        @inline(__always) static func growth(_ packed: UInt32, bits: Int) -> Int32 {
            Int32(bitPattern: packed &<< UInt32(32 - bits)) &>> Int32(32 - bits)
        }
    }

    /// Where each part of a block starts, computed from the header's counts: from the block
    /// start, the cold part's at `cold` (by default right after the hot part).
    struct Offsets {
        var codes = 0, trail = 0, hotEnd = 0, cold = 0
        var ends = 0, specials = 0, boxes = 0, classes = 0, palette = 0, attributes = 0, units = 0, end = 0
        var extras = 0, kerns = 0, alone = 0, ranges = 0, refound = 0, text = 0, language = 0, bidiRuns = 0

        init(segments n: Int, trail t: Int, wideEnds: Bool, specials s: Int, boxes b: Int, classRuns r: Int, palette p: Int,
             unitCount u: Int, unitBits w: Int, extras x: ExtrasCounts = ExtrasCounts(), cold: Int? = nil) {
            codes = headerSize + 4 * n
            trail = Self.align(codes + n, 4)
            hotEnd = Self.align(trail + 4 * t, 8)
            // The cold part is 8-byte aligned wherever it lies, so aligning offsets inside it
            // from the block start aligns them in memory too.
            self.cold = cold ?? hotEnd
            ends = self.cold + coldHeaderSize
            specials = Self.align(ends + (wideEnds ? 4 : 2) * n, 4)
            let tallerLines = specials + 16 * s
            boxes = b > 0 ? Self.tallerLineBoxes(after: tallerLines) : tallerLines
            classes = boxes + 16 * b
            palette = classes + 8 * r
            attributes = palette + 4 * p
            units = attributes + p
            end = Self.align(units + (u * w + 7) / 8 + 7, 8)
            extras = end
            if !x.isEmpty {
                bidiRuns = extras + (x.isKernsOnly ? Self.kernsOnlyHeaderSize : Self.extrasHeaderSize)
                kerns = bidiRuns + 4 * BidiItemRounding.recordSize * x.bidiRuns
                alone = kerns + x.kernPairSize * x.kerns
                ranges = alone + 12 * x.alone
                refound = ranges + 8 * x.ranges
                text = refound + 4 * x.refound
                language = text + 2 * x.text
                end = Self.align(language + x.language, 8)
            }
        }

        @inline(__always) static func align(_ x: Int, _ a: Int) -> Int { (x + a - 1) & ~(a - 1) }

        /// The extras part's counts (eight Int32s: kerns, alone, ranges, text, language, bidi
        /// runs, refound line starts, the kerning pairs' packing).
        static var extrasHeaderSize: Int { 32 }
        /// The extras part's header when it holds only kerning pairs (``HeaderFlag/kernsOnly``):
        /// one UInt32, count << 8 | packing.
        static var kernsOnlyHeaderSize: Int { 4 }

        /// Where a taller-line part starting at `start` (just after the specials) has its boxes:
        /// after its two Int32 counts, 8-byte aligned (they are `Float64`s); the counts lie just
        /// before the boxes.
        @inline(__always) static func tallerLineBoxes(after start: Int) -> Int { align(start + 8, 8) }

        /// Bytes of the hot part (8-byte aligned) and of the cold part.
        var hotByteCount: Int { hotEnd }
        var coldByteCount: Int { end - cold }
    }

    /// One special segment.
    struct Special {
        var segment: Int32
        var trailing: Int32
        var trimAmount: Int32
        var flags: UInt8
    }

    // MARK: - Writing

    /// What a builder hands over: the analysed paragraph as parallel arrays.
    struct Input {
        var units: UnsafeBufferPointer<UInt16>
        var unitAdvances: UnsafeBufferPointer<Int32>
        var graphemeStartBits: UnsafeBufferPointer<UInt64>
        /// Units where a HarfBuzz cluster starts inside a glyph run (bit per unit).
        var clusterInnerBits: UnsafeBufferPointer<UInt64>
        /// (unit, growth 16.16 px) pairs, flat, by unit (``LineEndKerning``).
        var kerns: UnsafeBufferPointer<Int32>
        /// (from, to, width 16.16 px) triples, flat, by `from` then `to` (``ClusterSplit``).
        var alone: UnsafeBufferPointer<Int32>
        /// (start, last, width, pad, tail, segment) records, flat, by unit (`BidiItemRounding.records`).
        var bidiRuns: UnsafeBufferPointer<Int32>
        /// The content language (ICU's line breaking of dictionary scripts from a line start).
        var language: String?
        var segmentEnds: UnsafeBufferPointer<Int32>
        var contentEnds: UnsafeBufferPointer<Int32>
        var widths: UnsafeBufferPointer<Int32>
        var spaceWidths: UnsafeBufferPointer<Int32>
        var flags: UnsafeBufferPointer<UInt8>
        var endTrimSegments: UnsafeBufferPointer<Int32>
        var endTrimAmounts: UnsafeBufferPointer<Int32>
        /// Taller-line texts only: each font class's room above and below the baseline (class
        /// 0: the primary font), and where the class changes (first unit, class), from unit 0.
        var classMetrics: [(above: Double, below: Double)]
        var classRuns: [(start: Int32, cls: Int32)]
        var lineHeight: Double
        var hyphenWidth: Int32, ellipsisWidth: Int32, spaceWidth: Int32
        var singleLineWidth: Int64
        /// False when the builder found no unit of a dictionary-segmented script in the text
        /// (``DictionaryScripts``): the planner then skips its own scan for one.
        var mayHoldDictionaryScript = true
    }

    /// Sizes a block, then writes it. Its arrays are kept from one text to the next (one
    /// planner per thread, in ``PrepareScratch``), so planning allocates nothing once warm.
    struct Planner {
        var offsets = Offsets(segments: 0, trail: 0, wideEnds: false, specials: 0, boxes: 0, classRuns: 0, palette: 0, unitCount: 0, unitBits: 1)
        var trailTable: [Int32] = []
        var specials: [Special] = []
        /// The palette's keys (advance in the low 32 bits, attributes above), in order of first
        /// occurrence: the first ``paletteCount`` are this text's (the array is only lengthened).
        var paletteKeys: [UInt64] = []
        var paletteCount = 0
        /// Each unit's palette index (the first `u`).
        var unitCodes: [UInt32] = []
        /// Each unit's key (the first `u`; scratch between the palette's two passes).
        var unitKeys: [UInt64] = []
        var unitBits = 1
        var wideEnds = false
        var extras = ExtrasCounts()
        /// Dictionary-script ranges (start, end, flat) and their text.
        var dictionaryRanges: [Int32] = []
        var dictionaryText: [UInt16] = []
        var languageBytes: [UInt8] = []
        /// Line starts inside dictionary-script runs from which ICU finds other words
        /// (``View/refoundDictionaryBreaks(at:)``), ascending.
        var refoundStarts: [Int32] = []
        /// ICU's breaks of a rest of a run (reused).
        var refoundBreaks: [Int32] = []
        /// ICU's breaks of recent rests, by their text (`RestBreakMemo`).
        var restBreaks = RestBreakMemo()
        var map = PaletteMap()
        var byteCount: Int { offsets.hotByteCount + offsets.coldByteCount }

        /// Plans the block for `input`; ``byteCount`` is then its size.
        mutating func plan(_ input: Input) {
            let n = input.widths.count, u = input.units.count
            // Distinct hanging widths (entry 0 is 0), and the special segments. The arrays are
            // emptied without `removeAll(keepingCapacity:)` where that is cheaper: it runs the
            // generic `replaceSubrange` (~80 instructions), even on an empty array.
            while trailTable.count > 1 { trailTable.removeLast() }
            if trailTable.isEmpty { trailTable.append(0) }
            Self.empty(&specials)
            var trimIndex = 0
            for i in 0..<n {
                let f = input.flags[i]
                let w = input.spaceWidths[i]
                var inTable = true
                if w != 0 && !trailTable.contains(w) {
                    if trailTable.count < Int(Code.trailOverflow) { trailTable.append(w) } else { inTable = false }
                }
                if f & Flag.specialMask != 0 || !inTable {
                    var amount: Int32 = 0
                    if f & Flag.endTrim != 0 {
                        while trimIndex < input.endTrimSegments.count && Int(input.endTrimSegments[trimIndex]) < i { trimIndex += 1 }
                        if trimIndex < input.endTrimSegments.count && Int(input.endTrimSegments[trimIndex]) == i {
                            amount = input.endTrimAmounts[trimIndex]
                        }
                    }
                    specials.append(Special(segment: Int32(i), trailing: w, trimAmount: amount, flags: f & Flag.specialMask))
                }
            }
            // The unit palette, in two passes over the units (one loop doing both held more
            // values than registers: a third of its instructions were spills and reloads).
            // First each unit's key, its advance and attributes (`unitKeys`); then each key's
            // palette index, in order of first occurrence (`unitCodes`, `paletteKeys`). The
            // arrays are moved out of `self` while the loops write them through pointers, and
            // only ever lengthened: the first `u` (keys, codes) and the first `paletteCount`
            // entries are read, every one of them written for this text.
            var map = self.map, keys = unitKeys, codes = unitCodes, paletteOut = paletteKeys
            self.map = PaletteMap(); unitKeys = []; unitCodes = []; paletteKeys = []
            defer { self.map = map; unitKeys = keys; unitCodes = codes; paletteKeys = paletteOut }
            if keys.count < u { keys.append(contentsOf: repeatElement(0, count: u - keys.count)) }
            if codes.count < u { codes.append(contentsOf: repeatElement(0, count: u - codes.count)) }
            if paletteOut.count < u { paletteOut.append(contentsOf: repeatElement(0, count: u - paletteOut.count)) }
            let joins = BreakOpportunities.lineStartJoins(input.units, segmentEnds: input.segmentEnds, contentEnds: input.contentEnds,
                                                          graphemeStartBits: input.graphemeStartBits, language: input.language)
            map.reset(paletteOut, count: paletteCount)
            var count = 0
            if u > 0 {
                keys.withUnsafeMutableBufferPointer { keys in
                    Self.unitKeys(input.units, advances: input.unitAdvances, graphemeStartBits: input.graphemeStartBits,
                                  clusterInnerBits: input.clusterInnerBits, into: keys.baseAddress!)
                    for j in joins { keys[Int(j)] |= UInt64(Attribute.joinsAtLineStart) << 32 }
                }
                keys.withUnsafeBufferPointer { keys in
                    codes.withUnsafeMutableBufferPointer { codes in
                        paletteOut.withUnsafeMutableBufferPointer { palette in
                            count = map.assign(keys.baseAddress!, count: u, codes: codes.baseAddress!, palette: palette.baseAddress!)
                        }
                    }
                }
            }
            paletteCount = count
            unitBits = count <= 1 ? 1 : Int.bitWidth - (count - 1).leadingZeroBitCount
            wideEnds = u > Int(UInt16.max)
            planDictionaryText(input)
            extras = ExtrasCounts(kerns: input.kerns.count / 2, alone: input.alone.count / 3, ranges: dictionaryRanges.count / 2,
                                  text: dictionaryText.count, language: dictionaryRanges.isEmpty ? 0 : languageBytes.count,
                                  bidiRuns: input.bidiRuns.count / BidiItemRounding.recordSize, refound: refoundStarts.count,
                                  kernPacking: KernPacking.bits(input.kerns))
            offsets = Offsets(segments: n, trail: trailTable.count, wideEnds: wideEnds, specials: specials.count,
                              boxes: input.classMetrics.count, classRuns: input.classRuns.count,
                              palette: paletteCount, unitCount: u, unitBits: unitBits, extras: extras)
        }

        /// Each unit's palette key: its advance (16.16 px, the low 32 bits) and its attributes
        /// above it — grapheme start, cluster start, white-space kind, soft hyphen, U+3000,
        /// Arabic joining (the caller adds the line-start joins) at `out`. 64 units at a time, their
        /// grapheme-start and cluster-inner bits shifted a bit a unit; an ASCII unit's
        /// white-space kind from a table, without a branch on it (a space every few units is no
        /// pattern a branch predictor learns); the rarer attributes out of line
        /// (``rareAttributes(_:_:)``).
        static func unitKeys(_ units: UnsafeBufferPointer<UInt16>, advances: UnsafeBufferPointer<Int32>,
                             graphemeStartBits bits: UnsafeBufferPointer<UInt64>, clusterInnerBits inner: UnsafeBufferPointer<UInt64>,
                             into out: UnsafeMutablePointer<UInt64>) {
            let u = units.count
            asciiKinds.withUnsafeBufferPointer { kinds in
                var start = 0
                while start < u {
                    let stop = min(u, start + 64)
                    var graphemeWord = bits[start >> 6], clusterWord = ~inner[start >> 6]
                    for k in start..<stop {
                        let unit = units[k]
                        var a = UInt8(truncatingIfNeeded: graphemeWord & 1) | UInt8(truncatingIfNeeded: clusterWord & 1) << 3
                        graphemeWord >>= 1
                        clusterWord >>= 1
                        if unit < 0x80 {
                            a |= kinds[Int(unit)]
                        } else if unit == 0xAD || unit == 0x3000 || unit &- 0x0620 < 0x02E0 {
                            a |= Self.rareAttributes(units, k)
                        }
                        out[k] = UInt64(UInt32(bitPattern: advances[k])) | UInt64(a) << 32
                    }
                    start = stop
                }
            }
        }

        /// ``rareAttributes(_:_:)`` of each ASCII unit (the white-space kinds of space, tab and
        /// newline), read without a branch: a compare for the space, a unit in every five or so
        /// of a Latin text, missed a predictor's guess at each.
        static let asciiKinds: [UInt8] = (0..<128).map { unit in
            [UInt16(unit)].withUnsafeBufferPointer { rareAttributes($0, 0) }
        }

        /// The attributes of the unit at `k` besides its grapheme and cluster starts and line-start
        /// join: white-space kind, soft hyphen, ideographic space, Arabic joining. Out of the
        /// key loop (``unitKeys(_:into:)``), which calls it only for units below U+0020, U+00AD,
        /// U+3000 and Arabic letters (what it keeps in registers decides the loop's cost).
        @inline(never) static func rareAttributes(_ units: UnsafeBufferPointer<UInt16>, _ k: Int) -> UInt8 {
            let unit = units[k]
            var a: UInt8 = 0
            if unit <= 0x20 {
                switch unit {
                case 0x20: a |= Attribute.space
                case 0x09: a |= Attribute.tab
                case 0x0A: a |= Attribute.newline
                default: break
                }
            } else if unit == 0xAD {
                a |= Attribute.softHyphen
            } else if unit == 0x3000 {
                a |= Attribute.newline | Attribute.ideographicSpace
            }
            if unit &- 0x0620 < 0x02E0 && ArabicJoining.joinsLetterBefore(units, k) { a |= Attribute.joinedToPrevious }
            return a
        }

        /// Empties `array`, keeping its capacity; nothing to do (and no call) for an empty one,
        /// as most of these arrays are for most texts.
        @inline(__always) static func empty<T>(_ array: inout [T]) {
            if !array.isEmpty { array.removeAll(keepingCapacity: true) }
        }

        /// The text ranges of dictionary-segmented scripts a line may start inside: each maximal
        /// run of such letters and marks, extended to the break at or after its end (what ICU
        /// is run over again from a line start, ``View/dictionaryBreaks(from:)``); overlapping
        /// ranges merge.
        mutating func planDictionaryText(_ input: Input) {
            Self.empty(&dictionaryRanges)
            Self.empty(&dictionaryText)
            Self.empty(&languageBytes)
            Self.empty(&refoundStarts)
            guard input.mayHoldDictionaryScript else { return }
            let units = input.units, ends = input.segmentEnds
            var k = 0, segment = 0
            while k < units.count {
                // (Most text has no unit in the dictionary scripts' span at all.)
                let unit = units[k]
                guard unit >= 0x0E00 && unit <= 0xAA7F && DictionaryScripts.contains(unit) else { k += 1; continue }
                var p = k
                while p < units.count && (DictionaryScripts.contains(units[p]) || DictionaryScripts.isMark(units[p])) { p += 1 }
                while segment < ends.count && Int(ends[segment]) < p { segment += 1 }
                let end = segment < ends.count ? Int(ends[segment]) : units.count
                planRefoundStarts(run: k..<p, breakEnd: end, lastSegment: segment, input)
                let n = dictionaryRanges.count
                if n > 0 && Int(dictionaryRanges[n - 1]) >= k {
                    dictionaryRanges[n - 1] = Int32(end)
                } else {
                    dictionaryRanges.append(Int32(k))
                    dictionaryRanges.append(Int32(end))
                }
                k = max(p, k + 1)
            }
            guard !dictionaryRanges.isEmpty else { return }
            for r in stride(from: 0, to: dictionaryRanges.count, by: 2) {
                dictionaryText.append(contentsOf: units[Int(dictionaryRanges[r])..<Int(dictionaryRanges[r + 1])])
            }
            languageBytes = Array((input.language ?? "").utf8.prefix(255))
        }

        /// The line starts inside the letter run `run` (its last break at or after it: `breakEnd`,
        /// the end of segment `lastSegment`) from which ICU, run again on the rest up to
        /// `breakEnd` as Chromium runs it from a line start, finds other breaks than the stored
        /// ones. Only starts whose rest of the run is short are asked about
        /// (``View/refoundRestLimit``, see ``View/refoundDictionaryBreaks(at:)``).
        mutating func planRefoundStarts(run: Range<Int>, breakEnd: Int, lastSegment: Int, _ input: Input) {
            let units = input.units, ends = input.segmentEnds
            // Segment ends inside the run with a break inside the rest after them (only such a
            // rest can be broken otherwise), from the run's end back to the limit.
            var j = min(lastSegment, ends.count) - 2
            while j >= 0 && Int(ends[j]) > run.lowerBound && run.upperBound - Int(ends[j]) <= MetricsBlock.View.refoundRestLimit {
                j -= 1
            }
            j += 1
            while j + 1 < ends.count && Int(ends[j + 1]) < run.upperBound {
                let p = Int(ends[j])
                if DictionaryScripts.contains(units[p]) {
                    // The stored breaks after p up to the run's last break, against ICU's from p
                    // (which always ends at `breakEnd`, the rest's end); ICU's answer for a short
                    // rest is remembered (`RestBreakMemo`), as a mask (bit e: a break e units in).
                    let rest = UnsafeBufferPointer(rebasing: units[p..<breakEnd])
                    var stored = j + 1
                    var same = true
                    var asked = true
                    if rest.count <= RestBreakMemo.maximumLength {
                        if var mask = restBreaks.breaks(of: rest, language: input.language, scratch: &refoundBreaks) {
                            while mask != 0 {
                                let e = mask.trailingZeroBitCount
                                mask &= mask - 1
                                if stored >= ends.count || Int(ends[stored]) != e + p { same = false; break }
                                stored += 1
                            }
                        } else {
                            asked = false
                        }
                    } else if (try? UnicodeAnalysis.lineBreaks(rest, language: input.language, into: &refoundBreaks)) != nil {
                        for e in refoundBreaks where e > 0 {
                            if stored >= ends.count || Int(ends[stored]) != Int(e) + p { same = false; break }
                            stored += 1
                        }
                    } else {
                        asked = false
                    }
                    if asked && !same { refoundStarts.append(Int32(p)) }
                }
                j += 1
            }
        }

        /// Writes the first `count` of `codes` (each below 2^`bits`, `bits` ≤ 32) at `out`, packed
        /// LSB first: code k at bits `k * bits` onwards. Four bytes at a time once 32 bits are
        /// filled (32 + 32 never overflow the accumulator), then the last bytes one by one: the
        /// bytes a byte-at-a-time loop writes, in the same order, and no byte after them.
        ///
        /// Up to the last few codes, without a branch on whether 32 bits are filled (at 5 or 6
        /// bits a code, no pattern a predictor learns: one miss in six codes): the four bytes at
        /// `byte` are stored every time, and `byte` moves when they are full. A store before
        /// they are full is overwritten by a later one, and stops 4 bytes short of the packed
        /// end (`safe`), so that every byte stored is one the exact loop after it stores again.
        static func pack(_ codes: [UInt32], count: Int, bits: Int, to out: UnsafeMutableRawPointer) {
            var acc: UInt64 = 0, filled: UInt64 = 0, byte = 0
            let width = UInt64(bits)
            codes.withUnsafeBufferPointer { codes in
                // Before code k, 8 · byte ≤ k · bits: the store ends below k · bits / 8 + 4, inside
                // the ⌈count · bits / 8⌉ bytes packed while (count − k) · bits ≥ 32 (with room to
                // spare below `safe`). `filled` stays below 64: `full` is its bit 5.
                let safe = count - (40 + bits - 1) / bits - 1
                var k = 0
                while k < safe {
                    acc |= UInt64(codes[k]) &<< filled
                    filled &+= width
                    out.storeBytes(of: UInt32(truncatingIfNeeded: acc).littleEndian, toByteOffset: byte, as: UInt32.self)
                    let full = filled &>> 5
                    acc = acc &>> (full &<< 5)
                    filled &-= full &<< 5
                    byte &+= Int(truncatingIfNeeded: full &<< 2)
                    k &+= 1
                }
                for k in max(0, k)..<count {
                    acc |= UInt64(codes[k]) &<< filled
                    filled &+= width
                    if filled >= 32 {
                        out.storeBytes(of: UInt32(truncatingIfNeeded: acc).littleEndian, toByteOffset: byte, as: UInt32.self)
                        acc &>>= 32
                        filled &-= 32
                        byte &+= 4
                    }
                }
            }
            while filled > 0 {
                out.storeBytes(of: UInt8(truncatingIfNeeded: acc), toByteOffset: byte, as: UInt8.self)
                acc &>>= 8
                filled = filled > 8 ? filled &- 8 : 0
                byte &+= 1
            }
        }

        /// Whether a tightening kerning pair (growth > 0) is recorded at the start of a segment
        /// but the first (`kerns`: (unit, growth) pairs by unit; segment `i + 1` starts at
        /// `segmentEnds[i]`).
        static func kernsAtSegmentStart(kerns: UnsafeBufferPointer<Int32>, segmentEnds: UnsafeBufferPointer<Int32>) -> Bool {
            var p = 0, j = 0
            while p + 1 < kerns.count && j < segmentEnds.count {
                let unit = kerns[p], end = segmentEnds[j]
                if unit < end { p += 2 } else if unit > end { j += 1 } else {
                    if kerns[p + 1] > 0 { return true }
                    p += 2
                }
            }
            return false
        }

        /// Writes the planned block at `base` (8-byte aligned, ``byteCount`` bytes, zeroed).
        /// (Reads the planner in place: a copy of it, `let plan = self`, retained and released
        /// its dozen arrays for every text.)
        func write(_ input: Input, to base: UnsafeMutableRawPointer) {
        let n = input.widths.count, u = input.units.count
        let o = self.offsets
        typealias H = HeaderOffset
        base.storeBytes(of: input.lineHeight, toByteOffset: H.lineHeight, as: Double.self)
        base.storeBytes(of: input.singleLineWidth, toByteOffset: H.singleLineWidth, as: Int64.self)
        base.storeBytes(of: Int32(n), toByteOffset: H.segmentCount, as: Int32.self)
        base.storeBytes(of: Int32(o.cold), toByteOffset: H.cold, as: Int32.self)
        base.storeBytes(of: Int32(self.specials.count), toByteOffset: H.specialCount, as: Int32.self)
        base.storeBytes(of: UInt8(self.trailTable.count), toByteOffset: H.trailCount, as: UInt8.self)
        base.storeBytes(of: UInt8(self.unitBits), toByteOffset: H.unitBits, as: UInt8.self)
        base.storeBytes(of: Int32(u), toByteOffset: o.cold + H.unitCount, as: Int32.self)
        base.storeBytes(of: input.hyphenWidth, toByteOffset: o.cold + H.hyphenWidth, as: Int32.self)
        base.storeBytes(of: input.ellipsisWidth, toByteOffset: o.cold + H.ellipsisWidth, as: Int32.self)
        base.storeBytes(of: input.spaceWidth, toByteOffset: o.cold + H.spaceWidth, as: Int32.self)
        base.storeBytes(of: Int32(self.paletteCount), toByteOffset: o.cold + H.paletteCount, as: Int32.self)
        if !input.classMetrics.isEmpty {
            base.storeBytes(of: Int32(input.classRuns.count), toByteOffset: o.boxes - 8, as: Int32.self)
            base.storeBytes(of: Int32(input.classMetrics.count), toByteOffset: o.boxes - 4, as: Int32.self)
        }
        var flags: UInt16 = 0
        if !input.classMetrics.isEmpty { flags |= HeaderFlag.tallerLines }
        if self.wideEnds { flags |= HeaderFlag.wideEnds }
        if !self.extras.isEmpty { flags |= HeaderFlag.extras }
        if self.extras.bidiRuns > 0 { flags |= HeaderFlag.bidiRuns }
        if self.extras.refound > 0 { flags |= HeaderFlag.refoundLineStarts }
        if !input.classMetrics.isEmpty && input.classRuns.contains(where: { $0.cls & MetricsBlock.lineEndClass != 0 }) {
            flags |= HeaderFlag.lineEndClasses
        }
        if Self.kernsAtSegmentStart(kerns: input.kerns, segmentEnds: input.segmentEnds) { flags |= HeaderFlag.kernedSegmentStarts }
        base.storeBytes(of: flags, toByteOffset: H.flags, as: UInt16.self)

        let widths = (base + headerSize).assumingMemoryBound(to: Int32.self)
        let codes = (base + o.codes).assumingMemoryBound(to: UInt8.self)
        var specialIndex = 0
        for i in 0..<n {
            widths[i] = input.widths[i]
            var code: UInt8 = input.flags[i] & Flag.breakable != 0 ? Code.breakable : 0
            let w = input.spaceWidths[i]
            let slot = self.trailTable.firstIndex(of: w).map(UInt8.init) ?? Code.trailOverflow
            code |= slot
            if specialIndex < self.specials.count && Int(self.specials[specialIndex].segment) == i {
                code |= Code.special
                specialIndex += 1
            }
            codes[i] = code
        }
        let trail = (base + o.trail).assumingMemoryBound(to: Int32.self)
        for (k, w) in self.trailTable.enumerated() { trail[k] = w }
        if self.wideEnds {
            let ends = (base + o.ends).assumingMemoryBound(to: Int32.self)
            for i in 0..<n { ends[i] = input.segmentEnds[i] }
        } else {
            let ends = (base + o.ends).assumingMemoryBound(to: UInt16.self)
            for i in 0..<n { ends[i] = UInt16(input.segmentEnds[i]) }
        }
        for (k, s) in self.specials.enumerated() {
            let p = base + o.specials + 16 * k
            p.storeBytes(of: s.segment, as: Int32.self)
            p.storeBytes(of: s.trailing, toByteOffset: 4, as: Int32.self)
            p.storeBytes(of: s.trimAmount, toByteOffset: 8, as: Int32.self)
            p.storeBytes(of: s.flags, toByteOffset: 12, as: UInt8.self)
        }
        for (k, m) in input.classMetrics.enumerated() {
            (base + o.boxes + 16 * k).storeBytes(of: m.above, as: Double.self)
            (base + o.boxes + 16 * k + 8).storeBytes(of: m.below, as: Double.self)
        }
        for (k, r) in input.classRuns.enumerated() {
            (base + o.classes + 8 * k).storeBytes(of: r.start, as: Int32.self)
            (base + o.classes + 8 * k + 4).storeBytes(of: r.cls, as: Int32.self)
        }
        let palette = (base + o.palette).assumingMemoryBound(to: Int32.self)
        let attributes = (base + o.attributes).assumingMemoryBound(to: UInt8.self)
        self.paletteKeys.withUnsafeBufferPointer { keys in
            for k in 0..<self.paletteCount {
                palette[k] = Int32(truncatingIfNeeded: keys[k])
                attributes[k] = UInt8(truncatingIfNeeded: keys[k] >> 32)
            }
        }
        Self.pack(self.unitCodes, count: u, bits: self.unitBits, to: base + o.units)
        // After the header flags are stored: it adds `kernsOnly` to them.
        if !self.extras.isEmpty { self.writeExtras(input, to: base) }
        }
    }

    // MARK: - Reading

    /// A block read in place. Holds raw pointers: valid only while the block's owner lives
    /// (callers keep it alive with `withExtendedLifetime`).
    struct View {
        let base: UnsafeRawPointer
        let segmentCount: Int
        let headerFlags: UInt16
        /// Where `codes` and `trail` start (what the common case reads; the other parts'
        /// offsets are computed when needed), and the cold part (from the block start).
        let codesOffset: Int, trailOffset: Int, coldOffset: Int

        /// Reads the hot header only (the common case never touches the cold part).
        @inline(__always) init(_ base: UnsafeRawPointer) {
            self.base = base
            let n = Int(base.load(fromByteOffset: HeaderOffset.segmentCount, as: Int32.self))
            segmentCount = n
            headerFlags = base.load(fromByteOffset: HeaderOffset.flags, as: UInt16.self)
            coldOffset = Int(base.load(fromByteOffset: HeaderOffset.cold, as: Int32.self))
            codesOffset = headerSize &+ 4 &* n
            trailOffset = (codesOffset &+ n &+ 3) & ~3
        }

        var unitCount: Int { Int(base.load(fromByteOffset: coldOffset + HeaderOffset.unitCount, as: Int32.self)) }
        var trailCount: Int { Int(base.load(fromByteOffset: HeaderOffset.trailCount, as: UInt8.self)) }
        var unitBits: Int { Int(base.load(fromByteOffset: HeaderOffset.unitBits, as: UInt8.self)) }
        var paletteCount: Int { Int(base.load(fromByteOffset: coldOffset + HeaderOffset.paletteCount, as: Int32.self)) }
        var endsOffset: Int { coldOffset + coldHeaderSize }
        var wideEnds: Bool { headerFlags & HeaderFlag.wideEnds != 0 }

        /// Every part's offset.
        var offsets: Offsets { offsets(extras: extrasCounts) }

        /// The extras part's counts (all 0 without one).
        var extrasCounts: ExtrasCounts {
            guard headerFlags & HeaderFlag.extras != 0 else { return ExtrasCounts() }
            // The extras part's counts open it; its offset does not depend on them.
            let e = offsets(extras: ExtrasCounts()).extras
            if headerFlags & HeaderFlag.kernsOnly != 0 {
                let h = base.load(fromByteOffset: e, as: UInt32.self)
                return ExtrasCounts(kerns: Int(h >> 8), kernPacking: Int(h & 0xFF))
            }
            func count(_ k: Int) -> Int { Int(base.load(fromByteOffset: e + 4 * k, as: Int32.self)) }
            return ExtrasCounts(kerns: count(0), alone: count(1), ranges: count(2), text: count(3),
                                language: count(4), bidiRuns: count(5), refound: count(6), kernPacking: count(7))
        }

        /// The offsets from the header's counts and the extras part's `counts`.
        @inline(__always) private func offsets(extras counts: ExtrasCounts) -> Offsets {
            let n = segmentCount, s = specialCount
            var r = 0, b = 0
            if headerFlags & HeaderFlag.tallerLines != 0 {
                // The taller-line part follows the specials: its two counts first.
                let specials = Offsets.align(endsOffset + (wideEnds ? 4 : 2) * n, 4)
                let section = Offsets.tallerLineBoxes(after: specials + 16 * s) - 8
                r = Int(base.load(fromByteOffset: section, as: Int32.self))
                b = Int(base.load(fromByteOffset: section + 4, as: Int32.self))
            }
            return Offsets(segments: n, trail: trailCount, wideEnds: wideEnds, specials: s, boxes: b, classRuns: r,
                           palette: paletteCount, unitCount: unitCount, unitBits: unitBits, extras: counts, cold: coldOffset)
        }

        /// The stored bidi level runs (`BidiItemRounding.records`; empty without direction
        /// changes). They open the extras part, so only the offsets before it are computed.
        var bidiRunTable: BidiRunTable {
            guard headerFlags & HeaderFlag.bidiRuns != 0 else { return BidiRunTable(base: base, count: 0) }
            let e = offsets(extras: ExtrasCounts()).extras
            return BidiRunTable(base: base + e + Offsets.extrasHeaderSize, count: Int(base.load(fromByteOffset: e + 20, as: Int32.self)))
        }

        /// The extras part (empty when the block has none).
        var extras: ExtrasReader {
            guard headerFlags & HeaderFlag.extras != 0 else { return ExtrasReader(base: base, offsets: nil, counts: ExtrasCounts()) }
            let counts = extrasCounts
            return ExtrasReader(base: base, offsets: offsets(extras: counts), counts: counts)
        }

        /// Bytes of the block: its hot and cold parts (contiguous or not).
        var byteCount: Int {
            let o = offsets
            return o.hotByteCount + o.coldByteCount
        }

        /// Copies the block: its hot part to `hot` and its cold part to `cold` (both 8-byte
        /// aligned; `cold` may directly follow the hot part or lie anywhere else), and sets the
        /// copy's cold offset. Returns the bytes written to each.
        @discardableResult
        func copy(hotTo hot: UnsafeMutableRawPointer, coldTo cold: UnsafeMutableRawPointer) -> (hot: Int, cold: Int) {
            let o = offsets
            hot.copyMemory(from: base, byteCount: o.hotByteCount)
            cold.copyMemory(from: base + o.cold, byteCount: o.coldByteCount)
            let distance = cold - hot
            precondition(distance & 7 == 0 && distance >= Int(Int32.min) && distance <= Int(Int32.max),
                         "a measuring form's cold part must lie within 2 GB, 8-byte aligned")
            hot.storeBytes(of: Int32(distance), toByteOffset: HeaderOffset.cold, as: Int32.self)
            return (o.hotByteCount, o.coldByteCount)
        }

        var lineHeight: Double { base.load(fromByteOffset: HeaderOffset.lineHeight, as: Double.self) }
        var singleLineWidth: Int64 { base.load(fromByteOffset: HeaderOffset.singleLineWidth, as: Int64.self) }
        var hyphenWidth: Int32 { base.load(fromByteOffset: coldOffset + HeaderOffset.hyphenWidth, as: Int32.self) }
        var ellipsisWidth: Int32 { base.load(fromByteOffset: coldOffset + HeaderOffset.ellipsisWidth, as: Int32.self) }
        var spaceWidth: Int32 { base.load(fromByteOffset: coldOffset + HeaderOffset.spaceWidth, as: Int32.self) }
        var specialCount: Int { Int(base.load(fromByteOffset: HeaderOffset.specialCount, as: Int32.self)) }
        var hasTallerLines: Bool { headerFlags & HeaderFlag.tallerLines != 0 }
        /// The block lists line starts that find dictionary words again (``HeaderFlag/refoundLineStarts``).
        var hasRefoundLineStarts: Bool { headerFlags & HeaderFlag.refoundLineStarts != 0 }
        var hasKernedSegmentStarts: Bool { headerFlags & HeaderFlag.kernedSegmentStarts != 0 }

        var widths: UnsafePointer<Int32> { (base + headerSize).assumingMemoryBound(to: Int32.self) }
        var codes: UnsafePointer<UInt8> { (base + codesOffset).assumingMemoryBound(to: UInt8.self) }
        var trail: UnsafePointer<Int32> { (base + trailOffset).assumingMemoryBound(to: Int32.self) }

        /// End unit of segment `i`.
        @inline(__always) func end(_ i: Int) -> Int32 {
            wideEnds ? base.load(fromByteOffset: endsOffset + 4 * i, as: Int32.self)
                : Int32(base.load(fromByteOffset: endsOffset + 2 * i, as: UInt16.self))
        }
        @inline(__always) func start(_ i: Int) -> Int32 { i == 0 ? 0 : end(i - 1) }

        /// The special record of segment `i`, which must be special.
        func special(_ i: Int) -> Special {
            // Where `offsets` puts the specials, without computing every other part's offset.
            let specials = Offsets.align(endsOffset + (wideEnds ? 4 : 2) * segmentCount, 4)
            var low = 0, high = specialCount
            while low < high {
                let mid = (low + high) / 2
                if Int(base.load(fromByteOffset: specials + 16 * mid, as: Int32.self)) < i { low = mid + 1 } else { high = mid }
            }
            let p = base + specials + 16 * low
            return Special(segment: p.load(as: Int32.self), trailing: p.load(fromByteOffset: 4, as: Int32.self),
                           trimAmount: p.load(fromByteOffset: 8, as: Int32.self), flags: p.load(fromByteOffset: 12, as: UInt8.self))
        }

        /// All flags of segment `i`.
        @inline(__always) func flags(_ i: Int) -> UInt8 {
            let code = codes[i]
            var f: UInt8 = code & Code.breakable != 0 ? Flag.breakable : 0
            if code & Code.special != 0 { f |= special(i).flags }
            return f
        }

        /// Width of segment `i`'s hanging white space.
        @inline(__always) func trailing(_ i: Int) -> Int64 {
            let code = codes[i]
            return Int64(code & Code.special != 0 ? special(i).trailing : trail[Int(code & Code.trailMask)])
        }

        /// Reads the per-unit part (offsets computed once: for loops over units).
        var units: UnitReader {
            let o = offsets
            let bits = unitBits
            return UnitReader(base: base, palette: o.palette, attributes: o.attributes, codes: o.units, bits: bits,
                              mask: bits >= 64 ? ~0 : (1 << UInt64(bits)) - 1)
        }

        @inline(__always) func advance(_ u: Int) -> Int64 { units.advance(u) }
        @inline(__always) func isGraphemeStart(_ u: Int) -> Bool { units.isGraphemeStart(u) }
        @inline(__always) func kind(_ u: Int) -> UInt8 { units.kind(u) }

        /// Where segment `i`'s content ends (before its hanging white space).
        func contentEnd(_ i: Int) -> Int {
            let units = self.units
            let start = Int(self.start(i))
            var e = Int(end(i))
            while e > start && units.isHanging(e - 1) { e -= 1 }
            return e
        }

        /// The font classes of a taller-line text: their room and where along the text each applies.
        var classes: ClassReader {
            let o = offsets
            let count = o.boxes == o.classes ? 0 : Int(base.load(fromByteOffset: o.boxes - 8, as: Int32.self))
            return ClassReader(base: base, boxes: o.boxes, runs: o.classes, runCount: count)
        }
    }

    /// The per-unit part of a block: palette advances and attributes by unit.
    struct UnitReader {
        let base: UnsafeRawPointer
        let palette: Int, attributes: Int, codes: Int, bits: Int
        let mask: UInt64

        /// Palette index of unit `u`.
        @inline(__always) func code(_ u: Int) -> Int {
            // A 64-bit load at the code's first byte holds all of it (codes are ≤ 32 bits, the
            // shift ≤ 7; the block has 7 bytes of padding after the codes).
            let bit = u &* bits
            let word = base.loadUnaligned(fromByteOffset: codes &+ (bit >> 3), as: UInt64.self)
            return Int(truncatingIfNeeded: (word >> UInt64(bit & 7)) & mask)
        }
        /// Advance credited to unit `u` (16.16 px).
        @inline(__always) func advance(_ u: Int) -> Int64 {
            Int64(base.load(fromByteOffset: palette + 4 * code(u), as: Int32.self))
        }
        @inline(__always) func attributes(_ u: Int) -> UInt8 {
            base.load(fromByteOffset: attributes + code(u), as: UInt8.self)
        }
        @inline(__always) func isGraphemeStart(_ u: Int) -> Bool { attributes(u) & Attribute.graphemeStart != 0 }
        /// Unit kind: 0 content, `Attribute.space`, `.tab` or `.newline`.
        @inline(__always) func kind(_ u: Int) -> UInt8 { attributes(u) & Attribute.kindMask }
        @inline(__always) func isHanging(_ u: Int) -> Bool { kind(u) != 0 }
        /// A HarfBuzz cluster starts at unit `u`.
        @inline(__always) func isClusterStart(_ u: Int) -> Bool { attributes(u) & Attribute.clusterStart != 0 }
        @inline(__always) func isSoftHyphen(_ u: Int) -> Bool { attributes(u) & Attribute.softHyphen != 0 }
        /// A line starting at `u` after an overflow-wrap split has no break after its grapheme.
        @inline(__always) func joinsAtLineStart(_ u: Int) -> Bool { attributes(u) & Attribute.joinsAtLineStart != 0 }
        /// Unit `u` is an Arabic-script letter joined to the letter before it (unsafe to break before).
        @inline(__always) func isJoinedToPrevious(_ u: Int) -> Bool { attributes(u) & Attribute.joinedToPrevious != 0 }
        /// A newline (not U+3000) or tab: it ends Chromium's shaping item in `pre-wrap`, so
        /// positions in the item count from after it (docs/CHROMIUM.md §2.6).
        @inline(__always) func endsItem(_ u: Int) -> Bool {
            let a = attributes(u)
            let kind = a & Attribute.kindMask
            return (kind == Attribute.newline && a & Attribute.ideographicSpace == 0) || kind == Attribute.tab
        }
        /// Space, tab or newline (not U+3000): where a soft-hyphenated word ends.
        @inline(__always) func endsWord(_ u: Int) -> Bool {
            let a = attributes(u)
            return a & Attribute.kindMask != 0 && a & Attribute.ideographicSpace == 0
        }
    }

    /// The stored bidi level runs (`BidiItemRounding.records`), read in place.
    struct BidiRunTable {
        let base: UnsafeRawPointer
        let count: Int

        @inline(__always) private func field(_ k: Int, _ f: Int) -> Int32 {
            base.load(fromByteOffset: 4 &* (BidiItemRounding.recordSize &* k &+ f), as: Int32.self)
        }

        /// The first run whose last unit is at or after `u`, with its `tail` (16.16 px) and
        /// whether its last unit is hanging white space; nil if none.
        func run(endingAtOrAfter u: Int) -> (run: BidiItemRounding.Run, tail: Int64, hanging: Bool)? {
            var low = 0, high = count
            while low < high {
                let mid = (low + high) / 2
                if Int(field(mid, 1)) < u { low = mid + 1 } else { high = mid }
            }
            guard low < count else { return nil }
            return self[low]
        }

        /// Run `k`, its `tail` (16.16 px) and whether its last unit is hanging white space.
        @inline(__always) subscript(k: Int) -> (run: BidiItemRounding.Run, tail: Int64, hanging: Bool) {
            let tail = field(k, 4)
            return (BidiItemRounding.Run(start: field(k, 0), last: field(k, 1), width: field(k, 2), pad: field(k, 3)),
                    Int64(tail & Int32.max), tail < 0)
        }

        /// The segment holding run `k`'s last unit.
        @inline(__always) func segment(_ k: Int) -> Int { Int(field(k, 5)) }

        /// The first segment at or after `i` that holds a run's last unit (`none` if none).
        func segmentEndingRun(atOrAfter i: Int, else none: Int) -> Int {
            var low = 0, high = count
            while low < high {
                let mid = (low + high) / 2
                if segment(mid) < i { low = mid + 1 } else { high = mid }
            }
            return low < count ? segment(low) : none
        }
    }

    /// The extras part of a block (``ExtrasCounts``): read only on the rare paths of line
    /// breaking (break-word inside a word).
    struct ExtrasReader {
        let base: UnsafeRawPointer
        let offsets: Offsets?
        let counts: ExtrasCounts

        private func int(_ offset: Int, _ k: Int) -> Int32 { base.load(fromByteOffset: offset + 4 * k, as: Int32.self) }

        /// Kerning pair `k`, packed in 4 bytes (``KernPacking``) or stored as two Int32s.
        @inline(__always) private func kerningPair(_ o: Offsets, _ k: Int) -> (unit: Int, growth: Int32) {
            let bits = counts.kernPacking
            if bits == 0 { return (Int(int(o.kerns, 2 * k)), int(o.kerns, 2 * k + 1)) }
            let p = base.load(fromByteOffset: o.kerns + 4 * k, as: UInt32.self)
            return (KernPacking.unit(p, bits: bits), KernPacking.growth(p, bits: bits))
        }

        /// The growth of a break-word line ending at unit `u` after a cluster kerned against the
        /// next one (0 if none).
        func kerningGrowth(at u: Int) -> Int64 {
            guard let o = offsets else { return 0 }
            var low = 0, high = counts.kerns
            while low < high {
                let mid = (low + high) / 2
                if kerningPair(o, mid).unit < u { low = mid + 1 } else { high = mid }
            }
            guard low < counts.kerns, case let pair = kerningPair(o, low), pair.unit == u else { return 0 }
            return Int64(pair.growth)
        }

        /// The width of units `a..<b` of one cluster shaped alone, if recorded.
        func aloneWidth(_ a: Int, _ b: Int) -> Int64? {
            guard let o = offsets else { return nil }
            var low = 0, high = counts.alone
            while low < high {
                let mid = (low + high) / 2
                let ma = Int(int(o.alone, 3 * mid)), mb = Int(int(o.alone, 3 * mid + 1))
                if ma < a || (ma == a && mb < b) { low = mid + 1 } else { high = mid }
            }
            guard low < counts.alone, Int(int(o.alone, 3 * low)) == a, Int(int(o.alone, 3 * low + 1)) == b else { return nil }
            return Int64(int(o.alone, 3 * low + 2))
        }

        /// The stored dictionary-script range holding unit `u`, and where its text starts in
        /// the stored text.
        func dictionaryRange(holding u: Int) -> (range: Range<Int>, textStart: Int)? {
            guard let o = offsets else { return nil }
            var textStart = 0
            for r in 0..<counts.ranges {
                let a = Int(int(o.ranges, 2 * r)), b = Int(int(o.ranges, 2 * r + 1))
                if a <= u && u < b { return (a..<b, textStart) }
                textStart += b - a
            }
            return nil
        }

        /// Whether a line starting at unit `p` finds the rest of its dictionary run's words
        /// otherwise than the stored breaks (``Planner/planRefoundStarts(run:breakEnd:lastSegment:_:)``).
        func isRefoundStart(_ p: Int) -> Bool {
            guard let o = offsets else { return false }
            var low = 0, high = counts.refound
            while low < high {
                let mid = (low + high) / 2
                if Int(int(o.refound, mid)) < p { low = mid + 1 } else { high = mid }
            }
            return low < counts.refound && Int(int(o.refound, low)) == p
        }

        /// The stored kerning pairs, (unit, growth) by unit (for tests and checks).
        var kerningPairs: [(unit: Int, growth: Int32)] {
            guard let o = offsets else { return [] }
            return (0..<counts.kerns).map { kerningPair(o, $0) }
        }

        /// Unit `k` of the stored dictionary text.
        func textUnit(_ k: Int) -> UInt16 { base.load(fromByteOffset: offsets!.text + 2 * k, as: UInt16.self) }

        /// The content language recorded with the dictionary text.
        var language: String? {
            guard let o = offsets, counts.language > 0 else { return nil }
            let bytes = UnsafeRawBufferPointer(start: base + o.language, count: counts.language)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The font-class part of a taller-line block.
    struct ClassReader {
        let base: UnsafeRawPointer
        let boxes: Int, runs: Int, runCount: Int

        /// Room above and below the baseline of font class `c`.
        @inline(__always) func metrics(_ c: Int) -> (above: Double, below: Double) {
            (base.load(fromByteOffset: boxes + 16 * c, as: Double.self), base.load(fromByteOffset: boxes + 16 * c + 8, as: Double.self))
        }
        /// Class run `k`: its first unit and font class.
        @inline(__always) func run(_ k: Int) -> (start: Int, cls: Int) {
            (Int(base.load(fromByteOffset: runs + 8 * k, as: Int32.self)), Int(base.load(fromByteOffset: runs + 8 * k + 4, as: Int32.self)))
        }
    }
}

extension MetricsBlock.Planner {
    /// Writes the planned extras part (``MetricsBlock/ExtrasCounts``) of the block at `base`,
    /// whose other parts ``write(_:to:)`` has written, and sets its `kernsOnly` header flag.
    func writeExtras(_ input: MetricsBlock.Input, to base: UnsafeMutableRawPointer) {
        let x = extras, o = offsets
        if x.isKernsOnly {
            let flags = base.load(fromByteOffset: MetricsBlock.HeaderOffset.flags, as: UInt16.self)
            base.storeBytes(of: flags | MetricsBlock.HeaderFlag.kernsOnly, toByteOffset: MetricsBlock.HeaderOffset.flags, as: UInt16.self)
            (base + o.extras).storeBytes(of: UInt32(x.kerns) << 8 | UInt32(x.kernPacking), as: UInt32.self)
        } else {
            for (k, c) in [x.kerns, x.alone, x.ranges, x.text, x.language, x.bidiRuns, x.refound, x.kernPacking].enumerated() {
                (base + o.extras + 4 * k).storeBytes(of: Int32(c), as: Int32.self)
            }
        }
        if x.kernPacking == 0 {
            for k in input.kerns.indices { (base + o.kerns + 4 * k).storeBytes(of: input.kerns[k], as: Int32.self) }
        } else {
            for k in 0..<x.kerns {
                let packed = MetricsBlock.KernPacking.pack(input.kerns[2 * k], input.kerns[2 * k + 1], bits: x.kernPacking)
                (base + o.kerns + 4 * k).storeBytes(of: packed, as: UInt32.self)
            }
        }
        for k in input.alone.indices { (base + o.alone + 4 * k).storeBytes(of: input.alone[k], as: Int32.self) }
        for (k, v) in dictionaryRanges.enumerated() { (base + o.ranges + 4 * k).storeBytes(of: v, as: Int32.self) }
        for (k, v) in refoundStarts.enumerated() { (base + o.refound + 4 * k).storeBytes(of: v, as: Int32.self) }
        for (k, v) in dictionaryText.enumerated() { (base + o.text + 2 * k).storeBytes(of: v, as: UInt16.self) }
        if x.language > 0 {
            for (k, v) in languageBytes.enumerated() { (base + o.language + k).storeBytes(of: v, as: UInt8.self) }
        }
        for k in input.bidiRuns.indices { (base + o.bidiRuns + 4 * k).storeBytes(of: input.bidiRuns[k], as: Int32.self) }
    }
}

/// ICU's line breaks of short texts (the rests of dictionary-script runs that
/// `Planner.planRefoundStarts` asks about), remembered by their text and language: a feed's
/// words repeat, and an ICU call costs ~6,500 instructions (1.9% of `rowkit heights` on real
/// rows went to them). ICU's answer depends only on the text and the language, so a
/// remembered one is the answer.
///
/// A direct-mapped table of 4,096 slots (one per thread's planner, 224 KB, made at the first
/// rest asked): a slot holds the text as the key packs it and `(count + 1) << 32 | mask`, 0
/// when empty; a newer text takes an older one's slot. (A `Dictionary` keyed by `Key` cost
/// ~950 instructions a lookup with its hashing and copies, a slot ~100.)
struct RestBreakMemo {
    /// Texts of at most this many units are remembered (a rest is at most
    /// `View.refoundRestLimit` units of the run plus what follows up to its break).
    static let maximumLength = 24
    /// Slots of the table (a power of two).
    static let slotCount = 4096
    /// 64-bit words a slot takes: the key's six words of text and the length and mask.
    static let slotWords = 7

    /// A text of up to `maximumLength` units, four to a word, and its length.
    struct Key: Hashable {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        var count: Int

        init(_ units: UnsafeBufferPointer<UInt16>) {
            count = units.count
            withUnsafeMutableBytes(of: &words) { raw in
                let out = raw.bindMemory(to: UInt16.self)
                for k in 0..<units.count { out[k] = units[k] }
            }
        }

        static func == (a: Key, b: Key) -> Bool {
            a.count == b.count && a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2
                && a.words.3 == b.words.3 && a.words.4 == b.words.4 && a.words.5 == b.words.5
        }

        /// The words and the length mixed into one value (`hash(into:)`, and the memo's slot).
        var mixed: UInt64 {
            words.0 &+ 0x9E37_79B9_7F4A_7C15 &* (words.1 &+ 0xBF58_476D_1CE4_E5B9 &* (words.2
                &+ 0x94D0_49BB_1331_11EB &* (words.3 &+ 0x9E37_79B9_7F4A_7C15 &* (words.4 &+ 0xBF58_476D_1CE4_E5B9 &* (words.5 &+ UInt64(count))))))
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(mixed)
        }

        /// The slot of the memo's table this key lives in.
        var slot: Int {
            Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 52) & (RestBreakMemo.slotCount - 1)
        }
    }

    private var slots: [UInt64] = []
    private var language: String?

    /// ICU's breaks of `text` in `language` (`UnicodeAnalysis.lineBreaks(_:language:into:)`)
    /// as a mask, bit e set for a break e units in; nil when ICU failed. `text` holds at most
    /// `maximumLength` units. `scratch` receives ICU's answer when it is asked.
    mutating func breaks(of text: UnsafeBufferPointer<UInt16>, language: String?, scratch: inout [Int32]) -> UInt32? {
        if language != self.language {
            if !slots.isEmpty { slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
            self.language = language
        }
        if slots.isEmpty { slots = zeroFilledArray(UInt64(0), count: Self.slotCount * Self.slotWords) }
        let key = Key(text)
        let base = key.slot * Self.slotWords
        let meta = UInt64(key.count + 1) << 32
        let known: UInt32? = slots.withUnsafeBufferPointer { s in
            let stored = s[base + 6]
            guard stored & ~0xFFFF_FFFF == meta, s[base] == key.words.0, s[base + 1] == key.words.1, s[base + 2] == key.words.2,
                  s[base + 3] == key.words.3, s[base + 4] == key.words.4, s[base + 5] == key.words.5 else { return nil }
            return UInt32(truncatingIfNeeded: stored)
        }
        if let known { return known }
        guard (try? UnicodeAnalysis.lineBreaks(text, language: language, into: &scratch)) != nil else { return nil }
        var mask: UInt32 = 0
        for e in scratch where e > 0 { mask |= 1 << UInt32(e) }
        slots.withUnsafeMutableBufferPointer { s in
            s[base] = key.words.0; s[base + 1] = key.words.1; s[base + 2] = key.words.2
            s[base + 3] = key.words.3; s[base + 4] = key.words.4; s[base + 5] = key.words.5
            s[base + 6] = meta | UInt64(mask)
        }
        return mask
    }
}

/// A small open-addressing map from (advance, attributes) keys to palette indices. A slot
/// packs the key plus one (40 bits; 0 is empty) and the index (24 bits). Emptying the map for
/// the next text clears the slots of the last text's palette alone (its keys are the keys the
/// map holds): once a long text has grown the table to 4,096 slots, clearing all of them
/// (32 KB) cost more than planning a short text.
struct PaletteMap {
    private var slots: [UInt64] = []
    private var mask = -1

    init() {}

    static let keyMask: UInt64 = 0xFF_FFFF_FFFF

    @inline(__always) static func home(_ stored: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (stored &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }

    /// Empties the map of the last text's keys (the first `count` of `palette`, every key it
    /// holds), keeping its table (shrunk back when a huge text grew it). Each key's slot is
    /// found as a lookup finds it; slots already emptied are passed over, not taken for the end
    /// of a probe, so the order does not matter.
    mutating func reset(_ palette: [UInt64], count: Int) {
        if slots.count > 4096 { self = PaletteMap(); return }
        guard count > 0 else { return }
        let m = mask
        slots.withUnsafeMutableBufferPointer { s in
            palette.withUnsafeBufferPointer { p in
                for k in 0..<count {
                    let stored = p[k] &+ 1
                    var slot = Self.home(stored, m)
                    while s[slot] & Self.keyMask != stored { slot = (slot &+ 1) & m }
                    s[slot] = 0
                }
            }
        }
    }

    /// Gives each of the `count` keys at `keys` (each < 2^40 − 1) its palette index at `codes`:
    /// the index of its first occurrence among the distinct keys, which go to `palette` in that
    /// order (room for `count`); returns how many there are. The map must be empty (``reset``).
    /// 64 keys at a time, the table grown first to stay at most half full.
    mutating func assign(_ keys: UnsafePointer<UInt64>, count: Int, codes: UnsafeMutablePointer<UInt32>,
                         palette: UnsafeMutablePointer<UInt64>) -> Int {
        // Indices live in a slot's top 24 bits (a text has at most 2^24 units).
        precondition(count <= 1 << 24)
        var next = 0, start = 0
        while start < count {
            let stop = min(count, start + 64)
            while 2 * (next + stop - start) > slots.count { grow() }
            let m = mask
            next = slots.withUnsafeMutableBufferPointer { s in
                Self.assign(keys, start, stop, slots: s.baseAddress!, mask: m, codes: codes, palette: palette, next: next)
            }
            start = stop
        }
        return next
    }

    /// Keys `start..<stop`. A new key and a known one take the same path (no branch on which:
    /// a text's first occurrences come at no pattern a predictor learns, a third of its units
    /// in a caption): the slot is written either way (with what it held for a known key), the
    /// key stored at the palette's next place either way, and the count moves for a new one.
    /// Only a slot holding another key (rare at a load of at most ½) branches, to probe on.
    @inline(__always)
    static func assign(_ keys: UnsafePointer<UInt64>, _ start: Int, _ stop: Int, slots: UnsafeMutablePointer<UInt64>, mask: Int,
                       codes: UnsafeMutablePointer<UInt32>, palette: UnsafeMutablePointer<UInt64>, next: Int) -> Int {
        var next = UInt64(next)
        for k in start..<stop {
            let key = keys[k]
            let stored = key &+ 1
            var slot = home(stored, mask)
            var s = slots[slot]
            // Another key in the slot: neither empty nor this key. As one test of a product
            // (zero when either factor is): the compiler splits `s != 0 && …` into two
            // branches, and the first is the unpredictable new-or-known one.
            let product = s.multipliedFullWidth(by: (s & keyMask) ^ stored)
            if _slowPath(product.high | product.low != 0) {
                repeat {
                    slot = (slot &+ 1) & mask
                    s = slots[slot]
                } while s != 0 && s & keyMask != stored
            }
            // The slot is empty (0) or holds this key (1 ≤ its low 40 bits < 2^40): 1 for a
            // known key, by arithmetic, which the compiler leaves without a branch (a `s == 0`
            // select it turned into one).
            let known = ((s & keyMask) &+ keyMask) >> 40
            let index = s >> 40 | next & (known &- 1)
            slots[slot] = stored | index << 40
            palette[Int(truncatingIfNeeded: next)] = key
            next &+= 1 &- known
            codes[k] = UInt32(truncatingIfNeeded: index)
        }
        return Int(truncatingIfNeeded: next)
    }

    private mutating func grow() {
        let old = slots
        let size = max(512, old.count * 2)
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
        let m = mask
        slots.withUnsafeMutableBufferPointer { s in
            for x in old where x != 0 {
                var slot = Self.home(x & Self.keyMask, m)
                while s[slot] != 0 { slot = (slot + 1) & m }
                s[slot] = x
            }
        }
    }
}

extension TextMetrics {
    /// Bytes of the measuring form's hot part (what measuring reads in the common case) and of
    /// its cold part (the rest), for packing several texts' parts apart (``copyBlock(hotTo:coldTo:)``).
    package var blockParts: (hot: Int, cold: Int) {
        withView { view in
            let o = view.offsets
            return (o.hotByteCount, o.coldByteCount)
        }
    }

    /// ``blockParts`` of the block at `base` (a copy, possibly split).
    package static func blockParts(at base: UnsafeRawPointer) -> (hot: Int, cold: Int) {
        let o = MetricsBlock.View(base).offsets
        return (o.hotByteCount, o.coldByteCount)
    }

    /// Copies the measuring form's hot part to `hot` and its cold part to `cold` (both 8-byte
    /// aligned, within 2 GB of each other; sizes from ``blockParts``): the copy at `hot`
    /// measures as this text does.
    package func copyBlock(hotTo hot: UnsafeMutableRawPointer, coldTo cold: UnsafeMutableRawPointer) {
        _ = withView { $0.copy(hotTo: hot, coldTo: cold) }
    }

    /// ``copyBlock(hotTo:coldTo:)`` of the block at `base` (one written by
    /// `TextMetrics.Blocks`).
    package static func copyBlock(at base: UnsafeRawPointer, hotTo hot: UnsafeMutableRawPointer, coldTo cold: UnsafeMutableRawPointer) {
        MetricsBlock.View(base).copy(hotTo: hot, coldTo: cold)
    }
}
