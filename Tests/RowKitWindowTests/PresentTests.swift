import CCairo
import Testing
import RowKitCells
import RowKitDraw
import RowKitList
import RowKitView
@testable import RowKitWindow

/// Frames reach the window's cairo context at the display's scale (GDK_SCALE=2), frame after frame.
@Suite struct PresentTests {
    /// A target like GTK's on a 2× display: device pixels, user space in logical pixels.
    func gtkLikeTarget(width: Int, height: Int, scale: Double) -> (surface: OpaquePointer, cr: OpaquePointer) {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(Double(width) * scale), Int32(Double(height) * scale))!
        cairo_surface_set_device_scale(surface, scale, scale)
        return (surface, cairo_create(surface)!)
    }

    func pixels(_ surface: OpaquePointer) -> [UInt8] {
        cairo_surface_flush(surface)
        let count = Int(cairo_image_surface_get_stride(surface)) * Int(cairo_image_surface_get_height(surface))
        return Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(surface), count: count))
    }

    /// Frames drawn into one canvas and presented one after the other show what a fresh canvas
    /// shows: before, presenting set the display's scale on the canvas, and every later frame
    /// was drawn at scale² (the list zoomed 4× on a 2× display, rows repeated by the reuse of pixels).
    @Test(arguments: [1.0, 2.0])
    func everyFrameIsPresentedAtTheDisplaysScale(scale: Double) throws {
        let (model, engine) = try ViewportPainterTests().makeList(sections: 2)
        let painter = ViewportPainter(engine: engine, images: ImageStore())
        let canvas = try Canvas(offscreenWidth: 320, height: 480, scale: scale)
        let target = gtkLikeTarget(width: 320, height: 480, scale: scale)
        defer { cairo_destroy(target.cr); cairo_surface_destroy(target.surface) }
        for step in 0..<4 {
            if step > 0 { try model.scroll(by: 57) }
            let frame = try model.makeFrame()
            try painter.paint(frame, into: canvas)
            ViewportPainter.present(canvas, to: target.cr)

            let fresh = try Canvas(offscreenWidth: 320, height: 480, scale: scale)
            let whole = ViewportPainter(engine: engine, images: ImageStore())
            whole.reusesPixels = false
            try whole.paint(frame, into: fresh)
            let expected = gtkLikeTarget(width: 320, height: 480, scale: scale)
            defer { cairo_destroy(expected.cr); cairo_surface_destroy(expected.surface) }
            ViewportPainter.present(fresh, to: expected.cr)
            // Booleans, not the arrays: a failure would print megabytes of pixels.
            let sameAsFresh = pixels(target.surface) == pixels(expected.surface)
            let onePixelEach = pixels(target.surface) == pixels(cairo_get_target(fresh.context)!)
            #expect(sameAsFresh, "frame \(step) at scale \(scale)")
            #expect(onePixelEach, "frame \(step): one canvas pixel per device pixel")
        }
    }
}
