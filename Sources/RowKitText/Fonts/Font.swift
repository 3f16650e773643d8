import CHarfBuzz
import Synchronization

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
    /// The face's own weight (OS/2 weight class, 1...1000) and whether it is italic or oblique:
    /// a style asking for more is synthesized when drawing (``FontSynthesis``).
    public let faceWeight: Int, faceIsItalic: Bool
    /// The HarfBuzz font text is shaped with: the face's font wrapped in one that maps a missing
    /// U+2028/U+2029 to the space glyph, as Chromium does.
    let hbFont: OpaquePointer
    /// The face's plain HarfBuzz font.
    private let baseFont: OpaquePointer
    /// Clusters shaped to decide coverage, bounded (see ``covers(cluster:)``).
    private let coverage = Mutex<[[UInt16]: Bool]>([:])

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
        let shaping = hb_font_create_sub_font(font)!
        hb_font_set_funcs(shaping, shapingFontFuncs, nil, nil)
        hb_font_make_immutable(shaping)
        self.id = id
        self.path = path
        self.faceIndex = faceIndex
        self.family = family
        self.unitsPerEm = upem
        self.baseFont = font
        self.hbFont = shaping
        self.faceWeight = Int(hb_style_get_value(font, HB_STYLE_TAG_WEIGHT).rounded())
        self.faceIsItalic = hb_style_get_value(font, HB_STYLE_TAG_ITALIC) != 0
            || hb_style_get_value(font, HB_STYLE_TAG_SLANT_ANGLE) != 0

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
    /// baseline at `size`, as Chromium computes it (docs/CHROMIUM.md §5): the rounded ascent and
    /// descent, with the rounded line gap split as whole pixels, the smaller half above.
    public func normalLineMetrics(size: Double) -> (above: Double, below: Double) {
        let scale = size / Double(unitsPerEm)
        let gap = (Double(lineGap) * scale).rounded()
        let above = (gap / 2).rounded(.down)
        return ((Double(ascender) * scale).rounded() + above, (Double(descender) * scale).rounded() + gap - above)
    }

    /// FreeType's 16.16 scale for a size: `FT_DivFix(floor(size × 64), unitsPerEm)` — Skia hands
    /// FreeType the size in 26.6 truncated (measured at fractional sizes, docs/CHROMIUM.md §1).
    @inline(__always) func fixedScale(size: Double) -> Int64 {
        let size26_6 = Int64((Float(size) * 64).rounded(.down))
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

    deinit {
        hb_font_destroy(hbFont)
        hb_font_destroy(baseFont)
    }

    /// Whether the font maps `scalar` to a glyph of its own (U+2028 and U+2029 always: see
    /// `hbFont`).
    public func covers(_ scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(scalar == 0x2028 || scalar == 0x2029 ? hbFont : baseFont, scalar, &glyph) != 0
    }

    /// The HarfBuzz font to shape `text` with: ``hbFont`` when the text holds U+2028 or U+2029,
    /// else the face's own font (the same glyphs, without a callback per character).
    func shapingFont(for text: UnsafeBufferPointer<UInt16>) -> OpaquePointer {
        for unit in text where unit == 0x2028 || unit == 0x2029 { return hbFont }
        return baseFont
    }

    /// Whether HarfBuzz shapes `cluster` (UTF-16) with this font without a .notdef glyph: how
    /// Chromium decides that a font renders a character. It differs from the character map when
    /// HarfBuzz decomposes (Noto Sans has no ≠ but shapes it as = + U+0338) or composes
    /// (e + U+0302 + U+0323 → ệ). Shaped answers are cached per font, at most 8192.
    func shapes(cluster: UnsafeBufferPointer<UInt16>) -> Bool {
        guard !cluster.isEmpty, cluster.count <= 64 else { return false }
        let key = Array(cluster)
        if let known = coverage.withLock({ $0[key] }) { return known }
        let buffer = hb_buffer_create()!
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf16(buffer, cluster.baseAddress, Int32(cluster.count), 0, Int32(cluster.count))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(shapingFont(for: cluster), buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        var shaped = count > 0
        for i in 0..<Int(count) where infos[i].codepoint == 0 { shaped = false }
        coverage.withLock { table in
            if table.count >= 8192 { table.removeAll(keepingCapacity: true) }
            table[key] = shaped
        }
        return shaped
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

    /// The family and the file (with the face index) the font was loaded from.
    public var description: String { "\(family) (\(path)#\(faceIndex))" }

    /// Fonts are equal when they are the same loaded face (the library loads each face once).
    public static func == (a: Font, b: Font) -> Bool { a === b }
    /// Hashes the font's library-wide id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

@inline(__always) func hb_tag(_ text: StaticString) -> hb_tag_t {
    let p = text.utf8Start
    return (hb_tag_t(p[0]) << 24) | (hb_tag_t(p[1]) << 16) | (hb_tag_t(p[2]) << 8) | hb_tag_t(p[3])
}

/// Font functions of every shaping font (a sub-font of the face's font; everything not set here
/// goes to the face): U+2028 and U+2029 map to the space glyph when the face has no glyph of its
/// own — what Chromium shows for them (docs/CHROMIUM.md §3(m)).
private nonisolated(unsafe) let shapingFontFuncs: OpaquePointer = {
    let funcs = hb_font_funcs_create()!
    hb_font_funcs_set_nominal_glyph_func(funcs, { font, _, unicode, glyph, _ in
        let parent = hb_font_get_parent(font)
        if hb_font_get_nominal_glyph(parent, unicode, glyph) != 0 { return 1 }
        return separatorGlyph(parent, unicode, glyph)
    }, nil, nil)
    hb_font_funcs_set_nominal_glyphs_func(funcs, { font, _, count, firstUnicode, unicodeStride, firstGlyph, glyphStride, _ in
        let parent = hb_font_get_parent(font)
        var done: UInt32 = 0
        while done < count {
            let unicodes = UnsafeRawPointer(firstUnicode!).advanced(by: Int(done) * Int(unicodeStride)).assumingMemoryBound(to: hb_codepoint_t.self)
            let glyphs = UnsafeMutableRawPointer(firstGlyph!).advanced(by: Int(done) * Int(glyphStride)).assumingMemoryBound(to: hb_codepoint_t.self)
            done += hb_font_get_nominal_glyphs(parent, count - done, unicodes, unicodeStride, glyphs, glyphStride)
            if done == count { break }
            let unicode = UnsafeRawPointer(firstUnicode!).advanced(by: Int(done) * Int(unicodeStride)).load(as: hb_codepoint_t.self)
            let glyph = UnsafeMutableRawPointer(firstGlyph!).advanced(by: Int(done) * Int(glyphStride)).assumingMemoryBound(to: hb_codepoint_t.self)
            guard separatorGlyph(parent, unicode, glyph) != 0 else { break }
            done += 1
        }
        return done
    }, nil, nil)
    hb_font_funcs_make_immutable(funcs)
    return funcs
}()

/// The space glyph for U+2028/U+2029 (line and paragraph separator).
private func separatorGlyph(_ parent: OpaquePointer?, _ unicode: hb_codepoint_t, _ glyph: UnsafeMutablePointer<hb_codepoint_t>?) -> hb_bool_t {
    guard unicode == 0x2028 || unicode == 0x2029 else { return 0 }
    return hb_font_get_nominal_glyph(parent, 0x20, glyph)
}
