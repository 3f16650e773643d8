/// Chromium's line breaker adds up a line's inline items, each item's part on the line rounded
/// up to the 1/64 px layout unit, and its items are split where the bidi level changes (not
/// where the font or script does: a fallback font stays inside one item's shape result). So a
/// line holding a direction change is wider than the one rounding of its total, by up to 1/64 px
/// per change (measured, docs/CHROMIUM.md §1 "Bidi items are rounded apart").
///
/// The measuring form keeps only advances, so the rounding is folded into them: the last unit
/// of every level run but the paragraph's last gets `ceil64(run width) − run width`. That is
/// exact for every line whose first item starts at a run's start (the text's start, a forced
/// break, a direction change) and for every whole run inside a line; for a line that starts
/// inside a run and goes past its end, the folded amount is the whole run's, where Chromium
/// rounds the part from the line start: the line breaker corrects those lines at the segment
/// holding the run's last unit, finding the part from the pen it sums anyway plus the run's
/// stored `tail` (`records`; `plainLinesRoundingRuns`, `levelRunEndCorrection`), never by
/// walking the run's units. Texts without a direction change have no runs and run the line
/// breaker's copy without this rule (`LevelRunRounding`).
enum BidiItemRounding {
    /// A level run that another follows: `start` (where its width is measured from: the run's
    /// first unit, or the unit after its last newline or tab), `last` (its last unit), `width`
    /// (units `start...last`, 16.16 px) and `pad` (`ceil64(width) − width`, folded into unit
    /// `last`'s advance).
    struct Run: Equatable {
        var start: Int32, last: Int32, width: Int32, pad: Int32
        /// For a right-to-left run that ends in white space after an Arabic-script word whose
        /// last letters join one another: the first unit of that joined stretch, and how many
        /// units of punctuation follow its last letter in the word (`ArabicJoining.joinedRest`);
        /// -1 and 0 otherwise. A line starting at the stretch's last letter and reaching the
        /// run's end is laid out by Chromium without that letter (`droppedLineStart`).
        var joinedRest: Int32 = -1, joinedRestTail: Int32 = 0
    }

    /// The runs of `levels` that another run follows on the same line (not before a newline), in
    /// unit order; empty when the levels never change or the text has a tab. A newline or tab
    /// (`pre-wrap`) ends a Chromium item too: a run is measured from the last of them.
    /// `collapsible`: the text's white space collapses (`white-space: normal`); only then does a
    /// run record its `joinedRest` (with `pre-wrap` Chromium keeps the letter: measured,
    /// docs/CHROMIUM.md §3(n), twentieth round).
    static func runs(levels: UnsafeBufferPointer<UInt8>, units: UnsafeBufferPointer<UInt16>,
                     advances: UnsafeBufferPointer<Int32>, collapsible: Bool = true) -> [Run] {
        let n = min(levels.count, advances.count, units.count)
        guard n > 1 else { return [] }
        var runs: [Run] = []
        var width: Int64 = 0
        var start = 0
        var level = levels[0]
        for u in 0..<n {
            // Tab stops count from the unrounded pen here: a paragraph with tabs is left as it was.
            let unit = units[u]
            if unit == 0x09 { return [] }
            if levels[u] != level {
                // A newline ends the line: the run before it gets no pad.
                if unit != 0x0A {
                    let pad = ((width + 1023) & ~1023) - width
                    var run = Run(start: Int32(start), last: Int32(u - 1), width: Int32(clamping: width), pad: Int32(pad))
                    if collapsible, level & 1 != 0, let j = ArabicJoining.joinedRest(units, start, u), j.first < 1 << 24, j.tail < 128 {
                        run.joinedRest = Int32(j.first)
                        run.joinedRestTail = Int32(j.tail)
                    }
                    runs.append(run)
                }
                width = 0
                start = u
                level = levels[u]
            }
            if unit == 0x0A {
                width = 0
                start = u + 1
            } else {
                width += Int64(advances[u])
            }
        }
        return runs
    }

