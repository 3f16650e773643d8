import Foundation
import Testing

/// The new-user QA round of 2026-11-24 (helper 68: README and articles read literally, then
/// hostile input): each test failed before its fix.
@Suite struct CLINewUserQATests {
    /// A `--font` file that exists but is not a font was blamed on every input line
    /// ("stdin:1: cannot read font file", "stdin:2: …", one per line of a million-line input),
    /// and a line's "font" naming one lost its column (`draw --input` lost the whole place).
    @Test func aFileThatIsNotAFontIsNamedOnceAndWhereItIsWritten() {
        let scratch = Scratch()
        scratch.write("notes.ttf", "these are notes, not a font\n")
        let notAFont = "notes.ttf: not a font file FreeType can read"
        let perOption = scratch.rowkit("measure --width 100 --font notes.ttf", stdin: "\"a\"\n\"b\"\n\"c\"\n")
        expectRun(perOption, status: 1, stderr: [notAFont])
        #expect(!perOption.stderr.contains("stdin:"), "the option, not the lines: \(perOption)")
        #expect(perOption.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1, "\(perOption)")
        expectRun(scratch.rowkit("draw --width 100 --text a --font notes.ttf --output o.png"), status: 1, stderr: [notAFont])
        #expect(scratch.read("o.png") == nil)

        let line = #"{"text": "a", "font": "notes.ttf"}"# + "\n"
        expectRun(scratch.rowkit("measure --width 100", stdin: line), status: 1, stderr: ["stdin:1:23: \(notAFont)"])
        scratch.write("lines.jsonl", line)
        expectRun(scratch.rowkit("draw --width 100 --input lines.jsonl --output o.png"), status: 1,
                  stderr: ["lines.jsonl:1:23: \(notAFont)", "lines.jsonl: 1 bad line; nothing drawn"])
        #expect(scratch.read("o.png") == nil)
    }
}

extension CLINewUserQATests {
    /// The output is written beside the target and renamed over it, which needs only the
    /// folder's permission: a file made read-only (chmod 444) in a writable folder was replaced
    /// by anyone who could write the folder, and got their ownership. It is refused now, as
    /// writing into it would be. (As root, which may write any file, the run is made as nobody.)
    @Test func aReadOnlyOutputFileIsNotReplaced() throws {
        let scratch = Scratch()
        #expect(chmod(scratch.path, 0o777) == 0)
        scratch.write("kept.png", "the previous file\n")
        #expect(chmod(scratch.file("kept.png"), 0o444) == 0)
        let command = "\(shellQuoted(rowkitBinary)) draw --width 50 --text hi --output kept.png"
        let asUser = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups \(command)" : command
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cd \(shellQuoted(scratch.path)) && \(asUser) 2>&1"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(text)")
        #expect(text.contains("kept.png: cannot write: Permission denied (the file is read-only"), "\(text)")
        #expect(scratch.read("kept.png") == Data("the previous file\n".utf8))
        #expect(scratch.contents == ["kept.png"], "no temporary file left")
    }
}

extension CLINewUserQATests {
    /// `-` means a standard stream for every other option (`--data -`, `--input -`), but
    /// `view --frame-log -` created a file named "-" in the current folder. It is standard
    /// output now (the frame log is the view's result). Needs Xvfb to open a window.
    @Test(.enabled(if: xvfbAvailable))
    func aFrameLogOfDashIsStandardOutput() throws {
        let scratch = Scratch()
        let run = scratch.rowkitInWindow("view --sample 20 --frame-log - --quit-after 0.3")
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix(#"{"frame": 1, "#), "\(run.stdout.prefix(200))")
        #expect(!scratch.contents.contains("-"), "no file named '-': \(scratch.contents)")
    }
}

extension CLINewUserQATests {
    /// "heights … a bad row is reported and skipped": a JSON array element over the 16 MiB
    /// record limit ended the whole file instead (the rows after it were never read), while an
    /// over-long JSON Lines line was skipped. It is skipped now, in arrays and sections alike.
    @Test func aRowOverTheRecordLimitInAnArrayIsSkipped() throws {
        let scratch = Scratch()
        let long = String(repeating: "x", count: 17 << 20)
        scratch.write("rows.json", #"{"sections": [{"title": "T", "rows": [{"text": "a"}, {"text": ""# + long + #""}, {"text": "b"}]}]}"#)
        let run = scratch.rowkit("heights --cell label --data rows.json --width 300")
        expectRun(run, status: 1, stderr: ["rows.json:1:53: a JSON value is longer than the 16 MiB record limit"])
        #expect(run.stdout.components(separatedBy: "\n").filter { !$0.isEmpty } == [
            #"{"header": 0, "y": 0, "height": 26}"#, #"{"row": 0, "section": 0, "y": 26, "height": 64}"#,
            #"{"row": 2, "section": 0, "y": 90, "height": 64}"#,
        ], "\(run)")
        // So is a section's title over the limit, and a value that is only reported (an
        // unknown key's) is skipped unread, whatever its length.
        scratch.write("titles.json", #"{"sections": [{"title": ""# + long + #"", "rows": [{"text": "a"}]}, {"title": "U", "rows": [{"text": "b"}]}], "notes": ""# + long + #""}"#)
        let titles = scratch.rowkit("heights --cell label --data titles.json --width 300")
        expectRun(titles, status: 1, stderr: ["titles.json:1:24: a JSON value is longer than the 16 MiB record limit", "unknown key 'notes'"])
        #expect(titles.stdout.components(separatedBy: "\n").filter { !$0.isEmpty } == [
            #"{"row": 0, "section": 0, "y": 0, "height": 64}"#, #"{"header": 1, "y": 64, "height": 26}"#,
            #"{"row": 0, "section": 1, "y": 90, "height": 64}"#,
        ], "\(titles)")
    }
}

