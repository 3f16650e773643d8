import RowKitText

/// What can go wrong binding, measuring or arranging a cell.
public enum CellError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A text could not be prepared (bad style numbers, unreadable font file…).
    case text(element: String, TextError)
    /// A width or size that is NaN, negative or absurd.
    case invalidWidth(Double)

    public var description: String {
        switch self {
        case .text(let element, let error): return "\(element): \(error)"
        case .invalidWidth(let width): return "invalid cell width \(width): must be a number in [0, 100000]"
        }
    }
}

/// A cell layout bound to one row: its texts prepared (shaped once), ready to be measured and
/// arranged at any width. A value; safe to make and use on any thread.
public struct BoundCell: Sendable {
    /// Everything in one box, so that copying a bound cell (lists hold millions) is one retain.
    private final class Storage: Sendable {
        let layout: CellLayout
        let row: RowData
        let root: BoundNode
        init(layout: CellLayout, row: RowData, root: BoundNode) {
            self.layout = layout
            self.row = row
            self.root = root
        }
    }
    private let storage: Storage

    /// The layout this cell was bound from.
    public var layout: CellLayout { storage.layout }
    /// The row's data.
    public var row: RowData { storage.row }
    var root: BoundNode { storage.root }

    /// Binds `layout` to `row`, preparing every text element.
    public init(_ layout: CellLayout, row: RowData, fonts: FontLibrary = .shared, cache: ShapeCache = .shared) throws(CellError) {
        var path: [String] = []
        let root = try BoundNode.bind(layout, row: row, fonts: fonts, cache: cache, path: &path)
        self.storage = Storage(layout: layout, row: row, root: root)
    }

    /// The cell's size at `width`: the width is the given one, the height follows the content.
    public func measure(width: Double) throws(CellError) -> Size {
        try Self.check(width)
        return Size(width: width, height: root.measure(width: width).height)
    }

    /// Every element's frame at `width`, in drawing order (backgrounds first).
    public func arrange(width: Double) throws(CellError) -> CellArrangement {
        try Self.check(width)
        let height = root.measure(width: width).height
        var elements: [ArrangedElement] = []
        // Nothing a cell holds draws outside it: fixed frames and columns wider than a narrow
        // cell are clipped at its edges.
        let bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.arrange(in: bounds, clip: bounds, row: row, into: &elements)
        return CellArrangement(size: Size(width: width, height: height), elements: elements)
    }

    /// Approximate bytes held by the cell's prepared texts (shared shaped runs not counted).
    public var byteCount: Int { 64 + root.byteCount }

    static func check(_ width: Double) throws(CellError) {
        guard width.isFinite, width >= 0, width <= 100_000 else { throw .invalidWidth(width) }
    }
}

/// A cell's elements placed at a width: what drawing draws.
public struct CellArrangement: Sendable {
    public let size: Size
    public let elements: [ArrangedElement]
}

/// One placed element.
public struct ArrangedElement: Sendable {
    public enum Kind: Sendable {
        /// Laid-out text and how it looks.
        case text(TextLayout, TextAppearance)
        /// A box's resolved content (image names resolved from the row).
        case box(ResolvedBoxContent)
        /// A background behind the following elements.
        case background(Background, imageName: String?, highlightedImageName: String?)
        /// A stack, inset, size or frame container (drawn only as a debug frame).
        case container
    }
    public let frame: Rect
    public let kind: Kind
    /// Drawing is clipped to this rectangle (fixed frames and fixed sizes clip their content).
    public let clip: Rect?
}

/// A box's content with image names taken from the row.
public enum ResolvedBoxContent: Sendable, Hashable {
    case empty
    case color(Color)
    case image(String)
}

