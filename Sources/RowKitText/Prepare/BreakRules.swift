import CHarfBuzz
import CICU

/// Break rules the browser applies on top of ICU's UAX #14 line breaking.
///
/// Between two printable ASCII characters Chromium does not ask ICU: it uses a fixed table
/// (breaks before `( < [ {` after closing punctuation and symbols, after `-` and `?` before most
/// characters, nowhere else: never after `/`, `.`, `=`, `&`). The table below was measured from
/// Chromium itself, pair by pair (`Fidelity/ascii_breaks.py`, see docs/CHROMIUM.md §3(i)).
enum ASCIIBreakRules {
    /// Characters after which a break is allowed before an opening bracket `( < [ {`.
    private static let beforeOpener = Array("!\"#%&)*+,.:;=>\\]|}~".utf8)
    private static let openers = Array("(<[{".utf8)
    /// What may follow `-` across a break (digits are decided by context, see `allowsBreak`).
    private static let afterHyphen = Array("\"#%&'(*+-<=>@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\^_`abcdefghijklmnopqrstuvwxyz{|~".utf8)
    /// What may follow `?` across a break.
    private static let afterQuestion = Array("#$%&(*+-0123456789<=>@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\^_`abcdefghijklmnopqrstuvwxyz{|~".utf8)

    /// 128 rows of 128 bits: bit b of row a is set when a break is allowed between a and b.
    private static let table: [UInt64] = {
        var bits = [UInt64](repeating: 0, count: 256)
        func allow(_ a: UInt8, _ b: UInt8) { bits[Int(a) * 2 + Int(b >> 6)] |= 1 << UInt64(b & 63) }
        for a in beforeOpener { for b in openers { allow(a, b) } }
        for b in afterHyphen { allow(UInt8(ascii: "-"), b) }
        for b in afterQuestion { allow(UInt8(ascii: "?"), b) }
        return bits
    }()

    /// True when both units are printable ASCII (`!`...`~`): then this table decides, not ICU.
    @inline(__always) static func applies(_ a: UInt16, _ b: UInt16) -> Bool {
        a &- 0x21 < 0x5E && b &- 0x21 < 0x5E
    }

    /// Whether a line may break between `a` and `b` (both printable ASCII); `before` is the
    /// unit preceding `a` (0 at the start). A `-` before a digit allows a break only after a
    /// letter or digit, as in `ABCD-1234` but not in a minus sign.
    static func allowsBreak(before: UInt16, _ a: UInt16, _ b: UInt16) -> Bool {
        if a == 0x2D && b >= 0x30 && b <= 0x39 {
            return (before >= 0x30 && before <= 0x39) || (before | 0x20 >= 0x61 && before | 0x20 <= 0x7A)
        }
        return table[Int(a) * 2 + Int(b >> 6)] & (1 << UInt64(b & 63)) != 0
    }
}

/// Unicode 15.1's rules for quotation marks between East Asian text (UAX #14 LB19, LB19a), which
/// the system ICU (Unicode 15.0) lacks and Chromium's ICU has: `汉“汉”汉` breaks as
/// `汉|“汉”|汉`, while quotes next to non-East-Asian text still glue to their neighbours.
enum QuotationRules {
    /// Whether a break is allowed at `p`, where ICU said no.
    static func allowsBreak(_ units: UnsafeBufferPointer<UInt16>, at p: Int) -> Bool {
        let (b, bLength) = UnicodeAnalysis.scalar(at: p, in: units)
        let (a, aStart) = scalar(before: p, in: units)
        if rk_quotation_kind(b) == 1 {
            // Before an opening quote: East Asian on both sides of it.
            guard rk_is_east_asian(a) != 0, rk_forbids_break_after(a) == 0, p + bLength < units.count else { return false }
            return rk_is_east_asian(UnicodeAnalysis.scalar(at: p + bLength, in: units).0) != 0
        }
        if rk_quotation_kind(a) == 2 {
            // After a closing quote: East Asian on both sides of it.
            guard aStart > 0, rk_is_east_asian(b) != 0, rk_forbids_break_before(b) == 0 else { return false }
            return rk_is_east_asian(scalar(before: aStart, in: units).0) != 0
        }
        return false
    }

