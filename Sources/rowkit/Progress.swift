import Foundation
import RowKitIO

/// A progress bar on standard error for jobs longer than a second: count, percentage, bar,
/// rate and time left. Shown only when standard error is a terminal (and `TERM` is not
/// `dumb`); quiet otherwise, so logs and pipes never get it. Redrawn at most ten times a
/// second; cleared when done or when a message is printed.
///
/// The fraction comes from the items' total when known, else from bytes read of a regular
/// file; with neither (a pipe) it shows the count and rate only.
final class ProgressBar {
    private let label: String
    private let unit: String
    private let total: Int?
    private let visible: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var shown = false

    /// A bar for `total` items (nil: unknown), counted in `unit` ("rows", "texts").
    init(label: String, unit: String, total: Int? = nil) {
        self.label = label
        self.unit = unit
        self.total = total
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        self.visible = isatty(2) == 1 && term != "dumb"
    }

    /// Reports `done` items; `fraction` (0...1) when known otherwise (bytes read).
    func update(_ done: Int, fraction: Double? = nil) {
        guard visible else { return }
        let now = Date()
        let elapsed = now.timeIntervalSince(start)
        guard elapsed >= 1, now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        shown = true
        let part = total.map { $0 > 0 ? Double(done) / Double($0) : 1 } ?? fraction
        let rate = Double(done) / elapsed
        var line = "\(label): \(grouped(done))"
        if let total { line += "/\(grouped(total))" }
        line += " \(unit)"
        if let part {
            let clamped = min(1, max(0, part))
            let width = 24
            let filled = Int((clamped * Double(width)).rounded(.down))
            line += " \(String(format: "%3d", Int(clamped * 100)))% [" + String(repeating: "#", count: filled)
                + String(repeating: ".", count: width - filled) + "]"
            line += " \(grouped(Int(rate))) \(unit)/s"
            if clamped > 0.001 { line += " ETA \(duration(elapsed * (1 - clamped) / clamped))" }
        } else {
            line += " \(grouped(Int(rate))) \(unit)/s, \(duration(elapsed)) elapsed"
        }
        Diagnostics.progress(String(line.prefix(max(20, terminalColumns() - 1))))
    }

    /// Clears the bar.
    func finish() {
        if shown { Diagnostics.clearProgress() }
    }

    private func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    private func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    private func terminalColumns() -> Int {
        var size = winsize()
        return ioctl(2, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }
}
