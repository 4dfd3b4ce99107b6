/// A position or a displacement in points, in some view's coordinate space.
///
/// One type serves both roles (as `CGPoint` does in UIKit) because touch code
/// moves freely between "where" and "how far", and a second vector type would
/// only add conversions.
public struct Point: Hashable, Sendable {
  /// The horizontal coordinate, in points; it grows to the right.
  public var x: Double
  /// The vertical coordinate, in points; it grows downward, as on screen in UIKit.
  public var y: Double

  /// A point, or a displacement, of the given coordinates.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin, (0, 0); as a displacement, no movement (`CGPoint.zero`).
  public static let zero = Point(x: 0, y: 0)

  /// The length of the vector from the origin to this point.
  public var length: Double { (x * x + y * y).squareRoot() }

  /// Whether both coordinates are finite (not NaN, not infinite).
  public var isFinite: Bool { x.isFinite && y.isFinite }

  /// The straight-line distance from this point to `other`, in points.
  public func distance(to other: Point) -> Double { (other - self).length }

  /// The sum of two vectors: `a` moved by `b`.
  public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
  /// The difference of two vectors: the displacement from `b` to `a`.
  public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
  /// The vector `a` scaled by `s`.
  public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
  /// Moves `a` by `b`.
  public static func += (a: inout Point, b: Point) { a = a + b }
  /// Moves `a` back by `b`.
  public static func -= (a: inout Point, b: Point) { a = a - b }

  /// The dot product of two vectors.
  public func dot(_ other: Point) -> Double { x * other.x + y * other.y }
}

/// A width and a height in points.
public struct Size: Hashable, Sendable {
  /// The horizontal extent, in points.
  public var width: Double
  /// The vertical extent, in points.
  public var height: Double

  /// A size of the given extents, in points.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// No width and no height (`CGSize.zero`).
  public static let zero = Size(width: 0, height: 0)
}
