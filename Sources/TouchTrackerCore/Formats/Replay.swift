/// Plays a trace through a fresh TouchTracker, exactly as a host would feed
/// it: the same application, recognizers and views as the browser.
public enum Replay {
  /// Runs every event, then lets the clock run until no timer is pending.
  /// A refused event stops the replay with an error naming it. `observer`
  /// hears every diagnostic record (`--log`, `--inspect`).
  public static func run(
    _ trace: Trace, options: DrawingOptions = DrawingOptions(), observer: ((Double, Diagnostic) -> Void)? = nil
  ) throws(FormatError) -> TouchTrackerApp {
    let app = start(trace, options: options)
    app.application.observer = observer
    for index in trace.events.indices {
      try apply(trace.events[index], at: index, to: app)
    }
    app.settle()
    return app
  }

  /// A fresh app for `trace`, before its first event.
  public static func start(_ trace: Trace, options: DrawingOptions = DrawingOptions()) -> TouchTrackerApp {
    let app = TouchTrackerApp(size: trace.size, options: options)
    app.drawView.twoFingerRules = trace.twoFingerRules
    // A page's recording: its changes were kept aside for others' (see
    // `DrawView.receiveChanges`), so the replay keeps them aside too.
    app.drawView.model.publishesChanges = trace.events.contains {
      switch $0.input {
      case .pending, .received, .confirmed: true
      default: false
      }
    }
    return app
  }

  /// Delivers one event: the clock advances to its time (timers due by then
  /// fire first), then its input. The page's host applies its commands
  /// through here too, so what it records replays the same way.
  public static func apply(_ event: TraceEvent, at index: Int, to app: TouchTrackerApp) throws(FormatError) {
    if case .touches(let touches) = event.input {
      do {
        try app.send(touches, at: event.time)
      } catch {
        throw FormatError("\(error.message) at events[\(index)]")
      }
      return
    }
    app.advanceClock(to: event.time)
    let view = app.drawView
    switch event.input {
    case .none, .touches: break
    case .tap(let title):
      // A tap's menu appears only once the double-tap interval has run out.
      do {
        try app.tap(title: title, at: event.time)
      } catch {
        throw FormatError("\(error.message) at events[\(index)]")
      }
    case .undo: app.undo()
    case .redo: app.redo()
    case .deleteSelection:
      view.deleteSelectedLine()
      app.application.menuController.hideMenu()
    case .deselect: view.deselect()
    case .showPalette: app.controller.showPalette()
    case .hidePalette: app.controller.hidePalette()
    case .cancelTouches: app.application.cancelAllTouches(at: event.time)
    case .chooseColor(let index): _ = app.controller.chooseColor(at: index)
    case .resize(let size): app.resize(to: size)
    case .safeArea(let insets): app.setSafeAreaInsets(insets)
    case .options(let options):
      // The chosen color first: by angle goes back to it when turned off.
      view.options.colorMode = .fixed(options.chosenColor)
      view.options.colorMode = options.colorMode
      view.options.widthMode = options.widthMode
      view.options.penOnlyDraws = options.penOnlyDraws
    case .document(let drawing):
      view.deselect()
      view.load(drawing)
    case .ids(let source): view.model.setIDs(source)
    case .pending(let changes): view.restorePending(changes)
    case .received(let changes): view.receiveChanges(changes)
    case .confirmed(let count): view.model.confirmChanges(count)
    case .withdrawn(let count): view.withdrawChanges(count)
    case .key(let command): view.press(command)
    case .viewport(let offset, let zoom): view.setViewport(offset: offset, zoom: zoom)
    }
  }

  /// `{"drawing": <document>, "state": {...}}`, the replay command's output.
  public static func output(of app: TouchTrackerApp) -> String {
    var state = JSONObjectWriter()
    app.state.write(to: &state)
    var output = JSONObjectWriter()
    output.json("drawing", DocumentCoder.encode(app.drawing))
    output.json("state", state.finish())
    return String(decoding: output.finish(), as: UTF8.self)
  }

}

/// Plays a trace event by event (the page's playback: step, play at a
/// speed, scrub back by starting over; the core is deterministic, so each
/// way ends in the same drawing as `Replay.run`).
public struct TracePlayer {
  public let trace: Trace
  public private(set) var app: TouchTrackerApp
  /// The next event to play.
  public private(set) var next = 0
  /// How far the trace has played on its own clock (the clock itself may
  /// be further on: the end lets pending timers run).
  public private(set) var position: Double

  public init(_ trace: Trace) {
    self.trace = trace
    app = Replay.start(trace)
    position = -.infinity
  }

  public var isFinished: Bool { next >= trace.events.count }
  /// The first event's time and the last's (0 for an empty trace).
  public var startTime: Double { trace.events.first?.time ?? 0 }
  public var endTime: Double { trace.events.last?.time ?? 0 }

  /// Plays the next event; false when there is none.
  @discardableResult
  public mutating func step() throws(FormatError) -> Bool {
    guard !isFinished else { return false }
    try Replay.apply(trace.events[next], at: next, to: app)
    position = max(position, trace.events[next].time)
    next += 1
    if isFinished { app.settle() }
    return true
  }

  /// Plays every event up to and including `time`, then lets the clock
  /// reach it. Returns how many events were played.
  @discardableResult
  public mutating func play(through time: Double) throws(FormatError) -> Int {
    let first = next
    while !isFinished, trace.events[next].time <= time { try step() }
    if !isFinished, time > app.clock.now { app.advanceClock(to: time) }
    position = max(position, time)
    return next - first
  }
}
