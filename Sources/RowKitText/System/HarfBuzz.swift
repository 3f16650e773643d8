import CHarfBuzz

// The only door from RowKitText to HarfBuzz: opaque handles, a font face's facts read once,
// and shaping into a reused buffer whose output is read in place (no copy, no allocation).
// Nothing else in the module imports CHarfBuzz.

/// A HarfBuzz font (`hb_font_t *`).
typealias HBFont = OpaquePointer
/// A HarfBuzz buffer (`hb_buffer_t *`), reused from shaping to shaping.
typealias HBBuffer = OpaquePointer
/// A HarfBuzz language (`hb_language_t`), interned by HarfBuzz for the process.
typealias HBLanguage = OpaquePointer

enum HarfBuzz {
    /// What ``Font`` keeps of a face: its two fonts (plain, and the shaping font that maps a
    /// missing U+2028/U+2029 to the space glyph) and the facts read from its tables.
    struct Face {
        var plainFont: HBFont
        var shapingFont: HBFont
        var unitsPerEm: Int32
        /// OS/2 weight class and whether the face is italic or slanted.
        var weight: Double, isItalic: Bool
        /// hhea ascender, descender (as HarfBuzz gives it: negative below the baseline) and line
        /// gap in design units, 0 when the face has none.
        var ascender: Int32, descender: Int32, lineGap: Int32
        var hasColorGlyphs: Bool
        var bitmapStrikePPEM: Int32?
        var hasHalfWidthPunctuation: Bool
        var kernsAcrossSpaces: Bool
    }

    /// Loads face `index` of the font file at `path`; nil when it is not a usable font.
    static func loadFace(path: String, index: Int32) -> Face? {
        guard let blob = hb_blob_create_from_file_or_fail(path) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard hb_face_count(blob) > UInt32(index) else { return nil }
        let face = hb_face_create(blob, UInt32(index))!
        defer { hb_face_destroy(face) }
        let upem = Int32(hb_face_get_upem(face))
        guard upem > 0, hb_face_get_glyph_count(face) > 0 else { return nil }
        let font = hb_font_create(face)!
        hb_font_make_immutable(font)
        let shaping = hb_font_create_sub_font(font)!
        hb_font_set_funcs(shaping, shapingFontFuncs, nil, nil)
        hb_font_make_immutable(shaping)

        func metric(_ tag: hb_ot_metrics_tag_t) -> Int32 {
            var value: hb_position_t = 0
            return hb_ot_metrics_get_position(font, tag, &value) != 0 ? value : 0
        }
        return Face(
            plainFont: font, shapingFont: shaping, unitsPerEm: upem,
            weight: Double(hb_style_get_value(font, HB_STYLE_TAG_WEIGHT)),
            isItalic: hb_style_get_value(font, HB_STYLE_TAG_ITALIC) != 0
                || hb_style_get_value(font, HB_STYLE_TAG_SLANT_ANGLE) != 0,
            ascender: metric(HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER),
            descender: metric(HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER),
            lineGap: metric(HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP),
            hasColorGlyphs: hb_ot_color_has_png(face) != 0 || hb_ot_color_has_layers(face) != 0,
            bitmapStrikePPEM: strikePPEM(face),
            hasHalfWidthPunctuation: hasFeature(face, tag("halt")),
            kernsAcrossSpaces: detectSpaceKerning(font))
    }

    /// The first strike's ppem from the CBLC table, when the face has color bitmaps.
    private static func strikePPEM(_ face: OpaquePointer) -> Int32? {
        guard hb_ot_color_has_png(face) != 0, let blob = hb_face_reference_table(face, tag("CBLC")) else { return nil }
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length >= 56 else { return nil }
        // Header (8 bytes), then BitmapSize records of 48 bytes; ppemY is byte 45 of a record.
        let ppem = Int32(UInt8(bitPattern: data[8 + 45]))
        return ppem > 0 ? ppem : nil
    }

