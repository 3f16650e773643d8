import Foundation
import Testing

/// The YAML and output QA round of 2026-11-24 (helper 64): each test failed before its fix
/// (checked against the binary built before it).
@Suite struct CLIYAMLAndOutputQATests {
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

    /// `--stylesheet` is merged over a template's own `stylesheet:`, but was loaded alone first,
    /// so it could not extend the template's styles: `caption: {extends: base, size: 30}` over
    /// Samples/cells/caption-text.yaml failed with "'caption' extends unknown style 'base'".
    @Test func aStylesheetOptionExtendsTheTemplatesOwnStyles() {
        let scratch = Scratch()
        let template = packageRoot + "/Samples/cells/caption-text.yaml"
        scratch.write("big.yaml", "styles:\n  caption: {extends: base, size: 30}\n")
        scratch.write("rows.jsonl", #"{"caption": "Hello", "body": "World"}"# + "\n")
        let plain = scratch.rowkit("heights --cell \(shellQuoted(template)) --data rows.jsonl --width 300")
        let big = scratch.rowkit("heights --cell \(shellQuoted(template)) --stylesheet big.yaml --data rows.jsonl --width 300")
        expectRun(plain, status: 0)
        expectRun(big, status: 0)
        #expect(plain.stdout.contains(#""height": 26"#) && big.stdout.contains(#""height": 48"#), "\(plain)\n\(big)")
        // A parent that neither sheet defines is still an error in the --stylesheet file.
        scratch.write("lost.yaml", "styles:\n  caption: {extends: bsae}\n")
        expectRun(scratch.rowkit("heights --cell \(shellQuoted(template)) --stylesheet lost.yaml --data rows.jsonl --width 300"), status: 1,
                  stderr: ["lost.yaml:2:22: styles.caption.extends: 'caption' extends unknown style 'bsae' (did you mean 'base'?)"])
        scratch.write("own.yaml", "name: own\nlayout:\n  text: {field: caption, style: caption}\n")
        expectRun(scratch.rowkit("heights --cell own.yaml --stylesheet lost.yaml --data rows.jsonl --allow-unknown-fields --width 300"),
                  status: 1, stderr: ["lost.yaml:2:22: styles.caption.extends: 'caption' extends unknown style 'bsae'"])
    }

    /// A font that is not installed is a warning "once, where it was written" (README), but
    /// each template that shared the stylesheet printed it again: `--cell a.yaml --cell b.yaml
    /// --stylesheet fonts.yaml` printed the same line twice.
    @Test func aStylesheetWarningIsPrintedOnceForEveryTemplateSharingIt() {
        let scratch = Scratch()
        scratch.write("fonts.yaml", "styles:\n  a: {font: No Such Family QA64}\n")
        scratch.write("own.yaml", "name: own\nstylesheet: fonts.yaml\nlayout:\n  text: {field: x, style: a}\n")
        scratch.write("own2.yaml", "name: own2\nstylesheet: fonts.yaml\nlayout:\n  text: {field: x, style: a}\n")
        scratch.write("bare.yaml", "name: bare\nlayout:\n  text: {field: x, style: a}\n")
        scratch.write("bare2.yaml", "name: bare2\nlayout:\n  text: {field: x, style: a}\n")
        scratch.write("rows.jsonl", #"{"x": "hello"}"# + "\n")
        for cells in ["--cell bare.yaml --cell bare2.yaml --stylesheet fonts.yaml", "--cell own.yaml --cell own2.yaml"] {
            let run = scratch.rowkit("heights \(cells) --data rows.jsonl --width 200")
            expectRun(run, status: 0, stderr: ["warning: fonts.yaml:2:13: styles.a.font: font family 'No Such Family QA64' is not installed"])
            #expect(run.stderr.components(separatedBy: "No Such Family QA64").count == 2, "\(cells): \(run)")
        }
    }

    /// An image the rows draw from --images is an input: `render --images icons --output
    /// icons/mine.png` over a row with `"icon": "mine"` replaced the icon with the drawing.
    @Test func anImageTheRowsDrawIsNotOverwritten() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("icons"), withIntermediateDirectories: true)
        let icon = makePNG(width: 40, height: 40)
        scratch.write("icons/mine.png", bytes: icon)
        scratch.write("icons/other.png", bytes: icon)
        scratch.write("rows.jsonl", #"{"project": "p", "description": "d", "icon": "mine", "logo1": "cat", "logo2": "bird"}"# + "\n")
        for format in ["png", "pdf", "svg"] {
            try? FileManager.default.removeItem(atPath: scratch.file("icons/link.\(format)"))
            try FileManager.default.createSymbolicLink(atPath: scratch.file("icons/link.\(format)"), withDestinationPath: "mine.png")
            for output in format == "png" ? ["icons/mine.png", "icons/link.png"] : ["icons/link.\(format)"] {
                let run = scratch.rowkit("render --cell project --data rows.jsonl --images icons --width 320 --output \(output)")
                expectRun(run, status: 1, stderr: ["--output '\(output)' is the same file as the image 'mine' drawn from --images 'icons'"])
                #expect(scratch.read("icons/mine.png") == Data(icon), "\(output): the image is intact")
            }
        }
        #expect(scratch.contents(of: "icons") == ["link.pdf", "link.png", "link.svg", "mine.png", "other.png"], "no temporary file is left")
        // An image file the rows do not draw may be replaced.
        expectRun(scratch.rowkit("render --cell project --data rows.jsonl --images icons --width 320 --output icons/other.png"), status: 0)
    }

    /// A layout that shows the field "cell" drew every row blank (height 0 for a one-text cell)
    /// without a word: a row's "cell" names its template and never reaches the layout.
    @Test func aLayoutReadingTheReservedFieldCellIsWarnedAbout() {
        let scratch = Scratch()
        scratch.write("t.yaml", "name: t\nlayout:\n  text: {field: cell}\n")
        scratch.write("rows.jsonl", #"{"cell": "t"}"# + "\n")
        let run = scratch.rowkit("heights --cell t.yaml --data rows.jsonl --width 200")
        expectRun(run, status: 0, stderr: ["warning: t.yaml: template 't' reads the field 'cell', which a row uses to name its template"])
        // "id" reaches a layout that reads it: no warning.
        scratch.write("u.yaml", "name: u\nlayout:\n  text: {field: id}\n")
        scratch.write("ids.jsonl", #"{"id": "hello"}"# + "\n")
        let id = scratch.rowkit("heights --cell u.yaml --data ids.jsonl --width 200")
        expectRun(id, status: 0)
        #expect(!id.stderr.contains("warning") && id.stdout.contains(#""height": 16"#), "\(id)")
    }

    /// A PNG too wide for its scale told the user to "draw a viewport with --offset and
    /// --height", which cuts only the height.
    @Test func aCanvasTooWideNamesTheWidth() {
        let scratch = Scratch()
        scratch.write("rows.jsonl", #"{"caption": "a", "body": "b"}"# + "\n")
        let wide = scratch.rowkit("render --cell caption-text --data rows.jsonl --width 30000 --scale 8 --output w.png")
        expectRun(wide, status: 1, stderr: ["invalid canvas size 30000×26 px", "; give a smaller --width, or lower --scale"])
        #expect(!wide.stderr.contains("--offset"), "\(wide)")
        // draw said "draw fewer or shorter texts" for a canvas too wide.
        let drawn = scratch.rowkit("draw --width 30000 --padding 100 --scale 2 --text hi --output d.png")
        expectRun(drawn, status: 1, stderr: ["invalid canvas size 30200×", "; give a smaller --width or --padding, or lower --scale"])
        #expect(scratch.contents == ["rows.jsonl"])
    }

    /// `--font FILE` was checked against the output, a line's `"font"` file was not:
    /// `draw --input - --output link.png` (link.png → the font) replaced the font with the PNG.
    @Test func aLinesFontFileIsNotOverwritten() throws {
        let scratch = Scratch()
        let font = try #require(FileManager.default.contents(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"))
        FileManager.default.createFile(atPath: scratch.file("my.ttf"), contents: font)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("link.png"), withDestinationPath: "my.ttf")
        let run = scratch.rowkit("draw --width 100 --input - --output link.png", stdin: #"{"text": "hello", "font": "my.ttf"}"# + "\n")
        expectRun(run, status: 1, stderr: [#"--output 'link.png' is the same file as a line's "font" 'my.ttf'"#])
        #expect(scratch.read("my.ttf") == font)
        expectRun(scratch.rowkit("draw --width 100 --input - --output other.png", stdin: #"{"text": "hello", "font": "my.ttf"}"# + "\n"), status: 0)
    }

    /// An argument that is not UTF-8 was decoded with U+FFFD: `--output $'\xff.png'` wrote
    /// '\u{FFFD}.png' (status 0) and `--data $'\xfe.jsonl'` said "No such file or directory".
    @Test func anArgumentThatIsNotUTF8IsRefused() {
        let scratch = Scratch()
        let run = scratch.rowkit(#"draw --width 50 --text hi --output "$(printf '\377.png')""#)
        expectRun(run, status: 64, stderr: ["argument 7 (", "is not valid UTF-8: file names and texts must be UTF-8"])
        #expect(scratch.contents.isEmpty, "nothing written: \(scratch.contents)")
        expectRun(scratch.rowkit(#"draw --width 50 --text "$(printf 'caf\303\251')" --output ok.png"#), status: 0)
    }
}
