/// Widths inside clusters that hold several graphemes (ligatures such as "ffi", Myanmar and
/// Khmer stacked syllables, lam-alef).
///
/// When overflow-wrap breaks a word between graphemes, Chromium may break inside such a
/// cluster: every character of a cluster sits at the cluster's start, so the candidate break
/// falls before the cluster's last grapheme; the line's end is then shaped again alone and the
/// break moves back a grapheme at a time until it fits (ShapingLineBreaker::ShapeLine,
/// docs/CHROMIUM.md §3(h)). Crediting each grapheme of the cluster with what it adds to the
/// cluster's prefix shaped alone makes the grapheme sums of the break-word loop give those
/// widths; the cluster's total is unchanged, so nothing else moves.
enum ClusterSplit {
    /// Redistributes `unitAdvances` (per run unit, design units, a cluster's advance on its
    /// first unit) over the graphemes of each multi-grapheme cluster of the run `units[item]`,
    /// and returns what a line starting inside such a cluster needs: for each grapheme start
    /// `a` inside it and each later grapheme start or the cluster's end `b`, the width of
    /// `a..<b` shaped alone — (a, b, design units) triples, run offsets, flat, by (a, b). A
    /// cluster's end is the next cluster start that is also a grapheme start, as line breaking
    /// sees it. Uses `buffer` (its contents are replaced).
    /// `knownBreaks`, when given, are ICU's opportunities inside the run as
    /// `UnicodeAnalysis.lineBreaks` finds them over the run alone (``ParagraphLineBreaks``), so
    /// they are not asked again.
    static func creditGraphemes(_ unitAdvances: inout [Int32], clusters: [Int32], units: UnsafeBufferPointer<UInt16>,
                                item: Range<Int>, font: Font, rightToLeft: Bool, language: ShapingLanguage,
                                buffer: HBBuffer, knownBreaks: ParagraphLineBreaks.Share? = nil, checkingFirst: Bool = true) -> [Int32] {
        let count = item.count
        guard count > 1 else { return [] }
        // (`checkingFirst` false: the general path alone, for the tests that compare both.)
        if checkingFirst && holdsNoInnerStart(clusters: clusters, units: units, item: item, knownBreaks: knownBreaks) { return [] }
        var isStart = zeroFilledArray(false, count: count + 1)
        for c in clusters where c >= 0 && Int(c) < count { isStart[Int(c)] = true }
        isStart[count] = true
        // Grapheme starts and the dictionary's word ends of the run, found at its first
        // cluster of several units (most runs have none), updated in place after that.
        var starts: [Bool] = []
        var alone: [Int32] = []
        var c0 = 0
        while c0 < count {
            var c1 = c0 + 1
            while !isStart[c1] { c1 += 1 }
            defer { c0 = c1 }
            guard c1 - c0 > 1 else { continue }
            if starts.isEmpty {
                starts = zeroFilledArray(false, count: count + 1)
                let slice = UnsafeBufferPointer(rebasing: units[item])
                var previous = 0
                if let ends = try? UnicodeAnalysis.graphemeEnds(slice) {
                    for end in ends { starts[previous] = true; previous = Int(end) }
                }
                // Word breaks the dictionary puts inside a grapheme (Myanmar kinzi `င်္|က`) end
                // and start lines as well: Chromium shapes such a line end and start alone
                // (`သင်္ကန်း` at 17.64 px: `သ` / `င်္` / `က` / `န်` / `း`, docs/CHROMIUM.md §3(d)).
                if slice.contains(where: DictionaryScripts.contains) {
                    if let known = knownBreaks?.breaks.inside(knownBreaks!.start, knownBreaks!.end, of: knownBreaks!.paragraph) {
                        for end in known where Int(end) < count { starts[Int(end)] = true }
                    } else if let words = try? UnicodeAnalysis.lineBreaks(slice) {
                        for end in words.ends where Int(end) < count { starts[Int(end)] = true }
                    }
                }
                starts[count] = true
            }
            if (c0..<c1).contains(where: { units[item.lowerBound + $0] == 0x1039 || units[item.lowerBound + $0] == 0x17D2 }) {
                // A stacked cluster: the words found from its start (where an overflow-wrap line
                // starts) can break inside it too (`င်္ကန်း` alone: `င်္|ကန်း`).
                let window = UnsafeBufferPointer(rebasing: units[item.lowerBound + c0..<item.lowerBound + min(count, c1 + 24)])
                if let words = try? UnicodeAnalysis.lineBreaks(window) {
                    for end in words.ends where c0 + Int(end) < c1 { starts[c0 + Int(end)] = true }
                }
            }
            // The starts inside the cluster (`inner`), walked in place rather than collected.
            guard (c0 + 1..<c1).contains(where: { starts[$0] }), isStart[c0] else { continue }
            let total = unitAdvances[c0]
            var previous: Int32 = 0
            var credited = c0
            for g in c0 + 1..<c1 where starts[g] {
                let prefix = width(units, item.lowerBound + c0..<item.lowerBound + g, font: font, rightToLeft: rightToLeft,
                                   language: language, buffer: buffer)
                unitAdvances[credited] = prefix &- previous
                previous = prefix
                credited = g
            }
            for u in c0 + 1..<c1 where !starts[u] { unitAdvances[u] = 0 }
            unitAdvances[credited] = total &- previous
            // The rests shaped alone, up to where line breaking sees the cluster end: from each
            // inner start to each later one and to that end.
            var end = c1
            while end < count && !starts[end] { end += 1; while !isStart[end] { end += 1 } }
            for a in c0 + 1..<c1 where starts[a] {
                for b in a + 1..<c1 where starts[b] {
                    alone.append(Int32(a))
                    alone.append(Int32(b))
                    alone.append(width(units, item.lowerBound + a..<item.lowerBound + b, font: font, rightToLeft: rightToLeft,
                                       language: language, buffer: buffer))
                }
                alone.append(Int32(a))
                alone.append(Int32(end))
                alone.append(width(units, item.lowerBound + a..<item.lowerBound + end, font: font, rightToLeft: rightToLeft,
                                   language: language, buffer: buffer))
            }
        }
        return alone
    }

