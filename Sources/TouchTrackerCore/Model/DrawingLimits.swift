/// Every change to a drawing keeps it within what the document format can
/// carry: coordinates within ±`DocumentCoder.maximumMagnitude`.
///
/// Why: a drawing the format refuses cannot be saved, and a page that could
/// not save once lost the server's copy. So the gestures themselves stay in
/// range, as a UIKit user expects of a canvas edge: a finger far beyond the
/// limit draws to the limit, and a line dragged against it stops there (per
/// axis: it still slides along the edge) and comes back as soon as the
/// finger does. Widths (at most 40) and radii (half the distance between two
/// in-range corners) need no clamping.
enum DrawingLimits {
  static let maximum = DocumentCoder.maximumMagnitude

  /// `point` with each coordinate clamped to the limit.
  static func clamp(_ point: Point) -> Point {
    Point(x: clamp(point.x), y: clamp(point.y))
  }

  /// The part of `offset` that `line` can move by and stay within the limit.
  static func allowedOffset(_ offset: Point, for line: Line) -> Point {
    Point(
      x: allowed(offset.x, low: min(line.begin.x, line.end.x), high: max(line.begin.x, line.end.x)),
      y: allowed(offset.y, low: min(line.begin.y, line.end.y), high: max(line.begin.y, line.end.y)))
  }

  /// `offset` limited so that a circle's center stays in range.
  static func allowedOffset(_ offset: Point, for circle: Circle) -> Point {
    Point(
      x: allowed(offset.x, low: circle.center.x, high: circle.center.x),
      y: allowed(offset.y, low: circle.center.y, high: circle.center.y))
  }

  private static func clamp(_ value: Double) -> Double { min(max(value, -maximum), maximum) }

  /// `delta` limited so that `low + delta` and `high + delta` stay in range.
  /// The bounds always include 0: a line already beyond the limit (none
  /// should be) never jumps, it just cannot move further out.
  private static func allowed(_ delta: Double, low: Double, high: Double) -> Double {
    min(max(delta, min(0, -maximum - low)), max(0, maximum - high))
  }
}
