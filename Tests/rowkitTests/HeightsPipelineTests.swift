import Foundation
import Testing

/// `rowkit heights` over many batches: rows are read, measured and written by different threads,
/// batch by batch (a batch's lines are written while the next one is measured). Every row's
/// line must still come in order, with its own height and y the sum of the heights above.
@Suite struct HeightsPipelineTests {
    struct Line { var row: Int; var y: Double; var height: Double }

    static func lines(_ output: String) throws -> [Line] {
        try output.split(separator: "\n").map { text in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
            func number(_ key: String) throws -> NSNumber { try #require(object[key] as? NSNumber, "\(key) in \(text)") }
            return Line(row: try number("row").intValue, y: try number("y").doubleValue, height: try number("height").doubleValue)
        }
    }

    @Test func tenThousandRowsInOrderWithTheirOwnHeights() throws {
        let scratch = Scratch()
        // Bodies of 0–59 words, so neighbouring rows differ in height.
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
        let rows = (0..<10_000).map { i in
            let body = (0..<((i * 7919) % 60)).map { words[($0 + i) % words.count] }.joined(separator: " ")
            return "{\"caption\": \"row \(i)\", \"body\": \"\(body)\"}"
        }
        scratch.write("rows.jsonl", rows.joined(separator: "\n") + "\n")
        // The same rows one place further down: every batch boundary falls elsewhere.
        scratch.write("shifted.jsonl", (["{\"caption\": \"first\", \"body\": \"\"}"] + rows).joined(separator: "\n") + "\n")
        let run = scratch.rowkit("heights --cell caption-text --width 320 --data rows.jsonl")
        expectRun(run, status: 0)
        let shiftedRun = scratch.rowkit("heights --cell caption-text --width 320 --data shifted.jsonl")
        expectRun(shiftedRun, status: 0)
        let lines = try Self.lines(run.stdout), shifted = try Self.lines(shiftedRun.stdout)
        try #require(lines.count == 10_000 && shifted.count == 10_001)
        #expect(lines.map(\.row) == Array(0..<10_000))
        var y = 0.0
        for line in lines {
            #expect(line.y == y, "row \(line.row)")
            y += line.height
        }
        #expect(lines.map(\.height) == shifted.dropFirst().map(\.height), "each row's height is its own, wherever its batch starts")
        #expect(Set(lines.map(\.height)).count > 3, "rows of different heights")
    }
}
