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
    public var source: TextSource
    public var appearance: TextAppearance
    /// At most this many lines, the last one ellipsized; nil for no limit.
    public var maxLines: Int?
    /// Trim white space and newlines around the string first (seed 000 does).
    public var trimmed: Bool

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
    public var shadow: Shadow?
    /// Text color when the cell is highlighted or selected (the shadow is dropped then).
    public var highlightedColor: Color

    /// The default style is `TextStyle()` with direction `.auto`: a cell's text takes its
    /// direction from its first strong character, as `rowkit draw` does.
    public init(style: TextStyle = TextStyle(direction: .auto), shadow: Shadow? = nil, highlightedColor: Color = .white) {
        self.style = style
        self.shadow = shadow
        self.highlightedColor = highlightedColor
    }
}

/// An offset copy of text drawn underneath it.
public struct Shadow: Sendable, Hashable {
    public var dx: Double, dy: Double
    public var color: Color
    public init(dx: Double, dy: Double, color: Color) { self.dx = dx; self.dy = dy; self.color = color }
}

/// A fixed-size box.
public struct BoxElement: Sendable, Hashable {
    public var width: Double, height: Double
    public var content: BoxContent
    public init(width: Double, height: Double, content: BoxContent = .empty) {
        self.width = width; self.height = height; self.content = content
    }
}

/// What a box shows.
public enum BoxContent: Sendable, Hashable {
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
    public enum Axis: String, Sendable, Hashable { case vertical, horizontal }
    /// Cross-axis placement of children.
    public enum Alignment: String, Sendable, Hashable { case start, center, end }

    public var axis: Axis
    public var spacing: Double
    public var alignment: Alignment
    public var children: [CellLayout]
    /// In a horizontal stack, the child that takes the width the others leave (default: the
    /// last); the others get their natural width.
    public var flexible: Int?

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
    public var width: Double?, height: Double?
    public var minWidth: Double?, minHeight: Double?
    /// Where a shorter child sits vertically in the taller box (labels center their text).
    public var verticalAlignment: StackElement.Alignment
    public init(width: Double? = nil, height: Double? = nil, minWidth: Double? = nil, minHeight: Double? = nil,
                verticalAlignment: StackElement.Alignment = .start) {
        self.width = width; self.height = height; self.minWidth = minWidth; self.minHeight = minHeight
        self.verticalAlignment = verticalAlignment
    }
}

/// "Side by side if both fit, else stacked".
public struct SideBySideElement: Sendable, Hashable {
    public var first: CellLayout, second: CellLayout
    /// Gap between the two when side by side.
    public var spacing: Double
    /// Gap between the two when stacked.
    public var verticalSpacing: Double
    public init(first: CellLayout, second: CellLayout, spacing: Double, verticalSpacing: Double) {
        self.first = first; self.second = second; self.spacing = spacing; self.verticalSpacing = verticalSpacing
    }
}

/// A child at a fixed frame relative to the cell's top left.
public struct FramedElement: Sendable, Hashable {
    public var x: Double, y: Double, width: Double
    /// Fixed height, or nil to take the child's measured height (a frame that grows with its text).
    public var height: Double?
    public var child: CellLayout
    public init(x: Double, y: Double, width: Double, height: Double?, child: CellLayout) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.child = child
    }
}

/// A cell or element background.
public struct Background: Sendable, Hashable {
    public enum Fill: Sendable, Hashable {
        case none
        case color(Color)
        /// From `top` at the top edge to `bottom` at the bottom edge.
        case verticalGradient(top: Color, bottom: Color)
        case image(ImageSource)
    }
    public var fill: Fill
    /// Fill in the highlighted and selected states (nil keeps `fill`).
    public var highlightedFill: Fill?
    public var borderColor: Color?
    public var borderWidth: Double
    public var cornerRadius: Double

    public init(fill: Fill = .none, highlightedFill: Fill? = nil, borderColor: Color? = nil, borderWidth: Double = 0, cornerRadius: Double = 0) {
        self.fill = fill
        self.highlightedFill = highlightedFill
        self.borderColor = borderColor
        self.borderWidth = borderWidth
        self.cornerRadius = cornerRadius
    }
}
