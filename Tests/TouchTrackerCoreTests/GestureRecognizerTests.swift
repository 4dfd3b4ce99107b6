import Testing
import TouchKitTestSupport
import TouchTrackerCore

/// One row of a gesture table: a touch sequence, and what the recognizer's
/// target and the view should have seen by the end.
struct GestureCase: CustomTestStringConvertible, Sendable {
  let name: String
  let steps: [Step]
  let actions: [String]
  let viewMessages: [String]

  enum Step: Sendable {
    case touches([TouchInput], at: Double)
    case wait(until: Double)
  }

  var testDescription: String { name }
}

enum RecognizerKind: Sendable {
  case tap, tapKeepingTouches, tapDelayingBegan, longPress, pan, swipeUpThree
}

private func makeRecognizer(_ kind: RecognizerKind) -> GestureRecognizer {
  switch kind {
  case .tap: return TapGestureRecognizer()
  case .tapKeepingTouches:
    let tap = TapGestureRecognizer()
    tap.cancelsTouchesInView = false
    return tap
  case .tapDelayingBegan:
    let tap = TapGestureRecognizer()
    tap.delaysTouchesBegan = true
    return tap
  case .longPress: return LongPressGestureRecognizer()
  case .pan: return PanGestureRecognizer()
  case .swipeUpThree:
    let swipe = SwipeGestureRecognizer()
    swipe.direction = .up
    swipe.numberOfTouchesRequired = 3
    return swipe
  }
}

private func run(_ steps: [GestureCase.Step], on application: Application) throws {
  for step in steps {
    switch step {
    case .touches(let inputs, let time): try application.send(inputs, at: time)
    case .wait(let time): application.advanceClock(to: time)
    }
  }
}

@Suite struct GestureRecognizerTests {
  static let cases: [(RecognizerKind, GestureCase)] = [
    (
      .tap,
      GestureCase(
        name: "a tap recognizes and cancels the view's touch",
        steps: [.touches([began(1, 100, 100)], at: 0), .touches([ended(1, 102, 101)], at: 0.1)],
        actions: ["g: ended"], viewMessages: ["began 1", "cancelled 1"])
    ),
    (
      .tapKeepingTouches,
      GestureCase(
        name: "a tap that keeps touches lets the view see the end",
        steps: [.touches([began(1, 100, 100)], at: 0), .touches([ended(1, 100, 100)], at: 0.1)],
        actions: ["g: ended"], viewMessages: ["began 1", "ended 1"])
    ),
    (
      .tap,
      GestureCase(
        name: "a tap fails when the finger moves and the view sees everything",
        steps: [
          .touches([began(1, 100, 100)], at: 0), .touches([moved(1, 130, 100)], at: 0.05),
          .touches([ended(1, 130, 100)], at: 0.1),
        ],
        actions: [], viewMessages: ["began 1", "moved 1", "ended 1"])
    ),
    (
      .tap,
      GestureCase(
        name: "a second finger makes a one-finger tap fail",
        steps: [
          .touches([began(1, 100, 100)], at: 0), .touches([began(2, 200, 200)], at: 0.02),
          .touches([ended(1, 100, 100), ended(2, 200, 200)], at: 0.1),
        ],
        actions: [], viewMessages: ["began 1", "began 2", "ended 1,2"])
    ),
    (
      .tapDelayingBegan,
      GestureCase(
        name: "delaysTouchesBegan hides a recognized tap from the view entirely",
        steps: [.touches([began(1, 100, 100)], at: 0), .touches([ended(1, 100, 100)], at: 0.1)],
        actions: ["g: ended"], viewMessages: [])
    ),
    (
      .tapDelayingBegan,
      GestureCase(
        name: "delaysTouchesBegan releases the held began when the tap fails by moving",
        steps: [
          .touches([began(1, 100, 100)], at: 0), .touches([moved(1, 105, 100)], at: 0.02),
          .touches([moved(1, 140, 100)], at: 0.04), .touches([ended(1, 140, 100)], at: 0.06),
        ],
        actions: [], viewMessages: ["began 1", "moved 1", "moved 1", "ended 1"])
    ),
    (
      .longPress,
      GestureCase(
        name: "a long press begins after half a second and ends when the finger lifts",
        steps: [
          .touches([began(1, 100, 100)], at: 0), .wait(until: 0.6), .touches([moved(1, 104, 100)], at: 0.7),
          .touches([ended(1, 104, 100)], at: 0.8),
        ],
        actions: ["g: began", "g: changed", "g: ended"], viewMessages: ["began 1", "cancelled 1"])
    ),
    (
      .longPress,
      GestureCase(
        name: "a long press fails when the finger moves first",
        steps: [.touches([began(1, 100, 100)], at: 0), .touches([moved(1, 120, 100)], at: 0.2), .wait(until: 1)],
        actions: [], viewMessages: ["began 1", "moved 1"])
    ),
    (
      .longPress,
      GestureCase(
        name: "a long press fails when the finger lifts early",
        steps: [.touches([began(1, 100, 100)], at: 0), .touches([ended(1, 100, 100)], at: 0.3), .wait(until: 1)],
        actions: [], viewMessages: ["began 1", "ended 1"])
    ),
    (
      .pan,
      GestureCase(
        name: "a pan begins past its hysteresis, changes, ends, and cancels the view's touch",
        steps: [
          .touches([began(1, 100, 100)], at: 0), .touches([moved(1, 105, 100)], at: 0.02),
          .touches([moved(1, 130, 100)], at: 0.04), .touches([moved(1, 160, 100)], at: 0.06),
          .touches([ended(1, 160, 100)], at: 0.08),
        ],
        actions: ["g: began", "g: changed", "g: ended"], viewMessages: ["began 1", "moved 1", "cancelled 1"])
    ),
    (
      .swipeUpThree,
      GestureCase(
        name: "three fingers moving up swipe",
        steps: [
          .touches([began(1, 100, 300), began(2, 150, 300)], at: 0), .touches([began(3, 200, 300)], at: 0.03),
          .touches([moved(1, 100, 260), moved(2, 150, 260), moved(3, 200, 260)], at: 0.06),
          .touches([moved(1, 100, 220), moved(2, 150, 220), moved(3, 200, 220)], at: 0.09),
        ],
        actions: ["g: ended"], viewMessages: ["began 1,2", "began 3", "moved 1,2,3", "cancelled 1,2,3"])
    ),
    (
      .swipeUpThree,
      GestureCase(
        name: "one finger moving up is no three-finger swipe",
        steps: [
          .touches([began(1, 100, 300)], at: 0), .touches([moved(1, 100, 200)], at: 0.05),
          .touches([ended(1, 100, 200)], at: 0.1),
        ],
        actions: [], viewMessages: ["began 1", "moved 1", "ended 1"])
    ),
  ]

