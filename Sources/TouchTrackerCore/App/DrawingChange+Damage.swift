/// The pixels a change can touch, so a host repaints only those.
///
/// "Painted bounds" are a shape's box grown by half its stroke width (round
/// caps reach that far past a line's ends) plus `DrawView.antialiasMargin`,
/// so every pixel the shape colors, even partly, lies inside.
extension DrawingChange {
  /// The rectangle the change repainted; nil when it touched everything
  /// (clearing, replacing the drawing).
  public var damage: Rect? {
    switch self {
    case .addLine(let line), .deleteLine(_, let line): line.paintedBounds
    case .addCircle(let circle), .deleteCircle(_, let circle): circle.paintedBounds
    case .moveLine(_, let from, let to): from.paintedBounds.union(to.paintedBounds)
    case .moveCircle(_, let from, let to): from.paintedBounds.union(to.paintedBounds)
    case .clear: nil
    }
  }
}

extension Line {
  /// Every pixel this line colors lies inside.
  public var paintedBounds: Rect {
    let reach = width / 2 + DrawView.antialiasMargin
    let x = min(begin.x, end.x) - reach
    let y = min(begin.y, end.y) - reach
    return Rect(x: x, y: y, width: max(begin.x, end.x) + reach - x, height: max(begin.y, end.y) + reach - y)
  }
}

extension Circle {
  /// Every pixel this circle colors lies inside.
  public var paintedBounds: Rect {
    let reach = radius + width / 2 + DrawView.antialiasMargin
    return Rect(x: center.x - reach, y: center.y - reach, width: 2 * reach, height: 2 * reach)
  }
}