    /// The runs as the measuring form stores them (`MetricsBlock`, extras part): per run
    /// `start`, `last`, `width` (or, sign bit set, `joinedRest` in bits 0–23 and `joinedRestTail`
    /// in bits 24–30), `pad`, `tail` — the width of the run's units from the start of
    /// the segment holding `last` through `last` (unpadded), its sign bit set when `last` is
    /// hanging white space — and that segment. With `tail`, the line breaker finds a line's part
    /// of the run from the pen it has summed anyway: part = (pen from the line start to that
    /// segment) + tail; with the segment, its plain loops know where to stop.
    static func records(_ runs: [Run], segmentEnds: UnsafeBufferPointer<Int32>, contentEnds: UnsafeBufferPointer<Int32>,
                        advances: UnsafeBufferPointer<Int32>) -> [Int32] {
        var flat: [Int32] = []
        flat.reserveCapacity(recordSize * runs.count)
        var segment = 0
        for run in runs {
            let last = Int(run.last)
            while segment < segmentEnds.count - 1 && Int(segmentEnds[segment]) <= last { segment += 1 }
            let segmentStart = segment == 0 ? 0 : Int(segmentEnds[segment - 1])
            var tail: Int64 = 0
            for u in segmentStart...last { tail += Int64(advances[u]) }
            let hanging = last >= Int(contentEnds[segment])
            // The width is not read back; a run with a joined rest keeps that instead (sign bit set),
            // so that the blocks of other texts stay byte for byte as they were.
            let third = run.joinedRest >= 0 ? Int32.min | run.joinedRestTail << 24 | run.joinedRest : run.width
            flat += [run.start, run.last, third, run.pad, Int32(clamping: tail) | (hanging ? Int32.min : 0), Int32(segment)]
        }
        return flat
    }

    /// Int32 fields per stored run (`records(_:segmentEnds:contentEnds:advances:)`).
    static let recordSize = 6

    /// How much a run's part on a line, `part` (16.16 px, from the line start through the
    /// run's last unit, unpadded), is wider rounded up on its own than with the run's folded
    /// `pad`: `ceil64(part) − part − pad` (0 for a line starting at the run's start).
    @inline(__always) static func correction(part: Int64, pad: Int32) -> Int64 {
        ((part &+ 1023) & ~1023) &- part &- Int64(pad)
    }

    /// Runs `body` with `view`'s advances and segment widths carrying the runs' pads (copies;
    /// `view` itself is left alone).
    static func withPads<R>(_ runs: [Run], _ view: ParagraphView, _ body: (ParagraphView) -> R) -> R {
        var advances = Array(view.unitAdvances)
        var widths = Array(view.widths)
        var spaceWidths = Array(view.spaceWidths)
        var segment = 0
        for run in runs where run.pad > 0 {
            let u = Int(run.last), pad = run.pad
            advances[u] &+= pad
            while segment < view.segmentEnds.count - 1 && Int(view.segmentEnds[segment]) <= u { segment += 1 }
            if u < Int(view.contentEnds[segment]) { widths[segment] &+= pad } else { spaceWidths[segment] &+= pad }
        }
        return advances.withUnsafeBufferPointer { a in
            widths.withUnsafeBufferPointer { w in
                spaceWidths.withUnsafeBufferPointer { s in
                    var padded = view
                    padded.unitAdvances = a
                    padded.widths = w
                    padded.spaceWidths = s
                    return body(padded)
                }
            }
        }
    }
}

/// Whether the line breaker's loop is compiled with `BidiItemRounding`'s line-start correction:
/// `On` for blocks with bidi level runs, `Off` (the correction compiled out, the loop as it is
/// without the rule) for every other block.
protocol LevelRunRounding {
    static var on: Bool { get }
}

/// `LevelRunRounding` on.
enum RoundsLevelRuns: LevelRunRounding { @inline(__always) static var on: Bool { true } }
/// `LevelRunRounding` off.
enum IgnoresLevelRuns: LevelRunRounding { @inline(__always) static var on: Bool { false } }

