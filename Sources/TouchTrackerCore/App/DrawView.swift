/// The canvas: one line per finger while drawing, a circle for two fingers
/// that land together, and the finished drawing underneath.
///
/// Touch handling lives here; gestures are in `DrawView+Gestures.swift`,
/// what a selected shape can have done to it in `DrawView+Selection.swift`,
/// drawing in `DrawView+Rendering.swift`.
public final class DrawView: View {
  public static let backgroundGray = Color(rgb: 0xc8c8c8)
  public static let inProgressColor = Color.red
  public static let selectedColor = Color(rgb: 0x00c000)
  /// A tap selects the nearest line at most this far away.
  public static let selectionRadius = 20.0
  /// How far (on screen) a first finger may have moved when a second one
  /// landing within the landing window makes the two a circle.
  static let circleLandingSlop = 10.0

  /// Whether `point` is within `circleLandingSlop` of `start` on screen.
  func isWithinLandingSlop(_ point: Point, of start: Point) -> Bool {
    point.distance(to: start) * zoomScale <= DrawView.circleLandingSlop
  }

  /// The drawing and its changes, undo and sharing (`DrawingModel`): the
  /// view shows it, and its touches and gestures change it.
  public let model = DrawingModel()
  /// What the view shows: the model's drawing.
  public var drawing: Drawing {
    @inline(__always) get { model.drawing }
  }
  @exclusivity(unchecked) public var options = DrawingOptions() {
    didSet { if options.penOnlyDraws != oldValue.penOnlyDraws { updateAllowedTouchTypes() } }
  }

  /// Lines being drawn, one per finger, in the order the fingers came down.
  @exclusivity(unchecked) var linesInProgress: [LineInProgress] = []
  @exclusivity(unchecked) var circlesInProgress: [CircleInProgress] = []
  /// The pens down on this view, and when the last one lifted (`DrawView+Pen.swift`).
  var pensDown = 0
  var lastPenLift = -Double.infinity

  public internal(set) var selectedLineIndex: Int? {
    didSet { if selectedLineIndex != oldValue { setNeedsDisplay() } }
  }
  /// The circle a tap selected (a line and a circle are never both selected).
  public internal(set) var selectedCircleIndex: Int? {
    didSet { if selectedCircleIndex != oldValue { setNeedsDisplay() } }
  }
  /// Set while a long press holds a line, so that only then panning moves it.
  var lineBeforeMove: Line?
  /// Set while a long press holds a circle (by its outline), as for a line.
  var circleBeforeMove: Circle?
  /// A long press holds a line or a circle.
  var isHoldingShape: Bool { lineBeforeMove != nil || circleBeforeMove != nil }
  /// The shape the keyboard's focus is on, and the line being drawn with
  /// the keyboard (`DrawView+Keyboard.swift`).
  var keyboardFocus: KeyboardFocus? {
    didSet { if keyboardFocus != oldValue { setNeedsDisplay() } }
  }
  var keyboardLine: KeyboardLine? {
    didSet { if keyboardLine != oldValue { setNeedsDisplay() } }
  }
  /// The focus ring is hidden while the canvas does not have the keyboard (`KeyCommand.blur`).
  var keyboardMarksHidden = false {
    didSet { if keyboardMarksHidden != oldValue { setNeedsDisplay() } }
  }

  let doubleTapRecognizer = TapGestureRecognizer()
  let tapRecognizer = TapGestureRecognizer()
  let longPressRecognizer = LongPressGestureRecognizer()
  let moveRecognizer = PanGestureRecognizer()
  let twoFingerTapRecognizer = TapGestureRecognizer()
  /// Two fingers moving together pan and zoom the drawing (`DrawView+Viewport.swift`).
  let canvasRecognizer = CanvasGestureRecognizer()
  /// The drawing's point between those fingers when they landed, and the zoom then.
  var canvasGestureStart: (anchor: Point, zoom: Double)?
  /// The book's two-finger rules, or these with pan, zoom and the landing window.
  public var twoFingerRules = TwoFingerRules.panAndZoom {
    didSet { canvasRecognizer.isEnabled = twoFingerRules == .panAndZoom }
  }
  /// The view's size on screen: the frame's as last set (a zoomed frame
  /// reads back through its transform, a rounding away from it).
  public private(set) var screenSize = Size(width: 0, height: 0)
  var screenOrigin = Point.zero

  public override var frame: Rect {
    willSet {
      screenSize = newValue.size
      screenOrigin = newValue.origin
    }
  }

  /// Called after each finished change (to save), with the new drawing.
  public var onChange: ((Drawing) -> Void)?

