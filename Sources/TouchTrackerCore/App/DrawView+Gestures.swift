/// The actions DrawView's gesture recognizers send.
extension Action {
  static let doubleTap = Action("doubleTap:")
  static let tap = Action("tap:")
  static let longPress = Action("longPress:")
  static let moveLine = Action("moveLine:")
  static let twoFingerTap = Action("twoFingerTap:")
  static let panCanvas = Action("panCanvas:")
}

/// The actions DrawView performs, looked up once in a table: a `switch` over
/// `Action` values compares their names case by case, and in the wasm each
/// comparison is inlined (two such switches were 3 KB).
enum DrawViewAction: Int {
  case doubleTap, tap, longPress, moveLine, twoFingerTap, panCanvas, delete, undo, redo

  /// In the order of the cases.
  private static let actions: [Action] = [
    .doubleTap, .tap, .longPress, .moveLine, .twoFingerTap, .panCanvas, .delete, .undo, .redo,
  ]

  init?(_ action: Action) {
    guard let index = DrawViewAction.actions.firstIndex(of: action) else { return nil }
    self.init(rawValue: index)
  }
}

extension DrawView: GestureRecognizerDelegate {
  func installGestureRecognizers() {
    // The names the book gives them, shown by the inspector and the log.
    doubleTapRecognizer.name = "double tap"
    tapRecognizer.name = "tap"
    longPressRecognizer.name = "long press"
    moveRecognizer.name = "pan"
    twoFingerTapRecognizer.name = "two-finger tap"
    doubleTapRecognizer.numberOfTapsRequired = 2
    // Hold a touch back until we know it is not a double tap, so a tap never
    // leaves a dot; a line that does start is delivered from where it began.
    doubleTapRecognizer.delaysTouchesBegan = true
    doubleTapRecognizer.addTarget(self, action: .doubleTap)
    addGestureRecognizer(doubleTapRecognizer)

    tapRecognizer.delaysTouchesBegan = true
    tapRecognizer.require(toFail: doubleTapRecognizer)
    tapRecognizer.addTarget(self, action: .tap)
    addGestureRecognizer(tapRecognizer)

    // Not in the book: a two-finger tap undoes, as in drawing apps
    // (Procreate, Concepts). Holding the fingers back until it fails keeps a
    // two-finger tap from leaving two dots or a dot-sized circle; fingers that
    // move (a circle) fail it at 10 points and are delivered as they landed.
    twoFingerTapRecognizer.numberOfTouchesRequired = 2
    twoFingerTapRecognizer.delaysTouchesBegan = true
    twoFingerTapRecognizer.addTarget(self, action: .twoFingerTap)
    addGestureRecognizer(twoFingerTapRecognizer)

    longPressRecognizer.delegate = self
    longPressRecognizer.addTarget(self, action: .longPress)
    addGestureRecognizer(longPressRecognizer)

    // Drawing is panning too: the pan must not take the view's touches.
    moveRecognizer.cancelsTouchesInView = false
    // Nor hold back a lifted finger's end while other fingers keep the pan
    // undecided: that finger's line would stay red until every finger lifts.
    moveRecognizer.delaysTouchesEnded = false
    moveRecognizer.delegate = self
    moveRecognizer.addTarget(self, action: .moveLine)
    addGestureRecognizer(moveRecognizer)

    // Not in the book: two fingers that land together and move together
    // pan and zoom the drawing; spread at once, they still draw the circle
    // (`CanvasGestureRecognizer`). It cancels the fingers' circle or lines.
    canvasRecognizer.name = "two-finger pan"
    canvasRecognizer.delegate = self
    canvasRecognizer.addTarget(self, action: .panCanvas)
    addGestureRecognizer(canvasRecognizer)
  }

  func canPerformDrawViewAction(_ action: Action) -> Bool {
    switch DrawViewAction(action) {
    case .delete: selectedLineIndex != nil || selectedCircleIndex != nil
    case .undo: model.canUndo
    case .redo: model.canRedo
    case .doubleTap, .tap, .longPress, .moveLine, .twoFingerTap, .panCanvas: true
    case nil: false
    }
  }

  func performDrawViewAction(_ action: Action) {
    switch DrawViewAction(action) {
    case .doubleTap: clearAll()
    case .tap: tap()
    case .longPress: longPress()
    case .moveLine: moveSelectedLine()
    case .twoFingerTap: undo()
    case .panCanvas: followCanvasGesture()
    case .delete: deleteSelectedLine()
    case .undo: undo()
    case .redo: redo()
    case nil: break
    }
  }

  /// The nearest finished line within `selectionRadius` of `point`, by true
  /// segment distance. The radius is on screen: zoomed in, the finger
  /// covers less of the drawing.
  public func indexOfLine(at point: Point) -> Int? {
    model.indexOfLine(at: point, within: selectionReach)
  }

  /// `selectionRadius` in the drawing's units.
  private var selectionReach: Double { DrawView.selectionRadius / zoomScale }

