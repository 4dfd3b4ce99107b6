/// A finished or in-progress straight line. Each line keeps its own color and
/// width, so changing a setting never restyles lines already drawn.
public struct Line: Hashable, Sendable {
  public var begin: Point
  public var end: Point
  public var color: Color
  public var width: Double

  public init(begin: Point, end: Point, color: Color = .black, width: Double = 10) {
    self.begin = begin
    self.end = end
    self.color = color
    self.width = width
  }

  public var segment: Segment { Segment(begin: begin, end: end) }

  /// The line moved by `offset`, keeping its style.
  public func offset(by offset: Point) -> Line {
    Line(begin: begin + offset, end: end + offset, color: color, width: width)
  }
}
