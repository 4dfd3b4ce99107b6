/// The keyboard's focus: a shape by id (others' changes move shapes in the
/// arrays), and where it was last found, so that finding it again is O(1)
/// while nothing before it changed.
struct KeyboardFocus: Equatable {
  var shape: ShapeReference
  var index: Int
}

/// A line drawn with the keyboard: the cursor, and its first end once fixed.
struct KeyboardLine: Equatable {
  var cursor: Point
  var firstEnd: Point?
}

extension DrawView {
  /// Whether `command` does anything now: the page lets a key it does not
  /// handle go on (Tab leaves the canvas; Escape closes what else is open).
  public func handles(_ command: KeyCommand) -> Bool {
    let shapes = drawing.lines.count + drawing.circles.count
    switch command {
    case .next, .previous, .first, .last: return shapes > 0 && keyboardLine == nil
    case .left, .right, .up, .down, .fineLeft, .fineRight, .fineUp, .fineDown:
      return keyboardLine != nil || hasSelection || shapes > 0
    case .activate: return keyboardLine != nil || focusedShape() != nil
    case .drawLine: return true
    case .cancel: return keyboardLine != nil
    case .blur: return keyboardLine != nil || keyboardFocus != nil && !keyboardMarksHidden
    }
  }

  /// Does what `command` says (see `KeyCommand`); false when it does nothing.
  @discardableResult
  public func press(_ command: KeyCommand) -> Bool {
    guard handles(command) else { return false }
    finishHeldMove()
    keyboardMarksHidden = command == .blur
    if let (direction, step) = command.arrow {
      let offset = direction * (step / zoomScale)
      if let line = keyboardLine {
        keyboardLine?.cursor = DrawingLimits.clamp(line.cursor + offset)
        follow(keyboardLine!.cursor)
      } else if hasSelection {
        nudgeSelection(by: offset)
        if let shape = selectedShape { follow(center(ofShape: shape)) }
      } else {
        focusNearest(toward: direction)
      }
      return true
    }
    switch command {
    case .next, .previous, .first, .last: moveFocus(command)
    case .activate: activate()
    case .drawLine:
      deselectForKeyboard()
      keyboardLine = KeyboardLine(cursor: visibleCenter, firstEnd: nil)
    case .cancel, .blur: keyboardLine = nil
    default: break
    }
    return true
  }

  var hasSelection: Bool { selectedLineIndex != nil || selectedCircleIndex != nil }

  /// The drawing's point in the middle of what the view shows.
  var visibleCenter: Point {
    DrawingLimits.clamp(
      convert(
        fromWindow: Point(x: screenOrigin.x + screenSize.width / 2, y: screenOrigin.y + screenSize.height / 2)))
  }

  /// The focused shape's position in `drawing.lines` (or `.circles`), found
  /// again by id when others' changes moved it; nil (and the focus dropped)
  /// when it is gone.
  func focusedShape() -> (isCircle: Bool, index: Int)? {
    guard let focus = keyboardFocus else { return nil }
    switch focus.shape {
    case .line(let id):
      if drawing.lines.indices.contains(focus.index), drawing.lines[focus.index].id == id {
        return (false, focus.index)
      }
      guard let index = drawing.lines.firstIndex(where: { $0.id == id }) else { return nil }
      keyboardFocus?.index = index
      return (false, index)
    case .circle(let id):
      if drawing.circles.indices.contains(focus.index), drawing.circles[focus.index].id == id {
        return (true, focus.index)
      }
      guard let index = drawing.circles.firstIndex(where: { $0.id == id }) else { return nil }
      keyboardFocus?.index = index
      return (true, index)
    }
  }

  /// The focus on the shape at `position` in the keyboard's order: the lines, then the circles.
  private func focus(position: Int) {
    let lines = drawing.lines.count
    keyboardFocus =
      position < lines
      ? KeyboardFocus(shape: .line(drawing.lines[position].id), index: position)
      : KeyboardFocus(shape: .circle(drawing.circles[position - lines].id), index: position - lines)
    revealFocus()
  }

  private func moveFocus(_ command: KeyCommand) {
    deselectForKeyboard()
    let count = drawing.lines.count + drawing.circles.count
    let current = focusedShape().map { $0.isCircle ? drawing.lines.count + $0.index : $0.index }
    switch command {
    case .first: focus(position: 0)
    case .last: focus(position: count - 1)
    case .next: focus(position: current.map { ($0 + 1) % count } ?? 0)
    default: focus(position: current.map { ($0 + count - 1) % count } ?? count - 1)
    }
  }

  /// The middle of a line, the center of a circle: where the arrows measure from.
  func center(ofShape shape: (isCircle: Bool, index: Int)) -> Point {
    if shape.isCircle { return drawing.circles[shape.index].center }
    let line = drawing.lines[shape.index]
    return Point(x: (line.begin.x + line.end.x) / 2, y: (line.begin.y + line.end.y) / 2)
  }

