import Testing
import TouchKit
import TouchKitTestSupport

/// Differences from UIKit listed in issue 9, each held against Apple's
/// documentation (quoted where the test follows it).
@Suite struct TargetActionBookkeepingTests {
  private func tapSetUp() -> (Application, TapGestureRecognizer, ActionRecorder) {
    let (application, view) = makeApplication()
    let tap = TapGestureRecognizer()
    view.addGestureRecognizer(tap)
    return (application, tap, ActionRecorder())
  }

  private func tap(_ application: Application, at time: Double) throws {
    try application.send([began(1, 100, 100)], at: time)
    try application.send([ended(1, 100, 100)], at: time + 0.05)
  }

  /// UIGestureRecognizer.addTarget(_:action:): "if you request to add a
  /// target-action pair that has already been added, then the request is ignored."
  @Test func aRecognizerTargetActionPairAddedTwiceFiresOnce() throws {
    let (application, tap, recorder) = tapSetUp()
    tap.addTarget(recorder, action: Action("tap:"))
    tap.addTarget(recorder, action: Action("tap:"))
    tap.addTarget(recorder, action: Action("other:"))
    try self.tap(application, at: 0)
    #expect(recorder.received == ["tap: ended", "other: ended"])
  }

  /// UIGestureRecognizer.removeTarget(_:action:): "Passing nil for target
  /// matches all targets and passing NULL for action matches all actions."
  @Test func aRecognizerRemovesOnePairOrEveryMatch() throws {
    let (application, tap, recorder) = tapSetUp()
    let other = ActionRecorder()
    tap.addTarget(recorder, action: Action("a:"))
    tap.addTarget(recorder, action: Action("b:"))
    tap.addTarget(other, action: Action("a:"))
    tap.addTarget(other, action: Action("b:"))

    tap.removeTarget(recorder, action: Action("a:"))
    try self.tap(application, at: 0)
    #expect(recorder.received == ["b: ended"])
    #expect(other.received == ["a: ended", "b: ended"])

    tap.removeTarget(nil, action: Action("b:"))
    try self.tap(application, at: 1)
    #expect(recorder.received == ["b: ended"])
    #expect(other.received == ["a: ended", "b: ended", "a: ended"])

    tap.addTarget(recorder, action: Action("c:"))
    tap.removeTarget(other, action: nil)
    try self.tap(application, at: 2)
    #expect(recorder.received == ["b: ended", "c: ended"])
    #expect(other.received.count == 3)

    tap.removeTarget(nil, action: nil)
    try self.tap(application, at: 3)
    #expect(recorder.received.count == 2)
  }

  private func buttonSetUp() -> (Application, Button) {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let button = Button(title: "OK", frame: Rect(x: 100, y: 100, width: 100, height: 40))
    application.window.addSubview(button)
    return (application, button)
  }

  private func press(_ application: Application, at time: Double) throws {
    try application.send([began(1, 150, 120)], at: time)
    try application.send([ended(1, 150, 120)], at: time + 0.05)
  }

  /// UIControl.addTarget(_:action:for:): "It is also safe to call this method
  /// multiple times with the same values for the target and action parameters."
  @Test func aControlTargetActionPairAddedTwiceFiresOnce() throws {
    let (application, button) = buttonSetUp()
    let recorder = ActionRecorder()
    button.addTarget(recorder, action: Action("up:"), for: .touchUpInside)
    button.addTarget(recorder, action: Action("up:"), for: .touchUpInside)
    // The same pair for another event joins the one entry.
    button.addTarget(recorder, action: Action("up:"), for: .touchDown)
    try press(application, at: 0)
    #expect(recorder.received == ["up: -", "up: -"])
  }

  /// UIControl.removeTarget(_:action:for:): "Specify nil to remove the
  /// specified control events for all target objects."
  @Test func removingANilTargetRemovesTheActionForEveryTarget() throws {
    let (application, button) = buttonSetUp()
    let first = ActionRecorder()
    let second = ActionRecorder()
    button.addTarget(first, action: Action("up:"), for: .touchUpInside)
    button.addTarget(second, action: Action("up:"), for: .touchUpInside)
    button.addTarget(second, action: Action("keep:"), for: .touchUpInside)
    button.removeTarget(nil, action: Action("up:"), for: .touchUpInside)
    try press(application, at: 0)
    #expect(first.received.isEmpty)
    #expect(second.received == ["keep: -"])
  }

