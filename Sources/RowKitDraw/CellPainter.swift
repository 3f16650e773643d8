import CCairo
import RowKitCells
import RowKitText

/// Draws arranged cells with cairo: backgrounds, images and the very text layouts that were
/// measured. The cell state (normal, highlighted, selected) changes colors and shadows only.
public enum CellPainter {
    /// Draws `arrangement` with its top-left corner at (`x`, `y`).
    public static func draw(_ arrangement: CellArrangement, in canvas: Canvas, x: Double, y: Double,
                            state: CellState = .normal, images: ImageStore, debugFrames: Bool = false) {
        let cr = canvas.context
        let active = state != .normal
        for element in arrangement.elements {
            let frame = Rect(x: x + element.frame.x, y: y + element.frame.y, width: element.frame.width, height: element.frame.height)
            cairo_save(cr)
            if let clip = element.clip {
                cairo_rectangle(cr, x + clip.x, y + clip.y, clip.width, clip.height)
                cairo_clip(cr)
            }
            switch element.kind {
            case .background(let background, let imageName, let highlightedImageName):
                let fill = active ? (background.highlightedFill ?? background.fill) : background.fill
                let image = active && background.highlightedFill != nil ? highlightedImageName : imageName
                drawBackground(background, fill: fill, imageName: image, frame: frame, canvas: canvas, images: images)
            case .text(let layout, let appearance):
                TextPainter.draw(layout, in: canvas, x: frame.x, y: frame.y,
                                 color: active ? appearance.highlightedColor : nil,
                                 shadow: active ? nil : appearance.shadow.map { TextShadow(dx: $0.dx, dy: $0.dy, color: $0.color) },
                                 debugFrames: debugFrames)
            case .box(let content):
                switch content {
                case .empty: break
                case .color(let color):
                    canvas.setColor(color)
                    cairo_rectangle(cr, frame.x, frame.y, frame.width, frame.height)
                    cairo_fill(cr)
                case .image(let name):
                    images.draw(name, in: frame, canvas: canvas)
                }
                if debugFrames { canvas.strokeRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height, color: Color(red: 0, green: 0.6, blue: 0, alpha: 0.8)) }
            case .container:
                if debugFrames { canvas.strokeRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height, color: Color(red: 0.2, green: 0.4, blue: 1, alpha: 0.5)) }
            }
            cairo_restore(cr)
        }
    }

    static func drawBackground(_ background: Background, fill: Background.Fill, imageName: String?, frame: Rect,
                               canvas: Canvas, images: ImageStore) {
        let cr = canvas.context
        cairo_save(cr)
        roundedRect(cr, frame.x, frame.y, frame.width, frame.height, background.cornerRadius)
        switch fill {
        case .none:
            cairo_new_path(cr)
        case .color(let color):
            canvas.setColor(color)
            cairo_fill(cr)
        case .verticalGradient(let top, let bottom):
            let gradient = cairo_pattern_create_linear(0, frame.y, 0, frame.maxY)!
            cairo_pattern_add_color_stop_rgba(gradient, 0, top.red, top.green, top.blue, top.alpha)
            cairo_pattern_add_color_stop_rgba(gradient, 1, bottom.red, bottom.green, bottom.blue, bottom.alpha)
            cairo_set_source(cr, gradient)
            cairo_fill(cr)
            cairo_pattern_destroy(gradient)
        case .image:
            cairo_clip(cr)
            if let imageName { images.draw(imageName, in: frame, canvas: canvas) }
        }
        cairo_restore(cr)
        if let border = background.borderColor, background.borderWidth > 0 {
            cairo_save(cr)
            let inset = background.borderWidth / 2
            roundedRect(cr, frame.x + inset, frame.y + inset, frame.width - 2 * inset, frame.height - 2 * inset, background.cornerRadius)
            canvas.setColor(border)
            cairo_set_line_width(cr, background.borderWidth)
            cairo_stroke(cr)
            cairo_restore(cr)
        }
    }
}
