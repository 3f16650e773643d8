import Testing
import Foundation
import Synchronization
import RowKitText
@testable import RowKitCells

// The compiled layout and the compact measuring form (Layout/CompiledLayout.swift,
// CellMetrics.swift): for random layouts, rows and widths, the compact form's height equals the
// drawing form's (BoundCell) and a plain recursive reference measure over the layout tree —
// the tree walk the compiled steps replaced, kept here as the model.

/// The reference: sizes computed recursively from a `CellLayout` and the row's prepared texts,
/// exactly as the layout primitives are documented (CellLayout.swift).
struct ReferenceMeasure {
    let row: RowData

    func size(_ layout: CellLayout, width: Double) throws -> Size {
        switch layout {
        case .text(let element):
            let string = CompiledLayout.string(element, row)
            guard !string.isEmpty, !width.isNaN, width >= 0 else { return .zero }
            let prepared = try PreparedText(string, style: element.appearance.style)
            let layout = try prepared.layout(width: width, maxLines: (element.maxLines ?? 0) > 0 ? element.maxLines : nil)
            return Size(width: min(width, layout.maxLineWidth), height: layout.height)
        case .box(let box):
            return Size(width: box.width, height: box.height)
        case .stack(let stack):
            let children = stack.children
            guard !children.isEmpty else { return .zero }
            let gaps = stack.spacing * Double(children.count - 1)
            if stack.axis == .vertical {
                var size = Size(width: 0, height: gaps)
                for child in children {
                    let s = try self.size(child, width: width)
                    size.width = max(size.width, s.width)
                    size.height += s.height
                }
                return size
            }
            let flexible = min(max(0, stack.flexible ?? children.count - 1), children.count - 1)
            var used = gaps, height = 0.0
            for (i, child) in children.enumerated() where i != flexible {
                let s = try self.size(child, width: max(0, width - used))
                used += s.width
                height = max(height, s.height)
            }
            let remaining = max(0, width - used)
            let s = try self.size(children[flexible], width: remaining)
            return Size(width: used + (width.isFinite ? remaining : s.width), height: max(height, s.height))
        case .inset(let insets, let child):
            let inner = try size(child, width: max(0, width - insets.horizontal))
            return Size(width: inner.width + insets.horizontal, height: inner.height + insets.vertical)
        case .sized(let c, let child):
            // A fixed width never exceeds the width available (CSS width + max-width: 100%).
            let fixed = c.width.map { min($0, max(0, width)) }
            let inner = try size(child, width: fixed ?? width)
            var s = Size(width: fixed ?? inner.width, height: c.height ?? inner.height)
            if let minWidth = c.minWidth, c.width == nil { s.width = max(s.width, minWidth) }
            if let minHeight = c.minHeight, c.height == nil { s.height = max(s.height, minHeight) }
            return s
        case .sideBySide(let pair):
            let a = try size(pair.first, width: .infinity), b = try size(pair.second, width: .infinity)
            if a.width + pair.spacing + b.width <= width {
                return Size(width: a.width + pair.spacing + b.width, height: max(a.height, b.height))
            }
            let x = try size(pair.first, width: width), y = try size(pair.second, width: width)
            return Size(width: max(x.width, y.width), height: x.height + pair.verticalSpacing + y.height)
        case .frames(let frames):
            var s = Size.zero
            for frame in frames {
                // A frame is cut at the cell's right edge.
                let frameWidth = min(frame.width, max(0, width - frame.x))
                let height = try frame.height ?? size(frame.child, width: frameWidth).height
                s.width = max(s.width, frame.x + frameWidth)
                s.height = max(s.height, frame.y + height)
            }
            return s
        case .background(_, let child):
            return try size(child, width: width)
        }
    }
}

/// Random layout trees over the fields f0…f3.
enum RandomLayouts {
    static let families = ["DejaVu Sans", "Noto Sans", "Liberation Serif"]

