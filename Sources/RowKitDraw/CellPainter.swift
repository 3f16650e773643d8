import RowKitCells
import RowKitText

/// Draws arranged cells: backgrounds, images and the very text layouts that were measured. The
/// cell state (normal, highlighted, selected) changes colors and shadows only.
///
/// Threads: draw into one ``Canvas`` from one thread at a time; different canvases may be
/// painted on different threads at once (an ``ImageStore`` may be shared between them).
public enum CellPainter {
    /// Draws `arrangement` with its top-left corner at (`x`, `y`) in `state`, images from
    /// `images`; with `debugFrames`, element frames are outlined (containers blue, boxes green).
    /// Drawing is clipped to each element's clip, texts line by line.
    public static func draw(_ arrangement: CellArrangement, in canvas: Canvas, x: Double, y: Double,
                            state: CellState = .normal, images: ImageStore, debugFrames: Bool = false) {
        let cr = canvas.cairo
        let active = state != .normal
        for element in arrangement.elements {
            let frame = Rect(x: x + element.frame.x, y: y + element.frame.y, width: element.frame.width, height: element.frame.height)
            cr.save()
            // Text is clipped line by line (`drawText`): its ink may overhang its line boxes.
            if let clip = element.clip, !element.isText {
                cr.clip(to: Rect(x: x + clip.x, y: y + clip.y, width: clip.width, height: clip.height))
            }
            switch element.kind {
            case .background(let background, let imageName, let highlightedImageName):
                let fill = active ? (background.highlightedFill ?? background.fill) : background.fill
                let image = active && background.highlightedFill != nil ? highlightedImageName : imageName
                drawBackground(background, fill: fill, imageName: image, frame: frame, canvas: canvas, images: images)
            case .text(let layout, let appearance):
                drawText(layout, at: frame, clip: element.clip.map { Rect(x: x + $0.x, y: y + $0.y, width: $0.width, height: $0.height) },
                         in: canvas, color: active ? appearance.highlightedColor : nil,
                         shadow: active ? nil : appearance.shadow,
                         debugFrames: debugFrames)
            case .box(let content):
                switch content {
                case .empty: break
                case .color(let color):
                    cr.setColor(color)
                    cr.rectangle(frame.x, frame.y, frame.width, frame.height)
                    cr.fill()
                case .image(let name):
                    images.draw(name, in: frame, canvas: canvas)
                }
                if debugFrames { canvas.strokeRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height, color: Color(red: 0, green: 0.6, blue: 0, alpha: 0.8)) }
            case .container:
                if debugFrames { canvas.strokeRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height, color: Color(red: 0.2, green: 0.4, blue: 1, alpha: 0.5)) }
            }
            cr.restore()
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
        let cr = canvas.cairo
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
                cr.saved {
                    cr.clip(to: rect)
                    TextPainter.draw(layout, in: canvas, x: frame.x, y: frame.y, color: color, shadow: shadow, debugFrames: debugFrames, lines: start..<end)
                }
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
        let cutLeft = box.x < clip.x - tolerance, cutTop = box.y < clip.y - tolerance
        let cutRight = box.maxX > clip.maxX + tolerance, cutBottom = box.maxY > clip.maxY + tolerance
        guard cutLeft || cutTop || cutRight || cutBottom else { return .none }
        // An open side lies well beyond any ink of the line, but near it: cairo keeps
        // coordinates in 24.8 fixed point, so ±1e7 (device pixels after scaling) wraps around
        // and turned a "cut at the right" into "keep only what is right of the edge".
        let open = 10_000.0
        let left = cutLeft ? clip.x : box.x - open
        let top = cutTop ? clip.y : box.y - open
        let right = cutRight ? clip.maxX : box.maxX + open
        let bottom = cutBottom ? clip.maxY : box.maxY + open
        return .cut(Rect(x: left, y: top, width: right - left, height: bottom - top))
    }

    static func drawBackground(_ background: Background, fill: Background.Fill, imageName: String?, frame: Rect,
                               canvas: Canvas, images: ImageStore) {
        let cr = canvas.cairo
        cr.saved {
            cr.roundedRectangle(frame.x, frame.y, frame.width, frame.height, radius: background.cornerRadius)
            switch fill {
            case .none:
                cr.newPath()
            case .color(let color):
                cr.setColor(color)
                cr.fill()
            case .verticalGradient(let top, let bottom):
                cr.setVerticalGradient(top: top, bottom: bottom, from: frame.y, to: frame.maxY)
                cr.fill()
            case .image:
                cr.clipToPath()
                if let imageName { images.draw(imageName, in: frame, canvas: canvas) }
            }
        }
        if let border = background.borderColor, background.borderWidth > 0 {
            cr.saved {
                let inset = background.borderWidth / 2
                cr.roundedRectangle(frame.x + inset, frame.y + inset, frame.width - 2 * inset, frame.height - 2 * inset,
                                    radius: background.cornerRadius)
                cr.setColor(border)
                cr.stroke(width: background.borderWidth)
            }
        }
    }
}

extension ArrangedElement {
    var isText: Bool { if case .text = kind { return true } else { return false } }
}
