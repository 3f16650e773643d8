import CCairo
import Testing
import RowKitDraw
import RowKitText
#if canImport(Glibc)
import Glibc
#endif

/// A fresh temporary directory for one test's output files.
func temporaryDirectory() -> String {
    var template = Array("/tmp/rowkit-draw-tests-XXXXXX".utf8CString)
    let ok = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
    precondition(ok, "mkdtemp failed")
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func removeDirectory(_ path: String) {
    if let dir = opendir(path) {
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
    }
    rmdir(path)
}

/// Size of a file in bytes, or nil when it does not exist.
func fileSize(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
}

/// The first bytes of a file.
func fileHead(_ path: String, _ count: Int) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var bytes = [UInt8](repeating: 0, count: count)
    let n = fread(&bytes, 1, count, f)
    return Array(bytes.prefix(n))
}

/// A PNG read back with cairo: ARGB32 pixels (premultiplied), row by row.
struct Bitmap {
    let width: Int, height: Int
    /// Alpha of each pixel, row-major.
    let alpha: [UInt8]
    /// The ARGB value of each pixel, row-major.
    let argb: [UInt32]

    init?(png path: String) {
        guard let surface = cairo_image_surface_create_from_png(path) else { return nil }
        defer { cairo_surface_destroy(surface) }
        // cairo loads a PNG without transparency as RGB24 (alpha byte undefined → opaque).
        let format = cairo_image_surface_get_format(surface)
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24,
              let data = cairo_image_surface_get_data(surface) else { return nil }
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        var argb = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride)
            for x in 0..<width {
                let pixel = row.load(fromByteOffset: x * 4, as: UInt32.self)
                argb[y * width + x] = format == CAIRO_FORMAT_RGB24 ? pixel | 0xFF00_0000 : pixel
            }
        }
        self.argb = argb
        self.alpha = argb.map { UInt8($0 >> 24) }
    }

    /// Bounding box of the pixels whose alpha exceeds `threshold`: (minX, minY, maxX + 1, maxY + 1).
    func inkBox(threshold: UInt8 = 0) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in 0..<height {
            for x in 0..<width where alpha[y * width + x] > threshold {
                minX = min(minX, x); maxX = max(maxX, x + 1)
                minY = min(minY, y); maxY = max(maxY, y + 1)
            }
        }
        return minX == Int.max ? nil : (minX, minY, maxX, maxY)
    }
}