extension MetricsBlock.View {
    /// How much segment `i` (special) grows, in its content or its hanging white space, on a
    /// line starting at unit `lineStart`: nonzero when `i` holds the last unit of the level run
    /// the line starts inside (after the run's start). Chromium rounds the run's part from the
    /// line start, `ceil64(part) − part`, where the stored advances carry the whole run's pad.
    ///
    /// The part is found from what the breaker has summed: `pen` (the pen at segment `i`'s start
    /// from the line start, hanging spaces included) plus the run's stored `tail`. That pen is
    /// the units' advances when the line's first segment `lineFirst` counted its plain width
    /// (the line starts at it, not reshaped, not broken inside); otherwise the line's units
    /// are summed (lines after an overflow-wrap split, or starting with reshaped punctuation).
    @inline(never)
    func levelRunEndCorrection(_ runs: MetricsBlock.BidiRunTable, segment i: Int, lineStart: Int, pen: Int64,
                               lineFirst: Int, limit: Int64) -> (content: Int64, trailing: Int64) {
        guard let (run, tail, hanging) = runs.run(endingAtOrAfter: lineStart), lineStart > Int(run.start) else { return (0, 0) }
        let last = Int(run.last)
        let segmentStart = Int(start(i))
        guard last >= segmentStart && last < Int(end(i)) else { return (0, 0) }
        var part: Int64
        if lineStart == segmentStart {
            part = tail
        } else if lineStart > segmentStart {
            // Resumed inside the segment (after an overflow-wrap split).
            part = advanceSum(lineStart..<last + 1) - Int64(run.pad)
        } else if lineStart == Int(start(lineFirst)) && flags(lineFirst) & Flag.lineStartAlone == 0
                    && (widths[lineFirst] <= limit || codes[lineFirst] & MetricsBlock.Code.breakable == 0) {
            part = pen + tail
        } else {
            part = advanceSum(lineStart..<segmentStart) + tail
        }
        let amount = BidiItemRounding.correction(part: part, pad: run.pad)
        return hanging ? (0, amount) : (amount, 0)
    }
}

/// Arabic-script joining (Unicode's ArabicShaping.txt, the Arabic blocks), for the one place the
/// line breaker needs to know where HarfBuzz would flag a right-to-left word unsafe to break: two
/// letters that join each other cannot be broken apart without reshaping both.
enum ArabicJoining {
    /// Joining type of `unit`: `d` dual, `r` right (joins only the letter before it), `t`
    /// transparent (marks), `c` join-causing (tatweel, ZWJ), `u` none.
    enum Kind { case d, r, t, c, u }

    static func kind(_ unit: UInt16) -> Kind {
        // U+0620–U+08FF from a table (one load, not a chain of range tests: this runs for every
        // Arabic-script unit a text prepares); the rest by `kindOutsideTable`.
        let i = Int(unit) &- 0x0620
        guard i >= 0 && i < 0x2E0 else { return kindOutsideTable(unit) }
        switch kindTable.utf8Start[i] {
        case 0x64: return .d
        case 0x72: return .r
        case 0x74: return .t
        case 0x63: return .c
        default: return .u
        }
    }

    /// `kind` of U+0620–U+08FF, one letter per unit (d, r, t, c, u), from Unicode's
    /// ArabicShaping.txt as `kindBySwitch` has it (checked unit by unit in the tests).
    static let kindTable: StaticString = """
        durrrrdrdrdddddrrrrdddddddddddddcdddddddrddttttttttttttttttttttt\
        uuuuuuuuuuuuuuddtrrrurrrddddddddddddddddrrrrrrrrrrrrrrrrrrdddddd\
        ddddddddddddddddddddddddddddddddrddrrrrrrrrrdrdrddrrurtttttttuut\
        tttttuuttuttttrruuuuuuuuuuddduuduuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu\
        uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuudddddddddrrrdddd\
        dddddddddddrrddddrdrrdddrrdddddduuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu\
        uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu\
        uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu\
        uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu\
        uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu\
        ddddddddddrrrurddrrddddddrdddddddddddddddutttttttttttttttttttttt\
        ttuttttttttttttttttttttttttttttt
        """