    /// The grapheme pair classes of every UTF-16 unit (``ICU/graphemePairClasses()``).
    static let pairClasses: [UInt8] = ICU.graphemePairClasses()

    /// Whether ``creditGraphemes(_:clusters:units:item:font:rightToLeft:language:buffer:knownBreaks:)``
    /// would find no grapheme start and no line break inside any cluster of several units, so
    /// that it changes no advance and returns no rests — decided without its arrays, ICU's
    /// grapheme iterator or a copy of the breaks (most Thai runs: a consonant and its marks are
    /// one cluster and one grapheme; ~6.6 k instructions a run went to finding that out). True
    /// only when HarfBuzz's clusters ascend (or descend, right to left) from the run's first
    /// unit; every unit after the first of a cluster is one the grapheme rules join to the unit
    /// before it whatever surrounds them (the pair classes' certain joint: an extender, joiner or
    /// spacing mark after anything but a control, as `rk_grapheme_breaks_paired` decides); no
    /// cluster holds a stacking linker (U+1039, U+17D2: the general path asks ICU from the
    /// cluster's start); and, in a run holding a dictionary script, the paragraph's breaks are
    /// the run's (``ParagraphLineBreaks/inside(_:_:of:)``'s conditions) and none falls inside a
    /// cluster. Otherwise false: the general path decides.
    static func holdsNoInnerStart(clusters: [Int32], units: UnsafeBufferPointer<UInt16>, item: Range<Int>,
                                  knownBreaks: ParagraphLineBreaks.Share?) -> Bool {
        let count = item.count, n = clusters.count
        guard n > 0 else { return false }
        let lower = item.lowerBound
        return clusters.withUnsafeBufferPointer { clusters in
            pairClasses.withUnsafeBufferPointer { classes in
                let descending = n > 1 && clusters[0] > clusters[n - 1]
                guard clusters[descending ? n - 1 : 0] == 0 else { return false }
                // First pass: the clusters' units, and whether any cluster has several.
                var previous = 0, several = false
                var i = 0
                while i <= n {
                    let c: Int
                    if i < n {
                        c = Int(clusters[descending ? n - 1 - i : i])
                        if c == previous { i += 1; continue }
                        if c < previous || c >= count { return false }
                    } else {
                        c = count
                    }
                    if c - previous > 1 {
                        several = true
                        for k in (previous + 1)..<c {
                            let a = units[lower + k - 1], b = units[lower + k]
                            if classes[Int(a)] & 16 == 0 || classes[Int(b)] & 32 == 0 || a == 0x1039 || a == 0x17D2 || b == 0x1039 || b == 0x17D2 {
                                return false
                            }
                        }
                    }
                    previous = c
                    i += 1
                }
                guard several else { return true }
                let slice = UnsafeBufferPointer(rebasing: units[item])
                guard slice.contains(where: DictionaryScripts.contains) else { return true }
                // The run's dictionary breaks: the paragraph's share, none inside a cluster.
                guard let known = knownBreaks else { return false }
                let breaks = known.breaks, start = known.start
                guard known.end - known.start == count, breaks.covers(known.start, known.end, of: known.paragraph) else { return false }
                return breaks.ends.withUnsafeBufferPointer { ends in
                    // The first end after the run's start, then walked with the clusters.
                    var j = breaks.firstEnd(after: start)
                    previous = 0
                    i = 0
                    while i <= n && j < ends.count && Int(ends[j]) < start + count {
                        let c = i < n ? Int(clusters[descending ? n - 1 - i : i]) : count
                        i += 1
                        if c == previous { continue }
                        while j < ends.count && Int(ends[j]) <= start + previous { j += 1 }
                        if c - previous > 1 && j < ends.count && Int(ends[j]) < start + c { return false }
                        previous = c
                    }
                    return true
                }
            }
        }
    }

