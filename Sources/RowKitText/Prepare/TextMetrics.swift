/// The compact measuring form of a text: what measuring it at any width needs — segment widths,
/// break flags and, for the rare breaks inside words, one byte per UTF-16 unit — and nothing
/// else (no glyphs, fonts or string). A paragraph of 25 words takes a few hundred bytes.
///
/// Measuring gives exactly what ``PreparedText`` gives for the same text and style (it is the
/// same form: ``PreparedText/metrics``), so a list can keep one `TextMetrics` per row for a
/// million rows, re-measure them all when its width changes, and prepare the full
/// ``PreparedText`` (glyphs) only for the rows it draws. A value; safe to use on any thread.
public struct TextMetrics: Sendable {
    /// The block (``MetricsBlock``) in one allocation.
    final class Storage: ManagedBuffer<Int, UInt64> {
        @inline(__always) var view: MetricsBlock.View {
            MetricsBlock.View(UnsafeRawPointer(withUnsafeMutablePointerToElements { $0 }))
        }

        static func make(byteCount: Int, _ write: (UnsafeMutableRawPointer) -> Void) -> Storage {
            let words = max(1, byteCount / 8)
            let storage = Storage.create(minimumCapacity: words) { _ in byteCount } as! Storage
            storage.withUnsafeMutablePointerToElements { base in
                base.initialize(repeating: 0, count: words)
                write(UnsafeMutableRawPointer(base))
            }
            return storage
        }
    }

    nonisolated(unsafe) let storage: Storage

    /// Prepares `text` in `style` for measuring only: the same analysis and shaping as
    /// ``PreparedText`` (through the same shape cache), keeping only the measuring form.
    /// Throws as ``PreparedText/init(_:style:fonts:cache:)`` does.
    public init(_ text: String, style: TextStyle = TextStyle(),
                fonts: FontLibrary = .shared, cache: ShapeCache = .shared) throws(TextError) {
        self.storage = try Preparation.prepare(text, style: style, fonts: fonts, cache: cache, keepRuns: false) { _, input, planner in
            planner.plan(input)
            return Storage.make(byteCount: planner.byteCount) { planner.write(input, to: $0) }
        }
    }

    /// Measuring forms written one after another into memory reused from call to call on a
    /// thread (``withBlocks(_:)``), to be packed into one allocation — a list's row of several
    /// texts — without a heap block per text.
    package struct Blocks: ~Copyable {
        fileprivate var buffer: RawBuffer<UInt64>

        /// Prepares `text` as ``TextMetrics/init(_:style:fonts:cache:)`` does and writes its
        /// measuring form after the ones before; returns where it starts (for ``base(_:)``).
        /// Throws as the initializer does.
        package mutating func append(_ text: String, style: TextStyle, fonts: FontLibrary, cache: ShapeCache) throws(TextError) -> Int {
            try Preparation.prepare(text, style: style, fonts: fonts, cache: cache, keepRuns: false) { _, input, planner in
                planner.plan(input)
                let start = buffer.count
                // Zeroed, as a heap block is: the writer leaves padding alone.
                let words = (planner.byteCount + 7) / 8
                buffer.append(repeating: 0, count: max(1, words))
                planner.write(input, to: UnsafeMutableRawPointer(buffer.base! + start))
                return start
            }
        }

        /// The measuring form appended at `start`: valid until the next append or the end of
        /// ``TextMetrics/withBlocks(_:)``.
        package func base(_ start: Int) -> UnsafeRawPointer { UnsafeRawPointer(buffer.base! + start) }
    }

    /// Calls `body` with this thread's ``Blocks``, empty (a nested call gets memory of its own).
    package static func withBlocks<R, E: Error>(_ body: (inout Blocks) throws(E) -> R) throws(E) -> R {
        let scratch = PrepareScratch.current
        guard let kept = scratch.blocks else {
            var blocks = Blocks(buffer: RawBuffer())
            defer { blocks.buffer.deallocate() }
            return try body(&blocks)
        }
        var blocks = Blocks(buffer: kept)
        scratch.blocks = nil
        defer {
            blocks.buffer.removeAll()
            scratch.blocks = blocks.buffer
        }
        return try body(&blocks)
    }

