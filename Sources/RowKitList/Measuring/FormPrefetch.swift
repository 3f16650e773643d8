import CPrefetch

/// Software prefetch of the measuring forms a width change reads next (the only C call of the
/// engine, CPrefetch: Swift has no prefetch builtin).
///
/// A width change at a million rows measures a million forms, each its own heap object, in
/// no order the hardware prefetcher can follow; without help every row starts with cache
/// misses (its object, then its texts). A measuring form keeps what measuring reads first at
/// its front (cells: the texts' hot parts), so the loop asks for the first `lines` cache lines
/// of the form `distance` rows ahead: in the list benchmark (200,000 rows, 154 MB of forms)
/// that halved the CPU time of a width change (docs/DESIGN.md, "The list"). A hint only:
/// prefetching never faults, and results do not depend on it.
enum FormPrefetch {
    /// How many rows ahead of the one being measured (4–16 measured the same).
    static let distance = 8
    /// Cache lines from the form object's start (512 bytes: a typical cell row's hot part).
    static let lines = 8

    /// Prefetches the first ``lines`` cache lines of `block[i]`'s measuring form, if it has one.
    @inline(__always)
    static func form(_ block: UnsafeBufferPointer<ItemRecord>, _ i: Int) {
        guard let raw = UnsafeRawPointer(block.baseAddress! + i).load(fromByteOffset: ItemRecord.formOffset, as: UnsafeRawPointer?.self)
        else { return }
        var k = 0
        while k < lines {
            rowkit_prefetch(raw + 64 &* k)
            k &+= 1
        }
    }
}
