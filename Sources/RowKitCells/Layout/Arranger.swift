import RowKitText

/// Places a bound cell's elements: walks the compiled steps top-down with each element's
/// rectangle, sizing children with the same measuring the height came from.
struct Arranger<Texts: TextSizing> {
    typealias Step = CompiledLayout.Step

    let compiled: CompiledLayout
    let texts: [PreparedText?]
    let sizes: Texts
    let row: RowData
    var elements: [ArrangedElement] = []

    init(compiled: CompiledLayout, texts: [PreparedText?], sizes: Texts, row: RowData) {
        self.compiled = compiled
        self.texts = texts
        self.sizes = sizes
        self.row = row
    }

    func measure(_ i: Int, _ width: Double, _ steps: UnsafePointer<Step>) -> Size {
        CompiledLayout.measure(i, width: width, steps: steps, texts: sizes)
    }

    /// Appends step `i`'s elements, placed in `rect` (its width is the available width).
    mutating func arrange(_ i: Int, in rect: Rect, clip: Rect?, steps: UnsafePointer<Step>) {
        let step = steps[i]
        switch step.kind {
        case .text:
            let slot = Int(step.payload)
            let element = compiled.texts[slot]
            let maxLines = element.maxLines ?? 0
            guard let prepared = texts[slot], let layout = try? prepared.layout(width: rect.width, maxLines: maxLines > 0 ? maxLines : nil) else { return }
            let frame = Rect(x: rect.x, y: rect.y, width: rect.width, height: layout.height)
            // A text with a line limit is `overflow: hidden` as CSS `text-overflow: ellipsis`
            // requires: a line wider than its frame (a first grapheme wider than a very narrow
            // frame) is clipped at the frame's sides, never drawn over its neighbours. The
            // vertical extent stays the enclosing clip's: glyphs may overhang their line box.
            var textClip = clip
            if maxLines > 0, layout.maxLineWidth > rect.width + 1.0 / 64 {
                let vertical = clip ?? frame
                textClip = Self.intersect(clip, Rect(x: rect.x, y: vertical.y, width: rect.width, height: vertical.height))
            }
            elements.append(ArrangedElement(frame: frame, kind: .text(layout, element.appearance), clip: textClip))
        case .box:
            let content: ResolvedBoxContent
            switch compiled.boxes[Int(step.payload)] {
            case .empty: content = .empty
            case .color(let color): content = .color(color)
            case .image(let source): content = Self.imageName(source, row).map { .image($0) } ?? .empty
            }
            elements.append(ArrangedElement(frame: Rect(x: rect.x, y: rect.y, width: step.v0, height: step.v1), kind: .box(content), clip: clip))
        case .stack:
            let (size, sizes) = measureStack(i, width: rect.width, steps: steps)
            elements.append(ArrangedElement(frame: Rect(x: rect.x, y: rect.y, width: rect.width, height: size.height), kind: .container, clip: clip))
            let alignment = Self.alignment(step.flags >> Step.alignmentShift)
            var offset = 0.0
            var c = i + 1
            for childSize in sizes {
                if step.flags & Step.horizontal == 0 {
                    let x = rect.x + Self.align(alignment, childSize.width, in: rect.width)
                    let width = alignment == .start ? rect.width : childSize.width
                    arrange(c, in: Rect(x: x, y: rect.y + offset, width: width, height: childSize.height), clip: clip, steps: steps)
                    offset += childSize.height + step.v0
                } else {
                    let y = rect.y + Self.align(alignment, childSize.height, in: size.height)
                    arrange(c, in: Rect(x: rect.x + offset, y: y, width: childSize.width, height: childSize.height), clip: clip, steps: steps)
                    offset += childSize.width + step.v0
                }
                c = Int(steps[c].end)
            }
        case .inset:
            let horizontal = step.v1 + step.v3, vertical = step.v0 + step.v2
            let inner = measure(i + 1, max(0, rect.width - horizontal), steps)
            elements.append(ArrangedElement(frame: Rect(x: rect.x, y: rect.y, width: rect.width, height: inner.height + vertical), kind: .container, clip: clip))
            arrange(i + 1, in: Rect(x: rect.x + step.v1, y: rect.y + step.v0, width: max(0, rect.width - horizontal), height: inner.height),
                    clip: clip, steps: steps)
        case .sized:
            let hasWidth = step.flags & Step.hasWidth != 0, hasHeight = step.flags & Step.hasHeight != 0
            let size = measure(i, rect.width, steps)
            let frame = Rect(x: rect.x, y: rect.y, width: hasWidth ? CompiledLayout.fixedWidth(step.v0, available: rect.width) : rect.width,
                             height: size.height)
            elements.append(ArrangedElement(frame: frame, kind: .container, clip: clip))
            let childClip = hasHeight || hasWidth ? Self.intersect(clip, frame) : clip
            let childHeight = measure(i + 1, frame.width, steps).height
            let y = frame.y + Self.align(Self.alignment(step.flags >> Step.alignmentShift), childHeight, in: frame.height)
            arrange(i + 1, in: Rect(x: frame.x, y: y, width: frame.width, height: childHeight), clip: childClip, steps: steps)
        case .sideBySide:
            let second = Int(steps[i + 1].end)
            if let (a, b) = CompiledLayout.sideBySideSizes(i, width: rect.width, steps: steps, texts: sizes) {
                arrange(i + 1, in: Rect(x: rect.x, y: rect.y, width: a.width, height: a.height), clip: clip, steps: steps)
                arrange(second, in: Rect(x: rect.x + a.width + step.v0, y: rect.y, width: rect.width - a.width - step.v0, height: b.height),
                        clip: clip, steps: steps)
            } else {
                let a = measure(i + 1, rect.width, steps)
                arrange(i + 1, in: Rect(x: rect.x, y: rect.y, width: rect.width, height: a.height), clip: clip, steps: steps)
                let b = measure(second, rect.width, steps)
                arrange(second, in: Rect(x: rect.x, y: rect.y + a.height + step.v1, width: rect.width, height: b.height),
                        clip: clip, steps: steps)
            }
        case .frames:
            var c = i + 1
            while c < Int(step.end) {
                let frame = steps[c]
                let fixed = frame.flags & Step.hasHeight != 0
                let width = CompiledLayout.framedWidth(frame, available: rect.width)
                let height = fixed ? frame.v3 : measure(c + 1, width, steps).height
                let box = Rect(x: rect.x + frame.v0, y: rect.y + frame.v1, width: width, height: height)
                elements.append(ArrangedElement(frame: box, kind: .container, clip: clip))
                arrange(c + 1, in: box, clip: fixed ? Self.intersect(clip, box) : clip, steps: steps)
                c = Int(frame.end)
            }
        case .frame:
            arrange(i + 1, in: rect, clip: clip, steps: steps)
        case .background:
            let background = compiled.backgrounds[Int(step.payload)]
            let size = measure(i + 1, rect.width, steps)
            let frame = Rect(x: rect.x, y: rect.y, width: rect.width, height: max(rect.height, size.height))
            func name(_ fill: Background.Fill?) -> String? {
                if case .image(let source)? = fill { return Self.imageName(source, row) }
                return nil
            }
            elements.append(ArrangedElement(frame: frame, kind: .background(background, imageName: name(background.fill),
                                                                              highlightedImageName: name(background.highlightedFill)), clip: clip))
            arrange(i + 1, in: Rect(x: rect.x, y: rect.y, width: rect.width, height: size.height), clip: clip, steps: steps)
        }
    }

