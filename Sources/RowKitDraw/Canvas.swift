import RowKitIO
import RowKitText

/// Output file formats cairo writes.
public enum ImageFormat: String, Sendable, CaseIterable {
    /// A raster image, at the canvas's scale.
    case png
    /// A vector PDF document, one point per CSS pixel.
    case pdf
    /// A vector SVG document, one unit per CSS pixel.
    case svg

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

    /// The message, naming the file, size or scale at fault.
    public var description: String {
        switch self {
        case .unknownFormat(let path): return "cannot tell the image format of '\(path)': use .png, .pdf or .svg"
        case .invalidSize(let w, let h):
            func px(_ v: Double) -> String { v.isFinite ? JSONText.number(v) : "\(v)" }
            return "invalid canvas size \(px(w))×\(px(h)) px: each side must be 1 to 32767 pixels (device pixels for PNG)"
        case .invalidScale(let scale):
            return "invalid scale \(scale): it must be in \(Canvas.scaleRange.lowerBound)...\(Canvas.scaleRange.upperBound)"
        case .tooManyPixels(let w, let h):
            return "the image would be \(w)×\(h) device pixels, more than the \(Canvas.maximumPixels / 1_000_000) million-pixel limit"
        case .cairo(let message): return message
        case .write(let error): return error.description
        }
    }
}

/// A drawing surface that ends up in a PNG, PDF or SVG file, in CSS pixels (cairo draws it).
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
///
/// Threads: a canvas is drawn by one thread at a time (it is not `Sendable`); separate
/// canvases may be drawn on separate threads at once.
public final class Canvas {
    /// The largest PNG, in device pixels (width × height): 100 million (400 MB of pixels).
    public static let maximumPixels = 100_000_000
    /// Scales a PNG may use: 0.05 (a 5% thumbnail) to 8.
    public static let scaleRange: ClosedRange<Double> = 0.05...8

    /// The canvas width in CSS pixels.
    public let width: Double
    /// The canvas height in CSS pixels.
    public let height: Double
    /// Device pixels per CSS pixel (PNG and offscreen canvases; 1 for PDF and SVG output).
    public let scale: Double
    /// The output format (`.png` for an offscreen canvas).
    public let format: ImageFormat
    /// The output file's path ("" for an offscreen canvas).
    public let path: String
    /// The surface and its context (CSS pixel coordinates, origin top left).
    let surface: CairoSurface
    /// The output file (nil for an offscreen canvas).
    private let file: AtomicFile?
    private var finished = false

    /// The drawing context RowKitDraw draws with.
    var cairo: CairoContext { surface.context }

    /// The raw cairo context (`cairo_t *`, CSS pixel coordinates), for the package's own GTK
    /// window, which blits and draws with cairo directly. Not public: RowKit's public API has
    /// no C types.
    package var context: OpaquePointer { surface.rawContext }

    /// The PNG's size in device pixels (`ceil(width × scale)` × `ceil(height × scale)`); for
    /// PDF and SVG the size in points.
    public var deviceSize: (width: Int, height: Int) {
        format == .png ? (Int((width * scale).rounded(.up)), Int((height * scale).rounded(.up)))
            : (Int(width.rounded(.up)), Int(height.rounded(.up)))
    }

    /// A canvas of `width`×`height` CSS pixels for the file at `path` (format from its
    /// extension). Throws ``DrawError`` for an unknown extension, a bad size or scale, too many
    /// pixels, or a path whose temporary file cannot be created.
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
        let kind: CairoSurface.Kind
        switch format {
        case .png: kind = .image(width: device.0, height: device.1)
        case .pdf: kind = .pdf(width: width, height: height, file: file)
        case .svg: kind = .svg(width: width, height: height, file: file)
        }
        do throws(DrawError) {
            surface = try CairoSurface(kind)
        } catch {
            file.discard()
            throw .cairo("cannot create the \(format.rawValue) surface for '\(path)': \(error)")
        }
        self.file = file
        self.width = width
        self.height = height
        self.scale = scale
        self.format = format
        self.path = path
        if format == .png { surface.context.scale(scale, scale) }
    }

    /// An in-memory canvas (an ARGB image of width·scale × height·scale device pixels, no
    /// file): a window's back buffer. It is drawn like any canvas; ``finish()`` only flushes it.
    public init(offscreenWidth width: Double, height: Double, scale: Double = 1) throws(DrawError) {
        guard width.isFinite, height.isFinite, scale.isFinite, scale > 0, scale <= 8,
              width >= 1, height >= 1, width * scale <= 32767, height * scale <= 32767 else {
            throw .invalidSize(width: width, height: height)
        }
        do throws(DrawError) {
            surface = try CairoSurface(.image(width: Int((width * scale).rounded(.up)), height: Int((height * scale).rounded(.up))))
        } catch {
            throw .cairo("cannot create a \(width)×\(height) image")
        }
        self.width = width
        self.height = height
        self.scale = scale
        self.format = .png
        self.path = ""
        self.file = nil
        surface.context.scale(scale, scale)
    }

    deinit {
        surface.close()   // before the file goes: a document writes its end on finishing
        file?.discard()
    }

    /// Fills the whole canvas with a color.
    public func fill(_ color: Color) {
        cairo.saved {
            cairo.setColor(color)
            cairo.paint()
        }
    }

    /// Sets the source color for the next ``fillRect(x:y:width:height:)``.
    public func setColor(_ color: Color) {
        cairo.setColor(color)
    }

    /// Outlines a rectangle with a 1 px line inside its edges.
    public func strokeRect(x: Double, y: Double, width: Double, height: Double, color: Color) {
        cairo.saved {
            cairo.setColor(color)
            cairo.rectangle(x + 0.5, y + 0.5, max(0, width - 1), max(0, height - 1))
            cairo.stroke(width: 1)
        }
    }

    /// Writes the file: encodes the PNG or finishes the PDF or SVG document, flushes it to disk
    /// and renames it over `path`. On failure `path` is untouched and the error says why; a
    /// drawing that failed (cairo's context went into an error state, which drops all later
    /// drawing) is not written.
    public func finish() throws(DrawError) {
        surface.flush()
        guard let file else { return }   // an offscreen canvas
        guard !finished else { throw .cairo("'\(path)' was already written") }
        finished = true
        // A context in its error state ignored everything drawn since the error: the picture is
        // incomplete, and written it would be a silently wrong file.
        if let problem = cairo.failure {
            file.discard()
            throw .cairo("cannot write '\(path)': drawing failed (\(problem)); nothing was written")
        }
        let failure = format == .png ? surface.writePNG(to: file) : surface.finishDocument()
        if let code = file.failure {
            file.discard()
            throw .write(OutputError(target: path, doing: "write error", code: code))
        }
        if let failure {
            file.discard()
            throw .cairo("cannot write '\(path)': \(failure)")
        }
        do throws(OutputError) {
            try file.commit()
        } catch {
            throw .write(error)
        }
    }
}

extension Canvas {
    /// Fills a rectangle with the color last set by ``setColor(_:)``.
    public func fillRect(x: Double, y: Double, width: Double, height: Double) {
        cairo.rectangle(x, y, width, height)
        cairo.fill()
    }
}
