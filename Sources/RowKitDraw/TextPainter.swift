import RowKitCells
import RowKitText

/// Draws laid-out text: the glyphs and positions of the very lines that were measured, so drawn
/// and measured sizes cannot disagree.
///
/// Threads: draw into one ``Canvas`` from one thread at a time; painting different canvases on
/// different threads at once is safe (the font faces are shared behind a lock).
public enum TextPainter {
    /// Draws `layout` with its top-left corner at (`x`, `y`). `color` overrides the style's;
    /// `shadow` is drawn under the text first.
    /// With `debugFrames`, each line box is outlined (red) and the layout box too (blue).
    /// Faces lacking the style's weight or slant are emboldened or slanted as Chromium does
    /// (`FontSynthesis` in RowKitText, decided with `fonts`, the library the text was prepared
    /// with). `lines` draws only those lines (all by default; the layout box is outlined only then).
    public static func draw(_ layout: TextLayout, in canvas: Canvas, x: Double, y: Double,
                            color: Color? = nil, shadow: TextShadow? = nil, debugFrames: Bool = false,
                            fonts: FontLibrary = .shared, lines: Range<Int>? = nil) {
        let cr = canvas.cairo
        cr.saved {
            cr.useUnhintedGlyphs()
            var synthesis: [Int32: FontSynthesis] = [:]
            // Only the lines that can reach the clip: a 10 MB text is 100,000 lines, and a
            // frame shows a few of them (finding a line's glyphs costs more than skipping it).
            let clip = cr.clipExtentY()
            let overhang = inkOverhang(layout, shadow: shadow)
            for i in linesReaching(layout, y: y, lines: lines ?? layout.lines.indices, top: clip.top - overhang, bottom: clip.bottom + overhang) {
                let left = x + layout.lineOffset(i)
                let baseline = y + layout.baseline(ofLine: i)
                for piece in layout.glyphs(ofLine: i) {
                    let fake = synthesis[piece.font.id] ?? {
                        let value = fonts.synthesis(for: piece.font, style: layout.prepared.style)
                        synthesis[piece.font.id] = value
                        return value
                    }()
                    if let shadow {
                        cr.setColor(shadow.color)
                        show(piece, left: left + shadow.dx, baseline: baseline + shadow.dy, synthesis: fake, cr: cr)
                    }
                    cr.setColor(color ?? layout.prepared.style.color)
                    show(piece, left: left, baseline: baseline, synthesis: fake, cr: cr)
                }
                if debugFrames {
                    canvas.strokeRect(x: left, y: y + layout.top(ofLine: i), width: layout.lines[i].width,
                                      height: layout.height(ofLine: i), color: Color(red: 1, green: 0, blue: 0, alpha: 0.8))
                }
            }
            if debugFrames, lines == nil, layout.maxWidth.isFinite {
                canvas.strokeRect(x: x, y: y, width: layout.maxWidth, height: layout.height, color: Color(red: 0, green: 0, blue: 1, alpha: 0.6))
            }
        }
    }

    /// How far a line's ink may reach beyond its box: tall fallback glyphs and stacked marks
    /// overhang by about a few font sizes; a shadow moves the ink by its offset. Lines farther
    /// than this from the clip are not drawn (nothing of them could show).
    static func inkOverhang(_ layout: TextLayout, shadow: TextShadow?) -> Double {
        8 * layout.prepared.fontSize + 32 + (shadow.map { abs($0.dy) } ?? 0)
    }

    /// The lines of `lines` whose boxes meet [`top`, `bottom`) when the layout's top is at `y`.
    /// Lines all as tall as the line height are found by arithmetic; otherwise line heights are
    /// summed up to `bottom` (never over every line of a long text).
    static func linesReaching(_ layout: TextLayout, y: Double, lines: Range<Int>, top: Double, bottom: Double) -> Range<Int> {
        guard top < bottom else { return lines.lowerBound..<lines.lowerBound }
        let prepared = layout.prepared
        var first = lines.lowerBound, end = lines.upperBound
        if !prepared.hasTallerLines {
            let height = prepared.lineHeight
            guard height > 0, height.isFinite else { return lines }
            // Line i spans [y + i·h, y + (i+1)·h); one line of slack each way for rounding.
            func line(at position: Double) -> Int { Int(min(max(0, ((position - y) / height).rounded(.down)), Double(Int32.max))) }
            if top.isFinite { first = min(end, max(first, line(at: top) - 1)) }
            if bottom.isFinite { end = max(first, min(end, line(at: bottom) + 2)) }
            return first..<end
        }
        var lineTop = y + layout.top(ofLine: first)
        var i = first
        while i < end {
            let lineBottom = lineTop + layout.height(ofLine: i)
            if lineBottom <= top { first = i + 1 }
            if lineTop >= bottom { end = i; break }
            lineTop = lineBottom
            i += 1
        }
        return first..<max(first, end)
    }

    private static func show(_ piece: PlacedGlyphs, left: Double, baseline: Double, synthesis: FontSynthesis, cr: CairoContext) {
        guard !piece.glyphs.isEmpty, let face = FontFaces.shared.face(for: piece.font, bold: synthesis.bold) else { return }
        // Synthetic italic leans each glyph about its origin: x grows by skew × height above the baseline.
        cr.showGlyphs(piece.glyphs, x: piece.x, y: piece.y, left: left, baseline: baseline, face: face, size: piece.size,
                      skew: synthesis.italic ? FontSynthesis.italicSkew : 0)
    }
}
