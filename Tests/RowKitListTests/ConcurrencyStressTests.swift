import Dispatch
import Foundation
import Synchronization
import Testing
@testable import RowKitList

/// Eight threads call the public engine API at once — updates, scrolling, width changes,
/// selection, drawing, background measurement and its cancellation — then the engine must be
/// consistent and agree with a fresh engine built from what it holds. `make tsan` runs this
/// under ThreadSanitizer (ROWKIT_STRESS_STEPS sets the steps per thread; fewer there).
@Suite struct ConcurrencyStressTests {
    static let nextID = Atomic<Int>(0)
    static func newRow(_ rng: inout SeededRandom) -> TestRow {
        let id = "s\(nextID.add(1, ordering: .relaxed).newValue)"
        return rng.chance(0.2) ? Rows.fixed(id, rng.pick([0, 12.5, 40, 200])) : Rows.text(id, length: rng.int(0...700))
    }

    /// One random call; errors that another thread's change can cause (an index gone) are fine.
    static func step(_ e: FakeEngine, _ rng: inout SeededRandom) throws {
        func randomRow(_ rng: inout SeededRandom) -> ListIndexPath? {
            let sections = e.numberOfSections
            guard sections > 0 else { return nil }
            let s = rng.int(0..<sections)
            guard let rows = try? e.numberOfRows(inSection: s), rows > 0 else { return nil }
            return ListIndexPath(section: s, row: rng.int(0..<rows))
        }
        do {
            switch rng.int(0..<100) {
            case 0..<14:
                let s = rng.int(0..<max(1, e.numberOfSections))
                let rows = (try? e.numberOfRows(inSection: s)) ?? 0
                let new = (0..<rng.int(1...3)).map { _ in newRow(&rng) }
                try e.performBatchUpdates { $0.insert(new, at: ListIndexPath(section: s, row: rng.int(0...rows))) }
            case 14..<24:
                guard let p = randomRow(&rng) else { return }
                try e.performBatchUpdates { $0.delete(at: p) }
            case 24..<30:
                guard let from = randomRow(&rng), let to = randomRow(&rng) else { return }
                try e.performBatchUpdates { $0.move(from: from, to: to) }
            case 30..<36:
                guard let p = randomRow(&rng) else { return }
                var row = newRow(&rng)
                if rng.chance(0.5), let id = try? e.item(at: e.index(of: p)).id { row.id = id }
                try e.performBatchUpdates { $0.reload(at: p, with: row) }
            case 36..<40:
                // Several operations at once (the general plan).
                guard let a = randomRow(&rng), let b = randomRow(&rng) else { return }
                let new = newRow(&rng)
                try e.performBatchUpdates { batch in
                    batch.delete(at: a)
                    if b != a { batch.reload(at: b) }
                    batch.insert([new], at: ListIndexPath(section: a.section, row: 0))
                }
            case 40..<48:
                e.scroll(to: Double(rng.int(-100...Int(max(1, e.contentHeight)))))
            case 48..<54:
                guard let p = randomRow(&rng) else { return }
                try e.scrollTo(p, position: rng.pick(ScrollPosition.allCases))
            case 54..<64:
                for item in try e.visibleItems().prefix(5) {
                    do { _ = try e.drawingForm(for: item) } catch ListError.itemNotFound { }   // deleted meanwhile
                }
            case 64..<68:
                try e.setWidth(rng.pick([180.0, 250, 320, 414, 768]))
            case 68..<69:
                try e.setWidthAndWait(rng.pick([200.0, 320, 500]))
            case 69..<77:
                guard let p = randomRow(&rng) else { return }
                switch rng.int(0..<5) {
                case 0: try e.select(p)
                case 1: try e.deselect(p)
                case 2: try e.highlight(rng.chance(0.8) ? p : nil)
                case 3: e.allowsMultipleSelection.toggle()
                default: _ = (e.selectedIndexPaths, e.selectedIDs)
                }
            case 77..<81:
                e.startBackgroundMeasurement(chunkSize: rng.pick([64, 512, 2_048])) { _ in }
            case 81..<83:
                e.cancelBackgroundMeasurement()
            case 83..<84:
                try e.measureAll(chunkSize: 1_024)
            case 84..<85:
                if rng.chance(0.3) { e.reloadData() } else {
                    try e.performBatchUpdates { $0.insertSection(ListSection(header: newRow(&rng), rows: (0..<rng.int(0...20)).map { _ in newRow(&rng) }), at: 0) }
                }
            case 85..<86:
                if e.numberOfSections > 2 { try e.performBatchUpdates { $0.deleteSection(at: rng.int(0..<e.numberOfSections)) } }
                else if e.numberOfSections > 1 { try e.performBatchUpdates { $0.moveSection(from: 1, to: 0) } }
            case 86..<95:
                _ = (e.contentHeight, e.contentOffset, e.itemCount, e.unmeasuredCount, e.visibleRange(), e.width)
                _ = e.item(atY: Double(rng.int(0...Int(max(1, e.contentHeight)))))
                let i = rng.int(0..<max(1, e.itemCount))
                _ = try? (e.height(ofItem: i), e.offset(ofItem: i), e.isMeasured(i), e.state(ofItem: i), e.item(at: i))
                _ = try? e.exactHeight(ofItem: i)
            default:
                switch rng.int(0..<5) {
                case 0: e.viewportHeight = rng.pick([0.0, 300, 844])
                case 1: e.overscan = rng.pick([0.0, 100])
                case 2: e.scrollAnchoring = rng.pick(ScrollAnchoring.allCases)
                case 3:
                    if rng.chance(0.5) { e.layoutObserver = { _ in } } else { e.layoutObserver = nil }
                default: e.callbackExecutor = rng.chance(0.5) ? .immediate : .queue(DispatchQueue.global())
                }
            }
        } catch {
            switch error {
            // The list changed under us (an index gone, or a reload with the id of a row that
            // moved there meanwhile): rejected, as it must be.
            case .indexOutOfRange, .inconsistentBatch, .itemNotFound, .duplicateID: break
            default: throw error
            }
        }
    }

