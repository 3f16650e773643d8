import Dispatch
import Foundation
import Synchronization
import Testing
@testable import RowKitList
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A number per thread, never reused (a `pthread_t`, or a kernel thread id, can be reused once
/// a thread has exited: a dispatch worker that exits and one started later could look alike).
enum ThreadSerial {
    private static let next = Atomic<Int>(1)
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: Int {
        if let value = pthread_getspecific(key) { return Int(bitPattern: value) }
        let serial = next.wrappingAdd(1, ordering: .relaxed).oldValue
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: serial))
        return serial
    }
}

/// A value behind an `NSLock` (a pthread mutex, which ThreadSanitizer sees; it does not see
/// `Synchronization.Mutex`'s futex on Linux).
final class Locked<Value>: @unchecked Sendable {   // `value` is read and written with `lock` held.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// The threads a measurer was called on.
final class ThreadLog: Sendable {
    private let noted = Locked<Set<Int>>([])
    func note() {
        let serial = ThreadSerial.current
        noted.withLock { _ = $0.insert(serial) }
    }
    var count: Int { noted.withLock { $0.count } }
    var serials: Set<Int> { noted.withLock { $0 } }
}

/// About `microseconds` of work (a row whose texts are prepared takes ~10–100 µs).
@inline(never)
func spin(microseconds: Double) {
    let end = ContinuousClock.now + .microseconds(microseconds)
    var x = 0
    while ContinuousClock.now < end { x &+= 1 }
    withExtendedLifetime(x) {}
}

/// The list engine measures on a fixed set of threads (``WorkerThreads/shared``): the caller and
/// one helper per other core, the same for every chunk, however many engines come and go — a
/// measurer's per-thread caches (the text engine's word cache) are then made once per core.
@Suite struct MeasuringThreadsTests {
    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// A cold pass of many chunks, while the dispatch pool runs other work (an app's, or other
    /// tests'), is measured by the caller and the pool's own helpers: at most `cores` threads,
    /// none of them a dispatch thread. With `DispatchQueue.concurrentPerform` a chunk's helpers
    /// were whichever dispatch threads were free — the ones running the other work too — and a
    /// million rows were prepared by three threads or more on two cores.
    @Test func aLongColdPassIsMeasuredByAtMostCoresThreads() throws {
        let measuring = ThreadLog(), dispatched = ThreadLog()
        let measurer = FakeMeasurer(onForm: {
            measuring.note()
            spin(microseconds: 5)
        })
        let rows = (0..<30_000).map { Rows.text("p\($0)", length: $0 % 700) }
        let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 600, measurer: measurer)
        // Measured from a thread of its own, as an app's main thread or a tool's would (not from
        // the test's, which may be one of Swift concurrency's).
        let others = DispatchGroup()
        let finished = DispatchSemaphore(value: 0)
        let caller = Thread {
            try? e.measureAll(chunkSize: 300) { _, _ in
                // Other work on the dispatch pool between chunks.
                for _ in 0..<Self.cores {
                    DispatchQueue.global().async(group: others) {
                        dispatched.note()
                        spin(microseconds: 300)
                    }
                }
            }
            finished.signal()
        }
        caller.start()
        finished.wait()
        others.wait()
        #expect(e.unmeasuredCount == 0)
        #expect(e.allHeights == rows.map { Units.round(FakeMeasurer.height(of: $0, width: 320)) })
        #expect(measuring.count <= Self.cores, "\(measuring.count) threads made measuring forms on \(Self.cores) cores")
        let shared = measuring.serials.intersection(dispatched.serials).count
        #expect(shared == 0, "\(shared) dispatch threads made measuring forms")
    }

