/// Preparing a text: the steps ``PreparedText`` and ``TextMetrics`` share.
enum Preparation {
    /// A paragraph analysed, ready to be written into a measuring form.
    struct Analysed {
        let resolved: ResolvedStyle
        let units: [UInt16]
        let paragraphLevel: UInt8
        /// The glyph runs (only when asked to keep them).
        let runs: [GlyphRun]
    }

    /// Normalizes and analyses `text` — chunk by chunk through this thread's word cache when
    /// possible, else whole — and hands the result, as the writer's input with this thread's
    /// planner, to `finish`. Throws for a style with bad numbers, an unreadable font file or a
    /// text longer than ``PreparedText/maximumLength``. `wholeParagraph` skips the word cache
    /// (the reference the tests compare the chunked analysis with).
    static func prepare<R>(_ text: String, style: TextStyle, fonts: FontLibrary, cache: ShapeCache, keepRuns: Bool,
                           wholeParagraph: Bool = false, _ finish: (Analysed, MetricsBlock.Input, inout MetricsBlock.Planner) -> R) throws(TextError) -> R {
        let scratch = PrepareScratch.current
        let context = try scratch.context(style, fonts: fonts, cache: cache)
        // UTF-16 never has more units than UTF-8 has bytes, and the UTF-8 count is O(1) (the
        // UTF-16 count of non-ASCII text walks it).
        if text.utf8.count > PreparedText.maximumLength, text.utf16.count > PreparedText.maximumLength {
            throw .textTooLong(length: text.utf16.count)
        }
        let units = style.whiteSpace.normalize(text)
        let droppedControls = style.whiteSpace.droppedControlOffsets(text)
        let (levels, paragraphLevel) = units.isEmpty ? (nil, 0) : try units.withUnsafeBufferPointer { (u) throws(TextError) in
            try UnicodeAnalysis.bidiLevels(u, direction: style.direction)
        }
        // The reused arrays are moved out of the scratch while in use (a nested preparation on
        // this thread would find none, not half-built ones, and make its own); `swap` moves them
        // without copying (a copy of the builder alone retains and releases ~30 references).
        var chunked: ChunkedBuilder? = nil
        swap(&chunked, &scratch.chunked)
        if chunked == nil { chunked = ChunkedBuilder() }
        defer {
            swap(&chunked, &scratch.chunked)
            chunked?.deallocate()  // one a nested preparation left there
        }
        var planner: MetricsBlock.Planner? = nil
        swap(&planner, &scratch.planner)
        if planner == nil { planner = MetricsBlock.Planner() }
        defer { swap(&planner, &scratch.planner) }
        var words: WordCache? = nil
        swap(&words, &scratch.words)
        if words == nil { words = WordCache.empty }
        defer { swap(&words, &scratch.words) }
        var builder: Builder? = nil
        swap(&builder, &scratch.builder)
        if builder == nil { builder = Builder(context.resolved, fonts: fonts, cache: cache, fallback: context.fallback) }
        builder!.reset(context)
        defer { swap(&builder, &scratch.builder) }
        return try units.withUnsafeBufferPointer { (u) throws(TextError) -> R in
            func withLevels<T>(_ body: (UnsafeBufferPointer<UInt8>?) throws(TextError) -> T) throws(TextError) -> T {
                guard let levels else { return try body(nil) }
                return try levels.withUnsafeBufferPointer { (l) throws(TextError) in try body(l) }
            }
            let whole = try withLevels { (l) throws(TextError) -> Bool in
                if !wholeParagraph, droppedControls.isEmpty, try chunked!.build(u, levels: l, context: context, words: &words!, builder: &builder!,
                                                       buffer: scratch.buffer, keepRuns: keepRuns) { return false }
                builder!.resetFallback(context.fallback)
                builder!.fallback.itemBoundaries = droppedControls
                try builder!.analyse(u, levels: l, buffer: scratch.buffer)
                return true
            }
            if whole {
                let analysed = Analysed(resolved: context.resolved, units: units, paragraphLevel: paragraphLevel, runs: keepRuns ? builder!.runs : [])
                return try withLevels { (l) in builder!.withInput(u, context.resolved, levels: l) { finish(analysed, $0, &planner!) } }
            }
            var runs: [GlyphRun] = []
            if keepRuns {
                runs.reserveCapacity(chunked!.runs.count)
                for (k, run) in chunked!.runs.elements.enumerated() {
                    runs.append(GlyphRun(font: run.font.takeUnretainedValue(), start: run.start, end: run.end,
                                         bidiLevel: run.level, shaped: chunked!.shaped[k]))
                }
            }
            let analysed = Analysed(resolved: context.resolved, units: units, paragraphLevel: paragraphLevel, runs: runs)
            return try withLevels { (l) in chunked!.withInput(u, context.resolved, levels: l) { finish(analysed, $0, &planner!) } }
        }
    }
}
