import TouchKitTestSupport
import TouchTrackerCore

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