  /// Removal takes away only the events named: the pair keeps firing for the others.
  @Test func removingSomeEventsKeepsThePairForTheOthers() throws {
    let (application, button) = buttonSetUp()
    let recorder = ActionRecorder()
    button.addTarget(recorder, action: Action("any:"), for: [.touchDown, .touchUpInside])
    button.removeTarget(recorder, action: nil, for: .touchDown)
    try press(application, at: 0)
    #expect(recorder.received == ["any: -"])
    button.removeTarget(nil, action: nil, for: .touchUpInside)
    try press(application, at: 1)
    #expect(recorder.received == ["any: -"])
  }
}

/// UIGestureRecognizer.isEnabled: "If you change this property to false while
/// a gesture recognizer is currently recognizing a gesture, the gesture
/// recognizer transitions to a cancelled state."
@Suite struct DisablingRecognizerTests {
  private func panSetUp() -> (Application, RecordingView, PanGestureRecognizer, ActionRecorder) {
    let (application, view) = makeApplication()
    let pan = PanGestureRecognizer()
    let recorder = ActionRecorder()
    pan.addTarget(recorder, action: Action("pan:"))
    view.addGestureRecognizer(pan)
    return (application, view, pan, recorder)
  }

  @Test func disablingAPanInProgressCancelsItAndItHearsNoMore() throws {
    let (application, _, pan, recorder) = panSetUp()
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 130, 100)], at: 0.02)
    try application.send([moved(1, 150, 100)], at: 0.04)
    #expect(recorder.received == ["pan: began", "pan: changed"])
    pan.isEnabled = false
    #expect(recorder.received == ["pan: began", "pan: changed", "pan: cancelled"])
    #expect(pan.state == .possible)
    #expect(pan.numberOfTouches == 0)
    try application.send([moved(1, 180, 100)], at: 0.06)
    // Enabling again affects only new touches.
    pan.isEnabled = true
    try application.send([moved(1, 220, 100)], at: 0.08)
    try application.send([ended(1, 220, 100)], at: 0.1)
    #expect(recorder.received == ["pan: began", "pan: changed", "pan: cancelled"])
    #expect(pan.state == .possible)

    try application.send([began(2, 100, 100)], at: 1)
    try application.send([moved(2, 140, 100)], at: 1.02)
    try application.send([ended(2, 140, 100)], at: 1.04)
    #expect(recorder.received.suffix(2) == ["pan: began", "pan: ended"])
  }

  @Test func disablingAPanFromItsOwnActionCancelsIt() throws {
    final class Disabler: Responder {
      var received: [String] = []
      override func perform(_ action: Action, withSender sender: AnyObject?) {
        guard let recognizer = sender as? GestureRecognizer else { return }
        received.append(recognizer.state.name)
        if recognizer.state == .changed { recognizer.isEnabled = false }
      }
    }
    let (application, view) = makeApplication()
    let pan = PanGestureRecognizer()
    let disabler = Disabler()
    pan.addTarget(disabler, action: Action("pan:"))
    view.addGestureRecognizer(pan)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 130, 100)], at: 0.02)
    try application.send([moved(1, 150, 100)], at: 0.04)
    try application.send([moved(1, 170, 100)], at: 0.06)
    try application.send([ended(1, 170, 100)], at: 0.08)
    #expect(disabler.received == ["began", "changed", "cancelled"])
    #expect(pan.state == .possible)
  }

  @Test func disablingAPossibleRecognizerFailsItAndReleasesHeldTouches() throws {
    let (application, view) = makeApplication()
    let tap = TapGestureRecognizer()
    tap.delaysTouchesBegan = true
    let recorder = ActionRecorder()
    tap.addTarget(recorder, action: Action("tap:"))
    view.addGestureRecognizer(tap)
    try application.send([began(1, 100, 100)], at: 0)
    #expect(view.messages.isEmpty)
    tap.isEnabled = false
    #expect(view.messages == ["began 1"])
    #expect(tap.state == .possible)
    try application.send([ended(1, 100, 100)], at: 0.05)
    #expect(recorder.received.isEmpty)
    #expect(view.messages == ["began 1", "ended 1"])
  }

  @Test func aRecognizerWaitingForAnotherGoesAheadWhenThatOneIsDisabled() throws {
    let (application, view) = makeApplication()
    let single = TapGestureRecognizer()
    let double = TapGestureRecognizer()
    double.numberOfTapsRequired = 2
    single.require(toFail: double)
    let recorder = ActionRecorder()
    single.addTarget(recorder, action: Action("single:"))
    view.addGestureRecognizer(single)
    view.addGestureRecognizer(double)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([ended(1, 100, 100)], at: 0.05)
    #expect(recorder.received.isEmpty)
    double.isEnabled = false
    #expect(recorder.received == ["single: ended"])
  }

  @Test func disablingALongPressBeforeItsTimeStopsItsTimer() throws {
    let (application, _) = makeApplication()
    let press = LongPressGestureRecognizer()
    let recorder = ActionRecorder()
    press.addTarget(recorder, action: Action("press:"))
    application.window.subviews[0].addGestureRecognizer(press)
    try application.send([began(1, 100, 100)], at: 0)
    press.isEnabled = false
    press.isEnabled = true
    application.advanceClock(to: 1)
    try application.send([ended(1, 100, 100)], at: 1.1)
    #expect(recorder.received.isEmpty)
  }
}

