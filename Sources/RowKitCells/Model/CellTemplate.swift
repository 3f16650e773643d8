import RowKitText

/// A named cell layout bound to rows by field name, with sample rows that show its behaviour.
///
/// Declare one in Swift with the ``CellLayoutBuilder`` DSL or load one from YAML
/// (`CellTemplate(contentsOf:stylesheet:)`); both produce the same ``CellLayout`` value.
public struct CellTemplate: Sendable {
    /// The reuse identifier: cells of one template are interchangeable.
    public var name: String
    /// The layout every row of this template uses.
    public var layout: CellLayout
    /// Rows to render when no data is given.
    public var samples: [RowData]
    /// What loading the template's YAML found that works but is probably not meant (a font
    /// family that is not installed), from its own and the given stylesheet, with file and line.
    /// Empty for templates declared in Swift.
    public var warnings: [StyleWarning] = []
    /// The stylesheet file the template's YAML names with `stylesheet:`, as read (relative to the
    /// template's folder), so a program can treat it as one of its inputs; nil when it names none.
    public var stylesheetFile: String?

    /// A template named `name` (its reuse identifier) with `layout` and sample rows.
    public init(name: String, layout: CellLayout, samples: [RowData] = []) {
        self.name = name
        self.layout = layout
        self.samples = samples
    }

    /// A template declared with the layout DSL.
    public init(name: String, samples: [RowData] = [], @CellLayoutBuilder layout: () -> CellLayout) {
        self.init(name: name, layout: layout(), samples: samples)
    }

    /// Binds the template to a row (prepares its texts). Compiles the layout each time: to
    /// bind or measure many rows, ``compile()`` once and use the compiled layout.
    public func bind(_ row: RowData, fonts: FontLibrary = .shared, cache: ShapeCache = .shared) throws(CellError) -> BoundCell {
        try BoundCell(layout, row: row, fonts: fonts, cache: cache)
    }

    /// The layout compiled into flat measuring steps, to keep and share: it makes each row's
    /// compact measuring form (``CompiledLayout/metrics(for:fonts:cache:)``) and drawing form
    /// (``CompiledLayout/bind(_:fonts:cache:)``).
    public func compile() -> CompiledLayout { CompiledLayout(layout) }
}

/// The list-building half of the layout DSL's result builders: expressions, blocks, `if`,
/// `if`/`else` and `for` all collect children into one array.
public protocol CellListBuilding {}

extension CellListBuilding {
    /// One child as a list of one.
    public static func buildExpression(_ layout: CellLayout) -> [CellLayout] { [layout] }
    /// The children of consecutive statements, in order.
    public static func buildBlock(_ parts: [CellLayout]...) -> [CellLayout] { parts.flatMap { $0 } }
    /// The children of an `if` without `else`: none when the condition is false.
    public static func buildOptional(_ part: [CellLayout]?) -> [CellLayout] { part ?? [] }
    /// The children of an `if`/`else`'s first branch.
    public static func buildEither(first: [CellLayout]) -> [CellLayout] { first }
    /// The children of an `if`/`else`'s second branch.
    public static func buildEither(second: [CellLayout]) -> [CellLayout] { second }
    /// The children of a `for` loop's iterations, in order.
    public static func buildArray(_ parts: [[CellLayout]]) -> [CellLayout] { parts.flatMap { $0 } }
}

/// Builds a ``CellLayout`` from a list of children: one child is itself, several become a
/// vertical stack without spacing.
@resultBuilder
public enum CellLayoutBuilder: CellListBuilding {
    /// One child as itself, several as a vertical stack without spacing.
    public static func buildFinalResult(_ parts: [CellLayout]) -> CellLayout {
        parts.count == 1 ? parts[0] : .stack(StackElement(.vertical, children: parts))
    }
}

/// Builds a list of children for stacks and frames.
@resultBuilder
public enum CellChildrenBuilder: CellListBuilding {}

// MARK: DSL

extension CellLayout {
    /// Text from a row field.
    public static func text(field: String, _ appearance: TextAppearance, maxLines: Int? = nil, trimmed: Bool = true) -> CellLayout {
        .text(TextElement(.field(field), appearance: appearance, maxLines: maxLines, trimmed: trimmed))
    }

    /// Fixed text.
    public static func text(_ literal: String, _ appearance: TextAppearance, maxLines: Int? = nil) -> CellLayout {
        .text(TextElement(.literal(literal), appearance: appearance, maxLines: maxLines))
    }

    /// A fixed-size image whose name is in a row field.
    public static func image(field: String, width: Double, height: Double) -> CellLayout {
        .box(BoxElement(width: width, height: height, content: .image(.field(field))))
    }

    /// Children top to bottom.
    public static func vstack(spacing: Double = 0, alignment: StackElement.Alignment = .start,
                              @CellChildrenBuilder _ children: () -> [CellLayout]) -> CellLayout {
        .stack(StackElement(.vertical, spacing: spacing, alignment: alignment, children: children()))
    }

    /// Children left to right; `flexible` takes the width the others leave (default: the last).
    public static func hstack(spacing: Double = 0, alignment: StackElement.Alignment = .start, flexible: Int? = nil,
                              @CellChildrenBuilder _ children: () -> [CellLayout]) -> CellLayout {
        .stack(StackElement(.horizontal, spacing: spacing, alignment: alignment, flexible: flexible, children: children()))
    }

    /// This layout with padding around it.
    public func padding(_ insets: Insets) -> CellLayout { .inset(insets, self) }

    /// This layout with size limits.
    public func size(width: Double? = nil, height: Double? = nil, minWidth: Double? = nil, minHeight: Double? = nil,
                     verticalAlignment: StackElement.Alignment = .start) -> CellLayout {
        .sized(SizeConstraint(width: width, height: height, minWidth: minWidth, minHeight: minHeight, verticalAlignment: verticalAlignment), self)
    }

    /// This layout over a background.
    public func background(_ background: Background) -> CellLayout { .background(background, self) }
}
