import Testing
import TouchKit
import TouchKitTestSupport

/// Issue 9, gesture arbitration: controls against their superviews'
/// recognizers, `canPrevent`/`canBePrevented`, and the delegate's failure
/// requirements and touch filter, each held against Apple's documentation.
@Suite struct ControlDefaultActionTests {
  private struct Scene {
    let application: Application
    let container: View
    let button: Button
    let tap: TapGestureRecognizer
    let recorder: ActionRecorder
  }

  /// A container filling the window with a tap recognizer, and a button at
  /// (100, 100, 100 x 40) inside it; the recorder hears both.
  private func scene() -> Scene {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let container = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    application.window.addSubview(container)
    let button = Button(title: "OK", frame: Rect(x: 100, y: 100, width: 100, height: 40))
    container.addSubview(button)
    let tap = TapGestureRecognizer()
    container.addGestureRecognizer(tap)
    let recorder = ActionRecorder()
    tap.addTarget(recorder, action: Action("tap:"))
    button.addTarget(recorder, action: Action("press:"), for: .touchUpInside)
    button.addTarget(recorder, action: Action("cancel:"), for: .touchCancel)
    return Scene(application: application, container: container, button: button, tap: tap, recorder: recorder)
  }

  private func tap(_ application: Application, _ x: Double, _ y: Double, at time: Double) throws {
    try application.send([began(1, x, y)], at: time)
    try application.send([ended(1, x, y)], at: time + 0.05)
  }

  /// "Attaching gesture recognizers to UIKit controls": "Events occurring
  /// within the bounds of a control are handled by the control first ... A
  /// single finger single tap occurs on a UIButton" calls its action method.
  @Test func aButtonInsideAViewWithATapRecognizerKeepsItsTap() throws {
    let scene = scene()
    try tap(scene.application, 150, 120, at: 0)
    #expect(scene.recorder.received == ["press: -"])
    #expect(scene.tap.state == .possible)

    // Outside the button the container's tap recognizes as before.
    try tap(scene.application, 300, 300, at: 1)
    #expect(scene.recorder.received == ["press: -", "tap: ended"])
  }

  /// "To handle any of the preceding gestures before the control calls its
  /// action method, install your gesture recognizer on the control itself."
  @Test func aTapRecognizerOnTheControlItselfWins() throws {
    let scene = scene()
    scene.container.removeGestureRecognizer(scene.tap)
    scene.button.addGestureRecognizer(scene.tap)
    try tap(scene.application, 150, 120, at: 0)
    #expect(scene.recorder.received == ["cancel: -", "tap: ended"])
  }

  /// Only the control's default action is protected: a double tap is not a
  /// single tap, so a double-tap recognizer of the superview still wins (it
  /// holds the button's first lift back, `delaysTouchesEnded`, and cancels it).
  @Test func aDoubleTapOfTheSuperviewStillRecognizesOverAButton() throws {
    let scene = scene()
    scene.tap.numberOfTapsRequired = 2
    try tap(scene.application, 150, 120, at: 0)
    try tap(scene.application, 150, 120, at: 0.2)
    #expect(scene.recorder.received == ["cancel: -", "tap: ended"])
  }

  /// UIKit is silent on disabled controls. Choice: a disabled control has no
  /// action to protect, so it does not object and the superview's tap wins.
  @Test func aDisabledButtonLetsTheSuperviewsTapRecognize() throws {
    let scene = scene()
    scene.button.isEnabled = false
    try tap(scene.application, 150, 120, at: 0)
    #expect(scene.recorder.received == ["tap: ended"])
  }

