import Testing
import TouchKit

/// The code of the DocC articles (Sources/TouchKit/TouchKit.docc), run, with
/// what the articles say it does. A change here belongs in the article too.
@Suite struct DocumentationExamplesTests {
  // MARK: ResponderChain.md

  /// Puts a dot wherever a finger comes down.
  final class DotView: View {
    var dots: [Point] = []

    override func touchesBegan(_ touches: [Touch], with event: Event) {
      for touch in touches { dots.append(touch.location(in: self)) }
    }
  }

  final class GenerousButton: Button {
    override func point(inside point: Point) -> Bool {
      bounds.insetBy(dx: -10, dy: -10).contains(point)
    }
  }

  /// Deletes its selection when a Delete command reaches it.
  final class Canvas: View {
    var deletions = 0

    override var canBecomeFirstResponder: Bool { true }

    override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool {
      action == .delete
    }

    override func perform(_ action: Action, withSender sender: AnyObject?) {
      if action == .delete { deletions += 1 }
    }
  }

  @Test func responderChainArticle() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let panel = View(frame: Rect(x: 100, y: 100, width: 200, height: 200))
    let dotView = DotView(frame: Rect(x: 50, y: 50, width: 100, height: 100))
    panel.addSubview(dotView)
    application.window.addSubview(panel)

    #expect(application.window.hitTest(Point(x: 160, y: 160)) === dotView)
    #expect(application.window.hitTest(Point(x: 110, y: 110)) === panel)

    try application.send([TouchInput(id: 1, phase: .began, x: 160, y: 160)], at: 0)
    #expect(dotView.dots == [Point(x: 10, y: 10)])

    let controller = ViewController()
    application.window.rootViewController = controller
    let child = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
    controller.view.addSubview(child)

    var chain: [String] = []
    var responder: Responder? = child
    while let current = responder {
      chain.append(current.inspectorName)
      responder = current.next
    }
    #expect(chain == ["View", "View", "ViewController", "Window", "Application"])

    let canvas = Canvas(frame: Rect(x: 0, y: 0, width: 400, height: 300))
    application.window.addSubview(canvas)
    canvas.becomeFirstResponder()

    let deleteButton = Button(title: "Delete", frame: Rect(x: 0, y: 340, width: 100, height: 44))
    deleteButton.addTarget(nil, action: .delete, for: .touchUpInside)
    application.window.addSubview(deleteButton)

    try application.send([TouchInput(id: 2, phase: .began, x: 50, y: 360)], at: 1)
    try application.send([TouchInput(id: 2, phase: .ended, x: 50, y: 360)], at: 1.1)
    #expect(canvas.deletions == 1)

