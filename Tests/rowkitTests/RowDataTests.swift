import Foundation
import Testing

/// Row data is checked: exact numbers, unknown fields named with a suggestion, wrong types
/// named, titles checked, duplicate ids with both positions; `heights` goes on past bad rows.
@Suite struct CLIRowDataTests {
    @Test func zeroAndOneAreNumbers() {
        let scratch = Scratch()
        let measured = scratch.rowkit("measure", stdin: #"{"text": "a", "width": 1, "size": 1, "lineHeight": 0}"# + "\n")
        expectRun(measured, status: 0)
        #expect(measured.stdout.contains("\"width\": 1,"), "\(measured)")
        let rows = scratch.rowkit("heights --cell caption-text --width 320 --data -", stdin: #"{"caption": 0, "body": 1}"# + "\n")
        expectRun(rows, status: 0)
        let booleans = scratch.rowkit("measure", stdin: #"{"text": "a", "width": true}"# + "\n")
        expectRun(booleans, status: 1, stderr: ["stdin:1:24: \"width\" must be a number, not the boolean true"])
    }

    @Test func rowErrorsAreNamedAndLocated() {
        let scratch = Scratch()
        scratch.write("rows.json", """
        [
          {"caption": "ok", "body": "fine", "id": "a"},
          {"caption": "x", "bdy": "typo"},
          {"caption": "x", "body": [1]},
          {"caption": "x", "id": "a"},
          {"caption": "x", "caption": "twice"},
          "not an object",
          {"cell": "labl", "text": "x"},
          {"cell": "project", "project": "p", "icon": 5},
          {"caption": "last", "body": 123456789012345678}
        ]
        """)
        let run = scratch.rowkit("heights --cell caption-text --width 320 --data rows.json")
        expectRun(run, status: 1, stderr: [
            "rows.json:3:20: unknown field 'bdy' for cell 'caption-text' (did you mean 'body'?); it reads body, caption",
            "rows.json:4:28: field 'body' must be a string or a number, not an array",
            "rows.json:5:3: duplicate row id 'a' (first used by the row at rows.json:2:3)",
            "rows.json:6:20: field 'caption' is given twice (first at 6:4)",
            "rows.json:7:3: a row must be a JSON object of fields, not a string",
            "rows.json:8:12: unknown cell 'labl' (did you mean 'label'?)",
            "rows.json:9:47: field 'icon' names an image: expected a string, not the number 5",
        ])
        // Heights go on past bad rows: rows 0 and 8 are measured, with their indices as written.
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("{\"row\": 0,") && lines[1].hasPrefix("{\"row\": 8,"), "\(run)")
        // render refuses to draw anything from bad rows.
        let render = scratch.rowkit("render --cell caption-text --width 320 --data rows.json --output r.png")
        expectRun(render, status: 1, stderr: ["rows.json: 7 errors in the rows; nothing drawn"])
        #expect(!scratch.contents.contains("r.png"))
        // Unknown fields can be allowed.
        scratch.write("extra.jsonl", #"{"caption": "a", "timestamp": 5}"# + "\n")
        expectRun(scratch.rowkit("heights --cell caption-text --width 320 --data extra.jsonl --allow-unknown-fields"), status: 0)
    }

    @Test func jsonLinesErrorsGoOnLineByLine() {
        let scratch = Scratch()
        scratch.write("rows.jsonl", "{\"caption\": \"a\"}\n{\"caption\": \"b\",}\n\n{\"caption\": \"c\"} extra\n{\"caption\": \"d\"}\n")
        let run = scratch.rowkit("heights --cell caption-text --width 320 --data rows.jsonl")
        expectRun(run, status: 1, stderr: ["rows.jsonl:2:17: unexpected '}', expected a string key", "rows.jsonl:4:18: unexpected 'e'"])
        // Rows are counted as records: the blank line is not one.
        #expect(run.stdout.split(separator: "\n").map { $0.prefix(11) } == ["{\"row\": 0, ", "{\"row\": 3, "], "\(run)")
    }

    /// A row taller than a list row can hold is an error for that row, never a height cut short
    /// (which would make every later y wrong).
    @Test func aRowTallerThanAListRowCanBeIsReported() {
        let scratch = Scratch()
        let boxes = Array(repeating: "{box: {width: 1, height: 1000000}}", count: 40).joined(separator: ", ")
        scratch.write("tall.yaml", "name: tall\nlayout:\n  vstack: {children: [\(boxes)]}\n")
        scratch.write("short.yaml", "name: short\nlayout: {box: {width: 1, height: 10}}\n")
        scratch.write("rows.jsonl", "{\"cell\": \"short\"}\n{\"cell\": \"tall\"}\n{\"cell\": \"short\"}\n")
        let run = scratch.rowkit("heights --cell short.yaml --cell tall.yaml --width 320 --data rows.jsonl")
        expectRun(run, status: 1, stderr: ["rows.jsonl:2:1: cannot measure row 1 of section 0: the row is 40000000 px tall, more than a list row can be"])
        #expect(run.stdout.split(separator: "\n").map { $0.prefix(11) } == ["{\"row\": 0, ", "{\"row\": 2, "], "\(run)")
        #expect(run.stdout.contains("\"y\": 10,"), "the row after the tall one starts where the short one ended: \(run)")
    }

    @Test func malformedJSONDocumentsStopWithAPosition() {
        let scratch = Scratch()
        scratch.write("rows.json", "[\n  {\"caption\": \"a\"},\n  {\"caption\": \"b\"\n]\n")
        expectRun(scratch.rowkit("heights --cell caption-text --width 320 --data rows.json"), status: 1,
                  stderr: ["rows.json:4:1: unexpected ']', expected ',' or '}'"])
    }

    @Test func sectionsAreChecked() {
        let scratch = Scratch()
        scratch.write("sections.json", """
        {"sections": [
          {"title": 5, "rows": [{"caption": "a"}]},
          {"rows": [{"caption": "b"}], "title": "Late title"},
          {"titel": "x", "rows": []}
        ]}
        """)
        let run = scratch.rowkit("heights --cell caption-text --width 320 --data sections.json")
        expectRun(run, status: 1, stderr: [
            "sections.json:2:13: section 0: \"title\" must be a string, not the number 5",
            "sections.json:4:4: section 2: unknown key 'titel' (did you mean 'title'?)",
        ])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run)")
        // The late title's header comes before its row.
        #expect(lines.count == 3 && lines[1].hasPrefix("{\"header\": 1,") && lines[2].hasPrefix("{\"row\": 0, \"section\": 1,"), "\(lines)")
    }

    /// Data without rows: an empty file is named as such (the user did give --data), and a
    /// list of titles only is drawn, as `heights` measures it.
    @Test func emptyDataIsNamedAndTitlesAloneAreDrawn() {
        let scratch = Scratch()
        scratch.write("empty.json", "[]")
        expectRun(scratch.rowkit("render --cell caption-text --width 320 --data empty.json --output o.png"), status: 1,
                  stderr: ["rowkit render: empty.json: no rows to draw"])
        #expect(!scratch.contents.contains("o.png"))
        scratch.write("titles.json", #"{"sections": [{"title": "A", "rows": []}, {"title": "B", "rows": []}]}"#)
        let run = scratch.rowkit("render --cell caption-text --width 320 --data titles.json --output t.png")
        expectRun(run, status: 0, stderr: ["wrote t.png"])
        #expect(run.stdout.split(separator: "\n").count == 2 && run.stdout.hasPrefix("{\"header\": 0,"), "\(run)")
    }

    /// view takes the same data as render: an empty file is named, titles alone are a list
    /// (without a display it then stops at the display, not at the data).
    @Test func viewNamesEmptyDataAndAcceptsTitlesAlone() {
        let scratch = Scratch()
        let noDisplay = "unset DISPLAY WAYLAND_DISPLAY;"
        scratch.write("empty.json", "[]")
        expectRun(scratch.rowkit("view --cell caption-text --data empty.json --quit-after 0.2", setup: noDisplay), status: 1,
                  stderr: ["rowkit view: empty.json: no rows to show"])
        scratch.write("titles.json", #"{"sections": [{"title": "A", "rows": []}]}"#)
        let run = scratch.rowkit("view --cell caption-text --data titles.json --quit-after 0.2", setup: noDisplay)
        expectRun(run, status: 1, stderr: ["rowkit view: cannot open a display"])
        #expect(!run.stderr.contains("no rows"), "\(run)")
    }

    @Test func sectionIdsAreUniqueAndTitleRowsKeepTheirIds() {
        let scratch = Scratch()
        scratch.write("sections.json", #"{"sections": [{"id": "a", "rows": []}, {"rows": [], "id": "a"}, {"id": "s3", "rows": []}, {"rows": []}]}"#)
        expectRun(scratch.rowkit("heights --cell caption-text --width 320 --data sections.json"), status: 1, stderr: [
            "sections.json:1:53: duplicate section id 'a' (first used by the section at sections.json:1:16)",
            "sections.json:1:91: section 3 has no \"id\", and its default id 's3' is already used by the section at sections.json:1:66: give it an \"id\"",
        ])
        // The other way round: the default id comes first, the written one is the duplicate.
        scratch.write("later.json", #"{"sections": [{"rows": []}, {"id": "s0", "rows": []}]}"#)
        expectRun(scratch.rowkit("heights --cell caption-text --width 320 --data later.json"), status: 1, stderr: [
            "later.json:1:30: duplicate section id 's0' (first used by the section at later.json:1:15, which has no \"id\" and so the default one)",
        ])
        scratch.write("header.json", #"{"sections": [{"id": "a", "title": "T", "rows": [{"caption": "x", "id": "a-header"}]}]}"#)
        expectRun(scratch.rowkit("render --cell caption-text --width 320 --data header.json --output o.png"), status: 1,
                  stderr: ["header.json:1:50: row id 'a-header' is the id of the title row of section 'a'"])
    }

    @Test func heightsAgreeWithRender() throws {
        let scratch = Scratch()
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["python3", packageRoot + "/Samples/make_list.py", "120"]
        let pipe = Pipe()
        make.standardOutput = pipe
        try make.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        make.waitUntilExit()
        scratch.write("list.json", bytes: Array(data))
        let heights = scratch.rowkit("heights --cell caption-text --width 320 --data list.json")
        expectRun(heights, status: 0)
        let render = scratch.rowkit("render --cell caption-text --width 320 --data list.json --output l.png")
        expectRun(render, status: 0)
        // render prints "cell" too; the positions and heights must be the same.
        let renderLines = render.stdout.split(separator: "\n").map { $0.replacingOccurrences(of: #", "cell": "caption-text""#, with: "")
            .replacingOccurrences(of: #", "cell": "section-header""#, with: "") }
        #expect(heights.stdout.split(separator: "\n").map(String.init) == renderLines)
        #expect(renderLines.count == 100 + 4, "make_list.py writes 4 sections of 25 rows")
    }

    @Test func severalTemplatesRowsNameTheirs() {
        let scratch = Scratch()
        scratch.write("note.yaml", "name: note\nlayout: {inset: 4, child: {text: {field: note}}}\n")
        scratch.write("rows.jsonl", """
        {"caption": "default cell", "body": "first --cell"}
        {"cell": "note", "note": "a note"}
        {"cell": "label", "text": "a built-in cell"}
        {"cell": "note", "caption": "wrong field"}
        """)
        let run = scratch.rowkit("heights --cell caption-text --cell note.yaml --width 320 --data rows.jsonl")
        expectRun(run, status: 1, stderr: ["rows.jsonl:4:18: unknown field 'caption' for cell 'note'; it reads note"])
        #expect(run.stdout.split(separator: "\n").count == 3)
        let render = scratch.rowkit("render --cell caption-text --cell note.yaml --width 320 --data rows.jsonl --allow-unknown-fields --output r.png")
        expectRun(render, status: 0)
        #expect(render.stdout.contains("\"cell\": \"note\"") && render.stdout.contains("\"cell\": \"label\""))
        let noDefault = scratch.rowkit("heights --width 320 --data rows.jsonl")
        expectRun(noDefault, status: 1, stderr: ["rows.jsonl:1:1: the row names no \"cell\" and there is no default template"])
    }
}
