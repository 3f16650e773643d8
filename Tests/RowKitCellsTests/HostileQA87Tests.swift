import Foundation
import Testing
import RowKitText
@testable import RowKitCells

/// QA-87: YAML numbers too large for a double, and numbers quoted in messages.
@Suite("QA-87: YAML numbers and cells")
struct HostileQA87Tests {
    /// `size: 1e400` and a 5,000-digit `size` are numbers too large for a double: out of range,
    /// quoted short. They were "1e400 is not a finite number" (and the 1e9999… form was quoted
    /// whole, cut at 2,000 characters before the reason) and "expected a number, got number 999…".
    @Test func numbersTooLargeForADoubleAreOutOfRangeAndQuotedShort() {
        let nines = String(repeating: "9", count: 5_000)
        for (value, column) in [("1e400", 13), (nines, 13), ("1e" + nines, 13), ("-" + nines, 13)] {
            let error = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {size: \(value)}\n", file: "n.yaml") }
            let bound = value.hasPrefix("-") ? "must be greater than 0" : "must be at most 1000"
            expectError(error, .outOfRange, file: "n.yaml", line: 2, column: column, key: "styles.a.size", message: "is out of range: \(bound)")
            #expect((error?.message.count ?? 0) < 120, "\(error.map(String.init(describing:)) ?? "")")
            #expect(error?.message.contains("finite") == false)
        }
        // Written infinities stay "not a finite number".
        let infinity = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {size: -.inf}\n", file: "i.yaml") }
        expectError(infinity, .outOfRange, file: "i.yaml", line: 2, column: 13, key: "styles.a.size", message: "-.inf is not a finite number")
        // Lengths, whole numbers, and an octal-looking number are quoted short too.
        let inset = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  inset: {top: 1\(nines)}\n  child: {text: {field: a}}\n", file: "h.yaml", stylesheet: nil)
        }
        expectError(inset, .outOfRange, file: "h.yaml", line: 3, column: 16, key: "layout.inset.top", message: "must be at most 1000000")
        #expect((inset?.message.count ?? 0) < 120)
        let flexible = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  hstack: {flexible: 1e400, children: [{text: {field: a}}]}\n", file: "f.yaml", stylesheet: nil)
        }
        expectError(flexible, .outOfRange, file: "f.yaml", line: 3, column: 22, key: "layout.hstack.flexible",
                    message: "1e400 is out of range: must be at least 0 and at most 0")
        let longFlexible = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  hstack: {flexible: \(nines), children: [{text: {field: a}}]}\n", file: "f.yaml", stylesheet: nil)
        }
        expectError(longFlexible, .outOfRange, file: "f.yaml", line: 3, column: 22, key: "layout.hstack.flexible", message: "must be at least 0 and at most 0")
        #expect((longFlexible?.message.count ?? 0) < 120)
        let octal = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  a: {weight: 0\(String(repeating: "7", count: 3_000))}\n", file: "o.yaml")
        }
        #expect(octal != nil)
        #expect((octal?.message.count ?? 0) < 200, "\(octal.map(String.init(describing:)) ?? "")")
        // A sample's 1e400 is out of range, as a row file's is (README).
        let sample = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout: {text: {field: a}}\nsamples:\n  - {a: 1e400}\n", file: "s.yaml", stylesheet: nil)
        }
        expectError(sample, .outOfRange, file: "s.yaml", line: 4, column: 9, key: "samples[0].a", message: "1e400 is out of range")
    }
}
