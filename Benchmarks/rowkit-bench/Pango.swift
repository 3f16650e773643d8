import CPango

// The incumbent: Pango, used the way a toolkit measures a paragraph — a PangoLayout holding
// the text, a wrap width, and pango_layout_get_pixel_size to read the size back.

/// A Pango context with the benchmark's font, producing configured layouts.
///
/// The context comes from the default PangoCairo font map (fontconfig + HarfBuzz, the same
/// fonts RowKit finds), with no cairo surface: measuring needs none.
final class PangoMeasurer {
    private let context: OpaquePointer
    private let font: OpaquePointer

    /// Pango's version, e.g. "1.50.12".
    static var version: String { String(cString: pango_version_string()) }

    /// `family` at an absolute `pixelSize` (a CSS-like px size, independent of the resolution).
    init(family: String, pixelSize: Double) {
        context = pango_font_map_create_context(pango_cairo_font_map_get_default())
        font = pango_font_description_new()
        pango_font_description_set_family(font, family)
        pango_font_description_set_absolute_size(font, pixelSize * Double(PANGO_SCALE))
    }

    deinit {
        pango_font_description_free(font)
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// A new layout with the font, word-then-character wrapping and `width` in pixels.
    func makeLayout(width: Double) -> Layout {
        let layout = Layout(pango_layout_new(context))
        pango_layout_set_font_description(layout.pointer, font)
        pango_layout_set_wrap(layout.pointer, PANGO_WRAP_WORD_CHAR)
        layout.setWidth(width)
        return layout
    }

    /// An owned PangoLayout.
    final class Layout {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

        /// Replaces the text (invalidating the lines).
        @inline(__always) func setText(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) { pango_layout_set_text(pointer, $0.baseAddress, Int32(utf8.count)) }
            }
        }

        /// Sets the wrap width in pixels (invalidating the lines when it changes).
        @inline(__always) func setWidth(_ width: Double) {
            pango_layout_set_width(pointer, Int32((width * Double(PANGO_SCALE)).rounded()))
        }

        /// The logical size in pixels; lays the text out first if needed.
        @inline(__always) func pixelSize() -> (width: Int32, height: Int32) {
            var width: Int32 = 0, height: Int32 = 0
            pango_layout_get_pixel_size(pointer, &width, &height)
            return (width, height)
        }

        /// Number of lines (after layout).
        var lineCount: Int { Int(pango_layout_get_line_count(pointer)) }
    }
}
