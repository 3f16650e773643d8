import CCairo
import RowKitCells
import RowKitText

// The one place RowKitDraw's drawing code calls cairo's context API (with CairoSurface.swift
// for surfaces and files, and FontFaces.swift for FreeType faces). Everything else in the
// module draws through these few Swift methods, in CSS pixels, with RowKit's own types.

/// A cairo drawing context (`cairo_t`), borrowed: its owner (a ``Canvas`` or a scaled image
/// copy) destroys it. Not thread-safe, like the context itself: one thread draws at a time.
struct CairoContext {
    let raw: OpaquePointer

    // MARK: state

    /// Runs `body` between `cairo_save` and `cairo_restore`: transforms, clips and sources set
    /// inside do not leak out.
    func saved<T>(_ body: () throws -> T) rethrows -> T {
        cairo_save(raw)
        defer { cairo_restore(raw) }
        return try body()
    }

    /// Pushes the graphics state (pair with ``restore()``); prefer ``saved(_:)``.
    func save() { cairo_save(raw) }
    /// Pops the graphics state pushed by ``save()``.
    func restore() { cairo_restore(raw) }

    /// cairo's reason when the context is in an error state (it then ignores every later call),
    /// else nil.
    var failure: String? {
        let status = cairo_status(raw)
        return status == CAIRO_STATUS_SUCCESS ? nil : String(cString: cairo_status_to_string(status))
    }

    func translate(_ x: Double, _ y: Double) { cairo_translate(raw, x, y) }
    func scale(_ x: Double, _ y: Double) { cairo_scale(raw, x, y) }

    /// Intersects the clip with `rect`.
    func clip(to rect: Rect) {
        if let r = drawable(rect.x, rect.y, rect.width, rect.height, margin: 1) {
            cairo_rectangle(raw, r.x, r.y, r.width, r.height)
        } else {
            cairo_rectangle(raw, 0, 0, 0, 0)
        }
        cairo_clip(raw)
    }

    /// How far (px) a path may reach past the clip before ``drawable(_:_:_:_:margin:)`` cuts it.
    static let farReach = Double(1 << 20)

    /// The rectangle to give cairo for (`x`, `y`, `width`, `height`): itself when it stays within
    /// ``farReach`` of the clip; else cut to the clip widened by `margin` on each side (nil when
    /// nothing of it is left). cairo keeps path coordinates in 24.8 fixed point (±8,388,608 px):
    /// a row millions of pixels tall drawn at an offset would wrap around and paint the wrong
    /// places. An edge moved lies `margin` outside the clip, so what is drawn is the same (a
    /// rounded corner or a stroke of that edge stays out of sight when `margin` exceeds the
    /// radius and the line width).
    func drawable(_ x: Double, _ y: Double, _ width: Double, _ height: Double, margin: Double) -> Rect? {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(raw, &x0, &y0, &x1, &y1)
        let left = min(x, x + width), right = max(x, x + width), top = min(y, y + height), bottom = max(y, y + height)
        let far = Self.farReach
        guard left.isFinite, right.isFinite, top.isFinite, bottom.isFinite else { return nil }
        if left >= x0 - far && right <= x1 + far && top >= y0 - far && bottom <= y1 + far { return Rect(x: x, y: y, width: width, height: height) }
        let l = max(left, x0 - margin), r = min(right, x1 + margin), t = max(top, y0 - margin), b = min(bottom, y1 + margin)
        guard l < r, t < b else { return nil }
        return Rect(x: l, y: t, width: r - l, height: b - t)
    }

    /// Intersects the clip with the current path (and clears the path).
    func clipToPath() { cairo_clip(raw) }

    /// The vertical extent of the clip in user space: what can still be drawn (the surface's
    /// height when nothing clips; unbounded surfaces such as PDF give a very large one).
    func clipExtentY() -> (top: Double, bottom: Double) {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(raw, &x0, &y0, &x1, &y1)
        return (y0, y1)
    }

    // MARK: sources

    func setColor(_ color: Color) { cairo_set_source_rgba(raw, color.red, color.green, color.blue, color.alpha) }
    func setColor(red: Double, green: Double, blue: Double) { cairo_set_source_rgb(raw, red, green, blue) }

    /// A vertical linear gradient from `top` at `y0` to `bottom` at `y1` as the source.
    func setVerticalGradient(top: Color, bottom: Color, from y0: Double, to y1: Double) {
        guard let gradient = cairo_pattern_create_linear(0, y0, 0, y1) else { return }
        cairo_pattern_add_color_stop_rgba(gradient, 0, top.red, top.green, top.blue, top.alpha)
        cairo_pattern_add_color_stop_rgba(gradient, 1, bottom.red, bottom.green, bottom.blue, bottom.alpha)
        cairo_set_source(raw, gradient)
        cairo_pattern_destroy(gradient)   // the context keeps its own reference
    }

    /// Paints `image` with its top-left corner at the origin, smoothly filtered when scaled.
    func paint(_ image: CairoImage) {
        // Clipped to the image and padded at its edges: with cairo's default (no extend) a
        // scaled image's border pixels are blended with transparency, so a 1 px wide image
        // stretched over a 40 px box drew as a fading smear instead of a filled box.
        cairo_save(raw)
        cairo_rectangle(raw, 0, 0, Double(image.width), Double(image.height))
        cairo_clip(raw)
        cairo_set_source_surface(raw, image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(raw), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(raw), CAIRO_EXTEND_PAD)
        cairo_paint(raw)
        cairo_restore(raw)
    }

