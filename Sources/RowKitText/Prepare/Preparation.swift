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
        guard text.utf16.count <= PreparedText.maximumLength else { throw .textTooLong(length: text.utf16.count) }
        let units = style.whiteSpace.normalize(text)
        let (levels, paragraphLevel) = units.isEmpty ? (nil, 0) : try units.withUnsafeBufferPointer { (u) throws(TextError) in
            try UnicodeAnalysis.bidiLevels(u, direction: style.direction)
        }
        // The reused arrays are taken out of the scratch while in use (a nested preparation on
        // this thread would find empty ones, not half-built ones).
        var chunked = scratch.chunked
        scratch.chunked = ChunkedBuilder()
        defer {
            scratch.chunked.deallocate()
            scratch.chunked = chunked
        }
        var planner = scratch.planner
        scratch.planner = MetricsBlock.Planner()
        defer { scratch.planner = planner }
        var words = scratch.words
        scratch.words = WordCache.empty
        defer { scratch.words = words }
        var builder = (scratch.builder ?? Builder(context.resolved, fonts: fonts, cache: cache, fallback: context.fallback)).reset(context)
        scratch.builder = nil
        defer { scratch.builder = builder }
        return try units.withUnsafeBufferPointer { (u) throws(TextError) -> R in
            func withLevels<T>(_ body: (UnsafeBufferPointer<UInt8>?) throws(TextError) -> T) throws(TextError) -> T {
                guard let levels else { return try body(nil) }
                return try levels.withUnsafeBufferPointer { (l) throws(TextError) in try body(l) }
            }
            let whole = try withLevels { (l) throws(TextError) -> Builder? in
                if !wholeParagraph, try chunked.build(u, levels: l, context: context, words: &words, builder: &builder,
                                                      buffer: scratch.buffer, keepRuns: keepRuns) { return nil }
                builder.resetFallback(context.fallback)
                try builder.analyse(u, levels: l, buffer: scratch.buffer)
                return builder
            }
            if let whole {
                let analysed = Analysed(resolved: context.resolved, units: units, paragraphLevel: paragraphLevel, runs: keepRuns ? whole.runs : [])
                return whole.withInput(u, context.resolved) { finish(analysed, $0, &planner) }
            }
            var runs: [GlyphRun] = []
            if keepRuns {
                runs.reserveCapacity(chunked.runs.count)
                for (k, run) in chunked.runs.elements.enumerated() {
                    runs.append(GlyphRun(font: run.font.takeUnretainedValue(), start: run.start, end: run.end,
                                         bidiLevel: run.level, shaped: chunked.shaped[k]))
                }
            }
            let analysed = Analysed(resolved: context.resolved, units: units, paragraphLevel: paragraphLevel, runs: runs)
            return chunked.withInput(u, context.resolved) { finish(analysed, $0, &planner) }
        }
    }
}
