import CCairo
import CGtk
import CGtkShim
import Foundation
import RowKitDraw
import RowKitIO
import RowKitList
import RowKitView

/// How a ``ListWindow`` is opened and driven.
public struct WindowOptions {
    /// Size of the list's drawing area (the scroll bar sits to its right).
    public var width: Double = 390, height: Double = 844
    /// No title bar or frame: the drawing area starts at the window's top-left corner.
    public var undecorated = false
    /// The window's title (shown when decorated).
    public var title = "RowKit"
    /// A file getting one JSON line per painted frame (`-`: standard output).
    public var frameLog: String?
    /// Timed actions replayed from the first frame on.
    public var script: [ScriptStep] = []
    /// Close the window this many seconds after the first frame.
    public var quitAfter: Double?
    /// Insert a new row above the viewport every this many seconds (the list's seam makes it).
    public var liveInterval: Double?
    /// The process's start on the monotonic clock (`monotonicNow()`), for the frame log's times.
    public var startTime: Double = ListWindow.monotonicNow()
    /// The script's file name, for warnings about its lines (`steps.txt:4: scroll-to: no row 99`).
    public var scriptName: String?
    /// Where warnings go (a row drawn cut, a script line naming no row): standard error as
    /// `RowKitWindow: warning: …` by default; a program prefixes them with its own name.
    public var warn: (String) -> Void = { message in FileHandle.standardError.write(Data("RowKitWindow: warning: \(message)\n".utf8)) }

    /// The defaults: 390 × 844, decorated, no script, log or live rows.
    public init() {}
}

/// What can stop a window.
public enum WindowError: Error, CustomStringConvertible {
    /// No display server could be opened (DISPLAY / WAYLAND_DISPLAY).
    case noDisplay
    /// GTK or a script failed, with a message.
    case failed(String)

    /// A one-line message naming what went wrong.
    public var description: String {
        switch self {
        case .noDisplay:
            return "cannot open a display: set DISPLAY (X11) or WAYLAND_DISPLAY (Wayland) to a running display server, or run under xvfb-run"
        case .failed(let message): return message
        }
    }
}

/// A GTK4 window showing a RowKit list: one drawing area painted by ``ViewportPainter``, a
/// vertical scroll bar on a GtkAdjustment, and event controllers for the wheel and touchpad
/// (smooth and kinetic), clicks (press highlights, release selects) and keys. All logic lives
/// in the `ListViewModel`; this class only translates between GTK and it.
///
/// Idle means idle: frames are drawn only when something changed, and the frame clock ticks
/// only while a fling runs.
public final class ListWindow {
    /// The view model all logic lives in.
    public let model: ListViewModel
    /// Paints each frame with RowKit's cairo painters.
    public let painter: ViewportPainter
    /// How the window was opened.
    public let options: WindowOptions

    private var window: UnsafeMutablePointer<GtkWidget>!
    private var area: UnsafeMutablePointer<GtkWidget>!
    private var scrollbar: UnsafeMutablePointer<GtkWidget>!
    private var adjustment: UnsafeMutablePointer<GtkAdjustment>!
    private var scrollController: OpaquePointer!
    private var clickGesture: OpaquePointer!
    private var keyController: OpaquePointer!
    private var scrollbarWidth: Int32 = 0

    private var canvas: Canvas?
    private var running = true
    private var drawing = false
    private var updatingAdjustment = false
    private var tickID: guint = 0
    private var frameNumber = 0
    private var firstFrameTime: Double?
    private var nextStep = 0
    private var frameLog: FileHandle?
    private var failure: Error?
    private var backgroundDone = false

    /// Seconds on the monotonic clock GTK's frame clock uses.
    public static func monotonicNow() -> Double { monotonicSeconds() }

    /// Initializes GTK; throws ``WindowError/noDisplay`` when no display can be opened.
    public static func openDisplay() throws(WindowError) {
        guard gtk_init_check() != 0 else { throw .noDisplay }
    }

    /// A window over `model`, drawn by `painter`. Call ``openDisplay()`` first.
    public init(model: ListViewModel, painter: ViewportPainter, options: WindowOptions) {
        self.model = model
        self.painter = painter
        self.options = options
    }