  /// `UIView.gestureRecognizerShouldBegin(_:)` (here
  /// `allowsGestureRecognizerToBegin(_:)`): returning false makes the
  /// recognizer "transition to the failed state". UIKit's documentation
  /// says "the view" without naming it; the slider example (a recognizer of
  /// a superview refused by the slider under the finger) needs the touch's
  /// view asked. Choice: every view from each touch's view up to and
  /// including the recognizer's view is asked; any false fails it.
  @Test func everyViewBetweenTheTouchAndTheRecognizerIsAsked() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let outer = RefusingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    let middle = RefusingView(frame: Rect(x: 0, y: 0, width: 300, height: 300))
    let inner = RefusingView(frame: Rect(x: 0, y: 0, width: 200, height: 200))
    application.window.addSubview(outer)
    outer.addSubview(middle)
    middle.addSubview(inner)
    let tap = TapGestureRecognizer()
    let recorder = ActionRecorder()
    tap.addTarget(recorder, action: Action("tap:"))
    middle.addGestureRecognizer(tap)

    try self.tap(application, 50, 50, at: 0)
    #expect(recorder.received == ["tap: ended"])
    #expect(inner.asked == 1 && middle.asked == 1 && outer.asked == 0)

    inner.refuses = true
    try self.tap(application, 50, 50, at: 1)
    #expect(recorder.received == ["tap: ended"])

    // A touch in `middle` itself never asks `inner`.
    try self.tap(application, 250, 250, at: 2)
    #expect(recorder.received == ["tap: ended", "tap: ended"])
    #expect(inner.asked == 2)
  }
}

/// A view that counts `allowsGestureRecognizerToBegin(_:)` and can refuse.
private final class RefusingView: View {
  var refuses = false
  var asked = 0
  override func allowsGestureRecognizerToBegin(_ recognizer: GestureRecognizer) -> Bool {
    asked += 1
    return !refuses
  }
}

/// A discrete recognizer that recognizes when its first touch lifts.
private final class LiftRecognizer: GestureRecognizer {
  var preventable = true
  override func touchesEnded(_ touches: [Touch], with event: Event) {
    state = .recognized
  }
  override func canBePrevented(by preventing: GestureRecognizer) -> Bool { preventable }
}

/// Records the delegate's questions and answers them as told.
private final class ArbitrationDelegate: GestureRecognizerDelegate {
  var requireFailureOf: GestureRecognizer?
  var requiredToFailBy: GestureRecognizer?
  var refusedView: View?

  func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer)
    -> Bool
  { false }
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool {
    other === requireFailureOf
  }
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
    other === requiredToFailBy
  }
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
    guard let refusedView, let view = touch.view else { return true }
    return !view.isDescendant(of: refusedView)
  }
}

@Suite struct PreventionAndDelegateTests {
  private func setUp() -> (Application, RecordingView, TapGestureRecognizer, TapGestureRecognizer, ActionRecorder) {
    let (application, view) = makeApplication()
    let single = TapGestureRecognizer()
    let double = TapGestureRecognizer()
    double.numberOfTapsRequired = 2
    let recorder = ActionRecorder()
    single.addTarget(recorder, action: Action("single:"))
    double.addTarget(recorder, action: Action("double:"))
    view.addGestureRecognizer(single)
    view.addGestureRecognizer(double)
    return (application, view, single, double, recorder)
  }

  private func tap(_ application: Application, at time: Double) throws {
    try application.send([began(1, 100, 100)], at: time)
    try application.send([ended(1, 100, 100)], at: time + 0.05)
  }

  /// UIGestureRecognizerSubclass, `canPrevent(_:)`: UITapGestureRecognizer
  /// does not prevent a tap recognizer that needs more taps, so without
  /// `require(toFail:)` a single tap recognizes on the first tap and the
  /// double tap still recognizes on the second. Before, the single tap's
  /// recognition failed the double tap for good.
  ///
  /// UIKit does not say which of two recognizers ready at the same lift goes
  /// first. Here it is the one that has been deciding longer (the double
  /// tap, since the first tap), whatever order they were added in; a double
  /// tap prevents a single one, so the second tap is the double tap's alone.
  @Test(arguments: [false, true]) func aTapNeverPreventsOneThatNeedsMoreTaps(doubleFirst: Bool) throws {
    let (application, view) = makeApplication()
    let single = TapGestureRecognizer()
    let double = TapGestureRecognizer()
    double.numberOfTapsRequired = 2
    let recorder = ActionRecorder()
    single.addTarget(recorder, action: Action("single:"))
    double.addTarget(recorder, action: Action("double:"))
    for recognizer in doubleFirst ? [double, single] : [single, double] { view.addGestureRecognizer(recognizer) }
    try tap(application, at: 0)
    #expect(recorder.received == ["single: ended"])
    try tap(application, at: 0.2)
    #expect(recorder.received == ["single: ended", "double: ended"])
  }