    /// Child sizes of stack step `i` along its axis, and the stack's size.
    func measureStack(_ i: Int, width: Double, steps: UnsafePointer<Step>) -> (size: Size, sizes: [Size]) {
        let step = steps[i]
        var children: [Int] = []
        var c = i + 1
        while c < Int(step.end) { children.append(c); c = Int(steps[c].end) }
        guard !children.isEmpty else { return (.zero, []) }
        let gaps = step.v0 * Double(children.count - 1)
        if step.flags & Step.horizontal == 0 {
            let sizes = children.map { measure($0, width, steps) }
            return (Size(width: sizes.map(\.width).max() ?? 0, height: sizes.reduce(gaps) { $0 + $1.height }), sizes)
        }
        let flexible = min(max(0, step.flags & Step.hasFlexible != 0 ? Int(step.payload) : children.count - 1), children.count - 1)
        var sizes = [Size](repeating: .zero, count: children.count)
        var used = gaps
        for (k, child) in children.enumerated() where k != flexible {
            sizes[k] = measure(child, max(0, width - used), steps)
            used += sizes[k].width
        }
        let remaining = max(0, width - used)
        sizes[flexible] = measure(children[flexible], remaining, steps)
        sizes[flexible].width = width.isFinite ? remaining : sizes[flexible].width
        return (Size(width: used + sizes[flexible].width, height: sizes.map(\.height).max() ?? 0), sizes)
    }

    static func alignment(_ bits: UInt8) -> StackElement.Alignment {
        switch bits & 3 {
        case 1: return .center
        case 2: return .end
        default: return .start
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
