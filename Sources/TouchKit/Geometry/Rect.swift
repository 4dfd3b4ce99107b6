/// An axis-aligned rectangle: an origin (top-left, y grows downward as on
/// screen) and a size.
public struct Rect: Hashable, Sendable {
  /// The top-left corner, in the coordinates of the space the rectangle is in.
  public var origin: Point
  /// The width and height, in points.
  public var size: Size

  /// A rectangle with its top-left corner at `origin`.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// A rectangle with its top-left corner at (`x`, `y`).
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The rectangle at the origin with no size (`CGRect.zero`).
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  /// The x of the left edge: `origin.x`.
  public var minX: Double { origin.x }
  /// The y of the top edge: `origin.y`.
  public var minY: Double { origin.y }
  /// The x of the right edge: `origin.x + size.width`.
  public var maxX: Double { origin.x + size.width }
  /// The y of the bottom edge: `origin.y + size.height`.
  public var maxY: Double { origin.y + size.height }
  /// `size.width`. Unlike `CGRect.width`, a negative width stays negative.
  public var width: Double { size.width }
  /// `size.height`. Unlike `CGRect.height`, a negative height stays negative.
  public var height: Double { size.height }
  /// The point halfway across and halfway down (`CGRect`'s `midX` and `midY`).
  public var center: Point { Point(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

  /// Whether `point` lies inside; the right and bottom edges are outside, as in UIKit.
  public func contains(_ point: Point) -> Bool {
    point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// The smallest rectangle holding both.
  public func union(_ other: Rect) -> Rect {
    let x = min(minX, other.minX)
    let y = min(minY, other.minY)
    return Rect(x: x, y: y, width: max(maxX, other.maxX) - x, height: max(maxY, other.maxY) - y)
  }

  /// The part of both, or nil when they do not overlap.
  public func intersection(_ other: Rect) -> Rect? {
    let x = max(minX, other.minX)
    let y = max(minY, other.minY)
    let right = min(maxX, other.maxX)
    let bottom = min(maxY, other.maxY)
    guard right > x, bottom > y else { return nil }
    return Rect(x: x, y: y, width: right - x, height: bottom - y)
  }

  /// Whether the two share any area.
  public func intersects(_ other: Rect) -> Bool {
    minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
  }

  /// The rectangle shrunk by `dx` on the left and right and `dy` on top and
  /// bottom; negative values grow it (CGRect's `insetBy(dx:dy:)`).
  public func insetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
  }
}
