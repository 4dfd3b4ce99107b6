/// Where a touch is in its life. A touch begins once, may move or stay
/// stationary many times, and ends or is cancelled once.
///
/// The raw values are the numbers the browser page uses (`tt_touch`, `PHASE`
/// in Web/core/bridge.js; `PageInterfaceTests` holds the two together).
public enum TouchPhase: Int32, Hashable, Sendable, CaseIterable {
  case began = 0
  case moved = 1
  case stationary = 2
  case ended = 3
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