    /// Engines that come and go (and measure) do not add threads: forty engines, each measured
    /// cold in parallel chunks and released, are all measured by at most `cores` threads, and
    /// the shared pool has at most `cores − 1` helpers.
    @Test func threadsDoNotAccumulateWhenEnginesComeAndGo() throws {
        let log = ThreadLog()
        let measurer = FakeMeasurer(onForm: {
            log.note()
            spin(microseconds: 5)
        })
        for k in 0..<40 {
            let rows = (0..<1_500).map { Rows.text("e\(k)r\($0)", length: ($0 * 7) % 900) }
            let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 600, measurer: measurer)
            try e.measureAll(chunkSize: 512)
            #expect(e.unmeasuredCount == 0)
        }
        #expect(log.count <= Self.cores, "\(log.count) threads measured 40 engines on \(Self.cores) cores")
        #expect(WorkerThreads.shared.helpersAlive <= Self.cores - 1)
    }

    /// Every index once, handed out in order, on the pool's threads. (In order means claimed in
    /// order: each thread meets its indices ascending, and one thread alone meets them all in
    /// order. Which call is *recorded* first across threads is not ordered — a thread that
    /// claimed index 0 may record it after another has claimed and recorded index 1, as a
    /// ThreadSanitizer run of `make test` showed.)
    @Test func forEachHandsOutEveryIndexOnceInOrder() {
        let pool = WorkerThreads(threadCount: 3)
        defer { pool.shutdown() }
        for count in [0, 1, 2, 7, 1_000] {
            let calls = Locked<[(thread: Int, k: Int)]>([])
            pool.forEach(count: count) { k in
                let thread = ThreadSerial.current
                calls.withLock { $0.append((thread, k)) }
            }
            let seen = calls.withLock { $0 }
            #expect(seen.map(\.k).sorted() == Array(0..<count))
            for thread in Set(seen.map(\.thread)) {
                let mine = seen.filter { $0.thread == thread }.map(\.k)
                #expect(mine == mine.sorted(), "a thread meets its indices in the order they were handed out")
            }
        }
        let alone = WorkerThreads(threadCount: 1)
        let order = Locked<[Int]>([])
        alone.forEach(count: 50) { k in order.withLock { $0.append(k) } }
        #expect(order.withLock { $0 } == Array(0..<50))
    }

    /// A job waits for a helper to join: `run` reports the threads that took part, and a helper
    /// joins (within seconds) while the caller's share is still running.
    @Test func helpersTakePartInAJob() {
        let pool = WorkerThreads(threadCount: 2)
        defer { pool.shutdown() }
        for _ in 0..<5 {
            let helperJoined = Atomic<Bool>(false)
            let threads = pool.run { worker in
                if worker != 0 { helperJoined.store(true, ordering: .releasing); return }
                let deadline = ContinuousClock.now + .seconds(10)
                while !helperJoined.load(ordering: .acquiring) && ContinuousClock.now < deadline { usleep(100) }
            }
            let joined = helperJoined.load(ordering: .acquiring)
            #expect(joined)
            #expect(threads == 2)
        }
        #expect(pool.helpersAlive == 1)
    }

    /// A job started while another one runs — nested in its body, or from another thread — runs
    /// on its caller alone at once (it does not wait for the pool, so it cannot deadlock on it).
    @Test func aJobDuringAnotherRunsOnItsCallerAlone() {
        let pool = WorkerThreads(threadCount: 2)
        defer { pool.shutdown() }
        let nested = Locked<[Int]>([])
        pool.forEach(count: 8) { k in
            let inner = pool.run { worker in nested.withLock { $0.append(worker) } }
            #expect(inner == 1)
        }
        #expect(nested.withLock { $0 } == Array(repeating: 0, count: 8))
        // Four threads running jobs at once on one pool: each index of each job exactly once.
        let counts = Locked<[Int]>(Array(repeating: 0, count: 4 * 500))
        DispatchQueue.concurrentPerform(iterations: 4) { job in
            for _ in 0..<5 {
                pool.forEach(count: 100) { k in counts.withLock { $0[job * 500 + k] += 1 } }
            }
        }
        let all = counts.withLock { $0 }
        #expect((0..<4).allSatisfy { job in all[(job * 500)..<(job * 500 + 100)].allSatisfy { $0 == 5 } })
    }

    /// A pool's helpers end when it is shut down or released (neither hangs), and start only
    /// with its first job: pools that come and go leave no threads behind.
    @Test func releasedPoolsLeaveNoThreads() {
        for k in 0..<20 {
            let pool = WorkerThreads(threadCount: 4)
            #expect(pool.helpersAlive == 0, "no thread before the first job")
            pool.forEach(count: 64) { _ in spin(microseconds: 50) }
            #expect(pool.helpersAlive == 3)
            if k % 2 == 0 {
                pool.shutdown()
                #expect(pool.helpersAlive == 0)
                // After shutdown a job runs on its caller alone.
                #expect(pool.run { _ in } == 1)
            }
        }
        let weakPool = Locked<WeakPool?>(nil)
        do {
            let pool = WorkerThreads(threadCount: 3)
            pool.forEach(count: 16) { _ in }
            weakPool.withLock { $0 = WeakPool(pool) }
        }
        #expect(weakPool.withLock { $0?.pool } == nil, "a pool is not kept alive by its helpers")
        // Only the shared pool's helpers are left (a helper decrements the count as it exits,
        // just after `shutdown` has seen it go).
        #expect(eventually(seconds: 10) { WorkerThreads.helpersRunning.load(ordering: .relaxed) <= Self.cores - 1 },
                "\(WorkerThreads.helpersRunning.load(ordering: .relaxed)) helper threads running")
    }
}

final class WeakPool: Sendable {
    weak let pool: WorkerThreads?
    init(_ pool: WorkerThreads) { self.pool = pool }
}
