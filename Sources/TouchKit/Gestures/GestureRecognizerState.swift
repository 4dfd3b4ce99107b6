/// The state machine of a gesture recognizer, as in UIKit.
///
/// Discrete gestures (tap, swipe): possible -> recognized | failed.
/// Continuous gestures (long press, pan): possible -> began -> changed* ->
/// ended | cancelled, or possible -> failed.
public enum GestureRecognizerState: Hashable, Sendable {
  /// The recognizer has not decided yet: the state it starts in, and goes
  /// back to when it is reset.
  case possible
  /// A continuous gesture was recognized and has begun; the actions are sent.
  case began
  /// A continuous gesture changed; the actions are sent.
  case changed
  /// A continuous gesture ended, or a discrete one was recognized (the same
  /// state as ``recognized``); the actions are sent.
  case ended
  /// A continuous gesture was cancelled (its touches were cancelled, or its
  /// recognizer was disabled); the actions are sent.
  case cancelled
  /// The touches are not this gesture; no action is sent.
  case failed

  /// A discrete gesture's success is the same state as a continuous one's end.
  public static let recognized = GestureRecognizerState.ended

  /// The state's name as diagnostics show it: "possible", "began", "changed",
  /// "ended", "cancelled" or "failed".
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
  public var isActive: Bool { self == .began || self == .changed }
}

/// Lets an object outside a recognizer decide whether it may begin, whether
/// it may recognize together with another recognizer, which recognizers it
/// waits for and which touches it sees.
///
/// The last three have UIKit's defaults (in an extension), so a delegate
/// implements only what it needs.
public protocol GestureRecognizerDelegate: AnyObject {
  /// Returning false makes the recognizer fail instead of beginning.
  func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool
  /// Returning true lets both recognize at once. Either side saying yes is enough.
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer)
    -> Bool
  /// Returning true makes `recognizer` wait for `other` to fail, as
  /// `require(toFail:)` would, for this recognition attempt only (asked again
  /// at every attempt). Asked about recognizers that saw a touch of
  /// `recognizer`. False (the default) does not rule the requirement out:
  /// `other`'s delegate may still set it up with
  /// `gestureRecognizer(_:shouldBeRequiredToFailBy:)`.
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool
  /// Returning true makes `other` wait for `recognizer` to fail: the same
  /// requirement as above, set up from the other side. Default false.
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool
  /// Returning false keeps a beginning touch from `recognizer` for its whole
  /// life: the recognizer never sees it, never competes for it, and never
  /// delays or cancels it in its view. Asked before `touchesBegan`. Default true.
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool
}

extension GestureRecognizerDelegate {
  public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer)
    -> Bool
  { false }

  public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer)
    -> Bool
  { false }

  public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }
}
