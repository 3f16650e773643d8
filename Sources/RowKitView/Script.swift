import Foundation
import RowKitIO

/// A navigation key the list reacts to.
public enum NavigationKey: String, Sendable, CaseIterable {
    /// Move the selection one row, a page, or to the first or last row.
    case up, down, pageUp = "page-up", pageDown = "page-down", home, end
    /// Clears the selection.
    case escape
    /// Shows or hides the frame-rate readout.
    case toggleFrameRate = "fps"

    /// The key a script or a user names: `up`, `Page_Down`, `page-down`, `PageDown`, `fps`, `f`…
    public init?(name: String) {
        let folded = name.lowercased().replacingOccurrences(of: "_", with: "-")
        switch folded {
        case "pageup", "prior": self = .pageUp
        case "pagedown", "next": self = .pageDown
        case "f", "f12": self = .toggleFrameRate
        case "esc": self = .escape
        default: self.init(rawValue: folded)
        }
    }
}

/// Where `scroll-to` puts a row.
public enum RowPosition: String, Sendable, CaseIterable {
    /// At the top, middle or bottom of the viewport; `nearest` scrolls just enough to show it.
    case top, middle, bottom, nearest
}

/// A row named by a script: a row number counting across sections, or a section and a row.
public enum RowReference: Sendable, Equatable, CustomStringConvertible {
    /// The `n`th row counting across sections (headers not counted).
    case flat(Int)
    /// Row `row` of section `section`.
    case path(section: Int, row: Int)

    /// The row as a script writes it: `12` or `3:4`.
    public var description: String {
        switch self {
        case .flat(let n): return "\(n)"
        case .path(let section, let row): return "\(section):\(row)"
        }
    }
}

/// One scripted action, replayed through the same handlers real input reaches.
public enum ScriptAction: Sendable, Equatable {
    /// A smooth scroll event of `dy` px (a touchpad delta; positive scrolls down).
    case scroll(Double)
    /// `n` wheel clicks (negative: up).
    case wheel(Int)
    /// A fling: kinetic deceleration from `velocity` px/s.
    case fling(Double)
    /// Scrolls so that a row sits at a position of the viewport (the engine's `scrollTo`).
    case scrollTo(RowReference, RowPosition)
    /// Press and release at a point of the list's drawing area.
    case click(x: Double, y: Double)
    /// A press (highlights the row under it) at a point of the list's drawing area.
    case press(x: Double, y: Double)
    /// A release (selects the row when it is the pressed one).
    case release(x: Double, y: Double)
    /// A key press.
    case key(NavigationKey)
    /// Resizes the list's drawing area.
    case resize(width: Double, height: Double)
    /// Inserts `n` new rows above the viewport (at the top of the list).
    case insert(Int)
    /// Closes the window.
    case quit
}

/// A timed action of a script, with the line it came from.
public struct ScriptStep: Sendable, Equatable {
    /// Seconds after the window's first frame.
    public var time: Double
    /// What to do.
    public var action: ScriptAction
    /// The script line it came from (1-based).
    public var line: Int
}