  /// The circle whose outline passes nearest `point`, within
  /// `selectionRadius` of it (the front-most of equally near ones). A scan:
  /// drawings hold far fewer circles than lines.
  @inline(never)
  public func indexOfCircle(at point: Point) -> Int? {
    var best: Int?
    var bestDistance = selectionReach
    for index in drawing.circles.indices {
      let circle = drawing.circles[index]
      let distance = abs(point.distance(to: circle.center) - circle.radius)
      if distance <= bestDistance {
        best = index
        bestDistance = distance
      }
    }
    return best
  }

  /// No line or circle selected.
  func clearSelection() {
    selectedLineIndex = nil
    selectedCircleIndex = nil
  }

  private func clearAll() {
    linesInProgress.removeAll()
    circlesInProgress.removeAll()
    clearSelection()
    application?.menuController.hideMenu()
    if !drawing.isEmpty { commit(.clear) }
    setNeedsDisplay()
  }

  private func tap() {
    // Another finger's tap while a long press holds a line: the held line
    // keeps its selection (it follows its own finger only). Taking it let
    // go of the line without its move being recorded.
    guard !isHoldingShape else { return }
    let point = tapRecognizer.location(in: self)
    // A line near the tap wins over a circle near it.
    selectedLineIndex = indexOfLine(at: point)
    selectedCircleIndex = selectedLineIndex == nil ? indexOfCircle(at: point) : nil
    becomeFirstResponder()
    guard let menu = application?.menuController else { return }
    if selectedLineIndex != nil || selectedCircleIndex != nil {
      menu.menuItems = [MenuItem(title: "Delete", action: .delete)]
      menu.showMenu(from: self, at: point)
    } else {
      menu.hideMenu()
    }
  }

  private func longPress() {
    switch longPressRecognizer.state {
    case .began:
      // A line near the press wins over a circle near it, as for a tap.
      let point = longPressRecognizer.location(in: self)
      selectedLineIndex = indexOfLine(at: point)
      selectedCircleIndex = selectedLineIndex == nil ? indexOfCircle(at: point) : nil
      lineBeforeMove = selectedLineIndex.map { drawing.lines[$0] }
      circleBeforeMove = selectedCircleIndex.map { drawing.circles[$0] }
      // The held shape leaves the static layer and follows the finger in the live one.
      if let held = lineBeforeMove?.paintedBounds ?? circleBeforeMove?.paintedBounds {
        restructureStaticLayer(damage: held)
      }
      application?.menuController.hideMenu()
      // Movement before the press was recognized is not the user moving the line.
      moveRecognizer.setTranslation(.zero, in: self)
    case .ended, .cancelled:
      finishHeldMove()
      clearSelection()
    default:
      break
    }
  }

  /// Moves the held line or circle by the pan's translation since the last
  /// call. Only a shape held by a long press moves: a line selected by a tap
  /// stays put while the user draws (the classic app's "mysterious lines").
  /// The move stops at the document format's limit (see `DrawingLimits`).
  private func moveSelectedLine() {
    guard longPressRecognizer.state.isActive, isHoldingShape, moveRecognizer.state.isActive else { return }
    let translation = moveRecognizer.translation(in: self)
    if lineBeforeMove != nil, let index = selectedLineIndex {
      let line = drawing.lines[index]
      model.drawing.lines[index] = line.offset(by: DrawingLimits.allowedOffset(translation, for: line))
    } else if circleBeforeMove != nil, let index = selectedCircleIndex {
      let offset = DrawingLimits.allowedOffset(translation, for: drawing.circles[index])
      model.drawing.circles[index].center.x += offset.x
      model.drawing.circles[index].center.y += offset.y
    } else {
      return
    }
    moveRecognizer.setTranslation(.zero, in: self)
    setNeedsDisplay()
  }

  public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
    // A press away from every line is the start of a slow line, not a selection.
    if recognizer === longPressRecognizer {
      let point = recognizer.location(in: self)
      return indexOfLine(at: point) != nil || indexOfCircle(at: point) != nil
    }
    // A held line stays under its finger: the drawing does not move beneath
    // it. Nor does it under a pen's line: two palms sliding together while
    // a pen draws are a hand, not a pan.
    if recognizer === canvasRecognizer {
      return !isHoldingShape && !isPenInUse(at: application?.clock.now ?? 0)
    }
    return true
  }

  public func gestureRecognizer(
    _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
  ) -> Bool {
    recognizer === moveRecognizer || (recognizer === canvasRecognizer && other === moveRecognizer)
  }

  /// While a long press holds a line, the line follows its own finger only:
  /// fingers that land later draw lines of their own, and neither the press
  /// nor the pan hears them. (Heard, they pulled the pan's average toward
  /// them, so the held line jumped when another finger drew, moved half as
  /// far with a second finger resting, and let go when that finger lifted.)
  public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
    !isHoldingShape || (recognizer !== longPressRecognizer && recognizer !== moveRecognizer)
  }

  /// A touch began somewhere in the window. A tap's selection lasts as long
  /// as its menu: when the touch took the menu away (a touch anywhere but on
  /// the menu does), the line is deselected too; it used to stay green with
  /// nothing on a touch screen able to act on it. A line held by a long
  /// press stays selected.
  func windowTouchBegan() {
    guard selectedLineIndex != nil || selectedCircleIndex != nil, !isHoldingShape,
      application?.menuController.isMenuVisible == false
    else { return }
    clearSelection()
  }
}
