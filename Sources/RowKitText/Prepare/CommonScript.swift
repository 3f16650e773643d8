/// The script a run of only Common and Inherited characters (punctuation, digits, symbols) is
/// shaped in: Chromium's run segmenter gives such characters the script of the nearest
/// character before them in the paragraph that has one, else of the nearest after
/// (docs/CHROMIUM.md §1, "Script runs"). It matters where a font's glyph depends on the script:
/// Noto Sans CJK's `—` is 1 em shaped as Latin or Han but 0.89 em as Common (`x —`, `— x`,
/// `漢 —` at 34.5 px: 59.42, 59.42, 76.73 px; `—` alone 30.84).
enum CommonScript {
    /// Whether `scalar` has a definite script (not Common, Inherited or Unknown).
    @inline(__always) static func isDefinite(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return (scalar | 0x20) &- 0x61 < 26 }
        return ScriptRuns.script(of: scalar) >= 0
    }

    /// HarfBuzz's script for the run `units[start..<end]` when the run has no definite script
    /// of its own (searched in `paragraph` at `offset` when given: the run is in a chunk of it):
    /// 0 when the text around it has none either; nil when the run has one (HarfBuzz guesses it).
    /// `outside` is false only when the answer is a definite character before the run inside
    /// `units` itself: anything else (found after the run, or not at all) could change with
    /// text before the chunk in another paragraph, so such a chunk cannot be word-cached.
    /// `memo` keeps the last searches' answers for one text (`paragraph ?? units`), so that the
    /// runs of a long stretch without a definite script (`1 2 3 …`, a letter under thousands of
    /// marks shaped in pieces) do not each search the whole stretch again: the caller resets it
    /// (``Memo/init()``) whenever the text changes.
    static func script(ofRun units: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int,
                       paragraph: UnsafeBufferPointer<UInt16>?, offset: Int, memo: inout Memo) -> (script: UInt32, outside: Bool)? {
        var i = start
        while i < end {
            let (scalar, length) = UnicodeAnalysis.scalar(at: i, in: units)
            if isDefinite(scalar) { return nil }
            i += length
        }
        let text = paragraph ?? units
        let base = paragraph == nil ? 0 : offset
        // The nearest definite character before the run.
        let from = base + start
        var p = from
        var before: (scalar: UInt32, at: Int)? = nil
        while p > 0 {
            if memo.behindFrom >= 0 && p <= memo.behindFrom {
                // Nothing definite from here to the last search's start: its answer holds.
                before = memo.behind
                break
            }
            let (scalar, q) = QuotationRules.scalar(before: p, in: text)
            if isDefinite(scalar) { before = (scalar, q); break }
            p = q
        }
        if memo.behindFrom <= from {
            memo.behindFrom = from
            memo.behind = before
        }
        if let before { return (HarfBuzz.script(of: before.scalar), before.at < base) }
        // Else the nearest after it.
        let after = base + end
        if memo.aheadFrom >= 0 && memo.aheadFrom <= after && (memo.ahead.map { $0.at >= after } ?? true) {
            return (memo.ahead.map { HarfBuzz.script(of: $0.scalar) } ?? 0, true)
        }
        p = after
        var ahead: (scalar: UInt32, at: Int)? = nil
        while p < text.count {
            let (scalar, length) = UnicodeAnalysis.scalar(at: p, in: text)
            if isDefinite(scalar) { ahead = (scalar, p); break }
            p += length
        }
        memo.aheadFrom = after
        memo.ahead = ahead
        return (ahead.map { HarfBuzz.script(of: $0.scalar) } ?? 0, true)
    }

    /// The last searches of ``script(ofRun:_:_:paragraph:offset:memo:)`` in one text: the nearest
    /// definite character before `behindFrom` (nil: none) and at or after `aheadFrom`; -1: none yet.
    struct Memo {
        var behindFrom = -1
        var behind: (scalar: UInt32, at: Int)? = nil
        var aheadFrom = -1
        var ahead: (scalar: UInt32, at: Int)? = nil
    }
}
