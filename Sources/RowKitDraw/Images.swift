import CCairo
import Foundation
import RowKitIO
import RowKitCells
import RowKitText
import Synchronization

/// Named images for cells: PNG files from a folder, else the icons RowKit draws itself.
///
/// A name that is neither a PNG in the folder nor a built-in icon draws as a crossed-out gray
/// box (a documented fallback, never a crash) and is reported once through `warn`; so is a PNG
/// that cannot be used (unreadable, not a PNG, a file over ``InputLimits/imageBytes``, or more
/// than ``maximumDecodedPixels`` pixels — refused from its header, before any decoding).
///
/// Images are decoded at the size they are drawn: a large PNG is decoded once, scaled down to
/// the drawn size (in device pixels) and only that copy is kept. Bounds: decoded copies are
/// kept up to ``cacheBytes`` in all (least recently used dropped first); warnings are given for
/// at most ``maximumWarnings`` names, then one last warning says the rest are not shown.
public final class ImageStore: Sendable {
    /// The built-in icon names (the seed 003 project icons and logos).
    public static let builtinNames = ["niftywow", "amazingwhizbang", "woahsupercool", "fruit", "cat", "bird"]
    /// The largest PNG decoded, in pixels (width × height): 4096 × 4096 (64 MB decoded).
    public static let maximumDecodedPixels = 4096 * 4096
    /// The decoded images kept for reuse, in bytes: 64 MiB.
    public static let cacheBytes = 64 << 20
    /// Names warned about, at most.
    public static let maximumWarnings = 100

    private let folder: String?
    private let warn: @Sendable (String) -> Void
    private struct State {
        /// Decoded images by "name@widthxheight", with their last use.
        var cache: [String: (image: PNGImage, used: UInt64)] = [:]
        var cachedBytes = 0
        var clock: UInt64 = 0
        /// Names found unusable (not retried), and names warned about.
        var unusable: Set<String> = []
        var warned: Set<String> = []
        var warningsCapped = false
    }
    private let state = Mutex(State())

    /// A store reading `NAME.png` from `folder` (when given) before the built-in icons;
    /// `warn` receives each warning (default: standard error).
    public init(folder: String? = nil, warn: @escaping @Sendable (String) -> Void = { message in
        Diagnostics.warning(message)
    }) {
        self.folder = folder
        self.warn = warn
    }

