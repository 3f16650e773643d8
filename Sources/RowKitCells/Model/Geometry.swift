/// A width and height in pixels.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    /// The width in pixels.
    public var width: Double
    /// The height in pixels.
    public var height: Double
    /// A size of `width` × `height` pixels.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// No width and no height.
    public static let zero = Size(width: 0, height: 0)
    /// "width×height", for messages and test output.
    public var description: String { "\(width)×\(height)" }
}

/// A rectangle in pixels, origin at the top left.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The top edge (y grows downwards).
    public var y: Double
    /// The width in pixels.
    public var width: Double
    /// The height in pixels.
    public var height: Double
    /// The rectangle with its top-left corner at (`x`, `y`), `width` × `height` pixels.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// The right edge (`x + width`).
    public var maxX: Double { x + width }
    /// The bottom edge (`y + height`).
    public var maxY: Double { y + height }
    /// Whether `other` lies inside this rectangle, allowing `tolerance` pixels of float noise.
    public func contains(_ other: Rect, tolerance: Double = 1e-6) -> Bool {
        other.x >= x - tolerance && other.y >= y - tolerance && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }
    /// "(x, y, width×height)", for messages and test output.
    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}

/// Space around content, in pixels.
public struct Insets: Sendable, Hashable {
    /// Space above the content.
    public var top: Double
    /// Space left of the content.
    public var left: Double
    /// Space below the content.
    public var bottom: Double
    /// Space right of the content.
    public var right: Double
    /// Insets with a value for each side.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// The same inset on every side.
    public init(_ all: Double) { self.init(top: all, left: all, bottom: all, right: all) }
    /// Horizontal and vertical insets.
    public init(horizontal: Double, vertical: Double) { self.init(top: vertical, left: horizontal, bottom: vertical, right: horizontal) }
    /// No inset on any side.
    public static let zero = Insets(0)
    /// Left plus right: the width the insets take.
    public var horizontal: Double { left + right }
    /// Top plus bottom: the height the insets take.
    public var vertical: Double { top + bottom }
}