/// A script line that could not be read: `file:line: message`.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The script file, the line (0 when the file as a whole is at fault) and what is wrong.
    public var file: String, line: Int, message: String
    /// `file:line: message`.
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// Scripts replay timed actions, one per line: `<seconds> <action> [arguments]`; `#` starts a
/// comment. Actions: `scroll <dy>`, `wheel <clicks>`, `fling <px/s>`,
/// `scroll-to <row>|<section>:<row> top|middle|bottom|nearest`, `click <x> <y>`, `press <x> <y>`,
/// `release <x> <y>`, `key <name>`, `resize <w> <h>`, `insert <n>`, `quit`.
public enum Script {
    /// Reads a script; steps come back sorted by time (lines with equal times keep their order).
    public static func parse(_ text: String, file: String) throws(ScriptError) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        var inserted = 0
        for (n, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = n + 1
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            func fail(_ message: String) -> ScriptError { ScriptError(file: file, line: line, message: message) }
            guard let time = Double(words[0]), time.isFinite, time >= 0, time <= 86_400 else {
                throw fail("expected a time in seconds (0...86400) first, not '\(shortenedForMessage(words[0]))'")
            }
            guard words.count >= 2 else { throw fail("expected an action after the time") }
            let name = words[1], args = Array(words.dropFirst(2))
            func count(_ expected: Int, _ usage: String) throws(ScriptError) {
                guard args.count == expected else { throw fail("'\(shortenedForMessage(name))' takes \(usage)") }
            }
            func number(_ text: String, _ what: String, _ range: ClosedRange<Double>) throws(ScriptError) -> Double {
                guard let value = Double(text), value.isFinite, range.contains(value) else {
                    throw fail("\(what) must be a number in \(range.lowerBound)...\(range.upperBound), not '\(shortenedForMessage(text))'")
                }
                return value
            }
            func integer(_ text: String, _ what: String, _ range: ClosedRange<Int>) throws(ScriptError) -> Int {
                guard let value = Int(text), range.contains(value) else {
                    throw fail("\(what) must be an integer in \(range.lowerBound)...\(range.upperBound), not '\(shortenedForMessage(text))'")
                }
                return value
            }
            let action: ScriptAction
            switch name {
            case "scroll":
                try count(1, "one distance in px")
                action = .scroll(try number(args[0], "the distance", -1e9...1e9))
            case "wheel":
                try count(1, "a number of clicks")
                action = .wheel(try integer(args[0], "the clicks", -10_000...10_000))
            case "fling":
                try count(1, "a velocity in px/s")
                action = .fling(try number(args[0], "the velocity", -1e6...1e6))
            case "scroll-to":
                try count(2, "a row and top, middle, bottom or nearest")
                let reference: RowReference
                let parts = args[0].split(separator: ":", omittingEmptySubsequences: false)
                if parts.count == 2 {
                    reference = .path(section: try integer(String(parts[0]), "the section", 0...Int(Int32.max)),
                                      row: try integer(String(parts[1]), "the row", 0...Int(Int32.max)))
                } else {
                    reference = .flat(try integer(args[0], "the row", 0...Int(Int32.max)))
                }
                guard let position = RowPosition(rawValue: args[1]) else {
                    throw fail("position must be top, middle, bottom or nearest, not '\(shortenedForMessage(args[1]))'")
                }
                action = .scrollTo(reference, position)
            case "click", "press", "release":
                try count(2, "x and y in px")
                let x = try number(args[0], "x", -100_000...100_000), y = try number(args[1], "y", -100_000...100_000)
                action = name == "click" ? .click(x: x, y: y) : name == "press" ? .press(x: x, y: y) : .release(x: x, y: y)
            case "key":
                try count(1, "a key name")
                guard let key = NavigationKey(name: args[0]) else {
                    throw fail("unknown key '\(shortenedForMessage(args[0]))' (keys: \(NavigationKey.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                action = .key(key)
            case "resize":
                try count(2, "a width and a height in px")
                action = .resize(width: try number(args[0], "the width", 1...10_000), height: try number(args[1], "the height", 1...10_000))
            case "insert":
                try count(1, "a number of rows")
                let rows = try integer(args[0], "the number of rows", 1...100_000)
                // Each insert is bounded, so the sum is too: forty inserts of 100,000 rows took
                // 2.5 GB and 80 s before the script's `quit` was seen.
                inserted += rows
                guard inserted <= maximumInsertedRows else {
                    throw fail("the script inserts more than \(maximumInsertedRows) rows in all")
                }
                action = .insert(rows)
            case "quit":
                try count(0, "no arguments")
                action = .quit
            default:
                throw fail("unknown action '\(shortenedForMessage(name))' (actions: scroll, wheel, fling, scroll-to, click, press, release, key, resize, insert, quit)")
            }
            steps.append(ScriptStep(time: time, action: action, line: line))
        }
        return steps.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// The most rows a script's `insert` actions add in all (as many as `--sample` generates).
    public static let maximumInsertedRows = 1_000_000

    /// The largest script file read: 1 MiB (a script is a few lines; a device such as
    /// `/dev/zero` is refused once past it instead of read forever).
    public static let maximumBytes = 1 << 20

    /// Reads a script file through RowKit's one input path (a directory, a missing file or a
    /// file over ``maximumBytes`` is an error with the system's reason); errors name the file
    /// (and line).
    public static func load(_ path: String) throws(ScriptError) -> [ScriptStep] {
        let text: String
        do throws(InputError) {
            text = try InputFile(path, what: "the script file").readText(limit: maximumBytes, what: "the script file")
        } catch {
            throw ScriptError(file: path, line: error.position?.line ?? 0, message: error.message)
        }
        return try parse(text, file: path)
    }
}
