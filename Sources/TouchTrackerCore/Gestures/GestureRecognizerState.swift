/// The state machine of a gesture recognizer, as in UIKit.
///
/// Discrete gestures (tap, swipe): possible -> recognized | failed.
/// Continuous gestures (long press, pan): possible -> began -> changed* ->
/// ended | cancelled, or possible -> failed.
public enum GestureRecognizerState: Hashable, Sendable {
  case possible
  case began
  case changed
  case ended
  case cancelled
  case failed

  /// A discrete gesture's success is the same state as a continuous one's end.
  public static let recognized = GestureRecognizerState.ended

  public var name: String {
    switch self {
    case .possible: "possible"
    case .began: "began"
    case .changed: "changed"
    case .ended: "ended"
    case .cancelled: "cancelled"
    case .failed: "failed"
    }
  }

  /// Whether the recognizer is done with this sequence of touches and waits for a reset.
  var isFinished: Bool { self == .ended || self == .cancelled || self == .failed }

  /// Whether a continuous gesture is in progress.
  var isActive: Bool { self == .began || self == .changed }
}

/// Lets an object outside a recognizer decide whether it may begin and
/// whether it may recognize together with another recognizer.
public protocol GestureRecognizerDelegate: AnyObject {
  /// Returning false makes the recognizer fail instead of beginning.
  func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool
  /// Returning true lets both recognize at once. Either side saying yes is enough.
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer)
    -> Bool
}
