import Foundation
import Testing

/// Hostile-user QA round (helper 84): each test failed before its fix.
@Suite struct HostileQA84Tests {
    /// A PNG header claiming 4294967295×4294967295 pixels: the pixel count overflowed Int and
    /// trapped (signal 4) while checking it against the limit; it is now refused with a warning.
    @Test func aPNGClaimingTheLargestSizesIsRefusedNotATrap() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("icons"), withIntermediateDirectories: true)
        scratch.write("icons/fruit.png", bytes: pngHeaderOnly(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF))
        scratch.write("icons/cat.png", bytes: pngHeaderOnly(width: 0x8000_0000, height: 0x8000_0000))
        scratch.write("rows.json", #"[{"project": "p", "description": "d", "icon": "fruit", "logo1": "cat", "logo2": "bird"}]"#)
        let run = scratch.rowkit("render --cell project --data rows.json --width 320 --images icons --quiet --output out.png")
        expectRun(run, status: 0, stderr: [
            "icons/fruit.png': 4294967295×4294967295 pixels is more than the 16777216-pixel limit",
            "icons/cat.png': 2147483648×2147483648 pixels is more than the 16777216-pixel limit",
        ])
        #expect(scratch.read("out.png") != nil)
        #expect(scratch.contents.allSatisfy { !$0.hasSuffix(".tmp") }, "\(scratch.contents)")
    }
}
