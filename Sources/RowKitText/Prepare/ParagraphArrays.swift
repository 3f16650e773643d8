/// What both builders produce for a paragraph (``Builder``: whole paragraphs, ``ChunkedBuilder``:
/// chunk by chunk through the word cache), turned into the measuring form's writer input here.
protocol ParagraphArrays {
    /// Runs `body` on the paragraph's arrays.
    func withArrays<R>(_ body: (ParagraphView) -> R) -> R
    /// Number of glyph runs, and run `k`'s range and font.
    var runCount: Int { get }
    func runFont(_ k: Int) -> (start: Int32, end: Int32, font: Font)
    /// CJK punctuation a line start shapes again, with its font there (``LineStartReshape``),
    /// and closing marks a trimmed line end shapes again (unit flagged `LineEndReshape.unitFlag`).
    var reshapedFonts: [(unit: Int32, font: Font)] { get }
    /// False when the paragraph has no unit of a dictionary-segmented script (the builder
    /// looked; true when it did not).
    var mayHoldDictionaryScript: Bool { get }
}

/// A paragraph's arrays, read in place.
struct ParagraphView {
    var unitAdvances: UnsafeBufferPointer<Int32>
    var graphemeStartBits: UnsafeBufferPointer<UInt64>
    var segmentEnds: UnsafeBufferPointer<Int32>
    var contentEnds: UnsafeBufferPointer<Int32>
    var widths: UnsafeBufferPointer<Int32>
    var spaceWidths: UnsafeBufferPointer<Int32>
    var flags: UnsafeBufferPointer<UInt8>
    var endTrimSegments: UnsafeBufferPointer<Int32>
    var endTrimAmounts: UnsafeBufferPointer<Int32>
    var clusterInnerBits: UnsafeBufferPointer<UInt64>
    var kerns: UnsafeBufferPointer<Int32>
    var alone: UnsafeBufferPointer<Int32>
}

extension Builder: ParagraphArrays {
    var runCount: Int { runs.count }
    var mayHoldDictionaryScript: Bool { true }
    func runFont(_ k: Int) -> (start: Int32, end: Int32, font: Font) { (runs[k].start, runs[k].end, runs[k].font) }

