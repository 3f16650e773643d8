import ArgumentParser
import RowKitIO

@main
struct RowKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rowkit",
        abstract: "Exact text measurement and drawing for lists of variable-height rows.",
        version: rowkitVersion,
        subcommands: [Measure.self, Draw.self, Render.self, Heights.self, View.self] + fuzzingCommands
    )

    /// Runs the command with safe standard streams (see `runCommand`).
    static func main() { runCommand(self) }
}
