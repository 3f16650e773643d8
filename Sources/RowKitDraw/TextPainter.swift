import CCairo
import RowKitCells
import RowKitText

/// Draws laid-out text with cairo: the glyphs and positions of the very lines that were
/// measured, so drawn and measured sizes cannot disagree.
public enum TextPainter {
    /// Draws `layout` with its top-left corner at (`x`, `y`). `color` overrides the style's.
    /// With `debugFrames`, each line box is outlined (red) and the layout box too (blue).
    /// Faces lacking the style's weight or slant are emboldened or slanted as Chromium does
    /// (``FontSynthesis``, decided with `fonts`, the library the text was prepared with).
    /// `lines` draws only those lines (all by default; the layout box is outlined only then).
    public static func draw(_ layout: TextLayout, in canvas: Canvas, x: Double, y: Double,
                            color: Color? = nil, shadow: TextShadow? = nil, debugFrames: Bool = false,
                            fonts: FontLibrary = .shared, lines: Range<Int>? = nil) {
        let cr = canvas.context
        cairo_save(cr)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_set_font_options(cr, options)
        cairo_font_options_destroy(options)
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
                    canvas.setColor(shadow.color)
                    show(piece, left: left + shadow.dx, baseline: baseline + shadow.dy, synthesis: fake, cr: cr)
                }
                canvas.setColor(color ?? layout.prepared.style.color)
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
        cairo_restore(cr)
    }

    private static func show(_ piece: PlacedGlyphs, left: Double, baseline: Double, synthesis: FontSynthesis, cr: OpaquePointer) {
        guard !piece.glyphs.isEmpty, let face = FontFaces.shared.face(for: piece.font, bold: synthesis.bold) else { return }
        cairo_set_font_face(cr, face)
        // Synthetic italic leans each glyph about its origin: x grows by skew × height above the baseline.
        var matrix = cairo_matrix_t()
        cairo_matrix_init(&matrix, piece.size, 0, synthesis.italic ? -FontSynthesis.italicSkew * piece.size : 0, piece.size, 0, 0)
        cairo_set_font_matrix(cr, &matrix)
        var glyphs = [cairo_glyph_t]()
        glyphs.reserveCapacity(piece.glyphs.count)
        for g in piece.glyphs.indices {
            glyphs.append(cairo_glyph_t(index: UInt(piece.glyphs[g]), x: left + piece.x[g], y: baseline + piece.y[g]))
        }
        cairo_show_glyphs(cr, &glyphs, Int32(glyphs.count))
    }
}