    #expect(canvas.target(forAction: .delete, withSender: nil) === canvas)
    #expect(application.sendAction(.delete, to: nil, from: nil))
    #expect(canvas.deletions == 2)
  }

  /// "This button takes touches up to 10 points outside its bounds (as long as
  /// they are inside its superview)."
  @Test func aGenerousButtonTakesTouchesNearIt() {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let button = GenerousButton(title: "OK", frame: Rect(x: 100, y: 100, width: 80, height: 40))
    application.window.addSubview(button)
    #expect(application.window.hitTest(Point(x: 95, y: 135)) === button)
    #expect(application.window.hitTest(Point(x: 185, y: 145)) === button)
    #expect(application.window.hitTest(Point(x: 89, y: 120)) === application.window)
  }

  // MARK: GestureRecognizers.md

  /// Writes down the actions it is sent.
  final class ActionLog: Responder {
    var actions: [String] = []

    override func perform(_ action: Action, withSender sender: AnyObject?) {
      actions.append(action.name)
    }
  }

  final class TouchLogView: View {
    var log: [String] = []
    override func touchesBegan(_ touches: [Touch], with event: Event) { log.append("began") }
    override func touchesMoved(_ touches: [Touch], with event: Event) { log.append("moved") }
    override func touchesEnded(_ touches: [Touch], with event: Event) { log.append("ended") }
    override func touchesCancelled(_ touches: [Touch], with event: Event) { log.append("cancelled") }
  }

  /// Lets every pair of recognizers it is asked about recognize at once.
  final class Together: GestureRecognizerDelegate {
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }

    func gestureRecognizer(
      _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool { true }
  }

  /// One finger pulling down: begins after 20 points, fails if the finger goes up first.
  final class PullDownGestureRecognizer: GestureRecognizer {
    private var start: Point?
    private(set) var distance = 0.0

    override func touchesBegan(_ touches: [Touch], with event: Event) {
      guard numberOfTouches == 1 else {
        set(.failed, because: .wrongNumberOfTouches)
        return
      }
      start = touches[0].location(in: nil)
    }

    override func touchesMoved(_ touches: [Touch], with event: Event) {
      guard let start else { return }
      distance = touches[0].location(in: nil).y - start.y
      if state == .possible {
        if distance < -10 { state = .failed } else if distance > 20 { state = .began }
      } else {
        state = .changed
      }
    }

    override func touchesEnded(_ touches: [Touch], with event: Event) {
      state = state == .possible ? .failed : .ended
    }

    override func reset() {
      start = nil
      distance = 0
    }
  }

  @Test func gestureRecognizersArticle() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let view = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    application.window.addSubview(view)
    let log = ActionLog()

    let doubleTap = TapGestureRecognizer()
    doubleTap.numberOfTapsRequired = 2
    doubleTap.addTarget(log, action: Action("doubleTap:"))
    let tap = TapGestureRecognizer()
    tap.addTarget(log, action: Action("tap:"))
    tap.require(toFail: doubleTap)
    view.addGestureRecognizer(doubleTap)
    view.addGestureRecognizer(tap)

    try application.send([TouchInput(id: 1, phase: .began, x: 50, y: 50)], at: 0)
    try application.send([TouchInput(id: 1, phase: .ended, x: 50, y: 50)], at: 0.1)
    #expect(log.actions == [])
    application.advanceClock(to: 0.5)
    #expect(log.actions == ["tap:"])

    let drawing = TouchLogView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    application.window.addSubview(drawing)
    let pan = PanGestureRecognizer()
    drawing.addGestureRecognizer(pan)

    try application.send([TouchInput(id: 2, phase: .began, x: 50, y: 50)], at: 1)
    try application.send([TouchInput(id: 2, phase: .moved, x: 55, y: 50)], at: 1.1)
    try application.send([TouchInput(id: 2, phase: .moved, x: 70, y: 50)], at: 1.2)
    #expect(pan.state == .began)
    #expect(pan.translation(in: nil) == Point(x: 20, y: 0))
    try application.send([TouchInput(id: 2, phase: .ended, x: 70, y: 50)], at: 1.3)
    #expect(drawing.log == ["began", "moved", "cancelled"])

    let tapView = TouchLogView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    application.window.addSubview(tapView)
    let quietTap = TapGestureRecognizer()
    quietTap.delaysTouchesBegan = true
    tapView.addGestureRecognizer(quietTap)

    try application.send([TouchInput(id: 3, phase: .began, x: 10, y: 10)], at: 2)
    try application.send([TouchInput(id: 3, phase: .ended, x: 10, y: 10)], at: 2.1)
    #expect(tapView.log == [])

    try application.send([TouchInput(id: 4, phase: .began, x: 10, y: 10)], at: 3)
    try application.send([TouchInput(id: 4, phase: .moved, x: 40, y: 10)], at: 3.1)
    #expect(tapView.log == ["began", "moved"])
    try application.send([TouchInput(id: 4, phase: .ended, x: 40, y: 10)], at: 3.2)

    let photo = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    application.window.addSubview(photo)
    let together = Together()
    let pinch = PinchGestureRecognizer()
    let rotation = RotationGestureRecognizer()
    pinch.delegate = together
    rotation.delegate = together
    photo.addGestureRecognizer(pinch)
    photo.addGestureRecognizer(rotation)

    try application.send(
      [TouchInput(id: 5, phase: .began, x: 100, y: 200), TouchInput(id: 6, phase: .began, x: 300, y: 200)], at: 4)
    try application.send([TouchInput(id: 6, phase: .moved, x: 320, y: 240)], at: 4.1)
    #expect(pinch.state == .began)
    #expect(rotation.state == .began)
    withExtendedLifetime(together) {}
  }

  /// "Without the delegate, the pinch, which is sent the move first, begins
  /// and prevents the rotation, which fails."
  @Test func withoutTheDelegateThePinchPreventsTheRotation() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let photo = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    application.window.addSubview(photo)
    let pinch = PinchGestureRecognizer()
    let rotation = RotationGestureRecognizer()
    photo.addGestureRecognizer(pinch)
    photo.addGestureRecognizer(rotation)

    try application.send(
      [TouchInput(id: 5, phase: .began, x: 100, y: 200), TouchInput(id: 6, phase: .began, x: 300, y: 200)], at: 4)
    try application.send([TouchInput(id: 6, phase: .moved, x: 320, y: 240)], at: 4.1)
    #expect(pinch.state == .began)
    #expect(rotation.state == .failed)
  }

  /// The article's custom recognizer, run: states and the actions they send.
  @Test func thePullDownRecognizerBeginsChangesAndEnds() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let view = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    application.window.addSubview(view)
    let pull = PullDownGestureRecognizer()
    let states = StateLog()
    pull.addTarget(states, action: Action("pull:"))
    view.addGestureRecognizer(pull)

    try application.send([TouchInput(id: 1, phase: .began, x: 100, y: 100)], at: 0)
    try application.send([TouchInput(id: 1, phase: .moved, x: 100, y: 110)], at: 0.1)
    #expect(pull.state == .possible)
    try application.send([TouchInput(id: 1, phase: .moved, x: 100, y: 130)], at: 0.2)
    #expect(pull.state == .began)
    try application.send([TouchInput(id: 1, phase: .moved, x: 100, y: 150)], at: 0.3)
    #expect(pull.distance == 50)
    try application.send([TouchInput(id: 1, phase: .ended, x: 100, y: 150)], at: 0.4)
    #expect(states.states == ["began", "changed", "ended"])
    #expect(pull.state == .possible && pull.distance == 0, "reset after it ended")

    // Going up first fails it: no action.
    try application.send([TouchInput(id: 2, phase: .began, x: 100, y: 100)], at: 1)
    try application.send([TouchInput(id: 2, phase: .moved, x: 100, y: 85)], at: 1.1)
    #expect(pull.state == .failed)
    try application.send([TouchInput(id: 2, phase: .ended, x: 100, y: 85)], at: 1.2)
    #expect(states.states == ["began", "changed", "ended"])
  }

  /// Writes down the state of the recognizer that sent each action.
  final class StateLog: Responder {
    var states: [String] = []
    override func perform(_ action: Action, withSender sender: AnyObject?) {
      states.append((sender as? GestureRecognizer)?.state.name ?? "?")
    }
  }

  // MARK: HostingTouchKit.md

  /// Keeps every position the host reported, coalesced ones included.
  final class InkView: View {
    var points: [Point] = []

    override func touchesMoved(_ touches: [Touch], with event: Event) {
      for touch in touches {
        for sample in event.coalescedTouches(for: touch) { points.append(sample.location(in: self)) }
      }
    }
  }

  /// A ring in the middle of the view.
  final class RingView: View {
    override func draw(in context: inout RenderContext) {
      context.strokeCircle(center: bounds.center, radius: 10, color: .blue, width: 2)
    }
  }

  @Test func hostingArticle() throws {
    let application = Application(windowSize: Size(width: 320, height: 480))
    let ink = InkView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    application.window.addSubview(ink)

    try application.send([TouchInput(id: 1, phase: .began, x: 10, y: 10)], at: 0)
    try application.send([TouchInput(id: 1, phase: .moved, x: 30, y: 10)], at: 0.016)
    try application.send([TouchInput(id: 1, phase: .ended, x: 30, y: 10)], at: 0.032)
    #expect(ink.points == [Point(x: 30, y: 10)])

    do {
      try application.send([TouchInput(id: 9, phase: .moved, x: 0, y: 0)], at: 1)
      Issue.record("a move before a began is refused")
    } catch {
      #expect(error == TouchInputError.notBegan(id: 9, phase: .moved))
      #expect(error.message == "Touch 9 moved before it began")
    }
    #expect(throws: TouchInputError.nonFiniteLocation(id: 2)) {
      try application.send([TouchInput(id: 2, phase: .began, x: .nan, y: 0)], at: 1)
    }
    #expect(application.activeTouchCount == 0, "a refused event changes nothing")

    let pressView = View(frame: Rect(x: 0, y: 0, width: 320, height: 100))
    application.window.addSubview(pressView)
    let press = LongPressGestureRecognizer()
    pressView.addGestureRecognizer(press)

    try application.send([TouchInput(id: 3, phase: .began, x: 100, y: 50)], at: 2)
    #expect(application.clock.nextFireTime == 2.5)
    application.advanceClock(to: 2.5)
    #expect(press.state == .began)

    let clock = Clock()
    var fired: [Double] = []
    clock.schedule(after: 0.5) { fired.append(clock.now) }
    clock.advance(to: 0.4)
    #expect(fired == [])
    clock.advance(to: 1)
    #expect(fired == [0.5])
    #expect(clock.now == 1)

    try application.send([TouchInput(id: 4, phase: .began, x: 10, y: 200)], at: 3)
    try application.send(
      [
        TouchInput(
          id: 4, phase: .moved, location: Point(x: 30, y: 200),
          coalesced: [TouchSample(location: Point(x: 20, y: 200), timestamp: 3.008)],
          predicted: [TouchSample(location: Point(x: 40, y: 200), timestamp: 3.024)])
      ], at: 3.016)
    #expect(ink.points == [Point(x: 30, y: 10), Point(x: 20, y: 200), Point(x: 30, y: 200)])

    let scene = Application(windowSize: Size(width: 200, height: 200))
    let square = View(frame: Rect(x: 10, y: 20, width: 30, height: 40))
    square.backgroundColor = .red
    scene.window.addSubview(square)
    scene.window.addSubview(RingView(frame: Rect(x: 100, y: 100, width: 40, height: 40)))

    #expect(scene.window.needsDisplay)
    #expect(
      scene.window.render().commands == [
        .fill(Rect(x: 10, y: 20, width: 30, height: 40), color: .red, cornerRadius: 0),
        .circle(center: Point(x: 120, y: 120), radius: 10, color: .blue, width: 2),
      ])
    #expect(!scene.window.needsDisplay)
    square.backgroundColor = .green
    #expect(scene.window.needsDisplay, "until a view changes")
  }

  /// The article's feed: reports of fingers one at a time, one event a commit.
  @Test func hostingArticleFeed() {
    let application = Application(windowSize: Size(width: 320, height: 480))
    let dots = DotView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    dots.isMultipleTouchEnabled = true  // as in UIKit, a view hears one finger unless it asks for more
    application.window.addSubview(dots)
    var events = 0
    var feed = TouchFeed()
    feed.onDeliver = { _, _ in events += 1 }

    feed.report(id: 1, phaseCode: TouchPhase.began.rawValue, location: Point(x: 100, y: 100), time: 5, to: application)
    feed.report(id: 2, phaseCode: TouchPhase.began.rawValue, location: Point(x: 200, y: 100), time: 5, to: application)
    #expect(feed.commit(at: 5.016, to: application) == .queued)
    #expect(events == 1, "one event")
    #expect(dots.dots == [Point(x: 100, y: 100), Point(x: 200, y: 100)], "with two began touches")
    #expect(feed.touchesDown == 2)

    let moved = feed.report(
      id: 7, phaseCode: TouchPhase.moved.rawValue, location: Point(x: 0, y: 0), time: 5.02, to: application)
    #expect(moved == .notDown)
    #expect(feed.lastError == "Touch 7 moved before it began")
    let unknown = feed.report(id: 1, phaseCode: 42, location: Point(x: 0, y: 0), time: 5.02, to: application)
    #expect(unknown == .unknownPhase)
    #expect(feed.lastError == "Unknown phase 42 for touch 1")
    #expect(feed.touchesDown == 2, "nothing ignored reached the application")
  }

  /// "An event that would corrupt the application's idea of which fingers
  /// are down is refused as a whole": each kind of bad input the article names.
  @Test func theRefusalsTheHostingArticleNames() throws {
    let application = Application(windowSize: Size(width: 320, height: 480))
    try application.send([TouchInput(id: 1, phase: .began, x: 10, y: 10)], at: 1)
    #expect(throws: TouchInputError.nonFiniteTime) {
      try application.send([TouchInput(id: 1, phase: .moved, x: 20, y: 10)], at: .infinity)
    }
    #expect(throws: TouchInputError.timeWentBack(from: 1, to: 0.5)) {
      try application.send([TouchInput(id: 1, phase: .moved, x: 20, y: 10)], at: 0.5)
    }
    #expect(throws: TouchInputError.alreadyBegan(id: 1)) {
      try application.send([TouchInput(id: 1, phase: .began, x: 20, y: 10)], at: 2)
    }
    #expect(throws: TouchInputError.duplicate(id: 1)) {
      try application.send(
        [TouchInput(id: 1, phase: .moved, x: 20, y: 10), TouchInput(id: 1, phase: .moved, x: 30, y: 10)], at: 2)
    }
    #expect(throws: TouchInputError.nonFiniteMeasurement(id: 1)) {
      try application.send(
        [TouchInput(id: 1, phase: .moved, location: Point(x: 20, y: 10), hardware: TouchHardware(force: .nan))], at: 2)
    }
    #expect(application.isTouchDown(hostID: 1))
    application.cancelAllTouches(at: 3)
    #expect(!application.isTouchDown(hostID: 1))
  }
}
