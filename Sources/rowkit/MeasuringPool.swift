import Foundation
import RowKitList
import Synchronization

/// How `rowkit heights` shares each batch's rows among the measuring threads: the process's
/// ``WorkerThreads/shared`` (the calling thread and one helper per other core, the same threads
/// for every batch — the list engine measures on them too).
///
/// Why not `DispatchQueue.concurrentPerform`: the text engine keeps its caches per thread (word
/// cache, font choices), and the dispatch pool's helper threads come and go — an idle worker
/// exits and a new one starts with empty caches, so a million rows were prepared by a dozen
/// threads, each warming its own caches. Here the same threads measure every batch.
///
/// Work is split so that each thread meets fewer scripts: the batch arrives sorted by script
/// (`Heights.scriptKey`), each thread takes pieces from the front of its own part, and a
/// thread whose part is done takes pieces from the back of the part with the most left (so the
/// cores never idle while work remains, and a stolen piece is as far as possible from the owner's
/// current script). Each thread's word cache then holds about its share of the vocabularies.
final class MeasuringPool: Sendable {
    /// Rows claimed at a time (~0.5 ms of work: the lock is taken rarely, and a batch's last
    /// piece leaves the other cores idle for little).
    static let pieceRows = 8

    private let threads: WorkerThreads
    /// Whether `threads` are the pool's own (ended by `shutdown()`), not the shared ones.
    private let ownsThreads: Bool
    /// Per thread, the unclaimed part of its share of the current batch.
    private let parts: Mutex<[Range<Int>]>

    /// Measures on the process's shared threads (the caller of `run(count:_:)` being one of them).
    convenience init() {
        self.init(threads: .shared, owned: false)
    }

    /// Measures on `threadCount` threads of its own (at least 1, the caller of `run(count:_:)`
    /// being one), ended by `shutdown()`.
    convenience init(threadCount: Int) {
        self.init(threads: WorkerThreads(threadCount: threadCount), owned: true)
    }

    private init(threads: WorkerThreads, owned: Bool) {
        self.threads = threads
        ownsThreads = owned
        parts = Mutex(Array(repeating: 0..<0, count: threads.threadCount))
    }

    /// Ends the pool's own helper threads (the shared ones stay); calling it again does nothing.
    func shutdown() {
        if ownsThreads { threads.shutdown() }
    }

    /// Threads measuring, the caller included.
    var threadCount: Int { threads.threadCount }

    /// Calls `body(k)` once for every `k` in `0..<count`, on all the pool's threads, and returns
    /// when all calls have returned. Thread `t` starts at the front of the `t`-th of
    /// `threadCount` equal parts of `0..<count` (thread 0, the caller, takes every part left
    /// when the helpers are busy with other work).
    func run(count: Int, _ body: (Int) -> Void) {
        guard count > 0 else { return }
        let threadCount = self.threadCount
        let share = (count + threadCount - 1) / threadCount
        parts.withLock { parts in
            for t in 0..<threadCount { parts[t] = min(count, t * share)..<min(count, (t + 1) * share) }
        }
        threads.run { worker in
            while let piece = claim(worker) {
                for k in piece { body(k) }
            }
        }
    }

    /// The next piece for `worker`: from the front of its own part, or else from the back of
    /// the part with the most left; nil when nothing is left.
    private func claim(_ worker: Int) -> Range<Int>? {
        parts.withLock { parts in
            let own = parts[worker]
            if !own.isEmpty {
                let end = min(own.upperBound, own.lowerBound + Self.pieceRows)
                parts[worker] = end..<own.upperBound
                return own.lowerBound..<end
            }
            var fullest = -1
            for t in parts.indices where !parts[t].isEmpty && (fullest < 0 || parts[t].count > parts[fullest].count) { fullest = t }
            guard fullest >= 0 else { return nil }
            let other = parts[fullest]
            let start = max(other.lowerBound, other.upperBound - Self.pieceRows)
            parts[fullest] = other.lowerBound..<start
            return start..<other.upperBound
        }
    }
}
