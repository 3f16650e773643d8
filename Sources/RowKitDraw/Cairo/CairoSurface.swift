import CCairo
import RowKitIO

// The one place RowKitDraw creates, writes and decodes cairo surfaces. Canvas and ImageStore
// use these types; neither sees a cairo call or a C type.

/// A cairo surface with its drawing context: an ARGB image in memory, or a PDF or SVG document
/// streamed into an ``AtomicFile``. The surface and the context live as long as this object.
/// Not thread-safe: one thread draws at a time.
final class CairoSurface {
    /// What the surface draws into.
    enum Kind {
        /// An ARGB image of `width`×`height` device pixels.
        case image(width: Int, height: Int)
        /// A PDF or SVG document of `width`×`height` points, streamed into `file`.
        case pdf(width: Double, height: Double, file: AtomicFile)
        case svg(width: Double, height: Double, file: AtomicFile)
    }

    private let surface: OpaquePointer
    /// The drawing context on the surface.
    let context: CairoContext
    private var finished = false
    /// A PDF or SVG document (finished on close, which writes its end). An image surface is
    /// never finished: a ``CairoImage`` made by ``image()`` may still hold it, and a finished
    /// surface paints nothing (every scaled-down image drew blank).
    private let isDocument: Bool

    /// A surface of `kind`; throws cairo's reason when it cannot be made.
    init(_ kind: Kind) throws(DrawError) {
        let surface: OpaquePointer
        if case .image = kind { isDocument = false } else { isDocument = true }
        switch kind {
        case .image(let width, let height):
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        case .pdf(let width, let height, let file):
            surface = cairo_pdf_surface_create_for_stream(writeToAtomicFile, Unmanaged.passUnretained(file).toOpaque(), width, height)
        case .svg(let width, let height, let file):
            surface = cairo_svg_surface_create_for_stream(writeToAtomicFile, Unmanaged.passUnretained(file).toOpaque(), width, height)
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        self.surface = surface
        self.context = CairoContext(raw: cairo_create(surface))
    }

    /// A surface holding a copy of `image` scaled to `width`×`height` device pixels.
    convenience init(scaling image: CairoImage, toWidth width: Int, height: Int) throws(DrawError) {
        try self.init(.image(width: width, height: height))
        context.scale(Double(width) / Double(image.width), Double(height) / Double(image.height))
        context.paint(image)
    }

    private var closed = false

    /// Finishes a document (its last bytes go to its file) and releases the surface and its
    /// context; the surface must not be drawn after. Called by `deinit` when not before.
    func close() {
        guard !closed else { return }
        closed = true
        cairo_destroy(context.raw)
        if isDocument && !finished { cairo_surface_finish(surface) }
        cairo_surface_destroy(surface)
    }

    deinit { close() }

    /// The raw `cairo_t`, for package code that draws with cairo directly (RowKitWindow).
    var rawContext: OpaquePointer { context.raw }

    /// Completes pending drawing (an image's pixels are then readable).
    func flush() { cairo_surface_flush(surface) }

    /// Encodes the image surface as PNG into `file`; nil on success, else cairo's reason.
    func writePNG(to file: AtomicFile) -> String? {
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png_stream(surface, writeToAtomicFile, Unmanaged.passUnretained(file).toOpaque())
        return status == CAIRO_STATUS_SUCCESS ? nil : String(cString: cairo_status_to_string(status))
    }

    /// Finishes a PDF or SVG document (writing its end); nil on success, else cairo's reason.
    func finishDocument() -> String? {
        cairo_surface_flush(surface)
        cairo_surface_finish(surface)
        finished = true
        let status = cairo_surface_status(surface)
        return status == CAIRO_STATUS_SUCCESS ? nil : String(cString: cairo_status_to_string(status))
    }

    /// The surface's pixels as an image that keeps them alive (a scaled copy's result).
    func image() -> CairoImage {
        cairo_surface_flush(surface)
        return CairoImage(retaining: surface)
    }
}

/// A decoded image (a cairo image surface) held while anything uses it. Immutable once made,
/// so it may be shared between threads; drawing it takes the drawing context's thread.
final class CairoImage: @unchecked Sendable {
    /// The image surface (read by CairoContext.paint).
    let surface: OpaquePointer
    /// Size in pixels (at least 1×1).
    let width: Int, height: Int
    /// Pixel memory held.
    var byteCount: Int { width * height * 4 }

    /// Takes ownership of one reference to `surface`.
    private init(owning surface: OpaquePointer) {
        self.surface = surface
        self.width = max(1, Int(cairo_image_surface_get_width(surface)))
        self.height = max(1, Int(cairo_image_surface_get_height(surface)))
    }

    /// Adds a reference to `surface`.
    fileprivate convenience init(retaining surface: OpaquePointer) {
        self.init(owning: cairo_surface_reference(surface))
    }

    /// Decodes PNG `bytes`; nil when cairo cannot decode them.
    static func decodePNG(_ bytes: [UInt8]) -> CairoImage? {
        let decoded: OpaquePointer? = bytes.withUnsafeBytes { raw in
            var reader = MemoryReader(bytes: raw)
            return withUnsafeMutablePointer(to: &reader) { pointer in
                cairo_image_surface_create_from_png_stream(readFromMemory, pointer)
            }
        }
        guard let decoded else { return nil }
        guard cairo_surface_status(decoded) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(decoded)
            return nil
        }
        return CairoImage(owning: decoded)
    }

    deinit { cairo_surface_destroy(surface) }
}

/// cairo's write callback: appends to the `AtomicFile` passed as the closure pointer.
private func writeToAtomicFile(_ closure: UnsafeMutableRawPointer?, _ data: UnsafePointer<UInt8>?, _ length: UInt32) -> cairo_status_t {
    guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
    let file = Unmanaged<AtomicFile>.fromOpaque(closure).takeUnretainedValue()
    guard length > 0 else { return CAIRO_STATUS_SUCCESS }
    guard let data else { return CAIRO_STATUS_WRITE_ERROR }
    return file.write(UnsafeRawBufferPointer(start: data, count: Int(length))) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
}

/// Bytes cairo's PNG reader takes from memory.
private struct MemoryReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
}

/// cairo's read callback over a `MemoryReader`.
private func readFromMemory(_ closure: UnsafeMutableRawPointer?, _ data: UnsafeMutablePointer<UInt8>?, _ length: UInt32) -> cairo_status_t {
    guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
    let reader = closure.assumingMemoryBound(to: MemoryReader.self)
    let count = Int(length)
    guard reader.pointee.offset + count <= reader.pointee.bytes.count else { return CAIRO_STATUS_READ_ERROR }
    UnsafeMutableRawPointer(data).copyMemory(from: reader.pointee.bytes.baseAddress! + reader.pointee.offset, byteCount: count)
    reader.pointee.offset += count
    return CAIRO_STATUS_SUCCESS
}
