import Foundation
import Testing

/// Every file the command reads goes through one input path: directories, devices, standard
/// input (given, closed), CRLF, byte order marks, size limits.
@Suite struct CLIInputTests {
    static let rows = #"[{"caption": "Hello", "body": "World"}, {"caption": "Two", "body": "Rows"}]"#

    @Test(arguments: [
        "measure --width 100 --input DIR",
        "draw --width 100 --input DIR --output out.png",
        "render --cell caption-text --width 320 --data DIR --output out.png",
        "heights --cell caption-text --width 320 --data DIR",
        "render --cell DIR.yaml --width 320 --output out.png",
        "render --cell Samples.yaml --stylesheet DIR --width 320 --output out.png",
        "render --cell label --width 320 --images file.txt --output out.png",
        "measure --width 100 --font DIR/x.ttf --input /dev/null",
    ])
    func aDirectoryOrWrongKindOfFileIsAClearError(_ command: String) {
        let scratch = Scratch()
        try? FileManager.default.createDirectory(atPath: scratch.file("dir"), withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: scratch.file("dir.yaml"), withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: scratch.file("dir/x.ttf"), withIntermediateDirectories: true)
        scratch.write("file.txt", "x")
        scratch.write("Samples.yaml", (try? String(contentsOfFile: packageRoot + "/Samples/cells/caption-text.yaml", encoding: .utf8)) ?? "")
        let run = scratch.rowkit(command.replacingOccurrences(of: "DIR", with: "dir"))
        let expected = command.contains("--images") ? "is not a directory" : "it is a directory"
        expectRun(run, status: 1, stderr: [expected])
        #expect(!scratch.contents.contains("out.png"))
    }

    @Test func missingFilesNameTheReason() {
        let scratch = Scratch()
        expectRun(scratch.rowkit("measure --width 100 --input nope.jsonl"), status: 1,
                  stderr: ["rowkit measure: nope.jsonl: cannot open input: No such file or directory"])
        expectRun(scratch.rowkit("heights --cell label --width 100 --data nope.json"), status: 1,
                  stderr: ["rowkit heights: nope.json: cannot open data file: No such file or directory"])
        expectRun(scratch.rowkit("render --cell nope.yaml --width 100 --output o.png"), status: 1,
                  stderr: ["nope.yaml: cannot open template: No such file or directory"])
    }

    /// A font file named without a folder (`--font MyFont.ttf` in the current folder) is that
    /// file, not a family that then silently falls back to another font.
    @Test func aFontFileInTheCurrentFolderIsUsed() throws {
        let scratch = Scratch()
        let bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
        let data = try #require(FileManager.default.contents(atPath: bold))
        FileManager.default.createFile(atPath: scratch.file("Bold.ttf"), contents: data)
        let here = scratch.rowkit("measure --width 100 --font Bold.ttf", stdin: "\"xxxx\"\n")
        let pathed = scratch.rowkit("measure --width 100 --font ./Bold.ttf", stdin: "\"xxxx\"\n")
        expectRun(pathed, status: 0)
        expectRun(here, status: 0)
        #expect(here.stdout == pathed.stdout && !here.stderr.contains("not installed"), "\(here)\n\(pathed)")
        expectRun(scratch.rowkit("measure --width 100 --font Missing.otf", stdin: "\"x\"\n"), status: 1,
                  stderr: ["Missing.otf: cannot open font file: No such file or directory"])
    }

