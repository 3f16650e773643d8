import Foundation
import RowKitIO
import RowKitList

/// How a list on screen behaves where tastes differ.
public struct ViewConfiguration: Sendable {
    /// Section headers stay pinned at the top while their section scrolls under them (a header
    /// taller than half the viewport scrolls away with its rows instead of covering them).
    public var stickyHeaders = true
    /// When rows arrive above a viewport that is at offset 0: `true` stays at the top and shows
    /// them (a feed's "pull to refresh" habit); `false` (the default) keeps what the user is
    /// looking at still, as everywhere else in the list.
    public var stayAtTopOnInsert = false
    /// Speed kept per millisecond by a fling (UIScrollView's normal rate).
    public var decelerationRate = 0.998

    /// A configuration; the defaults are UITableView's (sticky headers, content kept still, normal deceleration).
    public init(stickyHeaders: Bool = true, stayAtTopOnInsert: Bool = false, decelerationRate: Double = 0.998) {
        self.stickyHeaders = stickyHeaders
        self.stayAtTopOnInsert = stayAtTopOnInsert
        self.decelerationRate = decelerationRate
    }
}

/// A section header pinned over the rows at the top of the viewport.
public struct StickyHeader: Sendable, Equatable {
    /// The header's item index.
    public var index: Int
    /// Its top on screen (≤ 0 while the next header pushes it up).
    public var screenY: Double
    /// Its height.
    public var height: Double
    /// The section it heads.
    public var section: Int
}

/// Everything one frame draws, relative to the viewport: cairo never sees list coordinates,
/// which reach ~65,000,000 px for a million rows.
public struct ViewFrame: Sendable {
    /// The viewport's size.
    public var width: Double, height: Double
    /// The viewport's top in list coordinates.
    public var offset: Double
    /// Visible items in list coordinates, with the state each draws in.
    public var items: [ViewItem]
    /// The pinned section header, if any.
    public var sticky: StickyHeader?
    /// The list's height when the frame was taken.
    public var contentHeight: Double

    /// Where item `item` starts on screen.
    public func screenY(of item: ViewItem) -> Double { item.y - offset }
    /// The item at the top of the viewport.
    public var first: ViewItem? { items.first }

    /// Whether the items end above the viewport's bottom while the content goes on below them
    /// (rows the engine left unmeasured this frame).
    var isCutShort: Bool {
        let bottom = items.last.map { $0.y + $0.height } ?? offset
        return bottom < offset + height && bottom < contentHeight
    }
}

/// The logic of a scrolling list on screen, without a window: scroll position, wheel steps,
/// flings with kinetic deceleration, press/release selection, keyboard navigation, the resize
/// anchor, sticky headers, live inserts, the scroll bar and frame statistics.
///
/// A window feeds it input and the frame clock's time and draws the ``ViewFrame`` it makes;
/// tests drive it the same way with a synthetic clock. Not thread-safe: use it from the UI
/// thread.
public final class ListViewModel {
    /// The list driven.
    public let list: ListSeam
    /// Sticky headers, the insert-at-top policy and the fling deceleration.
    public var configuration: ViewConfiguration
    /// The viewport's size.
    public private(set) var width: Double, height: Double
    /// A width waiting for the next frame (at most one width change per frame).
    public private(set) var pendingWidth: Double?
    /// The fling in progress, if any.
    public private(set) var kinetic: KineticScroll?
    private var kineticTravelled = 0.0
    /// The row under a press (highlighted until release).
    public private(set) var pressed: (index: Int, path: RowPath, x: Double, y: Double)?
    /// The selected row.
    public private(set) var selected: RowPath?
    /// Whether the frame-rate readout shows.
    public var showsFrameRate = false { didSet { if showsFrameRate != oldValue { setNeedsDisplay() } } }
    /// Paint times and frame rate.
    public private(set) var statistics = FrameStatistics()
    /// The last frame made.
    public private(set) var lastFrame: ViewFrame?
    /// Whether something changed since the last frame.
    public private(set) var needsDisplay = true
    /// Called when something changed that needs a new frame (the window queues a draw).
    public var onNeedsDisplay: (() -> Void)?
    /// Called once for each item that comes into view taller than a list row can be (it is
    /// drawn cut at that height); the window prints it as a warning.
    public var onWarning: ((String) -> Void)?
    private var warnedTooTall: Set<String> = []
    /// Messages of rows that could not be measured, said once each.
    private var warnedFailures = Set<String>()

