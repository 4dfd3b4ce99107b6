/// What the keyboard shows on the canvas, in the live layer: a ring around
/// the focused shape and the cursor of a line drawn with the keyboard.
/// Each is stroked twice, black and then a thinner white over it, so that it
/// shows on the gray canvas and over any line's color, in light and dark mode
/// alike (the canvas keeps its gray in both).
extension DrawView {
  /// Space between a shape and its focus ring, and the ring's strokes, in points on screen.
  static let focusRingGap = 6.0
  static let focusRingWidth = 4.0
  static let focusRingInnerWidth = 1.5
  /// How far the keyboard cursor's cross reaches from its center, on screen.
  static let keyboardCursorReach = 12.0

  func drawKeyboardContent(in context: inout RenderContext) {
    let scale = 1 / zoomScale
    // While a line is drawn with the keys, its cursor is the only mark.
    if !keyboardMarksHidden, keyboardLine == nil, let shape = focusedShape() {
      if shape.isCircle {
        let circle = drawing.circles[shape.index]
        let radius = circle.radius + circle.width / 2 + DrawView.focusRingGap * scale
        for (color, width) in ringStrokes(scale) {
          context.strokeCircle(center: circle.center, radius: radius, color: color, width: width)
        }
      } else {
        let line = drawing.lines[shape.index]
        strokeOutline(around: line.begin, line.end, pad: line.width / 2 + DrawView.focusRingGap * scale, in: &context)
      }
    }
    guard let keyboardLine else { return }
    let cursor = keyboardLine.cursor
    if let first = keyboardLine.firstEnd {
      strokeMarked(first, cursor, color: DrawView.inProgressColor, width: options.lineWidth, in: &context)
      for (color, width) in ringStrokes(scale) {
        context.strokeCircle(center: first, radius: 5 * scale, color: color, width: width)
      }
    }
    let reach = DrawView.keyboardCursorReach * scale
    for (color, width) in ringStrokes(scale) {
      context.strokeSegment(
        from: cursor - Point(x: reach, y: 0), to: cursor + Point(x: reach, y: 0), color: color, width: width)
      context.strokeSegment(
        from: cursor - Point(x: 0, y: reach), to: cursor + Point(x: 0, y: reach), color: color, width: width)
    }
  }

  /// Black, then white over it: the two strokes of every keyboard mark, in the drawing's points.
  private func ringStrokes(_ scale: Double) -> [(Color, Double)] {
    [(.black, DrawView.focusRingWidth * scale), (.white, DrawView.focusRingInnerWidth * scale)]
  }

  /// A rectangle around the segment from `a` to `b`, `pad` away from it on every side.
  private func strokeOutline(around a: Point, _ b: Point, pad: Double, in context: inout RenderContext) {
    let length = a.distance(to: b)
    let along = length > 0 ? (b - a) * (pad / length) : Point(x: pad, y: 0)
    let across = Point(x: -along.y, y: along.x)
    let corners = [a - along + across, b + along + across, b + along - across, a - along - across]
    for (color, width) in ringStrokes(1 / zoomScale) {
      for index in corners.indices {
        context.strokeSegment(
          from: corners[index], to: corners[(index + 1) % corners.count], color: color, width: width)
      }
    }
  }
}
