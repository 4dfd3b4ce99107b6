/// Where a view draws: a render list plus the transform from the view's
/// coordinates to the window's, so views draw in their own coordinates.
///
/// Widths, radii and text sizes scale by the transform's `lengthScale`; a
/// rectangle under a rotation fills the box around it (the render list has
/// no rotated rectangles), and a circle under a non-uniform scale stays a
/// circle.
public struct RenderContext {
  /// The commands drawn so far, in window coordinates.
  public internal(set) var list = RenderList()
  /// The transform from the coordinates of the view that is drawing to the
  /// window's. The window sets it for each view as it renders.
  public internal(set) var transform = AffineTransform.identity

  /// An empty context with the identity transform, as `Window.render()`
  /// starts with.
  public init() {}

  /// Where the view's point `(0, 0)` is in the window.
  public var origin: Point { Point(x: transform.tx, y: transform.ty) }

  /// Adds a straight line from `a` to `b` (in the view's coordinates),
  /// `width` points wide, with round caps.
  public mutating func strokeSegment(from a: Point, to b: Point, color: Color, width: Double) {
    list.appendSegment(
      from: transform.apply(to: a), to: transform.apply(to: b), color: color, width: scaled(width))
  }

  /// Adds the outline of a circle of `radius` points around `center`,
  /// `width` points wide.
  public mutating func strokeCircle(center: Point, radius: Double, color: Color, width: Double) {
    list.appendCircle(center: transform.apply(to: center), radius: scaled(radius), color: color, width: scaled(width))
  }

  /// Fills `rect` with `color`, its corners rounded by `cornerRadius` points.
  public mutating func fill(_ rect: Rect, color: Color, cornerRadius: Double = 0) {
    list.appendFill(transform.apply(to: rect), color: color, cornerRadius: scaled(cornerRadius))
  }

  /// Adds `text` centered on `center`, at a font size of `size` points.
  public mutating func drawText(_ text: String, center: Point, size: Double, color: Color) {
    list.appendText(text, center: transform.apply(to: center), size: scaled(size), color: color)
  }

  private func scaled(_ length: Double) -> Double {
    transform.isTranslation ? length : length * transform.lengthScale
  }
}
