import Dispatch
import Synchronization
import Testing
@testable import RowKitCells

/// The height-by-key helper: one call, cached by the caller's key, invalidated by the caller or
/// by a width change, bounded.
@Suite struct CellHeightCacheTests {
    static func expected(_ data: RowData, width: Double) throws -> Double {
        try ClassicCells.captionText.bind(data).measure(width: width).height
    }

    @Test func cachesByKeyAndAsksForDataOnlyOnAMiss() throws {
        let cache = CellHeightCache<Int>(templates: ClassicCells.all)
        let data: RowData = ["caption": "Title", "body": "A body long enough to wrap onto a second line at this width, surely."]
        var configured = 0
        let first = try cache.height(template: "caption-text", key: 7, width: 320) { configured += 1; return data }
        #expect(first == (try Self.expected(data, width: 320)))
        let again = try cache.height(template: "caption-text", key: 7, width: 320) { configured += 1; return [:] }
        #expect(again == first, "a hit: the data is not asked for")
        #expect(configured == 1)
        // The caller says the row changed.
        cache.invalidate(key: 7)
        let short: RowData = ["caption": "T", "body": "Short."]
        #expect(try cache.height(template: "caption-text", key: 7, width: 320) { configured += 1; return short } == (try Self.expected(short, width: 320)))
        #expect(configured == 2)
        // Keys are per template.
        #expect(try cache.height(template: "label", key: 7, width: 320) { ["text": "Hello"] } != first)
        #expect(cache.count == 2)
    }

    @Test func aWidthChangeInvalidatesEverything() throws {
        let cache = CellHeightCache<String>(templates: ClassicCells.all)
        let data: RowData = ["caption": "Title", "body": String(repeating: "word ", count: 40)]
        let narrow = try cache.height(template: "caption-text", key: "a", width: 200) { data }
        #expect(cache.width == 200)
        var configured = 0
        let wide = try cache.height(template: "caption-text", key: "a", width: 600) { configured += 1; return data }
        #expect(configured == 1, "the old width's height is not used")
        #expect(wide < narrow)
        #expect(wide == (try Self.expected(data, width: 600)))
        #expect(cache.count == 1)
    }

    @Test func boundedWithTheOldestDroppedFirst() throws {
        let cache = CellHeightCache<Int>(templates: ClassicCells.all, capacity: 100)
        for k in 0..<1_000 { _ = try cache.height(template: "label", key: k, width: 320) { ["text": "Row \(k)"] } }
        #expect(cache.count == 100)
        var configured = 0
        _ = try cache.height(template: "label", key: 999, width: 320) { configured += 1; return ["text": "?"] }
        _ = try cache.height(template: "label", key: 0, width: 320) { configured += 1; return ["text": "Row 0"] }
        #expect(configured == 1, "the newest is kept, the oldest gone")
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test func errorsAreTypedAndNamed() {
        let cache = CellHeightCache<Int>(templates: [ClassicCells.label])
        #expect(throws: CellHeightError.unknownTemplate("nope", known: ["label"])) {
            try cache.height(template: "nope", key: 1, width: 320) { [:] }
        }
        for width in [-1, .infinity, 1e9] {
            #expect(throws: CellHeightError.cell(.invalidWidth(width))) {
                try cache.height(template: "label", key: 1, width: width) { ["text": "x"] }
            }
        }
        do {
            _ = try cache.height(template: "label", key: 1, width: .nan) { ["text": "x"] }
            Issue.record("NaN accepted")
        } catch {
            guard case .cell(.invalidWidth(let w)) = error, w.isNaN else { Issue.record("\(error)"); return }
        }
        #expect(cache.count == 0)
        #expect(CellHeightError.unknownTemplate("a", known: ["b"]).description == "unknown cell template 'a' (known: b)")
    }

    @Test func safeFromManyThreads() throws {
        let cache = CellHeightCache<Int>(templates: ClassicCells.all, capacity: 500)
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for k in 0..<400 {
                let key = (k * 7 + t) % 700
                let width = k % 100 == 0 ? 480.0 : 320
                let data: RowData = ["text": "Row \(key) " + String(repeating: "x ", count: key % 30)]
                guard let h = try? cache.height(template: "label", key: key, width: width, configuration: { data }) else { wrong.add(1, ordering: .relaxed); continue }
                if let expected = try? ClassicCells.label.bind(data).measure(width: width).height, expected != h { wrong.add(1, ordering: .relaxed) }
                if k % 50 == 0 { cache.invalidate(key: key) }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(cache.count <= 500)
    }
}
