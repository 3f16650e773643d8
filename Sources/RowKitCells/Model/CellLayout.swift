import RowKitText

/// A declarative cell layout: an immutable tree of elements, bound to a row's data later.
///
/// Measuring a layout at a width gives its size; arranging it gives every element's frame.
/// Both are pure functions of (layout, row, width) and cheap once the row's texts are prepared.
public indirect enum CellLayout: Sendable, Hashable {
    /// Text from a row field or a literal, in a style, wrapped at the available width.
    case text(TextElement)
    /// A fixed-size box: an image, an icon or a color swatch.
    case box(BoxElement)
    /// Children one after another, vertically or horizontally.
    case stack(StackElement)
    /// Padding around a child.
    case inset(Insets, CellLayout)
    /// Minimum or fixed width and height for a child.
    case sized(SizeConstraint, CellLayout)
    /// Two children side by side if both fit on one line, else stacked (seed 000's caption and body).
    case sideBySide(SideBySideElement)
    /// Children at fixed frames relative to the cell, for ported frame-based cells (seed 003).
    case frames([FramedElement])
    /// A background (color, vertical gradient or image), border and corner radius behind a child.
    case background(Background, CellLayout)
}

/// Where a text element's string comes from.
public enum TextSource: Sendable, Hashable {
    /// The row field of this name (strings and numbers; missing fields are empty).
    case field(String)
    /// A fixed string.
    case literal(String)
}

/// A text element: source, appearance, line limit.
public struct TextElement: Sendable, Hashable {
    /// Where the string comes from: a row field or a literal.
    public var source: TextSource
    /// Style, shadow and highlighted color.
    public var appearance: TextAppearance
    /// At most this many lines, the last one ellipsized; nil for no limit.
    public var maxLines: Int?
    /// Trim white space and newlines around the string first (seed 000 does).
    public var trimmed: Bool

    /// A text element showing `source` in `appearance`, at most `maxLines` lines (nil: no
    /// limit), trimmed of surrounding white space unless `trimmed` is false.
    public init(_ source: TextSource, appearance: TextAppearance = TextAppearance(), maxLines: Int? = nil, trimmed: Bool = true) {
        self.source = source
        self.appearance = appearance
        self.maxLines = maxLines
        self.trimmed = trimmed
    }
}

/// How a text element looks in each cell state.
public struct TextAppearance: Sendable, Hashable {
    /// Font, size, line height, color, alignment.
    public var style: TextStyle
    /// A shadow drawn under the text in the normal state.
    public var shadow: TextShadow?
    /// Text color when the cell is highlighted or selected (the shadow is dropped then).
    public var highlightedColor: Color

    /// An appearance: `style` in every state, `shadow` under the text in the normal state, and
    /// `highlightedColor` for the text when the cell is highlighted or selected. The default
    /// style is `TextStyle()` with direction `.auto`: a cell's text takes its direction from its
    /// first strong character, as `rowkit draw` does.
    public init(style: TextStyle = TextStyle(direction: .auto), shadow: TextShadow? = nil, highlightedColor: Color = .white) {
        self.style = style
        self.shadow = shadow
        self.highlightedColor = highlightedColor
    }
}

/// A shadow drawn under text: an offset copy of the glyphs in another color, like CSS
/// `text-shadow` without blur (seed 002's white 1 px shadow). Cells, stylesheets (`shadow:` in
/// YAML) and `TextPainter` in RowKitDraw all take this one type.
public struct TextShadow: Sendable, Hashable {
    /// Horizontal offset in pixels (positive: right).
    public var dx: Double
    /// Vertical offset in pixels (positive: down).
    public var dy: Double
    /// The shadow's color.
    public var color: Color
    /// A shadow `dx`, `dy` pixels from the text, in `color`.
    public init(dx: Double, dy: Double, color: Color) { self.dx = dx; self.dy = dy; self.color = color }
}

/// The former name of ``TextShadow``: cells and drawing now share one shadow type.
@available(*, unavailable, renamed: "TextShadow")
public typealias Shadow = TextShadow

/// A fixed-size box.
public struct BoxElement: Sendable, Hashable {
    /// The box's width in pixels, whatever the width available.
    public var width: Double
    /// The box's height in pixels.
    public var height: Double
    /// What the box shows.
    public var content: BoxContent
    /// A `width` × `height` box showing `content`.
    public init(width: Double, height: Double, content: BoxContent = .empty) {
        self.width = width; self.height = height; self.content = content
    }
}

/// What a box shows.
public enum BoxContent: Sendable, Hashable {
    /// Nothing (a spacer).
    case empty
    /// A solid color.
    case color(Color)
    /// An image by name (see ``ImageSource``).
    case image(ImageSource)
}

/// Where an image name comes from.
public enum ImageSource: Sendable, Hashable {
    /// The row field of this name holds the image name.
    case field(String)
    /// A fixed image name.
    case named(String)
}

