import Testing
import TouchKit
import TouchKitTestSupport

/// Issue 9: `isMultipleTouchEnabled` gates a view's own touch methods,
/// not its recognizers, as Apple documents.
@Suite struct RecognizersSeeIgnoredTouchesTests {
  /// UIView.isMultipleTouchEnabled: "This property does not affect the
  /// gesture recognizers attached to the view. Gesture recognizers receive
  /// all touches that occur in the view."
  @Test func recognizersSeeTheTouchesASingleTouchViewIgnores() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let view = RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    #expect(!view.isMultipleTouchEnabled)
    application.window.addSubview(view)
    let pan = PanGestureRecognizer()
    pan.minimumNumberOfTouches = 2
    pan.cancelsTouchesInView = false
    let recorder = ActionRecorder()
    pan.addTarget(recorder, action: Action("pan:"))
    view.addGestureRecognizer(pan)

    try application.send([began(1, 100, 100)], at: 0)
    try application.send([began(2, 200, 100)], at: 0.02)
    #expect(pan.numberOfTouches == 2)
    try application.send([moved(1, 130, 100), moved(2, 230, 100)], at: 0.04)
    #expect(recorder.received == ["pan: began"])
    try application.send([ended(1, 130, 100), ended(2, 230, 100)], at: 0.06)
    #expect(recorder.received == ["pan: began", "pan: ended"])
    // The view itself still hears only its first touch.
    #expect(view.messages == ["began 1", "moved 1", "ended 1"])
  }

  @Test func aTwoFingerTapRecognizesOnASingleTouchView() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let view = RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    application.window.addSubview(view)
    let tap = TapGestureRecognizer()
    tap.numberOfTouchesRequired = 2
    let recorder = ActionRecorder()
    tap.addTarget(recorder, action: Action("tap:"))
    view.addGestureRecognizer(tap)
    try application.send([began(1, 100, 100), began(2, 140, 100)], at: 0)
    try application.send([ended(1, 100, 100), ended(2, 140, 100)], at: 0.05)
    #expect(recorder.received == ["tap: ended"])
    #expect(view.messages == ["began 1", "cancelled 1"])
  }
}