/// A layout node with its texts prepared.
///
/// Cases carry only plain numbers where measuring needs them (no layouts, strings or arrays
/// of layouts): extracting a case's payload then retains nothing but what it uses, which
/// matters because every row is measured again on each width change.
indirect enum BoundNode: Sendable {
    case text(PreparedText?, maxLines: Int, Boxed<TextElement>)
    case box(Size, Boxed<BoxContent>)
    case stack(StackGeometry, [BoundNode])
    case inset(Insets, BoundNode)
    case sized(SizeConstraint, BoundNode)
    case sideBySide(SideBySideGeometry, BoundNode, BoundNode)
    case frames([FrameGeometry], [BoundNode])
    case background(Boxed<Background>, BoundNode)

    struct StackGeometry: Sendable {
        var axis: StackElement.Axis, spacing: Double, alignment: StackElement.Alignment, flexible: Int?
    }
    struct SideBySideGeometry: Sendable {
        var spacing: Double, verticalSpacing: Double
    }
    struct FrameGeometry: Sendable {
        var x: Double, y: Double, width: Double, height: Double?
    }

    static func bind(_ layout: CellLayout, row: RowData, fonts: FontLibrary, cache: ShapeCache, path: inout [String]) throws(CellError) -> BoundNode {
        switch layout {
        case .text(let element):
            var string: String
            switch element.source {
            case .field(let name): string = row[name]?.description ?? ""
            case .literal(let text): string = text
            }
            if element.trimmed { string = trimmed(string) }
            guard !string.isEmpty else { return .text(nil, maxLines: element.maxLines ?? 0, Boxed(element)) }
            do {
                return .text(try PreparedText(string, style: element.appearance.style, fonts: fonts, cache: cache),
                             maxLines: element.maxLines ?? 0, Boxed(element))
            } catch {
                throw .text(element: describe(element.source), error)
            }
        case .box(let box):
            return .box(Size(width: box.width, height: box.height), Boxed(box.content))
        case .stack(let stack):
            var children: [BoundNode] = []
            for child in stack.children { children.append(try bind(child, row: row, fonts: fonts, cache: cache, path: &path)) }
            return .stack(StackGeometry(axis: stack.axis, spacing: stack.spacing, alignment: stack.alignment, flexible: stack.flexible), children)
        case .inset(let insets, let child):
            return .inset(insets, try bind(child, row: row, fonts: fonts, cache: cache, path: &path))
        case .sized(let constraint, let child):
            return .sized(constraint, try bind(child, row: row, fonts: fonts, cache: cache, path: &path))
        case .sideBySide(let pair):
            return .sideBySide(SideBySideGeometry(spacing: pair.spacing, verticalSpacing: pair.verticalSpacing), try bind(pair.first, row: row, fonts: fonts, cache: cache, path: &path),
                               try bind(pair.second, row: row, fonts: fonts, cache: cache, path: &path))
        case .frames(let frames):
            var children: [BoundNode] = []
            for frame in frames { children.append(try bind(frame.child, row: row, fonts: fonts, cache: cache, path: &path)) }
            return .frames(frames.map { FrameGeometry(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }, children)
        case .background(let background, let child):
            return .background(Boxed(background), try bind(child, row: row, fonts: fonts, cache: cache, path: &path))
        }
    }

    var byteCount: Int {
        switch self {
        case .text(let prepared, _, _): return 48 + (prepared?.byteCount ?? 0)
        case .box: return 48
        case .stack(_, let children), .frames(_, let children): return 48 + children.reduce(0) { $0 + $1.byteCount }
        case .inset(_, let child), .sized(_, let child), .background(_, let child): return 48 + child.byteCount
        case .sideBySide(_, let a, let b): return 48 + a.byteCount + b.byteCount
        }
    }

    private static func describe(_ source: TextSource) -> String {
        switch source {
        case .field(let name): return "text field '\(name)'"
        case .literal(let text): return "text '\(text.prefix(20))'"
        }
    }

    /// White space and newlines removed from both ends.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    // MARK: measuring

    /// Size at an available width. Widths are natural (what the content uses), heights exact.
    func measure(width: Double) -> Size {
        switch self {
        case .text(let prepared, let maxLines, _):
            guard let prepared else { return .zero }
            if maxLines > 0, let layout = try? prepared.layout(width: width, maxLines: maxLines) {
                return Size(width: min(width, layout.maxLineWidth), height: layout.height)
            }
            guard let m = try? prepared.measure(width: width) else { return .zero }
            return Size(width: width.isFinite ? min(width, m.maxLineWidth) : m.maxLineWidth, height: m.height)
        case .box(let size, _):
            return size
        case .stack(let stack, let children):
            return measureStackSize(stack, children, width: width)
        case .inset(let insets, let child):
            let inner = child.measure(width: max(0, width - insets.horizontal))
            return Size(width: inner.width + insets.horizontal, height: inner.height + insets.vertical)
        case .sized(let constraint, let child):
            let inner = child.measure(width: constraint.width ?? width)
            var size = Size(width: constraint.width ?? inner.width, height: constraint.height ?? inner.height)
            if let minWidth = constraint.minWidth, constraint.width == nil { size.width = max(size.width, minWidth) }
            if let minHeight = constraint.minHeight, constraint.height == nil { size.height = max(size.height, minHeight) }
            return size
        case .sideBySide(let pair, let first, let second):
            if let single = sideBySideSizes(pair, first, second, width: width) {
                return Size(width: single.0.width + pair.spacing + single.1.width, height: max(single.0.height, single.1.height))
            }
            let a = first.measure(width: width), b = second.measure(width: width)
            return Size(width: max(a.width, b.width), height: a.height + pair.verticalSpacing + b.height)
        case .frames(let frames, let children):
            var size = Size.zero
            for (frame, child) in zip(frames, children) {
                let height = frame.height ?? child.measure(width: frame.width).height
                size.width = max(size.width, frame.x + frame.width)
                size.height = max(size.height, frame.y + height)
            }
            return size
        case .background(_, let child):
            return child.measure(width: width)
        }
    }

    /// Natural single-line sizes of both children when they fit side by side in `width`.
    private func sideBySideSizes(_ pair: SideBySideGeometry, _ first: BoundNode, _ second: BoundNode, width: Double) -> (Size, Size)? {
        let a = first.measure(width: .infinity), b = second.measure(width: .infinity)
        return a.width + pair.spacing + b.width <= width ? (a, b) : nil
    }

    /// A stack's size, without keeping its children's sizes (no allocation: this runs for
    /// every row on every width change).
    private func measureStackSize(_ stack: StackGeometry, _ children: [BoundNode], width: Double) -> Size {
        guard !children.isEmpty else { return .zero }
        let gaps = stack.spacing * Double(children.count - 1)
        switch stack.axis {
        case .vertical:
            var size = Size(width: 0, height: gaps)
            for child in children {
                let s = child.measure(width: width)
                size.width = max(size.width, s.width)
                size.height += s.height
            }
            return size
        case .horizontal:
            let flexible = min(max(0, stack.flexible ?? children.count - 1), children.count - 1)
            var used = gaps, height = 0.0
            for (i, child) in children.enumerated() where i != flexible {
                let s = child.measure(width: max(0, width - used))
                used += s.width
                height = max(height, s.height)
            }
            let remaining = max(0, width - used)
            let s = children[flexible].measure(width: remaining)
            return Size(width: used + (width.isFinite ? remaining : s.width), height: max(height, s.height))
        }
    }

    /// Child sizes and offsets of a stack along its axis.
    private func measureStack(_ stack: StackGeometry, _ children: [BoundNode], width: Double) -> (size: Size, sizes: [Size]) {
        guard !children.isEmpty else { return (.zero, []) }
        let gaps = stack.spacing * Double(children.count - 1)
        switch stack.axis {
        case .vertical:
            let sizes = children.map { $0.measure(width: width) }
            return (Size(width: sizes.map(\.width).max() ?? 0, height: sizes.reduce(gaps) { $0 + $1.height }), sizes)
        case .horizontal:
            let flexible = min(max(0, stack.flexible ?? children.count - 1), children.count - 1)
            var sizes = [Size](repeating: .zero, count: children.count)
            var used = gaps
            for (i, child) in children.enumerated() where i != flexible {
                sizes[i] = child.measure(width: max(0, width - used))
                used += sizes[i].width
            }
            let remaining = max(0, width - used)
            sizes[flexible] = children[flexible].measure(width: remaining)
            sizes[flexible].width = width.isFinite ? remaining : sizes[flexible].width
            return (Size(width: used + sizes[flexible].width, height: sizes.map(\.height).max() ?? 0), sizes)
        }
    }

    // MARK: arranging

    /// Appends this node's elements, placed in `rect` (its width is the available width).
    func arrange(in rect: Rect, clip: Rect?, row: RowData, into elements: inout [ArrangedElement]) {
        switch self {
        case .text(let prepared, let maxLines, let boxed):
            let element = boxed.value
            guard let prepared, let layout = try? prepared.layout(width: rect.width, maxLines: maxLines > 0 ? maxLines : nil) else { return }
            elements.append(ArrangedElement(frame: Rect(x: rect.x, y: rect.y, width: rect.width, height: layout.height),
                                            kind: .text(layout, element.appearance), clip: clip))
        case .box(let size, let boxed):
            let content: ResolvedBoxContent
            switch boxed.value {
            case .empty: content = .empty
            case .color(let color): content = .color(color)
            case .image(let source): content = Self.imageName(source, row).map { .image($0) } ?? .empty
            }
            elements.append(ArrangedElement(frame: Rect(x: rect.x, y: rect.y, width: size.width, height: size.height), kind: .box(content), clip: clip))
        case .stack(let stack, let children):
            let (size, sizes) = measureStack(stack, children, width: rect.width)
            elements.append(ArrangedElement(frame: Rect(x: rect.x, y: rect.y, width: rect.width, height: size.height), kind: .container, clip: clip))
            var offset = 0.0
            for (child, childSize) in zip(children, sizes) {
                switch stack.axis {
                case .vertical:
                    let x = rect.x + Self.align(stack.alignment, childSize.width, in: rect.width)
                    let width = stack.alignment == .start ? rect.width : childSize.width
                    child.arrange(in: Rect(x: x, y: rect.y + offset, width: width, height: childSize.height), clip: clip, row: row, into: &elements)
                    offset += childSize.height + stack.spacing
                case .horizontal:
                    let y = rect.y + Self.align(stack.alignment, childSize.height, in: size.height)
                    child.arrange(in: Rect(x: rect.x + offset, y: y, width: childSize.width, height: childSize.height), clip: clip, row: row, into: &elements)
                    offset += childSize.width + stack.spacing
                }
            }
        case .inset(let insets, let child):
            let inner = child.measure(width: max(0, rect.width - insets.horizontal))
            elements.append(ArrangedElement(frame: Rect(x: rect.x, y: rect.y, width: rect.width, height: inner.height + insets.vertical), kind: .container, clip: clip))
            child.arrange(in: Rect(x: rect.x + insets.left, y: rect.y + insets.top, width: max(0, rect.width - insets.horizontal), height: inner.height),
                          clip: clip, row: row, into: &elements)
        case .sized(let constraint, let child):
            let size = measure(width: rect.width)
            let frame = Rect(x: rect.x, y: rect.y, width: constraint.width ?? rect.width, height: size.height)
            elements.append(ArrangedElement(frame: frame, kind: .container, clip: clip))
            let childClip = constraint.height != nil || constraint.width != nil ? Self.intersect(clip, frame) : clip
            let childHeight = child.measure(width: frame.width).height
            let y = frame.y + Self.align(constraint.verticalAlignment, childHeight, in: frame.height)
            child.arrange(in: Rect(x: frame.x, y: y, width: frame.width, height: childHeight), clip: childClip, row: row, into: &elements)
        case .sideBySide(let pair, let first, let second):
            if let (a, b) = sideBySideSizes(pair, first, second, width: rect.width) {
                first.arrange(in: Rect(x: rect.x, y: rect.y, width: a.width, height: a.height), clip: clip, row: row, into: &elements)
                second.arrange(in: Rect(x: rect.x + a.width + pair.spacing, y: rect.y, width: rect.width - a.width - pair.spacing, height: b.height),
                               clip: clip, row: row, into: &elements)
            } else {
                let a = first.measure(width: rect.width)
                first.arrange(in: Rect(x: rect.x, y: rect.y, width: rect.width, height: a.height), clip: clip, row: row, into: &elements)
                let b = second.measure(width: rect.width)
                second.arrange(in: Rect(x: rect.x, y: rect.y + a.height + pair.verticalSpacing, width: rect.width, height: b.height),
                               clip: clip, row: row, into: &elements)
            }
        case .frames(let frames, let children):
            for (frame, child) in zip(frames, children) {
                let height = frame.height ?? child.measure(width: frame.width).height
                let box = Rect(x: rect.x + frame.x, y: rect.y + frame.y, width: frame.width, height: height)
                elements.append(ArrangedElement(frame: box, kind: .container, clip: clip))
                child.arrange(in: box, clip: frame.height != nil ? Self.intersect(clip, box) : clip, row: row, into: &elements)
            }
        case .background(let boxed, let child):
            let background = boxed.value
            let size = child.measure(width: rect.width)
            let frame = Rect(x: rect.x, y: rect.y, width: rect.width, height: max(rect.height, size.height))
            func name(_ fill: Background.Fill?) -> String? {
                if case .image(let source)? = fill { return Self.imageName(source, row) }
                return nil
            }
            elements.append(ArrangedElement(frame: frame, kind: .background(background, imageName: name(background.fill),
                                                                              highlightedImageName: name(background.highlightedFill)), clip: clip))
            child.arrange(in: Rect(x: rect.x, y: rect.y, width: rect.width, height: size.height), clip: clip, row: row, into: &elements)
        }
    }

    private static func imageName(_ source: ImageSource, _ row: RowData) -> String? {
        switch source {
        case .named(let name): return name
        case .field(let field): return row[field]?.description
        }
    }

    private static func align(_ alignment: StackElement.Alignment, _ size: Double, in space: Double) -> Double {
        switch alignment {
        case .start: return 0
        case .center: return max(0, (space - size) / 2)
        case .end: return max(0, space - size)
        }
    }

    private static func intersect(_ a: Rect?, _ b: Rect) -> Rect {
        guard let a else { return b }
        let x = max(a.x, b.x), y = max(a.y, b.y)
        return Rect(x: x, y: y, width: max(0, min(a.maxX, b.maxX) - x), height: max(0, min(a.maxY, b.maxY) - y))
    }
}

/// A value in a reference box: enum payloads that measuring skips (styles, backgrounds) cost
/// one retain to carry instead of one per string inside them.
final class Boxed<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
