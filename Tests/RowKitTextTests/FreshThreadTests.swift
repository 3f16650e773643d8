import Foundation
import Testing
import RowKitText

/// Preparing on a thread that has never prepared anything: its scratch buffers are empty
/// (unallocated), and appending nothing to them must not touch their memory.
@Suite struct FreshThreadTests {
    @Test(arguments: ["", "   ", " \t ", "a", "\u{200B}"])
    func prepareOnANewThread(_ text: String) async throws {
        let measured: TextMeasure? = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: try? PreparedText(text, style: TextStyle()).measure(width: 100))
            }
            thread.start()
        }
        #expect(measured != nil)
    }
}
