/// What the selected (or held) line or circle can have done to it: deleted,
/// recolored, let go of, and a held shape's move recorded when it is let go.
/// Selecting is in `DrawView+Gestures.swift` (tap, long press).
extension DrawView {
  /// Deletes the selected line or circle ("Delete" in its menu, the
  /// Delete key). A shape a long press holds is let go where it is first
  /// (its move recorded, so undo puts it back step by step), then deleted.
  public func deleteSelectedLine() {
    if isHoldingShape {
      let (line, circle) = (lineBeforeMove?.id, circleBeforeMove?.id)
      finishHeldMove()
      selectedLineIndex = line.flatMap { id in drawing.lines.firstIndex { $0.id == id } }
      selectedCircleIndex = circle.flatMap { id in drawing.circles.firstIndex { $0.id == id } }
    }
    if let index = selectedCircleIndex, drawing.circles.indices.contains(index) {
      clearSelection()
      application?.menuController.hideMenu()
      commit(.deleteCircle(drawing.circles[index].id))
      return
    }
    guard let index = selectedLineIndex, drawing.lines.indices.contains(index) else { return }
    clearSelection()
    application?.menuController.hideMenu()
    commit(.deleteLine(drawing.lines[index].id))
  }

  /// Gives the selected line or circle the color `mode` gives it (by
  /// angle: a line's own angle, a circle's as drawn corner to corner), as
  /// one undoable change, and lets go of it so that its new color shows.
  /// False when nothing is selected.
  func recolorSelection(_ mode: DrawingOptions.ColorMode) -> Bool {
    var options = DrawingOptions()
    options.colorMode = mode
    if let index = selectedCircleIndex, drawing.circles.indices.contains(index) {
      let circle = drawing.circles[index]
      let reach = Point(x: circle.radius, y: circle.radius)
      let color = options.color(for: Segment(begin: circle.center - reach, end: circle.center + reach))
      clearSelection()
      if color != circle.color { commit(.recolor(.circle(circle.id), color: color)) }
      return true
    }
    guard let index = selectedLineIndex, drawing.lines.indices.contains(index) else { return false }
    let line = drawing.lines[index]
    let color = options.color(for: line.segment)
    clearSelection()
    if color != line.color { commit(.recolor(.line(line.id), color: color)) }
    return true
  }

  /// Drops the selection and its menu (Escape in the browser).
  public func deselect() {
    finishHeldMove()
    clearSelection()
    application?.menuController.hideMenu()
  }

  /// Ends the hold of a line taken by a long press: where it was moved to
  /// becomes one finished change (undoable, and published like any other),
  /// and the line goes back into the static layer where it now is. Called
  /// when the press ends, and before anything else changes the drawing while
  /// a line is held (undo, redo, Escape): the move is never left half done.
  func finishHeldMove() {
    if let before = circleBeforeMove { finishHeldCircleMove(before) }
    guard let before = lineBeforeMove else { return }
    lineBeforeMove = nil
    // By id: whatever happened to the selection, the held line's move is recorded.
    let selected = selectedLineIndex.flatMap {
      drawing.lines.indices.contains($0) && drawing.lines[$0].id == before.id ? $0 : nil
    }
    guard let index = selected ?? drawing.lines.firstIndex(where: { $0.id == before.id }) else { return }
    selectedLineIndex = nil
    defer { if hostPaintsOverFrames { putBack = (before.id, index, false, drawingVersion) } }
    guard drawing.lines[index] != before else {
      restructureStaticLayer(damage: before.paintedBounds)
      return
    }
    // The move's damage (where it was and is) puts it back in the static layer too.
    let after = drawing.lines[index]
    model.drawing.lines[index] = before
    commit(.moveLine(before.id, begin: after.begin, end: after.end))
  }

  /// `finishHeldMove` for a circle held by its outline.
  /// By id, as for a line (a scan: circles are few).
  private func finishHeldCircleMove(_ before: Circle) {
    circleBeforeMove = nil
    guard let index = drawing.circles.firstIndex(where: { $0.id == before.id }) else { return }
    selectedCircleIndex = nil
    defer { if hostPaintsOverFrames { putBack = (before.id, index, true, drawingVersion) } }
    guard drawing.circles[index].center != before.center else {
      restructureStaticLayer(damage: before.paintedBounds)
      return
    }
    let after = drawing.circles[index]
    model.drawing.circles[index] = before
    commit(.moveCircle(before.id, center: after.center))
  }
}
