/// A position or a displacement in points, in some view's coordinate space.
///
/// One type serves both roles (as `CGPoint` does in UIKit) because touch code
/// moves freely between "where" and "how far", and a second vector type would
/// only add conversions.
public struct Point: Hashable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  public static let zero = Point(x: 0, y: 0)

  /// The length of the vector from the origin to this point.
  public var length: Double { (x * x + y * y).squareRoot() }

  /// Whether both coordinates are finite (not NaN, not infinite).
  public var isFinite: Bool { x.isFinite && y.isFinite }

  public func distance(to other: Point) -> Double { (other - self).length }

  public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
  public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
  public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
  public static func += (a: inout Point, b: Point) { a = a + b }
  public static func -= (a: inout Point, b: Point) { a = a - b }

  /// The dot product of two vectors.
  public func dot(_ other: Point) -> Double { x * other.x + y * other.y }
}

/// A width and a height in points.
public struct Size: Hashable, Sendable {
  public var width: Double
  public var height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  public static let zero = Size(width: 0, height: 0)
}