    private static func hasFeature(_ face: OpaquePointer, _ feature: hb_tag_t) -> Bool {
        var tags = [hb_tag_t](repeating: 0, count: 256)
        var count = UInt32(tags.count)
        _ = hb_ot_layout_table_get_feature_tags(face, tag("GPOS"), 0, &count, &tags)
        return tags.prefix(Int(count)).contains(feature)
    }

    /// Shapes "X X" for every printable ASCII X and compares with the unkerned advances.
    private static func detectSpaceKerning(_ font: HBFont) -> Bool {
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

    /// A font over `plain` (a face's plain font) that draws U+2028 and U+2029 with the space
    /// glyph even where the face has glyphs of its own: how Chromium shows them after text of a
    /// fallback font (docs/CHROMIUM.md §3(m)). Released with ``destroy(_:)``.
    static func separatorsAsSpaceFont(over plain: HBFont) -> HBFont {
        let font = hb_font_create_sub_font(plain)!
        hb_font_set_funcs(font, separatorsAsSpaceFontFuncs, nil, nil)
        hb_font_make_immutable(font)
        return font
    }

    /// Releases a font from ``loadFace(path:index:)``.
    @inline(__always) static func destroy(_ font: HBFont) { hb_font_destroy(font) }

    /// The glyph `font` maps `scalar` to, or nil.
    @inline(__always) static func nominalGlyph(_ font: HBFont, _ scalar: UInt32) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 ? glyph : nil
    }

    /// The horizontal advance of `glyph` in design units.
    @inline(__always) static func advance(_ font: HBFont, glyph: UInt32) -> Int32 {
        hb_font_get_glyph_h_advance(font, glyph)
    }

