/// What made a touch: UIKit's `UITouch.TouchType` without the prefix.
///
/// The raw values are the numbers the page passes to `tt_touch` (`TOUCH_TYPE`
/// in Web/core/bridge.js; `PageInterfaceTests` holds the two together).
public enum TouchType: Int32, Hashable, Sendable, CaseIterable {
  /// A finger on the screen (and, in the browser, a mouse: it draws as a finger does).
  case direct = 0
  /// A pen or stylus (UIKit's Apple Pencil).
  case pencil = 1
  /// A pointer that is not on the screen (a trackpad's): UIKit's `.indirectPointer`.
  case indirectPointer = 2

  /// The name used in traces.
  public var name: String {
    switch self {
    case .direct: "direct"
    case .pencil: "pencil"
    case .indirectPointer: "indirectPointer"
    }
  }

  /// The type whose ``name`` is `name`; nil for any other text.
  public init?(name: String) {
    switch name {
    case "direct": self = .direct
    case "pencil": self = .pencil
    case "indirectPointer": self = .indirectPointer
    default: return nil
    }
  }
}

/// What the hardware reports of a touch at one moment besides where it is:
/// UIKit's `force`, `maximumPossibleForce`, `altitudeAngle` and azimuth.
///
/// As in UIKit, a force of 1.0 is an average touch, and a host that cannot
/// measure force reports 0 for both `force` and `maximumPossibleForce`.
/// The angles are those of a pen: `altitudeAngle` π/2 stands perpendicular to
/// the screen (what a finger reports), `azimuth` is the direction the pen
/// points along the screen, in radians in window coordinates, clockwise
/// from the positive x axis (y grows down).
public struct TouchHardware: Hashable, Sendable {
  /// How hard the touch presses: 1.0 is an average touch; 0 when the host
  /// cannot measure it (UIKit's `force`).
  public var force: Double
  /// The highest ``force`` the host can report; 0 when it reports none.
  public var maximumPossibleForce: Double
  /// A pen's angle to the screen, in radians: π/2 stands perpendicular (what
  /// a finger reports), 0 lies flat.
  public var altitudeAngle: Double
  /// The direction a pen points along the screen, in radians clockwise from
  /// the window's positive x axis (`Touch.azimuthAngle(in:)` converts it).
  public var azimuth: Double

  /// Measurements of a touch. The defaults are what a finger reports on
  /// hardware without force sensing: no force, perpendicular, azimuth 0.
  public init(force: Double = 0, maximumPossibleForce: Double = 0, altitudeAngle: Double = .pi / 2, azimuth: Double = 0)
  {
    self.force = force
    self.maximumPossibleForce = maximumPossibleForce
    self.altitudeAngle = altitudeAngle
    self.azimuth = azimuth
  }

  /// What a host without such hardware reports: no force, perpendicular.
  public static let unknown = TouchHardware()

  var isFinite: Bool {
    force.isFinite && maximumPossibleForce.isFinite && altitudeAngle.isFinite && azimuth.isFinite
  }
}

/// One of the positions a host reported between two events (a coalesced
/// sample) or expects next (a predicted one), with its time and hardware.
public struct TouchSample: Hashable, Sendable {
  /// Where the touch was (or is expected to be), in window coordinates.
  public var location: Point
  /// Seconds on the application's clock.
  public var timestamp: Double
  /// The touch's force and angles at that moment.
  public var hardware: TouchHardware

  /// A sample at `location` at `timestamp` seconds.
  public init(location: Point, timestamp: Double, hardware: TouchHardware = .unknown) {
    self.location = location
    self.timestamp = timestamp
    self.hardware = hardware
  }

  var isFinite: Bool { location.isFinite && timestamp.isFinite && hardware.isFinite }
}
