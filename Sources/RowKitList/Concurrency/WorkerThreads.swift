import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of threads that run parallel work, job after job: the caller of ``run(_:)`` and
/// `threadCount - 1` helper threads, started on the first job that needs them and kept.
///
/// Why not `DispatchQueue.concurrentPerform`: whatever is measured may keep caches per thread
/// (the text engine keeps its word cache and font choices per thread), and the dispatch pool's
/// threads come and go — an idle worker exits, another pool thread takes the next job, a new
/// one starts — so a million rows were prepared by three threads or more on two cores, each
/// warming a cache of its own (more misses, ~30 MB more each; docs/DESIGN.md, "Issue 8,
/// twenty-third round"). Here the same helpers take part in every job.
///
/// One job at a time: a ``run(_:)`` called while another job runs (from another thread, or
/// nested in a job's body) does its work alone on its own thread, at once — it never waits for
/// the other job and cannot deadlock on it. So at most `threadCount` threads plus the callers
/// of overlapping jobs ever run bodies, however many engines come and go.
///
/// ``shared`` is the process's (one helper per core but one); it is never shut down, and its
/// helpers, idle, wait on a condition variable (they do not keep the process from exiting).
/// Other instances end their helpers on ``shutdown()`` or when released.
///
/// Synchronized with a pthread mutex and condition variables (which ThreadSanitizer sees; it does
/// not see `Synchronization.Mutex`'s futex on Linux, see ``StateLock``).
package final class WorkerThreads: Sendable {
    /// The process's pool: as many threads as active cores, the caller included.
    package static let shared = WorkerThreads(threadCount: ProcessInfo.processInfo.activeProcessorCount)

    /// Threads that run a job, the caller included (at least 1).
    package let threadCount: Int
    private let core: Core

    /// A pool of `threadCount` threads (at least 1), the caller of ``run(_:)`` being one. No
    /// thread starts before the first job.
    package init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        core = Core(threadCount: self.threadCount)
    }

    deinit { core.shutdown() }

    /// Ends the helper threads and waits until they have exited; later jobs run on their caller
    /// alone. Calling it again does nothing. Not to be called from inside a job.
    package func shutdown() { core.shutdown() }

    /// Calls `body(worker)` on each thread that takes part in this job, `worker` being 0 on the
    /// calling thread and a helper's own number in `1..<threadCount` on a helper, and returns once
    /// every call has returned. `body` hands out the work itself (a helper may join late, or not
    /// at all when the work was gone before it woke): it must return only when no work is left to
    /// claim, and thread 0's call must be able to do all of it alone. Returns how many threads
    /// took part (1 when the pool was busy with another job, or has one thread).
    ///
    /// `body` runs on several threads at once.
    @discardableResult
    package func run(_ body: (Int) -> Void) -> Int {
        core.run(body)
    }

    /// Calls `body(k)` once for every `k` in `0..<count`, on every thread of the pool, handing
    /// out the indices in order as threads free up (index 0 first, so it starts at once);
    /// returns when all calls have returned. What `DispatchQueue.concurrentPerform` does, on
    /// the pool's threads.
    package func forEach(count: Int, _ body: (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        let next = Atomic<Int>(0)
        run { _ in
            while true {
                let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard k < count else { return }
                body(k)
            }
        }
    }

    /// This pool's helper threads running now (started and not yet exited), for tests.
    package var helpersAlive: Int { core.helpersAlive }

    /// Every pool's helper threads running now, for tests.
    package static let helpersRunning = Atomic<Int>(0)

    /// The state the helper threads share (they hold it, not the pool, so that releasing the pool
    /// can end them).
    private final class Core: @unchecked Sendable {   // Every field below is read and written with `mutex` held.
        let threadCount: Int
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        /// Helpers wait on it for a job (or for `stopping`).
        private let wake: UnsafeMutablePointer<pthread_cond_t>
        /// The caller waits on it for the helpers in its job, `shutdown` for the helpers to exit.
        private let done: UnsafeMutablePointer<pthread_cond_t>

        /// The current job's body (only while `open` or a helper is in it).
        private var job: ((Int) -> Void)?
        /// Numbers the jobs: a helper takes part in a job once.
        private var jobNumber: UInt64 = 0
        /// Whether helpers may still join the current job (until its caller's share returns:
        /// then no work is left to claim, and a helper woken late skips it).
        private var open = false
        /// Helpers inside the current job's body; helpers that joined it.
        private var inJob = 0, joined = 0
        /// A job is running (another `run` meanwhile works alone).
        private var busy = false
        private var helpersStarted = 0
        private var alive = 0
        private var stopping = false

        init(threadCount: Int) {
            self.threadCount = threadCount
            mutex = .allocate(capacity: 1)
            wake = .allocate(capacity: 1)
            done = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(wake, nil)
            pthread_cond_init(done, nil)
        }

        deinit {
            pthread_cond_destroy(done)
            pthread_cond_destroy(wake)
            pthread_mutex_destroy(mutex)
            done.deallocate()
            wake.deallocate()
            mutex.deallocate()
        }

        private func lock() { pthread_mutex_lock(mutex) }
        private func unlock() { pthread_mutex_unlock(mutex) }

        var helpersAlive: Int {
            lock()
            defer { unlock() }
            return alive
        }

        func run(_ body: (Int) -> Void) -> Int {
            guard threadCount > 1 else {
                body(0)
                return 1
            }
            lock()
            guard !busy && !stopping else {
                unlock()
                body(0)
                return 1
            }
            busy = true
            // Started on the first job, never again: the same helpers serve every job.
            while helpersStarted < threadCount - 1 {
                helpersStarted += 1
                alive += 1
                let worker = helpersStarted
                let thread = Thread { [self] in helperLoop(worker) }
                thread.stackSize = 8 << 20
                thread.name = "rowkit.worker.\(worker)"
                thread.start()
            }
            return withoutActuallyEscaping(body) { body in
                job = body
                jobNumber &+= 1
                open = true
                inJob = 0
                joined = 0
                pthread_cond_broadcast(wake)
                unlock()
                body(0)
                lock()
                open = false
                while inJob > 0 { pthread_cond_wait(done, mutex) }
                job = nil
                busy = false
                let threads = 1 + joined
                unlock()
                return threads
            }
        }

        private func helperLoop(_ worker: Int) {
            WorkerThreads.helpersRunning.add(1, ordering: .relaxed)
            defer { WorkerThreads.helpersRunning.subtract(1, ordering: .relaxed) }
            var seen: UInt64 = 0
            lock()
            while true {
                while !stopping && !(open && jobNumber != seen) { pthread_cond_wait(wake, mutex) }
                if stopping { break }
                seen = jobNumber
                inJob += 1
                joined += 1
                var body = job
                unlock()
                body?(worker)
                // Let go of the body before saying so: the caller's closure must not outlive its `run`.
                body = nil
                lock()
                inJob -= 1
                if inJob == 0 { pthread_cond_broadcast(done) }
            }
            alive -= 1
            pthread_cond_broadcast(done)
            unlock()
        }

        func shutdown() {
            lock()
            stopping = true
            pthread_cond_broadcast(wake)
            while alive > 0 { pthread_cond_wait(done, mutex) }
            unlock()
        }
    }
}
