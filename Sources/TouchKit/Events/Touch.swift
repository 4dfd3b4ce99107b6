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
  /// What the touch did in the event this snapshot belongs to (UIKit's `phase`).
  public internal(set) var phase: TouchPhase
  /// Location in window coordinates.
  public internal(set) var locationInWindow: Point
  /// Where the touch was at its previous snapshot, in window coordinates:
  /// its location in the event before this one, or where it came down for a
  /// began touch (UIKit's `previousLocation(in: nil)`).
  public internal(set) var previousLocationInWindow: Point
  /// Seconds on the application's clock.
  public internal(set) var timestamp: Double
  /// How many quick successive taps at one place this touch is part of (1 for the first).
  public internal(set) var tapCount: Int
  /// The view the touch began in; it owns the touch for its whole life, even
  /// when the finger moves outside it.
  public let view: View?
  /// What made the touch (a finger, a pen); fixed when it begins, as in UIKit.
  public let type: TouchType
  /// Force, the pen's angles: see `TouchHardware`.
  public internal(set) var hardware: TouchHardware

  init(
    identity: TouchIdentity, hostID: Int, location: Point, timestamp: Double, tapCount: Int, view: View?,
    type: TouchType = .direct, hardware: TouchHardware = .unknown
  ) {
    self.identity = identity
    self.hostID = hostID
    self.phase = .began
    self.locationInWindow = location
    self.previousLocationInWindow = location
    self.timestamp = timestamp
    self.tapCount = tapCount
    self.view = view
    self.type = type
    self.hardware = hardware
  }

  /// UIKit's force: 1.0 is an average touch; 0 when the host cannot tell.
  public var force: Double { hardware.force }
  /// The most force the host can report; 0 when it reports none.
  public var maximumPossibleForce: Double { hardware.maximumPossibleForce }
  /// A pen's angle to the screen: π/2 perpendicular (a finger), 0 flat.
  public var altitudeAngle: Double { hardware.altitudeAngle }

  /// The direction a pen points along the screen, in `view`'s coordinates
  /// (window coordinates for nil), in radians clockwise from its positive x
  /// axis. Found by converting a step along the window's azimuth, so it
  /// follows whatever the conversion does (UIKit's `azimuthAngle(in:)`).
  public func azimuthAngle(in view: View?) -> Double {
    guard let view else { return hardware.azimuth }
    let direction = Point(x: Trigonometry.cos(hardware.azimuth), y: Trigonometry.sin(hardware.azimuth))
    let from = view.convert(fromWindow: locationInWindow)
    let to = view.convert(
      fromWindow: Point(x: locationInWindow.x + direction.x, y: locationInWindow.y + direction.y))
    // atan2's -π...π, turned into the window's 0..<2π.
    let angle = Trigonometry.atan2(to.y - from.y, to.x - from.x)
    return angle < 0 ? angle + 2 * Double.pi : angle
  }

  /// A unit vector along `azimuthAngle(in:)` (UIKit's `azimuthUnitVector(in:)`).
  public func azimuthUnitVector(in view: View?) -> Point {
    let angle = azimuthAngle(in: view)
    return Point(x: Trigonometry.cos(angle), y: Trigonometry.sin(angle))
  }

  /// This touch as it was at `sample` (a coalesced or predicted snapshot),
  /// having come from `previous`.
  func at(_ sample: TouchSample, from previous: Point) -> Touch {
    var touch = self
    touch.previousLocationInWindow = previous
    touch.locationInWindow = sample.location
    touch.timestamp = sample.timestamp
    touch.hardware = sample.hardware
    return touch
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
  /// The touch's number: the application numbers touches 1, 2, 3, … in
  /// the order they begin, and never reuses a number.
  public let serial: Int
  public static func < (a: TouchIdentity, b: TouchIdentity) -> Bool { a.serial < b.serial }
}