extension CLINewUserQATests {
    /// A line's "font" naming no installed family was warned without a place ("warning: font
    /// family 'Nope' is not installed", from whichever thread measured it first), unlike a
    /// stylesheet's font (file:line:column). It is warned once, at the first line naming it.
    @Test func aLineFontThatIsNotInstalledIsWarnedAtItsFirstLine() {
        let scratch = Scratch()
        var text = "\"a\"\n"
        for i in 0..<1000 { text += #"{"text": "\#(i)", "font": "Nope Nope"}"# + "\n" }
        scratch.write("lines.jsonl", text)
        let expected = #"warning: lines.jsonl:2:23: "font": font family 'Nope Nope' is not installed"#
        for command in ["measure --width 100 --input lines.jsonl", "draw --width 100 --padding 0 --input lines.jsonl --output o.svg"] {
            let run = scratch.rowkit(command)
            expectRun(run, status: 0, stderr: [expected])
            #expect(run.stderr.components(separatedBy: "Nope Nope").count == 2, "once: \(run)")
        }
    }
}

extension CLINewUserQATests {
    /// Names read from an input were quoted whole in messages: a row with a 1 MB key gave a
    /// 1 MB "unknown field 'kkkk…'" line (three such rows, 3 MB of standard error), and so
    /// for cells, ids, measure's keys and a stylesheet's style names. They are cut to 60
    /// characters.
    @Test func longNamesAreQuotedShortInMessages() {
        let scratch = Scratch()
        let long = String(repeating: "k", count: 100_000)
        scratch.write("rows.jsonl", [#"{"text": "a", "\#(long)": 1}"#, #"{"text": "a", "cell": "\#(long)"}"#,
                                     #"{"text": "a", "id": "\#(long)"}"#, #"{"text": "a", "id": "\#(long)"}"#].joined(separator: "\n") + "\n")
        let heights = scratch.rowkit("heights --cell label --data rows.jsonl --width 100")
        let cut = String(repeating: "k", count: 60) + "…'"
        expectRun(heights, status: 1, stderr: ["unknown field '\(cut)", "unknown cell '\(cut)", "duplicate row id '\(cut)"])
        #expect(heights.stderr.count < 2_000, "\(heights.stderr.count) bytes of messages")
        let measure = scratch.rowkit("measure --width 100 --input rows.jsonl")
        expectRun(measure, status: 1, stderr: ["unknown key \"" + String(repeating: "k", count: 60) + "…\""])
        #expect(measure.stderr.count < 2_000, "\(measure.stderr.count) bytes of messages")
        scratch.write("sheet.yaml", "styles:\n  a: {extends: \(long)}\n")
        let sheet = scratch.rowkit("render --cell note.yaml --stylesheet sheet.yaml --width 100 --output o.png",
                                   setup: "printf 'name: n\\nlayout: {text: {text: hi, style: a}}\\n' > note.yaml;")
        expectRun(sheet, status: 1, stderr: ["extends unknown style '\(cut)"])
        #expect(sheet.stderr.count < 1_000, "\(sheet.stderr.count) bytes of messages")
    }
}

extension CLINewUserQATests {
    /// A script line naming no row was warned without its place ("rowkit view: warning:
    /// scroll-to: no row 500"; a script line's error is file:line), and the window library
    /// printed "rowkit view:" itself, whatever program used it. Needs Xvfb.
    @Test(.enabled(if: xvfbAvailable))
    func aScriptWarningNamesItsLine() throws {
        let scratch = Scratch()
        scratch.write("steps.txt", "# comment\n0.1 scroll-to 500 top\n0.3 quit\n")
        let run = scratch.rowkitInWindow("view --sample 20 --script steps.txt")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("rowkit view: warning: steps.txt:2: scroll-to: no row 500 (20 rows in 1 section)"), "\(run.stderr)")
    }
}

extension CLINewUserQATests {
    /// `--stylesheet - --data -` read the rows as the stylesheet ("-:1:2: title: unknown key
    /// 'title'"); two options reading standard input are a usage error that names them.
    @Test func twoOptionsCannotBothReadStandardInput() {
        let scratch = Scratch()
        scratch.write("note.yaml", "name: note\nlayout: {text: {field: title, style: title}}\n")
        let rows = #"{"title": "Groceries"}"# + "\n"
        for command in ["heights --cell note.yaml --stylesheet - --data - --width 300",
                        "render --cell note.yaml --stylesheet - --data - --width 300 --output o.png"] {
            let run = scratch.rowkit(command, stdin: rows)
            expectRun(run, status: 64, stderr: ["--stylesheet and --data cannot both read standard input (-)"])
            #expect(!run.stderr.contains("unknown key"), "\(run)")
        }
        expectRun(scratch.rowkit("view --cell note.yaml --stylesheet - --data - --script -", stdin: rows), status: 64,
                  stderr: ["--stylesheet and --data and --script cannot all read standard input (-)"])
        // One reader of standard input is fine.
        scratch.write("sheet.yaml", "styles:\n  title: {size: 20}\n")
        expectRun(scratch.rowkit("heights --cell note.yaml --stylesheet sheet.yaml --data - --width 300", stdin: rows), status: 0)
        // A stylesheet read from standard input is named stdin, as every input is ("-:2:11:" before).
        scratch.write("rows.jsonl", rows)
        expectRun(scratch.rowkit("heights --cell note.yaml --stylesheet - --data rows.jsonl --width 300", stdin: "styles:\n  title: {colour: red}\n"),
                  status: 1, stderr: ["rowkit heights: stdin:2:11: styles.title.colour: unknown key 'colour'"])
    }
}