/// UIView.hitTest(_:with:): "This method ignores view objects that are hidden,
/// that have disabled user interactions, or have an alpha level less than 0.01."
@Suite struct AlphaHitTestingTests {
  @Test func aNearlyTransparentViewIsSkippedByHitTesting() throws {
    let (application, back) = makeApplication()
    let front = RecordingView(frame: Rect(x: 50, y: 50, width: 100, height: 100))
    application.window.addSubview(front)
    #expect(front.alpha == 1)

    front.alpha = 0.009
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([ended(1, 100, 100)], at: 0.05)
    #expect(front.messages.isEmpty)
    #expect(back.messages == ["began 1", "ended 1"])

    front.alpha = 0.01
    try application.send([began(2, 100, 100)], at: 1)
    try application.send([ended(2, 100, 100)], at: 1.05)
    #expect(front.messages == ["began 2", "ended 2"])
  }

  @Test func aTransparentSuperviewHidesItsSubviewsFromTouches() {
    let (application, back) = makeApplication()
    let container = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
    let child = View(frame: Rect(x: 10, y: 10, width: 50, height: 50))
    container.addSubview(child)
    application.window.addSubview(container)
    container.alpha = 0
    #expect(application.window.hitTest(Point(x: 20, y: 20)) === back)
  }
}

extension DisablingRecognizerTests {
  /// A disabled recognizer takes no part in gestures, so one that requires it
  /// to fail does not wait for it.
  @Test func aDisabledRequirementCountsAsFailed() throws {
    let (application, view) = makeApplication()
    let single = TapGestureRecognizer()
    let double = TapGestureRecognizer()
    double.numberOfTapsRequired = 2
    single.require(toFail: double)
    let recorder = ActionRecorder()
    single.addTarget(recorder, action: Action("single:"))
    view.addGestureRecognizer(single)
    view.addGestureRecognizer(double)
    double.isEnabled = false
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([ended(1, 100, 100)], at: 0.05)
    application.advanceClock(to: 1)
    #expect(recorder.received == ["single: ended"])
  }
}

extension AlphaHitTestingTests {
  @Test func aFullyTransparentViewDrawsNothing() {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    view.backgroundColor = .red
    application.window.addSubview(view)
    let opaque = application.window.render()
    view.alpha = 0
    #expect(application.window.render().count == opaque.count - 1)
  }
}
