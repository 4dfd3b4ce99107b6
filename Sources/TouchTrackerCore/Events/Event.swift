/// One touch event: the touches that changed together, plus every other touch
/// that was down at that moment.
public struct Event {
  public let timestamp: Double
  /// Every touch down during this event, changed or not, in the order they began.
  public let allTouches: [Touch]

  public init(timestamp: Double, allTouches: [Touch]) {
    self.timestamp = timestamp
    self.allTouches = allTouches
  }

  /// The touches of this event that belong to `view`.
  public func touches(for view: View) -> [Touch] {
    allTouches.filter { $0.view === view }
  }
}

/// What a host reports about one touch: its id, its phase and where it is in
/// window coordinates.
public struct TouchInput: Hashable, Sendable {
  public var id: Int
  public var phase: TouchPhase
  public var location: Point

  public init(id: Int, phase: TouchPhase, location: Point) {
    self.id = id
    self.phase = phase
    self.location = location
  }

  public init(id: Int, phase: TouchPhase, x: Double, y: Double) {
    self.init(id: id, phase: phase, location: Point(x: x, y: y))
  }
}

/// Input the application refuses, so a broken host or trace cannot corrupt
/// the responders' view of which fingers are down.
public enum TouchInputError: Error, Equatable, Sendable {
  case nonFiniteLocation(id: Int)
  case alreadyBegan(id: Int)
  case notBegan(id: Int, phase: TouchPhase)
  case duplicate(id: Int)
  case timeWentBack(from: Double, to: Double)
  case nonFiniteTime

  /// One sentence naming the problem, for people.
  public var message: String {
    switch self {
    case .nonFiniteLocation(let id): "Touch \(id) has a non-finite location"
    case .alreadyBegan(let id): "Touch \(id) began again before it ended"
    case .notBegan(let id, let phase):
      "Touch \(id) \(phase == .stationary ? "was stationary" : phase.name) before it began"
    case .duplicate(let id): "Touch \(id) appears twice in one event"
    case .timeWentBack(let from, let to): "Time went back from \(JSONNumber.format(from)) to \(JSONNumber.format(to))"
    case .nonFiniteTime: "Time is not a finite number"
    }
  }
}
