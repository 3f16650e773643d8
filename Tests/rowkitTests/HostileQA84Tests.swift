import Foundation
import Testing

/// Hostile-user QA round (helper 84): each test failed before its fix.
@Suite struct HostileQA84Tests {
    /// A PNG header claiming 4294967295×4294967295 pixels: the pixel count overflowed Int and
    /// trapped (signal 4) while checking it against the limit; it is now refused with a warning.
    @Test func aPNGClaimingTheLargestSizesIsRefusedNotATrap() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("icons"), withIntermediateDirectories: true)
        scratch.write("icons/fruit.png", bytes: pngHeaderOnly(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF))
        scratch.write("icons/cat.png", bytes: pngHeaderOnly(width: 0x8000_0000, height: 0x8000_0000))
        scratch.write("rows.json", #"[{"project": "p", "description": "d", "icon": "fruit", "logo1": "cat", "logo2": "bird"}]"#)
        let run = scratch.rowkit("render --cell project --data rows.json --width 320 --images icons --quiet --output out.png")
        expectRun(run, status: 0, stderr: [
            "icons/fruit.png': 4294967295×4294967295 pixels is more than the 16777216-pixel limit",
            "icons/cat.png': 2147483648×2147483648 pixels is more than the 16777216-pixel limit",
        ])
        #expect(scratch.read("out.png") != nil)
        #expect(scratch.contents.allSatisfy { !$0.hasSuffix(".tmp") }, "\(scratch.contents)")
    }

    /// A signal that ends the program by default but was not handled (`kill -USR1`; SIGQUIT
    /// too, which a test cannot send: the runner starts the command with it ignored) during a
    /// write left `.out.png.xxxx.tmp` beside the target. It is removed now, the signal still
    /// ends the program, and the previous file is intact.
    @Test(arguments: [SIGUSR1, SIGUSR2, SIGALRM])
    func anyDeadlySignalDuringAWriteLeavesNoTemporaryFile(_ signal: Int32) throws {
        let scratch = Scratch()
        expectRun(scratch.rowkit("render --cell caption-text --width 320 --quiet --output out.png"), status: 0)
        let before = try #require(scratch.read("out.png"))
        // The shell that execs rowkit keeps its process id ($$): a watcher signals it once the
        // temporary file exists (drawing and encoding 3000×3000 px takes far longer than a poll).
        let watcher = "( while ! ls .out.png.*.tmp >/dev/null 2>&1; do sleep 0.005; done; kill -\(signal) $$ ) &"
        let run = scratch.rowkit("render --cell filter-list --width 3000 --offset 0 --height 3000 --quiet --output out.png", setup: watcher)
        #expect(run.status == 128 + signal, "ended by signal \(signal): \(run)")
        #expect(scratch.contents == ["out.png"], "no temporary file is left: \(scratch.contents)")
        #expect(scratch.read("out.png") == before, "the previous file is intact")
    }

    /// A misspelled command was blamed on its options ("Unknown option '--width'" for
    /// `rowkit mesure --width 3`), and `rowkit help mesure` printed the overview with status 0.
    /// Both now name the unknown command, with a suggestion, as a usage error.
    @Test(arguments: [
        ("mesure --width 3", "unknown command 'mesure' (did you mean 'measure'?)"),
        ("help mesure", "unknown command 'mesure' (did you mean 'measure'?)"),
        ("rendr --cell label --width 300 --output x.png", "unknown command 'rendr' (did you mean 'render'?)"),
        ("frobnicate", "unknown command 'frobnicate'; commands: measure, draw, render, heights, view"),
    ])
    func anUnknownCommandIsNamed(_ arguments: String, _ message: String) {
        let run = Scratch().rowkit(arguments)
        expectRun(run, status: 64, stderr: [message, "Usage: rowkit <subcommand>"])
        #expect(run.stdout.isEmpty, "\(run)")
    }

    /// Known commands and help still work as before.
    @Test func knownCommandsAndHelpAreUnchanged() {
        let scratch = Scratch()
        for arguments in ["help measure", "help", "--help", "measure --help", "--version", "help help"] {
            expectRun(scratch.rowkit(arguments), status: 0)
        }
    }

    /// Names from template files — a template's name, its fields, a stylesheet's styles — were
    /// written raw into messages that list or suggest them, so a name with a line break split a
    /// message over lines (`rows.json:1:10: unknown cell … 'two` / `lines'…`). They are quoted as
    /// every input is: on one line, `\n` written out.
    @Test func namesFromTemplatesStayOnTheMessagesLine() {
        let scratch = Scratch()
        scratch.write("a.yaml", #"""
            name: "two\nlines"
            layout:
              text: {field: "f\nield", style: s}
            """# + "\n")
        scratch.write("b.yaml", #"""
            name: b
            layout:
              text: {field: "f\nield"}
            samples: [{"f\nielx": "x"}]
            """# + "\n")
        scratch.write("c.yaml", #"""
            name: c
            layout:
              text: {field: a, style: "st\nylx"}
            """# + "\n")
        scratch.write("s.yaml", #"""
            styles:
              s: {size: 12}
              "st\nyle": {size: 12}
            """# + "\n")
        scratch.write("r1.json", #"[{"cell": "two\nline"}]"#)
        scratch.write("r2.json", #"[{"f\nielx": "1"}]"#)
        for (arguments, message) in [
            ("heights --cell a.yaml --stylesheet s.yaml --data r1.json --width 100",
             #"r1.json:1:11: unknown cell 'two\nline' (did you mean 'two\nlines'?); cells: two\nlines, caption-text"#),
            ("heights --cell a.yaml --stylesheet s.yaml --data r2.json --width 100",
             #"r2.json:1:3: unknown field 'f\nielx' for cell 'two\nlines' (did you mean 'f\nield'?); it reads f\nield"#),
            ("render --cell b.yaml --width 100 --output o.png",
             #"b.yaml:4:12: samples[0].f\nielx: unknown field 'f\nielx'; the layout reads f\nield (did you mean 'f\nield'?)"#),
            ("render --cell c.yaml --stylesheet s.yaml --width 100 --output o.png", #"unknown style 'st\nylx' (did you mean 'st\nyle'?)"#),
        ] {
            let run = scratch.rowkit(arguments)
            expectRun(run, status: 1, stderr: [message])
            #expect(run.stderr.split(separator: "\n").count == 1, "one message, one line: \(run)")
        }
    }

    /// More names and values quoted raw: a field's name in "field … must be …", a template's
    /// name in "two templates are named …", a YAML value with a tag that does not fit it, and a
    /// number out of range (a 100,000-digit one was quoted whole, the message then cut at
    /// 2,000 characters before it said what the range is).
    @Test func valuesFromInputsAreQuotedShortAndOnOneLine() {
        let scratch = Scratch()
        scratch.write("a.yaml", "name: \"two\\nlines\"\nlayout:\n  text: {field: \"f\\nield\"}\n")
        scratch.write("b.yaml", "name: \"two\\nlines\"\nlayout:\n  text: {field: x}\n")
        scratch.write("tag.yaml", "name: t\nlayout:\n  inset: !!int \"1\\n2\"\n  child: {text: {field: x}}\n")
        scratch.write("rows.json", #"[{"f\nield": true}]"#)
        let digits = "1" + String(repeating: "0", count: 100_000)
        scratch.write("big.json", #"[{"f\nield": "# + digits + "}]")
        scratch.write("big.jsonl", #"{"text": "x", "size": "# + digits + "}\n")
        for (arguments, message) in [
            ("heights --cell a.yaml --data rows.json --width 100", #"rows.json:1:14: field 'f\nield' must be a string or a number, not the boolean true"#),
            ("heights --cell a.yaml --data big.json --width 100", #"big.json:1:14: field 'f\nield': the number 10000000000"#),
            ("heights --cell a.yaml --cell b.yaml --width 100 --data rows.json", #"two templates are named 'two\nlines' (--cell b.yaml)"#),
            ("render --cell tag.yaml --width 100 --output o.png", #"'1\n2' is not a valid !!int value"#),
            ("measure --width 100 --input big.jsonl", "… (must be in (0, 10000])"),
        ] {
            let run = scratch.rowkit(arguments)
            expectRun(run, status: 1, stderr: [message])
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.count < 300, "one short line: \(run)")
        }
    }

    /// A font list that names no family (a hostile 5,000 commas, with a line break) was quoted
    /// whole in "--font … names no font family", and cut at 2,000 characters before the advice.
    @Test func aFontListWithNoFamilyIsQuotedShort() {
        let commas = String(repeating: ",", count: 5_000) + "\n,"
        let run = Scratch().rowkit("measure --width 100 --font \(shellQuoted(commas))", stdin: "\"hi\"\n")
        expectRun(run, status: 64, stderr: ["…' names no font family; give a family name or a CSS list"])
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.count < 300, "one short line: \(run)")
        let line = #"{"text": "hi", "font": ""# + String(repeating: ",", count: 5_000) + #"\n,"}"# + "\n"
        let fromLine = Scratch().rowkit("measure --width 100", stdin: line)
        expectRun(fromLine, status: 1, stderr: ["…' names no font family; give a family name or a CSS list"])
        #expect(fromLine.stderr.split(separator: "\n").count == 1 && fromLine.stderr.count < 300, "one short line: \(fromLine)")
    }

    /// A template's `stylesheet:` path and a YAML tag, both written in the file, were quoted
    /// whole: a 3,000-character name filled the message, cut at 2,000 characters before the
    /// reason ("File name too long") or the advice.
    @Test func aLongStylesheetNameOrTagIsQuotedShort() {
        let scratch = Scratch()
        let long = String(repeating: "Q", count: 3_000)
        scratch.write("sheet.yaml", "name: n\nstylesheet: \(long).yaml\nlayout: {text: {field: a}}\n")
        scratch.write("tag.yaml", "name: n\nlayout: {inset: !\(long) 5, child: {text: {field: a}}}\n")
        for (cell, message) in [("sheet.yaml", "…': cannot open stylesheet: File name too long (looked for QQQ"),
                                ("tag.yaml", "…' is not supported: templates and stylesheets take plain strings")] {
            let run = scratch.rowkit("render --cell \(cell) --width 100 --output o.png")
            expectRun(run, status: 1, stderr: [message])
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.count < 400, "one short line: \(run)")
        }
    }

    /// `rowkit heights --data rows.jsonl >> rows.jsonl` appended the results to the file being
    /// read, which read them again as rows: with --allow-unknown-fields without end (330 MB in
    /// 30 s), else one error per result line. `render --data rows.json >> rows.json` left a data
    /// file that no longer parsed. A standard output that is an input is refused, the input kept.
    @Test func aStandardOutputThatIsAnInputIsRefused() throws {
        let scratch = Scratch()
        let rows = (0..<50).map { #"{"caption": "c\#($0)", "body": "b"}"# }.joined(separator: "\n") + "\n"
        scratch.write("rows.jsonl", rows)
        scratch.write("texts.jsonl", "\"a\"\n\"b\"\n")
        for (arguments, redirect, file, option) in [
            ("heights --cell caption-text --data rows.jsonl --width 100 --allow-unknown-fields", ">> rows.jsonl", "rows.jsonl", "--data 'rows.jsonl'"),
            ("render --cell caption-text --data rows.jsonl --width 100 --output o.png", ">> rows.jsonl", "rows.jsonl", "--data 'rows.jsonl'"),
            ("measure --width 100 --input texts.jsonl", ">> texts.jsonl", "texts.jsonl", "--input 'texts.jsonl'"),
            ("measure --width 100", "< texts.jsonl >> texts.jsonl", "texts.jsonl", "standard input (--input -)"),
        ] {
            let before = scratch.read(file)
            let run = scratch.rowkit(arguments, redirects: redirect)
            expectRun(run, status: 1, stderr: ["standard output is the same file as \(option)"])
            #expect(scratch.read(file) == before, "\(arguments): the input is unchanged")
        }
        // Standard error: `measure --input t.jsonl 2>> t.jsonl` read its own messages back as bad
        // lines without end. Refused too (its one message goes there, as asked).
        scratch.write("bad.jsonl", "x\n\"a\"\n")
        let run = scratch.rowkit("measure --width 100 --input bad.jsonl", redirects: "2>> bad.jsonl")
        #expect(run.status == 1, "\(run)")
        let text = String(decoding: scratch.read("bad.jsonl") ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix("x\n\"a\"\nrowkit measure: standard error is the same file as --input 'bad.jsonl'"), "\(text.prefix(500))")
        #expect(text.split(separator: "\n").count == 3, "one message: \(text.prefix(500))")
        // Another file, or a device, is fine.
        expectRun(scratch.rowkit("measure --width 100 --input texts.jsonl", redirects: ">> out.jsonl"), status: 0)
        expectRun(scratch.rowkit("measure --width 100 --input texts.jsonl", redirects: "> /dev/null"), status: 0)
    }
}