    /// Shows the window and runs the main loop until it is closed, the script quits or
    /// `quitAfter` passes. Throws the first error a frame hit (a row that cannot be drawn).
    public func run() throws {
        if let path = options.frameLog {
            // Opened in place (never FileManager.createFile, which replaces the path with a new
            // file: a symbolic link, a FIFO or, as root, /dev/full would be destroyed).
            // `-` is standard output, as `-` is standard input for every input (it created a file named "-").
            let fd = path == "-" ? fcntl(1, F_DUPFD_CLOEXEC, 3) : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard fd >= 0 else {
                throw WindowError.failed("cannot write the frame log '\(path)': \(String(cString: strerror(errno)))")
            }
            frameLog = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        }
        build(Unmanaged.passUnretained(self).toOpaque())
        let me = MainLoopOnly(value: self)
        model.list.deliverBackgroundResults(through: { job in MainLoop.post(job) },
                                            layoutChanged: { unmeasured in
                                                me.value.scheduleScrollBarUpdate(within: 0.1)
                                                me.value.model.layoutChanged(unmeasured: unmeasured)
                                            })
        model.onWarning = options.warn
        model.onNeedsDisplay = { [unowned self] in
            // Background results still arrive while the loop drains after the window is
            // destroyed: the area is gone then (GTK-CRITICAL on a freed widget).
            guard running else { return }
            if !drawing { gtk_widget_queue_draw(area) }
            if model.isAnimating { startTicking() }
        }
        gtk_window_present(gcast(window))
        while running { g_main_context_iteration(nil, 1) }
        try? frameLog?.close()
        gtk_window_destroy(gcast(window))
        while g_main_context_pending(nil) != 0 { g_main_context_iteration(nil, 0) }
        if let failure { throw failure }
    }

    private func quit() { running = false }

    private func fail(_ error: Error) {
        if failure == nil { failure = error }
        quit()
    }

    // MARK: building

    private func build(_ me: UnsafeMutableRawPointer) {
        window = gtk_window_new()
        gtk_window_set_title(gcast(window), options.title)
        if options.undecorated { gtk_window_set_decorated(gcast(window), 0) }

        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        area = gtk_drawing_area_new()
        gtk_widget_set_hexpand(area, 1)
        gtk_widget_set_vexpand(area, 1)
        gtk_widget_set_focusable(area, 1)
        let draw: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { _, cr, w, h, data in
            Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue().draw(cr!, width: w, height: h)
        }
        gtk_drawing_area_set_draw_func(gcast(area), draw, me, nil)

        adjustment = gtk_adjustment_new(0, 0, 1, 1, 1, 1)
        scrollbar = gtk_scrollbar_new(GTK_ORIENTATION_VERTICAL, adjustment)
        let valueChanged: @convention(c) (UnsafeMutablePointer<GtkAdjustment>?, gpointer?) -> Void = { adjustment, data in
            let window = Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue()
            guard !window.updatingAdjustment else { return }
            window.model.scrollBarMoved(to: gtk_adjustment_get_value(adjustment))
        }
        connect(adjustment, "value-changed", valueChanged, me)
        gtk_box_append(gcast(box), area)
        gtk_box_append(gcast(box), scrollbar)
        gtk_window_set_child(gcast(window), box)

        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(scrollbar, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        scrollbarWidth = natural
        gtk_window_set_default_size(gcast(window), Int32(options.width.rounded()) + scrollbarWidth, Int32(options.height.rounded()))

        addScrollController(me)
        addClickGesture(me)
        addKeyController(me)

        let closeRequest: @convention(c) (UnsafeMutablePointer<GtkWindow>?, gpointer?) -> gboolean = { _, data in
            Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue().quit()
            return 1
        }
        connect(window, "close-request", closeRequest, me)
    }

    /// Wheel (discrete clicks) and touchpad (smooth deltas, then a fling's velocity).
    private func addScrollController(_ me: UnsafeMutableRawPointer) {
        scrollController = gtk_event_controller_scroll_new(GtkEventControllerScrollFlags(rawValue:
            GTK_EVENT_CONTROLLER_SCROLL_VERTICAL.rawValue | GTK_EVENT_CONTROLLER_SCROLL_KINETIC.rawValue))
        let scroll: @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> gboolean = { controller, dx, dy, data in
            let window = Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue()
            let wheel = gtk_event_controller_scroll_get_unit(controller) == GDK_SCROLL_UNIT_WHEEL
            return window.handleScroll(dy: dy, wheel: wheel) ? 1 : 0
        }
        connect(scrollController, "scroll", scroll, me)
        let scrollBegin: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
            Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue().model.stopKinetic()
        }
        connect(scrollController, "scroll-begin", scrollBegin, me)
        let decelerate: @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void = { _, _, vy, data in
            let window = Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue()
            window.model.fling(velocity: vy, at: monotonicSeconds())
        }
        connect(scrollController, "decelerate", decelerate, me)
        gtk_widget_add_controller(area, scrollController)
    }

