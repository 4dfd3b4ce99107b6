/// Where a touch is in its life. A touch begins once, may move or stay
/// stationary many times, and ends or is cancelled once.
///
/// The raw values are the numbers the browser page uses (`tt_touch`, `PHASE`
/// in Web/core/bridge.js; `PageInterfaceTests` holds the two together).
public enum TouchPhase: Int32, Hashable, Sendable, CaseIterable {
  /// The touch came down.
  case began = 0
  /// The touch moved since the previous event.
  case moved = 1
  /// The touch is down and did not move. A host may report it with touches
  /// that moved; it is in the event's `allTouches` (as every touch down is),
  /// but no touch message carries it.
  case stationary = 2
  /// The touch lifted.
  case ended = 3
  /// The touch was cancelled: the host lost it, or, for a view, a gesture
  /// recognizer took it or the view left the window.
  case cancelled = 4

  /// The name used in traces and in the event-order log.
  public var name: String {
    switch self {
    case .began: "began"
    case .moved: "moved"
    case .stationary: "stationary"
    case .ended: "ended"
    case .cancelled: "cancelled"
    }
  }

  /// The phase whose ``name`` is `name`; nil for any other text.
  public init?(name: String) {
    switch name {
    case "began": self = .began
    case "moved": self = .moved
    case "stationary": self = .stationary
    case "ended": self = .ended
    case "cancelled": self = .cancelled
    default: return nil
    }
  }

  /// Whether the touch is over once it reaches this phase.
  public var isFinal: Bool { self == .ended || self == .cancelled }
}
