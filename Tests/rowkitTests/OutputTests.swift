import Foundation
import Testing

/// One output path: files are replaced atomically (a failed write never harms the previous
/// file), every write error names its reason, standard output carries only results, and
/// closed or full standard streams end the program cleanly.
@Suite struct CLIOutputTests {
    static let formats = ["png", "pdf", "svg"]

    @Test(arguments: formats)
    func aFailedOverwriteKeepsThePreviousFile(_ format: String) throws {
        let scratch = Scratch()
        let good = scratch.rowkit("render --cell caption-text --width 320 --quiet --output out.\(format)")
        expectRun(good, status: 0)
        let before = try #require(scratch.read("out.\(format)"))
        #expect(before.count > 1024)
        // A 1 KiB file size limit makes the write fail (EFBIG) part way, as a full disk would.
        let failed = scratch.rowkit("render --cell filter-list --width 480 --quiet --output out.\(format)",
                                    setup: "ulimit -f 2; trap '' XFSZ;")
        expectRun(failed, status: 1, stderr: ["out.\(format): write error: File too large"])
        #expect(scratch.read("out.\(format)") == before, "the previous file is intact")
        #expect(scratch.contents == ["out.\(format)"], "no temporary file is left: \(scratch.contents)")
        let draw = scratch.rowkit("draw --width 300 --input \(shellQuoted(packageRoot + "/Samples/texts.jsonl")) --output out.\(format)",
                                  setup: "ulimit -f 2; trap '' XFSZ;")
        expectRun(draw, status: 1, stderr: ["write error: File too large"])
        #expect(scratch.read("out.\(format)") == before)
    }

    @Test func aMissingOutputFolderOrADirectoryIsReportedBeforeDrawing() {
        let scratch = Scratch()
        expectRun(scratch.rowkit("render --cell label --width 300 --output nowhere/out.png"), status: 1,
                  stderr: ["nowhere/out.png: cannot write: the folder 'nowhere/' does not exist"])
        try? FileManager.default.createDirectory(atPath: scratch.file("taken.png"), withIntermediateDirectories: true)
        expectRun(scratch.rowkit("draw --width 300 --text hi --output taken.png"), status: 1, stderr: ["taken.png: cannot write: it is a directory"])
        try? FileManager.default.createSymbolicLink(atPath: scratch.file("device.svg"), withDestinationPath: "/dev/null")
        expectRun(scratch.rowkit("draw --width 300 --text hi --output device.svg"), status: 1, stderr: ["device.svg: cannot write: it exists and is not a regular file"])
    }

    @Test(arguments: formats)
    func aClosedStandardOutputNeverReceivesTheImage(_ format: String) throws {
        let scratch = Scratch()
        let run = scratch.rowkit("render --cell caption-text --width 320 --output out.\(format)", redirects: ">&-")
        expectRun(run, status: 1, stderr: ["standard output: write error: Bad file descriptor"])
        // Either the image was not written, or it is a whole image without row heights in it.
        if let data = scratch.read("out.\(format)") {
            #expect(!String(decoding: data, as: UTF8.self).contains("\"height\""))
        }
    }

    @Test(arguments: [
        "measure --width 100 --input TEXTS",
        "heights --cell caption-text --width 320 --data ROWS",
        "render --cell caption-text --width 320 --data ROWS --output out.png",
        "--help",
        "--version",
    ])
    func fullOrClosedStandardOutputIsAnErrorNotATrap(_ command: String) {
        let scratch = Scratch()
        scratch.write("texts.jsonl", "\"a\"\n\"b\"\n")
        scratch.write("rows.json", #"[{"caption": "a", "body": "b"}]"#)
        let arguments = command.replacingOccurrences(of: "TEXTS", with: "texts.jsonl").replacingOccurrences(of: "ROWS", with: "rows.json")
        expectRun(scratch.rowkit(arguments, redirects: ">/dev/full"), status: 1, stderr: ["No space left on device"])
        expectRun(scratch.rowkit(arguments, redirects: ">&-"), status: 1, stderr: ["Bad file descriptor"])
    }

    @Test func aClosedStandardErrorWithABadLineExitsCleanly() {
        let scratch = Scratch()
        let run = scratch.rowkit("measure --width 100", stdin: "\"good\"\n{bad\n", redirects: "2>&-")
        expectRun(run, status: 1)
        #expect(run.stdout.contains("\"index\": 0"))
        let fine = scratch.rowkit("measure --width 100", stdin: "\"good\"\n", redirects: "2>&-")
        expectRun(fine, status: 0)
    }

    @Test func onlyResultsGoToStandardOutput() {
        let scratch = Scratch()
        let draw = scratch.rowkit("draw --width 200 --text hello --output t.png")
        expectRun(draw, status: 0, stderr: ["wrote t.png: 1 paragraph, "])
        #expect(draw.stdout.isEmpty)
        let render = scratch.rowkit("render --cell label --width 300 --output r.png")
        expectRun(render, status: 0, stderr: ["wrote r.png"])
        #expect(render.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") }, "\(render)")
        let quiet = scratch.rowkit("render --cell label --width 300 --quiet --output q.png")
        expectRun(quiet, status: 0)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet)")
    }

    @Test func aBrokenPipeEndsQuietly() {
        let scratch = Scratch()
        var rows = "[\n"
        for i in 0..<5000 { rows += "{\"caption\": \"row \(i)\", \"body\": \"text\"}\(i < 4999 ? "," : "")\n" }
        scratch.write("rows.json", rows + "]\n")
        let run = scratch.rowkit("heights --cell caption-text --width 320 --data rows.json", redirects: "| head -1")
        // The shell reports head's status; what matters is no message and no trap.
        #expect(!run.stderr.contains("Fatal") && !run.stderr.contains("crashed"), "\(run)")
        #expect(run.stdout.split(separator: "\n").count == 1)
    }

    /// A reader that went away before the output (`rowkit render … | head -c0`): the write
    /// fails with EPIPE, the program ends quietly with status 1 (not killed by SIGPIPE), and
    /// no temporary image file is left beside the target.
    @Test(arguments: [
        "render --cell caption-text --width 320 --data rows.json --output out.png",
        "heights --cell caption-text --width 320 --data rows.json",
        "measure --width 100 --input texts.jsonl",
    ])
    func aPipeWithoutReaderEndsWithStatusOneAndLeavesNoTemporaryFile(_ command: String) throws {
        let scratch = Scratch()
        scratch.write("rows.json", #"{"caption": "a", "body": "b"}"# + "\n")
        scratch.write("texts.jsonl", "\"a\"\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rowkitBinary)
        process.arguments = command.split(separator: " ").map(String.init)
        process.currentDirectoryURL = URL(fileURLWithPath: scratch.path)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try output.fileHandleForReading.close() // no reader: every write gets EPIPE
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus): \(message)")
        #expect(process.terminationStatus == 1, "\(message)")
        #expect(!message.contains("write error"), "a broken pipe is not worth a message: \(message)")
        #expect(scratch.contents == ["rows.json", "texts.jsonl"], "left behind: \(scratch.contents)")
    }
}
