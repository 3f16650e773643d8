/// A width and height in pixels.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Double, height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)×\(height)" }
}

/// A rectangle in pixels, origin at the top left.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    /// Whether `other` lies inside this rectangle, allowing `tolerance` pixels of float noise.
    public func contains(_ other: Rect, tolerance: Double = 1e-6) -> Bool {
        other.x >= x - tolerance && other.y >= y - tolerance && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }
    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}

/// Space around content, in pixels.
public struct Insets: Sendable, Hashable {
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// The same inset on every side.
    public init(_ all: Double) { self.init(top: all, left: all, bottom: all, right: all) }
    /// Horizontal and vertical insets.
    public init(horizontal: Double, vertical: Double) { self.init(top: vertical, left: horizontal, bottom: vertical, right: horizontal) }
    public static let zero = Insets(0)
    public var horizontal: Double { left + right }
    public var vertical: Double { top + bottom }
}
