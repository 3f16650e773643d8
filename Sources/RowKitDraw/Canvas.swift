import CCairo
import RowKitIO
import RowKitText

/// Output file formats cairo writes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, pdf, svg

    /// The format a file name's extension names, or nil.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: ".") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}

/// What can go wrong while drawing.
public enum DrawError: Error, Sendable, CustomStringConvertible {
    /// The file name's extension is not .png, .pdf or .svg.
    case unknownFormat(String)
    /// A side is not a finite number of pixels in 1...32767 (after scaling, for PNG).
    case invalidSize(width: Double, height: Double)
    /// The PNG scale is outside ``Canvas/scaleRange``.
    case invalidScale(Double)
    /// The PNG would have more than ``Canvas/maximumPixels`` device pixels.
    case tooManyPixels(width: Int, height: Int)
    /// cairo reported a problem (not an I/O error).
    case cairo(String)
    /// The output file could not be written; the previous file, if any, is untouched.
    case write(OutputError)

    public var description: String {
        switch self {
        case .unknownFormat(let path): return "cannot tell the image format of '\(path)': use .png, .pdf or .svg"
        case .invalidSize(let w, let h): return "invalid canvas size \(w)×\(h): each side must be in 1...32767 pixels (after --scale)"
        case .invalidScale(let scale):
            return "invalid scale \(scale): it must be in \(Canvas.scaleRange.lowerBound)...\(Canvas.scaleRange.upperBound)"
        case .tooManyPixels(let w, let h):
            return "the image would be \(w)×\(h) device pixels, more than the \(Canvas.maximumPixels / 1_000_000) million-pixel limit "
                + "(draw a viewport with --offset and --height, or lower --scale)"
        case .cairo(let message): return message
        case .write(let error): return error.description
        }
    }
}

/// A cairo drawing surface that ends up in a PNG, PDF or SVG file, in CSS pixels.
///
/// PNGs are rasterized at `scale` device pixels per CSS pixel; PDF and SVG are vector, one
/// point per pixel (`scale` does not apply). The file is written atomically: cairo writes into
/// a temporary file beside it, renamed over the target only when everything was written (see
/// `AtomicFile` in RowKitIO), so a failed write — a full disk, a missing folder, an I/O error,
/// each reported with the system's reason — never leaves a truncated file or destroys the
/// previous one. The temporary file is created when the canvas is made (so a bad path fails
/// before any drawing) and removed if the canvas is dropped without ``finish()``.
///
/// Limits: each side at most 32,767 device pixels (cairo's), a PNG at most
/// ``maximumPixels`` device pixels in all, and `scale` in ``scaleRange``.
public final class Canvas {
    /// The largest PNG, in device pixels (width × height): 100 million (400 MB of pixels).
    public static let maximumPixels = 100_000_000
    /// Scales a PNG may use: 0.05 (a 5% thumbnail) to 8.
    public static let scaleRange: ClosedRange<Double> = 0.05...8

    public let width: Double, height: Double, scale: Double
    public let format: ImageFormat
    public let path: String
    /// The cairo context to draw with (CSS pixel coordinates, origin top left).
    public let context: OpaquePointer
    private let surface: OpaquePointer
    /// The output file (nil for an offscreen canvas).
    private let file: AtomicFile?
    private var finished = false

    /// The PNG's size in device pixels (`ceil(width × scale)` × `ceil(height × scale)`); for
    /// PDF and SVG the size in points.
    public var deviceSize: (width: Int, height: Int) {
        format == .png ? (Int((width * scale).rounded(.up)), Int((height * scale).rounded(.up)))
            : (Int(width.rounded(.up)), Int(height.rounded(.up)))
    }

