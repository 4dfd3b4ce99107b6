/// A straight segment between two points.
public struct Segment: Hashable, Sendable {
  /// Where the segment starts.
  public var begin: Point
  /// Where the segment ends.
  public var end: Point

  /// The segment from `begin` to `end`.
  public init(begin: Point, end: Point) {
    self.begin = begin
    self.end = end
  }

  /// The distance from ``begin`` to ``end``, in points.
  public var length: Double { begin.distance(to: end) }

  /// The shortest distance from `point` to any point of the segment (not the
  /// infinite line through it).
  public func distance(to point: Point) -> Double {
    let direction = end - begin
    let lengthSquared = direction.dot(direction)
    guard lengthSquared > 0 else { return begin.distance(to: point) }
    let t = max(0, min(1, (point - begin).dot(direction) / lengthSquared))
    return (begin + direction * t).distance(to: point)
  }

  /// The direction from begin to end in radians, measured clockwise from the
  /// positive x axis on screen (y grows downward), in 0..<2pi.
  public var angle: Double {
    let a = Trigonometry.atan2(end.y - begin.y, end.x - begin.x)
    return a < 0 ? a + 2 * Double.pi : a
  }

  /// The smallest rectangle containing the segment.
  public var boundingBox: Rect {
    let minX = min(begin.x, end.x)
    let minY = min(begin.y, end.y)
    return Rect(x: minX, y: minY, width: max(begin.x, end.x) - minX, height: max(begin.y, end.y) - minY)
  }
}
