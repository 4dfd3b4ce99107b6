/// Drawing together, as the view shows it: other people's changes go into
/// the model (`DrawingModel+Sharing.swift`) while this person goes on
/// drawing, and the view keeps its selection and the shape a finger holds
/// where they were.
extension DrawView {
  /// Applies other people's changes, oldest first (`DrawingModel.receiveChanges`).
  public func receiveChanges(_ changes: [Change]) {
    let kept = keptPlaces()
    show(model.receiveChanges(changes), keeping: kept)
  }

  /// The oldest `count` of this person's unacknowledged changes were in the
  /// drawing already when it was read (`DrawingModel.withdrawChanges`).
  public func withdrawChanges(_ count: Int) {
    let kept = keptPlaces()
    show(model.withdrawChanges(count), keeping: kept)
  }

  /// Puts `pending` on top of the drawing as this person's unacknowledged
  /// changes (`DrawingModel.restorePending`), and paints the layer anew.
  public func restorePending(_ pending: [Change]) {
    guard model.restorePending(pending) else { return }
    restructureStaticLayer(damage: nil)
    setNeedsDisplay()
  }

  /// The selection by id, and where a held shape is under its finger:
  /// taking back and applying again this person's unacknowledged changes
  /// (its own add, an earlier move) would put it where those left it, away
  /// from the finger.
  private func keptPlaces() -> (line: ShapeID?, circle: ShapeID?, held: (Point, Point)?) {
    let line = selectedLineIndex.flatMap { drawing.lines.indices.contains($0) ? drawing.lines[$0].id : nil }
    let circle = selectedCircleIndex.flatMap { drawing.circles.indices.contains($0) ? drawing.circles[$0].id : nil }
    return (line, circle, heldGeometry())
  }

  /// Shows what other people's changes did, with the selection and a held
  /// shape where `keptPlaces` found them.
  private func show(_ update: ModelUpdate?, keeping kept: (line: ShapeID?, circle: ShapeID?, held: (Point, Point)?)) {
    reselect(kept.line)
    reselectCircle(kept.circle)
    if let held = kept.held { restoreHeldGeometry(held) }
    guard let update else { return }
    staticLayerChanged(damage: update.damage, isAppend: update.isAppend)
    setNeedsDisplay()
  }

  /// Where the held line's ends (or the held circle's center, twice) are.
  @inline(never)
  private func heldGeometry() -> (Point, Point)? {
    if lineBeforeMove != nil, let index = selectedLineIndex, index < drawing.lines.count {
      return (drawing.lines[index].begin, drawing.lines[index].end)
    }
    if circleBeforeMove != nil, let index = selectedCircleIndex, index < drawing.circles.count {
      return (drawing.circles[index].center, drawing.circles[index].center)
    }
    return nil
  }

  /// Puts the held shape (if still held) back where `heldGeometry` found it.
  @inline(never)
  private func restoreHeldGeometry(_ held: (Point, Point)) {
    if lineBeforeMove != nil, let index = selectedLineIndex {
      model.drawing.lines[index].begin = held.0
      model.drawing.lines[index].end = held.1
    } else if circleBeforeMove != nil, let index = selectedCircleIndex {
      model.drawing.circles[index].center = held.0
    }
  }

  /// Finds the selected circle again after positions moved; if someone
  /// else took it out, the selection and its menu end.
  private func reselectCircle(_ id: ShapeID?) {
    guard let id else { return }
    if let index = drawing.circles.firstIndex(where: { $0.id == id }) {
      selectedCircleIndex = index
      return
    }
    let wasHeld = circleBeforeMove != nil
    circleBeforeMove = nil
    selectedCircleIndex = nil
    application?.menuController.hideMenu()
    if wasHeld { restructureStaticLayer(damage: nil) }
  }

  /// Finds the selected (or held) line again after positions moved; if
  /// someone else took it out, the selection, its menu and the hold end.
  private func reselect(_ id: ShapeID?) {
    guard let id else { return }
    if let index = drawing.lines.firstIndex(where: { $0.id == id }) {
      selectedLineIndex = index
      return
    }
    let wasHeld = lineBeforeMove != nil
    lineBeforeMove = nil
    selectedLineIndex = nil
    application?.menuController.hideMenu()
    if wasHeld { restructureStaticLayer(damage: nil) }
  }
}
