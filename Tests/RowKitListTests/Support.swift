import Foundation
import Testing
@testable import RowKitList
import RowKitCells

// Shared helpers for the list-engine tests: a seeded generator, a fast deterministic measurer,
// row builders and exact layout-unit arithmetic.

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

/// Counts calls to a fake measurer (shared between copies of the struct).
final class MeasureCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var _prepares = 0, _heights = 0
    var prepares: Int { lock.lock(); defer { lock.unlock() }; return _prepares }
    var heights: Int { lock.lock(); defer { lock.unlock() }; return _heights }
    func didPrepare() { lock.lock(); _prepares += 1; lock.unlock() }
    func didMeasure() { lock.lock(); _heights += 1; lock.unlock() }
}

/// A deterministic, instant measurer. A row's data field `len` (a number) is a text length and
/// its height is ceil(len × 7 / width) × 16 + 10, so heights change with the width; a `fixed`
/// field instead gives a width-independent height (0 and fractions allowed). Template "broken"
/// fails to prepare.
struct FakeMeasurer: RowMeasurer {
    struct Prepared: Sendable { var length: Int; var fixed: Double? }
    var counter: MeasureCounter? = nil
    /// Called at the start of every `prepare` (e.g. to slow down or gate background work).
    var onPrepare: (@Sendable () -> Void)? = nil

    static func height(length: Int, fixed: Double?, width: Double) -> Double {
        if let fixed { return fixed }
        return (Double(length) * 7 / width).rounded(.up) * 16 + 10
    }

    /// The height `row` has at `width` under this measurer.
    static func height(of row: ListRow, width: Double) -> Double {
        let p = Self.prepared(row)
        return height(length: p.length, fixed: p.fixed, width: width)
    }

    static func prepared(_ row: ListRow) -> Prepared {
        var length = 0
        var fixed: Double?
        if case .number(let n)? = row.data["len"] { length = Int(n) }
        if case .number(let f)? = row.data["fixed"] { fixed = f }
        return Prepared(length: length, fixed: fixed)
    }

    func prepare(_ row: ListRow) throws -> Prepared {
        onPrepare?()
        counter?.didPrepare()
        if row.template == "broken" {
            throw ListError.unknownTemplate(row: row.id, template: row.template, known: ["a", "b", "c"])
        }
        return Self.prepared(row)
    }

    func height(of prepared: Prepared, width: Double) -> Double {
        counter?.didMeasure()
        return Self.height(length: prepared.length, fixed: prepared.fixed, width: width)
    }

    func byteCount(of prepared: Prepared) -> Int { 16 }
}

/// Row builders.
enum Rows {
    static func text(_ id: String, length: Int, template: String = "a") -> ListRow {
        ListRow(id: id, template: template, data: RowData(["len": .number(Double(length))]))
    }
    static func fixed(_ id: String, _ height: Double, template: String = "a") -> ListRow {
        ListRow(id: id, template: template, data: RowData(["fixed": .number(height)]))
    }
    /// `count` rows "p0", "p1", … of fixed height `height`.
    static func uniform(_ count: Int, height: Double, prefix: String = "p", template: String = "a") -> [ListRow] {
        (0..<count).map { fixed("\(prefix)\($0)", height, template: template) }
    }
}

typealias FakeEngine = ListEngine<FakeMeasurer>

func makeEngine(_ sections: [ListSection], width: Double = 320, viewport: Double = 400,
                defaultEstimate: Double = 44, measurer: FakeMeasurer = FakeMeasurer()) throws -> FakeEngine {
    let engine = try FakeEngine(sections: sections, measurer: measurer, width: width, defaultEstimate: defaultEstimate)
    engine.viewportHeight = viewport
    return engine
}

/// Runs `body` and checks it throws `ListError.indexOutOfRange`.
func expectOutOfRange(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("\(what): expected indexOutOfRange, nothing thrown", sourceLocation: sourceLocation)
    } catch let error as ListError {
        guard case .indexOutOfRange = error else {
            Issue.record("\(what): expected indexOutOfRange, got \(error)", sourceLocation: sourceLocation)
            return
        }
    } catch {
        Issue.record("\(what): expected ListError, got \(error)", sourceLocation: sourceLocation)
    }
}

/// Runs `body` and checks it throws `ListError.invalidWidth`.
func expectInvalidWidth(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("\(what): expected invalidWidth, nothing thrown", sourceLocation: sourceLocation)
    } catch let error as ListError {
        guard case .invalidWidth = error else {
            Issue.record("\(what): expected invalidWidth, got \(error)", sourceLocation: sourceLocation)
            return
        }
    } catch {
        Issue.record("\(what): expected ListError, got \(error)", sourceLocation: sourceLocation)
    }
}
