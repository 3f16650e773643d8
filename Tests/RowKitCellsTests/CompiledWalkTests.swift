import Testing
import RowKitText
@testable import RowKitCells

// The compiled-step walk (Layout/CompiledLayout.swift, `measure`), with its shortcuts — text
// children sized in place by their parent, backgrounds skipped without a call, the
// side-by-side test shared with the arranger, fields read in place. Its sizes — width and
// height, not only the height a list keeps — must equal, bit for bit, both a plain recursive
// walk over the same steps (`RecursiveStepWalk`, the model any faster walk must match, asked
// for the same text measurements in the same order: a flat walk of wrapper chains was tried
// against it, see DESIGN.md "cells: flat step walk") and the reference model over the layout
// tree (`ReferenceMeasure`, every text laid out by `PreparedText.layout`).

/// The plain recursive walk over compiled steps — every step a call, every field copied — kept
/// as the model the production walk and any rewrite of it must equal.
enum RecursiveStepWalk {
    typealias Step = CompiledLayout.Step

    static func measure<Texts: TextSizing>(_ i: Int, width: Double, steps: UnsafePointer<Step>, texts: Texts) -> Size {
        var i = i
        while steps[i].kind == .background { i += 1 }
        let step = steps[i]
        switch step.kind {
        case .text:
            return texts.size(ofText: Int(step.payload), maxLines: Int(step.v0), width: width)
        case .box:
            return Size(width: step.v0, height: step.v1)
        case .stack:
            let end = Int(step.end)
            guard end > i + 1 else { return .zero }
            var count = 0
            var c = i + 1
            while c < end { count += 1; c = Int(steps[c].end) }
            let gaps = step.v0 * Double(count - 1)
            if step.flags & Step.horizontal == 0 {
                var size = Size(width: 0, height: gaps)
                c = i + 1
                while c < end {
                    let s = measure(c, width: width, steps: steps, texts: texts)
                    size.width = max(size.width, s.width)
                    size.height += s.height
                    c = Int(steps[c].end)
                }
                return size
            }
            let flexible = min(max(0, step.flags & Step.hasFlexible != 0 ? Int(step.payload) : count - 1), count - 1)
            var used = gaps, height = 0.0
            var flexibleStep = 0
            c = i + 1
            var k = 0
            while c < end {
                if k == flexible {
                    flexibleStep = c
                } else {
                    let s = measure(c, width: max(0, width - used), steps: steps, texts: texts)
                    used += s.width
                    height = max(height, s.height)
                }
                k += 1
                c = Int(steps[c].end)
            }
            let remaining = max(0, width - used)
            let s = measure(flexibleStep, width: remaining, steps: steps, texts: texts)
            return Size(width: used + (width.isFinite ? remaining : s.width), height: max(height, s.height))
        case .inset:
            let horizontal = step.v1 + step.v3, vertical = step.v0 + step.v2
            let inner = measure(i + 1, width: max(0, width - horizontal), steps: steps, texts: texts)
            return Size(width: inner.width + horizontal, height: inner.height + vertical)
        case .sized:
            let f = step.flags
            let fixed = CompiledLayout.fixedWidth(step.v0, available: width)
            let inner = measure(i + 1, width: f & Step.hasWidth != 0 ? fixed : width, steps: steps, texts: texts)
            var size = Size(width: f & Step.hasWidth != 0 ? fixed : inner.width, height: f & Step.hasHeight != 0 ? step.v1 : inner.height)
            if f & Step.hasMinWidth != 0, f & Step.hasWidth == 0 { size.width = max(size.width, step.v2) }
            if f & Step.hasMinHeight != 0, f & Step.hasHeight == 0 { size.height = max(size.height, step.v3) }
            return size
        case .sideBySide:
            let second = Int(steps[i + 1].end)
            let a = measure(i + 1, width: .infinity, steps: steps, texts: texts)
            let b = measure(second, width: .infinity, steps: steps, texts: texts)
            if a.width + step.v0 + b.width <= width {
                return Size(width: a.width + step.v0 + b.width, height: max(a.height, b.height))
            }
            let x = measure(i + 1, width: width, steps: steps, texts: texts)
            let y = measure(second, width: width, steps: steps, texts: texts)
            return Size(width: max(x.width, y.width), height: x.height + step.v1 + y.height)
        case .frames:
            var size = Size.zero
            var c = i + 1
            let end = Int(step.end)
            while c < end {
                let frame = steps[c]
                let frameWidth = CompiledLayout.framedWidth(frame, available: width)
                let height = frame.flags & Step.hasHeight != 0 ? frame.v3 : measure(c + 1, width: frameWidth, steps: steps, texts: texts).height
                size.width = max(size.width, frame.v0 + frameWidth)
                size.height = max(size.height, frame.v1 + height)
                c = Int(frame.end)
            }
            return size
        case .frame, .background:
            return measure(i + 1, width: width, steps: steps, texts: texts)
        }
    }
}