    static func appearance(_ rng: inout RandomRows.Seeded) -> TextAppearance {
        let size = Double(Int.random(in: 8...22, using: &rng))
        let lineHeight: LineHeight = Bool.random(using: &rng) ? .normal : .pixels((size * 1.25).rounded())
        let weight: FontWeight = Int.random(in: 0..<4, using: &rng) == 0 ? .bold : .regular
        return TextAppearance(style: TextStyle(font: FontDescriptor(family: families.randomElement(using: &rng)!, weight: weight),
                                               size: size, lineHeight: lineHeight))
    }

    static func layout(_ rng: inout RandomRows.Seeded, depth: Int = 0) -> CellLayout {
        let leaf = depth >= 3 || Int.random(in: 0..<3, using: &rng) == 0
        if leaf {
            if Int.random(in: 0..<5, using: &rng) == 0 {
                return .box(BoxElement(width: Double(Int.random(in: 0...80, using: &rng)), height: Double(Int.random(in: 0...80, using: &rng))))
            }
            let maxLines: Int? = [nil, nil, 1, 2, 3].randomElement(using: &rng)!
            let source: TextSource = Int.random(in: 0..<6, using: &rng) == 0 ? .literal("Label: ") : .field("f\(Int.random(in: 0...3, using: &rng))")
            return .text(TextElement(source, appearance: appearance(&rng), maxLines: maxLines, trimmed: Bool.random(using: &rng)))
        }
        func child() -> CellLayout { layout(&rng, depth: depth + 1) }
        func value(_ range: ClosedRange<Int>) -> Double { Double(Int.random(in: range, using: &rng)) }
        switch Int.random(in: 0..<7, using: &rng) {
        case 0, 1:
            let children = (0..<Int.random(in: 0...3, using: &rng)).map { _ in child() }
            let flexible: Int? = [nil, 0, 1, 2, -1, 7].randomElement(using: &rng)!
            return .stack(StackElement(Bool.random(using: &rng) ? .vertical : .horizontal, spacing: value(0...12),
                                       alignment: [.start, .center, .end].randomElement(using: &rng)!, flexible: flexible, children: children))
        case 2:
            return .inset(Insets(top: value(0...20), left: value(0...30), bottom: value(0...20), right: value(0...30)), child())
        case 3:
            func maybe(_ range: ClosedRange<Int>) -> Double? { Bool.random(using: &rng) ? value(range) : nil }
            return .sized(SizeConstraint(width: maybe(20...300), height: maybe(10...120), minWidth: maybe(0...200), minHeight: maybe(0...100),
                                         verticalAlignment: [.start, .center, .end].randomElement(using: &rng)!), child())
        case 4:
            return .sideBySide(SideBySideElement(first: child(), second: child(), spacing: value(0...20), verticalSpacing: value(0...10)))
        case 5:
            let frames = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                FramedElement(x: value(0...200), y: value(0...40), width: value(10...260), height: Bool.random(using: &rng) ? value(10...60) : nil, child: child())
            }
            return .frames(frames)
        default:
            return .background(Background(fill: .color(.white)), child())
        }
    }

    static func row(_ rng: inout RandomRows.Seeded) -> RowData {
        var fields: [String: FieldValue] = [:]
        for k in 0...3 where Int.random(in: 0..<8, using: &rng) != 0 {
            fields["f\(k)"] = Int.random(in: 0..<20, using: &rng) == 0 ? .number(Double(Int.random(in: -99...9999, using: &rng)) / 8)
                : .string(RandomRows.text(&rng))
        }
        return RowData(fields)
    }
}

@Suite struct CellMetricsTests {
    static let widths: [Double] = [0, 1, 37.5, 100, 213.25, 320, 480, 799, 1500]

    /// Random layouts, rows and widths: the compact form, the drawing form and the reference
    /// model give the same height, bit for bit.
    @Test func compactHeightsEqualDrawingAndReferenceHeights() throws {
        var rng = RandomRows.Seeded(state: 0xCE11_0001)
        for round in 0..<250 {
            let layout = RandomLayouts.layout(&rng)
            let row = RandomLayouts.row(&rng)
            let compiled = CompiledLayout(layout)
            let metrics = try compiled.metrics(for: row)
            let bound = try compiled.bind(row)
            let reference = ReferenceMeasure(row: row)
            for width in Self.widths + [Double(Int.random(in: 0...900, using: &rng)) + 0.5] {
                let expected = try reference.size(layout, width: width).height
                let compact = try metrics.height(width: width)
                #expect(compact == expected, "round \(round) at \(width): compact \(compact), reference \(expected)\n\(layout)\n\(row)")
                #expect(try bound.measure(width: width).height == expected, "round \(round) at \(width)")
                #expect(try bound.arrange(width: width).size.height == expected)
            }
        }
    }