    func withArrays<R>(_ body: (ParagraphView) -> R) -> R {
        unitAdvances.withUnsafeBufferPointer { unitAdvances in
            graphemeStartBits.withUnsafeBufferPointer { graphemeStartBits in
                segmentEnds.withUnsafeBufferPointer { segmentEnds in
                    contentEnds.withUnsafeBufferPointer { contentEnds in
                        widths.withUnsafeBufferPointer { widths in
                            spaceWidths.withUnsafeBufferPointer { spaceWidths in
                                flags.withUnsafeBufferPointer { flags in
                                    endTrimSegments.withUnsafeBufferPointer { endTrimSegments in
                                        endTrimAmounts.withUnsafeBufferPointer { endTrimAmounts in
                                            clusterInnerBits.withUnsafeBufferPointer { clusterInnerBits in
                                                kerns.withUnsafeBufferPointer { kerns in
                                                    alone.withUnsafeBufferPointer { alone in
                                                        body(ParagraphView(unitAdvances: unitAdvances, graphemeStartBits: graphemeStartBits,
                                                                           segmentEnds: segmentEnds, contentEnds: contentEnds, widths: widths,
                                                                           spaceWidths: spaceWidths, flags: flags, endTrimSegments: endTrimSegments,
                                                                           endTrimAmounts: endTrimAmounts, clusterInnerBits: clusterInnerBits,
                                                                           kerns: kerns, alone: alone))
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

extension ChunkedBuilder: ParagraphArrays {
    var runCount: Int { runs.count }
    func runFont(_ k: Int) -> (start: Int32, end: Int32, font: Font) { (runs[k].start, runs[k].end, runs[k].font.takeUnretainedValue()) }

    func withArrays<R>(_ body: (ParagraphView) -> R) -> R {
        kerns.withUnsafeBufferPointer { kerns in
            alone.withUnsafeBufferPointer { alone in
                body(ParagraphView(unitAdvances: unitAdvances.elements, graphemeStartBits: graphemeStartBits.elements,
                                   segmentEnds: segmentEnds.elements, contentEnds: contentEnds.elements, widths: widths.elements,
                                   spaceWidths: spaceWidths.elements, flags: flags.elements, endTrimSegments: endTrimSegments.elements,
                                   endTrimAmounts: endTrimAmounts.elements, clusterInnerBits: clusterInnerBits.elements,
                                   kerns: kerns, alone: alone))
            }
        }
    }
}

extension ParagraphArrays {
    /// The analysed paragraph as the measuring form's writer reads it.
    /// `levels`: the paragraph's bidi levels (nil: all 0), whose runs are rounded apart
    /// (`BidiItemRounding`).
    func withInput<R>(_ units: UnsafeBufferPointer<UInt16>, _ resolved: ResolvedStyle, levels: UnsafeBufferPointer<UInt8>? = nil,
                      _ body: (MetricsBlock.Input) -> R) -> R {
        let (classMetrics, classRuns) = fontClasses(unitCount: units.count, resolved)
        return withArrays { unpadded in
            let runs = levels.map { BidiItemRounding.runs(levels: $0, units: units, advances: unpadded.unitAdvances,
                                                               collapsible: resolved.style.whiteSpace == .normal) } ?? []
            if runs.isEmpty { return Self.input(units, resolved, unpadded, UnsafeBufferPointer(start: nil, count: 0), classMetrics, classRuns, mayHoldDictionaryScript, body) }
            let flat = BidiItemRounding.records(runs, segmentEnds: unpadded.segmentEnds, contentEnds: unpadded.contentEnds,
                                                advances: unpadded.unitAdvances)
            return flat.withUnsafeBufferPointer { flat in
                BidiItemRounding.withPads(runs, unpadded) { Self.input(units, resolved, $0, flat, classMetrics, classRuns, mayHoldDictionaryScript, body) }
            }
        }
    }

    /// The writer input of the arrays `v`.
    static func input<R>(_ units: UnsafeBufferPointer<UInt16>, _ resolved: ResolvedStyle, _ v: ParagraphView, _ bidiRuns: UnsafeBufferPointer<Int32>,
                         _ classMetrics: [(above: Double, below: Double)], _ classRuns: [(start: Int32, cls: Int32)],
                         _ mayHoldDictionaryScript: Bool, _ body: (MetricsBlock.Input) -> R) -> R {
        var singleLine: Int64 = 0
        if v.flags.contains(where: { $0 & (MetricsBlock.Flag.mandatoryBreak | MetricsBlock.Flag.tab) != 0 })
            || v.flags.last.map({ $0 & MetricsBlock.Flag.softHyphen != 0 }) == true {
            // A soft hyphen ending the text must fit with its hyphen: no one-line shortcut.
            singleLine = .max
        } else if !v.widths.isEmpty {
            for i in v.widths.indices { singleLine += Int64(v.widths[i]) + Int64(v.spaceWidths[i]) }
            singleLine -= Int64(v.spaceWidths[v.widths.count - 1])
        }
        return body(MetricsBlock.Input(
            units: units, unitAdvances: v.unitAdvances, graphemeStartBits: v.graphemeStartBits,
            clusterInnerBits: v.clusterInnerBits, kerns: v.kerns, alone: v.alone, bidiRuns: bidiRuns, language: resolved.style.lang,
            segmentEnds: v.segmentEnds, contentEnds: v.contentEnds, widths: v.widths,
            spaceWidths: v.spaceWidths, flags: v.flags, endTrimSegments: v.endTrimSegments,
            endTrimAmounts: v.endTrimAmounts, classMetrics: classMetrics, classRuns: classRuns,
            lineHeight: resolved.lineHeight, hyphenWidth: resolved.hyphenWidth,
            ellipsisWidth: resolved.ellipsisWidth, spaceWidth: resolved.spaceWidth,
            singleLineWidth: singleLine, mayHoldDictionaryScript: mayHoldDictionaryScript))
    }

    /// With `line-height: normal` and a fallback font that needs more room than the primary
    /// font: each such font's room (class 1…; class 0 is the primary font) and where along the
    /// text the class changes. Empty otherwise: every line is then `lineHeight` tall.
    func fontClasses(unitCount: Int, _ resolved: ResolvedStyle) -> (metrics: [(above: Double, below: Double)], runs: [(start: Int32, cls: Int32)]) {
        guard resolved.style.lineHeight == .normal, runCount > 0 else { return ([], []) }
        let primary = resolved.primary
        // Nearly every text is in its primary font alone: no arrays to build.
        var fallback = false
        for k in 0..<runCount where runFont(k).font !== primary { fallback = true; break }
        guard fallback else { return ([], []) }
        let p = resolved.normalMetrics
        var metrics: [(above: Double, below: Double)] = [p]
        var fontsSeen: [(font: Font, cls: Int32)] = []
        var classRuns: [(start: Int32, cls: Int32)] = []
        func add(_ start: Int32, _ cls: Int32) {
            if let last = classRuns.last {
                if last.cls == cls { return }
                if last.start == start { classRuns[classRuns.count - 1].cls = cls; return }
            }
            classRuns.append((start, cls))
        }
        // A font's class: 0 when it fits in the primary font's room, else the class of its room.
        func fontClass(_ font: Font) -> Int32 {
            guard font !== primary else { return 0 }
            let m = font.normalLineMetrics(size: resolved.style.size)
            guard m.above > p.above || m.below > p.below else { return 0 }
            if let k = metrics.firstIndex(where: { $0.above == m.above && $0.below == m.below }) { return Int32(k) }
            metrics.append(m)
            return Int32(metrics.count - 1)
        }
        var position: Int32 = 0
        for k in 0..<runCount {
            let run = runFont(k)
            var cls: Int32 = 0
            if run.font !== primary {
                if let seen = fontsSeen.first(where: { $0.font === run.font }) {
                    cls = seen.cls
                } else {
                    cls = fontClass(run.font)
                    fontsSeen.append((run.font, cls))
                }
            }
            if run.start > position { add(position, 0) }
            add(run.start, cls)
            position = run.end
        }
        if Int(position) < unitCount { add(position, 0) }
        // Marks reshaped at a line start: conditional runs, for a line starting there only;
        // closing marks reshaped at a trimmed line end: for a line trimmed there only.
        var conditional: [(start: Int32, cls: Int32)] = []
        for r in reshapedFonts {
            if r.unit & LineEndReshape.unitFlag != 0 {
                conditional.append((r.unit & ~LineEndReshape.unitFlag, fontClass(r.font) | MetricsBlock.conditionalClass | MetricsBlock.lineEndClass))
            } else {
                conditional.append((r.unit, fontClass(r.font) | MetricsBlock.conditionalClass))
            }
        }
        // Each builder records the line starts, then the line ends (and the chunked one per chunk).
        conditional.sort { $0.start != $1.start ? $0.start < $1.start : $0.cls < $1.cls }
        guard metrics.count > 1 else { return ([], []) }
        if classRuns.first?.start != 0 { classRuns.insert((0, 0), at: 0) }
        if !conditional.isEmpty {
            // After the regular run starting at the same unit, if any.
            var merged: [(start: Int32, cls: Int32)] = []
            var k = 0
            for run in classRuns {
                while k < conditional.count && conditional[k].start < run.start { merged.append(conditional[k]); k += 1 }
                merged.append(run)
            }
            merged.append(contentsOf: conditional[k...])
            classRuns = merged
        }
        return (metrics, classRuns)
    }
}
