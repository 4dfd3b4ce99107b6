/// Where a view draws: a render list plus the view's origin in window
/// coordinates, so views draw in their own coordinates.
public struct RenderContext {
  public internal(set) var list = RenderList()
  public internal(set) var origin = Point.zero

  public init() {}

  public mutating func strokeSegment(from a: Point, to b: Point, color: Color, width: Double) {
    list.appendSegment(from: a + origin, to: b + origin, color: color, width: width)
  }

  public mutating func strokeCircle(center: Point, radius: Double, color: Color, width: Double) {
    list.appendCircle(center: center + origin, radius: radius, color: color, width: width)
  }

  public mutating func fill(_ rect: Rect, color: Color, cornerRadius: Double = 0) {
    list.appendFill(Rect(origin: rect.origin + origin, size: rect.size), color: color, cornerRadius: cornerRadius)
  }

  public mutating func drawText(_ text: String, center: Point, size: Double, color: Color) {
    list.appendText(text, center: center + origin, size: size, color: color)
  }
}
