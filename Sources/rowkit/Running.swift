import ArgumentParser
import Foundation
import RowKitCells
import RowKitIO
import RowKitText

/// The version `rowkit --version` prints.
let rowkitVersion = "0.2.0"

/// Parses the arguments and runs the command the way careful Unix tools do: closed standard
/// streams are reserved first (`StandardStreams.reserve`), failures print one line
/// `rowkit <command>: <message>` on standard error and exit 1, a reader that went away (EPIPE)
/// ends the program quietly with status 1, and usage mistakes get the argument parser's usage text.
func runCommand(_ root: RowKitCommand.Type) -> Never {
    StandardStreams.reserve()
    // Swift decodes the arguments with U+FFFD for bytes that are not UTF-8, so a file name in
    // another encoding silently became another name ('\xff.png' was written as '\u{FFFD}.png').
    if let (index, text) = argumentNotInUTF8() {
        Diagnostics.error("argument \(index) ('\(text)') is not valid UTF-8: file names and texts must be UTF-8")
        exit(ExitCode.validationFailure.rawValue)
    }
    // Before parsing: the parser keeps the last value of a repeated option, and validates
    // option groups (with that value) before a command could look at its arguments.
    if let (option, subcommand) = repeatedSingleValuedOption(in: Array(CommandLine.arguments.dropFirst()), root: root) {
        let name = subcommand._commandName
        // The parser's format and status for usage errors (which stay 64 when standard error
        // is closed or full, unlike Diagnostics' messages).
        let message = """
            Error: \(option) given twice: it takes one value (give it once)
            Usage: \(root.usageString(for: subcommand))
              See 'rowkit \(name) --help' for more information.

            """
        _ = Array(message.utf8).withUnsafeBytes { writeAll(2, $0) }
        exit(ExitCode.validationFailure.rawValue)
    }
    // Numbers in options are decimal: Swift's Double(_:) also read `--width 0x10` as 16,
    // `--size 0x1p4` as 16 and `--width 1e400` as inf ("must be in [1, 30000], not inf").
    if let (option, problem, subcommand) = nonDecimalNumber(in: Array(CommandLine.arguments.dropFirst()), root: root) {
        let message = """
            Error: \(option) \(problem)
            Usage: \(root.usageString(for: subcommand))
              See 'rowkit \(subcommand._commandName) --help' for more information.

            """
        _ = Array(message.utf8).withUnsafeBytes { writeAll(2, $0) }
        exit(ExitCode.validationFailure.rawValue)
    }
    // A misspelled command: the parser blamed its first option ("Unknown option '--width'"),
    // and `help <typo>` printed the overview with status 0.
    if let unknown = unknownCommand(in: Array(CommandLine.arguments.dropFirst()), root: root) {
        let names = root.configuration.subcommands.map { $0._commandName }
        let hint = didYouMean(unknown, among: names).map { " (did you mean '\($0)'?)" } ?? "; commands: \(names.joined(separator: ", "))"
        let message = """
            Error: unknown command '\(shortenedForMessage(unknown))'\(hint)
            Usage: \(root.usageString())
              See 'rowkit --help' for more information.

            """
        _ = Array(message.utf8).withUnsafeBytes { writeAll(2, $0) }
        exit(ExitCode.validationFailure.rawValue)
    }
    var command: ParsableCommand
    do {
        command = try root.parseAsRoot()
    } catch {
        root.exit(withError: error) // usage errors, --help, --version
    }
    if let known = RowKitCommand.configuration.subcommands.first(where: { $0 == type(of: command) }) {
        Diagnostics.programName = "rowkit \(known._commandName)"
    }
    // "Font family not installed" warnings carry the command's name like every other message.
    FontLibrary.shared.setWarningHandler { Diagnostics.warning($0) }
    var status: Int32 = 0
    do {
        if let reader = command as? ReadsInputFiles { try refuseStandardOutputThatIsAnInput(reader.inputFilesRead) }
        try command.run()
    } catch let error as ExitCode {
        status = error.rawValue
    } catch where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
        root.exit(withError: error) // help requested while running, CleanExit, ValidationError
    } catch let error as OutputError {
        if !error.isBrokenPipe { Diagnostics.error(error.description) }
        status = 1
    } catch let error as CustomStringConvertible {
        // CommandError, InputError, and the libraries' errors (ListError, CellError…) all
        // describe themselves; one line each.
        Diagnostics.error(error.description)
        status = 1
    } catch {
        Diagnostics.error("\(error)")
        status = 1
    }
    exit(status)
}

