import Testing
import TouchKit
import TouchKitTestSupport

/// A control that writes down the tracking calls it gets and can refuse to
/// begin or go on tracking.
private final class TrackingControl: Control {
  var calls: [String] = []
  var refusesToBegin = false
  /// Refuses to continue at the n-th continueTracking call (1-based).
  var refusesToContinueAt: Int?
  private var continues = 0

  override func beginTracking(_ touch: Touch, with event: Event?) -> Bool {
    calls.append("begin \(isTracking) \(isTouchInside)")
    return !refusesToBegin
  }
  override func continueTracking(_ touch: Touch, with event: Event?) -> Bool {
    continues += 1
    calls.append("continue \(isTouchInside)")
    return continues != refusesToContinueAt
  }
  override func endTracking(_ touch: Touch?, with event: Event?) {
    calls.append("end \(touch?.hostID ?? 0) \(isTouchInside)")
  }
  override func cancelTracking(with event: Event?) {
    calls.append("cancel")
  }
}

/// UIControl's tracking methods: `beginTracking(_:with:)` "true if the
/// control should continue tracking touch events or false if it should
/// stop. This value is used to update the isTracking property";
/// `continueTracking(_:with:)` the same, "called repeatedly while a touch
/// event is being tracked"; `endTracking(_:with:)` "Notifies the control
/// when a touch event associated with the control ends";
/// `cancelTracking(with:)` "Tells the control to cancel tracking related to
/// the given event"; `isTouchInside` "whether a tracked touch is currently
/// inside the control's bounds". Where Apple is silent (whether events are
/// sent once tracking stopped) this follows Chameleon's UIControl, a peer
/// re-implementation: a control that stopped tracking sends no more events.
@Suite struct ControlTrackingTests {
  private func setUp() -> (Application, TrackingControl, ActionRecorder) {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let control = TrackingControl(frame: Rect(x: 100, y: 100, width: 100, height: 40))
    application.window.addSubview(control)
    let recorder = ActionRecorder()
    control.addTarget(recorder, action: Action("down:"), for: .touchDown)
    control.addTarget(recorder, action: Action("inside:"), for: .touchDragInside)
    control.addTarget(recorder, action: Action("outside:"), for: .touchDragOutside)
    control.addTarget(recorder, action: Action("up:"), for: .touchUpInside)
    control.addTarget(recorder, action: Action("upOutside:"), for: .touchUpOutside)
    control.addTarget(recorder, action: Action("cancel:"), for: .touchCancel)
    return (application, control, recorder)
  }

  @Test func aPressGoesThroughBeginContinueAndEnd() throws {
    let (application, control, recorder) = setUp()
    try application.send([began(1, 150, 120)], at: 0)
    #expect(control.isTracking && control.isTouchInside)
    try application.send([moved(1, 160, 120)], at: 0.02)
    try application.send([ended(1, 160, 120)], at: 0.04)
    #expect(control.calls == ["begin false true", "continue true", "end 1 true"])
    #expect(!control.isTracking && !control.isTouchInside)
    #expect(recorder.received == ["down: -", "inside: -", "up: -"])
  }

  @Test func isTouchInsideFollowsTheFingerOutAndBackIn() throws {
    let (application, control, recorder) = setUp()
    try application.send([began(1, 150, 120)], at: 0)
    try application.send([moved(1, 150, 300)], at: 0.02)
    #expect(!control.isTouchInside && control.isTracking)
    try application.send([moved(1, 150, 130)], at: 0.04)
    #expect(control.isTouchInside)
    try application.send([moved(1, 150, 300)], at: 0.06)
    try application.send([ended(1, 150, 300)], at: 0.08)
    #expect(control.calls == ["begin false true", "continue false", "continue true", "continue false", "end 1 false"])
    #expect(recorder.received == ["down: -", "outside: -", "inside: -", "outside: -", "upOutside: -"])
  }

  @Test func refusingToBeginStopsTrackingAndSendsNoEvents() throws {
    let (application, control, recorder) = setUp()
    control.refusesToBegin = true
    try application.send([began(1, 150, 120)], at: 0)
    #expect(!control.isTracking && !control.isHighlighted)
    try application.send([moved(1, 160, 120)], at: 0.02)
    try application.send([ended(1, 160, 120)], at: 0.04)
    #expect(control.calls == ["begin false true"])
    #expect(recorder.received.isEmpty)
  }

  @Test func refusingToContinueStopsTrackingThere() throws {
    let (application, control, recorder) = setUp()
    control.refusesToContinueAt = 2
    try application.send([began(1, 150, 120)], at: 0)
    try application.send([moved(1, 155, 120)], at: 0.02)
    try application.send([moved(1, 160, 120)], at: 0.04)
    #expect(!control.isTracking && !control.isHighlighted)
    try application.send([moved(1, 165, 120)], at: 0.06)
    try application.send([ended(1, 165, 120)], at: 0.08)
    #expect(control.calls == ["begin false true", "continue true", "continue true"])
    #expect(recorder.received == ["down: -", "inside: -"])
  }

  @Test func aCancelledTouchCancelsTracking() throws {
    let (application, control, recorder) = setUp()
    try application.send([began(1, 150, 120)], at: 0)
    try application.send([cancelled(1, 150, 120)], at: 0.02)
    #expect(control.calls == ["begin false true", "cancel"])
    #expect(!control.isTracking && !control.isTouchInside)
    #expect(recorder.received == ["down: -", "cancel: -"])
  }

  /// The control's own lift still decides `touchUpInside` with its tracking
  /// margin, as before: `isTouchInside` says the same.
  @Test func aLiftJustOutsideTheBoundsButWithinTheMarginIsInside() throws {
    let (application, control, recorder) = setUp()
    try application.send([began(1, 150, 120)], at: 0)
    try application.send([ended(1, 150, 150)], at: 0.04)
    #expect(control.calls == ["begin false true", "end 1 true"])
    #expect(recorder.received == ["down: -", "up: -"])
  }
}
