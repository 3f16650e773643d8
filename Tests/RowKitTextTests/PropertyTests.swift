import Testing
import PropertyBased
import Synchronization
@testable import RowKitText

/// Properties of breaking random texts (Latin words, CJK, Hangul, Thai, emoji, spaces, NBSP,
/// soft hyphens, newlines, tabs) at random widths 1...800 in both white-space modes.
@Suite struct PropertyTests {
    static let pieceIndices = Gen.int(in: 0...(textPieces.count - 1)).array(of: 0...40)
    static let widths = Gen.int(in: 1...800)
    static let preWrap = Gen.bool

    func prepared(_ indices: [Int], _ preWrap: Bool, pieces: [String] = textPieces) throws -> PreparedText {
        try prepare(randomText(indices, from: pieces), style(preWrap ? .preWrap : .normal))
    }

    /// (i) Lines cover the normalized text exactly once, in order.
    @Test func linesCoverTheTextOnceInOrder() async {
        await propertyCheck(count: 300, input: Self.pieceIndices, Self.widths, Self.preWrap) { indices, w, preWrap in
            let p = try prepared(indices, preWrap)
            let lines = try p.layout(width: Double(w)).lines
            if p.units.isEmpty { #expect(lines.isEmpty); return }
            if !preWrap && p.units.allSatisfy({ $0 == 0x20 }) { #expect(lines.isEmpty); return }
            #expect(lines.first?.start == 0)
            #expect(lines.last?.end == p.units.count)
            for (a, b) in zip(lines, lines.dropFirst()) {
                #expect(a.end == b.start)
            }
            for line in lines {
                #expect(line.start < line.end, "empty line \(line) in \(p.text.debugDescription)")
                #expect(!line.ellipsized)
            }
        }
    }

    /// (ii) No line is wider than the box unless it holds a single grapheme cluster.
    @Test func linesFitUnlessTheyHoldOneCluster() async {
        await propertyCheck(count: 300, input: Self.pieceIndices, Self.widths, Self.preWrap) { indices, w, preWrap in
            let p = try prepared(indices, preWrap)
            expectLinesFit(try p.layout(width: Double(w)))
        }
    }

    /// (iii) measure(width:) agrees with layout(width:).
    @Test func measureAgreesWithLayout() async {
        await propertyCheck(count: 300, input: Self.pieceIndices, Self.widths, Self.preWrap) { indices, w, preWrap in
            let p = try prepared(indices, preWrap)
            let m = try p.measure(width: Double(w))
            let layout = try p.layout(width: Double(w))
            #expect(m.lineCount == layout.lines.count)
            #expect(m.lineCount == (try p.lineCount(width: Double(w))))
            #expect(m.height == Double(layout.lines.count) * p.lineHeight)
            #expect(m.height == layout.height)
            #expect(m.maxLineWidth == layout.lines.map(\.width).max() ?? 0)
        }
    }

    /// (iv) Measuring is deterministic, and without soft hyphens the line count never grows
    /// with the width. Greedy breaking is monotone when widths are additive: with more room,
    /// every line ends at the same place or later (by induction over lines, also for
    /// overflow-wrap's grapheme splitting, which only adds opportunities inside a word that
    /// does not fit). A soft hyphen breaks additivity (the hyphen's width appears only at a
    /// break), and so do tabs (their width depends on the pen); neither is in these texts.
    @Test func lineCountIsDeterministicAndNonIncreasingInWidth() async {
        let pieces = textPiecesWithoutSoftHyphen
        let indices = Gen.int(in: 0...(pieces.count - 1)).array(of: 0...40)
        await propertyCheck(count: 200, input: indices, Self.widths, Self.widths, Self.preWrap) { indices, w1, w2, preWrap in
            let p = try prepared(indices, preWrap, pieces: pieces)
            let (narrow, wide) = (Double(min(w1, w2)), Double(max(w1, w2)))
            #expect(try p.measure(width: narrow) == p.measure(width: narrow))
            let again = try prepare(p.text, p.style)
            #expect(try again.measure(width: wide) == p.measure(width: wide))
            #expect(try p.lineCount(width: narrow) >= p.lineCount(width: wide), "\(p.text.debugDescription) at \(narrow) vs \(wide)")
        }
    }

    /// (v) The glyphs drawn for each line advance by exactly the line's measured width.
    @Test func drawnGlyphAdvancesEqualLineWidth() async {
        let mismatches = Counter()
        await propertyCheck(count: 150, input: Self.pieceIndices, Self.widths, Self.preWrap) { indices, w, preWrap in
            let p = try prepared(indices, preWrap)
            for maxLines in [nil, 2] as [Int?] {
                let layout = try p.layout(width: Double(w), maxLines: maxLines)
                for i in layout.lines.indices {
                    guard let drawn = drawnWidth(layout, line: i) else { continue }
                    mismatches.add(expectDrawnEqualsMeasured(layout, line: i, drawn: drawn, recordKnown: false))
                }
            }
        }
        #expect(mismatches.value == 0, "lines whose drawn glyphs advance by other than their measured width")
    }

    /// With maxLines the kept lines are a prefix of the full layout, and the cut line's
    /// content plus ellipsis fits (unless the ellipsis alone cannot).
    @Test func maxLinesKeepsAPrefixAndTheEllipsisFits() async {
        await propertyCheck(count: 200, input: Self.pieceIndices, Self.widths, Gen.int(in: 1...4)) { indices, w, maxLines in
            let p = try prepared(indices, false)
            let full = try p.layout(width: Double(w))
            let cut = try p.layout(width: Double(w), maxLines: maxLines)
            #expect(cut.lines.count == min(maxLines, full.lines.count))
            #expect(cut.isTruncated == (full.lines.count > maxLines))
            for i in cut.lines.indices.dropLast() { #expect(cut.lines[i] == full.lines[i]) }
            if cut.isTruncated, let last = cut.lines.last {
                // An ellipsis that cannot fit at all leaves the last line empty instead.
                #expect(last.ellipsized || (last.start == last.end && last.width == 0))
                #expect(last.start == full.lines[cut.lines.count - 1].start)
                #expect(last.end <= full.lines[cut.lines.count - 1].end)
                let ellipsis = try width("…")
                if fits(ellipsis, in: Double(w)) {
                    #expect(fits(last.width, in: Double(w)), "ellipsized line \(last) at W=\(w) in \(p.text.debugDescription)")
                }
            }
        }
    }

    /// Seeded-random cross-check with a different generator: widths from every break position
    /// of the text (the exact widths where behaviour changes).
    @Test func exactBreakWidthsKeepLinesWithinTheBox() throws {
        var rng = SeededGenerator(seed: 0x5EED)
        for _ in 0..<60 {
            let indices = (0..<Int.random(in: 1...30, using: &rng)).map { _ in Int.random(in: 0..<textPieces.count, using: &rng) }
            let p = try prepared(indices, Bool.random(using: &rng))
            for end in graphemeBoundaries(p).dropFirst() {
                let w = p.width(of: 0..<end)
                guard w >= 1 else { continue }
                expectLinesFit(try p.layout(width: w))
            }
        }
    }

    /// (vii) Counting lines agrees with laying them out at every layout unit of a range of widths,
    /// in a font that kerns spaces against capitals: there a line within a layout unit of the box
    /// may not fit by Blink's rounded positions (`unsafeLineStartFits`), which the count-only
    /// loops leave to the general one (docs/CHROMIUM.md §3(a)). `TextMetrics` counts the same.
    @Test func countingAgreesWithLinesAtEveryLayoutUnitWhereSpacesKern() throws {
        let words = ["This", "Tomorrow", "Very", "We", "A", "AVATAR", "Your", "Typewriter", "Vote", "function",
                     "the", "of", "nineties;", "returns", "lines", "Water", "Yellow", "To"]
        var rng = SeededGenerator(seed: 0x4B45_524E)
        var checked = 0
        for _ in 0..<120 {
            let text = (0..<Int.random(in: 6...14, using: &rng)).map { _ in words[Int.random(in: 0..<words.count, using: &rng)] }
                .joined(separator: " ")
            let family = Bool.random(using: &rng) ? "Liberation Serif" : "Liberation Sans"
            let size = (Double(Int.random(in: 1200...3400, using: &rng)) / 100)
            let s = TextStyle(font: FontDescriptor(family: family), size: size, lineHeight: .pixels(40))
            let p = try prepare(text, s)
            let metrics = try TextMetrics(text, style: s)
            let start = Int.random(in: 90 * 64...260 * 64, using: &rng)
            for units in start..<(start + 192) {
                let w = Double(units) / 64
                let layout = try p.layout(width: w)
                let m = try p.measure(width: w)
                #expect(m.lineCount == layout.lines.count, "\(family) \(size) px at \(units)/64: \(text)")
                #expect(m.maxLineWidth == layout.lines.map(\.width).max() ?? 0)
                #expect(try metrics.measure(width: w) == m)
                checked += 1
            }
        }
        #expect(checked == 120 * 192)
    }
}

/// A thread-safe count, for tallying cases inside `propertyCheck`.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add(_ n: Int) { count.withLock { $0 += n } }
    var value: Int { count.withLock { $0 } }
}