/// The first single-valued option (an `@Option` that is not an array) given more than once in
/// `arguments` (the command line without the program's name), with the subcommand of `root` it
/// belongs to; nil when there is none, or for `--help` and `--version` (the parser answers those).
///
/// swift-argument-parser silently keeps the last value (`--data a --data b` drew only b). The
/// options come from the parser's own description of the subcommand (`_dumpHelp`, the data of
/// `--experimental-dump-help`), so every command and every option added later is covered;
/// options that are arrays (`--cell`, `--text`) stay repeatable, and flags are not values.
func repeatedSingleValuedOption(in arguments: [String], root: ParsableCommand.Type) -> (option: String, command: ParsableCommand.Type)? {
    guard let line = SubcommandLine(arguments, root: root) else { return nil }
    // Cheap first: most command lines repeat no option name at all.
    let names = line.words.filter { $0.hasPrefix("-") }.map { $0.split(separator: "=", maxSplits: 1)[0] }
    guard Set(names).count < names.count else { return nil }
    var seen: Set<String> = []
    return line.firstOption { option, name, _ in
        !option.isRepeating && !seen.insert(name).inserted ? (name, line.command) : nil
    }
}

/// The first numeric option value in `arguments` (the command line without the program's name)
/// that is not a decimal number: the option, what is wrong, and the subcommand it belongs to;
/// nil when there is none. Numeric options are those the parser reads unconditionally (so that
/// `-5` is a value: `--width`, `--size`, `--offset`, `--scale`, `--line-height`…); each of a
/// value's comma-separated parts (`--width 150,300`) that Swift's `Double(_:)` would read is
/// checked: hexadecimal (`0x10`, `0x1p4`), `nan`, `inf` and `infinity` are refused, and so is a
/// decimal number too large for a double (`1e400`). Words (`normal`, `bold`) are left to the
/// option's own parsing.
func nonDecimalNumber(in arguments: [String], root: ParsableCommand.Type) -> (option: String, problem: String, command: ParsableCommand.Type)? {
    guard let line = SubcommandLine(arguments, root: root) else { return nil }
    // Cheap first: most command lines have no number that is not decimal.
    guard line.words.contains(where: { word in
        // A value alone, or after `=` in `--width=0x10`.
        let value = word.hasPrefix("-") ? word.split(separator: "=", maxSplits: 1).dropFirst().first ?? Substring(word) : Substring(word)
        return value.split(separator: ",", omittingEmptySubsequences: false).contains { part in
            Double(part).map { !$0.isFinite || !isDecimalNumber(part) } ?? false
        }
    }) else { return nil }
    return line.firstOption { option, name, value in
        guard option.parsingStrategy == "unconditional" else { return nil }
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            guard let number = Double(part) else { continue }
            let shown = shortenedForMessage(String(part))
            if !isDecimalNumber(part) {
                let hint = number.isFinite ? " (hexadecimal is not read: write \(JSONText.number(number)))" : ""
                return (name, "takes decimal numbers, not '\(shown)'\(hint)", line.command)
            }
            if !number.isFinite { return (name, "\(shown) is out of range (too large for a number)", line.command) }
        }
        return nil
    }
}

/// A command line's subcommand of `root` and the words after its name, up to `--` — the part
/// `repeatedSingleValuedOption` and `nonDecimalNumber` read; nil for `--help` and `--version`
/// (the parser answers those) or when no subcommand is named.
private struct SubcommandLine {
    let arguments: [String]
    let command: ParsableCommand.Type
    /// Where the words after the subcommand's name start, and where they end (`--` or the end).
    let start: Int, end: Int
    var words: ArraySlice<String> { arguments[start..<end] }

    init?(_ arguments: [String], root: ParsableCommand.Type) {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let words = arguments[..<end]
        guard !words.contains(where: { ["--help", "-h", "--version", "-help"].contains($0) }),
              let nameIndex = words.firstIndex(where: { !$0.hasPrefix("-") }),
              let command = root.configuration.subcommands.first(where: { $0._commandName == words[nameIndex] }) else { return nil }
        (self.arguments, self.command, self.start, self.end) = (arguments, command, nameIndex + 1, end)
    }

