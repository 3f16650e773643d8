import Glibc

// Timing and process measurements: a monotonic clock, best-of-N repetition, RSS.

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC: unaffected by wall-clock changes).
@inline(__always) func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The result of timing a loop: the best repetition, per item.
struct Timing {
    /// Best (lowest) time per item over the repetitions, in microseconds.
    var microsecondsPerItem: Double
    /// Items processed per repetition (items per pass × passes).
    var itemsPerRepetition: Int
    /// Passes over the items per repetition.
    var passes: Int
    /// Every repetition's time per item, in microseconds, in run order.
    var all: [Double]
    /// Slow loops: every repetition's CPU time (user + system) per item in microseconds, and
    /// its minor page faults and involuntary context switches (getrusage), in run order.
    var cpu: [Double] = [], pageFaults: [Int] = [], preemptions: [Int] = []

    /// Best time per item, in nanoseconds.
    var nanosecondsPerItem: Double { microsecondsPerItem * 1000 }
}

/// Knobs shared by every timed loop.
struct TimingPolicy {
    /// Repetitions of each measurement; the best one is reported.
    var repetitions = 3
    /// A repetition of a fast loop runs whole passes until at least this long.
    var minimumSeconds = 0.5
}

/// Sink for benchmark results, so the optimizer cannot drop the work that produced them.
struct Checksum {
    private(set) var value: UInt64 = 0

    mutating func add(_ x: UInt64) { value = (value &* 0x100_0000_01B3) ^ x }
}

/// Times a loop that is fast: each repetition runs whole passes of `pass` over `items` items
/// until `policy.minimumSeconds` have elapsed; the best repetition's time per item is
/// returned. `pass` receives a counter that increases across all passes of all repetitions
/// (so a caller can alternate widths and never ask for the width it measured last) and returns
/// a checksum of its results.
func timeFastLoop(items: Int, policy: TimingPolicy, checksum: inout Checksum,
                  _ pass: (_ passNumber: Int) throws -> UInt64) rethrows -> Timing {
    precondition(items > 0)
    let budget = UInt64(policy.minimumSeconds * 1e9)
    var passNumber = 0
    var all: [Double] = []
    var passesPerRepetition = 0
    for _ in 0..<policy.repetitions {
        var passes = 0
        let start = monotonicNanoseconds()
        var elapsed: UInt64 = 0
        repeat {
            checksum.add(try pass(passNumber))
            passNumber += 1
            passes += 1
            elapsed = monotonicNanoseconds() - start
        } while elapsed < budget
        all.append(Double(elapsed) / 1000 / Double(passes * items))
        passesPerRepetition = max(passesPerRepetition, passes)
    }
    return Timing(microsecondsPerItem: all.min()!, itemsPerRepetition: passesPerRepetition * items,
                  passes: passesPerRepetition, all: all)
}

/// Times a slow loop once per repetition, between an untimed `setup` (e.g. emptying a cache)
/// and an untimed `after` (e.g. reading statistics, freeing results); the best repetition's
/// time per item is returned.
func timeSlowLoop(items: Int, policy: TimingPolicy, checksum: inout Checksum,
                  setup: () -> Void = {}, after: (_ repetition: Int) -> Void = { _ in },
                  _ pass: (_ repetition: Int) throws -> UInt64) rethrows -> Timing {
    precondition(items > 0)
    var all: [Double] = [], cpu: [Double] = []
    var faults: [Int] = [], preempted: [Int] = []
    for repetition in 0..<policy.repetitions {
        setup()
        let before = resourceUsage()
        let start = monotonicNanoseconds()
        checksum.add(try pass(repetition))
        let elapsed = monotonicNanoseconds() - start
        let used = resourceUsage()
        after(repetition)
        all.append(Double(elapsed) / 1000 / Double(items))
        cpu.append((used.cpu - before.cpu) / Double(items))
        faults.append(used.faults - before.faults)
        preempted.append(used.preempted - before.preempted)
    }
    var timing = Timing(microsecondsPerItem: all.min()!, itemsPerRepetition: items, passes: 1, all: all)
    (timing.cpu, timing.pageFaults, timing.preemptions) = (cpu, faults, preempted)
    return timing
}

/// Times `body` on each of `items` separately, after an untimed `setupEach`, and sums the
/// times; the best repetition's time per item is returned. For work whose preparation must
/// not be timed (emptying a cache before every item).
func timeEachItem(_ items: [Int], policy: TimingPolicy, checksum: inout Checksum,
                  setupEach: (_ item: Int) -> Void, _ body: (_ item: Int) throws -> UInt64) rethrows -> Timing {
    precondition(!items.isEmpty)
    var all: [Double] = []
    for _ in 0..<policy.repetitions {
        var total: UInt64 = 0
        for item in items {
            setupEach(item)
            let start = monotonicNanoseconds()
            checksum.add(try body(item))
            total += monotonicNanoseconds() - start
        }
        all.append(Double(total) / 1000 / Double(items.count))
    }
    return Timing(microsecondsPerItem: all.min()!, itemsPerRepetition: items.count, passes: 1, all: all)
}

/// This process's CPU time (user + system, µs), minor page faults and involuntary context
/// switches so far (getrusage).
func resourceUsage() -> (cpu: Double, faults: Int, preempted: Int) {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    return (cpu, usage.ru_minflt, usage.ru_nivcsw)
}

/// Resident set size of this process in bytes, from /proc/self/statm (nil when unavailable).
func residentBytes() -> Int? {
    guard let text = readSmallFile("/proc/self/statm") else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
    return pages * sysconf(Int32(_SC_PAGESIZE))
}

/// The 1-minute load average, from /proc/loadavg (nil when unavailable): context for the
/// reader, since other processes on the machine disturb timings.
func loadAverage() -> Double? {
    guard let text = readSmallFile("/proc/loadavg"), let first = text.split(separator: " ").first else { return nil }
    return Double(first)
}

/// The contents of a small text file (up to 4 KiB), or nil.
func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n], as: UTF8.self)
}

/// The 1-, 5- and 15-minute load averages, from /proc/loadavg (nil when unavailable).
func loadAverages() -> [Double]? {
    guard let text = readSmallFile("/proc/loadavg") else { return nil }
    let values = text.split(separator: " ").prefix(3).compactMap { Double($0) }
    return values.count == 3 ? values : nil
}

/// Online processors (the cores the run could use).
func coreCount() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
