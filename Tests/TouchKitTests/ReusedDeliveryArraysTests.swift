import Testing
import TouchKit
import TouchKitTestSupport

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

  /// Records every message's phase, touches and the event's touches (host ids).
  final class PhaseRecognizer: GestureRecognizer {
    var heard: [String] = []
    func note(_ phase: String, _ touches: [Touch], _ event: Event) {
      heard.append("\(phase) \(touches.map(\.hostID)) of \(event.allTouches.map(\.hostID))")
    }
    override func touchesBegan(_ touches: [Touch], with event: Event) { note("began", touches, event) }
    override func touchesMoved(_ touches: [Touch], with event: Event) { note("moved", touches, event) }
    override func touchesEnded(_ touches: [Touch], with event: Event) { note("ended", touches, event) }
  }

  /// A message holds its phase's touches only, and the event all of them,
  /// whether or not every touch of the event changed the same way (when they
  /// all did, a message is given the event's own array).
  @Test func aMessageHoldsItsPhasesTouchesAndItsEventAllOfThem() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let view = KeepingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    view.isMultipleTouchEnabled = true
    application.window.addSubview(view)
    let recognizer = PhaseRecognizer()
    recognizer.cancelsTouchesInView = false
    recognizer.delaysTouchesEnded = false  // it never decides: the view would not hear an end until it did
    view.addGestureRecognizer(recognizer)
    try application.send([began(1, 10, 10), began(2, 20, 20)], at: 0)
    try application.send([moved(1, 11, 10), moved(2, 21, 20)], at: 0.1)
    try application.send([moved(1, 12, 10), ended(2, 22, 20)], at: 0.2)
    // Given in the other order: recognizers hear them as sent, views by when they began.
    try application.send([moved(1, 13, 10)], at: 0.3)
    try application.send([began(3, 30, 30)], at: 0.4)
    try application.send([moved(3, 31, 30), moved(1, 14, 10)], at: 0.5)
    let viewHeard = view.kept.map {
      "\($0.touches.map(\.hostID)) \($0.touches.map(\.phase.name)) of \($0.event.allTouches.map(\.hostID))"
    }
    #expect(
      viewHeard == [
        "[1, 2] [\"began\", \"began\"] of [1, 2]",
        "[1, 2] [\"moved\", \"moved\"] of [1, 2]",
        "[1] [\"moved\"] of [1, 2]",
        "[2] [\"ended\"] of [1, 2]",
        "[1] [\"moved\"] of [1]",
        "[3] [\"began\"] of [1, 3]",
        "[1, 3] [\"moved\", \"moved\"] of [1, 3]",
      ])
    #expect(
      recognizer.heard == [
        "began [1, 2] of [1, 2]",
        "moved [1, 2] of [1, 2]",
        "moved [1] of [1, 2]",
        "ended [2] of [1, 2]",
        "moved [1] of [1]",
        "began [3] of [1, 3]",
        "moved [3, 1] of [1, 3]",
      ])
    #expect(view.kept.map { $0.touches.map(\.locationInWindow.x) }.last == [14, 31])
  }

  /// A recognizer that takes two fingers from two views: each view hears
  /// `touchesCancelled` with its own touch, in one event that holds both,
  /// and nothing of them after.
  @Test func touchesCancelledTogetherShareOneEvent() throws {
    final class Taker: GestureRecognizer {
      override func touchesMoved(_ touches: [Touch], with event: Event) { state = .began }
    }
    final class CancelledView: View {
      var heard: [String] = []
      override func touchesBegan(_ touches: [Touch], with event: Event) {
        heard.append("began \(touches.map(\.hostID))")
      }
      override func touchesMoved(_ touches: [Touch], with event: Event) {
        heard.append("moved \(touches.map(\.hostID))")
      }
      override func touchesCancelled(_ touches: [Touch], with event: Event) {
        heard.append(
          "cancelled \(touches.map(\.hostID)) \(touches.map(\.phase.name)) of \(event.allTouches.map(\.hostID))")
      }
    }
    let application = Application(windowSize: Size(width: 400, height: 400))
    let container = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    container.isMultipleTouchEnabled = true
    let left = CancelledView(frame: Rect(x: 0, y: 0, width: 200, height: 400))
    let right = CancelledView(frame: Rect(x: 200, y: 0, width: 200, height: 400))
    application.window.addSubview(container)
    container.addSubview(left)
    container.addSubview(right)
    container.addGestureRecognizer(Taker())
    try application.send([began(1, 10, 10), began(2, 300, 10)], at: 0)
    try application.send([moved(1, 20, 10), moved(2, 310, 10)], at: 0.1)
    try application.send([moved(1, 30, 10), moved(2, 320, 10)], at: 0.2)
    try application.send([ended(1, 30, 10), ended(2, 320, 10)], at: 0.3)
    #expect(left.heard == ["began [1]", "cancelled [1] [\"cancelled\"] of [1, 2]"])
    #expect(right.heard == ["began [2]", "cancelled [2] [\"cancelled\"] of [1, 2]"])
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