    /// A template's style naming a family that is not installed: one warning, at the file and
    /// line of the `font` value, with the command's name; the rows are still measured.
    @Test func aMissingFontInAStylesheetIsWarnedAtItsLine() {
        let scratch = Scratch()
        scratch.write("sheet.yaml", "styles:\n  title:\n    font: Nope Sans RowKit\n")
        scratch.write("cell.yaml", """
            name: mine
            stylesheet: sheet.yaml
            layout:
              text: {field: title, style: title}
            """)
        let run = scratch.rowkit("heights --cell cell.yaml --width 300 --data -", stdin: #"[{"title": "Hi"}, {"title": "There"}]"#)
        expectRun(run, status: 0, stderr: ["rowkit heights: warning: sheet.yaml:3:11: styles.title.font: font family 'Nope Sans RowKit' is not installed; using '"])
        #expect(run.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1, "\(run)")
        #expect(run.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 2, "\(run)")
        // Without a file the warning still carries the command's name.
        let measured = scratch.rowkit("measure --width 100 --font 'Nope Mono RowKit'", stdin: "\"x\"\n")
        expectRun(measured, status: 0, stderr: ["rowkit measure: warning: font family 'Nope Mono RowKit' is not installed"])
    }

    @Test func standardInputFeedsEveryCommand() {
        let scratch = Scratch()
        let measured = scratch.rowkit("measure --width 100 --input -", stdin: "\"hello\"\n")
        expectRun(measured, status: 0)
        #expect(measured.stdout.contains("\"lineCount\": 1"))
        let heights = scratch.rowkit("heights --cell caption-text --width 320 --data -", stdin: Self.rows)
        expectRun(heights, status: 0)
        #expect(heights.stdout.split(separator: "\n").count == 2)
        let render = scratch.rowkit("render --cell caption-text --width 320 --data - --output out.png", stdin: Self.rows)
        expectRun(render, status: 0, stderr: ["wrote out.png"])
        #expect(scratch.read("out.png")?.starts(with: [0x89, 0x50]) == true)
        let draw = scratch.rowkit("draw --width 100 --input - --output t.svg", stdin: "\"hi\"\n")
        expectRun(draw, status: 0, stderr: ["wrote t.svg"])
    }

    @Test(arguments: [
        "measure --width 100",
        "heights --cell label --width 100 --data -",
        "render --cell label --width 100 --data - --output out.png",
        "draw --width 100 --input - --output out.png",
    ])
    func aClosedStandardInputIsAnErrorNotEmptyInput(_ command: String) {
        let scratch = Scratch()
        let run = scratch.rowkit(command, redirects: "<&-")
        expectRun(run, status: 1, stderr: ["standard input is closed"])
        #expect(run.stdout.isEmpty)
        #expect(!scratch.contents.contains("out.png"))
    }

    @Test func crlfAndAByteOrderMarkAreAccepted() {
        let scratch = Scratch()
        scratch.write("texts.jsonl", bytes: [0xEF, 0xBB, 0xBF] + Array("\"a\"\r\n{\"text\": \"b\"}\r\n\r\n".utf8))
        let measured = scratch.rowkit("measure --width 100 --input texts.jsonl")
        expectRun(measured, status: 0)
        #expect(measured.stdout.split(separator: "\n").count == 2, "\(measured)")
        scratch.write("rows.jsonl", bytes: [0xEF, 0xBB, 0xBF] + Array("{\"caption\": \"a\", \"body\": \"b\"}\r\n{\"caption\": \"c\"}\r\n".utf8))
        let heights = scratch.rowkit("heights --cell caption-text --width 320 --data rows.jsonl")
        expectRun(heights, status: 0)
        #expect(heights.stdout.split(separator: "\n").count == 2, "\(heights)")
        scratch.write("rows.json", bytes: [0xEF, 0xBB, 0xBF] + Array("[\r\n {\"caption\": \"a\"},\r\n {\"caption\": \"b\"}\r\n]\r\n".utf8))
        expectRun(scratch.rowkit("heights --cell caption-text --width 320 --data rows.json"), status: 0)
    }

    @Test func devicesAreReadAsStreamsWithinTheLimits() {
        let scratch = Scratch()
        let empty = scratch.rowkit("measure --width 100 --input /dev/null")
        expectRun(empty, status: 0)
        #expect(empty.stdout.isEmpty)
        // /dev/zero: one endless line; the record limit stops it (a YAML file: the size limit).
        try? FileManager.default.createSymbolicLink(atPath: scratch.file("zero.yaml"), withDestinationPath: "/dev/zero")
        expectRun(scratch.rowkit("render --cell zero.yaml --width 100 --output o.png"), status: 1,
                  stderr: ["zero.yaml: template is larger than the 8 MiB limit"])
        // Text inputs never hold NUL bytes: /dev/zero (or a binary file) is refused, not read forever.
        expectRun(scratch.rowkit("heights --cell label --width 100 --data /dev/zero"), status: 1,
                  stderr: ["/dev/zero:1: binary data (a NUL byte): not a text file"])
        expectRun(scratch.rowkit("measure --width 100 --input /dev/zero"), status: 1, stderr: ["binary data"])
    }

    @Test func aLineOverTheRecordLimitIsReportedAndTheRestIsMeasured() throws {
        let scratch = Scratch()
        let long = "\"" + String(repeating: "a", count: 17 << 20) + "\""
        scratch.write("big.jsonl", "\"before\"\n" + long + "\n\"after\"\n")
        let run = scratch.rowkit("measure --width 100 --input big.jsonl")
        expectRun(run, status: 1, stderr: ["big.jsonl:2: the line is longer than the 16 MiB limit"])
        #expect(run.stdout.split(separator: "\n").map { $0.contains("\"index\": 0") || $0.contains("\"index\": 2") } == [true, true])
    }

    @Test func yamlFilesThatAreNotTextAreLocated() {
        let scratch = Scratch()
        scratch.write("bad.yaml", bytes: Array("name: x\nlayout: {text: {field: a}}\n# caf".utf8) + [0xE9, 0x0A])
        expectRun(scratch.rowkit("render --cell bad.yaml --width 100 --output o.png"), status: 1,
                  stderr: ["bad.yaml:3:6: not valid UTF-8 text"])
    }
}
