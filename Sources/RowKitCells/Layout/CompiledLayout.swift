import RowKitText

/// A cell layout compiled into a flat list of steps, shared by every row of a template.
///
/// Measuring a row walks the steps (plain numbers in one array, children right after their
/// parent) instead of an indirect enum tree, and reads each text's measure from the row's
/// texts by slot. Both forms of a row measure through it: ``CellMetrics`` (compact, for
/// heights) and ``BoundCell`` (texts prepared with glyphs, for arranging and drawing), so the
/// height a list keeps and the frames drawing uses come from one algorithm.
///
/// Compile once per template (``CellTemplate/compile()``) and keep it; it is immutable and
/// safe to share between threads.
public final class CompiledLayout: Sendable {
    /// The layout this was compiled from.
    public let layout: CellLayout
    /// The steps in pre-order: a step's children follow it, each child's subtree before the next.
    let steps: [Step]
    /// The same steps in memory this object owns, read without reference counting when
    /// measuring (an array would be retained and released for every row).
    nonisolated(unsafe) let stepBuffer: UnsafeMutableBufferPointer<Step>
    /// The text elements in pre-order; a step of kind `.text` names its slot.
    let texts: [TextElement]
    /// Box contents and backgrounds, by the index their step names (arranging only).
    let boxes: [BoxContent]
    let backgrounds: [Background]

    /// One step: its kind, where its subtree ends, an index into `texts`, `boxes` or
    /// `backgrounds` (or a stack's flexible child), flag bits and up to four numbers (a text's
    /// line limit, a box's size, spacings, insets, size constraints, a frame).
    struct Step: Sendable {
        enum Kind: UInt8, Sendable { case text, box, stack, inset, sized, sideBySide, frames, frame, background }
        var kind: Kind
        var flags: UInt8 = 0
        var payload: Int32 = 0
        /// Index just past this step's subtree (its next sibling).
        var end: Int32 = 0
        var v0 = 0.0, v1 = 0.0, v2 = 0.0, v3 = 0.0

        // Flag bits: stack axis and alignment; sized presence bits and vertical alignment;
        // frame height presence.
        static let horizontal: UInt8 = 1, hasFlexible: UInt8 = 2
        static let hasWidth: UInt8 = 1, hasHeight: UInt8 = 2, hasMinWidth: UInt8 = 4, hasMinHeight: UInt8 = 8
        static let alignmentShift: UInt8 = 4
    }

    /// Compiles `layout`.
    public init(_ layout: CellLayout) {
        self.layout = layout
        var compiler = Compiler()
        compiler.emit(layout)
        steps = compiler.steps
        stepBuffer = .allocate(capacity: max(1, compiler.steps.count))
        _ = stepBuffer.initialize(from: compiler.steps)
        texts = compiler.texts
        boxes = compiler.boxes
        backgrounds = compiler.backgrounds
    }

    deinit { stepBuffer.deallocate() }

    /// Number of text elements (slots) a row fills.
    public var textCount: Int { texts.count }

    private struct Compiler {
        var steps: [Step] = []
        var texts: [TextElement] = []
        var boxes: [BoxContent] = []
        var backgrounds: [Background] = []

        mutating func emit(_ layout: CellLayout) {
            let index = steps.count
            switch layout {
            case .text(let element):
                steps.append(Step(kind: .text, payload: Int32(texts.count), v0: Double(max(0, min(element.maxLines ?? 0, Int(Int32.max))))))
                texts.append(element)
            case .box(let box):
                steps.append(Step(kind: .box, payload: Int32(boxes.count), v0: box.width, v1: box.height))
                boxes.append(box.content)
            case .stack(let stack):
                var flags = (stack.axis == .horizontal ? Step.horizontal : 0) | Self.alignment(stack.alignment) << Step.alignmentShift
                if stack.flexible != nil { flags |= Step.hasFlexible }
                steps.append(Step(kind: .stack, flags: flags, payload: Int32(clamping: stack.flexible ?? 0), v0: stack.spacing))
                for child in stack.children { emit(child) }
            case .inset(let insets, let child):
                steps.append(Step(kind: .inset, v0: insets.top, v1: insets.left, v2: insets.bottom, v3: insets.right))
                emit(child)
            case .sized(let c, let child):
                var flags = Self.alignment(c.verticalAlignment) << Step.alignmentShift
                if c.width != nil { flags |= Step.hasWidth }
                if c.height != nil { flags |= Step.hasHeight }
                if c.minWidth != nil { flags |= Step.hasMinWidth }
                if c.minHeight != nil { flags |= Step.hasMinHeight }
                steps.append(Step(kind: .sized, flags: flags, v0: c.width ?? 0, v1: c.height ?? 0, v2: c.minWidth ?? 0, v3: c.minHeight ?? 0))
                emit(child)
            case .sideBySide(let pair):
                steps.append(Step(kind: .sideBySide, v0: pair.spacing, v1: pair.verticalSpacing))
                emit(pair.first)
                emit(pair.second)
            case .frames(let frames):
                steps.append(Step(kind: .frames))
                for frame in frames {
                    let at = steps.count
                    steps.append(Step(kind: .frame, flags: frame.height != nil ? Step.hasHeight : 0,
                                      v0: frame.x, v1: frame.y, v2: frame.width, v3: frame.height ?? 0))
                    emit(frame.child)
                    steps[at].end = Int32(steps.count)
                }
            case .background(let background, let child):
                steps.append(Step(kind: .background, payload: Int32(backgrounds.count)))
                backgrounds.append(background)
                emit(child)
            }
            steps[index].end = Int32(steps.count)
        }

