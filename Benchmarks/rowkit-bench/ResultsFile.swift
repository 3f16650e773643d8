import Glibc

// One JSON file per benchmark run (`--results DIR`; `make bench` uses Benchmarks/results): the
// date, the machine (cores, kernel, load before and after), the command, and every figure
// with its target, as `Results.json()` writes them.

/// Writes `results` to `directory/text-<UTC date>.json` (creating the folder) and returns the
/// path. The file is written under a temporary name and renamed, so a failed run leaves no
/// half-written file.
func writeResultsFile(_ results: Results, directory: String, arguments: [String]) throws(BenchError) -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
    let date = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &parts)
    let stamp = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

    var machine = JSONObject()
    machine.add("cores", coreCount())
    var name = utsname()
    if uname(&name) == 0 {
        let release = withUnsafePointer(to: name.release) { $0.withMemoryRebound(to: CChar.self, capacity: 65) { String(cString: $0) } }
        let arch = withUnsafePointer(to: name.machine) { $0.withMemoryRebound(to: CChar.self, capacity: 65) { String(cString: $0) } }
        machine.add("kernel", release)
        machine.add("architecture", arch)
    }
    func loads(_ values: [Double]?) -> String { values.map { $0.map { fixed($0, 2) }.joined(separator: " ") } ?? "n/a" }
    machine.add("load_average_before", loads(results.loadBefore))
    machine.add("load_average_after", loads(results.loadAfter))
    machine.add("load_note", "1/5/15-minute load averages from /proc/loadavg; other processes share the cores, so wall-clock figures are noisy")

    var file = JSONObject()
    file.add("benchmark", "rowkit-bench: text engine and cells vs Pango")
    file.add("date", date)
    file.add("command", (["rowkit-bench"] + arguments).joined(separator: " "))
    file.add("machine", machine)
    file.add("results", results.json())

    guard mkdirs(directory) else { throw .cannotWrite(directory, String(cString: strerror(errno))) }
    let path = directory + "/text-" + stamp + ".json"
    let temporary = path + ".partial"
    guard let handle = fopen(temporary, "wb") else { throw .cannotWrite(temporary, String(cString: strerror(errno))) }
    let bytes = Array((file.text + "\n").utf8)
    let written = fwrite(bytes, 1, bytes.count, handle)
    let closed = fclose(handle)
    guard written == bytes.count, closed == 0, rename(temporary, path) == 0 else {
        let reason = String(cString: strerror(errno))
        unlink(temporary)
        throw .cannotWrite(path, reason)
    }
    return path
}

/// Creates `path` and its parents as needed; true when it exists afterwards as a folder.
private func mkdirs(_ path: String) -> Bool {
    var status = stat()
    if stat(path, &status) == 0 { return (status.st_mode & S_IFMT) == S_IFDIR }
    if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
        guard mkdirs(String(path[..<slash])) else { return false }
    }
    return mkdir(path, 0o755) == 0 || errno == EEXIST
}

/// What the benchmark itself can fail at.
enum BenchError: Error, CustomStringConvertible {
    case cannotWrite(String, String)

    var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }
}
