import CCairo
import Foundation
import RowKitCells
import RowKitDraw
import RowKitList
import RowKitListCells
import RowKitText
import RowKitView

/// Draws a `ViewFrame` with RowKit's own painters, exactly as `rowkit render` draws a list
/// viewport: white background, each visible item's arranged cell (from the very prepared form
/// its height was measured from) at its y relative to the viewport, a 1 px separator on each
/// row's last pixel line — so a window and the command draw identical pixels. Then the pinned
/// section header and, when shown, the frame-rate readout.
public final class ViewportPainter {
    /// Named images for cells.
    public let images: ImageStore
    private static let separator = Color(hex: "#c8c7cc")!
    /// Item `index` arranged at the list's width, from the prepared form it was measured from.
    private let arrange: (Int) throws -> CellArrangement
    private let listWidth: () -> Double

    /// A painter of `engine`'s cells (any measurer whose drawing form is a bound cell).
    public init<Measurer: RowMeasurer>(engine: ListEngine<Measurer>, images: ImageStore) where Measurer.Drawing == BoundCell {
        self.images = images
        self.arrange = { [unowned engine] index in try engine.drawingForm(atItem: index).arrange(width: engine.width) }
        self.listWidth = { [unowned engine] in engine.width }
    }

    /// Reuse the previous frame's pixels when the list only moved by whole pixels (see
    /// ``paint(_:into:readout:)``). On by default; off, every frame is drawn whole.
    public var reusesPixels = true

    /// What the canvas holds from the last frame painted into it.
    private struct Painted {
        var canvas: ObjectIdentifier
        var offset: Double, width: Double, height: Double, listWidth: Double
        /// Each drawn item by row id: list y, height and state.
        var items: [String: (y: Double, height: Double, state: ListItemState)]
        /// Bottom of the pinned header and of the readout box (0 when absent), on screen.
        var overlayBottom: Double
    }
    private var painted: Painted?

    /// Paints `frame` into `canvas` (whose size is the viewport's), with `readout` drawn in the
    /// top-right corner when given.
    ///
    /// When the canvas still holds the previous frame, the list moved by a whole number of
    /// device pixels and nothing else changed in the part that stays on screen, that part is
    /// moved (memmove) and only the newly exposed band and the overlays are drawn, clipped to
    /// their bands, with the very calls a whole frame makes. cairo rasterizes a scene moved by
    /// whole pixels into the same pixels moved (edges, gradients and glyph positions are all
    /// relative to the grid, and list positions are multiples of 1/64 px), so both ways give
    /// identical images — the view tests compare them byte for byte.
    public func paint(_ frame: ViewFrame, into canvas: Canvas, readout: String? = nil) throws {
        let width = listWidth()
        // A row that cannot be arranged (its data fails as it failed to measure: the frame's
        // snapshot said so) is left blank rather than stopping the window.
        let arrangements = frame.items.map { try? arrange($0.index) }
        let sticky = frame.sticky.flatMap { header in (try? arrange(header.index)).map { (header, $0) } }
        let readoutLayout = try readout.map { try PreparedText($0, style: readoutStyle).layout(width: .infinity) }
        var overlayBottom = sticky.map { max(0, $0.0.screenY + $0.0.height) } ?? 0
        if let readoutLayout { overlayBottom = max(overlayBottom, readoutBox(readoutLayout, width: frame.width).maxY.rounded(.up)) }

        func draw(band: (top: Double, bottom: Double)?) {
            let cr = canvas.context
            cairo_save(cr)
            if let band {
                cairo_rectangle(cr, 0, band.top, frame.width, band.bottom - band.top)
                cairo_clip(cr)
            }
            canvas.fill(.white)
            // Every item, in order, even outside the band (the clip discards it): a shadow or an
            // overflow reaching into the band is drawn exactly as in a whole frame.
            for (k, item) in frame.items.enumerated() {
                let y = item.y - frame.offset
                if let arrangement = arrangements[k] {
                    CellPainter.draw(arrangement, in: canvas, x: 0, y: y, state: CellState(item.state), images: images)
                }
                if item.kind == .row {
                    // A separator on the row's last pixel line, as table views draw one.
                    canvas.setColor(Self.separator)
                    canvas.fillRect(x: 0, y: y + item.height - 1, width: width, height: 1)
                }
            }
            if let (header, arrangement) = sticky {
                CellPainter.draw(arrangement, in: canvas, x: 0, y: header.screenY, state: .normal, images: images)
            }
            if let readoutLayout { drawReadout(readoutLayout, in: canvas, width: frame.width) }
            cairo_restore(cr)
        }

        let now = Painted(canvas: ObjectIdentifier(canvas), offset: frame.offset, width: frame.width, height: frame.height,
                          listWidth: width, items: Dictionary(frame.items.map { ($0.id, ($0.y, $0.height, $0.state)) },
                                                              uniquingKeysWith: { a, _ in a }),
                          overlayBottom: overlayBottom)
        defer { painted = now }
        if reusesPixels, let last = painted, let dy = reusableShift(from: last, to: now, frame: frame, canvas: canvas) {
            shift(canvas, by: dy)
            let top = min(frame.height, max(overlayBottom, last.overlayBottom - dy))
            if top > 0 { draw(band: (0, top)) }
            let exposed = dy > 0 ? (max(top, frame.height - dy), frame.height) : (max(top, 0), min(frame.height, -dy))
            if exposed.1 > exposed.0 { draw(band: exposed) }
        } else {
            draw(band: nil)
        }
    }

