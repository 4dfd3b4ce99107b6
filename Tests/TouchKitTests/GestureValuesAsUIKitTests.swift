import Testing
import TouchKit
import TouchKitTestSupport

/// What Apple documents for setting a continuous recognizer's value and for
/// the end of a two-finger gesture. UIPanGestureRecognizer.setTranslation:
/// "Changing the translation value resets the velocity of the pan"; the
/// same holds for UIPinchGestureRecognizer.scale and
/// UIRotationGestureRecognizer.rotation. A pinch and a rotation end "when
/// both fingers lift" (each page's "The gesture ends when both fingers
/// lift from the view").
@Suite struct GestureValuesAsUIKitTests {
  private func setUp<R: GestureRecognizer>(_ recognizer: R) -> (Application, R, ActionRecorder) {
    let (application, view) = makeApplication()
    view.addGestureRecognizer(recognizer)
    let recorder = ActionRecorder()
    recognizer.addTarget(recorder, action: Action("gesture:"))
    return (application, recognizer, recorder)
  }

  @Test func settingThePansTranslationResetsItsVelocity() throws {
    let (application, pan, recorder) = setUp(PanGestureRecognizer())
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 130, 100)], at: 0.05)
    try application.send([moved(1, 160, 100)], at: 0.1)
    #expect(pan.velocity(in: nil).x > 0)
    pan.setTranslation(.zero, in: nil)
    #expect(pan.velocity(in: nil) == .zero)
    try application.send([moved(1, 190, 100)], at: 0.15)
    #expect(abs(pan.velocity(in: nil).x - 600) < 1e-6, "measured again from the reset: 30 pt in 0.05 s")
    try application.send([ended(1, 190, 100)], at: 0.2)
    #expect(recorder.received.last == "gesture: ended")
  }

  @Test func settingThePinchsScaleResetsItsVelocity() throws {
    let (application, pinch, recorder) = setUp(PinchGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(2, 300, 200)], at: 0.1)
    #expect(pinch.velocity > 0)
    pinch.scale = 1
    #expect(pinch.velocity == 0)
    try application.send([ended(1, 100, 200), ended(2, 300, 200)], at: 0.2)
    #expect(recorder.received.last == "gesture: ended")
  }

  @Test func settingTheRotationResetsItsVelocity() throws {
    let (application, rotation, recorder) = setUp(RotationGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(2, 100, 300)], at: 0.1)
    #expect(rotation.velocity > 0)
    rotation.rotation = 0
    #expect(rotation.velocity == 0)
    try application.send([ended(1, 100, 200), ended(2, 100, 300)], at: 0.2)
    #expect(recorder.received.last == "gesture: ended")
  }

  /// One finger lifted, the pinch goes on (with nothing to measure until a
  /// second finger is down again) and ends when the other lifts.
  @Test func aPinchEndsWhenBothFingersHaveLifted() throws {
    let (application, pinch, recorder) = setUp(PinchGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(2, 300, 200)], at: 0.1)
    try application.send([ended(2, 300, 200)], at: 0.2)
    #expect(pinch.state == .began, "still pinching with one finger down")
    try application.send([moved(1, 50, 200)], at: 0.3)
    #expect(abs(pinch.scale - 2) < 1e-12, "one finger measures nothing")
    try application.send([ended(1, 50, 200)], at: 0.4)
    #expect(recorder.received == ["gesture: began", "gesture: ended"])
  }

  @Test func aRotationEndsWhenBothFingersHaveLifted() throws {
    let (application, rotation, recorder) = setUp(RotationGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(2, 100, 300)], at: 0.1)
    try application.send([ended(1, 100, 200)], at: 0.2)
    #expect(rotation.state == .began, "still rotating with one finger down")
    try application.send([ended(2, 100, 300)], at: 0.3)
    #expect(recorder.received == ["gesture: began", "gesture: ended"])
  }
}
