import Dispatch
import Foundation
import Synchronization

/// The threads that measure `rowkit heights`' rows, batch after batch: the calling thread and
/// `threadCount - 1` helpers that live as long as the pool.
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
final class MeasuringPool: @unchecked Sendable {
    /// Threads measuring, the caller included.
    let threadCount: Int
    /// Rows claimed at a time (~0.5 ms of work: the lock is taken rarely, and a batch's last
    /// piece leaves the other cores idle for little).
    static let pieceRows = 8

    private let wake: [DispatchSemaphore]
    private let finished = DispatchSemaphore(value: 0)
    /// The current batch's body (set before the helpers are woken, read by them only while it runs).
    private var body: ((Int) -> Void)?
    private var stopping = false
    /// Per thread, the unclaimed part of its share of the current batch.
    private let parts: Mutex<[Range<Int>]>

    /// A pool of `threadCount` measuring threads (at least 1), the caller of `run(count:_:)` being one.
    init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        wake = (1..<self.threadCount).map { _ in DispatchSemaphore(value: 0) }
        parts = Mutex(Array(repeating: 0..<0, count: self.threadCount))
        for helper in 1..<self.threadCount {
            let thread = Thread { [unowned(unsafe) self] in self.helperLoop(helper) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Ends the helper threads (after the current batch, if any). Call it once the pool is no
    /// longer needed (the helpers hold the pool unretained); calling it again does nothing.
    func shutdown() {
        guard !stopping else { return }
        stopping = true
        for semaphore in wake { semaphore.signal() }
        for _ in wake { finished.wait() }
    }

    private func helperLoop(_ worker: Int) {
        while true {
            wake[worker - 1].wait()
            if stopping { finished.signal(); return }
            work(worker)
            finished.signal()
        }
    }

    /// Calls `body(k)` once for every `k` in `0..<count`, on all the pool's threads, and returns
    /// when all calls have returned. Thread `t` starts at the front of the `t`-th of
    /// `threadCount` equal parts of `0..<count`.
    func run(count: Int, _ body: @escaping (Int) -> Void) {
        guard count > 0 else { return }
        let share = (count + threadCount - 1) / threadCount
        parts.withLock { parts in
            for t in 0..<threadCount { parts[t] = min(count, t * share)..<min(count, (t + 1) * share) }
        }
        self.body = body
        for semaphore in wake { semaphore.signal() }
        work(0)
        for _ in wake { finished.wait() }
        self.body = nil
    }

    private func work(_ worker: Int) {
        guard let body else { return }
        while let piece = claim(worker) {
            for k in piece { body(k) }
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
