import CHarfBuzz

/// One loaded font face: a file (and face index) with its HarfBuzz font and vertical metrics.
///
/// Fonts are created by ``FontLibrary`` only, live as long as the process, and are immutable
/// after creation, so they are shared freely across threads (HarfBuzz fonts are thread-safe
/// for shaping once set up).
public final class Font: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// Small dense number, unique per loaded face; used in cache keys.
    public let id: Int32
    /// The font file.
    public let path: String
    /// Face index inside a collection (TTC), else 0.
    public let faceIndex: Int32
    /// The family name the file declares.
    public let family: String
    /// Design units per em; glyph advances are shaped in these units.
    public let unitsPerEm: Int32
    /// hhea ascender and descender (descender positive, below the baseline) and line gap, in design units.
    public let ascender: Int32, descender: Int32, lineGap: Int32
    /// True for color fonts (emoji).
    public let hasColorGlyphs: Bool
    /// Pixels per em of the bitmap strike, for fonts whose glyphs are bitmaps (CBDT emoji):
    /// their advances scale from the strike, as FreeType and Skia do, not from the outline units.
    public let bitmapStrikePPEM: Int32?
    /// Whether the font kerns pairs that involve the space glyph (e.g. Liberation Serif): then
    /// whole runs are shaped across words, as a browser does, instead of word by word.
    public let kernsAcrossSpaces: Bool
    /// Whether the font has the OpenType `halt` feature (half-width CJK punctuation).
    public let hasHalfWidthPunctuation: Bool

    let hbFont: OpaquePointer

    init?(id: Int32, path: String, faceIndex: Int32, family: String) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard hb_face_count(blob) > UInt32(faceIndex) else { return nil }
        let face = hb_face_create(blob, UInt32(faceIndex))!
        defer { hb_face_destroy(face) }
        let upem = Int32(hb_face_get_upem(face))
        guard upem > 0, hb_face_get_glyph_count(face) > 0 else { return nil }
        let font = hb_font_create(face)!
        hb_font_make_immutable(font)
        self.id = id
        self.path = path
        self.faceIndex = faceIndex
        self.family = family
        self.unitsPerEm = upem
        self.hbFont = font

        func metric(_ tag: hb_ot_metrics_tag_t) -> Int32 {
            var value: hb_position_t = 0
            return hb_ot_metrics_get_position(font, tag, &value) != 0 ? value : 0
        }
        var ascender = metric(HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER)
        var descender = -metric(HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER)
        if ascender == 0 && descender == 0 {
            ascender = upem * 4 / 5
            descender = upem / 5
        }
        self.ascender = ascender
        self.descender = descender
        self.lineGap = max(0, metric(HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP))
        self.hasColorGlyphs = hb_ot_color_has_png(face) != 0 || hb_ot_color_has_layers(face) != 0
        self.bitmapStrikePPEM = Self.strikePPEM(face)
        self.hasHalfWidthPunctuation = Self.hasFeature(face, hb_tag("halt"))
        self.kernsAcrossSpaces = Self.detectSpaceKerning(font)
    }

    /// The first strike's ppem from the CBLC table, when the font has color bitmaps.
    private static func strikePPEM(_ face: OpaquePointer) -> Int32? {
        guard hb_ot_color_has_png(face) != 0, let blob = hb_face_reference_table(face, hb_tag("CBLC")) else { return nil }
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length >= 56 else { return nil }
        // Header (8 bytes), then BitmapSize records of 48 bytes; ppemY is byte 45 of a record.
        let ppem = Int32(UInt8(bitPattern: data[8 + 45]))
        return ppem > 0 ? ppem : nil
    }

    private static func hasFeature(_ face: OpaquePointer, _ tag: hb_tag_t) -> Bool {
        var tags = [hb_tag_t](repeating: 0, count: 256)
        var count = UInt32(tags.count)
        _ = hb_ot_layout_table_get_feature_tags(face, hb_tag("GPOS"), 0, &count, &tags)
        return tags.prefix(Int(count)).contains(tag)
    }

    /// Shapes "X X" for every printable ASCII X and compares with the unkerned advances.
    private static func detectSpaceKerning(_ font: OpaquePointer) -> Bool {
        var space: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font, 0x20, &space) != 0 else { return false }
        let spaceAdvance = hb_font_get_glyph_h_advance(font, space)
        let buffer = hb_buffer_create()!
        defer { hb_buffer_destroy(buffer) }
        for x in UInt32(0x21)...0x7E {
            var glyph: hb_codepoint_t = 0
            guard hb_font_get_nominal_glyph(font, x, &glyph) != 0 else { continue }
            let plain = 2 * hb_font_get_glyph_h_advance(font, glyph) + spaceAdvance
            var text: [UInt32] = [x, 0x20, x]
            hb_buffer_clear_contents(buffer)
            hb_buffer_add_utf32(buffer, &text, 3, 0, 3)
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(font, buffer, nil, 0)
            var count: UInt32 = 0
            let positions = hb_buffer_get_glyph_positions(buffer, &count)!
            var shaped: Int32 = 0
            for i in 0..<Int(count) { shaped += positions[i].x_advance }
            if shaped != plain { return true }
        }
        return false
    }

    /// The part of a `line-height: normal` line box this font needs above and below the
    /// baseline at `size`: rounded ascent (descent) plus half the rounded line gap, as Chromium
    /// computes it (docs/CHROMIUM.md §5).
    public func normalLineMetrics(size: Double) -> (above: Double, below: Double) {
        let scale = size / Double(unitsPerEm)
        let halfGap = (Double(lineGap) * scale).rounded() / 2
        return ((Double(ascender) * scale).rounded() + halfGap, (Double(descender) * scale).rounded() + halfGap)
    }

    /// FreeType's 16.16 scale for a size: `FT_DivFix(round(size × 64), unitsPerEm)`.
    @inline(__always) func fixedScale(size: Double) -> Int64 {
        let size26_6 = Int64((size * 64).rounded())
        return ((size26_6 << 16) + Int64(unitsPerEm) / 2) / Int64(unitsPerEm)
    }

    /// An advance in design units as pixels in 16.16 fixed point, rounded as FreeType and
    /// Chromium round it (`FT_MulDiv(units, scale, 64)`); bitmap fonts scale from their strike.
    @inline(__always) func fixedAdvance(_ units: Int32, scale: Int64, size: Double) -> Int64 {
        if let ppem = bitmapStrikePPEM {
            let strikePixels = (Int64(units) * Int64(ppem) * 2 + Int64(unitsPerEm)) / (2 * Int64(unitsPerEm))
            return Int64((Double(strikePixels) * size / Double(ppem) * 65536).rounded())
        }
        let product = Int64(units) * scale
        return product >= 0 ? (product + 32) >> 6 : -((-product + 32) >> 6)
    }

    deinit { hb_font_destroy(hbFont) }

    /// Whether the font maps `scalar` to a glyph of its own.
    public func covers(_ scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar, &glyph) != 0
    }

    /// The glyph `scalar` maps to, or nil.
    public func nominalGlyph(_ scalar: UInt32) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar, &glyph) != 0 ? glyph : nil
    }

    /// Advance of `scalar`'s nominal glyph in design units, or nil when the font lacks it.
    func nominalAdvance(_ scalar: UInt32) -> Int32? {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(hbFont, scalar, &glyph) != 0 else { return nil }
        return hb_font_get_glyph_h_advance(hbFont, glyph)
    }

    public var description: String { "\(family) (\(path)#\(faceIndex))" }

    public static func == (a: Font, b: Font) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

@inline(__always) func hb_tag(_ text: StaticString) -> hb_tag_t {
    let p = text.utf8Start
    return (hb_tag_t(p[0]) << 24) | (hb_tag_t(p[1]) << 16) | (hb_tag_t(p[2]) << 8) | hb_tag_t(p[3])
}