    /// The scalar ending at `p` and where it starts.
    static func scalar(before p: Int, in units: UnsafeBufferPointer<UInt16>) -> (UInt32, Int) {
        if p >= 2 && units[p - 1] >= 0xDC00 && units[p - 1] <= 0xDFFF && units[p - 2] >= 0xD800 && units[p - 2] <= 0xDBFF {
            return (UnicodeAnalysis.scalar(at: p - 2, in: units).0, p - 2)
        }
        return (UnicodeAnalysis.scalar(at: p - 1, in: units).0, p - 1)
    }
}

/// CJK punctuation classes for `text-spacing-trim: normal` (Chromium's default): fullwidth
/// punctuation next to other punctuation loses half its em box.
enum CJKPunctuation {
    enum Kind { case open, close, dot, comma, middle }

    static func kind(_ unit: UInt16) -> Kind? {
        switch unit {
        case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0xFF08, 0xFF3B, 0xFF5B, 0x2018, 0x201C:
            return .open
        case 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0xFF09, 0xFF3D, 0xFF5D, 0x2019, 0x201D:
            return .close
        case 0x3002, 0xFF0E: return .dot
        case 0x3001, 0xFF0C: return .comma
        case 0x30FB: return .middle
        default: return nil
        }
    }

    /// A full stop or comma: trimmed before other punctuation, but never at a line end.
    static func growsAtLineEnd(_ unit: UInt16) -> Bool {
        let k = kind(unit)
        return k == .dot || k == .comma
    }

    /// Whether the unit at `i` is trimmed by its neighbours: a closing mark (bracket, `。`, `、`)
    /// followed by any punctuation loses its end half; an opening bracket preceded by any
    /// punctuation loses its start half, unless the mark before it was already trimmed.
    /// Only neighbours inside `run` (the same font) count, as in Chromium.
    static func isTrimmed(_ units: UnsafeBufferPointer<UInt16>, _ i: Int, run: Range<Int>) -> Bool {
        guard let this = kind(units[i]) else { return false }
        let next = i + 1 < run.upperBound ? kind(units[i + 1]) : nil
        if this != .open && this != .middle && next != nil { return true }
        if this == .open, i > run.lowerBound, let previous = kind(units[i - 1]) {
            // A closing mark before us is trimmed already (it is followed by punctuation).
            return previous == .open || previous == .middle
        }
        return false
    }
}

/// Line-end rules of Chromium's line breaker that depend on where a line ends (used by
/// `forEachLine`; measured, docs/CHROMIUM.md §3(b, e, n)).
extension PreparedText {
    /// How much wider segment `i` is when it ends a line: a fullwidth `。` or `、` shaped half-width
    /// because punctuation follows it is full width again when the line breaks between them
    /// (Chromium trims only pairs on one line, and never trims a full stop or comma at a line end).
    func lineEndGrowth(segment i: Int) -> Int64 {
        max(0, -endTrim(segment: i))
    }

    /// How much segment `i`'s closing bracket may shrink at a line end (0 if it may not).
    func lineEndTrim(segment i: Int) -> Int64 {
        max(0, endTrim(segment: i))
    }

    /// Where Chromium ends a line whose last break is a soft hyphen that does not fit with its
    /// hyphen and that has no earlier break that fits: overflow-wrap breaks the word between
    /// graphemes, through the following soft hyphens too, at the last boundary that fits —
    /// never just before a soft hyphen (it stays with the grapheme before it), and just after
    /// one only with its hyphen (`un‐be‐liev` at 55 px: `u` / `n‐` / `bel`, measured,
    /// docs/CHROMIUM.md §3(b)). When none fits, the line takes its first grapheme (`m` / `‐`).
    /// Returns the line's end, width (hyphen included) and whether it shows a hyphen; nil when
    /// the line starts at the end of the text.
    func softHyphenOverflowBreak(lineStart: Int, limit: Int64, hyphenWidth: Int64) -> (end: Int, width: Int64, hyphen: Bool)? {
        let units = storage.units
        let advances = storage.unitAdvances
        var best: (end: Int, width: Int64, hyphen: Bool)?
        var first: (end: Int, width: Int64, hyphen: Bool)?
        var x: Int64 = 0
        var u = lineStart
        while u < units.count {
            let unit = units[u]
            if unit == 0x20 || unit == 0x09 || unit == 0x0A { break }
            var v = u + 1
            var w = Int64(advances[u])
            while v < units.count && !isGraphemeStart(v) { w += Int64(advances[v]); v += 1 }
            x += w
            let afterSoftHyphen = units[v - 1] == 0xAD
            if first == nil { first = (v, afterSoftHyphen ? x + hyphenWidth : x, afterSoftHyphen) }
            if x > limit { break }
            if v < units.count && units[v] == 0xAD {
                // Never just before a soft hyphen.
            } else if afterSoftHyphen {
                if Self.ceilToLayoutUnit(x) + Self.ceilToLayoutUnit(hyphenWidth) <= limit { best = (v, x + hyphenWidth, true) }
            } else {
                best = (v, x, false)
            }
            u = v
        }
        return best ?? first
    }