    /// A view of `list` with a `width`×`height` viewport.
    public init(list: ListSeam, width: Double, height: Double, configuration: ViewConfiguration = ViewConfiguration()) {
        self.list = list
        self.configuration = configuration
        self.width = Self.clampSize(width)
        self.height = Self.clampSize(height)
        list.viewportHeight = self.height
        if self.width != list.width { pendingWidth = self.width }
    }

    static func clampSize(_ value: Double) -> Double { value.isFinite ? min(max(1, value), 100_000) : 1 }

    func setNeedsDisplay() {
        needsDisplay = true
        onNeedsDisplay?()
    }

    // MARK: geometry

    /// Resizes the viewport. A new height applies at once (the top row stays put); a new width
    /// waits for the next frame, where the rows are laid out again with the top row anchored.
    public func resize(width newWidth: Double, height newHeight: Double) {
        let w = Self.clampSize(newWidth), h = Self.clampSize(newHeight)
        if h != height {
            height = h
            list.viewportHeight = h
            let maxOffset = max(0, list.contentHeight - h)
            if list.contentOffset > maxOffset { list.scroll(to: maxOffset) }
            setNeedsDisplay()
        }
        if w != width {
            width = w
            pendingWidth = w == list.width ? nil : w
            setNeedsDisplay()
        }
    }

    /// Distance of one wheel click: GTK's rule for scrolled windows, viewport^(2/3) (89 px for
    /// an 844 px viewport), so a click moves a few lines whatever the window's size.
    public var wheelStep: Double { pow(height, 2.0 / 3.0).rounded() }

    /// What the scroll bar shows.
    public var scrollBar: ScrollBarGeometry {
        ScrollBarGeometry(value: list.contentOffset, upper: max(list.contentHeight, height), pageSize: height,
                          stepIncrement: wheelStep, pageIncrement: pageDistance, isExact: list.unmeasuredCount == 0)
    }

    /// Distance of Page Up/Down: 90% of the area below a pinned header.
    public var pageDistance: Double { max(1, ((height - stickyInset) * 0.9).rounded()) }

    private var stickyInset: Double { lastFrame?.sticky.map { max(0, $0.height + $0.screenY) } ?? 0 }

    // MARK: frames

    /// Makes the next frame: applies a pending width (the top row anchored), measures the
    /// visible rows, and places the sticky header. Clears ``needsDisplay``.
    public func makeFrame() throws -> ViewFrame {
        if let w = pendingWidth {
            pendingWidth = nil
            try list.setWidth(w)
        }
        let snapshot = try list.snapshot()
        // A row that cannot be measured is shown at its estimate, blank, and said once.
        for message in snapshot.failures where warnedFailures.insert(message).inserted {
            onWarning?("\(message) (the row is left blank)")
        }
        // The list clamps a taller item to the tallest row it holds (as `heights` and `render`
        // report): say so rather than draw it cut without a word.
        for item in snapshot.items where item.height >= HeightIndex.maximumHeight
            && warnedTooTall.insert("\(item.id) \(list.width)").inserted {
            let what = item.kind == .row ? "row \(item.indexPath.row) of section \(item.indexPath.section)" : "the title of section \(item.indexPath.section)"
            onWarning?("\(what) is taller than a list row can be (\(JSONText.number(HeightIndex.maximumHeight)) px) at \(JSONText.number(list.width)) px wide: it is drawn cut at that height")
        }
        let frame = ViewFrame(width: width, height: height, offset: snapshot.offset, items: snapshot.items,
                              sticky: try stickyHeader(snapshot), contentHeight: snapshot.contentHeight)
        lastFrame = frame
        needsDisplay = false
        return frame
    }

    private func stickyHeader(_ snapshot: ListSnapshot) throws -> StickyHeader? {
        guard configuration.stickyHeaders, let first = snapshot.items.first else { return nil }
        let section = first.indexPath.section
        let headerIndex = first.kind == .header ? first.index : list.headerIndex(ofSection: section)
        guard let headerIndex else { return nil }
        let height: Double
        if let own = snapshot.items.first(where: { $0.index == headerIndex }) {
            // The header is where it belongs: nothing to pin.
            if own.y - snapshot.offset >= 0 { return nil }
            height = own.height
        } else {
            // A header that cannot be measured is not pinned (the snapshot's failures say why
            // when it comes into view).
            guard let exact = try? list.exactHeight(ofItem: headerIndex) else { return nil }
            height = exact
        }
        guard pins(headerHeight: height) else { return nil }
        var screenY = 0.0
        if let next = snapshot.items.first(where: { $0.kind == .header && $0.index > headerIndex }) {
            screenY = min(0, next.y - snapshot.offset - height)
        }
        guard screenY + height > 0 else { return nil }
        return StickyHeader(index: headerIndex, screenY: screenY, height: height, section: section)
    }