    /// Walks the subcommand's options as the parser reads them — `--opt value` (the value is
    /// the next word; for the default strategy only when it does not look like an option) or
    /// `--opt=value` — and returns `visit`'s first answer for an option, its preferred name
    /// and its value. Nil when none answers, or at a missing value (the parser's error to
    /// report, "Missing value for '--text <text>'"). The options come from the parser's own
    /// description of the subcommand (`_dumpHelp`), so every option added later is covered.
    func firstOption<Answer>(_ visit: (CommandDescription.Argument, String, String) -> Answer?) -> Answer? {
        guard let info = try? JSONDecoder().decode(CommandDescription.self, from: Data(command._dumpHelp().utf8)) else { return nil }
        var options: [String: CommandDescription.Argument] = [:]
        for argument in info.command.arguments ?? [] where argument.kind == "option" {
            for name in argument.names ?? [] {
                options[name.kind == "long" ? "--" + name.name : "-" + name.name] = argument
            }
        }
        var i = start
        while i < end {
            let word = arguments[i]
            i += 1
            guard word.hasPrefix("-"), word != "-" else { continue }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let option = options[String(parts[0])] else { continue }
            let value: String
            if parts.count == 2 {
                value = String(parts[1])
            } else {
                guard i < end, option.parsingStrategy == "unconditional" || !arguments[i].hasPrefix("-") || arguments[i] == "-" else { return nil }
                value = arguments[i]
                i += 1
            }
            let name = (option.preferredName ?? option.names?.first).map { ($0.kind == "long" ? "--" : "-") + $0.name } ?? String(parts[0])
            if let answer = visit(option, name, value) { return answer }
        }
        return nil
    }
}

/// Whether `text` is a decimal number: an optional sign, digits with an optional fraction (or
/// a fraction alone), and an optional exponent — `12`, `-0.5`, `+3.`, `.5`, `1e3`, `2.5E-2`.
func isDecimalNumber<S: StringProtocol>(_ text: S) -> Bool {
    var scalars = Substring(text).unicodeScalars[...]
    if let first = scalars.first, first == "+" || first == "-" { scalars = scalars.dropFirst() }
    func digits() -> Int {
        let count = scalars.prefix { ("0"..."9").contains($0) }.count
        scalars = scalars.dropFirst(count)
        return count
    }
    var mantissa = digits()
    if scalars.first == "." {
        scalars = scalars.dropFirst()
        mantissa += digits()
    }
    guard mantissa > 0 else { return false }
    if let e = scalars.first, e == "e" || e == "E" {
        scalars = scalars.dropFirst()
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
        guard digits() > 0 else { return false }
    }
    return scalars.isEmpty
}

/// The command named first in `arguments` (the command line without the program's name) when
/// `root` has no such subcommand, also after `help`; nil when it is known, or when the line
/// starts with an option (`--help`, `--version`: the parser answers those).
func unknownCommand(in arguments: [String], root: ParsableCommand.Type) -> String? {
    var words = arguments[...]
    if words.first == "help" {
        words = words.dropFirst()
    }
    guard let name = words.first, !name.hasPrefix("-") else { return nil }
    let known = root.configuration.subcommands.map { $0._commandName } + ["help"]
    return known.contains(name) ? nil : name
}

/// The part of swift-argument-parser's command description (`ToolInfoV0`) that
/// `repeatedSingleValuedOption` reads.
private struct CommandDescription: Decodable {
    struct Name: Decodable { var kind: String; var name: String }
    struct Argument: Decodable {
        var kind: String
        var isRepeating: Bool
        var parsingStrategy: String
        var names: [Name]?
        var preferredName: Name?
    }
    struct Command: Decodable { var arguments: [Argument]? }
    var command: Command
}

/// The first command-line argument whose bytes are not valid UTF-8 (1-based, with its text as
/// Swift would decode it), or nil when all are valid.
func argumentNotInUTF8() -> (index: Int, text: String)? {
    for index in 1..<Int(CommandLine.argc) {
        guard let argument = CommandLine.unsafeArgv[index], String(validatingCString: argument) == nil else { continue }
        return (index, String(cString: argument))
    }
    return nil
}

