/// Chooses the font for each grapheme cluster of one paragraph, as Chromium's shaper does
/// (docs/CHROMIUM.md §2.1).
///
/// A cluster takes the first font of the style's chain (its installed families, then the
/// standard font) that *shapes* it without a .notdef glyph; emoji clusters may go to the color
/// emoji font. The clusters none of those fonts render are filled the way Chromium fills its
/// "holes": per script segment, a hint character is chosen from the holes (the first character
/// with a definite script after the first one, else the first one), the system is asked for a
/// font for that character (the first family at normal weight for bold or italic text, else
/// fontconfig's list for the content language), and that font takes every hole cluster it
/// renders; the rest asks again with a new hint, then the last-resort font, then shows .notdef
/// in the primary font. One value per paragraph being prepared.
struct FontFallback {
    /// What a chooser knows of its style, fixed from its setup on, in one reference: starting
    /// over for the next text (``restart(from:)``) copies it as one reference, not as seven
    /// fields (a copy and a destroy of the whole chooser cost ~1.2 k instructions a text).
    private final class Setup: Sendable {
        let style: TextStyle
        let fonts: FontLibrary
        let chain: [Font]
        let normalStyle: Font?
        let emoji: Font?
        /// fontconfig language of the system fallback for Han ideographs (Chinese disambiguated to
        /// Simplified or Traditional) and for every other character (the content language as given).
        let hanLanguage: String, language: String

        init(style: TextStyle, primary: Font, fonts: FontLibrary) {
            self.style = style
            self.fonts = fonts
            let chain = try? fonts.chain(for: style.font, language: style.lang)
            self.chain = chain?.fonts ?? [primary]
            self.normalStyle = chain?.normalStyle
            self.emoji = fonts.emojiFont
            self.hanLanguage = FallbackLanguage.fontconfigLanguage(for: style.lang, han: true)
            self.language = FallbackLanguage.fontconfigLanguage(for: style.lang, han: false)
        }
    }
    private var setup: Setup
    var style: TextStyle { setup.style }
    private(set) var primary: Font
    var fonts: FontLibrary { setup.fonts }
    /// The primary font maps every printable ASCII character (the common fast path).
    private(set) var primaryCoversASCII: Bool
    private var chain: [Font] { setup.chain }
    private var normalStyle: Font? { setup.normalStyle }
    private var emoji: Font? { setup.emoji }
    private var hanLanguage: String { setup.hanLanguage }
    private var language: String { setup.language }
    /// Fonts planned for the hole clusters of the current segment, by cluster start
    /// (`plannedFonts[u - plannedStart]`), up to `plannedEnd`: 0 none (not a hole), k the
    /// plan's k-th font (`planFonts[k - 1]`), ``plannedPrimary`` the primary font (.notdef).
    /// Indices, not references: no reference counting per cluster. Entries past
    /// `plannedEnd - plannedStart` are left from earlier plans and never read.
    private var plannedFonts: [UInt16] = []
    private static let plannedPrimary = UInt16.max
    /// Scratch of ``plan(_:from:)``, kept from plan to plan: the segment's clusters (with their
    /// memo slots), its holes (indices into the clusters) and the hint characters asked for.
    private var planClusters: [PlanCluster] = []
    private var planHoles: [Int] = []
    private var planAsked: [UInt32] = []
    private(set) var plannedStart = 0
    private var plannedEnd = -1
    /// Where the current plan's first hint character ends in the paragraph (``hintCharacter``:
    /// the first character with a definite script among the holes'), or `Int.max` when none
    /// has one (the hint then is the first character, but only the whole segment tells).
    private(set) var planHintEnd = Int.max
    /// Chain fonts, scripts and emoji flags of short clusters met before (per thread, shared by
    /// the paragraphs prepared there), and the style context they are valid in.
    var memo: FontChoiceMemo?
    var memoContext: Int32 = -1
    /// The paragraph's grapheme ends, when the caller found them already: plans take their
    /// clusters from here instead of asking ICU again.
    var paragraphGraphemes: [Int32]?
    /// The paragraph's bidi levels (nil: all 0), set by the builder for one analysis and valid
    /// only during it: a plan ends where the level changes, because Chromium looks for fallback
    /// fonts per shaping item and items end at direction changes (docs/CHROMIUM.md §2.6).
    nonisolated(unsafe) var paragraphLevels: UnsafeBufferPointer<UInt8>?
    /// The fonts the current plan tried, in order: a hole cluster takes the first that renders
    /// it, else the primary font (so they, with the cluster, decide its font).
    private var planFonts: [Font] = []
    /// Plans made so far (each looked ahead in the paragraph, up to its segment's end).
    private(set) var plansMade = 0
    /// `white-space: pre-wrap`: tabs and newlines are items of their own in Chromium, so the
    /// text on either side is shaped, and its fallback fonts found, apart.
    private var preservesControls: Bool
    /// Offsets of the paragraph where `pre-wrap` dropped a CR or FF (set for one analysis; see
    /// ``WhiteSpace/droppedControlOffsets(_:)``): item boundaries like a tab's.
    var itemBoundaries: [Int] = []