    /// Background work changed heights (the content on screen did not move, but list
    /// coordinates did). Once every item is measured, one more frame records the exact offset.
    /// A frame that stopped short of the viewport's bottom while the list went on (the engine
    /// measured its budget of zero-height rows and left the rest to the background) is drawn
    /// again as results come in, so the rows show as soon as they are measured.
    public func layoutChanged(unmeasured: Int) {
        guard let frame = lastFrame else { return }
        if unmeasured == 0, frame.offset != list.contentOffset || frame.contentHeight != list.contentHeight {
            setNeedsDisplay()
        } else if frame.isCutShort {
            setNeedsDisplay()
        }
    }

    /// Records a painted frame's paint time (the readout and `--frame-log` use it).
    public func recordFrame(paintMilliseconds: Double, at time: Double) {
        statistics.record(paintMilliseconds: paintMilliseconds, at: time, continuous: isAnimating)
    }

    /// The readout's text: frame rate, last and 99th-percentile paint time.
    public func frameRateText(at time: Double) -> String {
        let fps = statistics.framesPerSecond(at: time)
        return String(format: "%d fps · paint %.1f ms · p99 %.1f ms", fps, statistics.lastPaintMilliseconds, statistics.paintPercentile(0.99))
    }

    // MARK: scrolling

    /// Scrolls by `dy` px (a touchpad's smooth delta). Stops a fling.
    public func scroll(by dy: Double) throws {
        guard dy.isFinite, dy != 0 else { return }
        kinetic = nil
        try list.scroll(by: dy)
        setNeedsDisplay()
    }

    /// Scrolls by wheel clicks (negative: up), ``wheelStep`` each.
    public func wheel(clicks: Double) throws {
        try scroll(by: clicks * wheelStep)
    }

    /// Starts a fling of `velocity` px/s at `time` (the end of a touchpad swipe).
    public func fling(velocity: Double, at time: Double) {
        guard velocity.isFinite, abs(velocity) > KineticScroll.stopVelocity else { kinetic = nil; return }
        kinetic = KineticScroll(velocity: velocity, start: time, ratePerMillisecond: configuration.decelerationRate)
        kineticTravelled = 0
        setNeedsDisplay()
    }

    /// Stops a fling (a finger touches down, a click, a key).
    public func stopKinetic() { kinetic = nil }

    /// Whether frames must keep coming (a fling is running).
    public var isAnimating: Bool { kinetic != nil }

    /// Advances a fling to `time`; returns whether it is still running. A fling stops when it
    /// has decelerated or reaches either end of the list.
    @discardableResult
    public func advance(to time: Double) throws -> Bool {
        guard let fling = kinetic else { return false }
        // Whole pixels: the content moves by whole pixels from frame to frame, which lets the
        // window reuse the pixels that stay on screen.
        let distance = fling.distance(at: time).rounded()
        let step = distance - kineticTravelled
        kineticTravelled = distance
        if step != 0 {
            let before = list.contentOffset
            try list.scroll(by: step)
            setNeedsDisplay()
            let after = list.contentOffset
            // The content ended: the offset moved less than asked (clamped).
            if abs((after - before) - step) > 0.5 && (after <= 0 || after >= list.contentHeight - height) { kinetic = nil }
        }
        if fling.isFinished(at: time) { kinetic = nil }
        return kinetic != nil
    }

    /// Scrolls to an absolute offset (the scroll bar was dragged).
    public func scrollBarMoved(to value: Double) {
        guard value.isFinite, value != list.contentOffset else { return }
        kinetic = nil
        list.scroll(to: value)
        setNeedsDisplay()
    }

    /// Scrolls so that item `index` is at `position` (`nearest`: just enough to show it whole,
    /// below a pinned header).
    public func scrollTo(item index: Int, position: RowPosition) throws {
        guard index >= 0 && index < list.itemCount else { return }
        kinetic = nil
        defer { setNeedsDisplay() }
        let inset = headerInset(forItem: index)
        let item = list.item(at: index)
        if inset == 0 && item.kind == .row {
            // No pinned header in the way: the engine lands rows exactly where asked.
            try list.scrollTo(row: item.indexPath, position: position)
            return
        }
        // The item's height becomes exact once it is in view; place it again if it changed.
        for _ in 0..<4 {
            let h = list.height(ofItem: index)
            let target: Double
            switch position {
            case .top: target = inset
            case .middle: target = (height - h) / 2
            case .bottom: target = height - h
            case .nearest:
                let snap = try list.snapshot()
                let y = list.offset(ofItem: index) - snap.offset
                if y < inset || h > height - inset { target = inset }
                else if y + h > height { target = height - h }
                else { return }
            }
            try list.place(item: index, atScreenY: target)
            if list.height(ofItem: index) == h { return }
        }
    }

