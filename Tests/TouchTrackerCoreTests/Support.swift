import TouchTrackerCore

/// A view that writes down every touch message it gets, as "began 1,2".
final class RecordingView: View {
  var messages: [String] = []
  var forwards = false
  var locations: [String: [Point]] = [:]

  private func record(_ phase: String, _ touches: [Touch]) {
    messages.append("\(phase) \(touches.map { String($0.hostID) }.joined(separator: ","))")
    locations[phase, default: []].append(contentsOf: touches.map { $0.location(in: self) })
  }

  override func touchesBegan(_ touches: [Touch], with event: Event) {
    record("began", touches)
    if forwards { super.touchesBegan(touches, with: event) }
  }
  override func touchesMoved(_ touches: [Touch], with event: Event) {
    record("moved", touches)
    if forwards { super.touchesMoved(touches, with: event) }
  }
  override func touchesEnded(_ touches: [Touch], with event: Event) {
    record("ended", touches)
    if forwards { super.touchesEnded(touches, with: event) }
  }
  override func touchesCancelled(_ touches: [Touch], with event: Event) {
    record("cancelled", touches)
    if forwards { super.touchesCancelled(touches, with: event) }
  }
}

/// Records the actions it is sent, with the recognizer's state when it came.
final class ActionRecorder: Responder {
  var received: [String] = []
  override func perform(_ action: Action, withSender sender: AnyObject?) {
    let state = (sender as? GestureRecognizer)?.state.name ?? "-"
    received.append("\(action.name) \(state)")
  }
  override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool { true }
}

/// An application with one full-window recording view, for delivery tests.
func makeApplication(size: Size = Size(width: 400, height: 400)) -> (Application, RecordingView) {
  let application = Application(windowSize: size)
  let view = RecordingView(frame: Rect(origin: .zero, size: size))
  view.isMultipleTouchEnabled = true
  application.window.addSubview(view)
  return (application, view)
}

func began(_ id: Int, _ x: Double, _ y: Double) -> TouchInput { TouchInput(id: id, phase: .began, x: x, y: y) }
func moved(_ id: Int, _ x: Double, _ y: Double) -> TouchInput { TouchInput(id: id, phase: .moved, x: x, y: y) }
func ended(_ id: Int, _ x: Double, _ y: Double) -> TouchInput { TouchInput(id: id, phase: .ended, x: x, y: y) }
func cancelled(_ id: Int, _ x: Double, _ y: Double) -> TouchInput { TouchInput(id: id, phase: .cancelled, x: x, y: y) }

extension TouchTrackerApp {
  /// An app with one finished horizontal line from (100, 100) to (300, 100), its clock at 1 s.
  static func withOneLine() throws -> TouchTrackerApp {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
    app.advanceClock(to: 1)
    return app
  }

  /// One finger drawing a straight line from `a` to `b`, starting at `time`.
  func drawLine(from a: Point, to b: Point, id: Int = 1, at time: Double) throws {
    try send([TouchInput(id: id, phase: .began, location: a)], at: time)
    try send(
      [TouchInput(id: id, phase: .moved, location: Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))], at: time + 0.02)
    try send([TouchInput(id: id, phase: .moved, location: b)], at: time + 0.04)
    try send([TouchInput(id: id, phase: .ended, location: b)], at: time + 0.06)
  }

  /// One quick tap at `point`.
  func tap(at point: Point, id: Int = 9, time: Double) throws {
    try send([TouchInput(id: id, phase: .began, location: point)], at: time)
    try send([TouchInput(id: id, phase: .ended, location: point)], at: time + 0.05)
  }
}

/// The book's event-order log of DrawView, made from the diagnostic records
/// (it was a log DrawView wrote itself): each touch message DrawView got,
/// "touchesBegan(_:with:) [1, 2]", and each action it performed,
/// "doubleTap(_:)", "longPress(_:) began" (with the long press's state).
final class BookLog {
  private(set) var entries: [String] = []
  private var longPressState = "possible"

  init(_ app: TouchTrackerApp) {
    // Strong: the app outlives this log and reports while it goes (cancelling its touches).
    app.application.observer = { [self] _, record in
      switch record {
      case .touchesSent(_, let view, _) where view == "DrawView":
        entries.append(record.text)
      case .transition(let recognizer, _, let to, _) where recognizer == "long press":
        longPressState = to.name
      case .actionSent(let action, _, _, let handler) where handler == "DrawView" && action != "moveLine:":
        let method = String(action.dropLast()) + "(_:)"
        entries.append(action == "longPress:" ? "\(method) \(longPressState)" : method)
      default:
        break
      }
    }
  }
}
