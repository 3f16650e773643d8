import Dispatch
import Foundation
import RowKitCells

// Viewport: geometry, scrolling, the visible range.
extension ListEngine {
    // MARK: geometry

    /// The width rows are laid out at.
    public var width: Double { locked { _width } }
    /// Total height: exact once every row is measured, estimated before.
    public var contentHeight: Double { locked { heights.totalHeight } }
    /// y of the viewport's top in the list.
    public var contentOffset: Double { locked { _contentOffset } }
    /// Height of the viewport.
    public var viewportHeight: Double {
        get { locked { _viewportHeight } }
        set { locked { _viewportHeight = newValue.isNaN ? 0 : min(max(0, newValue), HeightIndex.maximumOffset) } }
    }

    /// Top of item `index` in list coordinates.
    public func offset(ofItem index: Int) -> Double { locked { heights.offset(of: index) } }
    /// Height of item `index` (an estimate until it is measured).
    public func height(ofItem index: Int) -> Double { locked { heights.height(at: index) } }
    /// Whether item `index` has its exact height.
    public func isMeasured(_ index: Int) -> Bool { locked { items[index].measured } }
    /// The item at list coordinate `y`, or nil for an empty list.
    public func item(atY y: Double) -> Int? { locked { heights.row(at: y) } }

    /// Scrolls to `offset` (clamped to 0...contentHeight − viewportHeight).
    public func scroll(to offset: Double) {
        locked { _contentOffset = clampOffset(offset) }
    }

    func clampOffset(_ offset: Double) -> Double {
        guard !offset.isNaN else { return 0 }
        return min(max(0, offset), max(0, heights.totalHeight - _viewportHeight))
    }

    /// Scrolls so that the row at `path` sits at the top, middle or bottom of the viewport. The
    /// row is measured first, so its own height is exact; rows above it keep counting with their
    /// estimates until measured, and anchoring keeps the row in place when they are.
    public func scrollTo(_ path: IndexPath, position: ScrollPosition = .top) throws {
        try locked {
            let index = try self.index(of: path)
            try measure(range: index..<(index + 1))
            let top = heights.offset(of: index), height = heights.height(at: index)
            switch position {
            case .top: _contentOffset = clampOffset(top)
            case .middle: _contentOffset = clampOffset(top + height / 2 - _viewportHeight / 2)
            case .bottom: _contentOffset = clampOffset(top + height - _viewportHeight)
            }
        }
    }

    /// The items in the viewport (plus `overscan` above and below), measured first so their
    /// heights are exact, with their frames. The row at the top keeps its screen position while
    /// rows are measured.
    public func visibleItems() throws -> [VisibleItem] {
        try locked {
            guard items.count > 0 else { return [] }
            // Measure until the visible range is stable (measuring changes heights, which can
            // bring more rows into view); every round measures at least one row, so it ends.
            while true {
                let range = visibleRange()
                if !(range.contains { !items[$0].measured }) { break }
                try measure(range: range)
            }
            let range = visibleRange()
            var result: [VisibleItem] = []
            var y = heights.offset(of: range.lowerBound)
            items.forEach(in: range) { index, item in
                let h = heights.height(at: index)
                result.append(VisibleItem(index: index, kind: item.kind, indexPath: indexPath(ofFlat: index), row: item.row, y: y, height: h))
                y += h
            }
            return result
        }
    }

    /// Flat indices of the items intersecting the viewport with overscan.
    public func visibleRange() -> Range<Int> {
        locked {
            guard items.count > 0 else { return 0..<0 }
            let top = max(0, _contentOffset - _overscan)
            let bottom = _contentOffset + _viewportHeight + _overscan
            guard let first = heights.row(at: top) else { return 0..<0 }
            var last = heights.row(at: max(top, bottom - 1.0 / HeightIndex.unitsPerPixel)) ?? first
            // Zero-height items right after the viewport are not visible; items ending at the
            // bottom edge are.
            last = max(first, last)
            return first..<(last + 1)
        }
    }

}
