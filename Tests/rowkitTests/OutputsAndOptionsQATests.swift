import Foundation
import Testing

/// The outputs and options QA round of 2026-11-24 (helper 65): each test failed before its fix
/// (checked against the binary built before it).
@Suite struct CLIOutputsAndOptionsQATests {
    /// `ln -s target.png ok.png; rowkit draw … --output ok.png` turned ok.png into a regular
    /// file and never created target.png.
    @Test func aDanglingOutputLinkWritesItsTarget() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("sub"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("ok.png"), withDestinationPath: "target.png")
        try FileManager.default.createSymbolicLink(atPath: scratch.file("sub/ok.png"), withDestinationPath: "target.png")
        for output in ["ok.png", "sub/ok.png"] {
            expectRun(scratch.rowkit("draw --width 50 --text hi --output \(output)"), status: 0)
            let target = output.replacingOccurrences(of: "ok.png", with: "target.png")
            #expect(scratch.read(target)?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true, "\(target) is the PNG")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.file(output)) == "target.png", "\(output) stays a link")
        }
        try FileManager.default.createSymbolicLink(atPath: scratch.file("lost.png"), withDestinationPath: "nowhere/target.png")
        expectRun(scratch.rowkit("draw --width 50 --text hi --output lost.png"), status: 1,
                  stderr: ["lost.png: cannot write: the folder 'nowhere/' of the symbolic link's target 'nowhere/target.png' does not exist"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.file("lost.png")) == "nowhere/target.png")
    }

    /// A 254-byte file name is valid, but the temporary name added up to 12 bytes:
    /// "File name too long".
    @Test func aLongOutputNameIsWritten() {
        let scratch = Scratch()
        let name = String(repeating: "a", count: 250) + ".png"
        expectRun(scratch.rowkit("draw --width 50 --text hi --output \(name)"), status: 0)
        #expect(scratch.contents == [name])
    }

    /// A writable out.png in a folder the user cannot write: "cannot write: Permission denied"
    /// did not say that the folder must be writable (the file is replaced, not rewritten).
    @Test func aFolderThatIsNotWritableIsNamed() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("ro"), withIntermediateDirectories: false)
        scratch.write("ro/out.png", "old")
        chmod(scratch.file("ro/out.png"), 0o666)
        chmod(scratch.path, 0o755)
        // As root every folder is writable: run as nobody when root (setpriv), else as oneself.
        var prefix = ""
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
            prefix = "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "
            chmod(scratch.file("ro"), 0o755)
        } else {
            chmod(scratch.file("ro"), 0o555)
        }
        defer { chmod(scratch.file("ro"), 0o755) }
        let process = Process()
        let err = Pipe()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cd \(shellQuoted(scratch.path)) && \(prefix)\(shellQuoted(rowkitBinary)) draw --width 50 --text hi --output ro/out.png"]
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(message)")
        #expect(message.contains("ro/out.png: cannot write: Permission denied (the folder 'ro/' must be writable"), "\(message)")
        #expect(scratch.read("ro/out.png") == Data("old".utf8))
    }

    /// `heights` measured a row whose id is its section's title row's ("a-header"), which
    /// `render` refuses: the check was in `loadListSections` only.
    @Test func heightsRefusesARowWithTheTitleRowsID() {
        let scratch = Scratch()
        scratch.write("c.json", #"{"sections": [{"id": "a", "title": "T", "rows": [{"id":"a-header","caption":"x"}]}]}"#)
        let message = "c.json:1:50: row id 'a-header' is the id of the title row of section 'a'"
        let heights = scratch.rowkit("heights --width 300 --cell caption-text --data c.json")
        expectRun(heights, status: 1, stderr: [message])
        #expect(heights.stdout == #"{"header": 0, "y": 0, "height": 26}"# + "\n", "the row is skipped, like every bad row")
        expectRun(scratch.rowkit("render --width 300 --cell caption-text --data c.json --output r.png"), status: 1, stderr: [message])
        #expect(!scratch.contents.contains("r.png"))
    }

    /// `--cell T.YAML` was "unknown cell" (a case-sensitive `hasSuffix`), while `--output O.PNG` works.
    @Test func templateExtensionsAreCaseInsensitive() throws {
        let scratch = Scratch()
        for name in ["caption-text.yaml", "classic.yaml"] {
            try FileManager.default.copyItem(atPath: packageRoot + "/Samples/cells/" + name, toPath: scratch.file(name))
        }
        try FileManager.default.copyItem(atPath: scratch.file("caption-text.yaml"), toPath: scratch.file("T.YAML"))
        try FileManager.default.copyItem(atPath: scratch.file("caption-text.yaml"), toPath: scratch.file("U.Yml"))
        scratch.write("rows.jsonl", #"{"caption": "Hello", "body": "World"}"# + "\n")
        let expected = scratch.rowkit("heights --width 300 --cell caption-text.yaml --data rows.jsonl")
        expectRun(expected, status: 0)
        for cell in ["T.YAML", "U.Yml"] {
            let run = scratch.rowkit("heights --width 300 --cell \(cell) --data rows.jsonl")
            expectRun(run, status: 0)
            #expect(run.stdout == expected.stdout)
        }
        expectRun(scratch.rowkit("heights --width 300 --cell T.JSON --data rows.jsonl"), status: 1, stderr: ["unknown cell 'T.JSON'"])
    }

    /// Two byte order marks: "two.json:1:1: a row must be a JSON object of fields, not an
    /// array" (the second mark made it JSON Lines, whose line skipped it again).
    @Test func aSecondByteOrderMarkIsNamed() {
        let scratch = Scratch()
        scratch.write("two.json", bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(#"[{"caption":"x"}]"#.utf8))
        let run = scratch.rowkit("heights --width 300 --cell caption-text --data two.json")
        expectRun(run, status: 1, stderr: ["two.json:1:1: unexpected byte order mark (U+FEFF): only the start of a file may have one"])
        #expect(!run.stderr.contains("JSON object"), "\(run)")
        scratch.write("texts.jsonl", bytes: Array(#"{"text": "a"}"#.utf8) + [0x0A, 0xEF, 0xBB, 0xBF] + Array(#"{"text": "b"}"#.utf8) + [0x0A])
        expectRun(scratch.rowkit("measure --width 100 --input texts.jsonl"), status: 1, stderr: ["texts.jsonl:2:1", "unexpected byte order mark"])
    }

    /// A single-valued option given twice took the last value silently: `--stylesheet a1.yaml
    /// --stylesheet a2.yaml` applied only a2, `--data a --data b` drew only b.
    @Test func aRepeatedSingleValuedOptionIsAnError() throws {
        let scratch = Scratch()
        for name in ["caption-text.yaml", "classic.yaml"] {
            try FileManager.default.copyItem(atPath: packageRoot + "/Samples/cells/" + name, toPath: scratch.file(name))
        }
        scratch.write("a1.yaml", "styles:\n  caption: {size: 20}\n")
        scratch.write("a2.yaml", "styles:\n  caption: {size: 30}\n")
        scratch.write("a.jsonl", #"{"caption": "a"}"# + "\n")
        scratch.write("b.jsonl", #"{"caption": "b"}"# + "\n" + #"{"caption": "b2"}"# + "\n")
        let sheets = scratch.rowkit("heights --width 300 --cell caption-text.yaml --stylesheet a1.yaml --stylesheet a2.yaml --data a.jsonl")
        expectRun(sheets, status: 64, stderr: ["--stylesheet given twice", "Usage: rowkit heights"])
        #expect(sheets.stdout.isEmpty)
        expectRun(scratch.rowkit("render --width 300 --cell caption-text --data a.jsonl --data=b.jsonl --output o.png"), status: 64,
                  stderr: ["--data given twice"])
        #expect(!scratch.contents.contains("o.png"))
        expectRun(scratch.rowkit("heights --width 1 --width 2 --data a.jsonl", redirects: "2>&-"), status: 64)
        expectRun(scratch.rowkit("heights --width 1 --width 2 --data a.jsonl", redirects: "2>/dev/full"), status: 64)
        // Options documented as repeatable still are; a value that looks like an option is a value.
        expectRun(scratch.rowkit("heights --width 300 --cell caption-text --cell label --data a.jsonl"), status: 0)
        expectRun(scratch.rowkit("draw --width 100 --text --width=3 --text hi --output t.png"), status: 64, stderr: ["Missing value for '--text"])
        expectRun(scratch.rowkit("draw --width 100 --text=--width --text hi --output t.png"), status: 0)
        expectRun(scratch.rowkit("measure --width 100 -- --width"), status: 64)
    }

    /// Every single-valued option of every command (as the argument parser describes them)
    /// is refused when repeated, so a command or option added later is covered too.
    @Test func everySingleValuedOptionOfEveryCommandRefusesARepeat() throws {
        struct Info: Decodable {
            struct Command: Decodable { var commandName: String; var arguments: [Argument]?; var subcommands: [Command]? }
            struct Argument: Decodable { var kind: String; var isOptional: Bool; var isRepeating: Bool; var names: [Name]? }
            struct Name: Decodable { var kind: String; var name: String }
            var command: Command
        }
        let scratch = Scratch()
        let dump = scratch.rowkit("--experimental-dump-help")
        let info = try JSONDecoder().decode(Info.self, from: Data(dump.stdout.utf8))
        let commands = (info.command.subcommands ?? []).filter { $0.commandName != "help" }
        #expect(commands.count >= 5)
        var checked = 0
        for command in commands {
            let options = (command.arguments ?? []).filter { $0.kind == "option" }
            func flag(_ option: Info.Argument) -> String { option.names.flatMap { $0.first { $0.kind == "long" } }.map { "--" + $0.name } ?? "" }
            for option in options where !option.isRepeating {
                let name = flag(option)
                // The required options once (with a value every option parses: a number), this one twice.
                let required = options.filter { !$0.isOptional && flag($0) != name }.map { "\(flag($0)) 1" }.joined(separator: " ")
                let run = scratch.rowkit("\(command.commandName) \(required) \(name) 1 \(name)=1")
                expectRun(run, status: 64, stderr: ["\(name) given twice"])
                checked += 1
            }
        }
        #expect(checked >= 30)
    }
}