/// A failure while running a command (bad input file, unknown cell…): printed as
/// `rowkit <command>: <message>` without the usage text, which is for option mistakes.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Fixed slots that concurrent workers fill, one slot per worker index (no two write the same).
final class ResultSlots<Value>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value?>
    init(count: Int) {
        slots = .allocate(capacity: max(1, count))
        slots.initialize(repeating: nil)
    }
    subscript(i: Int) -> Value? {
        get { slots[i] }
        set { slots[i] = newValue }
    }
    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }
}

/// Hands a value that is used by one thread at a time to another thread.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The stylesheet file a template names itself (`stylesheet:`), as an input for
/// `refuseOverwritingInput(output:option:inputs:)`.
func stylesheetInput(of template: CellTemplate) -> (option: String, path: String?) {
    ("the stylesheet of template '\(shortenedForMessage(template.name))', named", template.stylesheetFile)
}

/// A command's input files by option (nil when not given), for
/// `refuseStandardOutputThatIsAnInput(_:)`.
protocol ReadsInputFiles {
    var inputFilesRead: [(option: String, path: String?)] { get }
}

extension Measure: ReadsInputFiles {
    var inputFilesRead: [(option: String, path: String?)] { [("--input", input)] }
}

extension Draw: ReadsInputFiles {
    var inputFilesRead: [(option: String, path: String?)] { [("--input", input)] }
}

extension Render: ReadsInputFiles {
    var inputFilesRead: [(option: String, path: String?)] { source.inputFiles }
}

extension Heights: ReadsInputFiles {
    var inputFilesRead: [(option: String, path: String?)] { source.inputFiles }
}

extension View: ReadsInputFiles {
    var inputFilesRead: [(option: String, path: String?)] {
        [("--data", data), ("--script", script), ("--stylesheet", stylesheet), ("--cell", ClassicCells.named(cell) == nil ? cell : nil)]
    }
}

/// Refuses a standard output or error that is one of the inputs (`rowkit heights --data
/// rows.jsonl >> rows.jsonl`): the results were appended to the file being read, and read again
/// as rows — with --allow-unknown-fields without end (330 MB in 30 s) — and `render` appended
/// its lines to a JSON data file, which no longer parsed; `measure --input t.jsonl 2>> t.jsonl`
/// read its own error messages back as bad lines without end (205 MB in 20 s). (`> rows.jsonl`
/// has emptied the input before the command starts: said the same way.) Only a regular file can
/// be both. The message about standard error goes there all the same (one line).
func refuseStandardOutputThatIsAnInput(_ inputs: [(option: String, path: String?)]) throws {
    for (descriptor, stream) in [(Int32(1), "standard output"), (2, "standard error")] {
        try refuseStream(descriptor, named: stream, thatIsOneOf: inputs)
    }
}

private func refuseStream(_ descriptor: Int32, named stream: String, thatIsOneOf inputs: [(option: String, path: String?)]) throws {
    var output = stat()
    guard fstat(descriptor, &output) == 0, output.st_mode & S_IFMT == S_IFREG else { return }
    for input in inputs {
        guard let path = input.path else { continue }
        var info = stat()
        if path == InputFile.standardInputPath {
            guard fstat(0, &info) == 0 else { continue }
        } else {
            guard !path.isEmpty, !path.utf8.contains(0), stat(path, &info) == 0 else { continue }
        }
        guard info.st_dev == output.st_dev, info.st_ino == output.st_ino else { continue }
        let named = path == InputFile.standardInputPath ? "standard input (\(input.option) -)" : "\(input.option) '\(path)'"
        let what = descriptor == 1 ? "the results" : "messages"
        throw CommandError("\(stream) is the same file as \(named): \(what) would be written into the input "
                           + "(read again as input, or making it unreadable); redirect \(stream) to another file")
    }
}

/// Refuses an output file that is one of the command's inputs (the same file by device and
/// inode, through links or a redirected standard input): the output would replace the input.
/// `inputs` pairs each option with the path it gave (nil when not given).
func refuseOverwritingInput(output: String, option: String, inputs: [(option: String, path: String?)]) throws {
    for input in inputs {
        guard let path = input.path, isSameFile(output: output, input: path) else { continue }
        let named = path == InputFile.standardInputPath ? "standard input (\(input.option) -)" : "\(input.option) '\(path)'"
        throw CommandError("\(option) '\(output)' is the same file as \(named): writing it would destroy the input; choose another output file")
    }
}