    /// The advance of `units[range]` shaped alone, in design units. Texts of up to
    /// ``ShapedWidthMemo/maximumLength`` units are answered from this thread's memo when met
    /// before with the same font, direction and language (what the width is a function of).
    static func width(_ units: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, font: Font, rightToLeft: Bool,
                              language: ShapingLanguage, buffer: HBBuffer) -> Int32 {
        let text = UnsafeBufferPointer(rebasing: units[range])
        let memo = PrepareScratch.current.shapedWidths
        let slot = memo.slot(text, font: font.id, rightToLeft: rightToLeft, language: language.id)
        if let slot, let known = memo.width(at: slot) { return known }
        let total = shapedWidth(text, font: font, rightToLeft: rightToLeft, language: language, buffer: buffer)
        if let slot { memo.store(total, at: slot) }
        return total
    }

    /// The advance of `text` shaped alone by HarfBuzz, in design units (no memo).
    static func shapedWidth(_ text: UnsafeBufferPointer<UInt16>, font: Font, rightToLeft: Bool, language: ShapingLanguage,
                            buffer: HBBuffer) -> Int32 {
        let glyphs = HarfBuzz.shape(text.baseAddress, count: text.count, item: 0..<text.count, font: font.shapingFont(for: text),
                                    rightToLeft: rightToLeft, language: language.language, buffer: buffer)
        var total: Int32 = 0
        for i in 0..<glyphs.count { total &+= glyphs.xAdvance(i) }
        return total
    }
}

