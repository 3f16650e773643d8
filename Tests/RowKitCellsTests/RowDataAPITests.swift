import Testing
import RowKitCells

/// What an app writes with the cell API (from the library QA round): a row's fields set by
/// subscript, a template read without a stylesheet argument.
@Suite struct RowDataAPITests {
    @Test func aRowsFieldsAreSetAndRemovedBySubscript() {
        var data: RowData = ["title": "Hello"]
        data["title"] = .string("Bye")
        data["count"] = .number(3)
        #expect(data["title"] == .string("Bye"))
        #expect(data["count"] == .number(3))
        data["title"] = nil
        #expect(data["title"] == nil)
        #expect(data.fields.count == 1)
    }

    @Test func aTemplateReadsWithoutAStylesheetArgument() throws {
        let template = try CellTemplate(yaml: "name: t\nlayout: {text: {field: a}}\n", file: "t.yaml")
        #expect(template.name == "t")
    }
}
