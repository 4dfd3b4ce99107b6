import Testing
import TouchKit
import TouchKitTestSupport

/// A recognizer that writes down what it hears and ignores every touch of
/// host id 2 as it begins; a move of touch 1 begins it, its lift ends it.
private final class IgnoresSecondFinger: GestureRecognizer {
  var heard: [String] = []

  private func note(_ phase: String, _ touches: [Touch]) {
    heard.append("\(phase) \(touches.map { String($0.hostID) }.joined(separator: ","))")
  }

  override func touchesBegan(_ touches: [Touch], with event: Event) {
    note("began", touches)
    for touch in touches where touch.hostID == 2 { ignore(touch, for: event) }
  }
  override func touchesMoved(_ touches: [Touch], with event: Event) {
    note("moved", touches)
    state = state == .possible ? .began : .changed
  }
  override func touchesEnded(_ touches: [Touch], with event: Event) {
    note("ended", touches)
    state = state.isRecognizing ? .ended : .failed
  }
}

extension GestureRecognizerState {
  fileprivate var isRecognizing: Bool { self == .began || self == .changed }
}

/// UIGestureRecognizerSubclass `ignore(_:for:)`: "If a touch isn't part of
/// this gesture you may pass it to this method, causing it to be ignored.
/// UIGestureRecognizer does not cancel ignored touches on the associated
/// view." The header adds: "ignored touches won't be cancelled on the view
/// even if cancelsTouchesInView is YES".
@Suite struct IgnoredTouchTests {
  @Test func anIgnoredTouchIsNoLongerDeliveredToTheRecognizer() throws {
    let (application, view) = makeApplication()
    let recognizer = IgnoresSecondFinger()
    view.addGestureRecognizer(recognizer)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([began(2, 200, 100)], at: 0.02)
    #expect(recognizer.numberOfTouches == 1)
    try application.send([moved(1, 110, 100), moved(2, 210, 100)], at: 0.04)
    try application.send([ended(1, 110, 100), ended(2, 210, 100)], at: 0.06)
    #expect(recognizer.heard == ["began 1", "began 2", "moved 1", "ended 1"])
  }

  @Test func anIgnoredTouchIsNotCancelledInTheView() throws {
    let (application, view) = makeApplication()
    let recognizer = IgnoresSecondFinger()
    view.addGestureRecognizer(recognizer)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([began(2, 200, 100)], at: 0.02)
    try application.send([moved(1, 110, 100), moved(2, 210, 100)], at: 0.04)
    #expect(recognizer.state == .began)
    try application.send([ended(1, 110, 100), ended(2, 210, 100)], at: 0.06)
    #expect(view.messages == ["began 1", "began 2", "cancelled 1", "moved 2", "ended 2"])
  }

  /// Not part of the gesture, so not held back for it either: a recognizer
  /// still deciding (which delays ended touches by default) lets the
  /// ignored touch's end reach the view at once.
  @Test func anIgnoredTouchIsNotHeldBackFromTheView() throws {
    let (application, view) = makeApplication()
    let recognizer = IgnoresSecondFinger()
    recognizer.delaysTouchesBegan = true
    view.addGestureRecognizer(recognizer)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([began(2, 200, 100)], at: 0.02)
    try application.send([ended(2, 200, 100)], at: 0.04)
    #expect(recognizer.state == .possible)
    #expect(view.messages == ["began 2", "ended 2"])
  }
}
