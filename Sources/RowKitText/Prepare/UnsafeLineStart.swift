/// Overflow-wrap lines that start where HarfBuzz says a break is not safe (docs/CHROMIUM.md
/// §3(d), "Unsafe line starts"). Chromium's `ShapingLineBreaker::ShapeLine` shapes a line that
/// starts at an unsafe offset again from there up to the next safe-to-break offset; when the
/// candidate break lies inside that stretch, the stretch up to the candidate is the line — its
/// width is not checked again and the break does not move back. With every character of a
/// cluster at the cluster's start, the candidate inside the cluster that reaches past the limit
/// is before its last grapheme: Noto Sans Myanmar `ကနား` at 18.58 px is `က` / `နာ` / `း` (`နာ`,
/// 28.7 px, overflows), while `နား` alone (safe start) moves back to `န` / `ာ` / `း`.
enum UnsafeLineStart {
    /// Appends, for each multi-unit cluster of a run whose start is unsafe to break before, a
    /// `(c, c, d)` triple to the run's line-start table: `c - d` is the latest safe offset
    /// before `c` (the run start counts as safe). Keeps the table ordered by (from, to).
    static func record(clusters: [Int32], unsafe: [Bool], count: Int, into table: inout [Int32]) {
        guard count > 1 else { return }
        // The cluster starts, on the stack (a heap array through the unspecialized
        // `init(repeating:count:)` cost more than the rest).
        let found: [(Int32, Int32, Int32)] = withUnsafeTemporaryAllocation(of: Bool.self, capacity: count + 1) { isStart in
            isStart.initialize(repeating: false)
            for c in clusters where c >= 0 && Int(c) < count { isStart[Int(c)] = true }
            isStart[count] = true
            var entries: [(Int32, Int32, Int32)] = []
            var safe = 0
            var c0 = 0
            while c0 < count {
                var c1 = c0 + 1
                while !isStart[c1] { c1 += 1 }
                if !unsafe[c0] || c0 == 0 {
                    safe = c0
                } else if c1 - c0 > 1 {
                    entries.append((Int32(c0), Int32(c0), Int32(c0 - safe)))
                }
                c0 = c1
            }
            return entries
        }
        guard !found.isEmpty else { return }
        var entries = found
        for t in stride(from: 0, to: table.count, by: 3) { entries.append((table[t], table[t + 1], table[t + 2])) }
        entries.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        table.removeAll(keepingCapacity: true)
        for e in entries { table.append(e.0); table.append(e.1); table.append(e.2) }
    }
}