  /// The focus goes to the shape nearest the focused one's center (or the
  /// view's) that way: among the shapes whose centers lie ahead, those
  /// within 45° of the arrow first, the nearest by the distance ahead plus
  /// twice the distance aside (so a shape straight ahead beats a nearer
  /// one off to the side). Nothing that way: the focus stays.
  /// - Complexity: O(lines + circles).
  func focusNearest(toward direction: Point) {
    deselectForKeyboard()
    let origin = focusedShape().map { center(ofShape: $0) } ?? visibleCenter
    var best: (inCone: Bool, score: Double, isCircle: Bool, index: Int)?
    func consider(_ point: Point, isCircle: Bool, index: Int) {
      let delta = point - origin
      let ahead = delta.x * direction.x + delta.y * direction.y
      guard ahead > 0 else { return }
      let aside = abs(delta.x * direction.y - delta.y * direction.x)
      let inCone = aside <= ahead
      let score = ahead + 2 * aside
      if let current = best, current.inCone && !inCone || current.inCone == inCone && current.score <= score { return }
      best = (inCone, score, isCircle, index)
    }
    for index in drawing.lines.indices { consider(center(ofShape: (false, index)), isCircle: false, index: index) }
    for index in drawing.circles.indices { consider(drawing.circles[index].center, isCircle: true, index: index) }
    guard let best else { return }
    focus(position: best.isCircle ? drawing.lines.count + best.index : best.index)
  }

  /// The view pans to put the focused shape's center in the middle when it is off screen.
  private func revealFocus() {
    guard let shape = focusedShape() else { return }
    let point = convert(toWindow: center(ofShape: shape))
    let visible = Rect(origin: screenOrigin, size: screenSize)
    guard !visible.contains(point) else { return }
    let middle = center(ofShape: shape)
    let half = Point(x: screenSize.width / 2 / zoomScale, y: screenSize.height / 2 / zoomScale)
    setViewport(offset: middle - half, zoom: zoomScale)
  }

  /// How near the window's edge, in points on screen, a cursor or a nudged
  /// shape may come before the view follows it.
  static let followMargin = 24.0

  /// The view pans just enough to keep `point` `followMargin` inside the
  /// window, so that a cursor or a shape moved by the arrows stays in sight.
  private func follow(_ point: Point) {
    let onScreen = convert(toWindow: point)
    let margin = min(DrawView.followMargin, screenSize.width / 2, screenSize.height / 2)
    func overshoot(_ value: Double, _ low: Double, _ length: Double) -> Double {
      if value < low + margin { return value - (low + margin) }
      if value > low + length - margin { return value - (low + length - margin) }
      return 0
    }
    let shift = Point(
      x: overshoot(onScreen.x, screenOrigin.x, screenSize.width),
      y: overshoot(onScreen.y, screenOrigin.y, screenSize.height))
    guard shift != .zero else { return }
    // A viewport change lets go of the selection (a tap's menu would point
    // at the old place); a shape moved by the keys keeps it, its menu hidden.
    let selected = (line: selectedLineIndex, circle: selectedCircleIndex)
    setViewport(offset: contentOffset + shift * (1 / zoomScale), zoom: zoomScale)
    (selectedLineIndex, selectedCircleIndex) = selected
  }

  /// Enter: the focused shape selected (its Delete menu shown, as a tap
  /// shows it), or let go of when it was; a keyboard line's end fixed.
  private func activate() {
    if let line = keyboardLine {
      fixEnd(of: line)
      return
    }
    guard let shape = focusedShape() else { return }
    let selected = shape.isCircle ? selectedCircleIndex == shape.index : selectedLineIndex == shape.index
    deselectForKeyboard()
    guard !selected else { return }
    if shape.isCircle { selectedCircleIndex = shape.index } else { selectedLineIndex = shape.index }
    becomeFirstResponder()
    guard let menu = application?.menuController else { return }
    menu.menuItems = [MenuItem(title: "Delete", action: .delete)]
    menu.showMenu(from: self, at: center(ofShape: shape))
  }

  /// The first Enter fixes the first end; the second adds the line, in the
  /// color and width a finger's would get, and focuses it. An end on the
  /// first one adds nothing (no line has no length).
  private func fixEnd(of line: KeyboardLine) {
    guard let first = line.firstEnd else {
      keyboardLine?.firstEnd = line.cursor
      return
    }
    guard first != line.cursor else { return }
    var added = Line(begin: first, end: line.cursor, width: options.lineWidth)
    added.color = options.color(for: added.segment)
    added.id = model.nextID()
    keyboardLine = nil
    commit(.add(lines: [added], circles: [], at: nil), freshIDs: true)
    if let index = drawing.lines.lastIndex(where: { $0.id == added.id }) {
      keyboardFocus = KeyboardFocus(shape: .line(added.id), index: index)
    }
  }

  /// Moves the selected shape by `offset` (within the document's limit) as
  /// one undoable change, as a long press's move is; it stays selected.
  private func nudgeSelection(by offset: Point) {
    application?.menuController.hideMenu()
    if let index = selectedCircleIndex, drawing.circles.indices.contains(index) {
      let circle = drawing.circles[index]
      let allowed = DrawingLimits.allowedOffset(offset, for: circle)
      guard allowed != .zero else { return }
      commit(.moveCircle(circle.id, center: circle.center + allowed))
      selectedCircleIndex = drawing.circles.firstIndex { $0.id == circle.id }
    } else if let index = selectedLineIndex, drawing.lines.indices.contains(index) {
      let line = drawing.lines[index]
      let moved = line.offset(by: DrawingLimits.allowedOffset(offset, for: line))
      guard moved != line else { return }
      commit(.moveLine(line.id, begin: moved.begin, end: moved.end))
      selectedLineIndex = drawing.lines.firstIndex { $0.id == line.id }
    }
  }

  /// The selection and its menu go (the focus stays where it is).
  private func deselectForKeyboard() {
    clearSelection()
    application?.menuController.hideMenu()
  }
}
