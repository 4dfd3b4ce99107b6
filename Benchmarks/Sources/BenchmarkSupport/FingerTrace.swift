import TouchTrackerCore

/// Ten fingers drawing: the touch-throughput trace. Every stroke puts ten
/// fingers down in one event, moves all ten together `steps` times (120
/// events a second, as a fast touch screen reports) and lifts them in one
/// event; strokes are two seconds apart so no tap or long press is pending.
///
/// Positions use only additions and multiplications of exactly representable
/// numbers, so `Benchmarks/wasm/touch-throughput.mjs` computes the very same
/// trace in JavaScript (the node run checks it ends with the same drawing).
public struct FingerTrace: Sendable {
  public static let fingers = 10
  public static let steps = 100
  public static let windowSize = Size(width: 1280, height: 720)

  public struct Event: Sendable {
    public var time: Double
    public var touches: [TouchInput]
  }

  public let strokes: Int
  public let events: [Event]

  public init(strokes: Int) {
    self.strokes = strokes
    var events: [Event] = []
    events.reserveCapacity(strokes * (FingerTrace.steps + 2))
    for stroke in 0..<strokes {
      let start = Double(stroke) * 2.0
      func touches(_ phase: TouchPhase, step: Int) -> [TouchInput] {
        (0..<FingerTrace.fingers).map { finger in
          TouchInput(
            id: finger + 1, phase: phase,
            location: FingerTrace.position(stroke: stroke, finger: finger, step: step))
        }
      }
      events.append(Event(time: start, touches: touches(.began, step: 0)))
      for step in 1...FingerTrace.steps {
        events.append(Event(time: start + Double(step) / 120, touches: touches(.moved, step: step)))
      }
      events.append(
        Event(time: start + Double(FingerTrace.steps + 1) / 120, touches: touches(.ended, step: FingerTrace.steps)))
    }
    self.events = events
  }

  /// Where finger `finger` is after `step` moves of stroke `stroke`.
  public static func position(stroke: Int, finger: Int, step: Int) -> Point {
    Point(
      x: Double(40 + 120 * finger) + Double(step) * 0.75,
      y: Double(40 + 8 * (stroke % 10)) + Double(step) * 5.5)
  }

  /// Touch updates in the trace: every began, moved and ended touch.
  public var updateCount: Int { events.reduce(0) { $0 + $1.touches.count } }

  /// Sends the whole trace through the app, as a host would.
  public func play(on app: TouchTrackerApp) {
    for event in events {
      try! app.send(event.touches, at: event.time)
    }
  }
}

/// The classic TouchTracker's touch handling (Big Nerd Ranch's DrawView):
/// a dictionary of lines in progress keyed by touch, updated per touch, a
/// finished line appended on lift. No hit-testing, responders, gesture
/// recognizers or held touches: the floor that the engine's work is
/// measured against.
public final class ClassicTouchHandler {
  public private(set) var currentLines: [Int: Line] = [:]
  public private(set) var finishedLines: [Line] = []
  public private(set) var needsDisplay = false

  public init() {}

  public func handle(_ touches: [TouchInput]) {
    for touch in touches {
      switch touch.phase {
      case .began:
        currentLines[touch.id] = Line(begin: touch.location, end: touch.location, color: .red)
      case .moved, .stationary:
        currentLines[touch.id]?.end = touch.location
      case .ended:
        if var line = currentLines.removeValue(forKey: touch.id) {
          line.end = touch.location
          line.color = .black
          finishedLines.append(line)
        }
      case .cancelled:
        currentLines[touch.id] = nil
      }
    }
    needsDisplay = true
  }

  public func play(_ trace: FingerTrace) {
    for event in trace.events { handle(event.touches) }
  }
}
