import Testing
import TouchKitTestSupport
import TouchTrackerCore

/// `PinchGestureRecognizer` and `RotationGestureRecognizer`: their
/// states, values, and interplay with a pan and with the app's two-finger
/// circle. Where Apple's documentation is quoted, it is
/// UIPinchGestureRecognizer's and UIRotationGestureRecognizer's pages.
@Suite struct PinchAndRotationTests {
  private func setUp<R: GestureRecognizer>(_ recognizer: R) -> (Application, RecordingView, R, ActionRecorder) {
    let (application, view) = makeApplication()
    view.addGestureRecognizer(recognizer)
    let recorder = ActionRecorder()
    recognizer.addTarget(recorder, action: Action("gesture:"))
    return (application, view, recognizer, recorder)
  }

  /// "The gesture begins when the two touches have moved enough to be
  /// considered a pinch gesture. The gesture changes when a finger moves
  /// (with both fingers remaining pressed). The gesture ends when both
  /// fingers lift from the view." Scale counts from where the fingers landed.
  @Test func aPinchBeginsChangesAndEndsWithItsScale() throws {
    let (application, _, pinch, recorder) = setUp(PinchGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(2, 205, 200)], at: 0.1)
    #expect(pinch.state == .possible)
    try application.send([moved(2, 220, 200)], at: 0.2)
    #expect(recorder.received == ["gesture: began"])
    #expect(abs(pinch.scale - 1.2) < 1e-12)
    try application.send([moved(1, 50, 200), moved(2, 250, 200)], at: 0.3)
    #expect(abs(pinch.scale - 2) < 1e-12)
    // From 1.2 to 2 in 0.1 s.
    #expect(abs(pinch.velocity - 8) < 1e-9)
    try application.send([ended(1, 50, 200), ended(2, 250, 200)], at: 0.4)
    #expect(recorder.received == ["gesture: began", "gesture: changed", "gesture: ended"])
    #expect(pinch.state == .possible)
    #expect(pinch.scale == 1)
  }

  /// Setting the scale to 1 in the action measures the next change from there.
  @Test func settingTheScaleMeasuresFromThere() throws {
    let (application, _, pinch, recorder) = setUp(PinchGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(2, 300, 200)], at: 0.1)
    #expect(abs(pinch.scale - 2) < 1e-12)
    pinch.scale = 1
    try application.send([moved(2, 500, 200)], at: 0.2)
    #expect(abs(pinch.scale - 2) < 1e-12)
    try application.send([ended(1, 100, 200), ended(2, 500, 200)], at: 0.3)
    #expect(recorder.received == ["gesture: began", "gesture: changed", "gesture: ended"])
  }

  @Test func oneFingerNeverPinchesAndALiftBeforeBeginningFails() throws {
    let (application, _, pinch, recorder) = setUp(PinchGestureRecognizer())
    try application.send([began(1, 100, 200)], at: 0)
    try application.send([moved(1, 300, 200)], at: 0.1)
    #expect(pinch.state == .possible)
    try application.send([began(2, 100, 100)], at: 0.2)
    try application.send([ended(1, 300, 200)], at: 0.3)
    #expect(pinch.state == .failed)
    try application.send([ended(2, 100, 100)], at: 0.4)
    #expect(recorder.received.isEmpty)
  }

  /// Apple is silent on a third finger; here it is ignored (documented on
  /// the recognizers): the pinch follows the first two, and the third
  /// finger's moves change nothing.
  @Test func aThirdFingerIsIgnored() throws {
    let (application, _, pinch, recorder) = setUp(PinchGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([began(3, 300, 300)], at: 0.05)
    #expect(pinch.numberOfTouches == 2)
    try application.send([moved(3, 390, 390)], at: 0.1)
    #expect(pinch.scale == 1 && pinch.state == .possible)
    try application.send([moved(2, 300, 200)], at: 0.2)
    #expect(pinch.state == .began && abs(pinch.scale - 2) < 1e-12)
    #expect(pinch.location(in: nil) == Point(x: 200, y: 200))
    try application.send([ended(1, 100, 200), ended(2, 300, 200), ended(3, 390, 390)], at: 0.3)
    #expect(recorder.received == ["gesture: began", "gesture: ended"])
  }

  /// "The gesture begins when the two touches have moved enough to be
  /// considered a rotation" — clockwise on screen is positive, as UIKit's.
  @Test func aRotationMeasuresTheTurnInRadians() throws {
    let (application, _, rotation, recorder) = setUp(RotationGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(2, 200, 205)], at: 0.1)
    #expect(rotation.state == .possible)
    // A quarter turn clockwise (y grows downward), in two steps.
    try application.send([moved(2, 170.71067811865476, 270.71067811865476)], at: 0.2)
    #expect(recorder.received == ["gesture: began"])
    #expect(abs(rotation.rotation - Double.pi / 4) < 1e-9)
    try application.send([moved(2, 100, 300)], at: 0.3)
    #expect(abs(rotation.rotation - Double.pi / 2) < 1e-9)
    #expect(abs(rotation.velocity - (Double.pi / 4) / 0.1) < 1e-6)
    try application.send([ended(1, 100, 200), ended(2, 100, 300)], at: 0.4)
    #expect(recorder.received.last == "gesture: ended")
  }

  /// Fingers that move apart along their line, not turning, do not rotate.
  @Test func aPinchDoesNotRotate() throws {
    let (application, _, rotation, recorder) = setUp(RotationGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 250)], at: 0)
    try application.send([moved(1, 20, 160)], at: 0.1)
    try application.send([moved(2, 380, 340)], at: 0.2)
    try application.send([ended(1, 20, 160), ended(2, 380, 340)], at: 0.3)
    #expect(recorder.received.isEmpty)
    #expect(rotation.state == .possible)
  }

  /// A pinch and a pan on one view: whichever recognizes first wins and
  /// the other fails (the default exclusion); the fingers moving apart
  /// make a pinch before the centroid moves 10 pt.
  @Test func aPinchBeatsAPanWhenTheFingersSpread() throws {
    let (application, view) = makeApplication()
    let pinch = PinchGestureRecognizer()
    let pan = PanGestureRecognizer()
    view.addGestureRecognizer(pinch)
    view.addGestureRecognizer(pan)
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(1, 80, 200), moved(2, 220, 200)], at: 0.1)
    #expect(pinch.state == .began)
    #expect(pan.state == .failed)
    // Two fingers moving together pan instead.
    try application.send([ended(1, 80, 200), ended(2, 220, 200)], at: 0.2)
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 1)
    try application.send([moved(1, 120, 200), moved(2, 220, 200)], at: 1.1)
    #expect(pan.state == .began)
    #expect(pinch.state == .failed)
  }

  /// With the app: a host's own pinch recognizer on the drawing takes two
  /// spreading fingers from the two-finger circle: the circle in progress
  /// is cancelled (`cancelsTouchesInView`) and nothing is drawn; two
  /// fingers moving together without spreading still draw their circle.
  /// (The app's own two-finger pan, which takes fingers moving together,
  /// is turned off here: this is UIKit's interplay, not the app's choice.)
  @Test func aPinchOnTheDrawingCancelsTheCircleInProgress() throws {
    let app = TouchTrackerApp()
    let pinch = PinchGestureRecognizer()
    app.drawView.addGestureRecognizer(pinch)
    let canvasPan = try #require(app.drawView.gestureRecognizers.first { $0.name == "two-finger pan" })
    canvasPan.isEnabled = false
    try app.send([began(1, 100, 300), began(2, 200, 300)], at: 0)
    // Moving together, the fingers leave the two-finger tap behind and
    // start a circle; the pinch sees no change of distance.
    try app.send([moved(1, 115, 300), moved(2, 215, 300)], at: 0.02)
    #expect(app.drawView.circlesInProgressCount == 1)
    #expect(pinch.state == .possible)
    try app.send([moved(1, 60, 300), moved(2, 240, 300)], at: 0.04)
    #expect(pinch.state == .began)
    #expect(app.drawView.circlesInProgressCount == 0)
    try app.send([ended(1, 60, 300), ended(2, 240, 300)], at: 0.06)
    #expect(app.drawing.circles.isEmpty && app.drawing.lines.isEmpty)

    try app.send([began(1, 100, 300), began(2, 200, 300)], at: 1)
    try app.send([moved(1, 130, 330), moved(2, 230, 330)], at: 1.02)
    try app.send([ended(1, 130, 330), ended(2, 230, 330)], at: 1.04)
    #expect(app.drawing.circles.count == 1)
  }

  /// Browsers send one finger per event: each move is measured against the
  /// pair as it last was, not against the other finger's older snapshot.
  @Test func fingersMovingInTurnPinchByTheirTrueDistance() throws {
    let (application, _, pinch, recorder) = setUp(PinchGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(1, 90, 200)], at: 0.1)
    try application.send([moved(2, 210, 200)], at: 0.2)
    #expect(abs(pinch.scale - 1.2) < 1e-12)
    try application.send([moved(1, 100, 200)], at: 0.3)
    try application.send([moved(2, 200, 200)], at: 0.4)
    #expect(abs(pinch.scale - 1) < 1e-12)
    try application.send([ended(1, 100, 200), ended(2, 200, 200)], at: 0.5)
    #expect(recorder.received.first == "gesture: began")
  }

  @Test func fingersTurningInTurnRotateByTheirTrueAngle() throws {
    let (application, _, rotation, recorder) = setUp(RotationGestureRecognizer())
    try application.send([began(1, 100, 200), began(2, 200, 200)], at: 0)
    try application.send([moved(1, 100, 100)], at: 0.1)
    #expect(abs(rotation.rotation - Double.pi / 4) < 1e-9)
    // Level again: the turn is undone.
    try application.send([moved(2, 200, 100)], at: 0.2)
    #expect(abs(rotation.rotation) < 1e-9)
    // Fingers crossing over each other keep counting past half a turn.
    try application.send([moved(1, 300, 100)], at: 0.3)
    try application.send([moved(2, 300, 0)], at: 0.4)
    try application.send([moved(2, 200, 100)], at: 0.5)
    #expect(abs(rotation.rotation - Double.pi) < 1e-9)
    try application.send([ended(1, 300, 100), ended(2, 200, 100)], at: 0.6)
    #expect(recorder.received.last == "gesture: ended")
  }

  /// Two fingers turning a quarter about their midpoint while moving apart
  /// both rotate and pinch, each reading only its own measure.
  @Test func aTurnThatAlsoSpreadsIsReadByBoth() throws {
    let (application, view) = makeApplication()
    let pinch = PinchGestureRecognizer()
    let rotation = RotationGestureRecognizer()
    let both = Simultaneous()
    pinch.delegate = both
    view.addGestureRecognizer(pinch)
    view.addGestureRecognizer(rotation)
    try application.send([began(1, 150, 200), began(2, 250, 200)], at: 0)
    try application.send([moved(1, 200, 100), moved(2, 200, 300)], at: 0.1)
    #expect(abs(pinch.scale - 2) < 1e-12)
    #expect(abs(rotation.rotation - Double.pi / 2) < 1e-9)
    #expect(pinch.state == .began && rotation.state == .began)
    try application.send([ended(1, 200, 100), ended(2, 200, 300)], at: 0.2)
  }
}

private final class Simultaneous: GestureRecognizerDelegate {
  func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer)
    -> Bool
  { true }
}