    /// The classic cells over random rows: compact form == drawing form at random widths.
    @Test func classicCellsMeasureTheSameInBothForms() throws {
        var rng = RandomRows.Seeded(state: 0xCE11_0002)
        for template in ClassicCells.all + [ClassicCells.sectionHeader] {
            let compiled = template.compile()
            for _ in 0..<60 {
                let row = RandomRows.row(for: template, &rng)
                let metrics = try compiled.metrics(for: row)
                let bound = try template.bind(row)
                for _ in 0..<4 {
                    let width = Double(Int.random(in: 0...1000, using: &rng)) / 2
                    #expect(try metrics.height(width: width) == bound.measure(width: width).height, "\(template.name) \(row) at \(width)")
                }
            }
        }
    }

    /// A row's measuring form keeps its texts' hot parts (what a width change reads) together at
    /// the front of its one allocation, in slot order, and their cold parts after all of them;
    /// each packed text measures exactly as the same text prepared on its own, with and without
    /// a line limit.
    @Test func hotPartsArePackedAtTheFront() throws {
        var rng = RandomRows.Seeded(state: 0xCE11_0003)
        for template in ClassicCells.all + [ClassicCells.sectionHeader] {
            let compiled = template.compile()
            for _ in 0..<20 {
                let row = RandomRows.row(for: template, &rng)
                let metrics = try compiled.metrics(for: row)
                let hot = metrics.hotByteCount
                metrics.storage.withUnsafeMutablePointerToElements { base in
                    let raw = UnsafeRawPointer(base)
                    var expectedStart = (4 * compiled.textCount + 7) & ~7
                    var coldBytes = 0
                    for slot in 0..<compiled.textCount {
                        let offset = Int(raw.load(fromByteOffset: 4 * slot, as: Int32.self))
                        let string = CompiledLayout.string(compiled.texts[slot], row)
                        #expect((offset < 0) == string.isEmpty)
                        guard offset >= 0 else { continue }
                        #expect(offset == expectedStart, "\(template.name) slot \(slot)")
                        let parts = TextMetrics.blockParts(at: raw + offset)
                        expectedStart += parts.hot
                        coldBytes += parts.cold
                        let alone = try? TextMetrics(string, style: compiled.texts[slot].appearance.style)
                        #expect(alone?.blockParts.hot == parts.hot && alone?.blockParts.cold == parts.cold)
                        for _ in 0..<3 {
                            let width = Double(Int.random(in: 0...1000, using: &rng)) / 2
                            #expect(TextMetrics.measureBlock(at: raw + offset, width: width, maxLines: 0) == (try? alone?.measure(width: width)))
                            #expect(TextMetrics.measureBlock(at: raw + offset, width: width, maxLines: 2) == (try? alone?.measure(width: width, maxLines: 2)))
                        }
                    }
                    #expect(hot == expectedStart, "\(template.name): hot parts end at \(hot)")
                    #expect(metrics.storage.capacity * 8 >= hot + coldBytes)
                }
            }
        }
    }

    /// A caption-text row of two short texts is a few hundred bytes in its compact form, far
    /// less than its drawing form.
    @Test func compactFormIsSmall() throws {
        let compiled = ClassicCells.captionText.compile()
        let row: RowData = ["caption": "Breaking news",
                            "body": "When the body is too long to sit next to the caption, it wraps below it, word by word, at whatever width the table has."]
        let metrics = try compiled.metrics(for: row)
        let bound = try compiled.bind(row)
        #expect(metrics.byteCount < 700, "\(metrics.byteCount) B")
        #expect(metrics.byteCount * 3 < bound.byteCount, "compact \(metrics.byteCount) B, drawing \(bound.byteCount) B")
    }

