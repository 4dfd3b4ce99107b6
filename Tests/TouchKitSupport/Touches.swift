import TouchKit

/// A view that writes down every touch message it gets, as "began 1,2".
public final class RecordingView: View {
  public var messages: [String] = []
  public var forwards = false
  public var locations: [String: [Point]] = [:]

  private func record(_ phase: String, _ touches: [Touch]) {
    messages.append("\(phase) \(touches.map { String($0.hostID) }.joined(separator: ","))")
    locations[phase, default: []].append(contentsOf: touches.map { $0.location(in: self) })
  }

  public override func touchesBegan(_ touches: [Touch], with event: Event) {
    record("began", touches)
    if forwards { super.touchesBegan(touches, with: event) }
  }
  public override func touchesMoved(_ touches: [Touch], with event: Event) {
    record("moved", touches)
    if forwards { super.touchesMoved(touches, with: event) }
  }
  public override func touchesEnded(_ touches: [Touch], with event: Event) {
    record("ended", touches)
    if forwards { super.touchesEnded(touches, with: event) }
  }
  public override func touchesCancelled(_ touches: [Touch], with event: Event) {
    record("cancelled", touches)
    if forwards { super.touchesCancelled(touches, with: event) }
  }
}

/// Records the actions it is sent, with the recognizer's state when it came.
public final class ActionRecorder: Responder {
  public var received: [String] = []
  public override func perform(_ action: Action, withSender sender: AnyObject?) {
    let state = (sender as? GestureRecognizer)?.state.name ?? "-"
    received.append("\(action.name) \(state)")
  }
  public override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool { true }
}

/// An application with one full-window recording view, for delivery tests.
public func makeApplication(size: Size = Size(width: 400, height: 400)) -> (Application, RecordingView) {
  let application = Application(windowSize: size)
  let view = RecordingView(frame: Rect(origin: .zero, size: size))
  view.isMultipleTouchEnabled = true
  application.window.addSubview(view)
  return (application, view)
}

public func began(_ id: Int, _ x: Double, _ y: Double) -> TouchInput { TouchInput(id: id, phase: .began, x: x, y: y) }
public func moved(_ id: Int, _ x: Double, _ y: Double) -> TouchInput { TouchInput(id: id, phase: .moved, x: x, y: y) }
public func ended(_ id: Int, _ x: Double, _ y: Double) -> TouchInput { TouchInput(id: id, phase: .ended, x: x, y: y) }
public func cancelled(_ id: Int, _ x: Double, _ y: Double) -> TouchInput {
  TouchInput(id: id, phase: .cancelled, x: x, y: y)
}
