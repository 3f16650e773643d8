import Foundation
import Testing
@testable import RowKitList

// Shared helpers for the list-engine tests: a seeded generator, a row type and a fast
// deterministic measurer, a counting data source, row builders and exact layout-unit arithmetic.

/// SplitMix64: a small, fast, seeded generator so every property test is reproducible.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func pick<T>(_ values: [T]) -> T { values[int(0..<values.count)] }
}

/// Layout units (1/64 px), rounded exactly as `HeightIndex` documents it.
enum Units {
    static func of(_ pixels: Double) -> Int64 {
        guard pixels.isFinite, pixels > 0 else { return 0 }
        return Int64((pixels * 64).rounded())
    }
    static func px(_ units: Int64) -> Double { Double(units) / 64 }
    /// `pixels` rounded to the nearest layout unit.
    static func round(_ pixels: Double) -> Double { px(of(pixels)) }
}

/// A test row: `length` is a text length (height ceil(length × 7 / width) × 16 + 10, so
/// heights change with the width), or `fixed` a width-independent height (0 and fractions
/// allowed). Template "broken" fails to measure.
struct TestRow: Identifiable, Sendable, Hashable {
    var id: String
    var template: String
    var length: Int
    var fixed: Double?
}

/// Counts calls to a fake measurer (shared between copies of the struct).
final class MeasureCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var _forms = 0, _heights = 0, _drawings = 0
    var forms: Int { lock.lock(); defer { lock.unlock() }; return _forms }
    var heights: Int { lock.lock(); defer { lock.unlock() }; return _heights }
    var drawings: Int { lock.lock(); defer { lock.unlock() }; return _drawings }
    func didMakeForm() { lock.lock(); _forms += 1; lock.unlock() }
    func didMeasure() { lock.lock(); _heights += 1; lock.unlock() }
    func didMakeDrawing() { lock.lock(); _drawings += 1; lock.unlock() }
}

/// What `FakeMeasurer.measuringForm` fails with.
struct BrokenRow: Error, CustomStringConvertible, Equatable {
    var id: String
    var description: String { "cannot measure '\(id)'" }
}

/// A deterministic, instant measurer of `TestRow`s.
struct FakeMeasurer: RowMeasurer {
    final class Form: Sendable {
        let length: Int, fixed: Double?
        init(length: Int, fixed: Double?) { self.length = length; self.fixed = fixed }
    }
    struct Drawing: Sendable, Equatable { var id: String; var length: Int; var fixed: Double? }
    var counter: MeasureCounter? = nil
    /// Called at the start of every `measuringForm` (e.g. to slow down or gate background work).
    var onForm: (@Sendable () -> Void)? = nil
    /// Called at the start of every `height(of:width:)`.
    var onHeight: (@Sendable () -> Void)? = nil

    static func height(length: Int, fixed: Double?, width: Double) -> Double {
        if let fixed { return fixed }
        return (Double(length) * 7 / width).rounded(.up) * 16 + 10
    }

    /// The height `row` has at `width` under this measurer.
    static func height(of row: TestRow, width: Double) -> Double { height(length: row.length, fixed: row.fixed, width: width) }

    func measuringForm(of row: TestRow) throws -> Form {
        onForm?()
        counter?.didMakeForm()
        if row.template == "broken" { throw BrokenRow(id: row.id) }
        return Form(length: row.length, fixed: row.fixed)
    }

    func height(of form: Form, width: Double) -> Double {
        onHeight?()
        counter?.didMeasure()
        return Self.height(length: form.length, fixed: form.fixed, width: width)
    }

    func drawingForm(of row: TestRow, measuring: Form?) throws -> Drawing {
        counter?.didMakeDrawing()
        return Drawing(id: row.id, length: row.length, fixed: row.fixed)
    }

    func byteCount(of form: Form) -> Int { 16 }

    /// A fixed height never changes; otherwise the height is one line's from `7 × length` on.
    func constantHeightWidth(ofObject object: AnyObject) -> Double {
        let form = object as! Form
        return form.fixed != nil ? 0 : Double(form.length) * 7
    }
}

/// A data source over a dictionary of rows that counts the rows asked for; thread-safe, and
/// changeable (change it first, then tell the engine).
final class CountingSource: ListDataSource, @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: TestRow]
    private var _asked = 0
    var failing: Set<String> = []

    init(_ rows: [TestRow]) { self.rows = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }) }

    struct Missing: Error, CustomStringConvertible { var id: String; var description: String { "no row '\(id)'" } }

    func row(for id: String, kind: ListItemKind, at indexPath: ListIndexPath) throws -> TestRow {
        lock.lock()
        defer { lock.unlock() }
        _asked += 1
        guard let row = rows[id], !failing.contains(id) else { throw Missing(id: id) }
        return row
    }

    var asked: Int { lock.lock(); defer { lock.unlock() }; return _asked }
    func set(_ row: TestRow) { lock.lock(); rows[row.id] = row; lock.unlock() }
    func set(_ row: TestRow, as id: String) { lock.lock(); rows[id] = row; lock.unlock() }
}