    /// Shapes `scalars` (one glyph each expected) in `language` as Han text and returns each
    /// glyph (0 for .notdef), its advance and x offset, and its outline's points — on-curve and
    /// control points, as FreeType's control box counts them — in design units (`font` at its
    /// face's scale); nil when a scalar does not shape to exactly one glyph of its own.
    static func glyphOutlines(_ font: HBFont, _ scalars: [UInt32], language: HBLanguage?)
        -> [(glyph: UInt32, advance: Int32, xOffset: Int32, points: [(x: Float, y: Float)])]? {
        let buffer = hb_buffer_create()!
        defer { hb_buffer_destroy(buffer) }
        var text = scalars
        hb_buffer_add_utf32(buffer, &text, Int32(text.count), 0, Int32(text.count))
        hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, HB_SCRIPT_HAN)
        if let language { hb_buffer_set_language(buffer, language) }
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), Int(count) == scalars.count,
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return nil }
        var out: [(glyph: UInt32, advance: Int32, xOffset: Int32, points: [(x: Float, y: Float)])] = []
        for i in 0..<Int(count) {
            guard infos[i].cluster == UInt32(i) else { return nil }
            var points: [(x: Float, y: Float)] = []
            withUnsafeMutablePointer(to: &points) { hb_font_get_glyph_shape(font, infos[i].codepoint, outlinePointFuncs, $0) }
            out.append((infos[i].codepoint, positions[i].x_advance, positions[i].x_offset, points))
        }
        return out
    }

    /// Whether `halt` moves a glyph of `font` when the text is shaped in `script` (a raw
    /// `hb_script_t`) as it does in a Common run: HarfBuzz applies no GPOS at all when a script's
    /// shaper wants a script tag the font's GPOS lacks (a Hebrew run in Noto Sans CJK: no `hebr`
    /// there, so its `”` is never half width, docs/CHROMIUM.md §3(e)). Probed on the first of a
    /// few fullwidth marks that `halt` narrows in Common; true when none does (nothing to gate).
    static func halfWidthApplies(_ font: HBFont, script: UInt32) -> Bool {
        let buffer = hb_buffer_create()!
        defer { hb_buffer_destroy(buffer) }
        var halt = hb_feature_t(tag: tag("halt"), value: 1, start: 0, end: UInt32.max)
        func advance(_ scalar: UInt32, _ script: UInt32, halfWidth: Bool) -> Int32 {
            var text = [scalar]
            hb_buffer_clear_contents(buffer)
            hb_buffer_add_utf32(buffer, &text, 1, 0, 1)
            hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
            hb_buffer_set_script(buffer, hb_script_t(rawValue: script))
            if halfWidth { hb_shape(font, buffer, &halt, 1) } else { hb_shape(font, buffer, nil, 0) }
            var count: UInt32 = 0
            guard let positions = hb_buffer_get_glyph_positions(buffer, &count), count == 1 else { return 0 }
            return positions[0].x_advance
        }
        let common = HB_SCRIPT_COMMON.rawValue
        for probe: UInt32 in [0x3001, 0x3002, 0xFF0C, 0x201D, 0x300D] {
            guard nominalGlyph(font, probe) != nil else { continue }
            let full = advance(probe, common, halfWidth: false)
            guard advance(probe, common, halfWidth: true) != full else { continue }
            return advance(probe, script, halfWidth: true) != advance(probe, script, halfWidth: false)
        }
        return true
    }

    /// HarfBuzz's Common script (its raw tag value).
    static let commonScript = HB_SCRIPT_COMMON.rawValue

    /// HarfBuzz's script of `scalar` (its raw tag value).
    static func script(of scalar: UInt32) -> UInt32 {
        hb_unicode_script(hb_unicode_funcs_get_default(), scalar).rawValue
    }

    /// HarfBuzz's language for a BCP 47 tag.
    static func language(_ tag: String) -> HBLanguage? { hb_language_from_string(tag, -1) }

    /// A new shaping buffer; release it with ``destroy(buffer:)``.
    static func createBuffer() -> HBBuffer { hb_buffer_create()! }
    static func destroy(buffer: HBBuffer) { hb_buffer_destroy(buffer) }

    /// Shapes `text[item]` (UTF-16; the units around `item` are context only) with `font` into
    /// `buffer`, emptied first: in `rightToLeft` direction when given (else the guessed one), in
    /// `language` when given, with the `halt` feature at the item offsets `halfWidth` lists.
    /// The glyphs returned point into the buffer: valid until it is shaped again.
    @inline(__always)
    static func shape(_ text: UnsafePointer<UInt16>?, count: Int, item: Range<Int>, font: HBFont, rightToLeft: Bool?,
                      language: HBLanguage?, halfWidth: [UInt16] = [], script: UInt32 = 0, buffer: HBBuffer) -> Glyphs {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf16(buffer, text, Int32(count), UInt32(item.lowerBound), Int32(item.count))
        if let rightToLeft { hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR) }
        if script != 0 { hb_buffer_set_script(buffer, hb_script_t(rawValue: script)) }
        if let language { hb_buffer_set_language(buffer, language) }
        hb_buffer_guess_segment_properties(buffer)
        if halfWidth.isEmpty {
            hb_shape(font, buffer, nil, 0)
        } else {
            var features = halfWidth.map { hb_feature_t(tag: tag("halt"), value: 1, start: UInt32($0), end: UInt32($0) + 1) }
            hb_shape(font, buffer, &features, UInt32(features.count))
        }
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        guard let infos, let positions else { return Glyphs(infos: infos, positions: positions, count: 0) }
        return Glyphs(infos: infos, positions: positions, count: Int(count))
    }

    /// Shaped glyphs read in place from a buffer, in visual order.
    struct Glyphs {
        private let infos: UnsafeMutablePointer<hb_glyph_info_t>?
        private let positions: UnsafeMutablePointer<hb_glyph_position_t>?
        /// Number of glyphs.
        let count: Int

        fileprivate init(infos: UnsafeMutablePointer<hb_glyph_info_t>?, positions: UnsafeMutablePointer<hb_glyph_position_t>?, count: Int) {
            self.infos = infos
            self.positions = positions
            self.count = count
        }

        /// Glyph id (0 is .notdef).
        @inline(__always) func glyph(_ i: Int) -> UInt32 { infos.unsafelyUnwrapped[i].codepoint }
        /// The cluster: the text offset (in the whole text given) of the glyph's first unit.
        @inline(__always) func cluster(_ i: Int) -> UInt32 { infos.unsafelyUnwrapped[i].cluster }
        @inline(__always) func xAdvance(_ i: Int) -> Int32 { positions.unsafelyUnwrapped[i].x_advance }
        @inline(__always) func xOffset(_ i: Int) -> Int32 { positions.unsafelyUnwrapped[i].x_offset }
        @inline(__always) func yOffset(_ i: Int) -> Int32 { positions.unsafelyUnwrapped[i].y_offset }
        /// Whether HarfBuzz marks glyph `i` unsafe to break before (shaping crossed it).
        @inline(__always) func unsafeToBreak(_ i: Int) -> Bool {
            hb_glyph_info_get_glyph_flags(infos.unsafelyUnwrapped + i).rawValue & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0
        }
    }

    /// An OpenType tag from its four ASCII letters.
    @inline(__always) static func tag(_ text: StaticString) -> hb_tag_t {
        let p = text.utf8Start
        return (hb_tag_t(p[0]) << 24) | (hb_tag_t(p[1]) << 16) | (hb_tag_t(p[2]) << 8) | hb_tag_t(p[3])
    }
}

