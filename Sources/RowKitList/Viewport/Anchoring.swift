/// Scroll anchoring: when heights change or items move above what the viewport shows, the item
/// at its top keeps its screen position, with the exceptions ``ScrollAnchoring`` chooses.
extension ListState {
    struct Anchor {
        /// The item at the viewport's top.
        var index: Int
        /// Its top on screen (≤ 0: it starts at or above the viewport's top).
        var screenY: Double
        var wasAtTop: Bool
        var wasAtBottom: Bool
    }

    /// Whether the viewport shows the end of the list (within one layout unit).
    var isAtBottom: Bool { contentOffset >= heights.totalHeight - viewportHeight - 1 / HeightIndex.unitsPerPixel }

    func captureAnchor() -> Anchor? {
        guard let index = heights.row(at: contentOffset) else { return nil }
        return Anchor(index: index, screenY: heights.offset(of: index) - contentOffset, wasAtTop: contentOffset == 0, wasAtBottom: isAtBottom)
    }

    /// Puts the anchor item back at its screen position (or applies the anchoring rule).
    mutating func restore(_ anchor: Anchor?) {
        guard let anchor, items.count > 0 else {
            adjustOffset(to: 0)
            return
        }
        switch anchoring {
        case .stayAtTop where anchor.wasAtTop:
            adjustOffset(to: 0)
        case .stickToBottom where anchor.wasAtBottom:
            adjustOffset(to: max(0, heights.totalHeight - viewportHeight))
        default:
            adjustOffset(to: max(0, heights.offset(of: min(anchor.index, items.count - 1)) - anchor.screenY))
        }
    }

    /// Keeps the anchor still after heights above it changed by `delta` in all (the anchor
    /// being the item at the offset before the change), or applies the anchoring rule.
    mutating func shift(by delta: Double, wasAtBottom: Bool) {
        if anchoring == .stickToBottom && wasAtBottom {
            adjustOffset(to: max(0, heights.totalHeight - viewportHeight))
        } else if delta != 0 {
            adjustOffset(to: max(0, contentOffset + delta))
        }
    }

    /// `offset` clamped to 0…(content height − viewport height); NaN is 0.
    func clampOffset(_ offset: Double) -> Double {
        guard !offset.isNaN else { return 0 }
        return min(max(0, offset), max(0, heights.totalHeight - viewportHeight))
    }
}