/// Row builders.
enum Rows {
    static func text(_ id: String, length: Int, template: String = "a") -> TestRow {
        TestRow(id: id, template: template, length: length, fixed: nil)
    }
    static func fixed(_ id: String, _ height: Double, template: String = "a") -> TestRow {
        TestRow(id: id, template: template, length: 0, fixed: height)
    }
    /// `count` rows "p0", "p1", … of fixed height `height`.
    static func uniform(_ count: Int, height: Double, prefix: String = "p", template: String = "a") -> [TestRow] {
        (0..<count).map { fixed("\(prefix)\($0)", height, template: template) }
    }
}

typealias FakeEngine = ListEngine<FakeMeasurer>

func makeEngine(_ sections: [ListSection<TestRow>], width: Double = 320, viewport: Double = 400,
                defaultEstimate: Double = 44, measurer: FakeMeasurer = FakeMeasurer(),
                anchoring: ScrollAnchoring = .keepContentStill) throws -> FakeEngine {
    let engine = try FakeEngine(sections: sections, measurer: measurer, width: width, defaultEstimate: defaultEstimate)
    engine.viewportHeight = viewport
    engine.scrollAnchoring = anchoring
    return engine
}

func path(_ section: Int, _ row: Int) -> ListIndexPath { ListIndexPath(section: section, row: row) }

/// Runs `body` and checks it throws `ListError.indexOutOfRange`.
func expectOutOfRange(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("\(what): expected indexOutOfRange, nothing thrown", sourceLocation: sourceLocation)
    } catch {
        guard case .indexOutOfRange? = error as? ListError else {
            Issue.record("\(what): expected indexOutOfRange, got \(error)", sourceLocation: sourceLocation)
            return
        }
    }
}

/// Runs `body` and checks it throws `ListError.inconsistentBatch` mentioning `fragment`.
func expectInconsistent(_ fragment: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected inconsistentBatch (\(fragment)), nothing thrown", sourceLocation: sourceLocation)
    } catch {
        guard case .inconsistentBatch(let why)? = error as? ListError, why.contains(fragment) else {
            Issue.record("expected inconsistentBatch containing '\(fragment)', got \(error)", sourceLocation: sourceLocation)
            return
        }
    }
}

/// Runs `body` and checks it throws `ListError.invalidWidth`.
func expectInvalidWidth(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("\(what): expected invalidWidth, nothing thrown", sourceLocation: sourceLocation)
    } catch {
        guard case .invalidWidth? = error as? ListError else {
            Issue.record("\(what): expected invalidWidth, got \(error)", sourceLocation: sourceLocation)
            return
        }
    }
}

/// The completion's result, handed from the background to the test.
final class Completion: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var _results: [ListMeasurementResult] = []
    var result: ListMeasurementResult? { lock.lock(); defer { lock.unlock() }; return _results.last }
    var calls: Int { lock.lock(); defer { lock.unlock() }; return _results.count }
    var callback: @Sendable (ListMeasurementResult) -> Void { { [self] in self.finish($0) } }
    func finish(_ result: ListMeasurementResult) {
        lock.lock(); _results.append(result); lock.unlock()
        semaphore.signal()
    }
    func wait(seconds: Double) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
}

/// Holds background work back after a number of calls until the test opens it, so updates and
/// scrolls are guaranteed to happen while it runs. Calls on the test's own thread pass freely.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var open = false
    private var backgroundCalls = 0
    private let foreground = pthread_self()
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func pass() {
        guard pthread_equal(pthread_self(), foreground) == 0 else { return }
        condition.lock()
        backgroundCalls += 1
        while !open && backgroundCalls > limit { condition.wait() }
        condition.unlock()
    }

    /// Blocks until a background thread waits at the gate.
    func waitUntilHolding() {
        condition.lock()
        while backgroundCalls <= limit { _ = condition.wait(until: Date().addingTimeInterval(0.01)) }
        condition.unlock()
    }

    func release() {
        condition.lock()
        open = true
        condition.broadcast()
        condition.unlock()
    }
}

/// A gate a measurer consults once the test installs it (so measuring before that is free).
final class GateSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var _gate: Gate?
    var gate: Gate? {
        get { lock.lock(); defer { lock.unlock() }; return _gate }
        set { lock.lock(); _gate = newValue; lock.unlock() }
    }
    func pass() { gate?.pass() }
}

/// An executor that queues jobs until the test runs them (as a GLib main loop would).
final class ManualExecutor: @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [@Sendable () -> Void] = []
    var executor: ListExecutor { ListExecutor { [self] job in self.lock.lock(); self.jobs.append(job); self.lock.unlock() } }
    var pending: Int { lock.lock(); defer { lock.unlock() }; return jobs.count }
    /// Runs the queued jobs on the calling thread; returns how many ran.
    @discardableResult
    func runPending() -> Int {
        lock.lock()
        let now = jobs
        jobs = []
        lock.unlock()
        for job in now { job() }
        return now.count
    }
}

/// Polls `condition` for up to `seconds`.
func eventually(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.002)
    }
    return condition()
}
