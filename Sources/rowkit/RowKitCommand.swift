import ArgumentParser

@main
struct RowKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rowkit",
        abstract: "Exact text measurement and drawing for lists of variable-height rows.",
        subcommands: [Measure.self, Draw.self, Render.self, Heights.self, View.self]
    )
}
