import Testing
import TouchKit
import TouchKitTestSupport

/// UIView.isExclusiveTouch: "Setting this property to true causes the
/// receiver to block the delivery of touch events to other views in the same
/// window." Event Handling Guide for iOS, "Restricting event delivery to a
/// single view": a touch on an exclusive-touch view is delivered only if
/// that view is the only view in the window tracking a finger, and a touch
/// on another view only if no exclusive-touch view is tracking one.
@Suite struct ExclusiveTouchTests {
  private func twoViews() -> (Application, RecordingView, RecordingView) {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let left = RecordingView(frame: Rect(x: 0, y: 0, width: 200, height: 400))
    let right = RecordingView(frame: Rect(x: 200, y: 0, width: 200, height: 400))
    application.window.addSubview(left)
    application.window.addSubview(right)
    return (application, left, right)
  }

  @Test func whileAnExclusiveViewTracksAFingerOtherViewsGetNone() throws {
    let (application, exclusive, other) = twoViews()
    exclusive.isExclusiveTouch = true
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([began(2, 300, 100)], at: 0.02)
    try application.send([moved(2, 310, 100)], at: 0.04)
    try application.send([ended(2, 310, 100)], at: 0.06)
    try application.send([ended(1, 100, 100)], at: 0.08)
    #expect(other.messages.isEmpty)
    #expect(exclusive.messages == ["began 1", "ended 1"])

    // Once it tracks nothing, the other view gets touches again.
    try application.send([began(3, 300, 100)], at: 1)
    try application.send([ended(3, 300, 100)], at: 1.05)
    #expect(other.messages == ["began 3", "ended 3"])
  }

  @Test func anExclusiveViewGetsNoTouchWhileAnotherViewTracksOne() throws {
    let (application, exclusive, other) = twoViews()
    exclusive.isExclusiveTouch = true
    try application.send([began(1, 300, 100)], at: 0)
    try application.send([began(2, 100, 100)], at: 0.02)
    try application.send([ended(2, 100, 100)], at: 0.04)
    try application.send([ended(1, 300, 100)], at: 0.06)
    #expect(exclusive.messages.isEmpty)
    #expect(other.messages == ["began 1", "ended 1"])
  }

  /// Being the only view tracking touches, an exclusive view that accepts
  /// multiple touches gets its own second finger.
  @Test func anExclusiveViewStillGetsItsOwnSecondFinger() throws {
    let (application, exclusive, _) = twoViews()
    exclusive.isExclusiveTouch = true
    exclusive.isMultipleTouchEnabled = true
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([began(2, 150, 100)], at: 0.02)
    #expect(exclusive.messages == ["began 1", "began 2"])
  }

  @Test func viewsAreNotExclusiveByDefault() throws {
    let (application, left, right) = twoViews()
    #expect(!left.isExclusiveTouch)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([began(2, 300, 100)], at: 0.02)
    #expect(left.messages == ["began 1"])
    #expect(right.messages == ["began 2"])
  }

  /// Apple says nothing of recognizers here; as with
  /// `isMultipleTouchEnabled`, only the views' touch methods are gated, so a
  /// recognizer still sees the touch that an exclusive view keeps from its view.
  @Test func recognizersStillSeeTouchesAnExclusiveViewKeepsFromTheirViews() throws {
    let (application, exclusive, other) = twoViews()
    exclusive.isExclusiveTouch = true
    let tap = TapGestureRecognizer()
    let recorder = ActionRecorder()
    tap.addTarget(recorder, action: Action("tap:"))
    other.addGestureRecognizer(tap)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([began(2, 300, 100)], at: 0.02)
    try application.send([ended(2, 300, 100)], at: 0.06)
    #expect(recorder.received == ["tap: ended"])
    #expect(other.messages.isEmpty)
    #expect(exclusive.messages == ["began 1"])
  }
}
