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

  /// The positions of the lines finished since `version`, when the drawing
  /// has only grown by whole lines since then (the usual case: someone is
  /// drawing); nil when anything else changed and the layer must be redrawn whole.
  public func linesAppended(since version: Int) -> Range<Int>? {
    guard version >= lastRestructureVersion, version <= drawingVersion else { return nil }
    let appended = drawingVersion - version
    guard appended <= drawing.lines.count else { return nil }
    return drawing.lines.count - appended..<drawing.lines.count
  }

  /// Only the segments to paint over a static layer drawn at `version`, or
  /// nil if it must be redrawn whole: finishing a line over 100,000 others
  /// paints one segment, not 100,001.
  public func staticLayerIncrement(since version: Int) -> RenderList? {
    guard let range = linesAppended(since: version) else { return nil }
    var list = RenderList()
    list.reserveCapacity(commands: range.count)
    for line in drawing.lines[range] {
      list.appendSegment(from: line.begin, to: line.end, color: line.color, width: line.width)
    }
    return list
  }

  /// The static layer changes in a way appending cannot express (a line is
  /// held, moved, deleted; a drawing is loaded).
  func restructureStaticLayer() {
    drawingVersion += 1
    lastRestructureVersion = drawingVersion
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
