/// Plays a trace through a fresh TouchTracker, exactly as a host would feed
/// it: the same application, recognizers and views as the browser.
public enum Replay {
  /// Runs every event, then lets the clock run until no timer is pending.
  /// A refused event stops the replay with an error naming it. `observer`
  /// hears every diagnostic record (`--log`, `--inspect`).
  public static func run(
    _ trace: Trace, options: DrawingOptions = DrawingOptions(), observer: ((Double, Diagnostic) -> Void)? = nil
  ) throws(FormatError) -> TouchTrackerApp {
    let app = TouchTrackerApp(size: trace.size, options: options)
    app.application.observer = observer
    for (index, event) in trace.events.enumerated() {
      switch event.input {
      case .none:
        app.advanceClock(to: event.time)
      case .touches(let touches):
        do {
          try app.send(touches, at: event.time)
        } catch {
          throw FormatError("\(error.message) at events[\(index)]")
        }
      case .tap(let title):
        // Timers due by then fire first: a tap's menu appears only once the
        // double-tap interval has run out.
        app.advanceClock(to: event.time)
        do {
          try app.tap(title: title, at: event.time)
        } catch {
          throw FormatError("\(error.message) at events[\(index)]")
        }
      case .undo:
        app.advanceClock(to: event.time)
        app.undo()
      case .redo:
        app.advanceClock(to: event.time)
        app.redo()
      }
    }
    app.settle()
    return app
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