    /// A canvas of `width`×`height` CSS pixels for the file at `path` (format from its extension).
    public init(width: Double, height: Double, scale: Double = 1, path: String) throws(DrawError) {
        guard let format = ImageFormat(path: path) else { throw .unknownFormat(path) }
        guard scale.isFinite, Self.scaleRange.contains(scale) else { throw .invalidScale(scale) }
        let factor = format == .png ? scale : 1
        guard width.isFinite, height.isFinite, width >= 1, height >= 1,
              (width * factor).rounded(.up) <= 32767, (height * factor).rounded(.up) <= 32767 else {
            throw .invalidSize(width: width, height: height)
        }
        let device = (Int((width * factor).rounded(.up)), Int((height * factor).rounded(.up)))
        if format == .png, device.0 * device.1 > Self.maximumPixels {
            throw .tooManyPixels(width: device.0, height: device.1)
        }
        let file: AtomicFile
        do throws(OutputError) {
            file = try AtomicFile(path: path)
        } catch {
            throw .write(error)
        }
        self.file = file
        self.width = width
        self.height = height
        self.scale = scale
        self.format = format
        self.path = path
        let closure = Unmanaged.passUnretained(file).toOpaque()
        switch format {
        case .png:
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(device.0), Int32(device.1))
        case .pdf:
            surface = cairo_pdf_surface_create_for_stream(writeToAtomicFile, closure, width, height)
        case .svg:
            surface = cairo_svg_surface_create_for_stream(writeToAtomicFile, closure, width, height)
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let message = String(cString: cairo_status_to_string(cairo_surface_status(surface)))
            cairo_surface_destroy(surface)
            file.discard()
            throw .cairo("cannot create the \(format.rawValue) surface for '\(path)': \(message)")
        }
        context = cairo_create(surface)
        if format == .png { cairo_scale(context, scale, scale) }
    }

    /// An in-memory canvas (an ARGB image of width·scale × height·scale device pixels, no
    /// file): a window's back buffer. It is drawn like any canvas; ``finish()`` only flushes it.
    public init(offscreenWidth width: Double, height: Double, scale: Double = 1) throws(DrawError) {
        guard width.isFinite, height.isFinite, scale.isFinite, scale > 0, scale <= 8,
              width >= 1, height >= 1, width * scale <= 32767, height * scale <= 32767 else {
            throw .invalidSize(width: width, height: height)
        }
        self.width = width
        self.height = height
        self.scale = scale
        self.format = .png
        self.path = ""
        self.file = nil
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32((width * scale).rounded(.up)), Int32((height * scale).rounded(.up)))
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .cairo("cannot create a \(width)×\(height) image")
        }
        context = cairo_create(surface)
        cairo_scale(context, scale, scale)
    }

    deinit {
        cairo_destroy(context)
        if !finished { cairo_surface_finish(surface) }
        cairo_surface_destroy(surface)
        file?.discard()
    }

    /// Fills the whole canvas with a color.
    public func fill(_ color: Color) {
        cairo_save(context)
        setColor(color)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Sets the source color for the next fill or stroke.
    public func setColor(_ color: Color) {
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
    }

    /// Outlines a rectangle with a 1 px line inside its edges.
    public func strokeRect(x: Double, y: Double, width: Double, height: Double, color: Color) {
        cairo_save(context)
        setColor(color)
        cairo_set_line_width(context, 1)
        cairo_rectangle(context, x + 0.5, y + 0.5, max(0, width - 1), max(0, height - 1))
        cairo_stroke(context)
        cairo_restore(context)
    }

    /// Writes the file: encodes the PNG or finishes the PDF or SVG document, flushes it to disk
    /// and renames it over `path`. On failure `path` is untouched and the error says why.
    public func finish() throws(DrawError) {
        cairo_surface_flush(surface)
        guard let file else { return }   // an offscreen canvas
        guard !finished else { throw .cairo("'\(path)' was already written") }
        finished = true
        let status: cairo_status_t
        if format == .png {
            status = cairo_surface_write_to_png_stream(surface, writeToAtomicFile, Unmanaged.passUnretained(file).toOpaque())
        } else {
            cairo_surface_finish(surface)
            status = cairo_surface_status(surface)
        }
        if let code = file.failure {
            file.discard()
            throw .write(OutputError(target: path, doing: "write error", code: code))
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            file.discard()
            throw .cairo("cannot write '\(path)': \(String(cString: cairo_status_to_string(status)))")
        }
        do throws(OutputError) {
            try file.commit()
        } catch {
            throw .write(error)
        }
    }
}

/// cairo's write callback: appends to the `AtomicFile` passed as the closure pointer.
private func writeToAtomicFile(_ closure: UnsafeMutableRawPointer?, _ data: UnsafePointer<UInt8>?, _ length: UInt32) -> cairo_status_t {
    guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
    let file = Unmanaged<AtomicFile>.fromOpaque(closure).takeUnretainedValue()
    guard length > 0 else { return CAIRO_STATUS_SUCCESS }
    guard let data else { return CAIRO_STATUS_WRITE_ERROR }
    return file.write(UnsafeRawBufferPointer(start: data, count: Int(length))) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
}

extension Canvas {
    /// Fills a rectangle with the current color.
    public func fillRect(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(context, x, y, width, height)
        cairo_fill(context)
    }
}
