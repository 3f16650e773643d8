import Foundation
import Testing

/// The command's surface: --version, help texts, and README synopses that match --help.
@Suite struct CLIPolishTests {
    @Test func versionIsPrinted() {
        let run = Scratch().rowkit("--version")
        expectRun(run, status: 0)
        #expect(run.stdout.split(separator: ".").count == 3, "\(run)")
    }

    @Test func renderHelpNamesEveryCellAndTheSectionsFormat() {
        let run = Scratch().rowkit("render --help")
        expectRun(run, status: 0)
        let help = run.stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: " ")
        for name in ["caption-text", "filter-list", "custom", "project", "project-growing", "label", "section-header", "{\"sections\":"] {
            #expect(help.contains(name), "render --help lacks \(name)")
        }
    }

    /// Options each command's --help lists (from the argument parser's JSON dump).
    static func helpOptions(_ command: String) throws -> Set<String> {
        let run = Scratch().rowkit("\(command) --experimental-dump-help")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let info = try #require(json["command"] as? [String: Any])
        var options: Set<String> = []
        for argument in info["arguments"] as? [[String: Any]] ?? [] {
            guard (argument["shouldDisplay"] as? Bool) != false else { continue }
            for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                if let text = name["name"] as? String, text != "help", text != "version" { options.insert("--" + text) }
            }
        }
        return options
    }

    /// The README's "Command line" synopses: options per command.
    static func readmeOptions() throws -> [String: Set<String>] {
        let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "## Command line"))
        let end = readme.range(of: "\n## ", range: start.upperBound..<readme.endIndex)?.lowerBound ?? readme.endIndex
        var result: [String: Set<String>] = [:]
        var current: String?
        var inBlock = false
        for line in readme[start.upperBound..<end].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            guard inBlock else { continue }
            let words = line.split(whereSeparator: { " []|()".contains($0) })
            if words.first == "rowkit", words.count > 1 { current = String(words[1]) }
            guard let current else { continue }
            for word in words where word.hasPrefix("--") {
                let name = word.split(separator: "=")[0].trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
                result[current, default: []].insert(name)
            }
        }
        return result
    }

    /// Every subcommand the binary has (from the top-level JSON dump), so a new one cannot go
    /// undocumented.
    static func subcommands() throws -> [String] {
        let run = Scratch().rowkit("--experimental-dump-help")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let info = try #require(json["command"] as? [String: Any])
        return (info["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }.filter { $0 != "help" }
    }

    @Test func everySubcommandHasAReadmeSynopsis() throws {
        let commands = try Self.subcommands()
        #expect(Set(commands).isSuperset(of: ["measure", "draw", "render", "heights", "view"]), "\(commands)")
        let readme = try Self.readmeOptions()
        for command in commands {
            #expect(readme[command] != nil, "README has no synopsis for \(command)")
        }
    }

    @Test(arguments: ["measure", "draw", "render", "heights", "view"])
    func readmeSynopsesMatchHelp(_ command: String) throws {
        let readme = try Self.readmeOptions()
        let documented = try #require(readme[command], "README has no synopsis for \(command)")
        let actual = try Self.helpOptions(command)
        #expect(actual.subtracting(documented).isEmpty, "\(command): in --help, missing from README: \(actual.subtracting(documented).sorted())")
        #expect(documented.subtracting(actual).isEmpty, "\(command): in README, not in --help: \(documented.subtracting(actual).sorted())")
    }

    @Test func usageMistakesGetTheUsageText() {
        let run = Scratch().rowkit("render --cell label --output x.png")
        expectRun(run, status: 64, stderr: ["Missing expected argument '--width <width>'", "Usage: rowkit render"])
    }

    @Test func anEmptyFontIsAUsageError() {
        let run = Scratch().rowkit("measure --font '' --width 100", stdin: "\"a\"\n")
        expectRun(run, status: 64, stderr: ["--font needs a family name or a font file, not an empty string"])
        #expect(run.stdout.isEmpty, "\(run)")
    }

    @Test func unknownCellsGetASuggestion() {
        let run = Scratch().rowkit("render --cell captiontext --width 300 --output x.png")
        expectRun(run, status: 1, stderr: ["rowkit render: unknown cell 'captiontext' (did you mean 'caption-text'?)"])
    }
}

/// The progress bar: shown on a terminal for jobs longer than a second, with rate and time left.
@Suite struct CLIProgressTests {
    @Test func aTerminalGetsAProgressBarWithRateAndETA() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let scratch = Scratch()
        var rows = ""
        for i in 0..<30_000 { rows += "{\"caption\": \"row \(i)\", \"body\": \"some words to measure in row \(i)\"}\n" }
        scratch.write("rows.jsonl", rows)
        // `script` gives the command a terminal; its output (terminal included) goes to stdout.
        let command = "\(shellQuoted(rowkitBinary)) heights --cell caption-text --width 320 --data rows.jsonl > heights.jsonl"
        let run = scratch.rowkit("", setup: "TERM=xterm script -qec \(shellQuoted(command)) /dev/null < /dev/null; exit $?; ")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("rows/s") && run.stdout.contains("ETA") && run.stdout.contains("%"), "\(run)")
        #expect(scratch.read("heights.jsonl").map { String(decoding: $0, as: UTF8.self).split(separator: "\n").count } == 30_000)
    }
}