    /// `kind` below U+0620 and above U+08FF: the marks U+0610–U+061A and ZWJ.
    static func kindOutsideTable(_ unit: UInt16) -> Kind {
        switch unit {
        case 0x200D: return .c
        case 0x0610...0x061A: return .t
        default: return .u
        }
    }

    /// The joining types as ranges (the source of `kindTable`).
    static func kindBySwitch(_ unit: UInt16) -> Kind {
        switch unit {
        case 0x0640, 0x200D: return .c
        case 0x0610...0x061A, 0x064B...0x065F, 0x0670, 0x06D6...0x06DC, 0x06DF...0x06E4, 0x06E7, 0x06E8, 0x06EA...0x06ED,
             0x08CA...0x08E1, 0x08E3...0x08FF: return .t
        case 0x0622...0x0625, 0x0627, 0x0629, 0x062F...0x0632, 0x0648, 0x0671...0x0673, 0x0675...0x0677, 0x0688...0x0699,
             0x06C0, 0x06C3...0x06CB, 0x06CD, 0x06CF, 0x06D2, 0x06D3, 0x06D5, 0x06EE, 0x06EF,
             0x0759...0x075B, 0x076B, 0x076C, 0x0771, 0x0773, 0x0774, 0x0778, 0x0779,
             0x08AA...0x08AC, 0x08AE, 0x08B1, 0x08B2, 0x08B9: return .r
        case 0x0620, 0x0626, 0x0628, 0x062A...0x062E, 0x0633...0x063F, 0x0641...0x0647, 0x0649, 0x064A, 0x066E, 0x066F,
             0x0678...0x0687, 0x069A...0x06BF, 0x06C1, 0x06C2, 0x06CC, 0x06CE, 0x06D0, 0x06D1, 0x06FA...0x06FC, 0x06FF,
             0x0750...0x0758, 0x075C...0x076A, 0x076D...0x0770, 0x0772, 0x0775...0x0777, 0x077A...0x077F,
             0x08A0...0x08A9, 0x08AF, 0x08B0, 0x08B3...0x08B8, 0x08BA...0x08C8: return .d
        default: return .u
        }
    }

    /// Whether `units[k]` is a letter (or tatweel) that the letter before it, its marks
    /// skipped, joins: HarfBuzz's Arabic shaper flags the break before it unsafe (the forms of
    /// both letters depend on it), which Chromium's line breaker checks (`rightToLeftJoinedBreak`).
    static func joinsLetterBefore(_ units: UnsafeBufferPointer<UInt16>, _ k: Int) -> Bool {
        let this = kind(units[k])
        guard this == .d || this == .r || this == .c else { return false }
        var p = k - 1
        while p >= 0 && kind(units[p]) == .t { p -= 1 }
        guard p >= 0 else { return false }
        let before = kind(units[p])
        return before == .d || before == .c
    }

