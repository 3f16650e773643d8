import Foundation
import RowKitIO
import RowKitCells
import RowKitText
import Synchronization

/// Named images for cells: PNG files from a folder, else the icons RowKit draws itself.
///
/// A name that is neither a PNG in the folder nor a built-in icon draws as a crossed-out gray
/// box (a documented fallback, never a crash) and is reported once through `warn`; so is a PNG
/// that cannot be used (unreadable, not a regular file (a FIFO, a device), not a PNG, a file over `InputLimits.imageBytes` (RowKitIO), or more
/// than ``maximumDecodedPixels`` pixels or ``maximumSide`` pixels a side — refused from its header,
/// before any decoding).
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
    /// The longest side of a PNG decoded, in pixels: 32,767 (cairo's limit for images).
    public static let maximumSide = 32_767
    /// The decoded images kept for reuse, in bytes: 64 MiB.
    public static let cacheBytes = 64 << 20
    /// Names warned about, at most.
    public static let maximumWarnings = 100

    private let folder: String?
    private let warn: @Sendable (String) -> Void
    /// Device and inode of the file the drawing goes to, when it exists.
    private let output: (device: UInt64, inode: UInt64)?
    private struct State {
        /// Decoded images by "name@widthxheight", with their last use.
        var cache: [String: (image: CairoImage, used: UInt64)] = [:]
        var cachedBytes = 0
        var clock: UInt64 = 0
        /// Names found unusable (not retried), and names warned about.
        var unusable: Set<String> = []
        var warned: Set<String> = []
        var warningsCapped = false
        /// The name of an image read from the output file, if one was.
        var readFromOutput: String?
    }
    private let state = Mutex(State())

    /// A store reading `NAME.png` from `folder` (when given) before the built-in icons;
    /// `warn` receives each warning (default: standard error).
    /// `output` is the file the drawing will be written to: an image read from that same file
    /// (through any link) is named by ``imageReadFromOutput``, so the caller can refuse to
    /// replace an input with the drawing.
    public init(folder: String? = nil, output: String? = nil, warn: @escaping @Sendable (String) -> Void = { message in
        Diagnostics.warning(message)
    }) {
        self.folder = folder
        self.warn = warn
        var info = stat()
        if let output, stat(output, &info) == 0 {
            self.output = (UInt64(info.st_dev), UInt64(info.st_ino))
        } else {
            self.output = nil
        }
    }

    /// The name of an image that was read from the output file given to ``init(folder:output:warn:)``
    /// (nil when none was): writing the drawing there would destroy it.
    public var imageReadFromOutput: String? { state.withLock { $0.readFromOutput } }

    /// Draws image `name` scaled into `rect` on `canvas`: the PNG from the folder, else the
    /// built-in icon, else a placeholder (warned about once). A box reaching more than 2^20 px
    /// past the visible area (a row millions of pixels tall) shows only a PNG's visible part;
    /// a built-in icon or placeholder that large is not drawn. A box with no area draws nothing. Safe to call from several threads
    /// at once on different canvases: the cache is locked.
    public func draw(_ name: String, in rect: Rect, canvas: Canvas) {
        // A box with no area shows nothing; scaling an image into it (by 0) made cairo's matrix
        // singular, and the context's error state silently blanked everything drawn after it.
        guard rect.width > 0, rect.height > 0, rect.width.isFinite, rect.height.isFinite else { return }
        let cr = canvas.cairo
        let far = cr.reachesFar(rect)
        let factor = canvas.format == .png ? canvas.scale : 2 // vector output keeps 2× detail
        // The decoded size is capped by the image itself (a far box asks for its full size).
        let target = (max(1, Int(min(rect.width * factor, 1e9).rounded(.up))), max(1, Int(min(rect.height * factor, 1e9).rounded(.up))))
        if let png = png(named: name, size: target) {
            if far {
                cr.paint(png, into: rect)
                return
            }
            cr.saved {
                cr.translate(rect.x, rect.y)
                cr.scale(rect.width / Double(png.width), rect.height / Double(png.height))
                cr.paint(png)
            }
        } else if far {
            return
        } else if Self.builtinNames.contains(name) {
            BuiltinIcons.draw(name, in: rect, cr: cr)
        } else {
            // "fruit.png" looks for fruit.png.png: the folder holds fruit.png, and the warning
            // said only that 'fruit.png' was not found in it.
            var hint = ""
            if name.lowercased().hasSuffix(".png"), name.count > 4 {
                hint = " (names have no extension: write '\(shortenedForMessage(String(name.dropLast(4))))')"
            }
            warnOnce(name, "image '\(shortenedForMessage(name))' not found\(folder.map { " in \($0)" } ?? "") and not built in\(hint); drawing a placeholder")
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
    private func png(named name: String, size: (Int, Int)) -> CairoImage? {
        guard let folder, !name.isEmpty, !name.contains("/"), !name.utf8.contains(0) else { return nil }
        let key = "\(name)@\(size.0)x\(size.1)"
        let cached: CairoImage?? = state.withLock { state in
            if state.unusable.contains(name) { return .some(nil) }
            guard let entry = state.cache[key] else { return nil }
            state.clock += 1
            state.cache[key] = (entry.image, state.clock)
            return .some(entry.image)
        }
        if let cached { return cached }
        let path = (folder as NSString).appendingPathComponent(name + ".png")
        switch load(path, fitting: size, name: name) {
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
            let shownPath = (folder as NSString).appendingPathComponent(shortenedForMessage(name) + ".png")
            warnOnce(name, "cannot use image '\(shownPath)': \(reason); drawing \(Self.builtinNames.contains(name) ? "the built-in icon" : "a placeholder")")
            return nil
        }
    }

    enum LoadFailure: Error { case missing, unusable(String) }

    /// Reads and checks a PNG, decodes it, and scales it down when it is larger than `size`.
    func load(_ path: String, fitting size: (Int, Int), name: String = "") -> Result<CairoImage, LoadFailure> {
        // Only regular files: opening a FIFO would wait for a writer forever, and a device
        // (a link to /dev/zero) is no image.
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT != S_IFREG && info.st_mode & S_IFMT != S_IFDIR {
                return .failure(.unusable("not a regular file"))
            }
            if let output, output == (UInt64(info.st_dev), UInt64(info.st_ino)) {
                state.withLock { if $0.readFromOutput == nil { $0.readFromOutput = name } }
            }
        }
        let bytes: [UInt8]
        do throws(InputError) {
            bytes = try InputFile(path, what: "image").readAll(limit: InputLimits.imageBytes, what: "the image file")
        } catch {
            if error.code == ENOENT { return .failure(.missing) }
            return .failure(.unusable(error.message))
        }
        guard let (width, height) = Self.pngSize(bytes) else { return .failure(.unusable("not a PNG file")) }
        guard width > 0, height > 0 else { return .failure(.unusable("\(width)×\(height) pixels: an image has no pixels")) }
        // Each side is up to 2^32 - 1 in the header: their product can pass Int (it trapped).
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= Self.maximumDecodedPixels else {
            return .failure(.unusable("\(width)×\(height) pixels is more than the \(Self.maximumDecodedPixels)-pixel limit for images"))
        }
        // cairo's images are at most 32,767 pixels a side: a longer one (1×16,777,216 is within
        // the pixel limit) failed to decode, said to be "not a valid PNG".
        guard width <= Self.maximumSide, height <= Self.maximumSide else {
            return .failure(.unusable("\(width)×\(height) pixels: an image is at most \(Self.maximumSide) pixels a side"))
        }
        guard let full = CairoImage.decodePNG(bytes) else {
            return .failure(.unusable("not a valid PNG (cairo could not decode it)"))
        }
        // Keep a copy at the drawn size when that is less than half the decoded one.
        guard full.width > 2 * size.0 || full.height > 2 * size.1 else { return .success(full) }
        let target = (min(full.width, size.0), min(full.height, size.1))
        guard let scaled = try? CairoSurface(scaling: full, toWidth: target.0, height: target.1) else { return .success(full) }
        return .success(scaled.image())
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
            BuiltinIcons.draw(name, in: Rect(x: 0, y: 0, width: Double(size), height: Double(size)), cr: canvas.cairo)
            try canvas.finish()
            paths.append(path)
        }
        return paths
    }
}