  /// Bumped on every change to the static layer (the finished drawing, or a
  /// shape leaving it while held); hosts ask for the static layer again when it moves.
  public internal(set) var drawingVersion = 0
  /// What changed at each recent `drawingVersion`, for hosts that repaint only that.
  var layerLog = StaticLayerLog()
  /// The shape last let go of after a long press, and the `drawingVersion`
  /// that put it back in the static layer: drawn in the live layer, in its
  /// own color, until the host's static layer shows that version
  /// (`staticLayerPainted`). A host that repaints over frames (the page: ~0.3 s
  /// at 100k lines) would show it nowhere meanwhile: held, it was in the
  /// live layer only. Nil for a host that never said it paints over frames.
  var putBack: (id: ShapeID, index: Int, isCircle: Bool, version: Int)?
  /// The host said what its static layer shows (`staticLayerPainted`): it paints changes over frames.
  var hostPaintsOverFrames = false

  /// The host's static layer now shows the drawing at `version`.
  public func staticLayerPainted(version: Int) {
    hostPaintsOverFrames = true
    guard let putBack, putBack.version <= version else { return }
    self.putBack = nil
    setNeedsDisplay()
  }
  public override init(frame: Rect) {
    super.init(frame: frame)
    screenSize = frame.size
    screenOrigin = frame.origin
    isMultipleTouchEnabled = true
    installGestureRecognizers()
    updateAllowedTouchTypes()
  }

  public var linesInProgressCount: Int { linesInProgress.count }
  public var circlesInProgressCount: Int { circlesInProgress.count }

  // MARK: Responder

  public override var canBecomeFirstResponder: Bool { true }
  public override var inspectorName: String { "DrawView" }

  public override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool {
    canPerformDrawViewAction(action)
  }

  public override func perform(_ action: Action, withSender sender: AnyObject?) {
    performDrawViewAction(action)
  }

  public override func draw(in context: inout RenderContext) {
    drawLiveContent(in: &context)
  }

  // MARK: Touches

  public override func touchesBegan(_ touches: [Touch], with event: Event) {
    notePens(began: touches)
    if touches.count == 1, startsCircleWithFirstFinger(touches[0], in: event) { return }
    startsLinesAgain(for: touches)
    // A finger on the screen while a pen is in use is a palm: it draws nothing.
    if touches.count == 2 && !rejectsAsPalm(touches[0]) && !rejectsAsPalm(touches[1]) {
      let a = touches[0]
      let b = touches[1]
      circlesInProgress.append(
        CircleInProgress(
          first: a.identity, second: b.identity, firstCorner: drawingLocation(of: a),
          secondCorner: drawingLocation(of: b), width: options.lineWidth, landedAt: event.timestamp))
    } else {
      for touch in touches where !rejectsAsPalm(touch) {
        let location = drawingLocation(of: touch)
        var line = Line(begin: location, end: location, color: DrawView.inProgressColor)
        if LineInProgress.hasPressure(touch) { line.width = options.width(forPenForce: touch.force) }
        linesInProgress.append(LineInProgress(touch: touch, line: line))
      }
    }
    setNeedsDisplay()
  }

  /// A second finger landing just after the first, before it moved: the
  /// two draw a circle, as if they had landed in the same event (fingers
  /// seldom land in the same frame; `CanvasGestureRecognizer.landingWindow`).
  /// Where the first finger is now (its move in this same event may not
  /// have reached its line yet) says whether it moved.
  private func startsCircleWithFirstFinger(_ touch: Touch, in event: Event) -> Bool {
    guard twoFingerRules == .panAndZoom, circlesInProgress.isEmpty, linesInProgress.count == 1, !rejectsAsPalm(touch),
      let first = linesInProgress.first, !first.byPen,
      touch.timestamp - first.beganAt <= CanvasGestureRecognizer.landingWindow
    else { return false }
    let now = event.allTouches.first { $0.identity == first.touch }.map { drawingLocation(of: $0) } ?? first.line.end
    guard isWithinLandingSlop(now, of: first.line.begin) else { return false }
    linesInProgress.removeAll()
    circlesInProgress.append(
      CircleInProgress(
        first: first.touch, second: touch.identity, firstCorner: now, secondCorner: drawingLocation(of: touch),
        width: options.lineWidth, landedAt: first.beganAt, firstStart: first.line.begin))
    setNeedsDisplay()
    return true
  }