/// ICU's line-break opportunities of the paragraph being prepared, kept so that a run whose
/// edges are word edges (``isEdge(_:in:)``: the paragraph's ends, after a space or a zero width
/// space, before a zero width space; and a run's end before a space, ``isRunEnd(_:in:)``) takes its share instead of asking ICU again for
/// `ClusterSplit` (Thai, Khmer, Myanmar and Lao runs: ICU's dictionary over the run, ~12 k
/// instructions). Inside such a run ICU breaks as it breaks the run alone: the dictionary
/// segments each run of dictionary characters by itself, a space or zero width space ends one,
/// and the filter of `UnicodeAnalysis.lineBreaks` reads only the two units around a position.
/// `ParagraphLineBreaksTests` checks every such run of the corpora (rules of no language only:
/// the run alone is asked with those).
struct ParagraphLineBreaks {
    /// ICU's ends (the last is the end of the part covered), paragraph offsets, from rules of
    /// no language.
    var ends: [Int32] = []
    /// The paragraph's length; 0: nothing kept (another paragraph, or other rules).
    var count = 0
    /// The part of the paragraph the ends were found over: all of it, or one chunk whose breaks
    /// were found alone (``ChunkedBuilder/breaksAlone(_:at:)``: inside it they are the paragraph's).
    var covered = 0..<0

    /// Whether `p` is a word edge of `text`: its start or end, after a space or a zero width
    /// space, or before a zero width space (Khmer separates its words with them).
    @inline(__always) static func isEdge(_ p: Int, in text: UnsafeBufferPointer<UInt16>) -> Bool {
        p == 0 || p == text.count || text[p - 1] == 0x20 || text[p - 1] == 0x200B || text[p] == 0x200B
    }

    /// Whether a run may end at `p` (> 0) and take its share: a word edge (``isEdge(_:in:)``),
    /// or right before a space after a letter or mark of a dictionary script — the end of a
    /// Thai, Khmer or Myanmar run whose font is not the space's (the space is in the primary
    /// font, so a fallback font's run stops before it: ~3,000 of the 3,400 runs of 2,000 Thai
    /// rows that asked ICU again). There the dictionary's range ends as it ends at the end of
    /// the run alone (the space is not one of its characters), the rules decide the position
    /// before the space (LB7), which is not inside the run, and no rule that reads across a
    /// space (LB14–LB17, after OP, QU, CL, CP, B2 or ZW) starts at a dictionary letter.
    @inline(__always) static func isRunEnd(_ p: Int, in text: UnsafeBufferPointer<UInt16>) -> Bool {
        isEdge(p, in: text)
            || (text[p] == 0x20 && (DictionaryScripts.contains(text[p - 1]) || DictionaryScripts.isMark(text[p - 1])))
    }

    /// Forgets the breaks (a new paragraph).
    mutating func reset() { count = 0 }

    /// Keeps `ends` for the paragraph `units` if they come from the rules of no language.
    mutating func keep(_ ends: [Int32], of units: UnsafeBufferPointer<UInt16>, language: String?) {
        guard UnicodeAnalysis.lineBreakRules(for: language) == 0 else { count = 0; return }
        self.ends = ends
        count = units.count
        covered = 0..<count
    }

    /// Keeps `ends`, ICU's breaks of `chunk` found alone, for the chunk at `offset` of a paragraph
    /// of `paragraphCount` units, if they come from the rules of no language.
    mutating func keep(_ ends: [Int32], ofChunk chunk: UnsafeBufferPointer<UInt16>, at offset: Int, paragraphCount: Int,
                       language: String?) {
        guard UnicodeAnalysis.lineBreakRules(for: language) == 0 else { count = 0; return }
        self.ends.removeAll(keepingCapacity: true)
        for end in ends { self.ends.append(end + Int32(offset)) }
        count = paragraphCount
        covered = offset..<(offset + chunk.count)
    }

    /// A run's place in the paragraph whose breaks are kept, read only if its clusters need them.
    struct Share {
        let breaks: ParagraphLineBreaks
        let paragraph: UnsafeBufferPointer<UInt16>
        let start: Int, end: Int
    }