    /// Height a pinned header takes above item `index` (0 without sticky headers).
    private func headerInset(forItem index: Int) -> Double {
        guard configuration.stickyHeaders else { return 0 }
        let item = list.item(at: index)
        guard item.kind != .header, let header = list.headerIndex(ofSection: item.indexPath.section) else { return 0 }
        let height = (try? list.exactHeight(ofItem: header)) ?? 0
        return pins(headerHeight: height) ? height : 0
    }

    /// Whether a section header this tall is pinned: at most half the viewport. A taller one
    /// scrolls away with its rows — pinned, it covered them (a 1,214 px title over a 600 px
    /// viewport hid its whole section, Page Down moved 1 px, and Down selected rows under it).
    func pins(headerHeight: Double) -> Bool { headerHeight <= height / 2 }

    /// The item index of a row (a flat row number across sections, or a path), or nil.
    public func itemIndex(of reference: RowReference) -> Int? {
        switch reference {
        case .path(let section, let row): return list.index(of: RowPath(section: section, row: row))
        case .flat(var n):
            for section in 0..<list.numberOfSections {
                let rows = list.numberOfRows(inSection: section)
                if n < rows { return list.index(of: RowPath(section: section, row: n)) }
                n -= rows
            }
            return nil
        }
    }

    /// How many rows a script's row numbers can name: "5000 rows in 1 section".
    public var rowCountText: String {
        let sections = list.numberOfSections
        let rows = (0..<sections).reduce(0) { $0 + list.numberOfRows(inSection: $1) }
        return "\(rows) row\(rows == 1 ? "" : "s") in \(sections) section\(sections == 1 ? "" : "s")"
    }

    // MARK: pointer

    /// The item under a point of the viewport (a pinned header covers the rows under it).
    public func hitTest(x: Double, y: Double) -> (index: Int, kind: ListItemKind, path: RowPath)? {
        guard let frame = lastFrame, x >= 0, x < width, y >= 0, y < height else { return nil }
        if let sticky = frame.sticky, y < sticky.screenY + sticky.height {
            return (sticky.index, .header, RowPath(section: sticky.section, row: -1))
        }
        for item in frame.items where y >= frame.screenY(of: item) && y < frame.screenY(of: item) + item.height {
            return (item.index, item.kind, item.indexPath)
        }
        return nil
    }

    /// A press: stops a fling and highlights the row under it (as a table view does).
    public func press(x: Double, y: Double) throws {
        kinetic = nil
        guard let hit = hitTest(x: x, y: y), hit.kind == .row else { return }
        pressed = (hit.index, hit.path, x, y)
        try list.highlight(hit.path)
        setNeedsDisplay()
    }

    /// A release: selects the pressed row if the pointer is still on it, and clears the highlight.
    public func release(x: Double, y: Double) throws {
        guard let press = pressed else { return }
        pressed = nil
        try list.highlight(nil)
        if let hit = hitTest(x: x, y: y), hit.index == press.index {
            try list.select(press.path)
            selected = press.path
        }
        setNeedsDisplay()
    }

    /// Drops a press without selecting (the pointer left, or the list scrolled under it).
    public func cancelPress() throws {
        guard pressed != nil else { return }
        pressed = nil
        try list.highlight(nil)
        setNeedsDisplay()
    }

    // MARK: keys

    /// Handles a navigation key; returns whether it was used. Up/Down move the selection by one
    /// row and scroll just enough to show it; Page Up/Down scroll by ``pageDistance``;
    /// Home/End go to either end; Escape clears the selection; `fps` toggles the readout.
    @discardableResult
    public func handle(_ key: NavigationKey) throws -> Bool {
        kinetic = nil
        switch key {
        case .up, .down:
            guard let target = neighbourRow(of: selected, down: key == .down), let index = list.index(of: target) else { return false }
            try list.select(target)
            selected = target
            try scrollTo(item: index, position: .nearest)
        case .pageUp: try scroll(by: -pageDistance)
        case .pageDown: try scroll(by: pageDistance)
        case .home:
            guard list.itemCount > 0 else { return false }
            try scrollTo(item: 0, position: .top)
        case .end:
            guard list.itemCount > 0 else { return false }
            try scrollTo(item: list.itemCount - 1, position: .bottom)
        case .escape:
            guard selected != nil else { return false }
            try list.select(nil)
            selected = nil
            setNeedsDisplay()
        case .toggleFrameRate:
            showsFrameRate.toggle()
        }
        return true
    }