  /// A third finger landing within the landing window of a circle's first,
  /// when the circle's fingers landed apart and before they moved: the hand
  /// is drawing lines with many fingers (they seldom land in one frame), so
  /// the circle's fingers draw lines again, each from where it landed. (Two
  /// fingers that landed in one event stay the book's circle.)
  private func startsLinesAgain(for touches: [Touch]) {
    guard circlesInProgress.count == 1, let touch = touches.first, let circle = circlesInProgress.first,
      circle.byLandingWindow, !circle.firstLifted, !circle.secondLifted,
      touch.timestamp - circle.landedAt <= CanvasGestureRecognizer.landingWindow,
      isWithinLandingSlop(circle.firstCorner, of: circle.firstStart),
      isWithinLandingSlop(circle.secondCorner, of: circle.secondStart)
    else { return }
    circlesInProgress.removeAll()
    let red = DrawView.inProgressColor
    let first = Line(begin: circle.firstStart, end: circle.firstCorner, color: red)
    let second = Line(begin: circle.secondStart, end: circle.secondCorner, color: red)
    linesInProgress.append(LineInProgress(touch: circle.first, line: first, beganAt: circle.landedAt))
    linesInProgress.append(LineInProgress(touch: circle.second, line: second, beganAt: circle.landedAt))
  }

  public override func touchesMoved(_ touches: [Touch], with event: Event) {
    // By index: a touch is not copied (its view retained and released) to be read.
    for position in touches.indices { update(with: touches, at: position, in: event) }
    setNeedsDisplay()
  }

  public override func touchesEnded(_ touches: [Touch], with event: Event) {
    notePens(finished: touches)
    for (position, touch) in touches.enumerated() {
      update(with: touches, at: position, in: event)
      if let index = linesInProgress.firstIndex(where: { $0.touch == touch.identity }) {
        let progress = linesInProgress.remove(at: index)
        var line = progress.line
        line.color = options.color(for: line.segment)
        // A pen's line keeps the width of its last press (the lift reports no force).
        if !progress.byPressure { line.width = progress.width(at: touch.timestamp, options: options) }
        line.id = model.nextID()
        commit(.add(lines: [line], circles: [], at: nil), freshIDs: true)
      }
      if let index = circlesInProgress.firstIndex(where: { $0.involves(touch.identity) }) {
        circlesInProgress[index].lift(touch.identity)
        if circlesInProgress[index].isFinished {
          let progress = circlesInProgress.remove(at: index)
          var circle = progress.circle
          circle.color = options.color(for: Segment(begin: progress.firstCorner, end: progress.secondCorner))
          circle.id = model.nextID()
          commit(.add(lines: [], circles: [circle], at: nil), freshIDs: true)
        }
      }
    }
    setNeedsDisplay()
  }

  /// Only the cancelled fingers' work is thrown away; other fingers keep drawing.
  public override func touchesCancelled(_ touches: [Touch], with event: Event) {
    notePens(finished: touches)
    for touch in touches {
      linesInProgress.removeAll { $0.touch == touch.identity }
      circlesInProgress.removeAll { $0.involves(touch.identity) }
    }
    setNeedsDisplay()
  }

  /// Where `touch` draws: its location, clamped to what a document can hold
  /// (a finger far beyond the limit draws to the limit; see `DrawingLimits`).
  private func drawingLocation(of touch: Touch) -> Point {
    DrawingLimits.clamp(touch.location(in: self))
  }

  private func drawingLocation(ofWindowPoint point: Point) -> Point {
    DrawingLimits.clamp(convert(fromWindow: point))
  }

  /// Follows the touch at `position` of `touches`: read in place, not
  /// copied (a copy retains and releases its view), once per touch update.
  private func update(with touches: [Touch], at position: Int, in event: Event) {
    let identity = touches[position].identity
    let location = drawingLocation(ofWindowPoint: touches[position].locationInWindow)
    if let index = linesInProgress.firstIndex(where: { $0.touch == identity }) {
      // The distance runs through the samples the host coalesced into this
      // event, so a width by speed does not depend on how many there were.
      // Most events come with no samples: nothing to look up.
      if event.hasCoalescedSamples {
        for sample in event.coalescedSamples(of: identity) {
          let point = drawingLocation(ofWindowPoint: sample.location)
          linesInProgress[index].travelled += point.distance(to: linesInProgress[index].line.end)
          linesInProgress[index].line.end = point
        }
      }
      linesInProgress[index].travelled += location.distance(to: linesInProgress[index].line.end)
      linesInProgress[index].line.end = location
      if linesInProgress[index].byPressure {
        // A pen's pressure sets the width as it draws; the lift's (none) does not.
        if touches[position].phase == .moved {
          linesInProgress[index].line.width = options.width(forPenForce: touches[position].force)
        }
      } else if options.widthMode == .bySpeed {
        // With widths by speed, the line in progress shows the width it would
        // get if the finger lifted now (it used to stay 10 points, then snap).
        linesInProgress[index].line.width = linesInProgress[index].width(
          at: touches[position].timestamp, options: options)
      }
    }
    if let index = circlesInProgress.firstIndex(where: { $0.involves(identity) }) {
      circlesInProgress[index].move(identity, to: location)
    }
  }

