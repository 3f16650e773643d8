import CCairo
import CFreeType
import RowKitText
import Synchronization

// The one place RowKitDraw calls FreeType (and cairo's FreeType font faces).

/// A cairo font face (`cairo_font_face_t`) for one font file, kept for the process by
/// ``FontFaces``; cairo's faces are reference counted and safe to use from several threads.
struct FontFace: @unchecked Sendable {
    let raw: OpaquePointer
}

/// cairo font faces for RowKit fonts, opened once through FreeType and kept for the process
/// (one face per font and per synthetic-bold variant: as many as the fonts the process draws).
final class FontFaces: Sendable {
    static let shared = FontFaces()

    private struct State {
        var library: FT_Library?
        /// By font id, doubled, plus 1 for the synthetic-bold face.
        var faces: [Int64: FontFace] = [:]
    }
    private let state = Mutex(State())

    /// The cairo face for `font`, emboldened as Skia fakes bold when `bold` (its own FreeType
    /// face, so the plain one stays plain), or nil when FreeType cannot open the file.
    func face(for font: Font, bold: Bool = false) -> FontFace? {
        let key = Int64(font.id) * 2 + (bold ? 1 : 0)
        return state.withLock { state in
            if let face = state.faces[key] { return face }
            if state.library == nil {
                var library: FT_Library?
                guard FT_Init_FreeType(&library) == 0 else { return nil }
                state.library = library
            }
            var ftFace: FT_Face?
            guard FT_New_Face(state.library, font.path, FT_Long(font.faceIndex), &ftFace) == 0, let ftFace else { return nil }
            // Color bitmap fonts (emoji) need FT_LOAD_COLOR; outlines are drawn unhinted so
            // they sit exactly on the unhinted advances the layout used.
            let flags = Int32(font.hasColorGlyphs ? (1 << 20) /* FT_LOAD_COLOR */ : (1 << 1) /* FT_LOAD_NO_HINTING */)
            guard let face = cairo_ft_font_face_create_for_ft_face(ftFace, flags) else { return nil }
            // cairo emboldens with FT_GlyphSlot_Embolden: size/24, the strength Skia uses.
            if bold { cairo_ft_font_face_set_synthesize(face, UInt32(CAIRO_FT_SYNTHESIZE_BOLD.rawValue)) }
            state.faces[key] = FontFace(raw: face)
            return FontFace(raw: face)
        }
    }
}
