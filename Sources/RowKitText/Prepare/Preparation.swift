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
        // This thread's reused arrays are worked on in place; a nested preparation on this
        // thread (while they are in use) makes its own.
        if scratch.workspaceInUse {
            var own = PrepareScratch.Workspace(words: WordCache.empty)
            defer { own.chunked.deallocate() }
            return try withUnsafeMutablePointer(to: &own) { (workspace) throws(TextError) -> R in
                try prepare(units, levels: levels, paragraphLevel: paragraphLevel, droppedControls: droppedControls, context: context,
                            scratch: scratch, workspace: workspace, fonts: fonts, cache: cache, keepRuns: keepRuns,
                            wholeParagraph: wholeParagraph, finish)
            }
        }
        scratch.workspaceInUse = true
        defer { scratch.workspaceInUse = false }
        return try prepare(units, levels: levels, paragraphLevel: paragraphLevel, droppedControls: droppedControls, context: context,
                           scratch: scratch, workspace: scratch.workspace, fonts: fonts, cache: cache, keepRuns: keepRuns,
                           wholeParagraph: wholeParagraph, finish)
    }

    /// The rest of ``prepare(_:style:fonts:cache:keepRuns:wholeParagraph:_:)``: the analysis of
    /// the normalized `units` with the arrays of `workspace`.
    private static func prepare<R>(_ units: [UInt16], levels: [UInt8]?, paragraphLevel: UInt8, droppedControls: [Int],
                                   context: PrepareScratch.Context, scratch: PrepareScratch,
                                   workspace: UnsafeMutablePointer<PrepareScratch.Workspace>, fonts: FontLibrary, cache: ShapeCache,
                                   keepRuns: Bool, wholeParagraph: Bool,
                                   _ finish: (Analysed, MetricsBlock.Input, inout MetricsBlock.Planner) -> R) throws(TextError) -> R {
        // Each part through a pointer of its own: the builder's input is handed to `finish`
        // together with the planner, two parts of the workspace in use at once.
        let offsets = PrepareScratch.Workspace.offsets
        func part<T>(_ offset: Int, _: T.Type) -> UnsafeMutablePointer<T> {
            (UnsafeMutableRawPointer(workspace) + offset).assumingMemoryBound(to: T.self)
        }
        let words = part(offsets.words, WordCache.self), chunked = part(offsets.chunked, ChunkedBuilder.self)
        let planner = part(offsets.planner, MetricsBlock.Planner.self), builder = part(offsets.builder, Builder?.self)
        if builder.pointee == nil { builder.pointee = Builder(context.resolved, fonts: fonts, cache: cache, fallback: context.fallback) }
        builder.pointee!.reset(context)
        return try units.withUnsafeBufferPointer { (u) throws(TextError) -> R in
            func withLevels<T>(_ body: (UnsafeBufferPointer<UInt8>?) throws(TextError) -> T) throws(TextError) -> T {
                guard let levels else { return try body(nil) }
                return try levels.withUnsafeBufferPointer { (l) throws(TextError) in try body(l) }
            }
            let whole = try withLevels { (l) throws(TextError) -> Bool in
                if !wholeParagraph, droppedControls.isEmpty, try chunked.pointee.build(u, levels: l, context: context, words: &words.pointee, builder: &builder.pointee!,
                                                       buffer: scratch.buffer, keepRuns: keepRuns) { return false }
                builder.pointee!.resetFallback(context.fallback)
                builder.pointee!.fallback.itemBoundaries = droppedControls
                try builder.pointee!.analyse(u, levels: l, buffer: scratch.buffer)
                return true
            }
            if whole {
                let analysed = Analysed(resolved: context.resolved, units: units, paragraphLevel: paragraphLevel, runs: keepRuns ? builder.pointee!.runs : [])
                return try withLevels { (l) in builder.pointee!.withInput(u, context.resolved, levels: l) { finish(analysed, $0, &planner.pointee) } }
            }
            var runs: [GlyphRun] = []
            if keepRuns {
                runs.reserveCapacity(chunked.pointee.runs.count)
                for (k, run) in chunked.pointee.runs.elements.enumerated() {
                    runs.append(GlyphRun(font: run.font.takeUnretainedValue(), start: run.start, end: run.end,
                                         bidiLevel: run.level, shaped: chunked.pointee.shaped[k]))
                }
            }
            let analysed = Analysed(resolved: context.resolved, units: units, paragraphLevel: paragraphLevel, runs: runs)
            return try withLevels { (l) in chunked.pointee.withInputInPlace(u, context.resolved, levels: l) { finish(analysed, $0, &planner.pointee) } }
        }
    }
}
