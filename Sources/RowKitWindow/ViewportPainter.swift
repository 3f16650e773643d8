import CCairo
import RowKitCells
import RowKitDraw
import RowKitList
import RowKitText
import RowKitView

/// Draws a ``ViewFrame`` with RowKit's own painters, exactly as `rowkit render` draws a list
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

    /// A painter of `engine`'s cells (any measurer that prepares rows into bound cells).
    public init<Measurer: RowMeasurer>(engine: ListEngine<Measurer>, images: ImageStore) where Measurer.Prepared == BoundCell {
        self.images = images
        self.arrange = { [unowned engine] index in try engine.preparedItem(at: index).arrange(width: engine.width) }
        self.listWidth = { [unowned engine] in engine.width }
    }

    /// Paints `frame` into `canvas` (whose size is the viewport's), with `readout` drawn in the
    /// top-right corner when given.
    public func paint(_ frame: ViewFrame, into canvas: Canvas, readout: String? = nil) throws {
        canvas.fill(.white)
        let width = listWidth()
        for (k, item) in frame.items.enumerated() {
            let arrangement = try arrange(item.index)
            let y = item.y - frame.offset
            CellPainter.draw(arrangement, in: canvas, x: 0, y: y, state: frame.states[k], images: images)
            if item.kind == .row {
                // A separator on the row's last pixel line, as table views draw one.
                canvas.setColor(Self.separator)
                canvas.fillRect(x: 0, y: y + item.height - 1, width: width, height: 1)
            }
        }
        if let sticky = frame.sticky {
            let arrangement = try arrange(sticky.index)
            CellPainter.draw(arrangement, in: canvas, x: 0, y: sticky.screenY, state: .normal, images: images)
        }
        if let readout { try drawReadout(readout, in: canvas, width: frame.width) }
    }

    private var readoutStyle = TextStyle(font: FontDescriptor(family: "DejaVu Sans Mono", weight: .bold), size: 12,
                                         lineHeight: .pixels(15), color: .white)

    /// The frame-rate readout: white text on a translucent dark box in the top-right corner.
    private func drawReadout(_ text: String, in canvas: Canvas, width: Double) throws {
        let layout = try PreparedText(text, style: readoutStyle).layout(width: .infinity)
        let boxWidth = (layout.maxLineWidth + 12).rounded(.up), boxHeight = layout.height + 8
        let x = max(0, width - boxWidth - 6), y = 6.0
        let cr = canvas.context
        cairo_save(cr)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.72)
        cairo_rectangle(cr, x, y, boxWidth, boxHeight)
        cairo_fill(cr)
        cairo_restore(cr)
        TextPainter.draw(layout, in: canvas, x: x + 6, y: y + 4)
    }
}
