import Testing
@testable import RowKitText

// Shared helpers for the text engine tests. Widths are compared with Chromium's fit rule
// (docs/CHROMIUM.md §3a): a line of content width w fits a box of width W when
// ceil64(w) <= floor64(W) + 1/64.

/// The style most rule tests use: DejaVu Sans 16 px, 16 px lines (the measurement setup of docs/CHROMIUM.md §3).
func style(_ whiteSpace: WhiteSpace = .normal, family: String = "DejaVu Sans", size: Double = 16,
           lineHeight: LineHeight = .pixels(16), alignment: TextAlignment = .natural,
           direction: TextDirection = .ltr, italic: Bool = false) -> TextStyle {
    TextStyle(font: FontDescriptor(family: family, italic: italic), size: size, lineHeight: lineHeight,
              alignment: alignment, direction: direction, whiteSpace: whiteSpace)
}

func prepare(_ text: String, _ style: TextStyle = style()) throws -> PreparedText {
    try PreparedText(text, style: style)
}

/// Chromium's fit rule: content width `w` fits in a box of width `limit`.
func fits(_ w: Double, in limit: Double) -> Bool {
    (w * 64).rounded(.up) <= (limit * 64).rounded(.down) + 1
}

/// Width of a single string in a style (sum of its shaped advances).
func width(_ text: String, _ style: TextStyle = style()) throws -> Double {
    let p = try prepare(text, style)
    return p.width(of: 0..<p.units.count)
}

/// The texts of the lines at `width`, soft hyphens removed (they are invisible when not broken).
func lineTexts(_ p: PreparedText, width: Double, maxLines: Int? = nil) throws -> [String] {
    let layout = try p.layout(width: width, maxLines: maxLines)
    return layout.lines.indices.map { removingSoftHyphens(layout.text(ofLine: $0)) }
}

func lineTexts(_ text: String, width: Double, _ style: TextStyle = style()) throws -> [String] {
    try lineTexts(prepare(text, style), width: width)
}

/// Unit offsets (in `p.units`) where grapheme clusters start, plus the end.
func graphemeBoundaries(_ p: PreparedText) -> [Int] {
    var offsets: [Int] = [0]
    var u = 0
    for c in p.text { u += c.utf16.count; offsets.append(u) }
    return offsets
}

/// Parses a string with `|` marking the expected break opportunities (docs/CHROMIUM.md
/// notation), returning the plain text and the UTF-16 offsets of the marks.
func parseBreaks(_ marked: String) -> (text: String, breaks: Set<Int>) {
    var text = ""
    var breaks: Set<Int> = []
    var offset = 0
    for c in marked {
        if c == "|" { breaks.insert(offset); continue }
        text.append(c)
        offset += c.utf16.count
    }
    return (text, breaks)
}

/// The break opportunities inside `text` (between grapheme clusters, not at the ends), found
/// through layout alone: for each grapheme boundary p, "x " + text is laid out at exactly the
/// width of its content up to p. If p is a break opportunity the first line ends at p (the
/// next piece no longer fits); otherwise the line ends at an earlier opportunity — the one
/// after "x " at the latest, which the prefix guarantees (so overflow-wrap's grapheme
/// splitting never kicks in).
func observedBreaks(_ text: String, _ style: TextStyle = style()) throws -> Set<Int> {
    let p = try prepare("x " + text, style)
    #expect(p.text == "x " + text, "rule texts must not change under white-space normalization")
    var found: Set<Int> = []
    for b in graphemeBoundaries(p) where b > 2 && b < p.units.count {
        var contentEnd = b
        while contentEnd > 0 && p.units[contentEnd - 1] == 0x20 { contentEnd -= 1 }
        // A full stop trimmed before punctuation is full width when a line ends after it; such
        // a reshaped end starting the text fits only when rounded up to 1/64 px (§3(e)).
        let segment = p.segmentEnds.firstIndex(of: Int32(b))
        let growth = segment.map { PreparedText.pixels(p.lineEndGrowth(segment: $0)) } ?? 0
        let w = p.width(of: 0..<contentEnd)
        let layout = try p.layout(width: growth > 0 ? ((w + growth) * 64).rounded(.up) / 64 : w)
        if layout.lines.count > 1 && layout.lines[0].end == b { found.insert(b - 2) }
    }
    return found
}

