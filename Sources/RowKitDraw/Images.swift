import CCairo
import Foundation
import RowKitCells
import RowKitText
import Synchronization

/// Named images for cells: PNG files from a folder, else the icons RowKit draws itself.
///
/// A name that is neither a PNG in the folder nor a built-in icon draws as a crossed-out gray
/// box (a documented fallback, never a crash) and is reported once through `warn`.
public final class ImageStore: Sendable {
    /// The built-in icon names (the seed 003 project icons and logos).
    public static let builtinNames = ["niftywow", "amazingwhizbang", "woahsupercool", "fruit", "cat", "bird"]

    private let folder: String?
    private let warn: @Sendable (String) -> Void
    private let state = Mutex<(loaded: [String: PNGImage], warned: Set<String>)>(([:], []))

    /// A store reading `NAME.png` from `folder` (when given) before the built-in icons.
    public init(folder: String? = nil, warn: @escaping @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("rowkit: warning: \(message)\n".utf8))
    }) {
        self.folder = folder
        self.warn = warn
    }

    /// Draws image `name` scaled into `rect`.
    public func draw(_ name: String, in rect: Rect, canvas: Canvas) {
        let cr = canvas.context
        if let png = png(named: name) {
            cairo_save(cr)
            cairo_translate(cr, rect.x, rect.y)
            cairo_scale(cr, rect.width / Double(png.width), rect.height / Double(png.height))
            cairo_set_source_surface(cr, png.surface, 0, 0)
            cairo_paint(cr)
            cairo_restore(cr)
        } else if Self.builtinNames.contains(name) {
            BuiltinIcons.draw(name, in: rect, cr: cr)
        } else {
            let first = state.withLock { $0.warned.insert(name).inserted }
            if first { warn("image '\(name)' not found\(folder.map { " in \($0)" } ?? "") and not built in; drawing a placeholder") }
            BuiltinIcons.placeholder(in: rect, cr: cr)
        }
    }

    private func png(named name: String) -> PNGImage? {
        guard let folder, !name.contains("/") else { return nil }
        if let image = state.withLock({ $0.loaded[name] }) { return image }
        let path = (folder as NSString).appendingPathComponent(name + ".png")
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let surface = cairo_image_surface_create_from_png(path)!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            let first = state.withLock { $0.warned.insert(name).inserted }
            if first { warn("cannot read image '\(path)': not a PNG") }
            return nil
        }
        let image = PNGImage(surface: surface)
        state.withLock { $0.loaded[name] = image }
        return image
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

/// A decoded PNG held as a cairo surface for the life of the store.
final class PNGImage: @unchecked Sendable {
    let surface: OpaquePointer
    let width: Int32, height: Int32
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
