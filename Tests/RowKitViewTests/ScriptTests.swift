import Foundation
import Testing
@testable import RowKitView

@Suite struct ScriptTests {
    @Test func readsEveryAction() throws {
        let text = """
        # a comment
        0.5 scroll -120.5
        0 wheel 3   # trailing comment
        1 fling 2500
        1 scroll-to 100 middle
        1 scroll-to 2:7 nearest
        2 click 10 20
        2 press 1 2
        2 release 1 2
        3 key Page_Down
        3 key f
        4 resize 320 480
        5 insert 2

        6 quit
        """
        let steps = try Script.parse(text, file: "s.txt")
        #expect(steps.map(\.action) == [
            .wheel(3), .scroll(-120.5), .fling(2500), .scrollTo(.flat(100), .middle), .scrollTo(.path(section: 2, row: 7), .nearest),
            .click(x: 10, y: 20), .press(x: 1, y: 2), .release(x: 1, y: 2), .key(.pageDown), .key(.toggleFrameRate),
            .resize(width: 320, height: 480), .insert(2), .quit,
        ])
        #expect(steps.first?.line == 3 && steps.first?.time == 0)
    }

    @Test(arguments: [
        ("1 scroll", "s:1: 'scroll' takes one distance in px"),
        ("x scroll 3", "s:1: expected a time in seconds (0...86400) first, not 'x'"),
        ("-1 scroll 3", "s:1: expected a time in seconds (0...86400) first, not '-1'"),
        ("1 jump 3", "s:1: unknown action 'jump' (actions: scroll, wheel, fling, scroll-to, click, press, release, key, resize, insert, quit)"),
        ("1 key hyper", "s:1: unknown key 'hyper' (keys: up, down, page-up, page-down, home, end, escape, fps)"),
        ("1 scroll nan", "s:1: the distance must be a number in -1000000000.0...1000000000.0, not 'nan'"),
        ("1 scroll-to 5 left", "s:1: position must be top, middle, bottom or nearest, not 'left'"),
        ("1 resize 0 10", "s:1: the width must be a number in 1.0...10000.0, not '0'"),
        ("1 insert 1.5", "s:1: the number of rows must be an integer in 1...100000, not '1.5'"),
        ("1", "s:1: expected an action after the time"),
    ])
    func badLinesNameFileAndLine(line: String, message: String) {
        #expect(throws: ScriptError.self) { try Script.parse(line, file: "s") }
        do { _ = try Script.parse(line, file: "s") } catch { #expect(error.description == message) }
    }

    /// A warning names a row as the script wrote it ("no row 12", not "no row flat(12)").
    @Test func rowReferencesReadAsWritten() throws {
        let steps = try Script.parse("0 scroll-to 12 top\n0 scroll-to 3:4 nearest", file: "s")
        let written = steps.compactMap { step -> String? in
            if case .scrollTo(let reference, _) = step.action { return "\(reference)" }
            return nil
        }
        #expect(written == ["12", "3:4"])
        let (model, _) = try makeModel(count: 10, sections: 2)
        #expect(model.rowCountText == "10 rows in 2 sections")
        #expect(model.itemIndex(of: .flat(10)) == nil && model.itemIndex(of: .path(section: 1, row: 4)) != nil)
    }

    /// Each insert was bounded but their sum was not: forty `insert 100000` lines grew the list
    /// to 4,000,000 rows (2.5 GB, 80 s before the script's `quit` was seen). The line that
    /// passes 1,000,000 in all is an error now; a long word is quoted short.
    @Test func insertsAreBoundedInAllAndLongWordsQuotedShort() throws {
        let ten = (0..<10).map { _ in "0 insert 100000" }.joined(separator: "\n")
        #expect(try Script.parse(ten, file: "s").count == 10)
        do {
            _ = try Script.parse(ten + "\n1 insert 1", file: "s")
            Issue.record("1,000,001 rows inserted")
        } catch {
            #expect(error.description == "s:11: the script inserts more than 1000000 rows in all")
        }
        let word = String(repeating: "w", count: 100_000)
        do { _ = try Script.parse("1 \(word) 5", file: "s") } catch {
            #expect(error.description.count < 300, "\(error.description.count) characters")
        }
    }

    @Test func errorsCountLinesFromOne() {
        do { _ = try Script.parse("0 scroll 1\n\n# c\n2 scroll x", file: "f") } catch { #expect(error.line == 4) }
    }

    /// Script files are read through RowKitIO's input path: errors say why (they were all
    /// "cannot read the script file"), a device is refused at the size limit, bad UTF-8 names its line.
    @Test func unreadableScriptFilesSayWhy() throws {
        func message(_ path: String) -> String? {
            do { _ = try Script.load(path); return nil } catch { return error.description }
        }
        let folder = NSTemporaryDirectory() + "rowkit-script-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(message(folder + "/missing.txt") == folder + "/missing.txt: cannot open the script file: No such file or directory")
        #expect(message(folder) == folder + ": cannot read the script file: it is a directory")
        #expect(message("/dev/zero") == "/dev/zero: the script file is larger than the 1 MiB limit")
        #expect(FileManager.default.createFile(atPath: folder + "/bad.txt", contents: Data([0x30, 0x20, 0x71, 0x75, 0x69, 0x74, 0x0A, 0xFF, 0x0A])))
        #expect(message(folder + "/bad.txt") == folder + "/bad.txt:2: not valid UTF-8 text")
        #expect(FileManager.default.createFile(atPath: folder + "/good.txt", contents: Data("0 quit\n".utf8)))
        #expect(try Script.load(folder + "/good.txt").map(\.action) == [.quit])
    }

    @Test func keyNames() {
        #expect(NavigationKey(name: "Page_Up") == .pageUp)
        #expect(NavigationKey(name: "PageDown") == .pageDown)
        #expect(NavigationKey(name: "HOME") == .home)
        #expect(NavigationKey(name: "F") == .toggleFrameRate)
        #expect(NavigationKey(name: "nope") == nil)
    }
}