/// The icons RowKit draws itself (simple geometric art, no third-party marks).
enum BuiltinIcons {
    static func draw(_ name: String, in rect: Rect, cr: CairoContext) {
        guard rect.width > 0, rect.height > 0 else { return } // a scale by 0 would break the context
        cr.save()
        cr.translate(rect.x, rect.y)
        cr.scale(rect.width / 100, rect.height / 100)
        func rounded(_ color: (Double, Double, Double)) {
            cr.roundedRectangle(4, 4, 92, 92, radius: 18)
            cr.setColor(red: color.0, green: color.1, blue: color.2)
            cr.fill()
        }
        cr.setColor(red: 1, green: 1, blue: 1)
        switch name {
        case "niftywow": // a white star on orange
            rounded((0.96, 0.55, 0.15))
            cr.setColor(red: 1, green: 1, blue: 1)
            for i in 0..<10 {
                let angle = Double(i) * .pi / 5 - .pi / 2
                let r = i % 2 == 0 ? 38.0 : 16.0
                i == 0 ? cr.move(to: 50 + r * cos(angle), 52 + r * sin(angle)) : cr.line(to: 50 + r * cos(angle), 52 + r * sin(angle))
            }
            cr.closePath()
            cr.fill()
        case "amazingwhizbang": // a lightning bolt on purple
            rounded((0.45, 0.3, 0.8))
            cr.setColor(red: 1, green: 0.9, blue: 0.3)
            for (i, p) in [(58.0, 12.0), (28.0, 56.0), (48.0, 56.0), (40.0, 88.0), (72.0, 42.0), (52.0, 42.0)].enumerated() {
                i == 0 ? cr.move(to: p.0, p.1) : cr.line(to: p.0, p.1)
            }
            cr.closePath()
            cr.fill()
        case "woahsupercool": // a sun on teal
            rounded((0.1, 0.6, 0.6))
            cr.setColor(red: 1, green: 0.85, blue: 0.2)
            cr.arc(50, 50, radius: 20)
            cr.fill()
            for i in 0..<8 {
                let angle = Double(i) * .pi / 4
                cr.move(to: 50 + 28 * cos(angle), 50 + 28 * sin(angle))
                cr.line(to: 50 + 40 * cos(angle), 50 + 40 * sin(angle))
            }
            cr.stroke(width: 6)
        case "fruit": // a red fruit with a green leaf
            cr.setColor(red: 0.85, green: 0.15, blue: 0.15)
            cr.arc(50, 58, radius: 34)
            cr.fill()
            cr.setColor(red: 0.2, green: 0.65, blue: 0.2)
            cr.save()
            cr.translate(60, 18)
            cr.scale(1.6, 0.8)
            cr.arc(0, 0, radius: 10)
            cr.restore()
            cr.fill()
        case "cat": // a dark face with two ears
            cr.setColor(red: 0.2, green: 0.2, blue: 0.25)
            cr.arc(50, 58, radius: 32)
            cr.fill()
            cr.move(to: 22, 44); cr.line(to: 26, 10); cr.line(to: 48, 30); cr.closePath()
            cr.move(to: 78, 44); cr.line(to: 74, 10); cr.line(to: 52, 30); cr.closePath()
            cr.fill()
            cr.setColor(red: 1, green: 1, blue: 1)
            cr.arc(38, 54, radius: 5); cr.fill()
            cr.arc(62, 54, radius: 5); cr.fill()
        case "bird": // a blue bird
            cr.setColor(red: 0.2, green: 0.6, blue: 0.95)
            cr.arc(46, 56, radius: 28)
            cr.fill()
            cr.arc(70, 34, radius: 16)
            cr.fill()
            cr.move(to: 84, 30); cr.line(to: 98, 36); cr.line(to: 84, 40); cr.closePath()
            cr.setColor(red: 1, green: 0.7, blue: 0.1)
            cr.fill()
        default:
            break
        }
        cr.restore()
    }

    /// A light gray box with a cross: the stand-in for a missing image.
    static func placeholder(in rect: Rect, cr: CairoContext) {
        cr.save()
        cr.rectangle(rect.x + 0.5, rect.y + 0.5, max(0, rect.width - 1), max(0, rect.height - 1))
        cr.setColor(red: 0.9, green: 0.9, blue: 0.9)
        cr.fillPreserve()
        cr.setColor(red: 0.6, green: 0.6, blue: 0.6)
        cr.stroke(width: 1)
        cr.move(to: rect.x, rect.y); cr.line(to: rect.maxX, rect.maxY)
        cr.move(to: rect.maxX, rect.y); cr.line(to: rect.x, rect.maxY)
        cr.stroke(width: 1)
        cr.restore()
    }
}
