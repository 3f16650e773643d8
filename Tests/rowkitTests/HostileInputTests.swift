import Foundation
import Synchronization
import Testing

/// The hostile-input round of 2026-11-24 (docs/DESIGN.md, "Hostile-input round"): each test
/// failed before its fix.
@Suite struct CLIHostileInputTests {
    @Test func anOutputThatIsAnInputIsRefusedAndTheInputKept() throws {
        let scratch = Scratch()
        let text = "\"hello\"\n"
        scratch.write("notes.svg", text)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("link.svg"), withDestinationPath: "notes.svg")
        try FileManager.default.linkItem(atPath: scratch.file("notes.svg"), toPath: scratch.file("hard.svg"))
        for (arguments, redirects, named) in [
            ("draw --width 100 --input notes.svg --output notes.svg", "", "--input 'notes.svg'"),
            ("draw --width 100 --input notes.svg --output link.svg", "", "--input 'notes.svg'"),
            ("draw --width 100 --input hard.svg --output notes.svg", "", "--input 'hard.svg'"),
            ("draw --width 100 --input - --output notes.svg", "< notes.svg", "standard input (--input -)"),
        ] {
            let run = scratch.rowkit(arguments, redirects: redirects)
            expectRun(run, status: 1, stderr: ["is the same file as \(named): writing it would destroy the input"])
            #expect(scratch.read("notes.svg") == Data(text.utf8), "\(arguments): the input is intact")
        }
        let rows = #"[{"text": "hi"}]"#
        scratch.write("rows.png", rows)
        expectRun(scratch.rowkit("render --cell label --data rows.png --width 200 --output rows.png"), status: 1,
                  stderr: ["--output 'rows.png' is the same file as --data 'rows.png'"])
        #expect(scratch.read("rows.png") == Data(rows.utf8))
        // The frame log is refused before the display is opened (so this holds without one).
        scratch.write("rows.jsonl", #"{"caption": "a", "body": "b"}"# + "\n")
        expectRun(scratch.rowkit("view --data rows.jsonl --frame-log rows.jsonl --quit-after 0"), status: 1,
                  stderr: ["--frame-log 'rows.jsonl' is the same file as --data 'rows.jsonl'"])
        #expect(scratch.read("rows.jsonl") == Data((#"{"caption": "a", "body": "b"}"# + "\n").utf8))
        // A different output is still written.
        expectRun(scratch.rowkit("draw --width 100 --input notes.svg --output other.svg"), status: 0)
    }