/// Checks that the break opportunities of a `|`-marked text are exactly the marked ones.
func expectBreaks(_ marked: String, _ style: TextStyle = style(), sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (text, expected) = parseBreaks(marked)
    let observed = try observedBreaks(text, style)
    func render(_ breaks: Set<Int>) -> String {
        var out = ""
        var offset = 0
        for c in text {
            if breaks.contains(offset) { out.append("|") }
            out.append(c)
            offset += c.utf16.count
        }
        return out
    }
    #expect(render(observed) == render(expected), sourceLocation: sourceLocation)
}

/// A small seeded generator (SplitMix64), for tests that want reproducible random input
/// without the property-testing machinery.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Pieces random texts are made of: Latin words, CJK, Hangul, Thai, emoji clusters, spaces,
/// NBSP, soft hyphens, newlines, tabs, punctuation.
let textPieces: [String] = [
    "a", "the", "quick", "brown", "fox", "jumps", "Wikipedia", "supercalifragilistic", "hyphen-ated",
    "https://example.com/a?b=c", "foo/bar", "A.", "(x)", "42", "!",
    "漢字", "中文", "日本語", "。", "、", "「", "」", "カー",
    "한국어", "텍스트",
    "ภาษาไทย", "สวัสดี",
    "👍", "👨‍👩‍👧", "🇫🇷", "👍🏽", "1️⃣",
    " ", " ", " ", " ", "  ",
    "\u{A0}", "\u{AD}", "\n", "\t",
]

/// The same pieces without soft hyphens and tabs (greedy breaking of additive widths is monotone).
let textPiecesWithoutSoftHyphen = textPieces.filter { $0 != "\u{AD}" && $0 != "\t" }

func randomText(_ indices: [Int], from pieces: [String] = textPieces) -> String {
    indices.map { pieces[$0 % pieces.count] }.joined()
}

func removingSoftHyphens(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.filter { $0 != "\u{AD}" }))
}