    /// Whether `rect` reaches more than ``farReach`` past the clip (cairo could not take it as a path).
    func reachesFar(_ rect: Rect) -> Bool {
        guard let r = drawable(rect.x, rect.y, rect.width, rect.height, margin: 1) else { return true }
        return r.x != rect.x || r.y != rect.y || r.width != rect.width || r.height != rect.height
    }

    /// Paints `image` scaled into `rect`, as ``paint(_:)`` after a translation to `rect`'s
    /// corner and a scale does, with no path in the image's space: for a `rect` that
    /// ``reachesFar(_:)``; only its part near the clip is painted.
    func paint(_ image: CairoImage, into rect: Rect) {
        guard rect.width > 0, rect.height > 0, let visible = drawable(rect.x, rect.y, rect.width, rect.height, margin: 1) else { return }
        cairo_save(raw)
        cairo_rectangle(raw, visible.x, visible.y, visible.width, visible.height)
        cairo_clip(raw)
        cairo_set_source_surface(raw, image.surface, 0, 0)
        var matrix = cairo_matrix_t()
        cairo_matrix_init_scale(&matrix, Double(image.width) / rect.width, Double(image.height) / rect.height)
        cairo_matrix_translate(&matrix, -rect.x, -rect.y)
        cairo_pattern_set_matrix(cairo_get_source(raw), &matrix)
        cairo_pattern_set_filter(cairo_get_source(raw), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(raw), CAIRO_EXTEND_PAD)
        cairo_paint(raw)
        cairo_restore(raw)
    }

    // MARK: paths

    /// Adds a rectangle (cut to what can show when it reaches far past the clip: ``drawable(_:_:_:_:margin:)``).
    func rectangle(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        guard let r = drawable(x, y, width, height, margin: 1024) else { return }
        cairo_rectangle(raw, r.x, r.y, r.width, r.height)
    }
    func move(to x: Double, _ y: Double) { cairo_move_to(raw, x, y) }
    func line(to x: Double, _ y: Double) { cairo_line_to(raw, x, y) }
    func arc(_ x: Double, _ y: Double, radius: Double, from a0: Double = 0, to a1: Double = 2 * .pi) { cairo_arc(raw, x, y, radius, a0, a1) }
    func closePath() { cairo_close_path(raw) }
    func newPath() { cairo_new_path(raw) }

    /// Adds a rectangle with corners rounded to `radius` (at most half a side).
    func roundedRectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double) {
        let r0 = min(radius, w / 2, h / 2)
        // Cut when it reaches far past the clip: the moved edges and their corners lie out of sight.
        guard let cut = drawable(x, y, w, h, margin: max(0, r0) + 1024) else { return }
        let (x, y, w, h) = (cut.x, cut.y, cut.width, cut.height)
        let r = min(r0, w / 2, h / 2)
        guard r > 0 else { cairo_rectangle(raw, x, y, w, h); return }
        cairo_new_sub_path(raw)
        cairo_arc(raw, x + w - r, y + r, r, -.pi / 2, 0)
        cairo_arc(raw, x + w - r, y + h - r, r, 0, .pi / 2)
        cairo_arc(raw, x + r, y + h - r, r, .pi / 2, .pi)
        cairo_arc(raw, x + r, y + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(raw)
    }

    // MARK: painting

    func fill() { cairo_fill(raw) }
    func fillPreserve() { cairo_fill_preserve(raw) }
    func stroke(width: Double) {
        cairo_set_line_width(raw, width)
        cairo_stroke(raw)
    }
    func paint() { cairo_paint(raw) }

    // MARK: glyphs

    /// Glyph outlines drawn unhinted and gray-antialiased: they sit exactly on the unhinted
    /// advances the layout measured.
    func useUnhintedGlyphs() {
        guard let options = cairo_font_options_create() else { return }
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_set_font_options(raw, options)
        cairo_font_options_destroy(options)
    }

    /// Draws glyphs `ids` of `face` at `size` px, glyph `g` with its origin at (`x[g]`, `y[g]`)
    /// offset by (`left`, `baseline`); `skew` leans them (synthetic italic: x grows by skew ×
    /// height above the baseline).
    func showGlyphs(_ ids: [UInt32], x: [Double], y: [Double], left: Double, baseline: Double,
                    face: FontFace, size: Double, skew: Double = 0) {
        // A glyph under a hundredth of a device pixel is invisible, and cairo fails on some: a
        // font matrix singular to it (1e-300 px, slanted), a color emoji bitmap scaled to nothing
        // (0.04 px at scale 0.05: "out of memory"). Either put the context in its error state,
        // which dropped everything drawn after it.
        guard !ids.isEmpty, size.isFinite, skew.isFinite else { return }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(raw, &ctm)
        let deviceSize = size * abs(ctm.xx * ctm.yy - ctm.xy * ctm.yx).squareRoot()
        guard deviceSize >= 0.01 else { return }
        cairo_set_font_face(raw, face.raw)
        var matrix = cairo_matrix_t()
        cairo_matrix_init(&matrix, size, 0, -skew * size, size, 0, 0)
        cairo_set_font_matrix(raw, &matrix)
        var glyphs = [cairo_glyph_t]()
        glyphs.reserveCapacity(ids.count)
        for g in ids.indices {
            glyphs.append(cairo_glyph_t(index: UInt(ids[g]), x: left + x[g], y: baseline + y[g]))
        }
        cairo_show_glyphs(raw, &glyphs, Int32(glyphs.count))
    }
}