  /// `canBePrevented(by:)` is asked too: a recognizer that cannot be
  /// prevented recognizes beside the one that won.
  @Test func aRecognizerThatCannotBePreventedRecognizesBesideTheWinner() throws {
    let (application, view) = makeApplication()
    let tap = TapGestureRecognizer()
    let lift = LiftRecognizer()
    let recorder = ActionRecorder()
    tap.addTarget(recorder, action: Action("tap:"))
    lift.addTarget(recorder, action: Action("lift:"))
    view.addGestureRecognizer(tap)
    view.addGestureRecognizer(lift)
    try self.tap(application, at: 0)
    #expect(recorder.received == ["tap: ended"])

    lift.preventable = false
    try self.tap(application, at: 1)
    #expect(recorder.received == ["tap: ended", "tap: ended", "lift: ended"])
  }

  /// `gestureRecognizer(_:shouldRequireFailureOf:)`: "Returning true sets
  /// up a dynamic failure requirement": the single tap waits for the double
  /// tap as with `require(toFail:)`, and fails when the double tap recognizes.
  @Test func theDelegateCanMakeARecognizerWaitForAnotherToFail() throws {
    let (application, _, single, double, recorder) = setUp()
    let delegate = ArbitrationDelegate()
    delegate.requireFailureOf = double
    single.delegate = delegate

    try tap(application, at: 0)
    #expect(recorder.received.isEmpty)
    application.advanceClock(to: 1)
    #expect(recorder.received == ["single: ended"])

    try tap(application, at: 2)
    try tap(application, at: 2.2)
    #expect(recorder.received == ["single: ended", "double: ended"])
    #expect(single.state == .possible)
  }

  /// `gestureRecognizer(_:shouldBeRequiredToFailBy:)`, the other side of the
  /// same requirement: the double tap's delegate makes the single tap wait.
  @Test func theDelegateCanMakeAnotherRecognizerWaitForThisOne() throws {
    let (application, _, single, double, recorder) = setUp()
    let delegate = ArbitrationDelegate()
    delegate.requiredToFailBy = single
    double.delegate = delegate
    try tap(application, at: 0)
    #expect(recorder.received.isEmpty)
    application.advanceClock(to: 1)
    #expect(recorder.received == ["single: ended"])
  }

  /// `gestureRecognizer(_:shouldReceive:)` (touch): "false to prevent the
  /// gesture recognizer from seeing this touch object". Apple's
  /// SimpleGestureRecognizers sample keeps a tap out of a segmented control
  /// this way. The view still gets the touch, undelayed and uncancelled.
  @Test func theDelegateCanKeepATouchFromARecognizer() throws {
    let (application, view) = makeApplication()
    let inner = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    view.addSubview(inner)
    let tap = TapGestureRecognizer()
    tap.delaysTouchesBegan = true
    let recorder = ActionRecorder()
    tap.addTarget(recorder, action: Action("tap:"))
    view.addGestureRecognizer(tap)
    let delegate = ArbitrationDelegate()
    delegate.refusedView = inner
    tap.delegate = delegate

    try application.send([began(1, 50, 50)], at: 0)
    #expect(inner.messages == ["began 1"])
    try application.send([ended(1, 50, 50)], at: 0.05)
    #expect(inner.messages == ["began 1", "ended 1"])
    #expect(recorder.received.isEmpty)

    try application.send([began(2, 200, 200)], at: 1)
    try application.send([ended(2, 200, 200)], at: 1.05)
    #expect(recorder.received == ["tap: ended"])
  }
}
