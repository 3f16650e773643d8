import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Everything preparing keeps per thread: the styles met so far (resolved once: primary font,
/// line metrics, a fallback chooser ready to copy), the word cache, a HarfBuzz buffer and
/// arrays reused from one paragraph to the next. Per thread, so none of it takes a lock.
package final class PrepareScratch {
    /// A style as met through one font library and shape cache. A class: every text prepared
    /// takes one, and a struct of a dozen references would be retained and released field by
    /// field each time.
    final class Context {
        let id: Int32
        /// The word cache's key for the style: shared by the contexts (same font library and
        /// shape cache) whose styles differ only in what analysing a chunk never reads —
        /// colour, line height, alignment — so that a list's texts in one font and size but
        /// several colours share their words (``sharesAnalysis(_:_:)``).
        let analysisID: Int32
        let fonts: FontLibrary
        let cache: ShapeCache
        let style: TextStyle
        let resolved: ResolvedStyle
        /// A fallback chooser in its initial state (its setup probes the primary font).
        let fallback: FontFallback
        /// The content language HarfBuzz shapes with.
        let language: ShapingLanguage
        /// The shape cache's generation the word cache's entries for this context date from.
        var generation: UInt64

        /// Whether this context is `style`'s through `fonts` and `cache`. A method, so that the
        /// stored style is compared in place: read from outside (`contexts[k].style == style`) it
        /// was copied, its strings retained and released, twice a text.
        @inline(__always)
        func matches(_ style: borrowing TextStyle, fonts: FontLibrary, cache: ShapeCache) -> Bool {
            self.fonts === fonts && self.cache === cache && self.style == style
        }

        init(id: Int32, analysisID: Int32, fonts: FontLibrary, cache: ShapeCache, style: TextStyle, resolved: ResolvedStyle,
             fallback: FontFallback, language: ShapingLanguage, generation: UInt64) {
            self.id = id
            self.analysisID = analysisID
            self.fonts = fonts
            self.cache = cache
            self.style = style
            self.resolved = resolved
            self.fallback = fallback
            self.language = language
            self.generation = generation
        }
    }

    /// Styles remembered per thread; meeting more empties the word cache and starts over.
    static let contextCapacity = 64

    private(set) var contexts: [Context] = []
    private var nextContextID: Int32 = 0
    /// What a preparation works on, reused from one text to the next.
    struct Workspace {
        /// The word cache.
        var words = WordCache()
        /// A builder for chunks the word cache lacks, its arrays reused (its style is replaced).
        var builder: Builder?
        /// The chunked builder's arrays.
        var chunked = ChunkedBuilder()
        /// The measuring-form writer's arrays.
        var planner = MetricsBlock.Planner()

        /// Where each part lies, in bytes from the start (found once).
        static let offsets = (words: MemoryLayout<Workspace>.offset(of: \.words)!, builder: MemoryLayout<Workspace>.offset(of: \.builder)!,
                              chunked: MemoryLayout<Workspace>.offset(of: \.chunked)!, planner: MemoryLayout<Workspace>.offset(of: \.planner)!)
    }

    /// This thread's workspace, in memory of its own so that a preparation works on it in
    /// place: moving four large structs out of the scratch and back (`swap`s of optionals, so
    /// that a nested preparation would find none) cost ~30 `memcpy` calls a text.
    let workspace: UnsafeMutablePointer<Workspace> = {
        let p = UnsafeMutablePointer<Workspace>.allocate(capacity: 1)
        p.initialize(to: Workspace())
        return p
    }()
    /// A preparation on this thread is using ``workspace`` (a nested one makes its own).
    var workspaceInUse = false
    /// Measuring forms written one after another for packing (``TextMetrics/withBlocks(_:)``),
    /// kept from row to row; nil while a packing on this thread has them.
    var blocks: RawBuffer<UInt64>? = RawBuffer()
    /// The word cache, nil while a preparation on this thread uses it.
    var words: WordCache? { workspaceInUse ? nil : workspace.pointee.words }
    let buffer: HBBuffer = HarfBuzz.createBuffer()
    /// Widths of short texts shaped alone (``ClusterSplit``'s graphemes of clusters).
    let shapedWidths = ShapedWidthMemo()

    /// Threads that have made their scratch (and so their word cache), ever and still running:
    /// a list's cold pass prepares on whichever pool threads take its pieces, and each keeps
    /// its own word cache (for the benchmark's memory report).
    package static let threadsMade = Atomic<Int>(0), threadsLive = Atomic<Int>(0)

    init() {
        PrepareScratch.threadsMade.add(1, ordering: .relaxed)
        PrepareScratch.threadsLive.add(1, ordering: .relaxed)
    }

    deinit {
        PrepareScratch.threadsLive.subtract(1, ordering: .relaxed)
        HarfBuzz.destroy(buffer: buffer)
        workspace.pointee.chunked.deallocate()
        workspace.deinitialize(count: 1)
        workspace.deallocate()
    }

    /// Empties the word cache unless a preparation on this thread is using it.
    private func removeAllWords() {
        if !workspaceInUse { workspace.pointee.words.removeAll() }
    }

    /// The context for `style` through `fonts` and `cache`, resolving it the first time (which
    /// checks its numbers and finds its font).
    func context(_ style: TextStyle, fonts: FontLibrary, cache: ShapeCache) throws(TextError) -> Context {
        let generation = cache.generation
        for context in contexts where context.matches(style, fonts: fonts, cache: cache) {
            if context.generation != generation { forget(cache, generation: generation) }
            return context
        }
        let resolved = try ResolvedStyle(style, fonts: fonts)
        if contexts.count >= Self.contextCapacity {
            contexts.removeAll()
            removeAllWords()
        }
        if contexts.contains(where: { $0.cache === cache && $0.generation != generation }) { forget(cache, generation: generation) }
        let analysisID = contexts.first {
            $0.fonts === fonts && $0.cache === cache && $0.resolved.primary === resolved.primary && Self.sharesAnalysis($0.style, style)
        }?.analysisID ?? nextContextID
        let context = Context(id: nextContextID, analysisID: analysisID, fonts: fonts, cache: cache, style: style, resolved: resolved,
                              fallback: FontFallback(style: style, primary: resolved.primary, fonts: fonts),
                              language: ShapingLanguage(style.lang), generation: generation)
        nextContextID &+= 1
        contexts.append(context)
        return context
    }

    /// Whether chunks analysed in style `a` are analysed the same in style `b`: the styles are
    /// equal but for colour, line height and alignment, which only matter to the measuring
    /// form's header and to drawing (the chunk's bidi levels are in the word cache's key
    /// besides). Written as "equal after copying those three over" so that a field added to
    /// `TextStyle` later is not shared unless it is named here.
    static func sharesAnalysis(_ a: TextStyle, _ b: TextStyle) -> Bool {
        var a = a
        a.color = b.color
        a.lineHeight = b.lineHeight
        a.alignment = b.alignment
        return a == b
    }

    /// The shape cache was emptied: forget every word prepared through anything (simplest, and
    /// what a benchmark that empties the cache expects: the next texts start cold).
    private func forget(_ cache: ShapeCache, generation: UInt64) {
        removeAllWords()
        for k in contexts.indices where contexts[k].cache === cache { contexts[k].generation = generation }
    }

    /// This thread's word cache: entries held, lookups that found their chunk or not,
    /// generation rotations, the entries a generation takes and heap bytes.
    package static var wordCacheStatistics: (entries: Int, hits: Int, misses: Int, rotations: Int, capacity: Int, bytes: Int) {
        guard let words = current.words else { return (0, 0, 0, 0, 0, 0) }
        return (words.count, words.hits, words.misses, words.rotations, words.young.entryLimit, words.byteCount)
    }

    /// Benchmarks only: word-cache generations made from now on hold `entries`
    /// instead of ``WordCache/capacity``; this thread's cache starts over at that size.
    package static func overrideWordCacheCapacity(_ entries: Int) {
        precondition(entries > 0, "a word-cache generation holds at least one entry")
        WordCache.capacityOverride.store(entries, ordering: .relaxed)
        current.removeAllWords()
    }

    /// Benchmarks only: word caches made from now on keep `count` generations (2…4) instead of
    /// ``WordCache/defaultGenerations``; this thread's cache starts over with them.
    package static func overrideWordCacheGenerations(_ count: Int) {
        precondition((2...4).contains(count), "word-cache generations must be 2, 3 or 4")
        WordCache.generationsOverride.store(count, ordering: .relaxed)
        let scratch = current
        if !scratch.workspaceInUse { scratch.workspace.pointee.words = WordCache() }
    }

    /// Tests only: this thread forgets the styles it met and its word cache, so that a test
    /// counting word-cache entries starts from nothing whatever ran on the thread before it (a
    /// thread meeting its 65th style empties its word cache, which could otherwise land mid-test).
    package static func startOverOnThisThread() {
        let scratch = current
        scratch.contexts.removeAll()
        scratch.removeAllWords()
    }

    /// This thread's scratch space.
    static var current: PrepareScratch {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<PrepareScratch>.fromOpaque(pointer).takeUnretainedValue()
        }
        let scratch = PrepareScratch()
        pthread_setspecific(key, Unmanaged.passRetained(scratch).toOpaque())
        return scratch
    }

    /// The thread-local slot; a thread's scratch is released when the thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            Unmanaged<PrepareScratch>.fromOpaque(pointer!).release()
        }
        return key
    }()
}
