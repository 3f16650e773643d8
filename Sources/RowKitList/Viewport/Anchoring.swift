import Dispatch
import Foundation
import RowKitCells

// Scroll anchoring: the row at the top of the viewport keeps its screen position.
extension ListEngine {
    // MARK: anchoring

    struct Anchor {
        var index: Int
        /// Top of the anchor row on screen (≤ 0 when it starts above the viewport).
        var screenY: Double
    }

    func captureAnchor() -> Anchor? {
        guard let index = heights.row(at: _contentOffset) else { return nil }
        return Anchor(index: index, screenY: heights.offset(of: index) - _contentOffset)
    }

    func restore(_ anchor: Anchor?) {
        guard let anchor, items.count > 0 else {
            _contentOffset = 0
            return
        }
        let index = min(anchor.index, items.count - 1)
        _contentOffset = max(0, heights.offset(of: index) - anchor.screenY)
    }

}