    /// The ends strictly inside `start..<end` of `paragraph`, relative to `start`, when the run is
    /// whole chunks (see the type) and the breaks are kept; nil otherwise.
    func inside(_ start: Int, _ end: Int, of paragraph: UnsafeBufferPointer<UInt16>) -> [Int32]? {
        guard covers(start, end, of: paragraph) else { return nil }
        var low = firstEnd(after: start)
        var inside: [Int32] = []
        while low < ends.count && Int(ends[low]) < end {
            inside.append(ends[low] - Int32(start))
            low += 1
        }
        return inside
    }

    /// Whether the run `start..<end` of `paragraph` is whole chunks of it and its breaks are
    /// kept, so that its share is ICU's breaks of the run alone (see the type).
    func covers(_ start: Int, _ end: Int, of paragraph: UnsafeBufferPointer<UInt16>) -> Bool {
        count > 0 && count == paragraph.count && start < end && start >= covered.lowerBound && end <= covered.upperBound
            && Self.isEdge(start, in: paragraph) && Self.isRunEnd(end, in: paragraph)
    }

    /// The index in ``ends`` of the first end after `p` (binary search).
    func firstEnd(after p: Int) -> Int {
        var low = 0, high = ends.count
        while low < high {
            let mid = (low + high) / 2
            if Int(ends[mid]) <= p { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// Widths of short texts shaped alone (``ClusterSplit/width(_:_:font:rightToLeft:language:buffer:)``:
/// the graphemes of Thai, Khmer, Myanmar and Indic clusters and their rests, ~20 k instructions
/// of HarfBuzz each, and the same syllables recur from paragraph to paragraph). One per thread
/// (``PrepareScratch``), so no lock; direct-mapped, a newer text taking an older one's slot.
/// Keyed by the whole text, the font's process-unique id, the direction and the shaping
/// language's id: exactly what the width depends on (the script is HarfBuzz's guess from the text).
final class ShapedWidthMemo {
    /// Longest text remembered, in UTF-16 units (four units per key word).
    static let maximumLength = 8
    /// Slots (a power of two): 4,096 × 32 B = 128 KB per preparing thread.
    static let slotCount = 4096

    /// A remembered width: the text's units packed four to a word, and the font id, direction,
    /// language and length (`meta`, 0 for an empty slot).
    struct Slot {
        var text0: UInt64 = 0, text1: UInt64 = 0
        var meta: UInt64 = 0
        var width: Int32 = 0
    }

    /// Where a lookup found or will store its text: the slot index and the key.
    struct Place {
        let index: Int
        let key: Slot
    }

    private let slots: UnsafeMutablePointer<Slot>

    init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(), count: Self.slotCount)
    }

    deinit { slots.deallocate() }

    /// The place of `text` in `font`, direction and `language`, or nil when the text is too long.
    @inline(__always)
    func slot(_ text: UnsafeBufferPointer<UInt16>, font: Int32, rightToLeft: Bool, language: UInt16) -> Place? {
        guard !text.isEmpty, text.count <= Self.maximumLength else { return nil }
        var key = Slot()
        for (i, unit) in text.enumerated() {
            if i < 4 { key.text0 |= UInt64(unit) << UInt64(16 * i) } else { key.text1 |= UInt64(unit) << UInt64(16 * (i - 4)) }
        }
        key.meta = UInt64(UInt32(bitPattern: font)) | UInt64(text.count) << 32 | (rightToLeft ? 1 << 36 : 0) | UInt64(language) << 40
        var h = (key.text0 ^ key.meta) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ (h >> 29) ^ key.text1) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return Place(index: Int(truncatingIfNeeded: h) & (Self.slotCount - 1), key: key)
    }

    /// The width remembered at `place`, if its slot holds the same key.
    @inline(__always) func width(at place: Place) -> Int32? {
        let s = slots[place.index]
        return s.meta == place.key.meta && s.text0 == place.key.text0 && s.text1 == place.key.text1 ? s.width : nil
    }

    /// Remembers `width` at `place`.
    @inline(__always) func store(_ width: Int32, at place: Place) {
        var s = place.key
        s.width = width
        slots[place.index] = s
    }
}