    /// For a line that starts inside a word of a script ICU segments with a dictionary (Thai,
    /// Lao, Khmer, Myanmar…) after overflow-wrap split the word: Chromium runs its break
    /// iterator again on the text from the line start, which finds other words than it found in
    /// the whole text (`รายงานก่อน` split as `รายง` continues `า|นก่อ|นวัน`; measured: without
    /// context before the line start, `ควา` continues `มก|ว้าง`, not `ม|กว้าง`). Returns the new break offsets after `lineStart`, up to the end of the
    /// dictionary run (an original break), or nil when the text there is not such a script.
    func dictionaryBreaks(from lineStart: Int) -> [Int32]? {
        let units = storage.units
        guard lineStart < units.count, Self.segmentsWithDictionary(units[lineStart]) else { return nil }
        var p = lineStart
        while p < units.count && (Self.segmentsWithDictionary(units[p]) || Self.isMark(units[p])) { p += 1 }
        // Extend to the original break at or after the run's end.
        let ends = segmentEnds
        var low = 0, high = ends.count - 1
        while low < high {
            let mid = (low + high) / 2
            if Int(ends[mid]) < p { low = mid + 1 } else { high = mid }
        }
        let runEnd = Int(ends[low])
        let from = lineStart
        let found = units.withUnsafeBufferPointer { buffer in
            try? UnicodeAnalysis.lineBreaks(UnsafeBufferPointer(rebasing: buffer[from..<runEnd]), language: style.lang)
        }
        guard let found else { return nil }
        var result = found.ends.map { $0 + Int32(from) }.filter { Int($0) > lineStart }
        if result.last.map({ Int($0) }) != runEnd { result.append(Int32(runEnd)) }
        return result
    }

    /// Width of the hanging white space `a..<b` after content ending at pen `x`: its advances,
    /// or with a tab, spaces and tab stops (CSS `tab-size: 8`) as ``tabbedSpaceWidth(segment:from:)``.
    func trailingWidth(_ a: Int, _ b: Int, from x: Int64) -> Int64 {
        let units = storage.units
        guard units[a..<b].contains(0x09) else { return width(Int32(a), Int32(b)) }
        var pen = x
        for unit in units[a..<b] {
            if unit == 0x20 { pen += Int64(spaceWidth) }
            else if unit == 0x09 { pen = TabStop.end(from: pen, spaceWidth: spaceWidth) }
        }
        return pen - x
    }

    /// Scripts ICU breaks into words with a dictionary.
    @inline(__always) static func segmentsWithDictionary(_ unit: UInt16) -> Bool {
        (unit >= 0x0E00 && unit <= 0x0EFF) || (unit >= 0x1000 && unit <= 0x109F) || (unit >= 0x1780 && unit <= 0x17FF)
            || (unit >= 0x19E0 && unit <= 0x19FF) || (unit >= 0x1A20 && unit <= 0x1AAF) || (unit >= 0xA9E0 && unit <= 0xA9FF)
            || (unit >= 0xAA60 && unit <= 0xAA7F)
    }

    @inline(__always) static func isMark(_ unit: UInt16) -> Bool {
        unit == 0x200C || unit == 0x200D || (unit >= 0x0300 && unit <= 0x036F)
    }
}

