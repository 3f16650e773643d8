import Foundation
import Testing

/// Documented limits with clear errors: YAML aliases and nesting, image pixels, canvas pixels,
/// --scale, --selected.
@Suite struct CLILimitTests {
    /// A template whose layout is a 9-level alias chain: 10⁹ text nodes once expanded.
    static var aliasBomb: String {
        var items = ["&a0 {text: {field: body}}"]
        for level in 1...9 {
            items.append("&a\(level) {vstack: {children: [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]}}")
        }
        return "name: bomb\nlayout:\n  vstack:\n    children: [" + items.joined(separator: ", ") + "]\n"
    }

    @Test func anAliasChainFailsFastWithAClearError() {
        let scratch = Scratch()
        scratch.write("bomb.yaml", Self.aliasBomb)
        let started = Date()
        let run = scratch.rowkit("render --cell bomb.yaml --width 300 --output o.png", setup: "ulimit -v 4000000;")
        expectRun(run, status: 1, stderr: ["bomb.yaml:4:", "more than 100000 nodes once aliases are expanded"])
        #expect(Date().timeIntervalSince(started) < 30)
        // An alias used as a mapping key (which the YAML library would hash) is caught too.
        var keyed = ""
        keyed += "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { keyed += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        keyed += "? *a9\n: 1\n"
        scratch.write("keyed.yaml", keyed)
        expectRun(scratch.rowkit("render --cell keyed.yaml --width 300 --output o.png"), status: 1, stderr: ["more than 100000 nodes"])
        scratch.write("sheet.yaml", "styles:\n" + keyed.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
        scratch.write("t.yaml", "name: t\nlayout: {text: {field: a}}\n")
        expectRun(scratch.rowkit("render --cell t.yaml --stylesheet sheet.yaml --width 300 --output o.png"), status: 1,
                  stderr: ["sheet.yaml:", "more than 100000 nodes"])
    }

    @Test func deepNestingIsRefused() {
        let scratch = Scratch()
        scratch.write("deep.yaml", "name: deep\nlayout: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "\n")
        expectRun(scratch.rowkit("render --cell deep.yaml --width 300 --output o.png"), status: 1,
                  stderr: ["nested deeper than 256 levels"])
    }

    @Test func hugeImagesAreRefusedBeforeDecoding() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("icons"), withIntermediateDirectories: true)
        // 20000×20000 (1.6 GB decoded) claimed by the header; refused without decoding, under a
        // 1 GB address-space limit that decoding it would break.
        scratch.write("icons/niftywow.png", bytes: pngHeaderOnly(width: 20000, height: 20000))
        scratch.write("icons/fruit.png", bytes: makePNG(width: 5000, height: 5000))
        scratch.write("icons/cat.png", bytes: makePNG(width: 1000, height: 800))
        scratch.write("icons/bird.png", bytes: Array("not a png".utf8))
        let run = scratch.rowkit("render --cell project --width 320 --images icons --output out.png", setup: "ulimit -v 2000000;")
        expectRun(run, status: 0, stderr: [
            "icons/niftywow.png': 20000×20000 pixels is more than the 16777216-pixel limit",
            "icons/fruit.png': 5000×5000 pixels is more than the 16777216-pixel limit",
            "icons/bird.png': not a PNG file",
        ])
        #expect(!run.stderr.contains("cat.png"), "a 1000×800 PNG is decoded and drawn: \(run)")
        #expect(scratch.read("out.png") != nil)
    }

    /// An image name that is a FIFO (or a device) in the images folder: a placeholder with a
    /// warning, never a hang waiting for a writer that never comes.
    @Test func anImageThatIsNotARegularFileIsAPlaceholderNotAHang() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("icons"), withIntermediateDirectories: true)
        #expect(mkfifo(scratch.file("icons/fruit.png"), 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("icons/cat.png"), withDestinationPath: "/dev/zero")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rowkitBinary)
        process.arguments = ["render", "--cell", "project", "--width", "320", "--images", "icons", "--quiet", "--output", "out.png"]
        process.currentDirectoryURL = URL(fileURLWithPath: scratch.path)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        let hung = process.isRunning
        if hung { kill(process.processIdentifier, SIGKILL) } // SIGTERM may be blocked in the child
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(!hung, "still waiting on the FIFO after 60 s")
        #expect(!hung && process.terminationStatus == 0, "\(message)")
        #expect(message.contains("icons/fruit.png': not a regular file"), "\(message)")
        #expect(message.contains("icons/cat.png': not a regular file"), "\(message)")
        #expect(scratch.read("out.png") != nil)
    }

    @Test func scaleAndCanvasLimits() {
        let scratch = Scratch()
        expectRun(scratch.rowkit("draw --width 100 --text hi --scale 1e-9 --output t.png"), status: 64, stderr: ["--scale must be in 0.05...8"])
        expectRun(scratch.rowkit("render --cell label --width 300 --scale 9 --output t.png"), status: 64, stderr: ["--scale must be in"])
        let scaled = scratch.rowkit("draw --width 100 --text hi --scale 0.5 --output t.png")
        expectRun(scaled, status: 0, stderr: ["device pixels at scale 0.5"])
        var rows = "["
        for i in 0..<3000 { rows += (i > 0 ? "," : "") + "{\"text\": \"row \(i)\"}" }
        scratch.write("rows.json", rows + "]")
        let huge = scratch.rowkit("render --cell label --width 3000 --scale 8 --data rows.json --output big.png")
        expectRun(huge, status: 1, stderr: ["invalid canvas size"])
        let many = scratch.rowkit("render --cell label --width 10000 --data rows.json --offset 0 --height 12000 --output big.png")
        expectRun(many, status: 1, stderr: ["million-pixel limit"])
        #expect(!scratch.contents.contains("big.png"))
    }

    @Test(arguments: ["-9223372036854775808", "-1", "3", "9223372036854775807"])
    func anOutOfRangeSelectionIsAnError(_ row: String) {
        let scratch = Scratch()
        let run = scratch.rowkit("render --cell label --width 300 --selected=\(row) --output o.png")
        #expect(run.exitedCleanly && run.status != 0, "\(run)")
        #expect(run.stderr.contains("--selected"), "\(run)")
        #expect(!scratch.contents.contains("o.png"))
    }
}
