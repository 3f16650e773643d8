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
            // Text is clipped line by line (``drawText``): its ink may overhang its line boxes.
            if let clip = element.clip, !element.isText {
                cairo_rectangle(cr, x + clip.x, y + clip.y, clip.width, clip.height)
                cairo_clip(cr)
            }
            switch element.kind {
            case .background(let background, let imageName, let highlightedImageName):
                let fill = active ? (background.highlightedFill ?? background.fill) : background.fill
                let image = active && background.highlightedFill != nil ? highlightedImageName : imageName
                drawBackground(background, fill: fill, imageName: image, frame: frame, canvas: canvas, images: images)
            case .text(let layout, let appearance):
                drawText(layout, at: frame, clip: element.clip.map { Rect(x: x + $0.x, y: y + $0.y, width: $0.width, height: $0.height) },
                         in: canvas, color: active ? appearance.highlightedColor : nil,
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

    /// Draws a text element whose lines a clip may cut. A line whose box lies inside the clip is
    /// drawn whole, ink overhanging the box included (stacked diacritics above a title at the
    /// cell's top, synthetic italic, shadows); a line whose box crosses an edge of the clip is cut
    /// at that edge only; a line outside it is not drawn. So a cell clips only what its layout
    /// cut off (a fixed frame's or fixed height's overflowing lines), never the ink of the lines
    /// it shows.
    static func drawText(_ layout: TextLayout, at frame: Rect, clip: Rect?, in canvas: Canvas,
                         color: Color?, shadow: TextShadow?, debugFrames: Bool) {
        guard let clip else {
            TextPainter.draw(layout, in: canvas, x: frame.x, y: frame.y, color: color, shadow: shadow, debugFrames: debugFrames)
            return
        }
        let cr = canvas.context
        var start = 0
        while start < layout.lines.count {
            let cut = lineClip(layout, start, at: frame, clip: clip)
            var end = start + 1
            while end < layout.lines.count, lineClip(layout, end, at: frame, clip: clip) == cut { end += 1 }
            switch cut {
            case .hidden: break
            case .none:
                TextPainter.draw(layout, in: canvas, x: frame.x, y: frame.y, color: color, shadow: shadow, debugFrames: debugFrames, lines: start..<end)
            case .cut(let rect):
                cairo_save(cr)
                cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
                cairo_clip(cr)
                TextPainter.draw(layout, in: canvas, x: frame.x, y: frame.y, color: color, shadow: shadow, debugFrames: debugFrames, lines: start..<end)
                cairo_restore(cr)
            }
            start = end
        }
    }

    /// How a clip treats one line of a text drawn at `frame`.
    enum LineClip: Equatable {
        /// The line box is inside the clip: drawn unclipped.
        case none
        /// The line box is outside the clip: not drawn.
        case hidden
        /// The line box crosses some edges of the clip: drawn clipped to this rectangle, which
        /// keeps those edges and opens the others.
        case cut(Rect)
    }

    static func lineClip(_ layout: TextLayout, _ line: Int, at frame: Rect, clip: Rect) -> LineClip {
        let box = Rect(x: frame.x + layout.lineOffset(line), y: frame.y + layout.top(ofLine: line),
                       width: layout.lines[line].width, height: layout.height(ofLine: line))
        let tolerance = 1e-6
        if box.maxY <= clip.y + tolerance || box.y >= clip.maxY - tolerance { return .hidden }
        if box.width > 0 && (box.maxX <= clip.x + tolerance || box.x >= clip.maxX - tolerance) { return .hidden }
        let far = 1e7
        let left = box.x < clip.x - tolerance ? clip.x : -far
        let top = box.y < clip.y - tolerance ? clip.y : -far
        let right = box.maxX > clip.maxX + tolerance ? clip.maxX : far
        let bottom = box.maxY > clip.maxY + tolerance ? clip.maxY : far
        if left == -far && top == -far && right == far && bottom == far { return .none }
        return .cut(Rect(x: left, y: top, width: right - left, height: bottom - top))
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

extension ArrangedElement {
    var isText: Bool { if case .text = kind { return true } else { return false } }
}
