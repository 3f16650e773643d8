import Dispatch
import Foundation
import RowKitCells

// The measurement scheduler: on-demand, all-at-once and background measuring, and the change log that maps background results to current rows.
extension ListEngine {
    /// Measures the items in `range` that are not measured yet (with the lock held).
    func measure(range: Range<Int>) throws {
        var results: [(Int, Double)] = []
        for index in range where !items[index].measured {
            results.append((index, measurer.height(of: try prepared(at: index), width: _width)))
        }
        let anchor = heights.row(at: _contentOffset) ?? 0
        for (index, height) in results { apply(height, at: index, anchor: anchor) }
    }

    /// Records a measured height, keeping the anchor row (the row at the top of the viewport,
    /// found once per batch of results) in place.
    func apply(_ height: Double, at index: Int, anchor: Int) {
        let delta = heights.setHeight(height, at: index)
        var item = items[index]
        if !item.measured {
            item.measured = true
            items[index] = item
            unmeasured -= 1
        }
        estimates[item.row.template, default: (0, 0)].sum += height
        estimates[item.row.template, default: (0, 0)].count += 1
        if index < anchor && delta != 0 { _contentOffset = max(0, _contentOffset + delta) }
    }

    /// Measures every row not measured yet, on all cores, in chunks; heights become exact.
    /// `progress` is called after each chunk with (measured, total).
    public func measureAll(chunkSize: Int = 4096, progress: ((Int, Int) -> Void)? = nil) throws {
        while true {
            guard let chunk = nextChunk(size: chunkSize) else { return }
            let results = try measureInParallel(chunk.rows)
            applyChunk(chunk, results)
            if let progress { locked { progress(items.count - unmeasured, items.count) } }
        }
    }

    /// A batch of rows to measure outside the lock, with the version it was taken at.
    struct Chunk {
        var version: Int
        var width: Double
        var rows: [(index: Int, row: ListRow, revision: UInt32)]
    }

    func nextChunk(size: Int) -> Chunk? {
        locked {
            guard unmeasured > 0 else { return nil }
            var rows: [(index: Int, row: ListRow, revision: UInt32)] = []
            var scanned = 0
            if measureCursor >= items.count { measureCursor = 0 }
            while rows.count < size && scanned < items.count {
                let end = min(items.count, measureCursor + size)
                items.forEach(in: measureCursor..<end) { index, item in
                    if !item.measured && rows.count < size { rows.append((index, item.row, item.revision)) }
                }
                scanned += end - measureCursor
                measureCursor = end >= items.count ? 0 : end
            }
            guard !rows.isEmpty else { return nil }
            oldestSnapshot = min(oldestSnapshot ?? version, version)
            return Chunk(version: version, width: _width, rows: rows)
        }
    }

    /// Prepares and measures rows on every core (outside the lock).
    func measureInParallel(_ rows: [(index: Int, row: ListRow, revision: UInt32)]) throws -> [Measured] {
        let slots = UnsafeMutableBufferPointer<Measured?>.allocate(capacity: rows.count)
        slots.initialize(repeating: nil)
        defer {
            _ = slots.deinitialize()
            slots.deallocate()
        }
        let failure = FirstError()
        let width = locked { _width }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let per = (rows.count + workers - 1) / workers
        let box = ResultBox(slots)
        let measurer = self.measurer
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let start = w * per, end = min(rows.count, start + per)
            guard start < end else { return }
            for i in start..<end {
                do {
                    let prepared = try measurer.prepare(rows[i].row)
                    box.slots[i] = Measured(prepared: prepared, bytes: measurer.byteCount(of: prepared),
                                            height: measurer.height(of: prepared, width: width))
                } catch {
                    failure.record(error)
                    return
                }
            }
        }
        if let error = failure.error { throw error }
        return slots.map { $0! }
    }

    struct Measured {
        var prepared: Measurer.Prepared
        var bytes: Int
        var height: Double
    }

    final class ResultBox: @unchecked Sendable {
        let slots: UnsafeMutableBufferPointer<Measured?>
        init(_ slots: UnsafeMutableBufferPointer<Measured?>) { self.slots = slots }
    }

    func applyChunk(_ chunk: Chunk, _ results: [Measured]) {
        locked {
            defer { pruneChanges() }
            guard chunk.width == _width else { return }   // width changed meanwhile: measured again later
            let anchor = heights.row(at: _contentOffset) ?? 0
            for (k, entry) in chunk.rows.enumerated() {
                guard let index = currentIndex(of: entry.index, since: chunk.version), index < items.count else { continue }
                let item = items[index]
                guard item.row.id == entry.row.id, item.revision == entry.revision, !item.measured else { continue }
                keep(results[k].prepared, bytes: results[k].bytes, at: index)
                apply(results[k].height, at: index, anchor: anchor)
            }
        }
    }

    /// Where the item that was at `index` at `version` is now, or nil if it was removed or reloaded.
    func currentIndex(of index: Int, since version: Int) -> Int? {
        var i = index
        for (v, change) in changes where v > version {
            switch change {
            case .insert(let at, let count): if at <= i { i += count }
            case .remove(let at): if at == i { return nil } else if at < i { i -= 1 }
            case .invalidate(let at): if at == i { return nil }
            }
        }
        return i
    }

    func log(_ change: Change) {
        version += 1
        if oldestSnapshot != nil { changes.append((version, change)) }
    }

    func pruneChanges() {
        if !backgroundRunning {
            oldestSnapshot = nil
            changes.removeAll()
        }
    }

    /// Measures every unmeasured row on a background queue, chunk by chunk, while the list stays
    /// usable: updates, scrolling and width changes may happen meanwhile. `completion` gets nil
    /// when every row was measured, or the first error.
    public func startBackgroundMeasurement(chunkSize: Int = 4096, completion: @escaping @Sendable (Error?) -> Void) {
        let alreadyRunning = locked { () -> Bool in
            if backgroundRunning { return true }
            backgroundRunning = true
            return false
        }
        guard !alreadyRunning else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            var failure: Error?
            while let chunk = nextChunk(size: chunkSize) {
                do { applyChunk(chunk, try measureInParallel(chunk.rows)) } catch { failure = error; break }
            }
            locked {
                backgroundRunning = false
                pruneChanges()
            }
            completion(failure)
        }
    }

    /// Lays every row out again at `width`: from the prepared rows (no shaping) in parallel; rows
    /// whose prepared form was evicted count with an estimate until measured again. The row at
}


/// Result slots written by concurrent workers, each index by one worker only.
final class SendableSlots: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<Double>
    init(_ slots: UnsafeMutableBufferPointer<Double>) { self.slots = slots }
}

/// The first error any worker hit.
final class FirstError: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var error: Error?
    func record(_ error: Error) {
        lock.lock()
        if self.error == nil { self.error = error }
        lock.unlock()
    }
}
