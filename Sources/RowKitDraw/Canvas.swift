import CCairo
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
    case unknownFormat(String)
    case invalidSize(width: Double, height: Double)
    case cairo(String)

    public var description: String {
        switch self {
        case .unknownFormat(let path): return "cannot tell the image format of '\(path)': use .png, .pdf or .svg"
        case .invalidSize(let w, let h): return "invalid canvas size \(w)×\(h): each side must be in 1...32767 pixels"
        case .cairo(let message): return message
        }
    }
}

/// A cairo drawing surface that ends up in a PNG, PDF or SVG file, in CSS pixels.
///
/// PNGs are rasterized at `scale` device pixels per CSS pixel; PDF and SVG are vector, one
/// point per pixel.
public final class Canvas {
    public let width: Double, height: Double, scale: Double
    public let format: ImageFormat
    public let path: String
    /// The cairo context to draw with (CSS pixel coordinates, origin top left).
    public let context: OpaquePointer
    private let surface: OpaquePointer

    public init(width: Double, height: Double, scale: Double = 1, path: String) throws(DrawError) {
        guard let format = ImageFormat(path: path) else { throw .unknownFormat(path) }
        guard width.isFinite, height.isFinite, scale.isFinite, scale > 0, scale <= 8,
              width >= 1, height >= 1, width * scale <= 32767, height * scale <= 32767 else {
            throw .invalidSize(width: width, height: height)
        }
        self.width = width
        self.height = height
        self.scale = scale
        self.format = format
        self.path = path
        switch format {
        case .png:
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32((width * scale).rounded(.up)), Int32((height * scale).rounded(.up)))
        case .pdf:
            surface = cairo_pdf_surface_create(path, width, height)
        case .svg:
            surface = cairo_svg_surface_create(path, width, height)
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let message = String(cString: cairo_status_to_string(cairo_surface_status(surface)))
            cairo_surface_destroy(surface)
            throw .cairo("cannot create \(format.rawValue) surface for '\(path)': \(message)")
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
        cairo_surface_destroy(surface)
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

    /// Writes the file (PNG) or finishes the document (PDF, SVG).
    public func finish() throws(DrawError) {
        cairo_surface_flush(surface)
        if path.isEmpty { return }   // an offscreen canvas
        if format == .png {
            let status = cairo_surface_write_to_png(surface, path)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw .cairo("cannot write '\(path)': \(String(cString: cairo_status_to_string(status)))")
            }
        } else {
            cairo_surface_finish(surface)
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw .cairo("cannot write '\(path)': \(String(cString: cairo_status_to_string(status)))")
            }
        }
    }
}

extension Canvas {
    /// Fills a rectangle with the current color.
    public func fillRect(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(context, x, y, width, height)
        cairo_fill(context)
    }
}