/// Draw functions that collect every point of an outline, control points included, into the
/// `[(x: Float, y: Float)]` the draw data points to (``HarfBuzz/glyphOutlines(_:_:language:)``).
private nonisolated(unsafe) let outlinePointFuncs: OpaquePointer = {
    let funcs = hb_draw_funcs_create()!
    hb_draw_funcs_set_move_to_func(funcs, { _, data, _, x, y, _ in add(data, x, y) }, nil, nil)
    hb_draw_funcs_set_line_to_func(funcs, { _, data, _, x, y, _ in add(data, x, y) }, nil, nil)
    hb_draw_funcs_set_quadratic_to_func(funcs, { _, data, _, cx, cy, x, y, _ in
        add(data, cx, cy)
        add(data, x, y)
    }, nil, nil)
    hb_draw_funcs_set_cubic_to_func(funcs, { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
        add(data, c1x, c1y)
        add(data, c2x, c2y)
        add(data, x, y)
    }, nil, nil)
    hb_draw_funcs_make_immutable(funcs)
    return funcs
}()

/// Appends a point to the outline ``outlinePointFuncs`` collects.
private func add(_ data: UnsafeMutableRawPointer?, _ x: Float, _ y: Float) {
    data!.assumingMemoryBound(to: [(x: Float, y: Float)].self).pointee.append((x, y))
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

/// Font functions of ``HarfBuzz/separatorsAsSpaceFont(over:)``: U+2028 and U+2029 always map to
/// the space glyph (when the face has one); everything else goes to the face. HarfBuzz calls
/// this per character for the batch lookup too, since no batch function is set.
private nonisolated(unsafe) let separatorsAsSpaceFontFuncs: OpaquePointer = {
    let funcs = hb_font_funcs_create()!
    hb_font_funcs_set_nominal_glyph_func(funcs, { font, _, unicode, glyph, _ in
        let parent = hb_font_get_parent(font)
        if separatorGlyph(parent, unicode, glyph) != 0 { return 1 }
        return hb_font_get_nominal_glyph(parent, unicode, glyph)
    }, nil, nil)
    hb_font_funcs_make_immutable(funcs)
    return funcs
}()

/// The space glyph for U+2028/U+2029 (line and paragraph separator).
private func separatorGlyph(_ parent: OpaquePointer?, _ unicode: hb_codepoint_t, _ glyph: UnsafeMutablePointer<hb_codepoint_t>?) -> hb_bool_t {
    guard unicode == 0x2028 || unicode == 0x2029 else { return 0 }
    return hb_font_get_nominal_glyph(parent, 0x20, glyph)
}
