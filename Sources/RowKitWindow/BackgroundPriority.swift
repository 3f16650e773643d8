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
    public typealias Row = Base.Row
    public typealias Measuring = Base.Measuring
    public typealias Drawing = Base.Drawing

    public let base: Base
    /// The nice value given to measuring threads.
    public let niceness: Int32

    public init(_ base: Base, niceness: Int32 = 10) {
        self.base = base
        self.niceness = niceness
    }

    public func measuringForm(of row: Row) throws -> Measuring {
        if !Thread.isMainThread { Self.lowerPriority(to: niceness) }
        return try base.measuringForm(of: row)
    }

    public func height(of form: Measuring, width: Double) -> Double { base.height(of: form, width: width) }
    public func drawingForm(of row: Row, measuring: Measuring?) throws -> Drawing { try base.drawingForm(of: row, measuring: measuring) }
    public func byteCount(of form: Measuring) -> Int { base.byteCount(of: form) }

    private static func lowerPriority(to niceness: Int32) {
        let key = "rowkit.background-priority"
        let thread = Thread.current.threadDictionary
        guard thread[key] == nil else { return }
        thread[key] = true
        // Failure (not allowed to change it) is harmless: the thread keeps its priority.
        _ = rk_set_thread_niceness(niceness)
    }
}