/// Made-up text sizes (no fonts: thousands of layouts in a moment) that behave as texts do — a
/// natural one-line width per slot, more lines as the width narrows, a line limit, `.zero` for
/// an empty slot — with fractional widths, and a log of every measurement asked.
final class SyntheticTexts: TextSizing {
    let natural: [Double], lineHeight: [Double]
    var log: [(slot: Int, maxLines: Int, width: UInt64)] = []

    init(slots: Int, _ rng: inout RandomRows.Seeded) {
        natural = (0..<slots).map { _ in Int.random(in: 0..<6, using: &rng) == 0 ? 0 : Double(Int.random(in: 1...20_000, using: &rng)) / 32 }
        lineHeight = (0..<slots).map { _ in Double(Int.random(in: 40...120, using: &rng)) / 4 }
    }

    func size(ofText slot: Int, maxLines: Int, width: Double) -> Size {
        log.append((slot, maxLines, width.bitPattern))
        let natural = natural[slot]
        guard natural > 0, !width.isNaN, width >= 0 else { return .zero }
        if natural <= width { return Size(width: natural, height: lineHeight[slot]) }
        var lines = Int((natural / max(width, 1)).rounded(.up))
        if maxLines > 0 { lines = min(lines, maxLines) }
        return Size(width: min(width, natural * 0.875), height: Double(lines) * lineHeight[slot])
    }
}

enum RandomWrapped {
    /// `layout` under a chain of 0…`maxDepth` random wrappers (insets, sizes, backgrounds),
    /// deeper than ``CompiledWalkTests/deepChain`` at times.
    static func wrap(_ layout: CellLayout, _ rng: inout RandomRows.Seeded, maxDepth: Int) -> CellLayout {
        var layout = layout
        func value(_ range: ClosedRange<Int>) -> Double { Double(Int.random(in: range, using: &rng)) + [0, 0.25, 0.5, 1.0 / 3][Int.random(in: 0..<4, using: &rng)] }
        for _ in 0..<Int.random(in: 0...maxDepth, using: &rng) {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                layout = .inset(Insets(top: value(0...12), left: value(0...25), bottom: value(0...12), right: value(0...25)), layout)
            case 1:
                func maybe(_ range: ClosedRange<Int>) -> Double? { Int.random(in: 0..<3, using: &rng) == 0 ? value(range) : nil }
                layout = .sized(SizeConstraint(width: maybe(30...400), height: maybe(10...90), minWidth: maybe(0...250),
                                               minHeight: maybe(0...120), verticalAlignment: .start), layout)
            default:
                layout = .background(Background(fill: .color(.white)), layout)
            }
        }
        return layout
    }

    /// Random layouts whose every node may sit under a wrapper chain.
    static func layout(_ rng: inout RandomRows.Seeded, depth: Int = 0) -> CellLayout {
        let inner: CellLayout
        if depth >= 2 || Int.random(in: 0..<3, using: &rng) == 0 {
            inner = RandomLayouts.layout(&rng, depth: 3)
        } else {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let children = (0..<Int.random(in: 1...3, using: &rng)).map { _ in layout(&rng, depth: depth + 1) }
                inner = .stack(StackElement(Bool.random(using: &rng) ? .vertical : .horizontal, spacing: Double(Int.random(in: 0...9, using: &rng)),
                                            alignment: .start, flexible: [nil, 0, 1].randomElement(using: &rng)!, children: children))
            case 1:
                inner = .sideBySide(SideBySideElement(first: layout(&rng, depth: depth + 1), second: layout(&rng, depth: depth + 1),
                                                      spacing: Double(Int.random(in: 0...20, using: &rng)), verticalSpacing: 3.5))
            default:
                inner = .frames([FramedElement(x: 4, y: 2, width: Double(Int.random(in: 40...300, using: &rng)), height: nil,
                                               child: layout(&rng, depth: depth + 1))])
            }
        }
        return wrap(inner, &rng, maxDepth: depth == 0 ? 12 : 4)
    }
}

