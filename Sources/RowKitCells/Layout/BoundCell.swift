import RowKitText

/// What can go wrong binding, measuring or arranging a cell.
public enum CellError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A text could not be prepared (bad style numbers, unreadable font file…).
    case text(element: String, TextError)
    /// A width or size that is NaN, negative or absurd.
    case invalidWidth(Double)
    /// A layout declared in Swift with a length that is NaN, infinite or (for sizes, insets,
    /// spacings) negative, a line limit below 1, or a color component that is not a finite
    /// number: `element` names it, `message` says what
    /// (the YAML readers refuse the same at their place in the file).
    case invalidLayout(element: String, String)

    /// The message, naming the element or the width.
    public var description: String {
        switch self {
        case .text(let element, let error): return "\(element): \(error)"
        case .invalidWidth(let width): return "invalid cell width \(width): must be a number in [0, 100000]"
        case .invalidLayout(let element, let message): return "invalid cell layout: \(element): \(message)"
        }
    }
}

/// A cell layout bound to one row: its texts prepared (shaped once, glyphs kept), ready to be
/// measured and arranged at any width — the drawing form of a row. A value; safe to make and
/// use on any thread.
///
/// Measuring goes through the same compiled steps as the row's compact form
/// (``CompiledLayout/metrics(for:fonts:cache:)``), so both give the same height at every
/// width; arranging places every element with the sizes that measuring computes.
public struct BoundCell: Sendable {
    /// Everything in one box, so that copying a bound cell is one retain.
    private final class Storage: Sendable {
        let compiled: CompiledLayout
        let row: RowData
        let texts: [PreparedText?]
        init(compiled: CompiledLayout, row: RowData, texts: [PreparedText?]) {
            self.compiled = compiled
            self.row = row
            self.texts = texts
        }
    }
    private let storage: Storage

    /// The layout this cell was bound from.
    public var layout: CellLayout { storage.compiled.layout }
    /// The row's data.
    public var row: RowData { storage.row }
    /// The compiled layout this cell measures and arranges with.
    public var compiled: CompiledLayout { storage.compiled }

    /// Binds `layout` to `row`, preparing every text element (the layout is compiled first;
    /// to bind many rows, compile once and use ``CompiledLayout/bind(_:fonts:cache:)``).
    public init(_ layout: CellLayout, row: RowData, fonts: FontLibrary = .shared, cache: ShapeCache = .shared) throws(CellError) {
        try self.init(CompiledLayout(layout), row: row, fonts: fonts, cache: cache)
    }

    init(_ compiled: CompiledLayout, row: RowData, fonts: FontLibrary, cache: ShapeCache) throws(CellError) {
        if let problem = compiled.layoutProblem() { throw problem }
        var texts: [PreparedText?] = []
        texts.reserveCapacity(compiled.texts.count)
        for element in compiled.texts {
            let string = CompiledLayout.string(element, row)
            guard !string.isEmpty else { texts.append(nil); continue }
            do {
                texts.append(try PreparedText(string, style: element.appearance.style, fonts: fonts, cache: cache))
            } catch {
                throw .text(element: CompiledLayout.describe(element.source), error)
            }
        }
        storage = Storage(compiled: compiled, row: row, texts: texts)
    }

    /// The cell's size at `width`: the width is the given one, the height follows the content.
    public func measure(width: Double) throws(CellError) -> Size {
        try Self.check(width)
        return Size(width: width, height: storage.compiled.measure(width: width, texts: PreparedSizes(storage)).height)
    }

    /// Every element's frame at `width`, in drawing order (backgrounds first).
    public func arrange(width: Double) throws(CellError) -> CellArrangement {
        try Self.check(width)
        let compiled = storage.compiled
        let texts = PreparedSizes(storage)
        let height = compiled.measure(width: width, texts: texts).height
        var arranger = Arranger(compiled: compiled, texts: storage.texts, sizes: texts, row: storage.row)
        // Nothing a cell holds draws outside it: fixed frames and columns wider than a narrow
        // cell are clipped at its edges.
        let bounds = Rect(x: 0, y: 0, width: width, height: height)
        withExtendedLifetime(compiled) {
            arranger.arrange(0, in: bounds, clip: bounds, steps: UnsafePointer(compiled.stepBuffer.baseAddress!))
        }
        return CellArrangement(size: Size(width: width, height: height), elements: arranger.elements)
    }

    /// Approximate bytes held by the cell's prepared texts (shared shaped runs not counted).
    public var byteCount: Int { 64 + storage.texts.reduce(0) { $0 + ($1?.byteCount ?? 0) } }

    static func check(_ width: Double) throws(CellError) {
        guard width.isFinite, width >= 0, width <= 100_000 else { throw .invalidWidth(width) }
    }

    /// Text sizes from the prepared texts (their measuring form: no lines are built).
    private struct PreparedSizes: TextSizing {
        let storage: Storage
        init(_ storage: Storage) { self.storage = storage }
        func size(ofText slot: Int, maxLines: Int, width: Double) -> Size {
            guard let prepared = storage.texts[slot], !width.isNaN, width >= 0 else { return .zero }
            return CompiledLayout.textSize(prepared.measureUnchecked(width: width, maxLines: maxLines), width: width)
        }
    }
}

/// A cell's elements placed at a width: what drawing draws.
public struct CellArrangement: Sendable {
    /// The cell's size: the width it was arranged at and its measured height.
    public let size: Size
    /// Every element in drawing order (backgrounds before what they are behind), frames
    /// relative to the cell's top left.
    public let elements: [ArrangedElement]
}

/// One placed element.
public struct ArrangedElement: Sendable {
    /// What an element draws.
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
    /// Where the element is, relative to the cell's top left. A text's frame is as tall as
    /// its layout; a line-limited text's line may be wider than the frame (then `clip` keeps it
    /// inside the frame's sides).
    public let frame: Rect
    /// What the element draws.
    public let kind: Kind
    /// Drawing is clipped to this rectangle (fixed frames and fixed sizes clip their content).
    public let clip: Rect?
}

/// A box's content with image names taken from the row.
public enum ResolvedBoxContent: Sendable, Hashable {
    /// Nothing: an empty box, or an image field the row does not have.
    case empty
    /// A solid color.
    case color(Color)
    /// The image of this name (drawn by RowKitDraw's `ImageStore`).
    case image(String)
}