    /// Rows that name a built-in cell with "cell" are drawn by render and measured by heights;
    /// view refused the same file ("unknown cell 'label'; cells: caption-text, section-header").
    /// Without a display it must now get as far as the display.
    @Test func viewAcceptsRowsNamingAnyBuiltInCell() {
        let scratch = Scratch()
        scratch.write("mixed.jsonl", #"{"caption": "a", "body": "b"}"# + "\n" + #"{"cell": "label", "text": "hello"}"# + "\n")
        expectRun(scratch.rowkit("render --cell caption-text --data mixed.jsonl --width 300 --output m.png"), status: 0)
        let run = scratch.rowkit("view --data mixed.jsonl --quit-after 0.2", setup: "unset DISPLAY WAYLAND_DISPLAY;")
        expectRun(run, status: 1, stderr: ["rowkit view: cannot open a display"])
        #expect(!run.stderr.contains("unknown cell"), "\(run)")
        // A cell no template has is still an error at its place.
        scratch.write("bad.jsonl", #"{"cell": "labl", "text": "hello"}"# + "\n")
        expectRun(scratch.rowkit("view --data bad.jsonl --quit-after 0.2", setup: "unset DISPLAY WAYLAND_DISPLAY;"), status: 1,
                  stderr: ["bad.jsonl:1:10: unknown cell 'labl'"])
    }

    /// draw refuses --width above 30,000 px but took any "width" on an input line: 1e308 ended in
    /// "invalid canvas size 1e+308×32.0 … (after --scale)", naming neither the line nor the key.
    /// A canvas that is too large says what this command can do about it (draw has no --offset).
    @Test func drawNamesAnAbsurdLineWidthAndHintsItsOwnOptions() {
        let scratch = Scratch()
        let wide = scratch.rowkit("draw --width 100 --input - --output a.png", stdin: #"{"text": "hello", "width": 1e308}"# + "\n")
        expectRun(wide, status: 1, stderr: [#"stdin:1:28: "width" is out of range: 1e308 (must be in [0, 30000])"#, "nothing drawn"])
        #expect(!scratch.contents.contains("a.png"))
        // measure lays out at any width (arithmetic), so the same line is fine there.
        expectRun(scratch.rowkit("measure", stdin: #"{"text": "hello", "width": 1e308}"# + "\n"), status: 0)
        // An infinite width is refused with what a width must be ("must be at least 0" before).
        expectRun(scratch.rowkit("measure", stdin: #"{"text": "hello", "width": 1e400}"# + "\n"), status: 1,
                  stderr: [#"stdin:1:28: "width" is out of range: 1e400 (must be a finite number, at least 0)"#])
        let tall = scratch.rowkit("draw --width 300 --text \(String(repeating: "x", count: 100_000)) --output t.svg")
        expectRun(tall, status: 1, stderr: ["the drawing would be 42128 px tall, more than an image can be (32767 pixels);", "draw fewer or shorter texts"])
        #expect(!tall.stderr.contains("--offset") && !tall.stderr.contains("--scale"), "\(tall)")
    }

    /// A family list with no family in it (",") failed every text with "no installed font
    /// matches ', 400'" at "stdin:1" (each line, the flag's fault); it is now a usage error for
    /// --font, an error at the line's column for "font", and a stylesheet error at its place.
    @Test func aFontListWithNoFamilyIsRefusedWhereItIsWritten() {
        let scratch = Scratch()
        let flag = scratch.rowkit("measure --width 100 --font ,", stdin: "\"a\"\n\"b\"\n")
        expectRun(flag, status: 64, stderr: ["rowkit measure: --font ',' names no font family"])
        #expect(!flag.stderr.contains("stdin:"), "\(flag)")
        expectRun(scratch.rowkit("draw --width 100 --text x --font \"''\" --output x.png"), status: 64, stderr: ["--font '''' names no font family"])
        let line = scratch.rowkit("measure --width 100", stdin: #"{"text": "a", "font": ","}"# + "\n\"b\"\n")
        expectRun(line, status: 1, stderr: [#"stdin:1:23: "font": ',' names no font family"#])
        #expect(line.stdout.contains(#""index": 1"#), "the other lines are measured: \(line)")
        scratch.write("sheet.yaml", "styles:\n  body: {font: \",\"}\n")
        scratch.write("cell.yaml", "name: plain\nstylesheet: sheet.yaml\nlayout: {text: {field: t, style: body}}\n")
        scratch.write("rows.jsonl", #"{"t": "hello"}"# + "\n")
        expectRun(scratch.rowkit("render --cell cell.yaml --data rows.jsonl --width 200 --output r.png"), status: 1,
                  stderr: ["sheet.yaml:2:16: styles.body.font: ',' names no font family"])
        // A family that is not installed still draws, with one warning at its place.
        scratch.write("sheet.yaml", "styles:\n  body: {font: \"No Such Family QA\"}\n")
        let missing = scratch.rowkit("render --cell cell.yaml --data rows.jsonl --width 200 --output r.png")
        expectRun(missing, status: 0, stderr: ["warning: sheet.yaml:2:16: styles.body.font: font family 'No Such Family QA' is not installed"])
        #expect(missing.stderr.components(separatedBy: "not installed").count == 2, "one warning: \(missing)")
    }

    /// render refuses an --images folder that is missing or not a folder; view took it silently
    /// (icons then fell back to the built-in ones with no word). Checked before the display.
    @Test func viewChecksTheImagesFolderAsRenderDoes() {
        let scratch = Scratch()
        scratch.write("file.txt", "x")
        let noDisplay = "unset DISPLAY WAYLAND_DISPLAY;"
        expectRun(scratch.rowkit("view --cell project --sample 5 --images nowhere --quit-after 0", setup: noDisplay), status: 1,
                  stderr: ["rowkit view: nowhere: images folder: No such file or directory"])
        expectRun(scratch.rowkit("view --cell project --sample 5 --images file.txt --quit-after 0", setup: noDisplay), status: 1,
                  stderr: ["rowkit view: file.txt: images folder is not a directory"])
        expectRun(scratch.rowkit("view --cell project --sample 5 --images . --quit-after 0", setup: noDisplay), status: 1,
                  stderr: ["rowkit view: cannot open a display"])
    }

    /// A row taller than the list can hold (forty 10⁶ px boxes) was drawn clamped to
    /// 33,554,431.98 px with status 0 by render — every later y silently wrong; heights reported
    /// it. render now refuses it the same way, before writing anything.
    @Test func renderRefusesARowTallerThanTheListCanHold() {
        let scratch = Scratch()
        let boxes = Array(repeating: "{box: {width: 1, height: 1000000}}", count: 40).joined(separator: ", ")
        scratch.write("tall.yaml", "name: tall\nlayout: {vstack: {children: [\(boxes)]}}\n")
        scratch.write("rows.jsonl", "{}\n{}\n")
        let run = scratch.rowkit("render --cell tall.yaml --data rows.jsonl --width 100 --offset 0 --height 100 --output t.png")
        expectRun(run, status: 1, stderr: ["cannot draw row 0 of section 0: it is taller than a list row can be (33554431.984375 px)"])
        #expect(run.stdout.isEmpty && !scratch.contents.contains("t.png"), "\(run)")
        expectRun(scratch.rowkit("heights --cell tall.yaml --data rows.jsonl --width 100"), status: 1, stderr: ["more than a list row can be"])
    }

    /// measure and heights read 4,096 lines (or the end) before answering, so a program that
    /// writes a line and waits for its answer — or a person typing at a terminal — waited
    /// forever. Each line is now answered before the command waits for more input. (The 60 s bound only keeps a
    /// regression from hanging the suite; the answer comes at once.)
    @Test(arguments: [
        (["measure", "--width", "100"], "\"hello\"\n", #"{"index": 0, "width": 100, "lineCount": 1"#),
        (["heights", "--cell", "label", "--data", "-", "--width", "200"], #"{"text": "hello"}"# + "\n", #"{"row": 0, "section": 0, "y": 0, "height": 64}"#),
    ])
    func answersEachLineBeforeItsInputEnds(_ arguments: [String], _ line: String, _ answer: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rowkitBinary)
        process.arguments = arguments
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let answered = DispatchSemaphore(value: 0)
        let firstLine = Mutex<String?>(nil)
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var bytes: [UInt8] = []
            while true {
                let chunk = reader.readData(ofLength: 1)
                guard let byte = chunk.first, byte != 0x0A else { break }
                bytes.append(byte)
            }
            firstLine.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
            answered.signal()
        }
        try input.fileHandleForWriting.write(contentsOf: Data(line.utf8)) // stdin stays open
        let result = answered.wait(timeout: .now() + 60)
        #expect(result == .success, "\(arguments[0]): no answer while standard input is open")
        #expect(firstLine.withLock { $0 }?.hasPrefix(answer) == true, "\(String(describing: firstLine.withLock { $0 }))")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Creating a file in /proc fails with ENOENT, which was always reported as "the folder
    /// '/proc/' does not exist" — a wrong reason. The folder is named only when it is missing.
    @Test func aMissingFolderIsNamedOnlyWhenItIsMissing() {
        let scratch = Scratch()
        let proc = scratch.rowkit("draw --width 50 --text hi --output /proc/rowkit-qa.png")
        expectRun(proc, status: 1, stderr: ["/proc/rowkit-qa.png: cannot write: No such file or directory"])
        #expect(!proc.stderr.contains("does not exist"), "\(proc)")
        expectRun(scratch.rowkit("draw --width 50 --text hi --output nowhere/x.png"), status: 1,
                  stderr: ["nowhere/x.png: cannot write: the folder 'nowhere/' does not exist"])
    }

    /// A template that replaces section-header but shows no "title" drew every section title
    /// blank (height 0) without a word; it now warns, naming the file.
    @Test func aSectionHeaderReplacementWithoutTitleWarns() {
        let scratch = Scratch()
        scratch.write("header.yaml", "name: section-header\nlayout: {text: {field: t}}\n")
        scratch.write("rows.json", #"{"sections": [{"title": "T", "rows": [{"text": "x"}]}]}"#)
        let run = scratch.rowkit("heights --cell label --cell header.yaml --data rows.json --width 100")
        expectRun(run, status: 0, stderr: ["warning: header.yaml: this template replaces 'section-header'", "section titles will be blank"])
        scratch.write("header.yaml", "name: section-header\nlayout: {inset: 4, child: {text: {field: title}}}\n")
        let good = scratch.rowkit("heights --cell label --cell header.yaml --data rows.json --width 100")
        expectRun(good, status: 0)
        #expect(!good.stderr.contains("warning"), "\(good)")
    }

    /// draw laid out every text before the canvas size was checked: 200,000 lines took 33 s and
    /// 356 MB to be refused (256 MiB of input would take gigabytes). It stops at the first text
    /// past the tallest image.
    @Test func drawStopsLayingOutOnceTheImageIsTooTall() {
        let scratch = Scratch()
        // (Fewer than 32,767: more texts than the image has pixel rows are refused as read.)
        scratch.write("many.jsonl", String(repeating: "\"row\"\n", count: 30_000))
        let run = scratch.rowkit("draw --width 100 --input many.jsonl --output many.png")
        expectRun(run, status: 1, stderr: ["the first 1365 of 30000 texts are already 32768 px tall", "draw fewer or shorter texts, or lower --scale"])
        #expect(!scratch.contents.contains("many.png"))
        // At scale 0.5 twice as many fit; fewer texts draw.
        expectRun(scratch.rowkit("draw --width 100 --input many.jsonl --output many.png --scale 0.5"), status: 1, stderr: ["the first 2731 of 30000", "(32767 device pixels at scale 0.5)"])
    }

    /// A signal during a write (Ctrl-C, kill, a closed terminal, a file size limit's SIGXFSZ)
    /// left `.out.png.xxxx.tmp` beside the target. The temporary file is now removed and the
    /// signal still ends the program (its status says which); the previous file is intact.
    @Test(arguments: ["png", "pdf", "svg"])
    func aSignalDuringAWriteLeavesNoTemporaryFile(_ format: String) throws {
        let scratch = Scratch()
        expectRun(scratch.rowkit("render --cell caption-text --width 320 --quiet --output out.\(format)"), status: 0)
        let before = try #require(scratch.read("out.\(format)"))
        // Without `trap '' XFSZ`, going past `ulimit -f` is SIGXFSZ, whose default action ends the process.
        let run = scratch.rowkit("render --cell filter-list --width 3000 --offset 0 --height 3000 --quiet --output out.\(format)",
                                 setup: "ulimit -f 2;")
        #expect(run.status == 128 + SIGXFSZ, "ended by SIGXFSZ: \(run)")
        #expect(scratch.contents == ["out.\(format)"], "no temporary file is left: \(scratch.contents)")
        #expect(scratch.read("out.\(format)") == before, "the previous file is intact")
    }

    /// A font path that is a FIFO was opened to be checked, and opening a FIFO waits for a
    /// writer: `measure --font f.ttf` hung forever. It is refused before opening. (The 60 s
    /// bound only keeps a regression from hanging the suite.)
    @Test func aFontPathThatIsAFIFOIsRefusedNotWaitedOn() throws {
        let scratch = Scratch()
        #expect(mkfifo(scratch.file("f.ttf"), 0o600) == 0)
        for (arguments, input, message) in [
            (["measure", "--width", "100", "--font", "f.ttf"], "\"x\"\n", "f.ttf: font file is not a regular file"),
            (["measure", "--width", "100"], #"{"text": "x", "font": "f.ttf"}"# + "\n", "stdin:1:23: f.ttf: font file is not a regular file"),
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: rowkitBinary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: scratch.path)
            let stdin = Pipe(), stderr = Pipe()
            process.standardInput = stdin
            process.standardOutput = FileHandle.nullDevice
            process.standardError = stderr
            let ended = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in ended.signal() }
            try process.run()
            try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try stdin.fileHandleForWriting.close()
            if ended.wait(timeout: .now() + 60) == .timedOut {
                process.terminate()
                Issue.record("\(arguments): still running after 60 s (waiting on the FIFO)")
                continue
            }
            let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 1 && text.contains(message), "\(arguments): \(process.terminationStatus) \(text)")
        }
    }

    /// A negative number given to a numeric option was read as an unknown flag, and the error
    /// was "Missing value for '--quit-after'" (every numeric option of every command). The value
    /// is now taken and checked, so the range error names the option and the value.
    @Test(arguments: [
        ("measure --width -5", "--width takes non-negative numbers separated by commas, not '-5'"),
        ("measure --size -5", "--size must be a number in (0, 10000], not -5.0"),
        ("measure --weight -5", "--weight must be regular, bold or a number 1...1000, not '-5'"),
        ("measure --line-height -5", "'-5' is invalid for '--line-height"),
        ("draw --width -5 --output o.png", "--width must be in (0, 30000], not -5.0"),
        ("draw --width 100 --max-lines -1 --output o.png", "--max-lines must be at least 1"),
        ("draw --width 100 --padding -1 --output o.png", "--padding must be in [0, 1000]"),
        ("draw --width 100 --scale -1 --output o.png", "--scale must be in 0.05...8.0, not -1.0"),
        ("heights --width -5 --data -", "--width must be in [1, 30000], not -5.0"),
        ("render --width 100 --offset -5 --height 10 --output o.png", "--offset must be a non-negative number"),
        ("render --width 100 --selected -1 --output o.png", "--selected must be a row number, 0 or more, not -1"),
        ("view --sample -5", "--sample must be in 1...1000000, not -5"),
        ("view --sample 5 --section-size -1", "--section-size must be at least 1"),
        ("view --sample 5 --live -1", "--live must be in [1, 86400000] milliseconds"),
        ("view --sample 5 --quit-after -1", "--quit-after must be in [0, 86400] seconds"),
    ])
    func aNegativeNumberIsCheckedNotTakenForAFlag(_ arguments: String, _ message: String) {
        let scratch = Scratch()
        let run = scratch.rowkit(arguments)
        expectRun(run, status: 64, stderr: [message])
        #expect(!run.stderr.contains("Missing value"), "\(run)")
        #expect(scratch.contents.isEmpty, "nothing written: \(scratch.contents)")
    }
}
