import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine's one lock: a `Synchronization.Mutex` guarding all of its mutable state. Not
/// recursive: nothing called with the lock held takes it again, and no callback (measurer,
/// data source, completion, progress, observer) runs with it held.
///
/// The state lives in memory of its own beside a `Mutex<Void>`, not inside a `Mutex<Value>`:
/// the engine's code is generic over its measurer and, called from another module, runs
/// unspecialized, and finding a value inside `Mutex<ListState<M>>` took the runtime's metadata
/// of both types on every call (656 of the 2,190 instructions a y → row lookup cost,
/// docs/DESIGN.md "Window and CLI QA, sixteenth round"). A pointer's target needs no layout.
///
/// ThreadSanitizer does not see the futex inside `Mutex` on Linux and reports every access
/// made under it as a race; under TSan (only there: the hooks are looked up once and absent
/// otherwise) each lock hold is annotated as an acquire and a release on the lock's address,
/// which is the ordering the mutex really gives.
final class StateLock<Value: ~Copyable>: @unchecked Sendable {
    /// The state; read and written only with `mutex` held (and by `deinit`, alone).
    private let storage: UnsafeMutablePointer<Value>
    private let mutex = Mutex<Void>(())
    private let hooks = ThreadSanitizerHooks.shared
    #if DEBUG
    /// Whether a thread holds the lock (debug builds, for tests: callbacks must run without it).
    private let held = Atomic<Bool>(false)
    #endif

    init(_ value: consuming sending Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with the state, the lock held.
    @inline(__always)
    func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        try mutex.withLock { _ throws(E) -> sending Result in
            #if DEBUG
            held.store(true, ordering: .relaxed)
            defer { held.store(false, ordering: .relaxed) }
            #endif
            guard let hooks else { return try body(&storage.pointee) }
            let address = Unmanaged.passUnretained(self).toOpaque()
            hooks.acquire(address)
            defer { hooks.release(address) }
            return try body(&storage.pointee)
        }
    }

    /// Whether any thread holds the lock now (debug builds; false in release builds). For tests
    /// that check that no callback runs with it held.
    var isLockedForTesting: Bool {
        #if DEBUG
        return held.load(ordering: .relaxed)
        #else
        return false
        #endif
    }
}

/// ThreadSanitizer's happens-before annotations, when the process runs under it.
struct ThreadSanitizerHooks: Sendable {
    typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void
    let acquire: Hook
    let release: Hook

    static let shared: ThreadSanitizerHooks? = {
        #if canImport(Glibc) || canImport(Darwin)
        let handle = dlopen(nil, RTLD_NOW)
        guard let acquire = dlsym(handle, "__tsan_acquire"), let release = dlsym(handle, "__tsan_release") else { return nil }
        return ThreadSanitizerHooks(acquire: unsafeBitCast(acquire, to: Hook.self), release: unsafeBitCast(release, to: Hook.self))
        #else
        return nil
        #endif
    }()
}
