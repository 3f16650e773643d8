extension PreparedText {
    /// What drawing needs besides the measuring form: the style, the text and its glyph runs.
    struct Header {
        let style: TextStyle
        let primaryFont: Font
        let units: [UInt16]
        let runs: [GlyphRun]
        let ascent: Double, descent: Double
        let paragraphLevel: UInt8
    }

    /// The drawing fields in the header and the compact measuring form (``MetricsBlock``) in
    /// the tail, in ONE allocation: copying a `PreparedText` is one retain.
    final class Storage: ManagedBuffer<Header, UInt64> {
        /// The header in place (reading a field through it copies nothing, unlike `header.x`,
        /// which may copy the whole header and retain its references).
        @inline(__always) private var h: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }

        /// The measuring form, read in place (valid while this storage lives).
        @inline(__always) var view: MetricsBlock.View {
            MetricsBlock.View(UnsafeRawPointer(withUnsafeMutablePointerToElements { $0 }))
        }

        var style: TextStyle { h.pointee.style }
        var primaryFont: Font { h.pointee.primaryFont }
        var units: [UInt16] { h.pointee.units }
        var runs: [GlyphRun] { h.pointee.runs }
        var ascent: Double { h.pointee.ascent }
        var descent: Double { h.pointee.descent }
        var paragraphLevel: UInt8 { h.pointee.paragraphLevel }

        /// A storage holding `header` and the planned block.
        static func make(_ header: Header, input: MetricsBlock.Input, planner: MetricsBlock.Planner) -> Storage {
            let words = max(1, planner.byteCount / 8)
            let storage = Storage.create(minimumCapacity: words) { _ in header } as! Storage
            storage.withUnsafeMutablePointerToElements { base in
                base.initialize(repeating: 0, count: words)
                planner.write(input, to: UnsafeMutableRawPointer(base))
            }
            return storage
        }
    }
}

/// Heap bytes of a managed buffer: object header, header field, the tail as allocated (its
/// capacity is what malloc reserved) and malloc's own chunk header.
func heapBytes<Header, Element>(_ buffer: ManagedBuffer<Header, Element>) -> Int {
    let head = (16 + MemoryLayout<Header>.size + MemoryLayout<Element>.alignment - 1) & ~(MemoryLayout<Element>.alignment - 1)
    return head + buffer.capacity * MemoryLayout<Element>.stride + MemoryLayout<Int>.size
}
