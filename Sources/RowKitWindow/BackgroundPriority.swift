import CGtkShim
import Foundation
import RowKitList

/// A measurer that lowers the scheduling priority (nice 10) of every thread other than the main
/// one the first time it prepares a row there, then defers to `base`.
///
/// Background measurement of a long list keeps every core busy for seconds; on a machine with
/// few cores the window's frames then wait for a time slice. At nice 10 the measuring threads
/// get about a tenth of a core's share when the main thread wants to run (Linux CFS weights),
/// so frames keep their deadline and measuring uses whatever is left.
public struct BackgroundPriorityMeasurer<Base: RowMeasurer>: RowMeasurer {
    /// The base measurer's row type.
    public typealias Row = Base.Row
    /// The base measurer's measuring form.
    public typealias Measuring = Base.Measuring
    /// The base measurer's drawing form.
    public typealias Drawing = Base.Drawing

    /// The measurer deferred to.
    public let base: Base
    /// The nice value given to measuring threads.
    public let niceness: Int32

    /// `base`, with measuring threads lowered to `niceness`.
    public init(_ base: Base, niceness: Int32 = 10) {
        self.base = base
        self.niceness = niceness
    }

    /// Lowers this thread's priority once (not the main thread's), then asks `base`.
    public func measuringForm(of row: Row) throws -> Measuring {
        if !Thread.isMainThread { Self.lowerPriority(to: niceness) }
        return try base.measuringForm(of: row)
    }

    /// `base`'s height.
    public func height(of form: Measuring, width: Double) -> Double { base.height(of: form, width: width) }
    /// `base`'s drawing form.
    public func drawingForm(of row: Row, measuring: Measuring?) throws -> Drawing { try base.drawingForm(of: row, measuring: measuring) }
    /// `base`'s byte count.
    public func byteCount(of form: Measuring) -> Int { base.byteCount(of: form) }
    /// `base`'s object for the form.
    public func object(of form: Measuring) -> AnyObject { base.object(of: form) }
    /// `base`'s height of the form the object stands for.
    public func height(ofObject object: AnyObject, width: Double) -> Double { base.height(ofObject: object, width: width) }
    /// `base`'s constant-height width.
    public func constantHeightWidth(ofObject object: AnyObject) -> Double { base.constantHeightWidth(ofObject: object) }
    /// `base`'s form for the object.
    public func form(of object: AnyObject) -> Measuring { base.form(of: object) }

    private static func lowerPriority(to niceness: Int32) {
        let key = "rowkit.background-priority"
        let thread = Thread.current.threadDictionary
        guard thread[key] == nil else { return }
        thread[key] = true
        // Failure (not allowed to change it) is harmless: the thread keeps its priority.
        _ = rk_set_thread_niceness(niceness)
    }
}
