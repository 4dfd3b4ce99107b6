/// A finished or in-progress straight line. Each line keeps its own color and
/// width, so changing a setting never restyles lines already drawn.
public struct Line: Hashable, Sendable {
  /// Its name in the drawing (`ShapeID.unassigned` until the drawing gives it one).
  public var id: ShapeID
  public var begin: Point
  public var end: Point
  public var color: Color
  public var width: Double

  public init(id: ShapeID = .unassigned, begin: Point, end: Point, color: Color = .black, width: Double = 10) {
    self.id = id
    self.begin = begin
    self.end = end
    self.color = color
    self.width = width
  }

  public var segment: Segment { Segment(begin: begin, end: end) }

  /// The line moved by `offset`, keeping its id and style.
  public func offset(by offset: Point) -> Line {
    Line(id: id, begin: begin + offset, end: end + offset, color: color, width: width)
  }
}