extension PreparedText {
    /// Lays out a dictionary-script run from a line start inside one of its words with the break
    /// offsets ``dictionaryBreaks(from:)`` found (the last is an original break), greedily and
    /// with overflow-wrap, finding the words again after every split inside a word. On return
    /// the line holding the run's last piece is still open: `lineStart`, `content` and `x`
    /// describe it. Returns the index of the first segment after the run, or nil when `emit`
    /// asked to stop.
    func layOutDictionaryRun(_ firstBreaks: [Int32], lineStart: inout Int32, content: inout Int64, x: inout Int64,
                             limit: Int64, _ emit: (Int32, Int32, Int64, Bool) -> Bool) -> Int? {
        let units = storage.units
        var breaks = firstBreaks
        var k = 0
        var a = Int(lineStart)
        var placed = false
        content = 0
        x = 0
        while k < breaks.count {
            let b = Int(breaks[k])
            var contentEnd = b
            while contentEnd > a && isHangingSpace(units[contentEnd - 1]) { contentEnd -= 1 }
            let w = a == Int(lineStart) && !placed ? lineStartWidth(a, contentEnd) : width(Int32(a), Int32(contentEnd))
            if placed && x + w > limit {
                if !emit(lineStart, Int32(a), content, false) { return nil }
                lineStart = Int32(a)
                placed = false
            }
            if !placed && w > limit {
                var gx: Int64 = 0, u = a
                var again: [Int32]?
                while u < contentEnd {
                    let piece = breakWordLine(from: u, contentEnd: contentEnd, limit: limit, endTrim: 0)
                    if piece.end == contentEnd { gx = piece.width; break }
                    if !emit(lineStart, Int32(piece.end), piece.width, false) { return nil }
                    lineStart = Int32(piece.end)
                    u = piece.end
                    if let found = dictionaryBreaks(from: u) { again = found; break }
                }
                if let again {
                    breaks = again
                    k = 0
                    a = Int(lineStart)
                    continue
                }
                content = gx
            } else {
                content = placed ? x + w : w
            }
            x = content + trailingWidth(contentEnd, b, from: content)
            placed = true
            a = b
            k += 1
        }
        // The segment that ends where the run ends.
        let ends = segmentEnds
        var low = 0, high = ends.count - 1
        while low < high {
            let mid = (low + high) / 2
            if Int(ends[mid]) < a { low = mid + 1 } else { high = mid }
        }
        return low + 1
    }
}

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
    /// first unit) over the graphemes of each multi-grapheme cluster of the run `units[item]`.
    /// Uses `buffer` (its contents are replaced).
    static func creditGraphemes(_ unitAdvances: inout [Int32], clusters: [Int32], units: UnsafeBufferPointer<UInt16>,
                                item: Range<Int>, font: Font, rightToLeft: Bool, language: ShapingLanguage,
                                buffer: OpaquePointer) {
        let count = item.count
        guard count > 1 else { return }
        var isStart = [Bool](repeating: false, count: count + 1)
        for c in clusters where c >= 0 && Int(c) < count { isStart[Int(c)] = true }
        isStart[count] = true
        var graphemeStart: [Bool]?
        var c0 = 0
        while c0 < count {
            var c1 = c0 + 1
            while !isStart[c1] { c1 += 1 }
            defer { c0 = c1 }
            guard c1 - c0 > 1 else { continue }
            if graphemeStart == nil {
                var starts = [Bool](repeating: false, count: count + 1)
                let slice = UnsafeBufferPointer(rebasing: units[item])
                var previous = 0
                if let ends = try? UnicodeAnalysis.graphemeEnds(slice) {
                    for end in ends { starts[previous] = true; previous = Int(end) }
                }
                starts[count] = true
                graphemeStart = starts
            }
            guard let starts = graphemeStart else { return }
            let inner = (c0 + 1..<c1).filter { starts[$0] }
            guard !inner.isEmpty, isStart[c0] else { continue }
            let total = unitAdvances[c0]
            var previous: Int32 = 0
            var credited = c0
            for g in inner {
                let prefix = width(units, item.lowerBound + c0..<item.lowerBound + g, font: font, rightToLeft: rightToLeft,
                                   language: language, buffer: buffer)
                unitAdvances[credited] = prefix &- previous
                previous = prefix
                credited = g
            }
            for u in c0 + 1..<c1 where !inner.contains(u) { unitAdvances[u] = 0 }
            unitAdvances[credited] = total &- previous
        }
    }

    /// The advance of `units[range]` shaped alone, in design units.
    static func width(_ units: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, font: Font, rightToLeft: Bool,
                              language: ShapingLanguage, buffer: OpaquePointer) -> Int32 {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf16(buffer, units.baseAddress! + range.lowerBound, Int32(range.count), 0, Int32(range.count))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        if let language = language.language { hb_buffer_set_language(buffer, language) }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font.hbFont, buffer, nil, 0)
        var count: UInt32 = 0
        guard let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return 0 }
        var total: Int32 = 0
        for i in 0..<Int(count) { total &+= positions[i].x_advance }
        return total
    }
}

