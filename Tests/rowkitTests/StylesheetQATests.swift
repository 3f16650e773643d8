import Foundation
import Testing

/// The YAML and output QA round of 2026-11-24 (docs/DESIGN.md, "YAML and outputs QA"): each
/// test failed before its fix.
@Suite struct CLIStylesheetQATests {
    /// A template's own `stylesheet:` is an input too: `render --output` through a link to it
    /// replaced the stylesheet with the drawing (only `--data`, `--cell` and `--stylesheet` were
    /// checked).
    @Test func theStylesheetATemplateNamesIsNotOverwritten() throws {
        let scratch = Scratch()
        let sheet = "styles:\n  body: {size: 14}\n"
        scratch.write("sheet.yaml", sheet)
        scratch.write("note.yaml", "name: note\nstylesheet: sheet.yaml\nlayout:\n  text: {field: body, style: body}\n")
        scratch.write("rows.jsonl", #"{"body": "hello"}"# + "\n")
        try FileManager.default.createSymbolicLink(atPath: scratch.file("sheet.svg"), withDestinationPath: "sheet.yaml")
        try FileManager.default.linkItem(atPath: scratch.file("sheet.yaml"), toPath: scratch.file("hard.png"))
        for output in ["sheet.svg", "hard.png"] {
            let run = scratch.rowkit("render --cell note.yaml --data rows.jsonl --width 200 --output \(output)")
            expectRun(run, status: 1, stderr: ["--output '\(output)' is the same file as the stylesheet of template 'note', named 'sheet.yaml'"])
            #expect(scratch.read("sheet.yaml") == Data(sheet.utf8), "\(output): the stylesheet is intact")
        }
        expectRun(scratch.rowkit("view --cell note.yaml --data rows.jsonl --frame-log sheet.svg --quit-after 0"), status: 1,
                  stderr: ["--frame-log 'sheet.svg' is the same file as the stylesheet of template 'note'"])
        #expect(scratch.read("sheet.yaml") == Data(sheet.utf8))
        expectRun(scratch.rowkit("render --cell note.yaml --data rows.jsonl --width 200 --output other.svg"), status: 0)
    }
}
