/// Where a touch is in its life. A touch begins once, may move or stay
/// stationary many times, and ends or is cancelled once.
public enum TouchPhase: Hashable, Sendable {
  case began
  case moved
  case stationary
  case ended
  case cancelled

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
