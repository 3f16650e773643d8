import RowKitText

/// A row's compact measuring form: its texts' measuring forms (`TextMetrics` in RowKitText) packed in one
/// allocation with a reference to the template's ``CompiledLayout`` — what a list keeps per
/// row to know its height at any width, a few hundred bytes for a typical cell.
///
/// Made by ``CompiledLayout/metrics(for:fonts:cache:)`` without keeping any glyphs; its
/// height at every width equals the height of the row's drawing form
/// (``CompiledLayout/bind(_:fonts:cache:)``). A value; safe to use on any thread.
public struct CellMetrics: Sendable {
    struct Header {
        /// Keeps the compiled layout, and so its steps, alive. (Its steps are found through it,
        /// read without reference counting, ``steps(_:)``: a pointer of their own would cost
        /// 8 bytes per row, a million rows' worth of them 8 MB.)
        let compiled: CompiledLayout

        /// The compiled steps of the header at `header`, without retaining the layout.
        @inline(__always)
        static func steps(_ header: UnsafeMutablePointer<Header>) -> UnsafePointer<CompiledLayout.Step> {
            UnsafeRawPointer(header).load(as: Unmanaged<CompiledLayout>.self)._withUnsafeGuaranteedRef {
                UnsafePointer($0.stepBuffer.baseAddress!)
            }
        }
    }

    /// The header, then one Int32 offset per text slot (−1 for an empty text), then the texts'
    /// measuring forms split in two: every text's hot part (what measuring reads at a width
    /// where every word fits: header, widths, codes, trail) one after another, then every
    /// text's cold part (`MetricsBlock`'s layout). A width change at a million rows reads the
    /// few contiguous cache lines at the front of each row's one allocation, not ~800 bytes
    /// with the cold parts in between (`hotByteCount` says how many).
    final class Storage: ManagedBuffer<Header, UInt64> {}

    nonisolated(unsafe) let storage: Storage

    /// A text's measuring form about to be packed: where it lies and its parts' sizes
    /// (`base` nil: an empty text).
    struct Placed {
        var base: UnsafeRawPointer?
        var hot = 0, cold = 0
    }

    /// Packs the measuring forms `placed` lists (one per text slot) into one allocation.
    init(compiled: CompiledLayout, placed: UnsafeBufferPointer<Placed>) {
        let slots = placed.count
        let table = (4 * slots + 7) & ~7
        var hot = table, cold = 0
        for text in placed where text.base != nil {
            hot += text.hot
            cold += text.cold
        }
        let size = hot + cold
        let words = max(1, size / 8)
        storage = Storage.create(minimumCapacity: words) { _ in
            Header(compiled: compiled)
        } as! Storage
        storage.withUnsafeMutablePointerToElements { base in
            base.initialize(repeating: 0, count: words)
            let raw = UnsafeMutableRawPointer(base)
            var hotAt = table, coldAt = hot
            for k in 0..<slots {
                guard let block = placed[k].base else {
                    raw.storeBytes(of: -1, toByteOffset: 4 * k, as: Int32.self)
                    continue
                }
                raw.storeBytes(of: Int32(hotAt), toByteOffset: 4 * k, as: Int32.self)
                TextMetrics.copyBlock(at: block, hotTo: raw + hotAt, coldTo: raw + coldAt)
                hotAt += placed[k].hot
                coldAt += placed[k].cold
            }
        }
    }

    /// Bytes at the front of the row's elements that measuring reads in the common case: the
    /// slot table and the texts' hot parts.
    var hotByteCount: Int {
        storage.withUnsafeMutablePointers { header, base in
            let raw = UnsafeRawPointer(base)
            var end = (4 * header.pointee.compiled.textCount + 7) & ~7
            for slot in 0..<header.pointee.compiled.textCount {
                let offset = Int(raw.load(fromByteOffset: 4 * slot, as: Int32.self))
                if offset >= 0 { end = max(end, offset + TextMetrics.blockParts(at: raw + offset).hot) }
            }
            return end
        }
    }

    /// The compiled layout the row measures with.
    public var compiled: CompiledLayout { storage.header.compiled }

    /// The row's height at `width` (pixels, finite, 0...100000) — exactly the height of its
    /// drawing form, ``BoundCell/measure(width:)``. Pure and allocation-free: a list calls it
    /// for every row when its width changes.
    @inline(__always)
    public func height(width: Double) throws(CellError) -> Double {
        try BoundCell.check(width)
        return storage.withUnsafeMutablePointers { header, base in
            CompiledLayout.measure(0, width: width, steps: Header.steps(header), texts: BlockSizes(base: UnsafeRawPointer(base))).height
        }
    }

