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

  /// One finger lifted, UIKit's pinch goes on: it stays `.changed` and
  /// sends its action for every event of its touches, the lift included,
  /// with `numberOfTouches` 1 (apps that then read `location(ofTouch: 1,
  /// in:)` crash: mapbox-maps-ios #833 and #1074, Charts #4778, WhirlyGlobe
  /// #1503; tangram-es #2025 filters these `.changed` out). It measures
  /// only while two touches are down, so `scale` and `velocity` stay as the
  /// last two-finger move left them; `location(in:)` is the finger left
  /// (react-native-gesture-handler #547: the focal point jumps to it). It
  /// ends when that finger lifts too.
  @Test func withOneFingerLeftAPinchReportsChangedWithItsScaleFrozenUntilBothHaveLifted() throws {
    let (application, pinch, recorder) = setUp(PinchGestureRecognizer())
    let seen = TwoTouchRecorder(pinch) { pinch.scale }
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(2, 300, 200)], at: 0.1)
    let velocity = pinch.velocity
    try application.send([ended(2, 300, 200)], at: 0.2)
    #expect(pinch.state == .changed, "still pinching with one finger down")
    try application.send([moved(1, 50, 200)], at: 0.3)
    #expect(pinch.velocity == velocity, "one finger measures nothing")
    try application.send([ended(1, 50, 200)], at: 0.4)
    #expect(recorder.received == ["gesture: began", "gesture: changed", "gesture: changed", "gesture: ended"])
    #expect(seen.values == [2, 2, 2, 2])
    #expect(seen.touches.dropFirst(2).first == 1, "the finger left, moving")
    #expect(seen.locations.dropFirst(2).first == Point(x: 50, y: 200))
  }

  /// A second finger landing again: that event too is reported (`.changed`,
  /// two touches), and the pinch measures from where the pair is now, so
  /// the scale goes on from the value it kept (UIKit's does the same: no jump).
  @Test func aFingerLandingAgainResumesThePinchFromItsScale() throws {
    let (application, pinch, recorder) = setUp(PinchGestureRecognizer())
    let seen = TwoTouchRecorder(pinch) { pinch.scale }
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(2, 300, 200)], at: 0.1)
    try application.send([ended(2, 300, 200)], at: 0.2)
    try application.send([began(3, 150, 200)], at: 0.3)
    try application.send([moved(3, 200, 200)], at: 0.4)
    #expect(abs(pinch.scale - 4) < 1e-12, "50 pt apart when it landed, 100 now: twice the 2 it kept")
    try application.send([ended(1, 100, 200), ended(3, 200, 200)], at: 0.5)
    #expect(
      recorder.received == [
        "gesture: began", "gesture: changed", "gesture: changed", "gesture: changed", "gesture: ended",
      ])
    #expect(seen.touches.dropFirst(2).first == 2, "the landing's report")
  }

  /// The same for a rotation: with one finger left it reports `.changed`,
  /// its rotation as it was, and ends when both have lifted.
  @Test func withOneFingerLeftARotationReportsChangedWithItsRotationFrozenUntilBothHaveLifted() throws {
    let (application, rotation, recorder) = setUp(RotationGestureRecognizer())
    let seen = TwoTouchRecorder(rotation) { rotation.rotation }
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(2, 100, 300)], at: 0.1)
    let velocity = rotation.velocity
    try application.send([ended(1, 100, 200)], at: 0.2)
    #expect(rotation.state == .changed, "still rotating with one finger down")
    try application.send([moved(2, 300, 300)], at: 0.3)
    #expect(rotation.velocity == velocity, "one finger measures nothing")
    try application.send([ended(2, 300, 300)], at: 0.4)
    #expect(recorder.received == ["gesture: began", "gesture: changed", "gesture: changed", "gesture: ended"])
    #expect(seen.touches.dropFirst(2).first == 1, "the finger left, moving")
    #expect(seen.values.allSatisfy { abs($0 - Double.pi / 2) < 1e-9 })
  }
}

/// What a two-finger recognizer reports at each of its actions: how many
/// touches it has, its measure and its location.
private final class TwoTouchRecorder: Responder {
  private(set) var touches: [Int] = []
  private(set) var values: [Double] = []
  private(set) var locations: [Point] = []
  private let value: () -> Double

  init(_ recognizer: GestureRecognizer, value: @escaping () -> Double) {
    self.value = value
    super.init()
    recognizer.addTarget(self, action: Action("seen:"))
  }

  override func perform(_ action: Action, withSender sender: AnyObject?) {
    guard let recognizer = sender as? GestureRecognizer else { return }
    touches.append(recognizer.numberOfTouches)
    values.append(value())
    locations.append(recognizer.location(in: nil))
  }
  override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool { true }
}