    /// Click: press highlights, release selects.
    private func addClickGesture(_ me: UnsafeMutableRawPointer) {
        clickGesture = gtk_gesture_click_new()
        let pressed: @convention(c) (OpaquePointer?, Int32, Double, Double, gpointer?) -> Void = { _, _, x, y, data in
            let window = Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue()
            window.perform { try window.model.press(x: x, y: y) }
            gtk_widget_grab_focus(window.area)
        }
        connect(clickGesture, "pressed", pressed, me)
        let released: @convention(c) (OpaquePointer?, Int32, Double, Double, gpointer?) -> Void = { _, _, x, y, data in
            let window = Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue()
            window.perform { try window.model.release(x: x, y: y) }
        }
        connect(clickGesture, "released", released, me)
        // Not "stopped": GtkGestureClick emits it when the double-click time runs out, while a
        // long press is still held. "cancel" is the press being taken away (a grab, a drag).
        let cancel: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
            let window = Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue()
            window.perform { try window.model.cancelPress() }
        }
        connect(clickGesture, "cancel", cancel, me)
        gtk_widget_add_controller(area, clickGesture)
    }

    /// Keys, on the window so that they work wherever the focus is.
    private func addKeyController(_ me: UnsafeMutableRawPointer) {
        keyController = gtk_event_controller_key_new()
        let keyPressed: @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, _, data in
            Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue().handleKey(keyval) ? 1 : 0
        }
        connect(keyController, "key-pressed", keyPressed, me)
        gtk_widget_add_controller(window, keyController)
    }

    /// The navigation key a GDK key value stands for.
    static func navigationKey(_ keyval: guint) -> NavigationKey? {
        switch Int32(keyval) {
        case GDK_KEY_Up, GDK_KEY_KP_Up: return .up
        case GDK_KEY_Down, GDK_KEY_KP_Down: return .down
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: return .pageUp
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: return .pageDown
        case GDK_KEY_Home, GDK_KEY_KP_Home: return .home
        case GDK_KEY_End, GDK_KEY_KP_End: return .end
        case GDK_KEY_Escape: return .escape
        case GDK_KEY_f, GDK_KEY_F, GDK_KEY_F12: return .toggleFrameRate
        default: return nil
        }
    }

    /// The GDK key value a script's key name stands for.
    static func keyval(_ key: NavigationKey) -> guint {
        let value: Int32
        switch key {
        case .up: value = GDK_KEY_Up
        case .down: value = GDK_KEY_Down
        case .pageUp: value = GDK_KEY_Page_Up
        case .pageDown: value = GDK_KEY_Page_Down
        case .home: value = GDK_KEY_Home
        case .end: value = GDK_KEY_End
        case .escape: value = GDK_KEY_Escape
        case .toggleFrameRate: value = GDK_KEY_f
        }
        return guint(value)
    }

    /// Runs a model action; an error (a row that cannot be measured) ends the window with it.
    private func perform(_ body: () throws -> Void) {
        do { try body() } catch { fail(error) }
    }

    private func handleKey(_ keyval: guint) -> Bool {
        guard let key = Self.navigationKey(keyval) else { return false }
        do { return try model.handle(key) } catch { fail(error); return true }
    }

    private func advanceFling(to time: Double) -> Bool {
        do { return try model.advance(to: time) } catch { fail(error); return false }
    }

    private func handleScroll(dy: Double, wheel: Bool) -> Bool {
        perform { wheel ? try model.wheel(clicks: dy) : try model.scroll(by: dy) }
        return true
    }

    // MARK: frames

    private func startTicking() {
        guard tickID == 0 else { return }
        let tick: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { _, clock, data in
            let window = Unmanaged<ListWindow>.fromOpaque(data!).takeUnretainedValue()
            let time = Double(gdk_frame_clock_get_frame_time(clock)) / 1_000_000
            let more = window.advanceFling(to: time)
            if !more { window.tickID = 0 }
            return more ? 1 : 0
        }
        tickID = gtk_widget_add_tick_callback(area, tick, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private func draw(_ cr: OpaquePointer, width: Int32, height: Int32) {
        guard running else { return }
        let start = monotonicSeconds()
        drawing = true
        defer { drawing = false }
        do {
            model.resize(width: Double(width), height: Double(height))
            let frame = try model.makeFrame()
            let framed = monotonicSeconds()
            let scale = Double(gtk_widget_get_scale_factor(area))
            if canvas == nil || canvas!.width != frame.width || canvas!.height != frame.height || canvas!.scale != scale {
                canvas = try Canvas(offscreenWidth: frame.width, height: frame.height, scale: scale)
            }
            let canvas = canvas!
            try painter.paint(frame, into: canvas, readout: model.showsFrameRate ? model.frameRateText(at: start) : nil)
            ViewportPainter.present(canvas, to: cr)
            let end = monotonicSeconds()
            let paintMs = (end - start) * 1000
            model.recordFrame(paintMilliseconds: paintMs, at: end)
            frameNumber += 1
            if let frameLog {
                let line = model.frameLogLine(frame, number: frameNumber, time: end - options.startTime, paintMilliseconds: paintMs,
                                              modelMilliseconds: (framed - start) * 1000) + "\n"
                do { try frameLog.write(contentsOf: Data(line.utf8)) } catch {
                    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
                    // A system error is an OutputError, so a reader that went away (`--frame-log -
                    // | head`) ends quietly with status 1, as for every other output.
                    if let underlying, underlying.domain == NSPOSIXErrorDomain {
                        throw OutputError(target: "the frame log '\(options.frameLog ?? "")'", doing: "cannot write", code: Int32(underlying.code))
                    }
                    throw WindowError.failed("cannot write the frame log '\(options.frameLog ?? "")': \(error)")
                }
            }
            // Not during the snapshot: reconfiguring the scroll bar reallocates it.
            scheduleScrollBarUpdate()
            if firstFrameTime == nil {
                firstFrameTime = end
                startTimers()
            }
            // The readout shows the frame rate: keep it fresh while it is on screen.
            if model.showsFrameRate && !readoutRefreshPending {
                readoutRefreshPending = true
                MainLoop.after(0.5) { [weak self] in self?.refreshReadout() }
            }
        } catch {
            fail(error)
        }
    }

    private var readoutRefreshPending = false
    private func refreshReadout() {
        readoutRefreshPending = false
        if model.showsFrameRate && running { gtk_widget_queue_draw(area) }
    }

    private var scrollBarUpdatePending = false, slowScrollBarUpdatePending = false
    /// Updates the scroll bar at the next idle moment (after a frame), or within `delay` seconds
    /// (background results arrive in bursts: a few updates a second are enough, and each costs
    /// the scroll bar a layout).
    private func scheduleScrollBarUpdate(within delay: Double = 0) {
        if delay > 0 {
            guard !slowScrollBarUpdatePending else { return }
            slowScrollBarUpdatePending = true
            MainLoop.after(delay) { [weak self] in
                self?.slowScrollBarUpdatePending = false
                self?.updateScrollBar()
            }
        } else {
            guard !scrollBarUpdatePending else { return }
            scrollBarUpdatePending = true
            MainLoop.idle { [weak self] in
                self?.scrollBarUpdatePending = false
                self?.updateScrollBar()
            }
        }
    }

    private var shownScrollBar: ScrollBarGeometry?
    private func updateScrollBar() {
        guard running else { return }   // the widgets go when the loop ends
        let bar = model.scrollBar
        guard bar != shownScrollBar else { return }
        shownScrollBar = bar
        updatingAdjustment = true
        gtk_adjustment_configure(adjustment, bar.value, 0, bar.upper, bar.stepIncrement, bar.pageIncrement, bar.pageSize)
        updatingAdjustment = false
    }

    // MARK: background measuring, live rows, scripts

    /// Measures every row in the background. The engine reports new heights through the main
    /// loop (``ListSeam/deliverBackgroundResults(through:layoutChanged:)``), which moves the
    /// scroll bar; it is exact when done.
    private func startBackgroundMeasurement() {
        guard model.list.unmeasuredCount > 0 else { backgroundDone = true; return }
        backgroundDone = false
        let me = MainLoopOnly(value: self)
        model.list.measureInBackground { error in
            // Runs on the main loop (the engine's executor).
            let window = me.value
            window.backgroundDone = true
            if let error { window.fail(error) } else { window.scheduleScrollBarUpdate() }
        }
    }

    /// Inserts new rows above everything and measures them in the background.
    private func insertRows(_ count: Int) {
        perform { try model.insertAtTop(count: count) }
        if backgroundDone { startBackgroundMeasurement() }
    }

    /// After the first frame: the rows on screen come first, then the rest of the list.
    private func startTimers() {
        startBackgroundMeasurement()
        if let seconds = options.quitAfter { MainLoop.after(seconds) { [weak self] in self?.quit() } }
        if let interval = options.liveInterval { scheduleLive(interval) }
        scheduleNextStep()
    }

    private func scheduleLive(_ interval: Double) {
        MainLoop.after(interval) { [weak self] in
            guard let self, running else { return }
            insertRows(1)
            scheduleLive(interval)
        }
    }

    private func scheduleNextStep() {
        guard nextStep < options.script.count, let first = firstFrameTime else { return }
        let due = first + options.script[nextStep].time
        MainLoop.after(max(0, due - monotonicSeconds())) { [weak self] in
            guard let self, running else { return }
            while nextStep < options.script.count && first + options.script[nextStep].time <= monotonicSeconds() + 0.0005 {
                let step = options.script[nextStep]
                nextStep += 1
                perform(step.action, line: step.line)
            }
            scheduleNextStep()
        }
    }

    /// Replays one scripted action through the handlers real input reaches.
    private func perform(_ action: ScriptAction, line: Int) {
        switch action {
        case .scroll(let dy): _ = handleScroll(dy: dy, wheel: false)
        case .wheel(let clicks): _ = handleScroll(dy: Double(clicks), wheel: true)
        case .fling(let velocity): rk_emit_decelerate(scrollController, 0, velocity)
        case .scrollTo(let reference, let position):
            guard let index = model.itemIndex(of: reference) else {
                let place = options.scriptName.map { "\($0):\(line): " } ?? "script line \(line): "
                options.warn("\(place)scroll-to: no row \(reference) (\(model.rowCountText))")
                return
            }
            perform { try model.scrollTo(item: index, position: position) }
        case .click(let x, let y):
            rk_emit_click(clickGesture, 0, 1, x, y)
            rk_emit_click(clickGesture, 1, 1, x, y)
        case .press(let x, let y): rk_emit_click(clickGesture, 0, 1, x, y)
        case .release(let x, let y): rk_emit_click(clickGesture, 1, 1, x, y)
        case .key(let key): _ = rk_emit_key_pressed(keyController, Self.keyval(key), 0, GdkModifierType(rawValue: 0))
        case .resize(let width, let height):
            gtk_window_set_default_size(gcast(window), Int32(width.rounded()) + scrollbarWidth, Int32(height.rounded()))
        case .insert(let count): insertRows(count)
        case .quit: quit()
        }
    }
}
