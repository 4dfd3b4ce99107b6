import Testing
import TouchKit
import TouchKitTestSupport

/// UILongPressGestureRecognizer.numberOfTapsRequired: "The number of taps on
/// the view necessary for gesture recognition", default 0: with 1, the user
/// taps once, then touches down again and holds.
@Suite struct LongPressTapsRequiredTests {
  private func setUp(taps: Int) -> (Application, LongPressGestureRecognizer, ActionRecorder) {
    let (application, view) = makeApplication()
    let press = LongPressGestureRecognizer()
    press.numberOfTapsRequired = taps
    let recorder = ActionRecorder()
    press.addTarget(recorder, action: Action("press:"))
    view.addGestureRecognizer(press)
    return (application, press, recorder)
  }

  @Test func theDefaultNeedsNoTap() {
    #expect(LongPressGestureRecognizer().numberOfTapsRequired == 0)
  }

  @Test func aTapThenAPressRecognizes() throws {
    let (application, _, recorder) = setUp(taps: 1)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([ended(1, 100, 100)], at: 0.1)
    try application.send([began(2, 102, 100)], at: 0.2)
    application.advanceClock(to: 0.6)
    #expect(recorder.received.isEmpty)
    application.advanceClock(to: 0.75)
    #expect(recorder.received == ["press: began"])
    try application.send([ended(2, 102, 100)], at: 1)
    #expect(recorder.received == ["press: began", "press: ended"])
  }

  @Test func aPressWithoutTheTapDoesNotRecognize() throws {
    let (application, press, recorder) = setUp(taps: 1)
    try application.send([began(1, 100, 100)], at: 0)
    application.advanceClock(to: 1)
    #expect(press.state == .failed, "held too long for a tap")
    try application.send([ended(1, 100, 100)], at: 1.1)
    #expect(recorder.received.isEmpty)
  }

  @Test func aPressTooLongAfterTheTapDoesNotRecognize() throws {
    let (application, _, recorder) = setUp(taps: 1)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([ended(1, 100, 100)], at: 0.1)
    try application.send([began(2, 100, 100)], at: 0.8)
    application.advanceClock(to: 2)
    try application.send([ended(2, 100, 100)], at: 2.1)
    #expect(recorder.received.isEmpty)
  }
}
