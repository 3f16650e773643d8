#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The temporary files ``AtomicFile`` has open, removed when a signal ends the program.
///
/// Without this, Ctrl-C, `kill`, a closed terminal or a file size limit (SIGXFSZ) during a
/// write left `.out.png.xxxx.tmp` beside the target. The first registration installs handlers
/// for the signals that end a program by default — SIGINT, SIGTERM, SIGHUP, SIGXFSZ, SIGQUIT
/// (Ctrl-\), SIGUSR1, SIGUSR2, SIGALRM — and for the crash signals (SIGILL and SIGTRAP of a
/// Swift runtime trap, SIGSEGV, SIGBUS, SIGFPE, SIGABRT). A signal the process ignores stays
/// ignored, as `nohup` and `trap '' XFSZ` expect. A handler unlinks the registered paths
/// (async-signal-safe calls only), puts back the action the signal had before (the default,
/// or the Swift runtime's crash backtracer) and raises the signal again, so the signal still
/// ends the program as it would have (the exit status says which; a crash still prints its
/// backtrace).
enum TemporaryFiles {
    /// Paths as C strings in fixed slots, read by the handler without a lock; a slot is set
    /// after its string is complete, before the file is created, and cleared after the file is
    /// renamed or removed (so no instant is uncovered; unlinking a name that is gone is
    /// harmless). Strings
    /// are never freed (a handler might be reading one; a command writes a file or two).
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: slotCount)
        slots.initialize(repeating: nil, count: slotCount)
        return slots
    }()
    private static let slotCount = 64
    private static let lock = Mutex<Bool>(false) // whether the handlers are installed
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGXFSZ, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
                                   SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT]
    /// The action each handled signal had before ours (by signal number), put back by the handler.
    nonisolated(unsafe) fileprivate static let previous: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        actions.initialize(repeating: sigaction(), count: 65)
        return actions
    }()

    /// Registers `path` for removal on a signal; returns its slot (nil when all are taken —
    /// the file is then only removed by ``AtomicFile`` itself).
    static func register(_ path: String) -> Int? {
        lock.withLock { installed in
            let table = slots
            if !installed {
                installed = true
                for signal in signals { install(signal) }
            }
            guard let slot = (0..<slotCount).first(where: { table[$0] == nil }) else { return nil }
            table[slot] = strdup(path)
            return slot
        }
    }

    /// Forgets slot `slot` (before the file is renamed or removed).
    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        lock.withLock { _ in slots[slot] = nil }
    }

    private static func install(_ signal: Int32) {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return }
        #if canImport(Glibc)
        let handler = current.__sigaction_handler.sa_handler
        #else
        let handler = current.__sigaction_u.__sa_handler
        #endif
        let ignored = unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        guard !ignored, signal > 0, signal < 65 else { return }
        previous[Int(signal)] = current
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = removeTemporaryFilesAndReraise
        #else
        action.__sigaction_u.__sa_handler = removeTemporaryFilesAndReraise
        #endif
        sigemptyset(&action.sa_mask)
        // On the alternate stack when the thread has one (the crash backtracer's), so a stack
        // overflow's SIGSEGV still reaches the handler and the backtracer after it.
        action.sa_flags = SA_ONSTACK
        _ = sigaction(signal, &action, nil)
    }

    /// The handler: async-signal-safe calls only (unlink, sigaction, raise).
    fileprivate static func removeAll() {
        let table = slots
        for slot in 0..<slotCount {
            if let path = table[slot] { unlink(path) }
        }
    }
}

private func removeTemporaryFilesAndReraise(_ number: Int32) {
    TemporaryFiles.removeAll()
    // The signal is blocked while this runs: raised again, it is delivered with the action it
    // had before (the default, or the crash backtracer) as soon as this returns — for a crash,
    // before the faulting instruction would run again.
    if number > 0, number < 65 {
        _ = sigaction(number, TemporaryFiles.previous + Int(number), nil)
    } else {
        _ = signal(number, SIG_DFL)
    }
    raise(number)
}