/// Children one after another.
public struct StackElement: Sendable, Hashable {
    /// The direction children follow one another in.
    public enum Axis: String, Sendable, Hashable {
        /// Top to bottom; every child gets the stack's width.
        case vertical
        /// Left to right; one child (``StackElement/flexible``) takes the width the others leave.
        case horizontal
    }
    /// Cross-axis placement of children.
    public enum Alignment: String, Sendable, Hashable {
        /// Left in a vertical stack, top in a horizontal one.
        case start
        /// Centered across the stack.
        case center
        /// Right in a vertical stack, bottom in a horizontal one.
        case end
    }

    /// Vertical or horizontal.
    public var axis: Axis
    /// Pixels between neighbouring children.
    public var spacing: Double
    /// Cross-axis placement of the children.
    public var alignment: Alignment
    /// The children, in order.
    public var children: [CellLayout]
    /// In a horizontal stack, the child that takes the width the others leave (default: the
    /// last); the others get their natural width.
    public var flexible: Int?

    /// A stack of `children` along `axis`.
    public init(_ axis: Axis, spacing: Double = 0, alignment: Alignment = .start, flexible: Int? = nil, children: [CellLayout]) {
        self.axis = axis
        self.spacing = spacing
        self.alignment = alignment
        self.flexible = flexible
        self.children = children
    }
}

/// Size limits for a child. Fixed values win over minimums.
public struct SizeConstraint: Sendable, Hashable {
    /// A fixed width, never wider than the width available (CSS `width` with `max-width:
    /// 100%`); the child is clipped to it.
    public var width: Double?
    /// A fixed height; the child is clipped to it.
    public var height: Double?
    /// The least width (when no fixed width is set).
    public var minWidth: Double?
    /// The least height (when no fixed height is set): a shorter child is placed by
    /// ``verticalAlignment``.
    public var minHeight: Double?
    /// Where a shorter child sits vertically in the taller box (labels center their text).
    public var verticalAlignment: StackElement.Alignment
    /// Limits for a child; every one is optional.
    public init(width: Double? = nil, height: Double? = nil, minWidth: Double? = nil, minHeight: Double? = nil,
                verticalAlignment: StackElement.Alignment = .start) {
        self.width = width; self.height = height; self.minWidth = minWidth; self.minHeight = minHeight
        self.verticalAlignment = verticalAlignment
    }
}

/// "Side by side if both fit, else stacked".
public struct SideBySideElement: Sendable, Hashable {
    /// The leading child (seed 000's caption).
    public var first: CellLayout
    /// The trailing child, below the first when the two do not fit on one line.
    public var second: CellLayout
    /// Gap between the two when side by side.
    public var spacing: Double
    /// Gap between the two when stacked.
    public var verticalSpacing: Double
    /// The pair `first`, `second`, `spacing` apart side by side or `verticalSpacing` apart stacked.
    public init(first: CellLayout, second: CellLayout, spacing: Double, verticalSpacing: Double) {
        self.first = first; self.second = second; self.spacing = spacing; self.verticalSpacing = verticalSpacing
    }
}

/// A child at a fixed frame relative to the cell's top left.
public struct FramedElement: Sendable, Hashable {
    /// The frame's left edge, from the cell's left.
    public var x: Double
    /// The frame's top edge, from the cell's top.
    public var y: Double
    /// The frame's width; cut at the cell's right edge in a narrower cell.
    public var width: Double
    /// Fixed height, or nil to take the child's measured height (a frame that grows with its text).
    public var height: Double?
    /// What the frame holds.
    public var child: CellLayout
    /// `child` in the frame (`x`, `y`, `width`, `height`); a nil height grows with the child.
    public init(x: Double, y: Double, width: Double, height: Double?, child: CellLayout) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.child = child
    }
}

/// A cell or element background.
public struct Background: Sendable, Hashable {
    /// What fills the background's rectangle.
    public enum Fill: Sendable, Hashable {
        /// Nothing (a border alone, or no highlight).
        case none
        /// A solid color.
        case color(Color)
        /// From `top` at the top edge to `bottom` at the bottom edge.
        case verticalGradient(top: Color, bottom: Color)
        /// An image stretched over the rectangle (clipped to the rounded corners).
        case image(ImageSource)
    }
    /// The fill in the normal state.
    public var fill: Fill
    /// Fill in the highlighted and selected states (nil keeps `fill`).
    public var highlightedFill: Fill?
    /// The border's color (nil: no border).
    public var borderColor: Color?
    /// The border's width in pixels, drawn inside the rectangle.
    public var borderWidth: Double
    /// The corner radius in pixels (at most half a side).
    public var cornerRadius: Double

    /// A background; every part is optional.
    public init(fill: Fill = .none, highlightedFill: Fill? = nil, borderColor: Color? = nil, borderWidth: Double = 0, cornerRadius: Double = 0) {
        self.fill = fill
        self.highlightedFill = highlightedFill
        self.borderColor = borderColor
        self.borderWidth = borderWidth
        self.cornerRadius = cornerRadius
    }
}