@Suite struct CompiledWalkTests {
    /// A wrapper chain deeper than this is "deep": deeper than the fixed-size stack of widths
    /// a non-recursive walk of wrapper chains keeps (the flat walk tried kept 8).
    static let deepChain = 8

    /// Insets and sizes in the wrapper chain at the root (backgrounds do not count toward the
    /// chain's depth).
    static func topChainDepth(_ compiled: CompiledLayout) -> Int {
        var i = 0, depth = 0
        while i < compiled.steps.count, [.inset, .sized, .background].contains(compiled.steps[i].kind) {
            if compiled.steps[i].kind != .background { depth += 1 }
            i += 1
        }
        return depth
    }

    /// `compiled`'s size at `width` by the walk and by the plain recursive walk, over the
    /// same made-up texts: equal bit for bit, with the same text measurements in the same order.
    static func expectSameAsRecursiveWalk(_ compiled: CompiledLayout, width: Double, _ texts: SyntheticTexts,
                                          _ context: @autoclosure () -> String) {
        let steps = UnsafePointer(compiled.stepBuffer.baseAddress!)
        texts.log = []
        let walked = CompiledLayout.measure(0, width: width, steps: steps, texts: texts)
        let walkedLog = texts.log
        texts.log = []
        let expected = RecursiveStepWalk.measure(0, width: width, steps: steps, texts: texts)
        #expect(walked.width.bitPattern == expected.width.bitPattern && walked.height.bitPattern == expected.height.bitPattern,
                "at \(width): walk \(walked), recursive \(expected)\n\(context())")
        #expect(walkedLog.map { "\($0)" } == texts.log.map { "\($0)" }, "at \(width): different text measurements\n\(context())")
    }

    /// Thousands of random layouts — wrapper chains up to 12 deep around stacks (flexible
    /// children, out-of-range flexible indices), side-by-side pairs, frames, boxes and texts —
    /// at widths from 0 to infinity, including each side-by-side pair's one-line width and
    /// 1/64 px either side: the walk gives what the recursive walk gave, bit for bit.
    @Test func walkEqualsTheRecursiveWalk() {
        var rng = RandomRows.Seeded(state: 0xF1A7_0009)
        var deepChains = 0, sideBySides = 0
        for round in 0..<4000 {
            let layout = round % 2 == 0 ? RandomWrapped.layout(&rng) : RandomWrapped.wrap(RandomLayouts.layout(&rng), &rng, maxDepth: 10)
            let compiled = CompiledLayout(layout)
            let texts = SyntheticTexts(slots: compiled.textCount, &rng)
            if Self.topChainDepth(compiled) > Self.deepChain { deepChains += 1 }
            var widths: [Double] = [0, 0.5, 1.0 / 3, 64, 240, 320, 480, 10_000, .infinity, Double(Int.random(in: 0...64_000, using: &rng)) / 64]
            // Where each side-by-side pair stops fitting on one line, and either side of it.
            let steps = UnsafePointer(compiled.stepBuffer.baseAddress!)
            let whole = RecursiveStepWalk.measure(0, width: .infinity, steps: steps, texts: texts).width
            if whole.isFinite { widths += [whole - 1.0 / 64, whole, whole + 1.0 / 64].map { max(0, $0) } }
            for (i, step) in compiled.steps.enumerated() where step.kind == .sideBySide {
                sideBySides += 1
                let one = RecursiveStepWalk.measure(i, width: .infinity, steps: steps, texts: texts).width
                if one.isFinite { widths += [one - 1.0 / 64, one, one + 1.0 / 64].map { max(0, $0) } }
            }
            for width in widths {
                Self.expectSameAsRecursiveWalk(compiled, width: width, texts, "round \(round)\n\(layout)")
            }
        }
        #expect(deepChains >= 50, "only \(deepChains) layouts with more wrappers than \(Self.deepChain)")
        #expect(sideBySides >= 1000)
    }

    /// Wrapper chains of every depth from 0 to three times ``deepChain`` (inset, sized and
    /// background in turn), around a side-by-side pair of stacks: the result is the recursive
    /// walk's at every depth.
    @Test func wrapperChainsOfEveryDepth() {
        var rng = RandomRows.Seeded(state: 0xF1A7_000A)
        for depth in 0...(3 * Self.deepChain) {
            var layout: CellLayout = .sideBySide(SideBySideElement(
                first: .stack(StackElement(.horizontal, spacing: 2, alignment: .start, flexible: 0, children: [
                    .text(TextElement(.field("f0"))), .sized(SizeConstraint(width: 40.5), .text(TextElement(.field("f1"))))])),
                second: .inset(Insets(top: 1, left: 2, bottom: 3, right: 4), .text(TextElement(.field("f2"), maxLines: 2))),
                spacing: 6, verticalSpacing: 2.5))
            for k in 0..<depth {
                switch k % 3 {
                case 0: layout = .inset(Insets(top: 1.25, left: Double(k), bottom: 0.5, right: 3), layout)
                case 1: layout = .sized(SizeConstraint(width: k % 2 == 0 ? 700 - Double(k) : nil, minWidth: 33.3, minHeight: Double(k) * 7), layout)
                default: layout = .background(Background(fill: .color(.white)), layout)
                }
            }
            let compiled = CompiledLayout(layout)
            for _ in 0..<20 {
                let texts = SyntheticTexts(slots: compiled.textCount, &rng)
                for width in [0, 17.5, 120, 333.25, 640, 1000, .infinity, Double(Int.random(in: 0...80_000, using: &rng)) / 64] {
                    Self.expectSameAsRecursiveWalk(compiled, width: width, texts, "depth \(depth)")
                }
            }
        }
    }

    /// The built-in cells at every half pixel from 0 to 1000 and at infinity, over made-up texts.
    @Test func classicCellsWalkAsTheRecursiveWalk() {
        var rng = RandomRows.Seeded(state: 0xF1A7_000B)
        for template in ClassicCells.all + [ClassicCells.sectionHeader] {
            let compiled = template.compile()
            for _ in 0..<8 {
                let texts = SyntheticTexts(slots: compiled.textCount, &rng)
                for width in (0...2000).map({ Double($0) / 2 }) + [.infinity] {
                    Self.expectSameAsRecursiveWalk(compiled, width: width, texts, template.name)
                }
            }
        }
    }

    /// Sizes by the compiled walk over a row's compact form.
    static func compactSize(_ metrics: CellMetrics, width: Double) -> Size {
        metrics.storage.withUnsafeMutablePointers { header, base in
            CompiledLayout.measure(0, width: width, steps: CellMetrics.Header.steps(header), texts: CellMetrics.BlockSizes(base: UnsafeRawPointer(base)))
        }
    }

    /// Random wrapper chains (up to 12 deep) around random stacks, side-by-side pairs, frames
    /// and texts: the walk's size equals the reference model's, width and height, at random
    /// widths — including the widths, to 1/64 px, at which a side-by-side pair stops fitting
    /// on one line — and the compact and drawing forms' heights agree.
    @Test func walkSizesEqualTheReferenceModel() throws {
        var rng = RandomRows.Seeded(state: 0xF1A7_0008)
        var deepChains = 0
        for round in 0..<300 {
            let layout = RandomWrapped.layout(&rng)
            let row = RandomLayouts.row(&rng)
            let compiled = CompiledLayout(layout)
            let metrics = try compiled.metrics(for: row)
            let bound = try compiled.bind(row)
            let reference = ReferenceMeasure(row: row)
            if Self.topChainDepth(compiled) > Self.deepChain { deepChains += 1 }
            // The natural one-line width of the whole cell, and widths around it in 1/64 px.
            let natural = try reference.size(layout, width: .infinity).width
            var widths: [Double] = [0, 0.5, 99.75, 240, 320, 480, 1000, Double(Int.random(in: 0...900, using: &rng)) + 1.0 / 64]
            if natural.isFinite, natural <= 100_000 { widths += [-1, 0, 1].map { max(0, natural + Double($0) / 64) } }
            for width in widths {
                let expected = try reference.size(layout, width: width)
                let walked = Self.compactSize(metrics, width: width)
                #expect(walked.width == expected.width && walked.height == expected.height,
                        "round \(round) at \(width): walk \(walked), reference \(expected)\n\(layout)\n\(row)")
                #expect(try metrics.height(width: width) == bound.measure(width: width).height, "round \(round) at \(width)")
            }
        }
        // Deep chains must have been generated, or this test says nothing about them.
        #expect(deepChains >= 10, "only \(deepChains) chains deeper than \(Self.deepChain)")
    }
}
