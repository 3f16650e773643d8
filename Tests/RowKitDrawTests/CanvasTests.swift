import CCairo
import Foundation
import Testing
@testable import RowKitDraw
import RowKitText

/// Canvas (Canvas.swift): sizes, formats, output files.
@Suite struct CanvasTests {
    @Test(arguments: [
        (0.0, 10.0, 1.0), (10, 0, 1), (-1, 10, 1), (10, -5, 1), (.nan, 10, 1), (10, .nan, 1),
        (.infinity, 10, 1), (10, .infinity, 1), (0.5, 10, 1), (32768, 10, 1), (10, 40000, 1),
        (10, 10, 0), (10, 10, -1), (10, 10, .nan), (10, 10, .infinity), (10, 10, 9), (5000, 10, 8),
        (116, 32, 1e-9), (10, 10, 0.04),
    ])
    func badSizesAreRejected(_ width: Double, _ height: Double, _ scale: Double) {
        let error = #expect(throws: DrawError.self) {
            _ = try Canvas(width: width, height: height, scale: scale, path: "/tmp/rowkit-never-written.png")
        }
        switch error {
        case .invalidSize?: #expect(Canvas.scaleRange.contains(scale), "a bad scale is reported as a bad scale")
        case .invalidScale?: #expect(!Canvas.scaleRange.contains(scale))
        default: Issue.record("expected invalidSize or invalidScale, got \(String(describing: error))")
        }
        #expect(fileSize("/tmp/rowkit-never-written.png") == nil)
    }

    @Test(arguments: ["out.jpg", "out", "out.", "/tmp/dir.png/out", "out.png.gif", ".", ""])
    func unknownExtensionsAreRejected(_ path: String) {
        let error = #expect(throws: DrawError.self) { _ = try Canvas(width: 10, height: 10, path: path) }
        if let error, case .unknownFormat(let p) = error { #expect(p == path) } else {
            Issue.record("expected unknownFormat, got \(String(describing: error))")
        }
    }

    @Test func extensionsAreCaseInsensitive() {
        #expect(ImageFormat(path: "A.PNG") == .png)
        #expect(ImageFormat(path: "a.Pdf") == .pdf)
        #expect(ImageFormat(path: "x/y.svg") == .svg)
        #expect(ImageFormat(path: "x.svgz") == nil)
    }

    @Test func largestAllowedSizesWork() throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        _ = try Canvas(width: 1, height: 1, path: dir + "/tiny.png")
        _ = try Canvas(width: 4095, height: 1, scale: 8, path: dir + "/wide.png")
    }

    @Test(arguments: ImageFormat.allCases)
    func writesNonEmptyFiles(_ format: ImageFormat) throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let path = dir + "/text." + format.rawValue
        let layout = try PreparedText("Hello 漢字 👍 عربي", style: TextStyle(size: 16, lineHeight: .pixels(20))).layout(width: 200)
        let canvas = try Canvas(width: 220, height: 40, path: path)
        canvas.fill(.white)
        TextPainter.draw(layout, in: canvas, x: 10, y: 10)
        try canvas.finish()
        let size = fileSize(path) ?? 0
        #expect(size > 100)
        let head = fileHead(path, 64)
        switch format {
        case .png: #expect(head.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        case .pdf: #expect(head.starts(with: Array("%PDF".utf8)))
        case .svg: #expect(String(decoding: head, as: UTF8.self).contains("<?xml") || String(decoding: head, as: UTF8.self).contains("<svg"))
        }
    }

    @Test func pngHasTheScaledPixelSize() throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let path = dir + "/scaled.png"
        let canvas = try Canvas(width: 30, height: 20.5, scale: 2, path: path)
        canvas.fill(Color(red: 1, green: 0, blue: 0))
        try canvas.finish()
        let bitmap = try #require(Bitmap(png: path))
        #expect(bitmap.width == 60 && bitmap.height == 41)
        #expect(bitmap.argb.allSatisfy { $0 == 0xFFFF_0000 })
    }

    @Test(arguments: ImageFormat.allCases)
    func writingIntoAMissingDirectoryFailsAtOnce(_ format: ImageFormat) throws {
        let error = #expect(throws: DrawError.self) { _ = try Canvas(width: 10, height: 10, path: "/nonexistent-rowkit-dir/out." + format.rawValue) }
        if let error, case .write(let output) = error {
            #expect(output.description.contains("does not exist"), "\(output)")
        } else {
            Issue.record("expected a write error, got \(String(describing: error))")
        }
    }

    @Test func tooManyPixelsAreRefusedBeforeAllocating() {
        let error = #expect(throws: DrawError.self) { _ = try Canvas(width: 20000, height: 20000, path: "/tmp/rowkit-never-written.png") }
        if let error, case .tooManyPixels(let w, let h) = error { #expect(w == 20000 && h == 20000) } else {
            Issue.record("expected tooManyPixels, got \(String(describing: error))")
        }
        #expect(fileSize("/tmp/rowkit-never-written.png") == nil)
    }

    @Test(arguments: ImageFormat.allCases)
    func aFailedWriteKeepsThePreviousFileAndLeavesNoTemporaryFile(_ format: ImageFormat) throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        let path = dir + "/kept." + format.rawValue
        let good = try Canvas(width: 40, height: 20, path: path)
        good.fill(.white)
        try good.finish()
        let before = fileHead(path, 1 << 20)
        // A canvas dropped without finish() leaves the previous file alone and no temporary file.
        do {
            let abandoned = try Canvas(width: 50, height: 50, path: path)
            abandoned.fill(.black)
        }
        #expect(fileHead(path, 1 << 20) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["kept." + format.rawValue])
    }

    @Test func errorDescriptionsNameTheProblem() {
        #expect(DrawError.unknownFormat("a.jpg").description.contains("a.jpg"))
        #expect(DrawError.invalidSize(width: 0, height: 5).description.contains("0"))
    }
}