    /// `exactHeight(ofItem:)` checks the index in one hold of the lock and measures in another:
    /// a row removed in between was once measured at its stale index (a precondition failure in
    /// the item store, found by the test below under ThreadSanitizer). Now the index is checked
    /// again where it is used, and the call throws `indexOutOfRange` — it never traps.
    @Test func exactHeightOfARowRemovedMeanwhileThrows() throws {
        let rows = (0..<200).map { Rows.text("x\($0)", length: ($0 * 7919) % 600) }
        let e = try makeEngine([ListSection(rows: rows)], width: 320, viewport: 600)
        final class Stop: Sendable { let flag = Atomic<Bool>(false) }
        let stop = Stop()
        let remover = Thread {
            var k = 0
            while !stop.flag.load(ordering: .relaxed) {
                // Empty the section and fill it again, unmeasured (new ids each time).
                let count = (try? e.numberOfRows(inSection: 0)) ?? 0
                if count > 0 { try? e.performBatchUpdates { b in for r in (0..<count).reversed() { b.delete(at: ListIndexPath(section: 0, row: r)) } } }
                k += 1
                let fresh = (0..<200).map { Rows.text("y\(k)-\($0)", length: ($0 * 31) % 600) }
                try? e.performBatchUpdates { $0.insert(fresh, at: ListIndexPath(section: 0, row: 0)) }
            }
        }
        remover.start()
        var thrown = 0, measured = 0
        for round in 0..<20_000 {
            do { _ = try e.exactHeight(ofItem: 100 + round % 100); measured += 1 } catch {
                guard case .indexOutOfRange = error else { throw error }
                thrown += 1
            }
        }
        stop.flag.store(true, ordering: .relaxed)
        while !remover.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        #expect(measured + thrown == 20_000)
    }

    @Test func eightThreadsCallingEverythingAtOnce() throws {
        let steps = Int(ProcessInfo.processInfo.environment["ROWKIT_STRESS_STEPS"] ?? "") ?? 600
        var rng = SeededRandom(seed: 4242)
        let sections = (0..<3).map { _ in ListSection(header: Self.newRow(&rng), rows: (0..<3_000).map { _ in Self.newRow(&rng) }) }
        let e = try makeEngine(sections, width: 320, viewport: 600, anchoring: .stayAtTop)
        e.overscan = 50
        e.startBackgroundMeasurement(chunkSize: 256) { _ in }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var rng = SeededRandom(seed: 9_000 + UInt64(thread))
            for _ in 0..<steps {
                do { try Self.step(e, &rng) } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "unexpected errors: \(failures.withLock { $0.prefix(5) })")
        e.cancelBackgroundMeasurement()

        // Consistent inside.
        let consistent = e.state.withLock { s in
            s.items.countsAreConsistent && s.items.generation == s.generation && s.items.count == s.ids.count
                && s.heights.count == s.ids.count && s.idSet.count == s.ids.count
                && s.sections.start(of: s.sections.count) == s.ids.count
        }
        #expect(consistent)
        // And the same as a fresh engine of what it holds, once everything is measured.
        try e.measureAll()
        #expect(e.unmeasuredCount == 0)
        let (rows, table) = e.state.withLock { s in ((0..<s.ids.count).map { s.keptRows[s.ids[$0]]! }, s.sections.sections) }
        var start = 0
        var rebuilt: [ListSection<TestRow>] = []
        for section in table {
            let header = section.hasHeader ? rows[start] : nil
            let first = start + (section.hasHeader ? 1 : 0)
            let footer = section.hasFooter ? rows[first + section.rowCount] : nil
            rebuilt.append(ListSection(header: header, rows: Array(rows[first..<(first + section.rowCount)]), footer: footer))
            start += section.itemCount
        }
        let fresh = try makeEngine(rebuilt, width: e.width)
        try fresh.measureAll()
        #expect(fresh.allHeights == e.allHeights)
        #expect((0..<fresh.itemCount).map { try! fresh.item(at: $0).id } == (0..<e.itemCount).map { try! e.item(at: $0).id })
    }
}
