import Testing
@testable import RowKitText

/// Messages of out-of-range numbers: an integer shown as one, with what is allowed.
@Suite struct TextErrorMessageTests {
    @Test func invalidNumbersSayWhatIsAllowed() throws {
        let p = try prepare("hello")
        #expect(throws: TextError.self) { try p.layout(width: 10, maxLines: 0) }
        do { _ = try p.layout(width: 10, maxLines: 0) } catch { #expect(error.description == "invalid maxLines: 0 (1 or more)") }
        do { _ = try p.layout(width: -5) } catch { #expect(error.description == "invalid width: -5 (0 or more; .infinity lays out one line per paragraph)") }
        do { _ = try p.layout(width: -0.5) } catch { #expect(error.description.hasPrefix("invalid width: -0.5 (")) }
        do { _ = try p.layout(width: .nan) } catch { #expect(error.description.hasPrefix("invalid width: nan (")) }
    }
}
