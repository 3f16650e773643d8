import RowKitText

extension CompiledLayout {
    /// Why this layout cannot be measured, or nil when it can: a length that is NaN or infinite,
    /// a size, inset, spacing, border width or corner radius below 0, a line limit below 1, a
    /// color component that is not a finite number.
    ///
    /// The YAML readers refuse all of these at their place in the file; a layout declared in
    /// Swift took them as given, and `BoxElement(width: 10, height: .nan)` measured NaN, a
    /// negative inset a negative height (a list then silently kept 0 for such a row). Checked
    /// when a row is bound or measured (a walk over the few compiled steps: a few dozen
    /// comparisons, nothing allocated unless there is a problem).
    func layoutProblem() -> CellError? {
        let steps = UnsafePointer(stepBuffer.baseAddress!)
        let texts = self.texts, boxes = self.boxes, backgrounds = self.backgrounds
        for i in 0..<self.steps.count {
            let step = steps[i]
            // Messages are made only for a problem: this runs for every row.
            var what = ""
            var message: String?
            switch step.kind {
            case .text:
                // Fields read in place (a copy of the element retains its strings).
                let k = Int(step.payload)
                if let maxLines = texts[k].maxLines, maxLines < 1 {
                    message = "maxLines \(maxLines) must be at least 1 (nil for no limit)"
                } else if let shadow = texts[k].appearance.shadow {
                    message = Self.lengthProblem(shadow.dx, "shadow dx", signed: true) ?? Self.lengthProblem(shadow.dy, "shadow dy", signed: true)
                        ?? Self.colorProblem(shadow.color, "shadow color")
                }
                message = message ?? Self.colorProblem(texts[k].appearance.style.color, "color")
                    ?? Self.colorProblem(texts[k].appearance.highlightedColor, "highlightedColor")
                if message != nil { what = Self.describe(texts[k].source) }
            case .box:
                what = "box"
                message = Self.lengthProblem(step.v0, "width") ?? Self.lengthProblem(step.v1, "height")
                if message == nil, case .color(let color) = boxes[Int(step.payload)] { message = Self.colorProblem(color, "color") }
            case .stack:
                what = step.flags & Step.horizontal != 0 ? "hstack" : "vstack"
                // (A flexible index outside the children is clamped to them: a tested fallback.)
                message = Self.lengthProblem(step.v0, "spacing")
            case .inset:
                what = "inset"
                message = Self.lengthProblem(step.v0, "top") ?? Self.lengthProblem(step.v1, "left")
                    ?? Self.lengthProblem(step.v2, "bottom") ?? Self.lengthProblem(step.v3, "right")
            case .sized:
                what = "sized"
                if step.flags & Step.hasWidth != 0 { message = Self.lengthProblem(step.v0, "width") }
                if message == nil, step.flags & Step.hasHeight != 0 { message = Self.lengthProblem(step.v1, "height") }
                if message == nil, step.flags & Step.hasMinWidth != 0 { message = Self.lengthProblem(step.v2, "minWidth") }
                if message == nil, step.flags & Step.hasMinHeight != 0 { message = Self.lengthProblem(step.v3, "minHeight") }
            case .sideBySide:
                what = "sideBySide"
                message = Self.lengthProblem(step.v0, "spacing") ?? Self.lengthProblem(step.v1, "verticalSpacing")
            case .frames:
                break
            case .frame:
                what = "frame"
                message = Self.lengthProblem(step.v0, "x", signed: true) ?? Self.lengthProblem(step.v1, "y", signed: true)
                    ?? Self.lengthProblem(step.v2, "width")
                if message == nil, step.flags & Step.hasHeight != 0 { message = Self.lengthProblem(step.v3, "height") }
            case .background:
                what = "background"
                let k = Int(step.payload)
                message = Self.lengthProblem(backgrounds[k].borderWidth, "borderWidth") ?? Self.lengthProblem(backgrounds[k].cornerRadius, "cornerRadius")
                    ?? Self.fillProblem(backgrounds[k].fill, "fill") ?? Self.fillProblem(backgrounds[k].highlightedFill, "highlightedFill")
                    ?? backgrounds[k].borderColor.flatMap { Self.colorProblem($0, "borderColor") }
            }
            if let message { return .invalidLayout(element: "\(what) (element \(i) in pre-order)", message) }
        }
        return nil
    }

    /// Why a length cannot be used (NaN, infinite, or negative unless `signed`), or nil.
    @inline(__always)
    static func lengthProblem(_ value: Double, _ name: StaticString, signed: Bool = false) -> String? {
        if !value.isFinite { return "\(name) \(value) is not a finite number" }
        if !signed && value < 0 { return "\(name) \(value) is negative: must be at least 0" }
        return nil
    }

    /// Why a background fill cannot be drawn, or nil.
    @inline(__always)
    static func fillProblem(_ fill: borrowing Background.Fill?, _ name: StaticString) -> String? {
        switch fill {
        case .color(let color)?: return colorProblem(color, "\(name) color")
        case .verticalGradient(let top, let bottom)?:
            return colorProblem(top, "\(name) gradient top") ?? colorProblem(bottom, "\(name) gradient bottom")
        default: return nil
        }
    }

    /// Why `color` cannot be drawn (a component that is NaN or infinite), or nil.
    @inline(__always)
    static func colorProblem(_ color: Color, _ name: @autoclosure () -> String) -> String? {
        guard !(color.red.isFinite && color.green.isFinite && color.blue.isFinite && color.alpha.isFinite) else { return nil }
        return "\(name()) (\(color.red), \(color.green), \(color.blue), alpha \(color.alpha)): color components must be numbers from 0 to 1"
    }
}