    /// Draws image `name` scaled into `rect`.
    public func draw(_ name: String, in rect: Rect, canvas: Canvas) {
        let cr = canvas.context
        let factor = canvas.format == .png ? canvas.scale : 2 // vector output keeps 2× detail
        let target = (max(1, Int((rect.width * factor).rounded(.up))), max(1, Int((rect.height * factor).rounded(.up))))
        if let png = png(named: name, size: target) {
            cairo_save(cr)
            cairo_translate(cr, rect.x, rect.y)
            cairo_scale(cr, rect.width / Double(png.width), rect.height / Double(png.height))
            cairo_set_source_surface(cr, png.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
            cairo_restore(cr)
        } else if Self.builtinNames.contains(name) {
            BuiltinIcons.draw(name, in: rect, cr: cr)
        } else {
            warnOnce(name, "image '\(name)' not found\(folder.map { " in \($0)" } ?? "") and not built in; drawing a placeholder")
            BuiltinIcons.placeholder(in: rect, cr: cr)
        }
    }

    private func warnOnce(_ name: String, _ message: String) {
        enum Outcome { case warn, cap, none }
        let outcome: Outcome = state.withLock { state in
            guard !state.warned.contains(name) else { return .none }
            if state.warned.count >= Self.maximumWarnings {
                if state.warningsCapped { return .none }
                state.warningsCapped = true
                return .cap
            }
            state.warned.insert(name)
            return .warn
        }
        switch outcome {
        case .warn: warn(message)
        case .cap: warn("more than \(Self.maximumWarnings) images could not be drawn; further warnings are not shown")
        case .none: break
        }
    }

    /// The image `name` decoded at (about) `size` device pixels, from the cache or the folder.
    private func png(named name: String, size: (Int, Int)) -> PNGImage? {
        guard let folder, !name.isEmpty, !name.contains("/"), !name.utf8.contains(0) else { return nil }
        let key = "\(name)@\(size.0)x\(size.1)"
        let cached: PNGImage?? = state.withLock { state in
            if state.unusable.contains(name) { return .some(nil) }
            guard let entry = state.cache[key] else { return nil }
            state.clock += 1
            state.cache[key] = (entry.image, state.clock)
            return .some(entry.image)
        }
        if let cached { return cached }
        let path = (folder as NSString).appendingPathComponent(name + ".png")
        switch load(path, fitting: size) {
        case .success(let image):
            state.withLock { state in
                guard image.byteCount <= Self.cacheBytes else { return }
                while state.cachedBytes + image.byteCount > Self.cacheBytes,
                      let oldest = state.cache.min(by: { $0.value.used < $1.value.used }) {
                    state.cachedBytes -= oldest.value.image.byteCount
                    state.cache[oldest.key] = nil
                }
                state.clock += 1
                state.cache[key] = (image, state.clock)
                state.cachedBytes += image.byteCount
            }
            return image
        case .failure(.missing):
            return nil
        case .failure(.unusable(let reason)):
            state.withLock { state in
                if state.unusable.count < 10_000 { state.unusable.insert(name) }
            }
            warnOnce(name, "cannot use image '\(path)': \(reason); drawing \(Self.builtinNames.contains(name) ? "the built-in icon" : "a placeholder")")
            return nil
        }
    }

    enum LoadFailure: Error { case missing, unusable(String) }

    /// Reads and checks a PNG, decodes it, and scales it down when it is larger than `size`.
    func load(_ path: String, fitting size: (Int, Int)) -> Result<PNGImage, LoadFailure> {
        let bytes: [UInt8]
        do throws(InputError) {
            bytes = try InputFile(path, what: "image").readAll(limit: InputLimits.imageBytes, what: "the image file")
        } catch {
            if error.code == ENOENT { return .failure(.missing) }
            return .failure(.unusable(error.message))
        }
        guard let (width, height) = Self.pngSize(bytes) else { return .failure(.unusable("not a PNG file")) }
        guard width > 0, height > 0, width * height <= Self.maximumDecodedPixels else {
            return .failure(.unusable("\(width)×\(height) pixels is more than the \(Self.maximumDecodedPixels)-pixel limit for images"))
        }
        let decoded: OpaquePointer? = bytes.withUnsafeBytes { raw in
            var reader = MemoryReader(bytes: raw)
            return withUnsafeMutablePointer(to: &reader) { pointer in
                cairo_image_surface_create_from_png_stream(readFromMemory, pointer)
            }
        }
        guard let decoded, cairo_surface_status(decoded) == CAIRO_STATUS_SUCCESS else {
            if let decoded { cairo_surface_destroy(decoded) }
            return .failure(.unusable("not a valid PNG (cairo could not decode it)"))
        }
        let full = PNGImage(surface: decoded)
        // Keep a copy at the drawn size when that is less than half the decoded one.
        guard Int(full.width) > 2 * size.0 || Int(full.height) > 2 * size.1 else { return .success(full) }
        let target = (min(Int(full.width), size.0), min(Int(full.height), size.1))
        guard let scaled = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(target.0), Int32(target.1)),
              cairo_surface_status(scaled) == CAIRO_STATUS_SUCCESS else { return .success(full) }
        let cr = cairo_create(scaled)
        cairo_scale(cr, Double(target.0) / Double(full.width), Double(target.1) / Double(full.height))
        cairo_set_source_surface(cr, full.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(scaled)
        return .success(PNGImage(surface: scaled))
    }

    /// Width and height from a PNG's signature and IHDR chunk (nil when it is not a PNG).
    static func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, bytes.starts(with: signature), bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        func u32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (u32(16), u32(20))
    }

