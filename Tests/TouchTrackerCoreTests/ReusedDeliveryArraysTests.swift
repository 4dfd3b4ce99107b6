import Testing
import TouchTrackerCore

/// The application and the arbiter reuse their arrays from event to event
/// (no allocation per touch update); whatever a view or a recognizer keeps
/// of what it was given stays as it was given.
@Suite struct ReusedDeliveryArraysTests {
  /// Keeps every message's touches and event.
  final class KeepingView: View {
    var kept: [(touches: [Touch], event: Event)] = []
    override func touchesBegan(_ touches: [Touch], with event: Event) { kept.append((touches, event)) }
    override func touchesMoved(_ touches: [Touch], with event: Event) { kept.append((touches, event)) }
    override func touchesEnded(_ touches: [Touch], with event: Event) { kept.append((touches, event)) }
  }

  final class KeepingRecognizer: GestureRecognizer {
    var kept: [[Touch]] = []
    override func touchesMoved(_ touches: [Touch], with event: Event) { kept.append(touches) }
  }

  @Test func touchesAndEventsAViewKeepsStayAsTheyWereDelivered() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let view = KeepingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    view.isMultipleTouchEnabled = true
    application.window.addSubview(view)
    try application.send([began(1, 10, 10), began(2, 20, 20)], at: 0)
    for step in 1...5 {
      let offset = Double(step)
      try application.send([moved(1, 10 + offset, 10), moved(2, 20 + offset, 20)], at: offset / 10)
    }
    try application.send([ended(1, 15, 10), ended(2, 25, 20)], at: 1)
    #expect(view.kept.count == 7)
    for (index, message) in view.kept.enumerated() {
      let x = [0, 1, 2, 3, 4, 5, 5][index]
      #expect(
        message.touches.map(\.locationInWindow) == [Point(x: 10 + Double(x), y: 10), Point(x: 20 + Double(x), y: 20)])
      #expect(message.event.allTouches.map(\.locationInWindow) == message.touches.map(\.locationInWindow))
      #expect(message.event.timestamp == [0, 0.1, 0.2, 0.3, 0.4, 0.5, 1][index])
    }
  }

  @Test func touchesARecognizerKeepsStayAsTheyWereDelivered() throws {
    let (application, view) = makeApplication()
    let recognizer = KeepingRecognizer()
    view.addGestureRecognizer(recognizer)
    try application.send([began(1, 10, 10)], at: 0)
    try application.send([moved(1, 11, 10)], at: 0.1)
    try application.send([moved(1, 12, 10)], at: 0.2)
    #expect(recognizer.kept.map { $0.map(\.locationInWindow) } == [[Point(x: 11, y: 10)], [Point(x: 12, y: 10)]])
  }

  /// A view that sends another event while it is being delivered one gets
  /// arrays of its own: both deliveries stay whole.
  @Test func anEventSentFromInsideADeliveryIsDeliveredWhole() throws {
    final class ForwardingView: View {
      var host: Application?
      var messages: [String] = []
      override func touchesMoved(_ touches: [Touch], with event: Event) {
        messages.append("moved \(touches.map { String($0.hostID) }.joined(separator: ","))")
        if touches.first?.hostID == 1, let host {
          try? host.send([moved(2, 60, 60)], at: event.timestamp)
        }
      }
      override func touchesBegan(_ touches: [Touch], with event: Event) {
        messages.append("began \(touches.map { String($0.hostID) }.joined(separator: ","))")
      }
    }
    let application = Application(windowSize: Size(width: 400, height: 400))
    let view = ForwardingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    view.isMultipleTouchEnabled = true
    view.host = application
    application.window.addSubview(view)
    try application.send([began(1, 10, 10), began(2, 50, 50)], at: 0)
    try application.send([moved(1, 20, 20)], at: 0.1)
    #expect(view.messages == ["began 1,2", "moved 1", "moved 2"])
  }
}