    /// Whether `offset` is in `sorted` (`itemBoundaries`, ascending): a binary search, so a text with
    /// many dropped controls stays near linear (a linear scan per cluster made 80,000 `快\r` take 1.8 s).
    static func contains(_ sorted: [Int], _ offset: Int) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low] == offset
    }
    /// The last separator ``separatorFollowsFallback(_:_:)`` answered for: the paragraph's
    /// buffer, its offset, the answer and the definite script met on the way back (−1: none).
    private var lastSeparator: (base: UnsafePointer<UInt16>?, offset: Int, spaced: Bool, script: Int32)?

    init(style: TextStyle, primary: Font, fonts: FontLibrary) {
        self.setup = Setup(style: style, primary: primary, fonts: fonts)
        self.primary = primary
        self.primaryCoversASCII = (0x21...0x7E).allSatisfy { primary.covers(UInt32($0)) }
        self.preservesControls = style.whiteSpace == .preWrap
    }

    /// Starts over from `initial` (a chooser in its first state) for the next paragraph,
    /// keeping this one's plan arrays (emptied) so that plans do not allocate them again.
    /// Field by field, not `self = initial`: that copied and destroyed every field. Every
    /// stored property is set here (or is a plan's scratch, emptied by each plan).
    mutating func restart(from initial: FontFallback) {
        if setup !== initial.setup {
            setup = initial.setup
            primary = initial.primary
            primaryCoversASCII = initial.primaryCoversASCII
            preservesControls = initial.preservesControls
        }
        if !plannedFonts.isEmpty { plannedFonts.removeAll(keepingCapacity: true) }
        planFonts.emptyKeepingCapacity()
        plannedStart = initial.plannedStart
        plannedEnd = initial.plannedEnd
        planHintEnd = initial.planHintEnd
        memo = initial.memo
        memoContext = initial.memoContext
        paragraphGraphemes = initial.paragraphGraphemes
        paragraphLevels = initial.paragraphLevels
        plansMade = initial.plansMade
        itemBoundaries = initial.itemBoundaries
        lastSeparator = initial.lastSeparator
        planContinuesRunBefore = initial.planContinuesRunBefore
    }

    /// A tab or newline kept by `pre-wrap`: Chromium's line builder makes it a control item of
    /// its own, which ends the shaping item — and the holes and hint of font fallback — before
    /// it, and starts a new one after it (`a\u{1F}b\nc\u{85}`: the second line's NEL takes Noto Sans
    /// Symbols2, its own hint, not the primary's .notdef the `\u{1F}` hint gives; docs/CHROMIUM.md §2.6).
    @inline(__always) private func isItemBoundary(_ unit: UInt16) -> Bool { unit == 0x09 || unit == 0x0A }

    /// The font for the grapheme `g0..<g1` of the paragraph `units`.
    mutating func font(for units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> Font {
        let first = units[g0]
        if g1 == g0 + 1 && first < 0x7F && first >= 0x20 && primaryCoversASCII { return primary }
        if let font = plannedFont(at: g0) { return font }
        if let font = clusterInfo(units, g0, g1).font {
            if g1 == g0 + 1 && (first == 0x2028 || first == 0x2029) && font === primary && separatorFollowsFallback(units, g0) {
                return fonts.separatorsAsSpaceVariant(of: primary)
            }
            return font
        }
        return planFont(units, from: g0)
    }

    /// Whether the primary font's character map has every visible character of the cluster:
    /// Chromium's fallback holes are found by the map, so a cluster the primary draws only by
    /// decomposing (`≠` in Noto Sans) counts as fallback text before a separator (measured).
    private func primaryMaps(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> Bool {
        var i = g0
        while i < g1 {
            let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
            if !primary.covers(scalar) && !ICU.isDefaultIgnorable(scalar) { return false }
            i += length
        }
        return true
    }

    /// Whether the U+2028 or U+2029 at `at` follows, in its shaping item, a cluster the primary
    /// font does not render — then Chromium draws it with the primary font's space glyph, not
    /// with the primary's own glyph for it (`漢\u{2028}` in Noto Sans 16 px: 16.02 + 4.16 px, not
    /// + 9.61; docs/CHROMIUM.md §3(m)). The item is Chromium's: it ends, looking back, where the
    /// bidi level changes, at an emoji cluster, at a definite script other than the one met
    /// first (Common and Inherited characters join any), and in `pre-wrap` at a tab, newline or
    /// dropped control; at most 2048 units back. Only asked when the primary has a glyph of its
    /// own for the separator (else it shows the space glyph anyway). The answer for the last
    /// separator is kept, so a walk ends there (separators are grapheme boundaries): a run of
    /// separators costs one walk over the text between each two.
    private mutating func separatorFollowsFallback(_ units: UnsafeBufferPointer<UInt16>, _ at: Int) -> Bool {
        guard primary.hasOwnSeparatorGlyph(UInt32(units[at])) else { return false }
        let base = units.baseAddress
        var from = max(0, at - 2048)
        let last = lastSeparator.flatMap { $0.base == base && $0.offset < at && $0.offset >= from ? $0 : nil }
        if let last { from = last.offset + 1 }
        // The clusters of units[from..<at], from the paragraph's grapheme ends when the caller
        // found them, else from ICU over the window.
        var ends: [Int] = []
        if let all = paragraphGraphemes, all.last == Int32(units.count) {
            var low = 0, high = all.count
            while low < high { let mid = (low + high) / 2; if Int(all[mid]) <= from { low = mid + 1 } else { high = mid } }
            var k = low
            while k < all.count && Int(all[k]) <= at { ends.append(Int(all[k])); k += 1 }
        } else if from < at {
            let window = UnsafeBufferPointer(rebasing: units[from..<at])
            ends = ((try? UnicodeAnalysis.graphemeEnds(window)) ?? [Int32(at - from)]).map { from + Int($0) }
        }
        let level = paragraphLevels.flatMap { at < $0.count ? $0[at] : nil }
        func sameLevel(_ offset: Int) -> Bool {
            guard let levels = paragraphLevels, let level, offset < levels.count else { return true }
            return levels[offset] == level
        }
        // Whether the item ends between `offset - 1` and `offset` (a boundary item of pre-wrap).
        func itemEnds(at offset: Int) -> Bool {
            preservesControls && offset > 0 && (isItemBoundary(units[offset - 1]) || Self.contains(itemBoundaries, offset))
        }
        // Walking back through the separator's item and script run (Common and Inherited
        // characters join the run before them). Measured (docs/CHROMIUM.md §3(m)): a cluster the
        // primary's map lacks counts when it is of the run's script, or a Common one between the
        // separator and the run's first definite character — but in a right-to-left item a
        // Common cluster of a fallback font there (`。`) keeps the separator's own glyph, and one
        // the primary draws by decomposing (`≠`) does nothing; Common clusters further back do
        // nothing (`T。é\u{2028}` keeps its own glyph).
        let rightToLeft = (level ?? 0) & 1 == 1
        var script: Int32 = -1
        var answer: Bool?
        var stopped = false  // the item or the run ended on the way back
        var k = ends.count - 1
        // Once answered, the walk goes on only to find the run's script (kept for the next separator).
        while k >= 0 && (answer == nil || script < 0) {
            let end = ends[k]
            let start = k > 0 ? ends[k - 1] : from
            k -= 1
            guard end <= at, start < end else { continue }
            if itemEnds(at: end) || !sameLevel(start) { answer = answer ?? false; stopped = true; break }
            let info = clusterInfo(units, start, end)
            if info.emoji { answer = answer ?? false; stopped = true; break }
            let definite = info.script > 1 && info.script != 103
            if answer != nil {
                if definite { script = info.script }
                continue
            }
            let fallbackFont = info.font !== primary
            let hole = fallbackFont || !primaryMaps(units, start, end)
            if definite {
                if script < 0 { script = info.script } else if info.script != script { answer = false; stopped = true; break }
                if hole { answer = true }
            } else if script < 0 && hole {
                if !rightToLeft { answer = true } else if fallbackFont { answer = false }
            } else if script >= 0 && !rightToLeft {
                // A Common cluster inside the run (docs/CHROMIUM.md §3(m), eleventh round): one
                // with script extensions starts a script run of its own in Chromium's segmenter
                // (`T。é\u{2028}` keeps the glyph), any other hole counts (`a\u{90}b\u{2028}`,
                // `a\u{1}b\u{2028}`, `a≠b\u{2028}` are the space).
                if Self.extensionsExclude(script, UnicodeAnalysis.scalar(at: start, in: units).0) { answer = false; stopped = true; break }
                if hole { answer = true }
            }
        }
        // Back at the last separator (nothing stopped the walk): its answer holds when it is in
        // the same item and the same script run (its script: the first definite one met back
        // from it, or −1), and so does its run's script.
        let sameItemAsLast = !stopped && last != nil && !itemEnds(at: from) && sameLevel(last!.offset)
        var runScript = script
        if sameItemAsLast && script < 0 { runScript = last!.script }
        if answer == nil, let last, sameItemAsLast, script < 0 || last.script < 0 || last.script == script {
            answer = last.spaced
        }
        let spaced = answer ?? false
        lastSeparator = (base, at, spaced, runScript)
        return spaced
    }

    /// The font planned for the hole cluster starting at `g0`, when the current plan covers it.
    @inline(__always) func plannedFont(at g0: Int) -> Font? {
        guard g0 < plannedEnd && g0 >= plannedStart else { return nil }
        let k = plannedFonts[g0 - plannedStart]
        if k == 0 { return nil }
        return k == Self.plannedPrimary ? primary : planFonts[Int(k) - 1]
    }

    /// Plans the system fallback from the hole cluster at `g0` (looking ahead in `units`, the
    /// paragraph) and returns its font.
    mutating func planFont(_ units: UnsafeBufferPointer<UInt16>, from g0: Int) -> Font {
        plan(units, from: g0)
        plansMade += 1
        return plannedFont(at: g0) ?? primary
    }

    /// The cluster's chain font (nil: a hole), its base character's script and whether it is an
    /// emoji cluster — functions of the cluster and the style only, so remembered for short
    /// clusters (``FontChoiceMemo``).
    mutating func clusterInfo(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> (font: Font?, script: Int32, emoji: Bool) {
        clusterInfoAndSlot(units, g0, g1).info
    }

    /// ``clusterInfo(_:_:_:)`` and the cluster's ``FontChoiceMemo`` slot (−1: not memoized).
    /// Mutating, as the plan that calls it: a non-mutating call from there copies the chooser.
    @inline(__always)
    private mutating func clusterInfoAndSlot(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> (info: (font: Font?, script: Int32, emoji: Bool), slot: Int) {
        if g1 - g0 <= 4, memoContext >= 0, let memo {
            if let index = memo.slot(units, g0, g1, context: memoContext) { return (memo.info(at: index), index) }
            let cluster = analyse(units, g0, g1)
            let info = (font: chainFont(units, g0, g1, cluster), script: ICU.script(cluster.base), emoji: cluster.emojiCluster)
            return (info, memo.store(units, g0, g1, context: memoContext, info))
        }
        let cluster = analyse(units, g0, g1)
        return ((chainFont(units, g0, g1, cluster), ICU.script(cluster.base), cluster.emojiCluster), -1)
    }

    /// What a plan's walk needs of a cluster: whether it is a hole (no chain font), its script,
    /// whether it is an emoji cluster, and its memo slot (−1: none). A memo hit is read without
    /// taking the chain font out of the slot (no retain and release per cluster); `memo` is the
    /// plan's own reference, bound once per plan.
    @inline(__always)
    private mutating func planClusterInfo(_ memo: FontChoiceMemo?, _ units: UnsafeBufferPointer<UInt16>,
                                          _ g0: Int, _ g1: Int) -> (hole: Bool, script: Int32, emoji: Bool, slot: Int) {
        if g1 - g0 <= 4, memoContext >= 0, let memo, let index = memo.slot(units, g0, g1, context: memoContext) {
            let known = memo.holeInfo(at: index)
            return (known.hole, known.script, known.emoji, index)
        }
        return planClusterInfoAfresh(units, g0, g1)
    }

    /// ``planClusterInfo(_:_:_:_:)`` for a cluster the memo lacks, out of line: the memo hit
    /// (nearly every cluster of a plan's walk) stays small enough to inline into the walk.
    @inline(never)
    private mutating func planClusterInfoAfresh(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> (hole: Bool, script: Int32, emoji: Bool, slot: Int) {
        let (info, slot) = clusterInfoAndSlot(units, g0, g1)
        return (info.font == nil, info.script, info.emoji, slot)
    }

    /// What a cluster holds that matters for font choice.
    private struct Cluster {
        var base: UInt32
        var emojiCluster: Bool
        var variation16: Bool
    }

    private func analyse(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> Cluster {
        let (base, baseLength) = UnicodeAnalysis.scalar(at: g0, in: units)
        var variation16 = false, variation15 = false, sequence = false
        var i = g0 + baseLength
        while i < g1 {
            let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
            if scalar == 0xFE0F { variation16 = true }
            else if scalar == 0xFE0E { variation15 = true }
            else if scalar == 0x200D || ICU.isEmojiModifier(scalar) || scalar == 0x20E3 || ICU.isRegionalIndicator(scalar) { sequence = true }
            i += length
        }
        let emojiCluster = !variation15 && (variation16 || sequence || ICU.isEmojiPresentation(base) || ICU.isRegionalIndicator(base))
        return Cluster(base: base, emojiCluster: emojiCluster, variation16: variation16 && !variation15)
    }

    /// The chain font (or the emoji font) for a cluster, or nil when it needs system fallback.
    /// A cluster with VS16 goes to the color emoji font first (Chromium skips a text font that
    /// lacks the emoji variation); an emoji-presentation cluster the chain cannot render goes to
    /// the emoji font.
    private func chainFont(_ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int, _ cluster: Cluster) -> Font? {
        if cluster.variation16, let emoji, emoji.covers(cluster.base) { return emoji }
        for font in chain where covers(font, units, g0, g1) { return font }
        if cluster.emojiCluster, let emoji, emoji.covers(cluster.base) { return emoji }
        return nil
    }

    /// Whether `font` renders the cluster: it maps every visible character, or HarfBuzz shapes
    /// the cluster with it without .notdef (decomposing or composing as needed). U+3000, which
    /// HarfBuzz would draw with the space glyph, counts only when the font has it (as in Chromium).
    func covers(_ font: Font, _ units: UnsafeBufferPointer<UInt16>, _ g0: Int, _ g1: Int) -> Bool {
        var i = g0
        while i < g1 {
            let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
            if !font.covers(scalar) && !ICU.isDefaultIgnorable(scalar) {
                if scalar == 0x3000 { return false }
                // An ideograph alone has no decomposition: HarfBuzz could only give .notdef.
                if g1 - g0 == 1 && CategoryFilter.isUnifiedIdeograph(units[g0]) { return false }
                return font.shapes(cluster: UnsafeBufferPointer(rebasing: units[g0..<g1]))
            }
            i += length
        }
        return true
    }

    /// Plans the system fallback for the holes of the script segment starting at `g0` (whose
    /// first cluster is a hole): the segment runs while the script and the bidi level stay the
    /// same (Common and Inherited characters join it) and ends at an emoji cluster; clusters the chain renders
    /// are skipped, the others are filled as Chromium fills its reshape queue.
    private mutating func plan(_ units: UnsafeBufferPointer<UInt16>, from g0: Int) {
        // The segment's clusters and its holes (indices into the clusters, in order) go into
        // arrays kept from plan to plan (a plan per script segment of every paragraph), which
        // keep their length too: the first `clusterCount` and `holeCount` entries are this
        // plan's, written through pointers (no uniqueness check or emptying per cluster).
        // A cluster's memo slot (−1: none) is where the plan finds whether a font it tries
        // renders the hole, asked by an earlier plan.
        var clusters: [PlanCluster] = [], holes: [Int] = [], asked: [UInt32] = []
        swap(&clusters, &planClusters)
        swap(&holes, &planHoles)
        swap(&asked, &planAsked)
        let slotMemo = memo
        defer {
            swap(&clusters, &planClusters)
            swap(&holes, &planHoles)
            swap(&asked, &planAsked)
        }
        var clusterCount = 0, holeCount = 0
        // The hint is most often the segment's first character: its system-font slot (anywhere
        // in the memo's 128 KB of hints) is asked of memory now and read after the walk.
        if memoContext >= 0, let slotMemo { slotMemo.prefetchSystemFont(for: UnicodeAnalysis.scalar(at: g0, in: units).0, context: memoContext) }
        let context = scriptRunContext(units, at: g0)
        planContinuesRunBefore = context.dependsOnText
        // The segment runs from g0 while the script stays the same, at most 2048 units. Its
        // graphemes are found in a window that grows until the segment ends inside it (the
        // last grapheme of a window that stops short of the text is not trusted).
        var size = paragraphGraphemes == nil ? 32 : 2048
        let all = paragraphGraphemes.flatMap { $0.last == Int32(units.count) ? $0 : nil }
        var walkGeneration = -1
        let prefetcher = memoContext >= 0 ? slotMemo?.prefetcher(context: memoContext) : nil
        while true {
            walkGeneration = slotMemo?.generation ?? -1
            let limit = min(units.count, g0 + min(size, 2048))
            let truncated = limit < units.count && size < 2048
            // The window's grapheme ends: the paragraph's own (from `first`, the last cut at
            // `limit`), or ICU's over the window (relative to g0).
            // (The paragraph's ends are read as the walk goes: counting them up to `limit`
            // first read the whole rest of the paragraph for every plan.)
            var first = 0
            var windowEnds: [Int32] = []
            if let all {
                var high = all.count
                while first < high { let mid = (first + high) / 2; if Int(all[mid]) <= g0 { first = mid + 1 } else { high = mid } }
            } else {
                let window = UnsafeBufferPointer(rebasing: units[g0..<limit])
                windowEnds = (try? UnicodeAnalysis.graphemeEnds(window)) ?? [Int32(limit - g0)]
            }
            // Every cluster of the window has at least one unit (the ends ascend from past
            // g0), so it has at most `limit - g0` clusters and holes.
            let room = limit - g0 + 1
            if clusters.count < room { clusters.append(contentsOf: repeatElement(PlanCluster(start: 0, end: 0, slot: -1), count: room - clusters.count)) }
            if holes.count < room { holes.append(contentsOf: repeatElement(0, count: room - holes.count)) }
            clusterCount = 0
            holeCount = 0
            var reachedEnd = true
            clusters.withUnsafeMutableBufferPointer { clusterBuffer in
                holes.withUnsafeMutableBufferPointer { holeBuffer in
                    // A plan starting at a Common cluster continues the script run before it
                    // (Chromium's segmenter runs over the whole paragraph, not per item).
                    var script: Int32 = context.script
                    var opener = context.opener
                    var start = g0
                    var k = 0
                    while true {
                        // The memo slots of the cluster `planPrefetchDistance` ahead (at the
                        // start, of all the first ones) are asked of memory now: a slot is
                        // anywhere in the memo's 512 KB, and waiting for it cost half the walk.
                        if let prefetcher {
                            var d = k == 0 ? 0 : k + Self.planPrefetchDistance
                            while d <= k + Self.planPrefetchDistance {
                                let s: Int, e: Int
                                if let all {
                                    let j = first + d
                                    if j >= all.count { break }
                                    s = d == 0 ? g0 : Int(all[j - 1])
                                    e = Int(all[j])
                                } else {
                                    if d >= windowEnds.count { break }
                                    s = d == 0 ? g0 : g0 + Int(windowEnds[d - 1])
                                    e = g0 + Int(windowEnds[d])
                                }
                                if e > limit { break }
                                if e - s <= 4 { prefetcher.prefetch(units, s, e) }
                                d += 1
                            }
                        }
                        // The cluster's end, and whether it is the window's last cluster.
                        let end: Int, lastInWindow: Bool
                        if let all {
                            let j = first + k
                            if j < all.count && Int(all[j]) < limit { end = Int(all[j]); lastInWindow = false } else { end = limit; lastInWindow = true }
                        } else {
                            if k >= windowEnds.count { break }
                            end = g0 + Int(windowEnds[k])
                            lastInWindow = k == windowEnds.count - 1
                        }
                        k += 1
                        defer { start = end }
                        if truncated && end == limit { reachedEnd = false; break }
                        if start > g0, let levels = paragraphLevels, start < levels.count, levels[start] != levels[g0] { break }
                        if preservesControls && start > g0
                            && (isItemBoundary(units[start]) || isItemBoundary(units[start - 1]) || Self.contains(itemBoundaries, start)) { break }
                        let (hole, s, emoji, slot) = planClusterInfo(slotMemo, units, start, end)
                        if s > 1 && s != 103 {
                            if script < 0 {
                                // A run opened by a Common character with script extensions
                                // takes only a script among them.
                                if let opener, Self.extensionsExclude(s, opener) { break }
                                script = s
                                opener = nil
                            } else if s != script { break }
                        } else if script >= 0 && units[start] >= 0x0600
                                    && Self.extensionsExclude(script, UnicodeAnalysis.scalar(at: start, in: units).0) {
                            // A Common character with script extensions without the segment's script
                            // starts a script run of its own (`a\u{1}。`: the `。` gets its own hint).
                            // (``hasScriptExtensions(_:)`` is false below U+0600: spaces and Latin
                            // letters skip decoding the scalar and the call.)
                            break
                        }
                        if start > g0 && emoji { break }
                        if start == g0 || hole { holeBuffer[holeCount] = clusterCount; holeCount += 1 }
                        clusterBuffer[clusterCount] = PlanCluster(start: start, end: end, slot: slot)
                        clusterCount += 1
                        if lastInWindow { break }
                    }
                }
            }
            if reachedEnd { break }
            size *= 4
        }
        // The slots are valid if the walk did not empty the memo (nothing stores there from here on).
        let slotsValid = slotMemo != nil && slotMemo!.generation == walkGeneration
        plannedEnd = clusterCount > 0 ? clusters[clusterCount - 1].end : g0 + 1
        plannedStart = g0
        // Only `plannedFonts[0..<span]` is read for this plan: zeroed in place (the array keeps
        // its length from plan to plan, so it is not emptied and refilled).
        let span = max(0, plannedEnd - g0)
        if plannedFonts.count < span { plannedFonts.append(contentsOf: repeatElement(0, count: span - plannedFonts.count)) }
        if span > 0 { plannedFonts.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 0, count: span) } }

        // Each round asks for a font for the holes left (the first tried is the system's
        // choice for a hint character, then the last-resort font once); the font takes every
        // hole it renders. A hole's font is thus the first of `planFonts` that renders it.
        // (Emptied by `emptyKeepingCapacity()`: a plan asks one hint and tries one font nearly
        // always, and `removeAll(keepingCapacity:)` ran the generic `replaceSubrange`, ~170
        // instructions each — 1.6% of Japanese rows, which make ~30 plans a row.)
        asked.emptyKeepingCapacity()
        planHintEnd = Int.max
        var lastResortTried = false
        planFonts.emptyKeepingCapacity()
        while holeCount > 0 {
            var font: Font?
            if !lastResortTried {
                let rightToLeft = paragraphLevels.map { g0 < $0.count && $0[g0] & 1 == 1 } ?? false
                let (hint, readUpTo) = Self.hintCharacter(holes[0..<holeCount], clusters[0..<clusterCount], units, rightToLeft: rightToLeft)
                if asked.isEmpty { planHintEnd = readUpTo }
                if !asked.contains(hint) {
                    asked.append(hint)
                    if let candidate = systemFont(for: hint), !isUsed(candidate) { font = candidate }
                }
                if font == nil && !Self.hasDefiniteScript(hint),
                   let eastAsian = Self.eastAsianCommonHole(holes[0..<holeCount], clusters[0..<clusterCount], units),
                   !asked.contains(eastAsian) {
                    // Chromium asks the system for the hint in the script run's language; a run
                    // whose script only East Asian punctuation decides is Han, and fontconfig
                    // answers a hint no font has (a control) with the CJK font for that
                    // language: `\u{1}。` is .notdef + the CJK `。` (docs/CHROMIUM.md §3(n),
                    // sixteenth round), `\u{1}⚀` two .notdef.
                    asked.append(eastAsian)
                    if let candidate = systemFont(for: eastAsian), !isUsed(candidate) { font = candidate }
                }
                if font == nil {
                    lastResortTried = true
                    if let last = lastResortFont(), !isUsed(last) { font = last }
                }
            }
            guard let font else { break }
            planFonts.append(font)
            let index = UInt16(truncatingIfNeeded: planFonts.count)
            // Through buffers: one uniqueness check per round, not two per hole.
            var planned: [UInt16] = []
            swap(&planned, &plannedFonts)
            let count = holeCount
            holeCount = holes.withUnsafeMutableBufferPointer { holeBuffer in
                planned.withUnsafeMutableBufferPointer { plannedBuffer in
                    clusters.withUnsafeBufferPointer { clusterBuffer in
                        var kept = 0
                        for i in 0..<count {
                            let c = clusterBuffer[holeBuffer[i]]
                            let slot = slotsValid ? c.slot : -1
                            let rendered: Bool
                            if slot >= 0, let known = slotMemo!.planCoverage(at: slot, font: font) {
                                rendered = known
                            } else {
                                rendered = covers(font, units, c.start, c.end)
                                if slot >= 0 { slotMemo!.setPlanCoverage(at: slot, font: font, covers: rendered) }
                            }
                            if rendered {
                                plannedBuffer[c.start - g0] = index
                            } else {
                                holeBuffer[kept] = holeBuffer[i]
                                kept += 1
                            }
                        }
                        return kept
                    }
                }
            }
            swap(&planned, &plannedFonts)
        }
        // What no font renders shows .notdef from the primary font (Chromium's first candidate).
        for h in holes[0..<holeCount] { plannedFonts[clusters[h].start - g0] = Self.plannedPrimary }
    }

    /// The script run a plan starting at `g0` continues, as Chromium's script segmenter sees it
    /// (`ScriptRunIterator`, run over the whole paragraph and only then cut at the shaping
    /// items): a Common character (no script extensions) joins the run before it, so a plan
    /// starting at one belongs to the script met first looking back (`script`, −1: none), or to
    /// the run a Common character with script extensions opened there (`opener`), and ends at a
    /// character of another script. `a\u{1}مرحبا\u{7F}` (Liberation Serif): the U+0001 is in the
    /// Latin run, shaped apart from the Arabic item's DEL (its own hint: .notdef, 5.77 px), while
    /// `\u{1}مرحبا\u{7F}` and ` \u{1}مرحبا\u{7F}` put it in the Arabic run, sharing the DEL's hint
    /// (Noto Sans Symbols2, no width; docs/CHROMIUM.md §3(n), fifteenth round). A plan starting at
    /// a character of a definite script, or at one with extensions (which opens a run of its own
    /// or joins a run that allows it — approximated as its own), reads nothing before `g0`.
    /// `dependsOnText`: the answer depends on text before `g0` (the word cache must not key the
    /// plan on its own chunk). At most 256 units back.
    private func scriptRunContext(_ units: UnsafeBufferPointer<UInt16>, at g0: Int) -> (script: Int32, opener: UInt32?, dependsOnText: Bool) {
        let (first, _) = UnicodeAnalysis.scalar(at: g0, in: units)
        let firstScript = ICU.script(first)
        if (firstScript > 1 && firstScript != 103) || Self.hasScriptExtensions(first) { return (-1, nil, false) }
        var i = g0
        var opener: UInt32?
        let stop = max(0, g0 - 256)
        while i > stop {
            i -= 1
            // The scalar ending at i (a low surrogate with its high one).
            var scalar = UInt32(units[i])
            if scalar & 0xFC00 == 0xDC00 && i > 0 && units[i - 1] & 0xFC00 == 0xD800 {
                i -= 1
                scalar = 0x10000 + ((UInt32(units[i]) & 0x3FF) << 10) + (scalar & 0x3FF)
            }
            let s = ICU.script(scalar)
            if s > 1 && s != 103 {
                // The definite script before a character with extensions: the run is that
                // script if the extensions allow it, else the extensions opened a run.
                if let opener, Self.extensionsExclude(s, opener) { return (-1, opener, true) }
                return (s, nil, true)
            }
            if opener == nil && Self.hasScriptExtensions(scalar) { opener = scalar }
        }
        return (-1, opener, true)
    }

    /// Whether the current plan's segment was decided with text before its start
    /// (``scriptRunContext(_:at:)``): a word starting such a plan is analysed, not cached.
    private(set) var planContinuesRunBefore = false

    /// How many clusters ahead a plan's walk asks for their memo slots (``FontChoiceMemo/Prefetcher``).
    private static let planPrefetchDistance = 8

    /// A cluster of a plan's segment: its units and its `FontChoiceMemo` slot (−1: none).
    private struct PlanCluster {
        var start: Int
        var end: Int
        var slot: Int
    }

    /// Whether a plan may not try `font` (again): the chain's fonts, the emoji font and the
    /// fonts the plan tried already. Mutating, as `systemFont(for:)`: called non-mutating from
    /// the plan, each copied the chooser (a `memcpy` and retains per plan).
    private mutating func isUsed(_ font: Font) -> Bool {
        chain.contains { $0 === font } || emoji === font || planFonts.contains { $0 === font }
    }

    /// Chromium's hint: the characters of the holes, in order, up to and including the first one
    /// with a definite script (not Common or Inherited); of those, the first with a definite
    /// script after the first character, else the first character. The holes come in the order
    /// Chromium queues them, its glyph order: for a right-to-left segment the runs of adjacent
    /// holes come last first (each still read from its logical start), so an Arabic segment
    /// asks for its *last* word's first letter (docs/CHROMIUM.md §2.6).
    ///
    /// Also the unit up to which the hint depends on the paragraph (`Int.max` when that is not
    /// known): left to right, the end of the character with a definite script (only holes
    /// before it were read); right to left, the holes at the segment's end were read first, so
    /// the character after the segment (whose script or level ended it) — `Int.max` when the
    /// segment may go on. The word cache keys a plan-starting word on this.
    private static func hintCharacter(_ holes: ArraySlice<Int>, _ clusters: ArraySlice<PlanCluster>,
                               _ units: UnsafeBufferPointer<UInt16>, rightToLeft: Bool) -> (hint: UInt32, readUpTo: Int) {
        var first: UInt32?
        // Reads hole runs `holes[from..<to]`: the definite-script character and its end, if any.
        func read(_ from: Int, _ to: Int) -> (UInt32, Int)? {
            for index in holes[from..<to] {
                var i = clusters[index].start
                while i < clusters[index].end {
                    let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
                    if Self.hasDefiniteScript(scalar) { return (scalar, i + length) }
                    if first == nil { first = scalar }
                    i += length
                }
            }
            return nil
        }
        guard rightToLeft else {
            if let (hint, end) = read(0, holes.count) { return (hint, end) }
            return (first ?? 0, Int.max)
        }
        // The segment ended inside the paragraph at a cluster after the last one (its script,
        // level or emoji ended it): the hint then depends on the units up to that cluster's end.
        let segmentEnd = clusters.last?.end ?? 0
        let decidedBy = segmentEnd < units.count ? segmentEnd + 1 : Int.max
        var to = holes.count
        while to > 0 {
            var from = to - 1
            while from > 0 && holes[from - 1] == holes[from] - 1 { from -= 1 }
            if let (hint, _) = read(from, to) { return (hint, decidedBy) }
            to = from
        }
        return (first ?? 0, decidedBy)
    }

    /// Whether a Common character has script extensions, by the blocks where Unicode gives
    /// them: East Asian punctuation and symbols (East_Asian_Width F, W or H, which Chromium's
    /// script segmenter counts as Han), Arabic punctuation and digits, the Indic dandas and
    /// number forms. Chromium's segmenter ends a run before one whose scripts miss the run's.
    static func hasScriptExtensions(_ scalar: UInt32) -> Bool {
        if scalar < 0x0600 { return false }
        return ICU.isEastAsian(scalar) || (scalar >= 0x0600 && scalar <= 0x06FF) || scalar == 0x0964 || scalar == 0x0965
            || (scalar >= 0xA830 && scalar <= 0xA839)
    }

    /// Whether `scalar` is a Common character whose script extensions (`hasScriptExtensions`)
    /// do not include the ICU script `script`: Chromium's script segmenter ends a run before it.
    static func extensionsExclude(_ script: Int32, _ scalar: UInt32) -> Bool {
        guard hasScriptExtensions(scalar) else { return false }
        if scalar <= 0x06FF { return script != 2 && script != 32 && script != 35 }  // Arabic, Syriac, Thaana
        if scalar <= 0x0965 || (scalar >= 0xA830 && scalar <= 0xA839) {
            return ![4, 10, 15, 16, 21, 26, 29, 31, 33, 34].contains(script)  // Indic scripts
        }
        return ![5, 17, 18, 20, 22, 39].contains(script)  // Bopomofo, Han, Hangul, Hiragana, Katakana, Yi
    }

    /// The first character of the holes that is Common and East Asian (East_Asian_Width F, W
    /// or H: the punctuation Chromium's script segmenter counts as Han), if any.
    private static func eastAsianCommonHole(_ holes: ArraySlice<Int>, _ clusters: ArraySlice<PlanCluster>,
                                            _ units: UnsafeBufferPointer<UInt16>) -> UInt32? {
        for index in holes {
            var i = clusters[index].start
            while i < clusters[index].end {
                let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
                if ICU.script(scalar) == 0 && ICU.isEastAsian(scalar) { return scalar }
                i += length
            }
        }
        return nil
    }

    private static func hasDefiniteScript(_ scalar: UInt32) -> Bool {
        let s = ICU.script(scalar)
        return s != 0 && s != 1 && s >= 0
    }

    /// The last-resort font: Chromium asks fontconfig for the generic family the style's
    /// description carries, the list's last generic (`GetFallbackFontFamily`). Measured for
    /// `monospace` (DejaVu Sans Mono, which has no U+0000: a NUL gets the primary's .notdef, not
    /// Noto Sans's empty `.null`); other lists keep "Sans" — the measurements of `serif` lists do
    /// not follow that rule (docs/CHROMIUM.md §3(n), eighth and twelfth rounds).
    private func lastResortFont() -> Font? {
        if style.font.path == nil,
           case .generic(.monospace)? = FamilyList.parse(style.font.family).last(where: { if case .generic = $0 { return true }; return false }) {
            return fonts.resolveNamed("monospace", weight: style.font.weight.value, slant: style.font.slant)
        }
        return fonts.lastResortFont(weight: style.font.weight, slant: style.font.slant)
    }

    /// The font the system offers for a hint: for bold or italic text the first family at
    /// normal weight and slant if its character map has the hint, else fontconfig's choice for
    /// the content language (for a Han ideograph, its Chinese disambiguated; ``FallbackLanguage``).
    /// Private-use characters and noncharacters get none.
    private mutating func systemFont(for hint: UInt32) -> Font? {
        if (hint >= 0xE000 && hint <= 0xF8FF) || hint >= 0xF0000 || (hint >= 0xFDD0 && hint <= 0xFDEF) || hint & 0xFFFE == 0xFFFE {
            return nil
        }
        if memoContext >= 0, let memo {
            if let known = memo.systemFont(for: hint, context: memoContext) { return known }
            let font = systemFontUnmemoized(for: hint)
            memo.storeSystemFont(font, for: hint, context: memoContext)
            return font
        }
        return systemFontUnmemoized(for: hint)
    }

    private func systemFontUnmemoized(for hint: UInt32) -> Font? {
        if let normal = normalStyle, normal.covers(hint) { return normal }
        return fonts.systemFallback(for: hint, language: ICU.script(hint) == 17 ? hanLanguage : language)  // 17: Han
    }
}

extension FontFallback {
    /// What decides the font of a cluster at a position besides the cluster itself: whether a
    /// plan (system fallback for the holes of a script segment, made looking ahead) covers the
    /// position, and if so the first font it tried. A cluster the chain renders takes its chain
    /// font whatever the state; a hole cluster inside a plan takes the first tried font that
    /// renders it. So a word whose holes all take the plan's first font is analysed the same
    /// wherever it meets that state again, as long as no plan starts inside it (which would look
    /// past it) and the plan covers all of it — the word cache (ChunkedBuilder) keys on this and
    /// checks the rest (``holesTakeFirstFont(_:_:)``, ``plannedStart``, ``planHintEnd``).
    struct CarriedState: Equatable {
        /// −1: no plan covers the position; 0: a plan that found no font; 1: a plan that tried
        /// at least one.
        var script: Int32
        /// The first font the plan tried.
        var fallback: Font?

        static func == (a: CarriedState, b: CarriedState) -> Bool { a.script == b.script && a.fallback === b.fallback }

        /// No plan covers the position.
        static let outsidePlan = CarriedState(script: -1, fallback: nil)
    }

    /// The state at unit `p` for a word ending at `q`, or nil when a plan covers `p` but ends
    /// before `q` (then the word is analysed, not cached). Inlined, as ``holesTakeFirstFont(_:_:)``:
    /// an out-of-line call on the builder's chooser copied the whole chooser (~350 bytes) first.
    @inline(__always)
    func carried(at p: Int, through q: Int) -> CarriedState? {
        guard p < plannedEnd else { return CarriedState.outsidePlan }
        guard q <= plannedEnd else { return nil }
        return CarriedState(script: planFonts.isEmpty ? 0 : 1, fallback: planFonts.first)
    }

    /// Whether every hole cluster the current plan covers in `p..<q` takes the plan's first
    /// font: then the plan's other fonts (found for holes elsewhere) do not matter there.
    @inline(__always)
    func holesTakeFirstFont(_ p: Int, _ q: Int) -> Bool {
        var u = max(p, plannedStart)
        let end = min(q, plannedEnd)
        while u < end {
            if plannedFonts[u - plannedStart] > 1 { return false }
            u += 1
        }
        return true
    }
}