    /// The row's size at `width`, as ``BoundCell/measure(width:)`` gives it.
    public func measure(width: Double) throws(CellError) -> Size {
        Size(width: width, height: try height(width: width))
    }

    /// Bytes held: this value and its one heap block (header, offsets, texts' measuring forms).
    /// The compiled layout is shared by every row of the template and not counted.
    public var byteCount: Int {
        let head = (16 + MemoryLayout<Header>.size + 7) & ~7
        return MemoryLayout<CellMetrics>.size + head + storage.capacity * 8 + 8
    }

    /// Text sizes from the packed measuring forms.
    struct BlockSizes: TextSizing {
        let base: UnsafeRawPointer

        @inline(__always)
        func size(ofText slot: Int, maxLines: Int, width: Double) -> Size {
            let offset = base.load(fromByteOffset: 4 * slot, as: Int32.self)
            guard offset >= 0, !width.isNaN, width >= 0 else { return .zero }
            return CompiledLayout.textSize(TextMetrics.measureBlock(at: base + Int(offset), width: width, maxLines: maxLines), width: width)
        }
    }
}

extension CompiledLayout {
    /// The compact measuring form of `row`: each text element prepared for measuring only (no
    /// glyphs kept), packed with this layout. What a list computes for every row. Throws when
    /// a text cannot be prepared (bad style numbers, unreadable font file), naming the element,
    /// and for a layout that cannot be measured (``CellError/invalidLayout(element:_:)``).
    public func metrics(for row: RowData, fonts: FontLibrary = .shared, cache: ShapeCache = .shared) throws(CellError) -> CellMetrics {
        if let problem = layoutProblem() { throw problem }
        // Each text's measuring form is written into memory the thread reuses and copied once
        // into the row's allocation (a heap block per text, made and freed, cost this function
        // ~1% of its instructions: docs/DESIGN.md).
        return try TextMetrics.withBlocks { (blocks) throws(CellError) -> CellMetrics in
            let slots = texts.count
            return try withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, slots)) { (starts) throws(CellError) -> CellMetrics in
                for (k, element) in texts.enumerated() {
                    let string = Self.string(element, row)
                    guard !string.isEmpty else { starts[k] = -1; continue }
                    do throws(TextError) {
                        starts[k] = try blocks.append(string, style: element.appearance.style, fonts: fonts, cache: cache)
                    } catch {
                        throw .text(element: Self.describe(element.source), error)
                    }
                }
                // Pointers only now: appending may move the memory.
                return withUnsafeTemporaryAllocation(of: CellMetrics.Placed.self, capacity: max(1, slots)) { placed in
                    for k in 0..<slots {
                        guard starts[k] >= 0 else { (placed.baseAddress! + k).initialize(to: CellMetrics.Placed()); continue }
                        let base = blocks.base(starts[k])
                        let parts = TextMetrics.blockParts(at: base)
                        (placed.baseAddress! + k).initialize(to: CellMetrics.Placed(base: base, hot: parts.hot, cold: parts.cold))
                    }
                    return CellMetrics(compiled: self, placed: UnsafeBufferPointer(start: placed.baseAddress, count: slots))
                }
            }
        }
    }

    /// The drawing form of `row`: its texts prepared with their glyphs, ready to be measured,
    /// arranged and drawn.
    public func bind(_ row: RowData, fonts: FontLibrary = .shared, cache: ShapeCache = .shared) throws(CellError) -> BoundCell {
        try BoundCell(self, row: row, fonts: fonts, cache: cache)
    }
}

extension CellMetrics {
    /// The one heap object this value is, for containers that keep measuring forms as object
    /// references (a list keeps one per row): no box, no copy.
    public var object: AnyObject { storage }

    /// The height at `width` of the metrics whose ``object`` is `object`, without making the
    /// value (no reference counting: a list re-measuring a million rows calls it per row).
    /// Unchecked: `object` must come from ``object``.
    @inline(__always)
    public static func height(ofObject object: AnyObject, width: Double) throws(CellError) -> Double {
        try BoundCell.check(width)
        return unsafeDowncast(object, to: Storage.self).withUnsafeMutablePointers { header, base in
            CompiledLayout.measure(0, width: width, steps: Header.steps(header), texts: BlockSizes(base: UnsafeRawPointer(base))).height
        }
    }

    /// The metrics whose ``object`` is `object`. Unchecked: `object` must come from ``object``.
    public init(unsafeObject object: AnyObject) {
        storage = unsafeDowncast(object, to: Storage.self)
    }
}