    @Test func invalidWidthsThrowAndBadTextsNameTheirElement() throws {
        let compiled = ClassicCells.label.compile()
        let metrics = try compiled.metrics(for: ["text": "Hello"])
        for width in [-1, .nan, .infinity, 100_001] as [Double] {
            #expect { try metrics.height(width: width) } throws: { error in
                guard let error = error as? CellError, case .invalidWidth = error else { return false }
                return true
            }
        }
        let bad = CompiledLayout(.text(field: "t", TextAppearance(style: TextStyle(size: -3))))
        #expect { try bad.metrics(for: ["t": "x"]) } throws: { error in
            guard let error = error as? CellError, case .text(let element, _) = error else { return false }
            return element == "text field 't'"
        }
        // Empty and missing fields measure as nothing.
        #expect(try bad.metrics(for: [:]).height(width: 100) == 0)
    }
}

/// Cells whose texts use every style key a user writes (direction, lang, font lists, generics,
/// synthetic bold and italic, pre-wrap) over texts that exercise the browser's break rules:
/// the compact form's height equals the drawing form's, measured and arranged.
@Suite struct CellFidelityMetricsTests {
    static let pieces = ["office ", "Traffic ", "un\u{AD}be\u{AD}liev\u{AD}able ", "a\tb ", "รายงานก่อนวันที่ ", "များကို ",
                         "مرحبا بالعالم! ", "漢字、「引用」。 ", "AVATAR ", "overflow ", "Ấn Độ ", "x\u{2028}y ", "👍🏽 "]
    static let families = ["DejaVu Sans", "Noto Sans", "serif", "sans-serif", "Noto Sans Mono, serif", "Missing, Liberation Serif"]

