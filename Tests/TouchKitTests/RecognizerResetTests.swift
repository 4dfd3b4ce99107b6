import Testing
import TouchKit
import TouchKitTestSupport

/// Issue 9: a recognizer that recognized is reset right after the event,
/// as Apple documents `reset()`, even with its fingers still down.
@Suite struct RecognizerResetTests {
  /// UIGestureRecognizer.reset(): "The runtime calls this method after the
  /// gesture-recognizer state has been set to ... recognized ... After this
  /// method is called, the gesture recognizer receives no further updates
  /// for touches that have begun but haven't ended." And
  /// UIGestureRecognizer.State.recognized: "The gesture recognizer sends its
  /// action message (or messages) at the next cycle of the run loop and
  /// resets its state to possible."
  ///
  /// The finger still down after a swipe is recognized: the swipe hears
  /// nothing more of it; its view heard `touchesCancelled` at the
  /// recognition (`cancelsTouchesInView`) and hears nothing more either. A
  /// new finger starts a new attempt at once, while the old one is still down.
  @Test func aSwipeIsResetRightAfterItsActionAndHearsNoMoreOfItsFingers() throws {
    let (application, view) = makeApplication()
    let swipe = SwipeGestureRecognizer()
    let recorder = ActionRecorder()
    swipe.addTarget(recorder, action: Action("swipe:"))
    view.addGestureRecognizer(swipe)

    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 160, 100)], at: 0.05)
    #expect(recorder.received == ["swipe: ended"])
    #expect(swipe.state == .possible)
    #expect(swipe.numberOfTouches == 0)
    try application.send([moved(1, 260, 100)], at: 0.1)
    #expect(recorder.received == ["swipe: ended"])
    #expect(view.messages == ["began 1", "cancelled 1"])

    try application.send([began(2, 100, 200)], at: 0.15)
    try application.send([moved(2, 170, 200)], at: 0.2)
    #expect(recorder.received == ["swipe: ended", "swipe: ended"])
    try application.send([ended(1, 260, 100), ended(2, 170, 200)], at: 0.25)
    #expect(recorder.received.count == 2)
    #expect(swipe.state == .possible)
  }

  /// The same with `cancelsTouchesInView` off: the view keeps its touch and,
  /// as the reset recognizer no longer delays anything, hears its end at once.
  @Test func aSwipeKeepingTouchesLeavesTheStillDownFingerToTheView() throws {
    let (application, view) = makeApplication()
    let swipe = SwipeGestureRecognizer()
    swipe.cancelsTouchesInView = false
    view.addGestureRecognizer(swipe)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 160, 100)], at: 0.05)
    #expect(swipe.state == .possible)
    try application.send([moved(1, 260, 100)], at: 0.1)
    try application.send([ended(1, 260, 100)], at: 0.15)
    #expect(view.messages == ["began 1", "moved 1", "moved 1", "ended 1"])
  }

  /// The same for a continuous gesture that ends with a finger still down
  /// (`reset()` names `.ended` too): a two-finger pan ends when one finger
  /// lifts, and the other finger's moves are not heard.
  @Test func aPanEndedWithAFingerStillDownIsResetAndHearsNoMore() throws {
    let (application, view) = makeApplication()
    let pan = PanGestureRecognizer()
    pan.minimumNumberOfTouches = 2
    let recorder = ActionRecorder()
    pan.addTarget(recorder, action: Action("pan:"))
    view.addGestureRecognizer(pan)
    try application.send([began(1, 100, 100), began(2, 140, 100)], at: 0)
    try application.send([moved(1, 100, 130), moved(2, 140, 130)], at: 0.02)
    try application.send([ended(1, 100, 130)], at: 0.04)
    #expect(recorder.received == ["pan: began", "pan: ended"])
    #expect(pan.state == .possible)
    try application.send([moved(2, 140, 200)], at: 0.06)
    try application.send([ended(2, 140, 200)], at: 0.08)
    #expect(recorder.received == ["pan: began", "pan: ended"])
  }
}
