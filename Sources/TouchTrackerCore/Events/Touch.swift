/// A snapshot of one finger (or pen, or mouse) at one moment.
///
/// UIKit's `UITouch` is one mutable object per finger; here each message
/// carries value snapshots, and `identity` plays the role of object identity.
/// Snapshots matter because a gesture recognizer can hold a touch back
/// (`delaysTouchesBegan`) and deliver it later exactly as it was when it
/// happened, so a line begins where the finger really touched down.
public struct Touch {
  /// Unique for the life of the application, even when the host reuses its
  /// pointer ids: a touch whose end is still held back by a recognizer must
  /// not be confused with a new touch of the same host id.
  public let identity: TouchIdentity
  /// The host's id (the pointer id in the browser, the trace's `id`).
  public let hostID: Int
  public internal(set) var phase: TouchPhase
  /// Location in window coordinates.
  public internal(set) var locationInWindow: Point
  public internal(set) var previousLocationInWindow: Point
  /// Seconds on the application's clock.
  public internal(set) var timestamp: Double
  /// How many quick successive taps at one place this touch is part of (1 for the first).
  public internal(set) var tapCount: Int
  /// The view the touch began in; it owns the touch for its whole life, even
  /// when the finger moves outside it.
  public let view: View?

  init(identity: TouchIdentity, hostID: Int, location: Point, timestamp: Double, tapCount: Int, view: View?) {
    self.identity = identity
    self.hostID = hostID
    self.phase = .began
    self.locationInWindow = location
    self.previousLocationInWindow = location
    self.timestamp = timestamp
    self.tapCount = tapCount
    self.view = view
  }

  /// The location in `view`'s coordinates, or in window coordinates for nil.
  public func location(in view: View?) -> Point {
    view?.convert(fromWindow: locationInWindow) ?? locationInWindow
  }

  /// The location of the previous snapshot in `view`'s coordinates.
  public func previousLocation(in view: View?) -> Point {
    view?.convert(fromWindow: previousLocationInWindow) ?? previousLocationInWindow
  }
}

/// The identity of one touch from began to ended or cancelled.
public struct TouchIdentity: Hashable, Comparable, Sendable {
  public let serial: Int
  public static func < (a: TouchIdentity, b: TouchIdentity) -> Bool { a.serial < b.serial }
}