  @Test(arguments: cases)
  func recognizerStatesAndViewMessages(kind: RecognizerKind, row: GestureCase) throws {
    let (application, view) = makeApplication()
    let recognizer = makeRecognizer(kind)
    let recorder = ActionRecorder()
    recognizer.addTarget(recorder, action: Action("g:"))
    view.addGestureRecognizer(recognizer)
    try run(row.steps, on: application)
    #expect(recorder.received == row.actions)
    #expect(view.messages == row.viewMessages)
  }

  @Test func aDelayedBeganArrivesWhereTheFingerReallyTouchedDown() throws {
    let (application, view) = makeApplication()
    let tap = TapGestureRecognizer()
    tap.delaysTouchesBegan = true
    view.addGestureRecognizer(tap)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 108, 100)], at: 0.02)
    #expect(view.messages.isEmpty)
    try application.send([moved(1, 140, 100)], at: 0.04)
    #expect(view.locations["began"] == [Point(x: 100, y: 100)])
    #expect(view.locations["moved"] == [Point(x: 108, y: 100), Point(x: 140, y: 100)])
  }

  /// A view with a single tap that requires a double tap to fail, as DrawView has.
  static func singleAndDoubleTap() -> (
    Application, RecordingView, TapGestureRecognizer, TapGestureRecognizer, ActionRecorder
  ) {
    let (application, view) = makeApplication()
    let single = TapGestureRecognizer()
    let double = TapGestureRecognizer()
    double.numberOfTapsRequired = 2
    single.require(toFail: double)
    let recorder = ActionRecorder()
    single.addTarget(recorder, action: Action("single:"))
    double.addTarget(recorder, action: Action("double:"))
    view.addGestureRecognizer(double)
    view.addGestureRecognizer(single)
    return (application, view, single, double, recorder)
  }

  @Test func aSingleTapWaitsForTheDoubleTapToFail() throws {
    let (application, view, _, _, recorder) = Self.singleAndDoubleTap()

    try application.send([began(1, 100, 100)], at: 0)
    try application.send([ended(1, 100, 100)], at: 0.05)
    #expect(recorder.received.isEmpty, "the single tap must wait for the double tap to fail")
    #expect(view.messages == ["began 1"], "the end is held while the double tap may still recognize")
    application.advanceClock(to: 0.5)
    #expect(recorder.received == ["single: ended"])
    #expect(view.messages == ["began 1", "cancelled 1"])
  }

  @Test func aDoubleTapWinsAndTheSingleTapFails() throws {
    let (application, view, single, double, recorder) = Self.singleAndDoubleTap()

    try application.send([began(1, 100, 100)], at: 0)
    try application.send([ended(1, 100, 100)], at: 0.05)
    try application.send([began(2, 102, 100)], at: 0.15)
    try application.send([ended(2, 102, 100)], at: 0.2)
    application.advanceClock(to: 1)
    #expect(recorder.received == ["double: ended"])
    #expect(view.messages == ["began 1", "began 2", "cancelled 1,2"])
    #expect(single.state == .possible, "both reset for the next gesture")
    #expect(double.state == .possible)
  }

  final class AllowEverything: GestureRecognizerDelegate {
    var refuseBegin = false
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { !refuseBegin }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer)
      -> Bool
    { true }
  }

  @Test(arguments: [true, false])
  func aPanRunsAlongsideALongPressOnlyWhenTheDelegateAllowsIt(simultaneous: Bool) throws {
    let (application, view) = makeApplication()
    let press = LongPressGestureRecognizer()
    let pan = PanGestureRecognizer()
    let delegate = AllowEverything()
    if simultaneous { pan.delegate = delegate }
    let recorder = ActionRecorder()
    press.addTarget(recorder, action: Action("press:"))
    pan.addTarget(recorder, action: Action("pan:"))
    view.addGestureRecognizer(press)
    view.addGestureRecognizer(pan)
    try application.send([began(1, 100, 100)], at: 0)
    application.advanceClock(to: 0.6)
    try application.send([moved(1, 130, 100)], at: 0.7)
    try application.send([moved(1, 160, 100)], at: 0.8)
    try application.send([ended(1, 160, 100)], at: 0.9)
    if simultaneous {
      #expect(
        recorder.received == [
          "press: began", "press: changed", "pan: began", "press: changed", "pan: changed", "press: ended",
          "pan: ended",
        ])
    } else {
      #expect(recorder.received == ["press: began", "press: changed", "press: changed", "press: ended"])
    }
  }

  @Test func aDelegateCanRefuseABegin() throws {
    let (application, view) = makeApplication()
    let press = LongPressGestureRecognizer()
    let delegate = AllowEverything()
    delegate.refuseBegin = true
    press.delegate = delegate
    let recorder = ActionRecorder()
    press.addTarget(recorder, action: Action("press:"))
    view.addGestureRecognizer(press)
    try application.send([began(1, 100, 100)], at: 0)
    application.advanceClock(to: 1)
    try application.send([ended(1, 100, 100)], at: 1.1)
    #expect(recorder.received.isEmpty)
    #expect(view.messages == ["began 1", "ended 1"], "a refused press leaves the view's touch alone")
  }

  @Test func panTranslationFollowsTheFingerFromTouchDownAndCanBeReset() throws {
    let (application, view) = makeApplication()
    let pan = PanGestureRecognizer()
    view.addGestureRecognizer(pan)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 115, 100)], at: 0.1)
    #expect(pan.state == .began)
    #expect(pan.translation(in: view) == Point(x: 15, y: 0), "no distance is lost to the hysteresis")
    pan.setTranslation(.zero, in: view)
    try application.send([moved(1, 125, 110)], at: 0.2)
    #expect(pan.translation(in: view) == Point(x: 10, y: 10))
    let velocity = pan.velocity(in: view)
    #expect(abs(velocity.x - 100) < 1e-9 && abs(velocity.y - 100) < 1e-9, "points per second over the last move")
    #expect(pan.location(in: view) == Point(x: 125, y: 110))
  }

  @Test func aRecognizerOnASuperviewSeesTouchesInItsSubviews() throws {
    let (application, container) = makeApplication()
    let child = RecordingView(frame: Rect(x: 50, y: 50, width: 100, height: 100))
    container.addSubview(child)
    let tap = TapGestureRecognizer()
    let recorder = ActionRecorder()
    tap.addTarget(recorder, action: Action("tap:"))
    container.addGestureRecognizer(tap)
    try application.send([began(1, 80, 80)], at: 0)
    try application.send([ended(1, 80, 80)], at: 0.05)
    #expect(recorder.received == ["tap: ended"])
    #expect(child.messages == ["began 1", "cancelled 1"])
    #expect(tap.location(in: child) == Point(x: 30, y: 30))
  }
}
