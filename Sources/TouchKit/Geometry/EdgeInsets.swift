/// Distances inward from the edges of a rectangle, as UIKit's `UIEdgeInsets`:
/// how much of the window the page's own controls cover.
public struct EdgeInsets: Hashable, Sendable {
  /// The distance in from the top edge, in points.
  public var top: Double
  /// The distance in from the left edge, in points.
  public var left: Double
  /// The distance in from the bottom edge, in points.
  public var bottom: Double
  /// The distance in from the right edge, in points.
  public var right: Double

  /// Insets of the given distances from each edge, in points.
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// No inset on any edge.
  public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

extension Rect {
  /// The rectangle with `insets` taken off its edges; never narrower or
  /// shorter than nothing (insets larger than the rectangle leave an empty
  /// rectangle at its center).
  public func inset(by insets: EdgeInsets) -> Rect {
    let width = max(0, self.width - insets.left - insets.right)
    let height = max(0, self.height - insets.top - insets.bottom)
    let x = width > 0 ? minX + insets.left : center.x
    let y = height > 0 ? minY + insets.top : center.y
    return Rect(x: x, y: y, width: width, height: height)
  }
}