extension PreparedText {
    /// Where a line that starts at unit `u` of an overflowing word ends when overflow-wrap
    /// breaks the word (`u..<contentEnd` is the rest of the word), as Chromium's shaping line
    /// breaker finds it (docs/CHROMIUM.md §3(h)): the candidate is the cluster that reaches past
    /// the limit; a break before it when it starts after `u`, or inside it before one of its
    /// graphemes, the last whose prefix (shaped alone, see ``ClusterSplit``) still fits; a line
    /// that fits nothing keeps the first cluster but its last grapheme, or the first grapheme.
    /// `endTrim` is what a closing bracket ending the word may give up to fit. Returns the end,
    /// the line's width there (untrimmed) and whether the bracket's trim made it fit.
    func breakWordLine(from u: Int, contentEnd: Int, limit: Int64, endTrim: Int64) -> (end: Int, width: Int64, trimmed: Bool) {
        let lo = max(0, u - 1)
        let isClusterStart = clusterStarts(lo..<contentEnd)
        @inline(__always) func boundary(_ k: Int) -> Bool { k >= contentEnd || (isClusterStart[k - lo] && isGraphemeStart(k)) }
        let advances = storage.unitAdvances
        let kerning = kerningGrowth(u..<contentEnd)
        // A line that starts inside a cluster (after a break inside it) begins with the rest of
        // the cluster shaped alone, as Chromium reshapes a line start that is not safe to break
        // (a lone Myanmar vowel sign then gets HarfBuzz's dotted circle).
        let startsInside = !boundary(u)
        // Every grapheme boundary after `u` so far, with the width of the line ending there as
        // Chromium checks it: inside a cluster its prefix shaped alone; at a cluster end the
        // cluster's own width when kerning tied it to the next one.
        var candidates: [(end: Int, width: Int64)] = []
        var x: Int64 = 0
        var c = u
        while c < contentEnd {
            var c1 = c + 1
            while !boundary(c1) { c1 += 1 }
            let alone = c == u && startsInside
            var total: Int64 = 0
            if alone { total = shapedAlone(u..<c1) } else { for k in c..<c1 { total += Int64(advances[k]) } }
            var prefix: Int64 = 0
            var k = c
            for g in c + 1..<c1 where isGraphemeStart(g) {
                if alone {
                    prefix = shapedAlone(u..<g)
                } else {
                    while k < g { prefix += Int64(advances[k]); k += 1 }
                }
                candidates.append((g, x + prefix))
            }
            if x + total > limit {
                if c1 == contentEnd && endTrim > 0 && x + total - endTrim <= limit { return (contentEnd, x + total, true) }
                // The latest boundary up to the cluster reaching past the limit whose line fits.
                if let fit = candidates.last(where: { $0.width <= limit }) { return (fit.end, fit.width, false) }
                // Nothing fits: the line overflows up to the latest boundary, or takes the first grapheme.
                if let last = candidates.last { return (last.end, last.width, false) }
                return (c1, total, false)
            }
            x += total
            c = c1
            if c < contentEnd { candidates.append((c, x + (kerning[c] ?? 0))) }
        }
        return (contentEnd, x, false)
    }

    /// What kerning took from the clusters that end at these units (16.16 px, positive): those
    /// HarfBuzz kerned against the next cluster across a point unsafe to break (``LineEndKerning``).
    func kerningGrowth(_ range: Range<Int>) -> [Int: Int64] {
        var growth: [Int: Int64] = [:]
        let size = fontSize
        for run in storage.runs where Int(run.end) > range.lowerBound && Int(run.start) < range.upperBound && !run.shaped.kerning.isEmpty {
            let pairs = run.shaped.kerning
            let scale = run.font.fixedScale(size: size)
            for p in stride(from: 0, to: pairs.count, by: 2) {
                let c = Int(run.start) + Int(pairs[p])
                guard range.contains(c) else { continue }
                var end = c + 1
                while end < Int(run.end) && !isGraphemeStart(end) { end += 1 }
                growth[end] = -run.font.fixedAdvance(pairs[p + 1], scale: scale, size: size)
            }
        }
        return growth
    }

