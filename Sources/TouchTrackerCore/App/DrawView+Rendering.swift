extension DrawView {
  /// The finished drawing on the gray background: what changes rarely. The
  /// host caches what it paints and asks again only when `drawingVersion`
  /// (or the size) moves.
  ///
  /// Built afresh on every call, not kept: a kept copy costs 32 bytes a line
  /// (at a million lines, more than the index and half as much as the lines
  /// themselves) to save an O(lines) pass that a host repainting the layer
  /// makes anyway.
  public var staticLayer: RenderList {
    var list = RenderList()
    list.reserveCapacity(commands: drawing.lines.count + drawing.circles.count + 1)
    list.appendFill(bounds, color: DrawView.backgroundGray)
    for circle in drawing.circles {
      list.appendCircle(center: circle.center, radius: circle.radius, color: circle.color, width: circle.width)
    }
    let held = lineBeforeMove == nil ? nil : selectedLineIndex
    for (index, line) in drawing.lines.enumerated() where index != held {
      list.appendSegment(from: line.begin, to: line.end, color: line.color, width: line.width)
    }
    return list
  }

  /// Work in progress and the selection, drawn over the static layer.
  func drawLiveContent(in context: inout RenderContext) {
    if let index = selectedLineIndex, drawing.lines.indices.contains(index) {
      let line = drawing.lines[index]
      context.strokeSegment(from: line.begin, to: line.end, color: DrawView.selectedColor, width: line.width)
    }
    for progress in circlesInProgress {
      let circle = progress.circle
      context.strokeCircle(center: circle.center, radius: circle.radius, color: circle.color, width: circle.width)
    }
    for progress in linesInProgress {
      let line = progress.line
      context.strokeSegment(from: line.begin, to: line.end, color: line.color, width: line.width)
    }
  }
}
