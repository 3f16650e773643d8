import Foundation
import Testing
@testable import RowKitIO

func temporaryPath(_ name: String) -> String {
    NSTemporaryDirectory() + "rowkit-io-\(UUID().uuidString)-" + name
}

/// Input files and lines (Input/*.swift).
@Suite struct InputTests {
    func lines(_ bytes: [UInt8], maximumRecord: Int = InputLimits.recordBytes) throws -> [BufferedInput.Line] {
        let path = temporaryPath("lines.txt")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = BufferedInput(try InputFile(path), maximumRecord: maximumRecord)
        var result: [BufferedInput.Line] = []
        while let line = try input.nextLine() { result.append(line) }
        return result
    }

    @Test func linesDropCRLFAndTheByteOrderMark() throws {
        let found = try lines([0xEF, 0xBB, 0xBF] + Array("a\r\nb\n\r\nc".utf8))
        #expect(found.map { String(decoding: $0.bytes, as: UTF8.self) } == ["a", "b", "", "c"])
        #expect(found.map(\.number) == [1, 2, 3, 4])
        #expect(try lines([]).isEmpty)
        #expect(try lines(Array("\n".utf8)).map(\.bytes) == [[]])
    }

    /// A UTF-16 file (what some editors save as "Unicode") was "binary data (a NUL byte): not
    /// a text file" read by lines and "not valid UTF-8 text" at 1:1 read whole; both now name
    /// the encoding and how to convert it. UTF-8 text and short lines are read as before.
    @Test func utf16AndUTF32FilesAreNamed() throws {
        for (bytes, named) in [([0xFF, 0xFE] + Array("{\"a\"".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16 (little-endian)"),
                               ([0xFE, 0xFF, 0, 0x22, 0, 0x61], "UTF-16 (big-endian)"),
                               ([0xFF, 0xFE, 0, 0, 0x22, 0, 0, 0], "UTF-32 (little-endian)"),
                               ([0, 0, 0xFE, 0xFF, 0, 0, 0, 0x22], "UTF-32 (big-endian)")] as [([UInt8], String)] {
            let byLines = #expect(throws: InputError.self) { _ = try lines(bytes) }
            #expect(byLines?.message.hasPrefix("the text is \(named)") == true, "\(String(describing: byLines))")
            #expect(byLines?.position == .start)
            let path = temporaryPath("u16.yaml")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let whole = #expect(throws: InputError.self) { _ = try InputFile(path).readText(limit: 1000) }
            #expect(whole?.message.contains("RowKit reads UTF-8: convert it first, e.g. with iconv -f UTF-") == true,
                    "\(String(describing: whole))")
        }
        #expect(try lines(Array("1\n".utf8)).map(\.bytes) == [Array("1".utf8)])
        #expect(try lines([0xFE]).map(\.bytes) == [[0xFE]], "a lone byte is a line (bad JSON later), not an encoding")
    }

    @Test func overlongLinesAreSkippedAndReadingGoesOn() throws {
        let text = "short\n" + String(repeating: "x", count: 5000) + "\nafter\n" + String(repeating: "y", count: 3000)
        let found = try lines(Array(text.utf8), maximumRecord: 1000)
        #expect(found.map(\.isTooLong) == [false, true, false, true])
        #expect(found.map { String(decoding: $0.bytes, as: UTF8.self) } == ["short", "", "after", ""])
        #expect(found.map(\.number) == [1, 2, 3, 4])
    }

    @Test func aDirectoryIsAClearError() {
        let error = #expect(throws: InputError.self) { _ = try InputFile(NSTemporaryDirectory(), what: "data file") }
        #expect(error?.message == "cannot read data file: it is a directory")
        #expect(error?.kind == .unreadable)
    }

    @Test func aMissingFileNamesTheReason() {
        let error = #expect(throws: InputError.self) { _ = try InputFile("/nonexistent/x.json", what: "data file") }
        #expect(error?.description == "/nonexistent/x.json: cannot open data file: No such file or directory")
        #expect(error?.code == ENOENT)
    }

    @Test func wholeReadsHaveALimit() throws {
        let path = temporaryPath("big.txt")
        try Data(repeating: 0x61, count: 2000).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: InputError.self) { _ = try InputFile(path).readAll(limit: 1000, what: "the file") }
        #expect(error?.kind == .limitExceeded)
        #expect(try InputFile(path).readAll(limit: 2000).count == 2000)
        // Devices are read as streams, and the limit still holds.
        let zero = #expect(throws: InputError.self) { _ = try InputFile("/dev/zero").readAll(limit: 100_000) }
        #expect(zero?.kind == .limitExceeded)
    }

    @Test func invalidUTF8IsLocated() throws {
        let path = temporaryPath("bad.txt")
        try Data(Array("ok\nab".utf8) + [0xC3, 0x28]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: InputError.self) { _ = try InputFile(path).readText(limit: 100) }
        #expect(error?.position == TextPosition(line: 2, column: 3))
    }
}