    /// Width of `a..<b` at the start of a line: when `a` is inside a cluster (a break inside it
    /// ended the previous line), the rest of the cluster counts shaped alone (``shapedAlone(_:)``).
    func lineStartWidth(_ a: Int, _ b: Int) -> Int64 {
        guard a > 0, a < b else { return width(Int32(a), Int32(b)) }
        let starts = clusterStarts(a..<b)
        if starts[0] && isGraphemeStart(a) { return width(Int32(a), Int32(b)) }
        var c1 = a + 1
        while c1 < b && !(starts[c1 - a] && isGraphemeStart(c1)) { c1 += 1 }
        return shapedAlone(a..<c1) + width(Int32(c1), Int32(b))
    }

    /// Width of `range` (inside one glyph run) shaped alone with the run's font, 16.16 px: a
    /// line start inside a cluster. Layout shapes only here, for lines that start inside a
    /// cluster, which only overflow-wrap makes.
    func shapedAlone(_ range: Range<Int>) -> Int64 {
        guard let run = storage.runs.first(where: { Int($0.start) <= range.lowerBound && Int($0.end) >= range.upperBound }) else {
            return width(Int32(range.lowerBound), Int32(range.upperBound))
        }
        let buffer = hb_buffer_create()!
        defer { hb_buffer_destroy(buffer) }
        let language = ShapingLanguage(style.lang)
        let designUnits = storage.units.withUnsafeBufferPointer { units in
            ClusterSplit.width(units, range, font: run.font, rightToLeft: run.bidiLevel & 1 == 1, language: language, buffer: buffer)
        }
        let size = fontSize
        return Int64(clamp(run.font.fixedAdvance(designUnits, scale: run.font.fixedScale(size: size), size: size)))
    }

    /// For each unit of `range`, whether a HarfBuzz cluster starts there (units no run covers
    /// count as starts).
    func clusterStarts(_ range: Range<Int>) -> [Bool] {
        var starts = [Bool](repeating: false, count: range.count + 1)
        var covered = [Bool](repeating: false, count: range.count)
        for run in storage.runs where Int(run.end) > range.lowerBound && Int(run.start) < range.upperBound {
            for u in max(Int(run.start), range.lowerBound)..<min(Int(run.end), range.upperBound) { covered[u - range.lowerBound] = true }
            for cluster in run.shaped.clusters {
                let u = Int(run.start) + Int(cluster)
                if range.contains(u) { starts[u - range.lowerBound] = true }
            }
        }
        for i in covered.indices where !covered[i] { starts[i] = true }
        starts[range.count] = true
        return starts
    }
}

/// Kerning a line end gives back: Chromium shapes a line's end again alone when the break is
/// not safe to break (HarfBuzz kerned across it), and checks that the line still fits
/// (ShapingLineBreaker::ShapeLine, docs/CHROMIUM.md §3(h)). A cluster that kerning tightened
/// against the next one is wider at a line end by what the kerning took away.
enum LineEndKerning {
    /// (run offset, kerning in design units) of each cluster whose last glyph GPOS tightened
    /// against a next cluster that HarfBuzz marks unsafe to break before, flat. Zero-width
    /// glyphs (marks) are left out.
    static func collect(glyphs: [UInt32], advances: [Int32], clusters: [Int32], unsafeToBreak: [Bool],
                        rightToLeft: Bool, font: Font) -> [Int32] {
        var pairs: [Int32] = []
        let n = glyphs.count
        for i in 0..<n where advances[i] != 0 {
            // The glyph that follows in logical order, and whether it starts another cluster.
            let next = rightToLeft ? i - 1 : i + 1
            guard next >= 0 && next < n, clusters[next] != clusters[i], unsafeToBreak[next] else { continue }
            // Only the cluster's last glyph in logical order.
            let own = hb_font_get_glyph_h_advance(font.hbFont, glyphs[i])
            let kern = advances[i] &- own
            guard kern < 0, own > 0 else { continue }
            pairs.append(clusters[i])
            pairs.append(kern)
        }
        return pairs
    }
}
