import RowKitText

extension CellMetrics {
    /// The narrowest width from which on this row's size no longer depends on the width: at
    /// any two widths at least this wide, ``height(width:)`` gives the same (its texts each on
    /// one line there, side by side when a side-by-side fits, or columns of fixed width).
    /// `.infinity` when no such width is known. A list keeps such a row's height through a
    /// width change between two such widths without measuring it again.
    ///
    /// Found by one walk over the compiled steps, with the rules of
    /// ``CompiledLayout`` measuring at each step: never less than the true width.
    public var constantHeightWidth: Double {
        storage.withUnsafeMutablePointers { header, base in
            max(0, CompiledLayout.constantWidth(0, steps: Header.steps(header), texts: UnsafeRawPointer(base)))
        }
    }
}

extension CompiledLayout {
    /// The narrowest width from which on step `i`'s whole size (width and height, as
    /// ``measure(_:width:steps:texts:)`` gives it) is the same at every width, for a row whose
    /// packed texts are at `texts` (``CellMetrics``' layout); `.infinity` when unknown. Each
    /// case follows that function's rule for the step.
    static func constantWidth(_ i: Int, steps: UnsafePointer<Step>, texts: UnsafeRawPointer) -> Double {
        var i = i
        while steps[i].kind == .background { i += 1 }
        let step = steps + i
        switch step.pointee.kind {
        case .text:
            // One line from its whole width on: then its size is that width and one line's
            // height, whatever the width (a line limit cuts nothing from one line).
            let offset = texts.load(fromByteOffset: 4 * Int(step.pointee.payload), as: Int32.self)
            guard offset >= 0 else { return 0 }   // empty: no size at any width
            return TextMetrics.oneLineWidth(at: texts + Int(offset)) ?? .infinity
        case .box:
            return 0
        case .stack:
            // A horizontal stack's width is at least the width it is given: never constant.
            guard step.pointee.flags & Step.horizontal == 0 else { return .infinity }
            var widest = 0.0
            var c = i + 1
            while c < Int(step.pointee.end) {
                widest = max(widest, constantWidth(c, steps: steps, texts: texts))
                c = Int(steps[c].end)
            }
            return widest
        case .inset:
            // The child gets the width less the insets.
            return max(0, constantWidth(i + 1, steps: steps, texts: texts)) + step.pointee.v1 + step.pointee.v3
        case .sized:
            // A fixed width caps what the child gets (`fixedWidth`): the same from that width on.
            if step.pointee.flags & Step.hasWidth != 0 { return max(0, step.pointee.v0) }
            return constantWidth(i + 1, steps: steps, texts: texts)
        case .sideBySide:
            // From the width at which both fit side by side (`sideBySideSizes`, the same sum),
            // both take their single-line sizes.
            let sizes = CellMetrics.BlockSizes(base: texts)
            let a = child(i + 1, width: .infinity, steps: steps, texts: sizes)
            let b = child(Int(steps[i + 1].end), width: .infinity, steps: steps, texts: sizes)
            let fit = a.width + step.pointee.v0 + b.width
            return fit.isNaN ? .infinity : fit
        case .frames:
            // Each framed child gets its frame's width from the frame's right edge on.
            var widest = 0.0
            var c = i + 1
            while c < Int(step.pointee.end) {
                widest = max(widest, steps[c].v0 + max(0, steps[c].v2))
                c = Int(steps[c].end)
            }
            return widest
        case .frame, .background:
            return constantWidth(i + 1, steps: steps, texts: texts)
        }
    }
}
