import Testing
import TouchKit
import TouchKitTestSupport

@Suite struct ControlTests {
  private func setUp() -> (Application, Button, ActionRecorder) {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let button = Button(title: "OK", frame: Rect(x: 100, y: 100, width: 100, height: 40))
    application.window.addSubview(button)
    let recorder = ActionRecorder()
    button.addTarget(recorder, action: Action("down:"), for: .touchDown)
    button.addTarget(recorder, action: Action("upInside:"), for: .touchUpInside)
    button.addTarget(recorder, action: Action("upOutside:"), for: .touchUpOutside)
    button.addTarget(recorder, action: Action("dragOutside:"), for: .touchDragOutside)
    button.addTarget(recorder, action: Action("cancel:"), for: .touchCancel)
    return (application, button, recorder)
  }

  @Test func liftingInsideSendsTouchUpInside() throws {
    let (application, button, recorder) = setUp()
    try application.send([began(1, 150, 120)], at: 0)
    #expect(button.isHighlighted)
    try application.send([ended(1, 160, 125)], at: 0.1)
    #expect(recorder.received == ["down: -", "upInside: -"])
    #expect(!button.isHighlighted)
  }

  @Test func liftingFarOutsideSendsTouchUpOutside() throws {
    let (application, _, recorder) = setUp()
    try application.send([began(1, 150, 120)], at: 0)
    try application.send([moved(1, 350, 300)], at: 0.1)
    try application.send([ended(1, 350, 300)], at: 0.2)
    #expect(recorder.received == ["down: -", "dragOutside: -", "upOutside: -"])
  }

  @Test func liftingJustOutsideTheEdgeStillCountsAsInside() throws {
    let (application, _, recorder) = setUp()
    try application.send([began(1, 150, 120)], at: 0)
    try application.send([ended(1, 210, 120)], at: 0.1)
    #expect(recorder.received.last == "upInside: -")
  }

  @Test func aCancelledTouchSendsTouchCancel() throws {
    let (application, _, recorder) = setUp()
    try application.send([began(1, 150, 120)], at: 0)
    try application.send([cancelled(1, 150, 120)], at: 0.1)
    #expect(recorder.received == ["down: -", "cancel: -"])
  }

  @Test func aNilTargetedButtonActionGoesToTheFirstResponder() throws {
    final class Editor: View {
      var deleted = 0
      override var canBecomeFirstResponder: Bool { true }
      override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool { action == .delete }
      override func perform(_ action: Action, withSender sender: AnyObject?) { deleted += 1 }
    }
    let application = Application(windowSize: Size(width: 400, height: 400))
    let editor = Editor(frame: application.window.bounds)
    application.window.addSubview(editor)
    let button = Button(title: "Delete", frame: Rect(x: 0, y: 0, width: 80, height: 40))
    application.window.addSubview(button)
    button.addTarget(nil, action: .delete, for: .touchUpInside)
    editor.becomeFirstResponder()
    try application.send([began(1, 40, 20)], at: 0)
    try application.send([ended(1, 40, 20)], at: 0.05)
    #expect(editor.deleted == 1)
  }
}