    /// The whole-pixel distance the list moved since `last`, if the pixels that stay on screen
    /// can be reused; nil when the frame must be drawn whole.
    private func reusableShift(from last: Painted, to now: Painted, frame: ViewFrame, canvas: Canvas) -> Double? {
        guard last.canvas == now.canvas, last.width == now.width, last.height == now.height, last.listWidth == now.listWidth else { return nil }
        let dy = now.offset - last.offset
        guard dy != 0, abs(dy) < now.height, (dy * canvas.scale).rounded() == dy * canvas.scale else { return nil }
        // Everything drawn in the band that stays must be unchanged: same rows, same places, same states.
        let keep = dy > 0 ? (0.0, now.height - dy) : (-dy, now.height)
        for item in frame.items {
            let y = item.y - frame.offset
            guard y < keep.1 && y + item.height > keep.0 else { continue }
            guard let old = last.items[item.id], old.y == item.y, old.height == item.height,
                  old.state == now.items[item.id]?.state else { return nil }
        }
        return dy
    }

    /// Moves the canvas's pixels up by `dy` (down when negative).
    private func shift(_ canvas: Canvas, by dy: Double) {
        let surface = cairo_get_target(canvas.context)
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface)), rows = Int(cairo_image_surface_get_height(surface))
        let moved = Int((abs(dy) * canvas.scale).rounded())
        let count = (rows - moved) * stride
        if dy > 0 { memmove(data, data + moved * stride, count) } else { memmove(data + moved * stride, data, count) }
        cairo_surface_mark_dirty(surface)
    }

    /// Copies `canvas` onto `cr`, a GTK drawing area's cairo context whose user space is in
    /// logical pixels (GTK sets its target's device scale): each of the canvas's device pixels
    /// lands on one device pixel. The canvas itself is left alone: a device scale set on its
    /// surface (as this once did) multiplies its own scale, so every later frame drawn into it
    /// came out at scale² — a 2× display showed the list zoomed 4× with rows repeated.
    public static func present(_ canvas: Canvas, to cr: OpaquePointer) {
        let image = cairo_get_target(canvas.context)
        cairo_surface_flush(image)
        cairo_save(cr)
        cairo_scale(cr, 1 / canvas.scale, 1 / canvas.scale)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    private var readoutStyle = TextStyle(font: FontDescriptor(family: "DejaVu Sans Mono", weight: .bold), size: 12,
                                         lineHeight: .pixels(15), color: .white)

    /// Where the readout's box goes: the top-right corner, 6 px in.
    private func readoutBox(_ layout: TextLayout, width: Double) -> Rect {
        let boxWidth = (layout.maxLineWidth + 12).rounded(.up), boxHeight = layout.height + 8
        return Rect(x: max(0, width - boxWidth - 6), y: 6, width: boxWidth, height: boxHeight)
    }

    /// The frame-rate readout: white text on a translucent dark box in the top-right corner.
    private func drawReadout(_ layout: TextLayout, in canvas: Canvas, width: Double) {
        let box = readoutBox(layout, width: width)
        let cr = canvas.context
        cairo_save(cr)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.72)
        cairo_rectangle(cr, box.x, box.y, box.width, box.height)
        cairo_fill(cr)
        cairo_restore(cr)
        TextPainter.draw(layout, in: canvas, x: box.x + 6, y: box.y + 4)
    }
}
