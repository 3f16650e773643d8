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
            for i in lines ?? layout.lines.indices {
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

    private static func show(_ piece: PlacedGlyphs, left: Double, baseline: Double, synthesis: FontSynthesis, cr: CairoContext) {
        guard !piece.glyphs.isEmpty, let face = FontFaces.shared.face(for: piece.font, bold: synthesis.bold) else { return }
        // Synthetic italic leans each glyph about its origin: x grows by skew × height above the baseline.
        cr.showGlyphs(piece.glyphs, x: piece.x, y: piece.y, left: left, baseline: baseline, face: face, size: piece.size,
                      skew: synthesis.italic ? FontSynthesis.italicSkew : 0)
    }
}
