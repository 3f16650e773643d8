import Foundation
import RowKitCells
import Synchronization
import Testing
@testable import rowkit

/// `rowkit heights`' measuring threads (MeasuringPool.swift) and the script order it measures in.
@Suite struct MeasuringPoolTests {
    /// Every index is measured exactly once, whatever the count against the threads and pieces,
    /// and only the pool's own threads (the same ones every batch) run the work — the reason
    /// the pool exists: the text engine's caches are per thread.
    @Test(arguments: [1, 2, 3, 4])
    func everyIndexOnceOnTheSameThreads(threads: Int) {
        let pool = MeasuringPool(threadCount: threads)
        defer { pool.shutdown() }
        let runners = Mutex<Set<UInt>>([])
        for count in [0, 1, 2, 7, 8, 9, 17, 100, 1_001, 4_096] {
            let calls = Mutex([Int](repeating: 0, count: count))
            pool.run(count: count) { k in
                calls.withLock { $0[k] += 1 }
                runners.withLock { _ = $0.insert(UInt(pthread_self())) }
            }
            #expect(calls.withLock { $0 } == [Int](repeating: 1, count: count), "count \(count)")
        }
        #expect(runners.withLock { $0.count } <= threads)
    }

    /// Work is shared: with slow items, a second thread takes part (the caller does not do it all).
    @Test func helpersTakePart() {
        let pool = MeasuringPool(threadCount: 2)
        defer { pool.shutdown() }
        let runners = Mutex<Set<UInt>>([])
        pool.run(count: 64) { _ in
            usleep(2_000)
            runners.withLock { _ = $0.insert(UInt(pthread_self())) }
        }
        #expect(runners.withLock { $0.count } == 2)
    }

    @Test func scriptKeysGroupRowsByScript() {
        #expect(Heights.scriptKey("Hello world") == 0)
        #expect(Heights.scriptKey("“123” — Émile") == 0)
        #expect(Heights.scriptKey("مرحبا بالعالم") == 0x0600)
        #expect(Heights.scriptKey("اردو") == Heights.scriptKey("عربي"))
        #expect(Heights.scriptKey("中文") == 0x3000)
        #expect(Heights.scriptKey("かな") == Heights.scriptKey("中文"))
        #expect(Heights.scriptKey("한국어") == 0xAC00)
        #expect(Heights.scriptKey("ภาษาไทย") == 0x0E00)
        #expect(Heights.scriptKey("שלום") == 0x0580)
        #expect(Heights.scriptKey("12345 !!") == .max)
        #expect(Heights.scriptKey("") == .max)
        #expect(Heights.scriptKey(["caption": "12", "body": "Привет"] as RowData) == 0x0400)
        #expect(Heights.scriptKey(["caption": "12"] as RowData) == 0)
    }

    /// A row's key does not depend on the order its dictionary lists the fields in (which
    /// differs between dictionaries holding the same keys): the smallest key of its fields.
    @Test func rowKeyIsTheSameWhateverTheFieldOrder() {
        // All rows stay alive together: each dictionary's storage is then at its own address,
        // which seeds its hashing (a storage freed and reused at the same address would list
        // the fields in the same order every time, and the test would prove nothing).
        var rows: [RowData] = []
        for n in 0..<200 {
            var fields: [String: FieldValue] = [:]
            // Different capacities and insertion orders: different storage, different orders.
            fields.reserveCapacity(2 + n % 7)
            if n % 2 == 0 {
                fields["caption"] = .string("Hello"); fields["body"] = .string("Привет")
            } else {
                fields["body"] = .string("Привет"); fields["caption"] = .string("Hello")
            }
            rows.append(RowData(fields))
        }
        let keys = Set(rows.map { Heights.scriptKey($0) })
        let orders = Set(rows.map { Array($0.fields.keys) })
        #expect(keys == [0])
        // The test means something only if the field order did vary.
        #expect(orders.count > 1)
    }

    /// Shutting a pool down twice is harmless (the second call returns at once).
    @Test func shutdownTwiceReturns() {
        let pool = MeasuringPool(threadCount: 3)
        pool.run(count: 10) { _ in }
        pool.shutdown()
        pool.shutdown()
    }
}

/// `rowkit measure`'s chunks (Measure.swift): a chunk's results are held until it is written, so
/// what ends a chunk weighs each text by what its results may take.
@Suite struct MeasureChunkingTests {
    /// Lines of `bytes` each until the chunk is full.
    static func linesPerChunk(bytes: Int, widths: Int, lines: Bool) -> Int {
        var count = 0, weighted = 0
        repeat {
            count += 1
            weighted += bytes * Measure.resultWeight(widths: widths, lines: lines)
        } while !Measure.chunkIsFull(lines: count, weightedBytes: weighted)
        return count
    }

    @Test func manyWidthsWithLinesMakeSmallChunks() {
        // QA-84: 8 KB texts at 50 widths with --lines were chunked 4,096 at a time (32 MiB of
        // text), and their results reached 8.6 GB; now a chunk holds what 32 MiB of results may be.
        #expect(Self.linesPerChunk(bytes: 8_192, widths: 50, lines: true) <= 3)
        #expect(Self.linesPerChunk(bytes: 8_192, widths: 50, lines: false) <= 82)
        // Short texts at one width still go 4,096 at a time (the pipelining of small inputs).
        #expect(Self.linesPerChunk(bytes: 40, widths: 1, lines: false) == 4096)
        #expect(Self.linesPerChunk(bytes: 40, widths: 1, lines: true) == 4096)
        // No widths given (each line names its own) counts as one.
        #expect(Measure.resultWeight(widths: 0, lines: false) == 1)
    }
}
