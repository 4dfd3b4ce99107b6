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
    let heldCircle = circleBeforeMove == nil ? nil : selectedCircleIndex
    for index in drawing.circles.indices where index != heldCircle {
      let circle = drawing.circles[index]
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
  /// drawing); nil when anything else changed.
  public func linesAppended(since version: Int) -> Range<Int>? {
    guard let start = layerLog.start(after: version, current: drawingVersion) else { return nil }
    let entries = layerLog.entries
    for index in start..<entries.count where !entries[index].isAppend { return nil }
    let appended = entries.count - start
    guard appended <= drawing.lines.count else { return nil }
    return drawing.lines.count - appended..<drawing.lines.count
  }

  /// Only the segments to paint over a static layer drawn at `version`, or
  /// nil if more than lines were added: finishing a line over 100,000 others
  /// paints one segment, not 100,001. Untiled, for hosts that paint the
  /// layer whole (`staticLayer`); the page's tiled form is `staticLayerUpdate`.
  public func staticLayerIncrement(since version: Int) -> RenderList? {
    guard let range = linesAppended(since: version) else { return nil }
    var list = RenderList()
    list.reserveCapacity(commands: range.count)
    for line in drawing.lines[range] {
      list.appendSegment(from: line.begin, to: line.end, color: line.color, width: line.width)
    }
    return list
  }

  /// What a host that painted the tiled static layer at `version` paints to
  /// bring it up to date: the new lines over their tiles, the rectangles the
  /// changes touched again (in sections of their tiles), or (after a clear,
  /// a load, or changes spread over half the tiles) every tile. Undoing,
  /// deleting or moving one line among 100,000 repaints the lines that cross
  /// its own rectangle, not its tiles' or every line.
  public func staticLayerUpdate(since version: Int) -> StaticLayerUpdate {
    switch staticLayerPlan(since: version) {
    case .whole: wholeTiledLayer
    case .append(let first, let sections): .append(staticLayer(sections: sections, onlyLinesFrom: first))
    case .repaint(let rects, let sections): .repaint(rects, staticLayer(sections: sections))
    }
  }

  /// What `staticLayerUpdate(since:)` paints, before its list is built.
  enum StaticLayerPlan {
    case whole
    /// The lines from position `first` on, over the tiles they meet.
    case append(first: Int, [TileSection])
    /// The changes' damage, in sections of their tiles.
    case repaint([Rect], [TileSection])
  }

  func staticLayerPlan(since version: Int) -> StaticLayerPlan {
    let toWindow = transformToWindow
    if let range = linesAppended(since: version) {
      var bounds: [Rect] = []
      for line in drawing.lines[range] { bounds.append(onScreen(line.paintedBounds, toWindow)) }
      return .append(first: range.lowerBound, wholeSections(tiles(meetingAny: bounds)))
    }
    guard let start = layerLog.start(after: version, current: drawingVersion) else { return .whole }
    var rects: [Rect] = []
    var sections: [TileSection] = []
    for change in layerLog.entries[start...] {
      guard let damage = change.damage else { return .whole }
      let rect = onScreen(damage, toWindow)
      rects.append(rect)
      sections += self.sections(covering: rect)
    }
    if tiles(meetingAny: rects).count * 2 > allTiles.count { return .whole }
    return .repaint(rects, sections)
  }

  /// `rect` of the drawing in window coordinates. Zoomed, with the
  /// antialiased edge's margin again on screen: zoomed out, the drawing's
  /// own margin shrinks below the pixel the edge can color.
  private func onScreen(_ rect: Rect, _ toWindow: AffineTransform) -> Rect {
    if toWindow.isIdentity { return rect }
    let margin = Drawing.antialiasMargin
    return toWindow.apply(to: rect).insetBy(dx: -margin, dy: -margin)
  }

  /// Every tile of the static layer, for a host starting from nothing.
  public var wholeTiledLayer: StaticLayerUpdate { .whole(staticLayer(sections: wholeSections(allTiles))) }

  /// The static layer changed other than by a finished change: a line was
  /// lifted out of it by a long press or put back, a drawing was loaded.
  /// `damage` is the rectangle that changed, nil for everything.
  func restructureStaticLayer(damage: Rect?) {
    staticLayerChanged(damage: damage, isAppend: false)
  }

  /// Moves `drawingVersion` and logs what the new version changed: the one
  /// place both move, so every version a host may ask about is in the log.
  func staticLayerChanged(damage: Rect?, isAppend: Bool) {
    drawingVersion += 1
    layerLog.record(version: drawingVersion, damage: damage, isAppend: isAppend)
  }

  /// Work in progress and the selection, drawn over the static layer.
  func drawLiveContent(in context: inout RenderContext) {
    // (Where it was let go of: a shape another change moved in the arrays meanwhile is not drawn.)
    if let (id, index, isCircle, _) = putBack {
      if !isCircle, drawing.lines.indices.contains(index), drawing.lines[index].id == id {
        let line = drawing.lines[index]
        context.strokeSegment(from: line.begin, to: line.end, color: line.color, width: line.width)
      } else if isCircle, drawing.circles.indices.contains(index), drawing.circles[index].id == id {
        let circle = drawing.circles[index]
        context.strokeCircle(center: circle.center, radius: circle.radius, color: circle.color, width: circle.width)
      }
    }
    if let index = selectedLineIndex, drawing.lines.indices.contains(index) {
      let line = drawing.lines[index]
      strokeMarked(line.begin, line.end, color: DrawView.selectedColor, width: line.width, in: &context)
    }
    if let index = selectedCircleIndex, drawing.circles.indices.contains(index) {
      let circle = drawing.circles[index]
      strokeMarked(circle: circle, color: DrawView.selectedColor, in: &context)
    }
    for progress in circlesInProgress {
      strokeMarked(circle: progress.circle, color: progress.circle.color, in: &context)
    }
    for progress in linesInProgress {
      let line = progress.line
      strokeMarked(line.begin, line.end, color: line.color, width: line.width, in: &context)
    }
    drawKeyboardContent(in: &context)
  }

  /// The dark edge around a shape in progress or selected, in points on
  /// screen a side: the book's red (2.4:1) and green (1.5:1) are too light
  /// against the gray paper to be told apart by everyone (WCAG 1.4.11 asks
  /// 3:1); black is 12:1 against the paper and at least 5:1 against either.
  static let markEdge = 1.5

  /// A segment in `color` with `markEdge` of black around it.
  func strokeMarked(_ begin: Point, _ end: Point, color: Color, width: Double, in context: inout RenderContext) {
    let edge = 2 * DrawView.markEdge / zoomScale
    context.strokeSegment(from: begin, to: end, color: .black, width: width + edge)
    context.strokeSegment(from: begin, to: end, color: color, width: width)
  }

  /// A circle's outline in `color` with `markEdge` of black on both sides of it.
  private func strokeMarked(circle: Circle, color: Color, in context: inout RenderContext) {
    let edge = 2 * DrawView.markEdge / zoomScale
    context.strokeCircle(center: circle.center, radius: circle.radius, color: .black, width: circle.width + edge)
    context.strokeCircle(center: circle.center, radius: circle.radius, color: color, width: circle.width)
  }
}
