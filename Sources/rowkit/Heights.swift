import ArgumentParser
import Dispatch
import Foundation
import RowKitCells
import RowKitIO
import RowKitList
import Synchronization

struct Heights: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compute every row's exact height and y at a width, as JSON Lines (for precomputing heights server-side).",
        discussion: """
        Output: one {"row": i, "section": s, "y": y, "height": h} per row (and {"header": s, …} per \
        section title), in list order; i is the row's index in its section as written. Heights and y \
        are the list engine's (1/64 px units, summed exactly). Rows are read streaming (JSON Lines, a \
        JSON array or {"sections": …}, of any size; - reads standard input) and measured on all cores \
        in bounded memory. A row may name its template with "cell" (one of the --cell templates or a \
        built-in cell; the first --cell is the default) and give a unique "id". A bad row is reported \
        on standard error as file:line:column and skipped; the others are still measured and the exit \
        status is 1. A progress bar shows on standard error when it is a terminal.
        """
    )

    @OptionGroup var source: DataOptions

    @Option(parsing: .unconditional, help: "List width in pixels.")
    var width: Double

    func validate() throws {
        guard width.isFinite, width >= 1, width <= 30_000 else { throw ValidationError("--width must be in [1, 30000], not \(width)") }
        guard source.data != nil else { throw ValidationError("give --data (a file, or - for standard input)") }
    }

    /// One thing to measure: a row, or a section's title in the `section-header` cell.
    enum Job: Sendable {
        case row(RowFileRow)
        case header(section: Int, title: String)
    }

    /// What the reader yielded, in order, with the measuring jobs referred to by index.
    enum Event: @unchecked Sendable {
        case measured(Int)
        case error(InputError)
        case sectionStart(RowFileSection)
        case sectionEnd(RowFileSection)
    }

    /// A batch of rows read ahead of measuring: the jobs, the events in file order, and how
    /// far into the input the reader was (for progress); `failure` ends reading.
    struct Batch: @unchecked Sendable {
        var jobs: [Job] = []
        /// Each job's `scriptKey`, found as it is read (sorting the jobs copied each one out).
        var keys: [UInt32] = []
        /// The jobs' indices sorted by script (`Heights.scriptKey`), the order they are measured in.
        var order: [Int] = []
        var events: [Event] = []
        var bytesRead = 0
        var failure: InputError?
        var isLast = false
    }

    func run() throws {
        let templates = try source.templates()
        // Each template compiled once; rows are measured from their compact measuring forms
        // (no glyphs kept), which give exactly the drawing form's heights.
        let byName = Dictionary(templates.all.map { ($0.name, $0.compile()) }, uniquingKeysWith: { first, _ in first })
        let reader = try RowFileReader(path: source.data!, options: source.rowFileOptions(templates))
        let emitter = Emitter(output: OutputWriter(), byName: byName, width: width, source: reader.name)
        let progress = ProgressBar(label: "heights", unit: "rows")
        let total = reader.byteCount
        let width = self.width
        // Reading (one thread) overlaps measuring (all cores); at most two batches of 4,096
        // rows wait, so memory stays bounded whatever the input's size.
        let batches = BatchQueue(capacity: 2)
        let readerBox = UncheckedBox(reader)
        let readerThread = Thread {
            let reader = readerBox.value
            while true {
                var batch = Batch()
                do throws(InputError) {
                    while batch.jobs.count < 4096 {
                        // Hand over what was read before waiting for more input: a program that
                        // writes rows and waits for their heights gets them.
                        if !batch.events.isEmpty && !reader.hasItemWithoutWaiting { break }
                        guard let item = try reader.next() else { batch.isLast = true; break }
                        switch item {
                        case .row(let row):
                            batch.keys.append(Self.scriptKey(row.data))
                            batch.jobs.append(.row(row))
                            batch.events.append(.measured(batch.jobs.count - 1))
                        case .error(let error):
                            batch.events.append(.error(error))
                        case .sectionStart(let section):
                            batch.events.append(.sectionStart(section))
                            if section.titleIsFinal, let title = section.title {
                                batch.keys.append(Self.scriptKey(title))
                                batch.jobs.append(.header(section: section.index, title: title))
                                batch.events.append(.measured(batch.jobs.count - 1))
                            }
                        case .sectionEnd(let section):
                            batch.events.append(.sectionEnd(section))
                        }
                    }
                } catch {
                    batch.failure = error
                    batch.isLast = true
                }
                batch.bytesRead = reader.bytesRead
                batch.order = Self.scriptOrder(keys: batch.keys)
                batch.keys = []
                let last = batch.isLast
                guard batches.push(batch), !last else { return }
            }
        }
        readerThread.stackSize = 8 << 20
        readerThread.start()
        defer { batches.close() }
        // Writing a batch's results (one thread) overlaps measuring the next (all cores): with
        // the two done one after the other, writing was a serial stage in which a core idled.
        let writing = DispatchQueue(label: "rowkit.heights.writing")
        let written = DispatchGroup()
        let writeFailure = Mutex<(any Error)?>(nil)
        let emitterBox = UncheckedBox(emitter)
        let progressBox = UncheckedBox(progress)
        var rows = 0
        var stop = false
        var readFailure: InputError?
        let pool = MeasuringPool()
        while !stop, let batch = batches.pop() {
            // Output already failed (a closed pipe, a full disk): measure nothing more.
            if writeFailure.withLock({ $0 != nil }) { break }
            let results = ResultSlots<Result<Double, CommandError>>(count: batch.jobs.count)
            let jobs = batch.jobs, order = batch.order
            pool.run(count: jobs.count) { k in
                let i = order[k]
                results[i] = Self.measure(jobs[i], byName: byName, width: width)
            }
            // The previous batch is written before this one starts being written.
            written.wait()
            if writeFailure.withLock({ $0 != nil }) { break }
            rows += jobs.count
            let rowsSoFar = rows
            readFailure = batch.failure
            stop = batch.failure != nil || batch.isLast
            writing.async(group: written) {
                let emitter = emitterBox.value
                do {
                    for event in batch.events {
                        switch event {
                        case .measured(let i): try emitter.measured(jobs[i], results[i]!)
                        case .error(let error): try emitter.error(error.description)
                        case .sectionStart(let section): emitter.start(section)
                        case .sectionEnd(let section): try emitter.end(section)
                        }
                    }
                    // A short batch was cut where the input paused: its heights go out now.
                    if batch.jobs.count < 4096 { try emitter.output.flush() }
                    progressBox.value.update(rowsSoFar, fraction: total.map { Double(batch.bytesRead) / Double(max(1, $0)) })
                } catch {
                    writeFailure.withLock { $0 = error }
                }
            }
        }
        written.wait()
        if let failure = writeFailure.withLock({ $0 }) { throw failure }
        try emitter.output.flush()
        progress.finish()
        if let readFailure { throw readFailure }
        if emitter.failed { throw ExitCode(1) }
    }

    /// A bounded queue of batches between the reading thread and the measuring one.
    final class BatchQueue: @unchecked Sendable {
        private let lock = NSCondition()
        private var items: [Batch] = []
        private var closed = false
        private let capacity: Int

        init(capacity: Int) { self.capacity = capacity }

        /// Adds a batch, waiting while the queue is full; false once the consumer has closed it.
        func push(_ batch: Batch) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            while items.count >= capacity && !closed { lock.wait() }
            guard !closed else { return false }
            items.append(batch)
            lock.broadcast()
            return true
        }

        /// The next batch, waiting for one; nil once closed and empty.
        func pop() -> Batch? {
            lock.lock()
            defer { lock.unlock() }
            while items.isEmpty && !closed { lock.wait() }
            guard !items.isEmpty else { return nil }
            let batch = items.removeFirst()
            lock.broadcast()
            return batch
        }

        /// Stops the producer (the consumer is done or failed).
        func close() {
            lock.lock()
            closed = true
            lock.broadcast()
            lock.unlock()
        }
    }

    /// The jobs' indices in measuring order, from their `scriptKey`s: sorted by key (then
    /// file order), so that the pool gives each thread rows of fewer scripts (see `MeasuringPool`).
    static func scriptOrder(keys: [UInt32]) -> [Int] {
        // Key and index packed in one integer: a plain sort, no comparison closure.
        var packed = keys.indices.map { i in UInt64(keys[i]) << 32 | UInt64(UInt32(truncatingIfNeeded: i)) }
        packed.sort()
        return packed.map { Int(UInt32(truncatingIfNeeded: $0)) }
    }

    /// A rough script of a row: the smallest `scriptKey(_: String)` of its string fields, 0 when
    /// none holds a letter. The smallest, not the first: a dictionary's order of the same fields
    /// differs from row to row (each dictionary hashes with its own seed), so "the first" would
    /// group alike rows apart. Only which thread measures the row depends on it, never its height.
    static func scriptKey(_ data: RowData) -> UInt32 {
        var smallest = UInt32.max
        for value in data.fields.values {
            guard case .string(let text) = value else { continue }
            smallest = min(smallest, scriptKey(text))
        }
        return smallest == .max ? 0 : smallest
    }

    /// The block of the first letter among the first 32 scalars of `text` (`UInt32.max` if
    /// none): Latin is 0, CJK (with kana) one block, Hangul one, Arabic one; other letters their
    /// 128-code-point block.
    static func scriptKey(_ text: String) -> UInt32 {
        var seen = 0
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                if (v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A { return 0 }
            } else if scalar.properties.isAlphabetic {
                switch v {
                case ..<0x0250, 0x1E00...0x1EFF: return 0
                case 0x0600...0x06FF, 0x0750...0x077F, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return 0x0600
                case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return 0xAC00
                case 0x2E80...0x9FFF, 0xF900...0xFAFF, 0x20000...: return 0x3000
                default: return v & ~0x7F
                }
            }
            seen += 1
            if seen == 32 { break }
        }
        return .max
    }

    /// The height of one job's cell at `width`.
    static func measure(_ job: Job, byName: [String: CompiledLayout], width: Double) -> Result<Double, CommandError> {
        let template: CompiledLayout?, data: RowData
        switch job {
        case .row(let row): template = byName[row.template]; data = row.data
        case .header(_, let title): template = byName[ClassicCells.sectionHeader.name]; data = ["title": title]
        }
        guard let template else { return .failure(CommandError("no template")) }
        do {
            let height = try template.metrics(for: data).height(width: width)
            // A list row holds at most HeightIndex.maximumHeight; cutting a taller row would
            // give every later y silently wrong.
            guard height <= HeightIndex.maximumHeight else {
                return .failure(CommandError("the row is \(JSONText.number(height)) px tall, more than a list row can be (\(JSONText.number(HeightIndex.maximumHeight)) px)"))
            }
            return .success(height)
        } catch {
            return .failure(CommandError("\(error)"))
        }
    }

    /// Writes the results in list order, with y summed in the list engine's 1/64 px units.
    /// A section whose title comes after its rows in the file is held back (heights only, 16
    /// bytes a row) until its end, since its header comes first in the list.
    final class Emitter {
        let output: OutputWriter
        let byName: [String: CompiledLayout]
        let width: Double
        let source: String
        private(set) var failed = false
        private var y: Int64 = 0
        private var heldSection: RowFileSection?
        private var held: [(row: Int, units: Int64)] = []

        init(output: OutputWriter, byName: [String: CompiledLayout], width: Double, source: String) {
            self.output = output
            self.byName = byName
            self.width = width
            self.source = source
        }

        /// The list engine's rounding of a height to 1/64 px (see `HeightIndex`).
        static func units(_ height: Double) -> Int64 {
            guard height > 0 else { return 0 }
            return Int64(Int32(clamping: Int64((min(height, HeightIndex.maximumHeight) * HeightIndex.unitsPerPixel).rounded())))
        }

        static func pixels(_ units: Int64) -> String { JSONText.number(Double(units) / HeightIndex.unitsPerPixel) }

        func error(_ message: String) throws(OutputError) {
            failed = true
            try output.flush()
            Diagnostics.error(message)
        }

        func start(_ section: RowFileSection) {
            if !section.titleIsFinal { heldSection = section }
        }

        func measured(_ job: Job, _ result: Result<Double, CommandError>) throws(OutputError) {
            switch (job, result) {
            case (.row(let row), .success(let height)):
                let units = Self.units(height)
                if heldSection != nil {
                    held.append((row.row, units))
                } else {
                    try line(row: row.row, section: row.section, units: units)
                }
            case (.header(let section, _), .success(let height)):
                try header(section, units: Self.units(height))
            case (.row(let row), .failure(let failure)):
                try error("\(source):\(row.position): cannot measure row \(row.row) of section \(row.section): \(failure)")
            case (.header(let section, _), .failure(let failure)):
                try error("\(source): cannot measure the title of section \(section): \(failure)")
            }
        }

        func end(_ section: RowFileSection) throws(OutputError) {
            guard let heldSection, heldSection.index == section.index else { return }
            self.heldSection = nil
            if let title = section.title {
                switch Heights.measure(.header(section: section.index, title: title), byName: byName, width: width) {
                case .success(let height): try header(section.index, units: Self.units(height))
                case .failure(let failure): try error("\(source): cannot measure the title of section \(section.index): \(failure)")
                }
            }
            for entry in held { try line(row: entry.row, section: section.index, units: entry.units) }
            held.removeAll()
        }

        deinit { scratch.deallocate() }

        /// Where a row's line is built: the longest is 10 + 2 × 20 + 14 + 2 × 28 + 1 bytes.
        private let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 160)

        private static func put(_ text: StaticString, _ p: UnsafeMutablePointer<UInt8>, _ n: inout Int) {
            (p + n).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            n += text.utf8CodeUnitCount
        }

        /// One row's line, built as bytes in place: the string interpolation cost ~3,000
        /// instructions a row, appending to an array ~2,500 (its bounds, uniqueness and
        /// exclusivity checks); this ~400.
        private func line(row: Int, section: Int, units: Int64) throws(OutputError) {
            let p = scratch
            var n = 0
            Self.put("{\"row\": ", p, &n)
            n += JSONText.writeInteger(Int64(row), to: p + n)
            Self.put(", \"section\": ", p, &n)
            n += JSONText.writeInteger(Int64(section), to: p + n)
            Self.put(", \"y\": ", p, &n)
            if let yCount = JSONText.writeSixtyFourths(y, to: p + n) {
                n += yCount
                Self.put(", \"height\": ", p, &n)
                if let heightCount = JSONText.writeSixtyFourths(units, to: p + n) {
                    n += heightCount
                    p[n] = UInt8(ascii: "}")
                    n += 1
                    try output.writeLine(bytes: UnsafeBufferPointer(start: p, count: n))
                    y += units
                    return
                }
            }
            try longLine(row: row, section: section, units: units)
        }

        /// A line whose y or height is 2³³ px or more, built through `JSONText.number`.
        private func longLine(row: Int, section: Int, units: Int64) throws(OutputError) {
            lineBytes.removeAll(keepingCapacity: true)
            lineBytes.append(contentsOf: Self.rowPrefix)
            JSONText.appendInteger(Int64(row), to: &lineBytes)
            lineBytes.append(contentsOf: Self.sectionKey)
            JSONText.appendInteger(Int64(section), to: &lineBytes)
            lineBytes.append(contentsOf: Self.yKey)
            JSONText.appendSixtyFourths(y, to: &lineBytes)
            lineBytes.append(contentsOf: Self.heightKey)
            JSONText.appendSixtyFourths(units, to: &lineBytes)
            lineBytes.append(UInt8(ascii: "}"))
            try output.writeLine(bytes: lineBytes)
            y += units
        }

        private var lineBytes: [UInt8] = []
        private static let rowPrefix = Array("{\"row\": ".utf8)
        private static let sectionKey = Array(", \"section\": ".utf8)
        private static let yKey = Array(", \"y\": ".utf8)
        private static let heightKey = Array(", \"height\": ".utf8)

        private func header(_ section: Int, units: Int64) throws(OutputError) {
            try output.writeLine("{\"header\": \(section), \"y\": \(Self.pixels(y)), \"height\": \(Self.pixels(units))}")
            y += units
        }
    }
}