    /// A copy of the block `view` reads.
    init(copying view: MetricsBlock.View) {
        let bytes = view.byteCount
        storage = Storage.make(byteCount: bytes) { $0.copyMemory(from: view.base, byteCount: bytes) }
    }

    @inline(__always) func withView<R>(_ body: (MetricsBlock.View) -> R) -> R {
        let storage = self.storage
        return withExtendedLifetime(storage) { body(storage.view) }
    }

    /// Distance between baselines, in pixels.
    public var lineHeight: Double { withView { $0.lineHeight } }

    /// Line count, height and widest line at `width` (pixels, ≥ 0; `.infinity` for one line
    /// per paragraph). Throws for a negative or NaN width.
    @inline(__always)
    public func measure(width: Double) throws(TextError) -> TextMeasure {
        try PreparedText.check(width)
        return withView { $0.measure(width: width) }
    }

    /// Line count, height and widest line at `width` with at most `maxLines` lines, the last
    /// one ending in an ellipsis when text was cut — what ``PreparedText/layout(width:maxLines:)``
    /// lays out, measured without building lines.
    public func measure(width: Double, maxLines: Int) throws(TextError) -> TextMeasure {
        try PreparedText.check(width)
        guard maxLines >= 1 else { throw .invalidNumber(name: "maxLines", value: Double(maxLines)) }
        return withView { $0.measure(width: width, maxLines: maxLines) }
    }

    /// Number of lines at `width`.
    public func lineCount(width: Double) throws(TextError) -> Int {
        try PreparedText.check(width)
        return withView { $0.lineCount(width: width) }
    }

    /// Bytes held: the value itself and its one heap block (header and measuring form).
    public var byteCount: Int { MemoryLayout<TextMetrics>.size + heapBytes(storage) }

    /// Bytes of the measuring form alone (what a cell's measuring form embeds).
    package var blockByteCount: Int { withView { $0.byteCount } }

    /// Copies the measuring form to `destination` (8-byte aligned, ``blockByteCount`` bytes).
    package func copyBlock(to destination: UnsafeMutableRawPointer) {
        withView { destination.copyMemory(from: $0.base, byteCount: $0.byteCount) }
    }
}

extension TextMetrics {
    /// Measures the block at `base` (a copy made by ``copyBlock(to:)``) at `width`; with
    /// `maxLines > 0`, as ``measure(width:maxLines:)``. `width` must be checked by the caller.
    @inline(__always)
    package static func measureBlock(at base: UnsafeRawPointer, width: Double, maxLines: Int) -> TextMeasure {
        maxLines > 0 ? measureLimited(at: base, width: width, maxLines: maxLines) : MetricsBlock.View.measure(base, width: width)
    }

    /// The narrowest width from which on ``measureBlock(at:width:maxLines:)`` gives the same
    /// for the block at `base`, with any line limit: its whole text's width, when it is one
    /// line there (0 for an empty text); nil when a forced break or a tab leaves it to the
    /// line loop. (A list keeps such a text's size through width changes without measuring.)
    package static func oneLineWidth(at base: UnsafeRawPointer) -> Double? {
        let view = MetricsBlock.View(base)
        guard view.segmentCount > 0 else { return 0 }
        let single = view.singleLineWidth
        // `.max` marks a text that is never one line by its width alone.
        guard single < Int64.max / 8 else { return nil }
        return pixels(single)
    }

    @inline(never)
    static func measureLimited(at base: UnsafeRawPointer, width: Double, maxLines: Int) -> TextMeasure {
        MetricsBlock.View(base).measure(width: width, maxLines: maxLines)
    }

    /// Bytes of the block at `base`.
    package static func blockByteCount(at base: UnsafeRawPointer) -> Int { MetricsBlock.View(base).byteCount }
}