  // MARK: Changes

  /// Applies this person's finished change to the model (undoable, and
  /// published), and shows it.
  func commit(_ change: Change, freshIDs: Bool = false) {
    guard let update = model.commit(change, freshIDs: freshIDs) else { return }
    didChange(update)
  }

  /// Brings the selection and the static layer's log up to date after a
  /// change went into the model, and reports it.
  func didChange(_ update: ModelUpdate) {
    if let selected = selectedLineIndex, selected >= drawing.lines.count { selectedLineIndex = nil }
    if let selected = selectedCircleIndex, selected >= drawing.circles.count { selectedCircleIndex = nil }
    staticLayerChanged(damage: update.damage, isAppend: update.isAppend)
    setNeedsDisplay()
    onChange?(drawing)
  }

  /// Replaces the whole drawing (opening a saved one): `DrawingModel.load`,
  /// with nothing selected and the static layer painted anew.
  public func load(_ newDrawing: Drawing) {
    model.load(newDrawing)
    clearSelection()
    restructureStaticLayer(damage: nil)
    setNeedsDisplay()
  }

  /// Takes back this person's newest action (by id: other people's changes
  /// since stay).
  public func undo() {
    finishHeldMove()
    guard let update = model.undo() else { return }
    clearSelection()
    application?.menuController.hideMenu()
    didChange(update)
  }

  public func redo() {
    finishHeldMove()
    guard let update = model.redo() else { return }
    clearSelection()
    application?.menuController.hideMenu()
    didChange(update)
  }
}

/// A finger's line while it is drawn.
struct LineInProgress {
  let touch: TouchIdentity
  var line: Line
  let beganAt: Double
  /// The distance the finger moved, for widths by speed.
  var travelled: Double
  /// Drawn by a pen (not a palm when a pen comes down).
  let byPen: Bool
  /// A pen that reports pressure draws it: its force sets the width (`DrawingOptions.width(forPenForce:)`).
  let byPressure: Bool

  init(touch: Touch, line: Line) {
    self.touch = touch.identity
    self.line = line
    self.beganAt = touch.timestamp
    self.travelled = 0
    self.byPen = touch.type == .pencil
    self.byPressure = LineInProgress.hasPressure(touch)
  }

  /// A finger's line that was part of a circle until a third finger landed (`DrawView.startsLinesAgain`).
  init(touch: TouchIdentity, line: Line, beganAt: Double) {
    self.touch = touch
    self.line = line
    self.beganAt = beganAt
    self.travelled = line.begin.distance(to: line.end)
    self.byPen = false
    self.byPressure = false
  }

  /// Whether `touch`'s line takes its width from its pressure: a pen whose host reports force.
  static func hasPressure(_ touch: Touch) -> Bool { touch.type == .pencil && touch.maximumPossibleForce > 0 }

  /// The width the line gets if its finger lifts at `time`.
  func width(at time: Double, options: DrawingOptions) -> Double {
    let duration = time - beganAt
    return options.width(forSpeed: duration > 0 ? travelled / duration : 0)
  }
}

/// Two fingers that landed together, at opposite corners of a circle's box.
struct CircleInProgress {
  let first: TouchIdentity
  let second: TouchIdentity
  var firstCorner: Point
  var secondCorner: Point
  var firstLifted = false
  var secondLifted = false
  let width: Double
  /// When the first finger landed, and where each did: when they landed
  /// apart (`byLandingWindow`), a third finger landing soon after makes
  /// them lines again, from there.
  let landedAt: Double
  let firstStart: Point
  let secondStart: Point
  let byLandingWindow: Bool

  init(
    first: TouchIdentity, second: TouchIdentity, firstCorner: Point, secondCorner: Point, width: Double,
    landedAt: Double, firstStart: Point? = nil
  ) {
    self.first = first
    self.second = second
    self.firstCorner = firstCorner
    self.secondCorner = secondCorner
    self.width = width
    self.landedAt = landedAt
    self.firstStart = firstStart ?? firstCorner
    self.secondStart = secondCorner
    self.byLandingWindow = firstStart != nil
  }

  func involves(_ touch: TouchIdentity) -> Bool { touch == first || touch == second }

  mutating func move(_ touch: TouchIdentity, to point: Point) {
    if touch == first { firstCorner = point } else if touch == second { secondCorner = point }
  }

  mutating func lift(_ touch: TouchIdentity) {
    if touch == first { firstLifted = true } else if touch == second { secondLifted = true }
  }

  var isFinished: Bool { firstLifted && secondLifted }

  var circle: Circle {
    Circle(corner: firstCorner, corner: secondCorner, color: DrawView.inProgressColor, width: width)
  }
}