    static func text(_ rng: inout RandomRows.Seeded) -> String {
        (0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    static func appearance(_ rng: inout RandomRows.Seeded) -> TextAppearance {
        let size = [11, 13.5, 16, 22][Int.random(in: 0..<4, using: &rng)]
        let weight: FontWeight = Bool.random(using: &rng) ? .bold : .regular
        let slant: FontSlant = [.normal, .italic, .oblique][Int.random(in: 0..<3, using: &rng)]
        let style = TextStyle(font: FontDescriptor(family: families.randomElement(using: &rng)!, weight: weight, slant: slant),
                              size: size, lineHeight: Bool.random(using: &rng) ? .normal : .pixels(size * 1.3),
                              direction: [.ltr, .rtl, .auto].randomElement(using: &rng)!,
                              whiteSpace: Bool.random(using: &rng) ? .normal : .preWrap,
                              lang: [nil, "ja", "zh-Hant", "ko", "th"].randomElement(using: &rng)!)
        return TextAppearance(style: style)
    }

    @Test func compactHeightsEqualDrawingHeights() throws {
        var rng = RandomRows.Seeded(state: 0xF1DE_0009)
        for round in 0..<120 {
            let texts = (0..<Int.random(in: 1...3, using: &rng)).map { k in
                CellLayout.text(TextElement(.field("f\(k)"), appearance: Self.appearance(&rng), maxLines: [nil, 1, 2].randomElement(using: &rng)!))
            }
            let layout = CellLayout.sideBySide(SideBySideElement(first: texts[0], second: .stack(StackElement(.vertical, spacing: 4,
                alignment: .start, flexible: nil, children: Array(texts.dropFirst()))), spacing: 8, verticalSpacing: 2))
            var fields: [String: FieldValue] = [:]
            for k in 0..<3 { fields["f\(k)"] = .string(Self.text(&rng)) }
            let row = RowData(fields)
            let compiled = CompiledLayout(layout)
            let metrics = try compiled.metrics(for: row)
            let bound = try compiled.bind(row)
            for width in [0, 17.5, 64, 120.25, 233.5, 320, 800] + [Double(Int.random(in: 1...600, using: &rng))] {
                let compact = try metrics.height(width: width)
                #expect(compact == (try bound.measure(width: width).height), "round \(round) at \(width)")
                #expect(compact == (try bound.arrange(width: width).size.height), "round \(round) at \(width)")
            }
        }
    }
}

/// `CompiledLayout.trimmed`'s shortcut (both ends' lead bytes certainly not white space) gives
/// what trimming every White_Space scalar from both ends gives.
@Suite struct TrimmedTextTests {
    static func reference(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    @Test func trimmingMatchesTheWhiteSpaceProperty() {
        // Every White_Space scalar and neighbours of their lead bytes, at either end of texts in
        // several scripts.
        let spaces: [Unicode.Scalar] = (0...0x3001).compactMap { Unicode.Scalar($0) }.filter { $0.properties.isWhitespace }
        #expect(spaces.count == 25)
        let edges: [String] = spaces.map { String($0) } + ["", "a", "é", "\u{00BF}", "\u{1681}", "\u{2030}", "\u{3001}", "\u{7F}", "😀", "\u{0E01}", "ก", "中"]
        let middles = ["word", "คำ", "مرحبا", "中文", "a b", " ", ""]
        var checked = 0
        for a in edges {
            for b in edges {
                for m in middles {
                    let text = a + m + b
                    #expect(CompiledLayout.trimmed(text) == Self.reference(text), "\(Array(text.unicodeScalars))")
                    checked += 1
                }
            }
        }
        #expect(checked > 5000)
        #expect(CompiledLayout.startsNonWhitespace(UInt8(ascii: "a")))
        #expect(!CompiledLayout.startsNonWhitespace(0xE3))
    }

    /// The bytes of a row's measuring form: its slot table and its texts' parts (the allocation
    /// may be larger; the words after them are never written).
    static func bytes(_ metrics: CellMetrics) -> [UInt64] {
        metrics.storage.withUnsafeMutablePointerToElements { base in
            let raw = UnsafeRawPointer(base), slots = metrics.compiled.textCount
            var size = (4 * slots + 7) & ~7
            for slot in 0..<slots {
                let offset = Int(raw.load(fromByteOffset: 4 * slot, as: Int32.self))
                guard offset >= 0 else { continue }
                let parts = TextMetrics.blockParts(at: raw + offset)
                size += parts.hot + parts.cold
            }
            return Array(UnsafeBufferPointer(start: base, count: size / 8))
        }
    }

    /// A row's texts are written one after another into memory the thread reuses before they
    /// are packed (`TextMetrics.withBlocks`): what the thread packed before — a row with a long
    /// text, which grows that memory, then short ones — and packing from inside another
    /// packing (which gets memory of its own) leave every row's bytes as a fresh thread makes them.
    @Test func rowBytesDoNotDependOnWhatTheThreadPackedBefore() throws {
        var rng = RandomRows.Seeded(state: 0xCE11_0004)
        let compiled = ClassicCells.all[0].compile()
        var rows: [RowData] = []
        for k in 0..<40 {
            var row = RandomRows.row(for: ClassicCells.all[0], &rng)
            if k % 7 == 0 {
                // A long text first now and then: its form is larger than any before it.
                for (key, value) in row.fields { if case .string(let text) = value { row.fields[key] = .string(String(repeating: text + " ", count: 40)) } }
            }
            rows.append(row)
        }
        let sequential = try rows.map { Self.bytes(try compiled.metrics(for: $0)) }
        for (k, row) in rows.enumerated() {
            // Each on a fresh thread: nothing packed before.
            let fresh = try onFreshThread { Self.bytes(try compiled.metrics(for: row)) }
            #expect(fresh == sequential[k], "row \(k)")
            // Packed while this thread's memory is in use: the nested call makes its own.
            let nested = try TextMetrics.withBlocks { (blocks) throws -> [UInt64] in
                _ = try blocks.append("held while the row is packed", style: TextStyle(), fonts: .shared, cache: .shared)
                return Self.bytes(try compiled.metrics(for: row))
            }
            #expect(nested == sequential[k], "row \(k), nested")
        }
    }

    private func onFreshThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let value = Result { try body() }
            result.withLock { $0 = value }
            done.signal()
        }.start()
        done.wait()
        return try result.withLock { $0! }.get()
    }
}