        static func alignment(_ a: StackElement.Alignment) -> UInt8 {
            switch a {
            case .start: return 0
            case .center: return 1
            case .end: return 2
            }
        }
    }
}

/// What measuring asks of a row's texts: the size of text slot `slot` at an available width,
/// with at most `maxLines` lines when > 0, as a text element sizes (natural width, exact
/// height; `.zero` for an empty text or a width a text cannot be laid out at).
protocol TextSizing {
    func size(ofText slot: Int, maxLines: Int, width: Double) -> Size
}

extension CompiledLayout {
    /// The row's size at `width` (the root's natural width; the cell takes the given width).
    @inline(__always)
    func measure<Texts: TextSizing>(width: Double, texts: Texts) -> Size {
        Self.measure(0, width: width, steps: UnsafePointer(stepBuffer.baseAddress!), texts: texts)
    }

    /// A fixed width in `available` space: never wider than that space (CSS `width` with
    /// `max-width: 100%`), so a fixed column in a narrow cell narrows and its text wraps more
    /// instead of reaching past the cell's edge.
    @inline(__always) static func fixedWidth(_ width: Double, available: Double) -> Double {
        min(width, max(0, available))
    }

    /// A framed child's width in a cell `available` wide: its frame's width, cut at the cell's
    /// right edge (0 for a frame that starts past it, which then draws nothing).
    @inline(__always) static func framedWidth(_ frame: Step, available: Double) -> Double {
        min(frame.v2, max(0, available - frame.v0))
    }

    /// Size of step `i`'s subtree at an available `width`: widths are natural (what the content
    /// uses), heights exact. No allocation: this runs for every row on every width change.
    static func measure<Texts: TextSizing>(_ i: Int, width: Double, steps: UnsafePointer<Step>, texts: Texts) -> Size {
        // A background does not change its child's size: skip it without a call.
        var i = i
        while steps[i].kind == .background { i += 1 }
        // Fields are read in place (copying a whole step costs more than the few it needs).
        let step = steps + i
        switch step.pointee.kind {
        case .text:
            return texts.size(ofText: Int(step.pointee.payload), maxLines: Int(step.pointee.v0), width: width)
        case .box:
            return Size(width: step.pointee.v0, height: step.pointee.v1)
        case .stack:
            let end = Int(step.pointee.end)
            guard end > i + 1 else { return .zero }
            var count = 0
            var c = i + 1
            while c < end { count += 1; c = Int(steps[c].end) }
            let gaps = step.pointee.v0 * Double(count - 1)
            if step.pointee.flags & Step.horizontal == 0 {
                var size = Size(width: 0, height: gaps)
                c = i + 1
                while c < end {
                    let s = child(c, width: width, steps: steps, texts: texts)
                    size.width = max(size.width, s.width)
                    size.height += s.height
                    c = Int(steps[c].end)
                }
                return size
            }
            let flexible = min(max(0, step.pointee.flags & Step.hasFlexible != 0 ? Int(step.pointee.payload) : count - 1), count - 1)
            var used = gaps, height = 0.0
            var flexibleStep = 0
            c = i + 1
            var k = 0
            while c < end {
                if k == flexible {
                    flexibleStep = c
                } else {
                    let s = child(c, width: max(0, width - used), steps: steps, texts: texts)
                    used += s.width
                    height = max(height, s.height)
                }
                k += 1
                c = Int(steps[c].end)
            }
            let remaining = max(0, width - used)
            let s = child(flexibleStep, width: remaining, steps: steps, texts: texts)
            return Size(width: used + (width.isFinite ? remaining : s.width), height: max(height, s.height))
        case .inset:
            let horizontal = step.pointee.v1 + step.pointee.v3, vertical = step.pointee.v0 + step.pointee.v2
            let inner = child(i + 1, width: max(0, width - horizontal), steps: steps, texts: texts)
            return Size(width: inner.width + horizontal, height: inner.height + vertical)
        case .sized:
            let f = step.pointee.flags
            let fixed = fixedWidth(step.pointee.v0, available: width)
            let inner = child(i + 1, width: f & Step.hasWidth != 0 ? fixed : width, steps: steps, texts: texts)
            var size = Size(width: f & Step.hasWidth != 0 ? fixed : inner.width, height: f & Step.hasHeight != 0 ? step.pointee.v1 : inner.height)
            if f & Step.hasMinWidth != 0, f & Step.hasWidth == 0 { size.width = max(size.width, step.pointee.v2) }
            if f & Step.hasMinHeight != 0, f & Step.hasHeight == 0 { size.height = max(size.height, step.pointee.v3) }
            return size
        case .sideBySide:
            let second = Int(steps[i + 1].end)
            if let single = sideBySideSizes(i, width: width, steps: steps, texts: texts) {
                return Size(width: single.0.width + step.pointee.v0 + single.1.width, height: max(single.0.height, single.1.height))
            }
            let a = child(i + 1, width: width, steps: steps, texts: texts)
            let b = child(second, width: width, steps: steps, texts: texts)
            return Size(width: max(a.width, b.width), height: a.height + step.pointee.v1 + b.height)
        case .frames:
            var size = Size.zero
            var c = i + 1
            let end = Int(step.pointee.end)
            while c < end {
                let frame = steps[c]
                let frameWidth = framedWidth(frame, available: width)
                let height = frame.flags & Step.hasHeight != 0 ? frame.v3 : child(c + 1, width: frameWidth, steps: steps, texts: texts).height
                size.width = max(size.width, frame.v0 + frameWidth)
                size.height = max(size.height, frame.v1 + height)
                c = Int(frame.end)
            }
            return size
        case .frame, .background:
            return child(i + 1, width: width, steps: steps, texts: texts)
        }
    }

