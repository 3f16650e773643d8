import Foundation
import Testing

/// What one run of the `rowkit` binary did.
struct Run: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var description: String { "status \(status)\n--- stdout:\n\(stdout.prefix(2000))\n--- stderr:\n\(stderr.prefix(2000))" }
    /// Ended by itself (not a trap or signal) with this status.
    var exitedCleanly: Bool { status >= 0 && status < 128 }
}

/// The built binary: `$ROWKIT`, or `rowkit` next to the test bundle (the same build).
let rowkitBinary: String = {
    if let path = ProcessInfo.processInfo.environment["ROWKIT"], !path.isEmpty { return path }
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent("rowkit").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        folder.deleteLastPathComponent()
    }
    return FileManager.default.currentDirectoryPath + "/.build/debug/rowkit"
}()

/// The package's root folder (for Samples/ and README.md).
let packageRoot: String = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        folder.deleteLastPathComponent()
    }
    return folder.path
}()

/// Single-quotes `text` for /bin/sh.
func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

/// A scratch folder for one test, removed at the end.
final class Scratch {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "rowkit-cli-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name`; returns the path.
    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let target = file(name)
        #expect(FileManager.default.createFile(atPath: target, contents: Data(text.utf8)))
        return target
    }

    /// Writes `bytes` to `name`; returns the path.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) -> String {
        let target = file(name)
        #expect(FileManager.default.createFile(atPath: target, contents: Data(bytes)))
        return target
    }

    func read(_ name: String) -> Data? { FileManager.default.contents(atPath: file(name)) }

    /// The names in the folder.
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    /// The names in the folder `name` inside this one.
    func contents(of name: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: file(name))) ?? []).sorted() }

    /// Runs `rowkit <arguments>` in this folder through /bin/sh, so `redirects` (`<&-`, `>&-`,
    /// `2>&-`, `>/dev/full`, `< file`) and `setup` (`ulimit -f 1; trap '' XFSZ`) apply to it.
    func rowkit(_ arguments: String, stdin: String? = nil, redirects: String = "", setup: String = "") -> Run {
        let out = file(".stdout-\(UUID().uuidString)"), err = file(".stderr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        var inputRedirect = "< /dev/null"
        if let stdin {
            let input = file(".stdin-\(UUID().uuidString)")
            #expect(FileManager.default.createFile(atPath: input, contents: Data(stdin.utf8)))
            inputRedirect = "< \(shellQuoted(input))"
        }
        // The command's own output goes to files opened by the outer shell (so `>&-` inside
        // the inner one closes what rowkit sees, nothing else).
        let inner = "\(setup) exec \(shellQuoted(rowkitBinary)) \(arguments) \(inputRedirect) \(redirects)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cd \(shellQuoted(path)) && /bin/sh -c \(shellQuoted(inner)) > \(shellQuoted(out)) 2> \(shellQuoted(err))"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TERM": "dumb"]) { _, new in new }
        do { try process.run() } catch { return Run(status: -1, stdout: "", stderr: "cannot run: \(error)") }
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        return Run(status: status, stdout: stdout, stderr: stderr)
    }
}

/// Whether the tests that open a window can run (Xvfb is installed).
let xvfbAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run")

extension Scratch {
    /// ``rowkit(_:stdin:redirects:setup:)`` under a display of its own (`xvfb-run`), with the
    /// GTK settings of the GUI tests: for `rowkit view`.
    func rowkitInWindow(_ arguments: String, redirects: String = "", setup: String = "") -> Run {
        rowkit(arguments, redirects: redirects,
               setup: setup + #" export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none; exec xvfb-run -a sh -c 'shift; exec "$@"' sh"#)
    }
}

/// Checks the run ended cleanly with `status`, and its standard error contains every one of `messages`.
func expectRun(_ run: Run, status: Int32, stderr messages: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(run.exitedCleanly, "not a clean exit (trap or signal): \(run)", sourceLocation: sourceLocation)
    #expect(run.status == status, "\(run)", sourceLocation: sourceLocation)
    for message in messages {
        #expect(run.stderr.contains(message), "stderr lacks \(message.debugDescription): \(run)", sourceLocation: sourceLocation)
    }
}

/// A minimal valid PNG of `width`×`height` gray pixels (stored zlib blocks, no compression
/// library needed): signature, IHDR, IDAT, IEND.
func makePNG(width: Int, height: Int) -> [UInt8] {
    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }
    var raw: [UInt8] = []
    raw.reserveCapacity((width + 1) * height)
    for _ in 0..<height { raw.append(0); raw.append(contentsOf: repeatElement(0x80, count: width)) }
    // zlib stream of stored blocks, with an Adler-32.
    var z: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let n = min(65535, raw.count - offset)
        let last: UInt8 = offset + n == raw.count ? 1 : 0
        z.append(last)
        z += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
        z += raw[offset..<(offset + n)]
        offset += n
    } while offset < raw.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
    z += be32(b << 16 | a)
    let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 0, 0, 0, 0] // 8-bit gray
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", z) + chunk("IEND", [])
}

/// A PNG header claiming `width`×`height` with no pixel data (refused before decoding).
func pngHeaderOnly(width: Int, height: Int) -> [UInt8] {
    let full = makePNG(width: 1, height: 1)
    var bytes = Array(full.prefix(33))
    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    bytes.replaceSubrange(16..<24, with: be32(UInt32(width)) + be32(UInt32(height)))
    return bytes
}
