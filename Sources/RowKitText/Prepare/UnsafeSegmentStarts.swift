extension Builder {
    /// Ordinary line starts (segment starts inside a left-to-right run) where HarfBuzz flags the
    /// text unsafe to break: Chromium's `ShapingLineBreaker::ShapeLine` shapes such a line again
    /// from its start up to the next safe-to-break offset, as after an overflow-wrap split
    /// (docs/CHROMIUM.md §3(n), seventeenth round). DejaVu Serif 800 italic 34 px (→ Noto Sans
    /// Myanmar): `ဖြင့်` after the dictionary break in `ဤသို့ဖြင့်` is 55.91 px in context, 52.84
    /// at a line start. The stretch's change is credited to its first cluster as a line-start
    /// width (u, cluster end, width) in ``alone``, so layout and drawing take it as they take a
    /// reshaped CJK mark (``LineStartReshape``). Unsafe cluster starts are those the run's
    /// line-start table records (``UnsafeLineStart``: clusters of several units); the stretch is
    /// shaped with its run's font. Returns the units that
    /// got an entry (their segments are flagged ``MetricsBlock/Flag/lineStartAlone``).
    mutating func collectUnsafeSegmentStarts(_ units: UnsafeBufferPointer<UInt16>, breaks: [Int32], skipping known: Set<Int>,
                                             buffer: HBBuffer) -> [Int] {
        // Ascending: `alone` is ordered by (from, to), and the breaks ascend too, so one walk.
        var unsafeStarts: [Int] = []
        for t in stride(from: 0, to: alone.count - 2, by: 3) where alone[t] == alone[t + 1] && alone[t + 2] > 0 {
            unsafeStarts.append(Int(alone[t]))
        }
        guard !unsafeStarts.isEmpty else { return [] }
        var next = 0
        @inline(__always) func isClusterStart(_ v: Int) -> Bool {
            v >= units.count || (graphemeStartBits[v >> 6] & (1 << UInt64(v & 63)) != 0
                                 && clusterInnerBits[v >> 6] & (1 << UInt64(v & 63)) == 0)
        }
        var found: [Int] = []
        for b in breaks {
            let u = Int(b)
            while next < unsafeStarts.count && unsafeStarts[next] < u { next += 1 }
            guard next < unsafeStarts.count else { break }
            guard unsafeStarts[next] == u, u < units.count, !known.contains(u),
                  let run = runs.last(where: { Int($0.start) <= u }), Int(run.start) < u, Int(run.end) > u,
                  run.bidiLevel & 1 == 0 else { continue }
            let runEnd = Int(run.end)
            var c1 = u + 1
            while c1 < runEnd && !isClusterStart(c1) { c1 += 1 }
            // The stretch reaches the next cluster start HarfBuzz flags safe (or the run's end).
            var safe = c1
            var j = next + 1
            while safe < runEnd {
                while j < unsafeStarts.count && unsafeStarts[j] < safe { j += 1 }
                guard j < unsafeStarts.count && unsafeStarts[j] == safe else { break }
                safe += 1
                while safe < runEnd && !isClusterStart(safe) { safe += 1 }
            }
            // With the run's font, which covers the stretch (it was shaped with it in context):
            // choosing a font afresh (`shapedAfresh`) costs ~20 k instructions a stretch here.
            let font = run.font
            let designUnits = ClusterSplit.width(units, u..<safe, font: font, rightToLeft: false, language: language, buffer: buffer)
            let width = clamp(font.fixedAdvance(designUnits, scale: font.fixedScale(size: style.size), size: style.size))
            var inContext: Int64 = 0, first: Int64 = 0
            for k in u..<safe { inContext += Int64(unitAdvances[k]) }
            for k in u..<c1 { first += Int64(unitAdvances[k]) }
            let delta = Int64(width) - inContext
            guard delta != 0 else { continue }
            // Keep `alone` ordered by (from, to).
            var p = alone.count
            while p >= 3 && (alone[p - 3] > Int32(u) || (alone[p - 3] == Int32(u) && alone[p - 2] > Int32(c1))) { p -= 3 }
            alone.insert(contentsOf: [Int32(u), Int32(c1), clamp(first + delta)], at: p)
            found.append(u)
        }
        if !found.isEmpty { recordsBeyondRuns = true }
        return found
    }
}