    /// Size of child step `c`: a text is sized here, without a call (most children are texts);
    /// anything else by ``measure(_:width:steps:texts:)``.
    @inline(__always)
    static func child<Texts: TextSizing>(_ c: Int, width: Double, steps: UnsafePointer<Step>, texts: Texts) -> Size {
        let step = steps + c
        if step.pointee.kind == .text {
            return texts.size(ofText: Int(step.pointee.payload), maxLines: Int(step.pointee.v0), width: width)
        }
        return measure(c, width: width, steps: steps, texts: texts)
    }

    /// Natural single-line sizes of both children of side-by-side step `i` when they fit side
    /// by side in `width`.
    static func sideBySideSizes<Texts: TextSizing>(_ i: Int, width: Double, steps: UnsafePointer<Step>, texts: Texts) -> (Size, Size)? {
        let a = child(i + 1, width: .infinity, steps: steps, texts: texts)
        let b = child(Int(steps[i + 1].end), width: .infinity, steps: steps, texts: texts)
        return a.width + steps[i].v0 + b.width <= width ? (a, b) : nil
    }
}

extension CompiledLayout {
    /// A text element's string for `row`: its field (numbers printed as `FieldValue` prints
    /// them; missing fields empty) or literal, trimmed when the element says so.
    static func string(_ element: TextElement, _ row: RowData) -> String {
        var string: String
        switch element.source {
        case .field(let name): string = row[name]?.description ?? ""
        case .literal(let text): string = text
        }
        if element.trimmed { string = trimmed(string) }
        return string
    }

    /// White space and newlines removed from both ends.
    static func trimmed(_ text: String) -> String {
        // Both ends certainly not white space (the common case, whatever the script): nothing
        // to trim, no property lookups (they cost ~1,000 instructions a text).
        let utf8 = text.utf8
        if let first = utf8.first, Self.startsNonWhitespace(first) {
            var end = utf8.index(before: utf8.endIndex)
            var steps = 0
            while utf8[end] & 0xC0 == 0x80 && end > utf8.startIndex && steps < 3 {
                end = utf8.index(before: end)
                steps += 1
            }
            if Self.startsNonWhitespace(utf8[end]) { return text }
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    /// Whether the scalar whose UTF-8 encoding starts with `lead` is certainly not white space:
    /// printable ASCII, or a lead byte none of the White_Space scalars above ASCII starts with
    /// (U+0085 and U+00A0: C2; U+1680: E1; U+2000–U+200A, U+2028, U+2029, U+202F, U+205F: E2;
    /// U+3000: E3). A continuation byte (a malformed end) is not certain.
    @inline(__always) static func startsNonWhitespace(_ lead: UInt8) -> Bool {
        (lead > 0x20 && lead < 0x7F) || (lead >= 0xC3 && lead != 0xE1 && lead != 0xE2 && lead != 0xE3)
    }

    /// How a text element is named in errors.
    static func describe(_ source: TextSource) -> String {
        switch source {
        case .field(let name): return "text field '\(name)'"
        case .literal(let text): return "text '\(text.prefix(20))'"
        }
    }

    /// Size of a text from its measure at `width`, as a text element sizes: the natural width,
    /// never more than the available one.
    @inline(__always) static func textSize(_ m: TextMeasure, width: Double) -> Size {
        Size(width: min(width, m.maxLineWidth), height: m.height)
    }
}
