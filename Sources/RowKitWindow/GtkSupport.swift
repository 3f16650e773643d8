import CGtk
import CGtkShim

// Small helpers over the GTK C API: pointer casts (GObject's C "inheritance" is by first field,
// which Swift cannot express), signal connection and the main loop's clock.

/// Reinterprets a GObject pointer as another type of the same instance (GTK_WINDOW() & co.).
@inline(__always)
func gcast<T, U>(_ pointer: UnsafeMutablePointer<U>?) -> UnsafeMutablePointer<T>? {
    pointer.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: T.self) }
}

/// Connects a C callback (any signal signature) to `signal` on `instance`.
@discardableResult
func connect<T, F>(_ instance: UnsafeMutablePointer<T>?, _ signal: String, _ handler: F, _ data: UnsafeMutableRawPointer) -> UInt {
    UInt(rk_signal_connect(UnsafeMutableRawPointer(instance), signal, unsafeBitCast(handler, to: GCallback.self), data))
}

/// Connects a C callback to `signal` on an instance of an opaque GTK type.
@discardableResult
func connect<F>(_ instance: OpaquePointer?, _ signal: String, _ handler: F, _ data: UnsafeMutableRawPointer) -> UInt {
    UInt(rk_signal_connect(UnsafeMutableRawPointer(instance), signal, unsafeBitCast(handler, to: GCallback.self), data))
}

/// Seconds on GLib's monotonic clock (the one GTK's frame clock uses).
func monotonicSeconds() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }

/// Work handed to the GLib main loop from any thread (`g_idle_add` is thread-safe): the way
/// results of background work reach the UI, since the main loop owns the main thread and
/// `DispatchQueue.main` never runs there.
enum MainLoop {
    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on the main loop at the next idle moment (from any thread).
    static func post(_ body: @escaping @Sendable () -> Void) { idle(body) }

    /// Runs `body` at the next idle moment; call it on the main loop only (not `Sendable`).
    static func idle(_ body: @escaping () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        let trampoline: @convention(c) (gpointer?) -> gboolean = { data in
            let work = Unmanaged<Work>.fromOpaque(data!).takeRetainedValue()
            work.body()
            return 0 // G_SOURCE_REMOVE
        }
        g_idle_add(trampoline, work)
    }

    /// Runs `body` once after `seconds` (on the main loop).
    static func after(_ seconds: Double, _ body: @escaping () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        let trampoline: @convention(c) (gpointer?) -> gboolean = { data in
            let work = Unmanaged<Work>.fromOpaque(data!).takeRetainedValue()
            work.body()
            return 0 // G_SOURCE_REMOVE
        }
        g_timeout_add(guint(max(0, (seconds * 1000).rounded())), trampoline, work)
    }
}

/// A value used only on the main loop but carried through a `@Sendable` closure (a window
/// handed to background completion handlers, which post back to the main loop).
struct MainLoopOnly<T>: @unchecked Sendable {
    let value: T
}