    /// Punctuation that may end an Arabic word after its last letter (`فقط,`): it joins nothing.
    @inline(__always) static func isTrailingPunctuation(_ unit: UInt16) -> Bool {
        (unit > 0x20 && unit < 0x80 && !(unit >= 0x30 && unit <= 0x39) && !((unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x7A))
            || unit == 0x060C || unit == 0x061B || unit == 0x061F || unit == 0x06D4 || (unit >= 0x2010 && unit <= 0x2027)
    }

    /// For the units `start..<end` of a right-to-left run that ends in spaces after a word: when
    /// the word's last letters join one another (two or more), the first unit of that joined
    /// stretch — every letter boundary after it is unsafe to break — and how many units of
    /// punctuation follow the stretch's last letter (and its marks) in the word. Nil when the run
    /// does not end in a space or the word's last letter joins nothing before it.
    static func joinedRest(_ units: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) -> (first: Int, tail: Int)? {
        var w = end - 1
        guard w > start, units[w] == 0x20 else { return nil }
        while w > start && units[w] == 0x20 { w -= 1 }
        let contentLast = w
        while w > start && isTrailingPunctuation(units[w]) { w -= 1 }
        let tail = contentLast - w
        // The last letter, under its marks; then back over letters that the letter before joins.
        while w > start && kind(units[w]) == .t { w -= 1 }
        var first = w
        var k = w
        while true {
            let this = kind(units[k])
            guard this == .d || this == .r || this == .c else { break }
            var p = k - 1
            while p >= start && kind(units[p]) == .t { p -= 1 }
            guard p >= start else { break }
            let before = kind(units[p])
            guard before == .d || before == .c else { break }
            first = p
            k = p
        }
        return first < w ? (first, tail) : nil
    }
}

extension MetricsBlock.View {
    /// Where the fonts of the line `start..<end` start to count in its box when Chromium lays
    /// the line out without the last letter of a word (measured, docs/CHROMIUM.md §3(n),
    /// thirteenth round): the line starts at the last letter of a right-to-left run's last word,
    /// which joins the letter before it (the line follows an overflow-wrap split there, at an
    /// offset HarfBuzz flags unsafe to break), and reaches the end of that run, which ends in the
    /// space after the word, and the line ends there too (`السعر a` at 54–58 px, `رa` on one line,
    /// keeps its `ر`). Chromium shapes the letter again alone; when the letter so shaped
    /// and the space, each rounded up to the layout unit, fit `limit` (``fitLimit``), it takes
    /// the rest of the run whole (`ShapeToEnd`), and the reshaped letter is lost: not drawn, its
    /// font not in the line box. Liberation Serif 39.5 px (Arabic from DejaVu Sans), `السعر ١`: at
    /// 31.66–40.8 px the `ر` line is 46 px, not 47; below 2026/64 px (`ر` alone 1395/64 + the space
    /// 632/64 do not fit) it is 47; with two letters left (`عر`) it is 47 too. Punctuation after
    /// the letter stays and counts with the space (`ط,` of `فقط, 142`). With `white-space:
    /// pre-wrap` the letter stays too (its runs record no `joinedRest`; twentieth round). Returns
    /// where the letter ends, or nil when the rule does not apply (`limit` < 0: not known).
    func droppedLineStart(_ start: Int, _ end: Int, limit: Int64) -> Int? {
        guard limit >= 0, headerFlags & MetricsBlock.HeaderFlag.bidiRuns != 0, start > 0 else { return nil }
        let runs = bidiRunTable
        guard let k = runs.index(endingAtOrAfter: start), let rest = runs.joinedRest(k), start > rest.first else { return nil }
        let (run, _, hanging) = runs[k]
        guard hanging, Int(run.start) <= rest.first else { return nil }
        let i = runs.segment(k)
        let wordEnd = contentEnd(i), letterEnd = wordEnd - rest.tail
        guard start < letterEnd, start > Int(self.start(i)), end == Int(self.end(i)) else { return nil }
        // The line starts at the stretch's last letter (one cluster, with its marks).
        let units = self.units
        var next = start + 1
        while next < letterEnd && !(units.isClusterStart(next) && units.isGraphemeStart(next)) { next += 1 }
        guard next == letterEnd else { return nil }
        let after = advanceSum(letterEnd..<wordEnd) + trailing(i) - Int64(run.pad)
        guard Self.ceilToLayoutUnit(lineStartWidth(start, letterEnd)) + Self.ceilToLayoutUnit(after) <= limit else { return nil }
        return letterEnd
    }
}

extension MetricsBlock.BidiRunTable {
    /// The first run whose last unit is at or after `u`, if any.
    func index(endingAtOrAfter u: Int) -> Int? {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if Int(self[mid].run.last) < u { low = mid + 1 } else { high = mid }
        }
        return low < count ? low : nil
    }

    /// Run `k`'s `joinedRest` and `joinedRestTail` (`BidiItemRounding.records`), if it has them.
    func joinedRest(_ k: Int) -> (first: Int, tail: Int)? {
        let third = base.load(fromByteOffset: 4 &* (BidiItemRounding.recordSize &* k &+ 2), as: Int32.self)
        return third < 0 ? (Int(third & 0xFF_FFFF), Int((third >> 24) & 0x7F)) : nil
    }
}