    /// Writes every built-in icon as a `size`×`size` PNG into `folder`; returns the paths.
    public static func writeBuiltinIcons(to folder: String, size: Int = 80) throws(DrawError) -> [String] {
        var paths: [String] = []
        for name in builtinNames {
            let path = (folder as NSString).appendingPathComponent(name + ".png")
            let canvas = try Canvas(width: Double(size), height: Double(size), path: path)
            BuiltinIcons.draw(name, in: Rect(x: 0, y: 0, width: Double(size), height: Double(size)), cr: canvas.context)
            try canvas.finish()
            paths.append(path)
        }
        return paths
    }
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

/// A decoded PNG held as a cairo surface while anything uses it.
final class PNGImage: @unchecked Sendable {
    let surface: OpaquePointer
    let width: Int32, height: Int32
    /// Pixel memory held.
    var byteCount: Int { Int(width) * Int(height) * 4 }
    init(surface: OpaquePointer) {
        self.surface = surface
        self.width = max(1, cairo_image_surface_get_width(surface))
        self.height = max(1, cairo_image_surface_get_height(surface))
    }
    deinit { cairo_surface_destroy(surface) }
}

/// The icons RowKit draws itself (simple geometric art, no third-party marks).
enum BuiltinIcons {
    static func draw(_ name: String, in rect: Rect, cr: OpaquePointer) {
        cairo_save(cr)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / 100, rect.height / 100)
        func rounded(_ color: (Double, Double, Double)) {
            roundedRect(cr, 4, 4, 92, 92, 18)
            cairo_set_source_rgb(cr, color.0, color.1, color.2)
            cairo_fill(cr)
        }
        cairo_set_source_rgb(cr, 1, 1, 1)
        switch name {
        case "niftywow": // a white star on orange
            rounded((0.96, 0.55, 0.15))
            cairo_set_source_rgb(cr, 1, 1, 1)
            for i in 0..<10 {
                let angle = Double(i) * .pi / 5 - .pi / 2
                let r = i % 2 == 0 ? 38.0 : 16.0
                i == 0 ? cairo_move_to(cr, 50 + r * cos(angle), 52 + r * sin(angle)) : cairo_line_to(cr, 50 + r * cos(angle), 52 + r * sin(angle))
            }
            cairo_close_path(cr)
            cairo_fill(cr)
        case "amazingwhizbang": // a lightning bolt on purple
            rounded((0.45, 0.3, 0.8))
            cairo_set_source_rgb(cr, 1, 0.9, 0.3)
            for (i, p) in [(58.0, 12.0), (28.0, 56.0), (48.0, 56.0), (40.0, 88.0), (72.0, 42.0), (52.0, 42.0)].enumerated() {
                i == 0 ? cairo_move_to(cr, p.0, p.1) : cairo_line_to(cr, p.0, p.1)
            }
            cairo_close_path(cr)
            cairo_fill(cr)
        case "woahsupercool": // a sun on teal
            rounded((0.1, 0.6, 0.6))
            cairo_set_source_rgb(cr, 1, 0.85, 0.2)
            cairo_arc(cr, 50, 50, 20, 0, 2 * .pi)
            cairo_fill(cr)
            cairo_set_line_width(cr, 6)
            for i in 0..<8 {
                let angle = Double(i) * .pi / 4
                cairo_move_to(cr, 50 + 28 * cos(angle), 50 + 28 * sin(angle))
                cairo_line_to(cr, 50 + 40 * cos(angle), 50 + 40 * sin(angle))
            }
            cairo_stroke(cr)
        case "fruit": // a red fruit with a green leaf
            cairo_set_source_rgb(cr, 0.85, 0.15, 0.15)
            cairo_arc(cr, 50, 58, 34, 0, 2 * .pi)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 0.2, 0.65, 0.2)
            cairo_save(cr)
            cairo_translate(cr, 60, 18)
            cairo_scale(cr, 1.6, 0.8)
            cairo_arc(cr, 0, 0, 10, 0, 2 * .pi)
            cairo_restore(cr)
            cairo_fill(cr)
        case "cat": // a dark face with two ears
            cairo_set_source_rgb(cr, 0.2, 0.2, 0.25)
            cairo_arc(cr, 50, 58, 32, 0, 2 * .pi)
            cairo_fill(cr)
            cairo_move_to(cr, 22, 44); cairo_line_to(cr, 26, 10); cairo_line_to(cr, 48, 30); cairo_close_path(cr)
            cairo_move_to(cr, 78, 44); cairo_line_to(cr, 74, 10); cairo_line_to(cr, 52, 30); cairo_close_path(cr)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_arc(cr, 38, 54, 5, 0, 2 * .pi); cairo_fill(cr)
            cairo_arc(cr, 62, 54, 5, 0, 2 * .pi); cairo_fill(cr)
        case "bird": // a blue bird
            cairo_set_source_rgb(cr, 0.2, 0.6, 0.95)
            cairo_arc(cr, 46, 56, 28, 0, 2 * .pi)
            cairo_fill(cr)
            cairo_arc(cr, 70, 34, 16, 0, 2 * .pi)
            cairo_fill(cr)
            cairo_move_to(cr, 84, 30); cairo_line_to(cr, 98, 36); cairo_line_to(cr, 84, 40); cairo_close_path(cr)
            cairo_set_source_rgb(cr, 1, 0.7, 0.1)
            cairo_fill(cr)
        default:
            break
        }
        cairo_restore(cr)
    }

    /// A light gray box with a cross: the stand-in for a missing image.
    static func placeholder(in rect: Rect, cr: OpaquePointer) {
        cairo_save(cr)
        cairo_rectangle(cr, rect.x + 0.5, rect.y + 0.5, max(0, rect.width - 1), max(0, rect.height - 1))
        cairo_set_source_rgb(cr, 0.9, 0.9, 0.9)
        cairo_fill_preserve(cr)
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
        cairo_move_to(cr, rect.x, rect.y); cairo_line_to(cr, rect.maxX, rect.maxY)
        cairo_move_to(cr, rect.maxX, rect.y); cairo_line_to(cr, rect.x, rect.maxY)
        cairo_stroke(cr)
        cairo_restore(cr)
    }
}

/// Adds a rounded rectangle path.
func roundedRect(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ radius: Double) {
    let r = min(radius, w / 2, h / 2)
    guard r > 0 else { cairo_rectangle(cr, x, y, w, h); return }
    cairo_new_sub_path(cr)
    cairo_arc(cr, x + w - r, y + r, r, -.pi / 2, 0)
    cairo_arc(cr, x + w - r, y + h - r, r, 0, .pi / 2)
    cairo_arc(cr, x + r, y + h - r, r, .pi / 2, .pi)
    cairo_arc(cr, x + r, y + r, r, .pi, 3 * .pi / 2)
    cairo_close_path(cr)
}
