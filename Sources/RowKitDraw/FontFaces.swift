import CCairo
import CFreeType
import RowKitText
import Synchronization

/// cairo font faces for RowKit fonts, opened once through FreeType and kept for the process.
final class FontFaces: Sendable {
    static let shared = FontFaces()

    private struct State {
        var library: FT_Library?
        var faces: [Int32: OpaquePointer] = [:]
    }
    private let state = Mutex(State())

    /// The cairo face for `font`, or nil when FreeType cannot open its file.
    func face(for font: Font) -> OpaquePointer? {
        state.withLock { state in
            if let face = state.faces[font.id] { return face }
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
            state.faces[font.id] = face
            return face
        }
    }
}
