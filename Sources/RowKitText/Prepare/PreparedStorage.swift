extension PreparedText {
    /// The scalar fields of a prepared text, stored in front of its parallel arrays.
    struct Header {
        let style: TextStyle
        let primaryFont: Font
        let units: [UInt16]
        let lineHeight: Double
        let ascent: Double, descent: Double
        let paragraphLevel: UInt8
        let runs: [GlyphRun]
        let hyphenWidth: Int32
        let spaceWidth: Int32
        let ellipsisWidth: Int32
        /// Width of the whole text on one line, or `Int64.max` when it has a forced break or tab.
        let singleLineWidth: Int64
        /// `line-height: normal` with a fallback font that needs more room than the primary
        /// font: lines are then as tall as the fonts on them need, not all `lineHeight`.
        let hasTallerLines: Bool
        /// Number of UTF-16 units, segments, and trimmable-bracket segments.
        let unitCount: Int, segmentCount: Int, trimCount: Int
        /// Byte offsets of the arrays in the tail.
        let graphemeOffset: Int, segmentOffset: Int, trimOffset: Int, flagsOffset: Int
    }

    /// The fields and every parallel array in ONE allocation (a header and a tail of words):
    /// per unit its advance (Int32, 16.16 px) and a grapheme-start bit; per segment its end,
    /// content end, width and hanging-space width (Int32 each) and flags (UInt8); the segments
    /// whose closing CJK bracket may shrink at a line end, and by how much. One allocation
    /// instead of a dozen makes preparing faster and a prepared text ~400 bytes smaller.
    final class Storage: ManagedBuffer<Header, UInt64>, @unchecked Sendable {
        /// The header in place (reading a field through it copies nothing, unlike `header.x`,
        /// which may copy the whole header and retain its references).
        @inline(__always) private var h: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }
        @inline(__always) private func pointer<T>(_ offset: Int, _ count: Int, _ type: T.Type) -> UnsafeBufferPointer<T> {
            withUnsafeMutablePointerToElements { base in
                UnsafeBufferPointer(start: (UnsafeRawPointer(base) + offset).assumingMemoryBound(to: T.self), count: count)
            }
        }
        /// Advance of each UTF-16 unit (a cluster's advance is credited to its first unit), 16.16 px.
        var unitAdvances: UnsafeBufferPointer<Int32> { pointer(0, h.pointee.unitCount, Int32.self) }
        /// Bit u is set when a grapheme cluster starts at unit u.
        var graphemeStartBits: UnsafeBufferPointer<UInt64> { pointer(h.pointee.graphemeOffset, (h.pointee.unitCount + 63) / 64, UInt64.self) }
        var segmentEnds: UnsafeBufferPointer<Int32> { pointer(h.pointee.segmentOffset, h.pointee.segmentCount, Int32.self) }
        var contentEnds: UnsafeBufferPointer<Int32> { pointer(h.pointee.segmentOffset + 4 * h.pointee.segmentCount, h.pointee.segmentCount, Int32.self) }
        var widths: UnsafeBufferPointer<Int32> { pointer(h.pointee.segmentOffset + 8 * h.pointee.segmentCount, h.pointee.segmentCount, Int32.self) }
        var spaceWidths: UnsafeBufferPointer<Int32> { pointer(h.pointee.segmentOffset + 12 * h.pointee.segmentCount, h.pointee.segmentCount, Int32.self) }
        var endTrimSegments: UnsafeBufferPointer<Int32> { pointer(h.pointee.trimOffset, h.pointee.trimCount, Int32.self) }
        var endTrimAmounts: UnsafeBufferPointer<Int32> { pointer(h.pointee.trimOffset + 4 * h.pointee.trimCount, h.pointee.trimCount, Int32.self) }
        var flags: UnsafeBufferPointer<UInt8> { pointer(h.pointee.flagsOffset, h.pointee.segmentCount, UInt8.self) }

        var style: TextStyle { h.pointee.style }
        var primaryFont: Font { h.pointee.primaryFont }
        var units: [UInt16] { h.pointee.units }
        var unitCount: Int { h.pointee.unitCount }
        var lineHeight: Double { h.pointee.lineHeight }
        var ascent: Double { h.pointee.ascent }
        var descent: Double { h.pointee.descent }
        var paragraphLevel: UInt8 { h.pointee.paragraphLevel }
        var runs: [GlyphRun] { h.pointee.runs }
        var hyphenWidth: Int32 { h.pointee.hyphenWidth }
        var spaceWidth: Int32 { h.pointee.spaceWidth }
        var ellipsisWidth: Int32 { h.pointee.ellipsisWidth }
        var singleLineWidth: Int64 { h.pointee.singleLineWidth }
        var hasTallerLines: Bool { h.pointee.hasTallerLines }

        /// What line breaking reads, fetched in one access (each accessor above is a call that
        /// may retain the buffer; the hot path makes one).
        struct SegmentView {
            let count: Int, unitCount: Int
            let ends: UnsafePointer<Int32>, widths: UnsafePointer<Int32>, spaces: UnsafePointer<Int32>
            let flags: UnsafePointer<UInt8>
            let singleLineWidth: Int64, hyphenWidth: Int64
        }

        @inline(__always) var segmentView: SegmentView {
            withUnsafeMutablePointers { h, base in
                let raw = UnsafeRawPointer(base)
                let n = h.pointee.segmentCount, o = h.pointee.segmentOffset
                return SegmentView(count: n, unitCount: h.pointee.unitCount,
                                   ends: (raw + o).assumingMemoryBound(to: Int32.self),
                                   widths: (raw + o + 8 * n).assumingMemoryBound(to: Int32.self),
                                   spaces: (raw + o + 12 * n).assumingMemoryBound(to: Int32.self),
                                   flags: (raw + h.pointee.flagsOffset).assumingMemoryBound(to: UInt8.self),
                                   singleLineWidth: h.pointee.singleLineWidth, hyphenWidth: Int64(h.pointee.hyphenWidth))
            }
        }

        /// Bytes of the tail.
        var tailBytes: Int { h.pointee.flagsOffset + h.pointee.segmentCount }

        static func make(style: TextStyle, primaryFont: Font, units: [UInt16], lineHeight: Double, ascent: Double, descent: Double,
                         paragraphLevel: UInt8, runs: [GlyphRun], unitAdvances: [Int32], graphemeStartBits: [UInt64],
                         segmentEnds: [Int32], contentEnds: [Int32], widths: [Int32], spaceWidths: [Int32], flags: [UInt8],
                         endTrimSegments: [Int32], endTrimAmounts: [Int32],
                         hyphenWidth: Int32, spaceWidth: Int32, ellipsisWidth: Int32, singleLineWidth: Int64,
                         hasTallerLines: Bool) -> Storage {
            func align8(_ n: Int) -> Int { (n + 7) & ~7 }
            let u = unitAdvances.count, n = segmentEnds.count, t = endTrimSegments.count
            let graphemeOffset = align8(4 * u)
            let segmentOffset = graphemeOffset + 8 * graphemeStartBits.count
            let trimOffset = segmentOffset + 16 * n
            let flagsOffset = trimOffset + 8 * t
            let words = max(1, (flagsOffset + n + 7) / 8)
            let header = Header(style: style, primaryFont: primaryFont, units: units, lineHeight: lineHeight, ascent: ascent,
                                descent: descent, paragraphLevel: paragraphLevel, runs: runs, hyphenWidth: hyphenWidth,
                                spaceWidth: spaceWidth, ellipsisWidth: ellipsisWidth, singleLineWidth: singleLineWidth,
                                hasTallerLines: hasTallerLines, unitCount: u, segmentCount: n, trimCount: t, graphemeOffset: graphemeOffset,
                                segmentOffset: segmentOffset, trimOffset: trimOffset, flagsOffset: flagsOffset)
            let buffer = Storage.create(minimumCapacity: words) { _ in header } as! Storage
            buffer.withUnsafeMutablePointerToElements { base in
                let raw = UnsafeMutableRawPointer(base)
                raw.initializeMemory(as: UInt64.self, repeating: 0, count: words)
                func copy<T>(_ array: [T], _ offset: Int) {
                    array.withUnsafeBytes { bytes in
                        if let source = bytes.baseAddress { (raw + offset).copyMemory(from: source, byteCount: bytes.count) }
                    }
                }
                copy(unitAdvances, 0)
                copy(graphemeStartBits, graphemeOffset)
                copy(segmentEnds, segmentOffset)
                copy(contentEnds, segmentOffset + 4 * n)
                copy(widths, segmentOffset + 8 * n)
                copy(spaceWidths, segmentOffset + 12 * n)
                copy(endTrimSegments, trimOffset)
                copy(endTrimAmounts, trimOffset + 4 * t)
                copy(flags, flagsOffset)
            }
            return buffer
        }
    }
}
