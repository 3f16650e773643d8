import Dispatch

/// Where the engine runs the callbacks of background work (completions and layout changes):
/// on the thread that finished the work, on a dispatch queue, or through any run loop (a GTK
/// window hands them to the GLib main loop with `g_idle_add`).
///
/// The engine never assumes `DispatchQueue.main`: under GLib's main loop it never runs unless pumped.
public struct ListExecutor: Sendable {
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// An executor that hands each job to `schedule`, which must run it exactly once, on any
    /// thread, soon (it must not run it before returning while holding a lock the job needs).
    public init(_ schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.schedule = schedule
    }

    /// Runs callbacks at once on the thread that finished the work (a background thread). The
    /// default: callers that draw must hop to their UI thread themselves.
    public static let immediate = ListExecutor { $0() }

    /// Runs callbacks asynchronously on `queue`.
    public static func queue(_ queue: DispatchQueue) -> ListExecutor {
        ListExecutor { job in queue.async(execute: job) }
    }

    /// Runs `job` through this executor.
    public func run(_ job: @escaping @Sendable () -> Void) { schedule(job) }
}