    /// The row after (or before) `path`, across sections; without a selection, the first
    /// (last) row wholly in view.
    private func neighbourRow(of path: RowPath?, down: Bool) -> RowPath? {
        guard let path else {
            guard let frame = lastFrame else { return nil }
            let inset = frame.sticky.map { $0.screenY + $0.height } ?? 0
            let rows = frame.items.filter { $0.kind == .row }
            let whole = rows.filter { frame.screenY(of: $0) >= inset && frame.screenY(of: $0) + $0.height <= frame.height }
            if let row = (down ? whole.first ?? rows.first : whole.last ?? rows.last)?.indexPath { return row }
            // Only headers on screen (empty sections): the first row below the viewport (the
            // last above it), found section by section, so that the key is never dead.
            guard let edge = down ? frame.items.last : frame.items.first else { return nil }
            var section = edge.indexPath.section
            while section >= 0 && section < list.numberOfSections {
                let count = list.numberOfRows(inSection: section)
                if count > 0 { return RowPath(section: section, row: down ? 0 : count - 1) }
                section += down ? 1 : -1
            }
            return nil
        }
        if down {
            if path.row + 1 < list.numberOfRows(inSection: path.section) { return RowPath(section: path.section, row: path.row + 1) }
            var section = path.section + 1
            while section < list.numberOfSections {
                if list.numberOfRows(inSection: section) > 0 { return RowPath(section: section, row: 0) }
                section += 1
            }
        } else {
            if path.row > 0 { return RowPath(section: path.section, row: path.row - 1) }
            var section = path.section - 1
            while section >= 0 {
                let rows = list.numberOfRows(inSection: section)
                if rows > 0 { return RowPath(section: section, row: rows - 1) }
                section -= 1
            }
        }
        return nil
    }

    // MARK: updates

    /// Inserts `count` new rows above everything (a chat or feed receiving messages). What the
    /// user looks at does not move, except at offset 0 with ``ViewConfiguration/stayAtTopOnInsert``.
    public func insertAtTop(count: Int) throws {
        guard count > 0 else { return }
        let before = list.itemCount
        try list.insertAtTop(count: count, stayAtTop: configuration.stayAtTopOnInsert)
        let inserted = list.itemCount - before
        if let s = selected, s.section == 0 { selected = RowPath(section: 0, row: s.row + inserted) }
        if pressed != nil { try cancelPress() }
        setNeedsDisplay()
    }

    // MARK: frame log

    /// One `--frame-log` line (JSON) for a painted frame: its number, time (s), offset, first
    /// item, paint time (the whole frame's work) and the part of it spent in ``makeFrame()``
    /// (measuring rows that came into view, waiting for the engine).
    public func frameLogLine(_ frame: ViewFrame, number: Int, time: Double, paintMilliseconds: Double,
                             modelMilliseconds: Double? = nil) -> String {
        var first = "null", firstID = "null", firstY = "null"
        if let item = frame.first {
            let kind = item.kind == .row ? "row" : item.kind == .header ? "header" : "footer"
            first = "{\"section\": \(item.indexPath.section), \"row\": \(item.kind == .row ? item.indexPath.row : -1), \"kind\": \"\(kind)\"}"
            firstID = JSONText.string(list.item(at: item.index).id)
            firstY = JSONText.number(frame.screenY(of: item))
        }
        let selectedText = selected.map { "{\"section\": \($0.section), \"row\": \($0.row)}" } ?? "null"
        return "{\"frame\": \(number), \"t\": \(JSONText.number((time * 1e6).rounded() / 1e6)), \"offset\": \(JSONText.number(frame.offset)), "
            + "\"first\": \(first), \"firstId\": \(firstID), \"firstY\": \(firstY), "
            + "\"paintMs\": \(JSONText.number((paintMilliseconds * 1000).rounded() / 1000)), "
            + (modelMilliseconds.map { "\"modelMs\": \(JSONText.number(($0 * 1000).rounded() / 1000)), " } ?? "")
            + "\"width\": \(JSONText.number(frame.width)), \"height\": \(JSONText.number(frame.height)), "
            + "\"contentHeight\": \(JSONText.number(frame.contentHeight)), \"unmeasured\": \(list.unmeasuredCount), "
            + "\"sticky\": \(frame.sticky.map { "{\"section\": \($0.section), \"y\": \(JSONText.number($0.screenY)), \"height\": \(JSONText.number($0.height))}" } ?? "null"), "
            + "\"selected\": \(selectedText)}"
    }
}

