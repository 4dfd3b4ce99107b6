import TouchTrackerCore

/// Ten fingers already down and drawing, moved together: the steady state
/// of the touch path, where issue 15 asks for no allocation at all.
///
/// `init` puts the fingers down and moves them until every recognizer has
/// decided (the pan recognizing, the taps and the long press failed) and the
/// lines are being drawn. Each `nextEvents(_:)` then continues the same
/// strokes, events 1/120 s apart, built before they are timed so that only
/// `send` is measured.
public final class SteadyMoves {
  public static let fingers = 10
  public let app: TouchTrackerApp
  /// The same moves through the classic handler (a dictionary of lines), the baseline.
  public let classic = ClassicTouchHandler()
  private var step = 0
  private var time = 0.0

  public init() {
    app = TouchTrackerApp(size: FingerTrace.windowSize)
    let began = touches(.began)
    try! app.send(began, at: time)
    classic.handle(began)
    for _ in 0..<10 {
      let event = nextEvent()
      try! app.send(event.touches, at: event.time)
      classic.handle(event.touches)
    }
    precondition(app.drawView.linesInProgressCount == SteadyMoves.fingers, "every finger must be drawing")
  }

  /// The next `count` events of the strokes (10 moved touches each).
  public func nextEvents(_ count: Int) -> [FingerTrace.Event] {
    (0..<count).map { _ in nextEvent() }
  }

  /// Sends `events` through the app, as a host would.
  public func play(_ events: [FingerTrace.Event]) {
    for event in events { try! app.send(event.touches, at: event.time) }
  }

  /// Sends `events` through the classic handler.
  public func playClassic(_ events: [FingerTrace.Event]) {
    for event in events { classic.handle(event.touches) }
  }

  private func nextEvent() -> FingerTrace.Event {
    step += 1
    time += 1.0 / 120
    return FingerTrace.Event(time: time, touches: touches(.moved))
  }

  /// Back and forth across 400 x 200 points, so the strokes stay on screen however long they run.
  private func touches(_ phase: TouchPhase) -> [TouchInput] {
    let phaseStep = step % 400
    let along = Double(phaseStep < 200 ? phaseStep : 400 - phaseStep)
    return (0..<SteadyMoves.fingers).map { finger in
      TouchInput(
        id: finger + 1, phase: phase,
        location: Point(x: Double(40 + 120 * finger) + along * 0.75, y: 40 + along * 2.5))
    }
  }
}