/// The width the glyphs placed for line `i` advance by: their placed advances plus the tab
/// stops between them. Checks on the way that every placed glyph comes from one of the line's
/// shaped runs with that run's shaped advance (only a closing CJK bracket trimmed at the line
/// end may be narrower).
func drawnWidth(_ layout: TextLayout, line i: Int, sourceLocation: SourceLocation = #_sourceLocation) -> Double? {
    let p = layout.prepared
    let line = layout.lines[i]
    var contentEnd = line.end
    while contentEnd > line.start && [0x20, 0x09, 0x0A].contains(p.units[contentEnd - 1]) { contentEnd -= 1 }
    let pieces = layout.glyphs(ofLine: i)
    let size = p.fontSize
    func px(_ font: Font, _ units: Int32) -> Double {
        PreparedText.pixels(font.fixedAdvance(units, scale: font.fixedScale(size: size), size: size))
    }
    var marks = 0
    if line.hyphenated { marks += 1 }
    if line.ellipsized { marks += 1 }
    var total = 0.0
    var used = Set<Int>()
    let mixedLevels = p.runs.contains { $0.bidiLevel != p.runs.first?.bidiLevel }
    for (index, piece) in pieces.enumerated() {
        total += piece.advances.reduce(0, +)
        if index >= pieces.count - marks { continue }
        var matched = false
        var mismatch: String?
        // Several runs may hold the same glyphs (a space, a soft hyphen drawn as nothing): the
        // piece must come from one of them with the same advances.
        for (r, run) in p.runs.enumerated() where !used.contains(r) && run.font === piece.font
            && Int(run.end) > line.start && Int(run.start) < contentEnd {
            let s = run.shaped
            let indices = s.clusters.indices.filter {
                let unit = Int(run.start) + Int(s.clusters[$0])
                return unit >= line.start && unit < contentEnd
            }
            guard indices.map({ s.glyphs[$0] }) == piece.glyphs else { continue }
            let differing = indices.enumerated().first { k, g in
                // A closing bracket trimmed at the line end, or a full stop or a kerned cluster
                // grown back to full width (also one kerned across the soft hyphen a line breaks at).
                let trimmedEnd = k == indices.count - 1 && (CJKPunctuation.isClosingMark(p.units[contentEnd - 1])
                    || CJKPunctuation.growsAtLineEnd(p.units[contentEnd - 1]) || p.kerningGrowth(at: contentEnd) > 0
                    || (line.hyphenated && p.units[contentEnd - 1] == 0xAD && p.kerningGrowth(at: contentEnd - 1) > 0))
                // CJK punctuation reshaped at the line start (LineStartReshape) moves into its
                // width (right to left, its glyph is the piece's last).
                let reshapedStart = Int(run.start) + Int(s.clusters[g]) == line.start && p.lineStartDelta(at: line.start) != 0
                // A bidi level run's part ends in the gap up to 1/64 px that Chromium's rounding
                // of each run leaves (BidiItemRounding).
                let gap = piece.advances[k] - px(run.font, s.advances[g])
                let levelRunEnd = k == indices.count - 1 && gap > 0 && gap < 1.0 / 64 && mixedLevels
                return abs(gap) > 1e-9 && !trimmedEnd && !reshapedStart && !levelRunEnd
            }
            if let (k, g) = differing {
                mismatch = mismatch ?? "line \(i): glyph \(k) advances \(piece.advances[k]), shaped \(px(run.font, s.advances[g]))"
                continue
            }
            used.insert(r)
            matched = true
            break
        }
        if !matched, let mismatch {
            Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
            return nil
        }
        if !matched && !piece.glyphs.isEmpty {
            Issue.record("line \(i): placed glyphs \(piece.glyphs) match no run", sourceLocation: sourceLocation)
            return nil
        }
    }
    // Tabs have no glyphs; their width is the jump to the next stop (8 spaces; the one after
    // when the next is less than half a space away), counted after a soft hyphen from the pen
    // plus the hyphen (docs/CHROMIUM.md, twelfth round).
    // (The pen starts changed by a reshaped line start, ``LineStartReshape``.)
    let tab = Int64(p.spaceWidth) * 8
    var x: Int64 = p.lineStartDelta(at: line.start), tabs: Int64 = 0
    for u in line.start..<contentEnd {
        if p.units[u] == 0x09 && tab > 0 {
            let hyphen = u > 0 && p.units[u - 1] == 0xAD ? (Int64(p.hyphenWidth) + 1023) & ~1023 : 0
            let stop = TabStop.end(from: x + hyphen, spaceWidth: p.spaceWidth) - hyphen
            tabs += stop - x
            x = stop
        } else {
            x += p.unitAdvance(u)
        }
    }
    return total + PreparedText.pixels(tabs)
}

/// Property (ii): every line fits the layout width unless it holds a single grapheme cluster
/// (a hyphen added at a soft-hyphen break must fit too: the bug that let it overflow is fixed,
/// see LineBreakerTests.hyphenMustFitWhenTheSoftHyphenEndsTheOnlySegmentOnTheLine).
func expectLinesFit(_ layout: TextLayout, sourceLocation: SourceLocation = #_sourceLocation) {
    let w = layout.maxWidth
    for (i, line) in layout.lines.enumerated() where !fits(line.width, in: w) {
        let clusters = removingSoftHyphens(layout.text(ofLine: i)).count
        guard clusters > 1 else { continue }
        Issue.record("line \(i) \(layout.text(ofLine: i).debugDescription) is \(line.width) px at W=\(w)\(line.hyphenated ? " (hyphenated)" : "") in \(layout.prepared.text.debugDescription)",
                     sourceLocation: sourceLocation)
    }
}

/// Property (v): the glyphs drawn for a line advance by the line's measured width.
/// Returns 1 for a mismatch (0 otherwise); the mismatch is recorded as an issue unless
/// `recordKnown` is false, when the caller records the count (inside `propertyCheck`).
@discardableResult
func expectDrawnEqualsMeasured(_ layout: TextLayout, line i: Int, drawn: Double, recordKnown: Bool = true,
                               sourceLocation: SourceLocation = #_sourceLocation) -> Int {
    let line = layout.lines[i]
    guard abs(drawn - line.width) >= 0.001 else { return 0 }
    if recordKnown {
        Issue.record("line \(i) \(layout.text(ofLine: i).debugDescription): drawn \(drawn), measured \(line.width) (W=\(layout.maxWidth))",
                     sourceLocation: sourceLocation)
    }
    return 1
}
