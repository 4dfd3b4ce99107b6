/// A circle drawn with two fingers at opposite corners of its bounding box.
public struct Circle: Hashable, Sendable {
  /// Its name in the drawing (`ShapeID.unassigned` until the drawing gives it one).
  public var id: ShapeID
  public var center: Point
  public var radius: Double
  public var color: Color
  public var width: Double

  public init(id: ShapeID = .unassigned, center: Point, radius: Double, color: Color = .black, width: Double = 10) {
    self.id = id
    self.center = center
    self.radius = radius
    self.color = color
    self.width = width
  }

  /// The circle whose bounding box has `a` and `b` as opposite corners:
  /// center at their midpoint, diameter the larger of |dx| and |dy|.
  public init(corner a: Point, corner b: Point, color: Color, width: Double) {
    let diameter = max(abs(b.x - a.x), abs(b.y - a.y))
    self.init(center: Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2), radius: diameter / 2, color: color, width: width)
  }
}
