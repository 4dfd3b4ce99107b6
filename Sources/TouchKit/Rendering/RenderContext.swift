/// Where a view draws: a render list plus the transform from the view's
/// coordinates to the window's, so views draw in their own coordinates.
///
/// Widths, radii and text sizes scale by the transform's `lengthScale`; a
/// rectangle under a rotation fills the box around it (the render list has
/// no rotated rectangles), and a circle under a non-uniform scale stays a
/// circle.
public struct RenderContext {
  public internal(set) var list = RenderList()
  public internal(set) var transform = AffineTransform.identity

  public init() {}

  /// Where the view's point `(0, 0)` is in the window.
  public var origin: Point { Point(x: transform.tx, y: transform.ty) }

  public mutating func strokeSegment(from a: Point, to b: Point, color: Color, width: Double) {
    list.appendSegment(
      from: transform.apply(to: a), to: transform.apply(to: b), color: color, width: scaled(width))
  }

  public mutating func strokeCircle(center: Point, radius: Double, color: Color, width: Double) {
    list.appendCircle(center: transform.apply(to: center), radius: scaled(radius), color: color, width: scaled(width))
  }

  public mutating func fill(_ rect: Rect, color: Color, cornerRadius: Double = 0) {
    list.appendFill(transform.apply(to: rect), color: color, cornerRadius: scaled(cornerRadius))
  }

  public mutating func drawText(_ text: String, center: Point, size: Double, color: Color) {
    list.appendText(text, center: transform.apply(to: center), size: scaled(size), color: color)
  }

  private func scaled(_ length: Double) -> Double {
    transform.isTranslation ? length : length * transform.lengthScale
  }
}