/// Atomic files (Output/AtomicFile.swift).
@Suite struct AtomicFileTests {
    func write(_ text: String, to path: String) throws {
        let file = try AtomicFile(path: path)
        Array(text.utf8).withUnsafeBytes { _ = file.write($0) }
        try file.commit()
    }

    @Test func replacesOnlyOnCommit() throws {
        // A folder of its own: other processes add and remove files in the shared temporary one.
        let folder = temporaryPath("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.txt"
        try write("old", to: path)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).count
        do {
            let file = try AtomicFile(path: path)
            Array("new but abandoned".utf8).withUnsafeBytes { _ = file.write($0) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == before, "the temporary file is removed")
        try write("new", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
    }

    @Test func keepsTheModeAndFollowsSymbolicLinks() throws {
        let path = temporaryPath("target.txt"), link = temporaryPath("link.txt")
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: link) }
        try write("one", to: path)
        chmod(path, 0o640)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        try write("two", to: link)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == path, "the link stays a link")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    @Test func refusesDirectoriesDevicesAndMissingFolders() {
        #expect((#expect(throws: OutputError.self) { _ = try AtomicFile(path: NSTemporaryDirectory()) })?.message.contains("directory") == true)
        #expect((#expect(throws: OutputError.self) { _ = try AtomicFile(path: "/dev/null") })?.message.contains("not a regular file") == true)
        #expect((#expect(throws: OutputError.self) { _ = try AtomicFile(path: "/nonexistent-rowkit/x.png") })?.message.contains("does not exist") == true)
    }
    /// A dangling link was replaced by a regular file (realpath fails for a missing target):
    /// the link's target is written instead, resolved relative to the link's folder.
    @Test func aDanglingLinkIsFollowed() throws {
        let folder = temporaryPath("links")
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/sub/ok.txt", withDestinationPath: "target.txt")
        // A chain: a link to a dangling link.
        try FileManager.default.createSymbolicLink(atPath: folder + "/chain.txt", withDestinationPath: "sub/ok.txt")
        try write("one", to: folder + "/chain.txt")
        #expect(try String(contentsOfFile: folder + "/sub/target.txt", encoding: .utf8) == "one")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/sub/ok.txt") == "target.txt", "the link stays a link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/chain.txt") == "sub/ok.txt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/lost.txt", withDestinationPath: "nowhere/target.txt")
        let error = #expect(throws: OutputError.self) { _ = try AtomicFile(path: folder + "/lost.txt") }
        #expect(error?.message == "cannot write: the folder '\(folder)/nowhere/' of the symbolic link's target '\(folder)/nowhere/target.txt' does not exist",
                "\(String(describing: error))")
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop.txt", withDestinationPath: "loop.txt")
        #expect(throws: OutputError.self) { _ = try AtomicFile(path: folder + "/loop.txt") }
    }

    /// The temporary name added up to 12 bytes to the file's, so a valid 254-byte name failed
    /// with "File name too long".
    @Test func aLongValidNameCanBeWritten() throws {
        let folder = temporaryPath("long")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in [String(repeating: "a", count: 251) + ".png", String(repeating: "é", count: 127) + "x"] {
            #expect(name.utf8.count >= 254)
            try write("long", to: folder + "/" + name)
            #expect(try String(contentsOfFile: folder + "/" + name, encoding: .utf8) == "long")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 2, "no temporary file is left")
    }

    // Real write failures (a file size limit, EFBIG) are tested through the command, which can
    // set a limit for its own process: Tests/rowkitTests.
}

/// Standard streams (Output/StandardStreams.swift).
@Suite struct OutputWriterTests {
    @Test func writeErrorsAreThrownNotTrapped() throws {
        let fd = open("/dev/full", O_WRONLY)
        defer { close(fd) }
        let writer = OutputWriter(descriptor: fd, name: "full", capacity: 8)
        let error = #expect(throws: OutputError.self) { try writer.writeLine("more than eight bytes") }
        #expect(error?.description == "full: write error: No space left on device")
    }
}

/// Messages quote names read from hostile inputs: control characters must not reach the
/// terminal, and no message may be megabytes long (fuzz round of 2026-11-25).
@Suite struct MessageQuotingTests {
    @Test func controlAndBidiCharactersAreEscaped() {
        #expect(shortenedForMessage("a\u{1B}[2Jb\u{7}\r\u{0}\u{9B}\u{202E}c\td\ne") == #"a\u{1B}[2Jb\u{7}\u{D}\u{0}\u{9B}\u{202E}c\td\ne"#)
        #expect(shortenedForMessage("e\u{301}x") == "e\u{301}x") // combining marks are text
        #expect(escapingControls("line one\nkey '\u{1B}]0;t\u{7}'") == #"line one"# + "\n" + #"key '\u{1B}]0;t\u{7}'"#)
    }

    @Test func messagesAreCutAtTheLimit() {
        let long = String(repeating: "é", count: 10_000)
        let cut = escapingControls(long)
        #expect(cut.hasPrefix(String(repeating: "é", count: maximumMessageCharacters)))
        #expect(cut.hasSuffix("… (8000 more characters)"))
        let short = String(repeating: "x", count: maximumMessageCharacters)
        #expect(escapingControls(short) == short)
    }
}
