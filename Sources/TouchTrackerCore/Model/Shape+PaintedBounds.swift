/// The pixels a shape can color, so a change repaints only those.
///
/// "Painted bounds" are a shape's box grown by half its stroke width (round
/// caps reach that far past a line's ends) plus `Drawing.antialiasMargin`,
/// so every pixel the shape colors, even partly, lies inside.
extension Drawing {
  /// How far past a shape's stroke its antialiased edge can color a pixel.
  public static let antialiasMargin = 2.0
}

extension Line {
  /// Every pixel this line colors lies inside.
  public var paintedBounds: Rect {
    let reach = width / 2 + Drawing.antialiasMargin
    let x = min(begin.x, end.x) - reach
    let y = min(begin.y, end.y) - reach
    return Rect(x: x, y: y, width: max(begin.x, end.x) + reach - x, height: max(begin.y, end.y) + reach - y)
  }
}

extension Circle {
  /// Every pixel this circle colors lies inside.
  public var paintedBounds: Rect {
    let reach = radius + width / 2 + Drawing.antialiasMargin
    return Rect(x: center.x - reach, y: center.y - reach, width: 2 * reach, height: 2 * reach)
  }
}
