import Testing
import TouchKit
import TouchKitTestSupport

/// Writes its name to a shared journal for every began message, then forwards.
final class JournalResponderView: View {
  let name: String
  let journal: Journal
  init(name: String, journal: Journal, frame: Rect) {
    self.name = name
    self.journal = journal
    super.init(frame: frame)
  }
  override func touchesBegan(_ touches: [Touch], with event: Event) {
    journal.entries.append(name)
    super.touchesBegan(touches, with: event)
  }
}

final class Journal {
  var entries: [String] = []
}

final class JournalController: ViewController {
  let journal: Journal
  init(journal: Journal) {
    self.journal = journal
    super.init()
  }
  override func loadView() -> View {
    JournalResponderView(name: "view", journal: journal, frame: Rect(x: 10, y: 10, width: 100, height: 100))
  }
  override func touchesBegan(_ touches: [Touch], with event: Event) {
    journal.entries.append("controller")
    super.touchesBegan(touches, with: event)
  }
}

final class JournalApplication: Application {
  let journal = Journal()
  override func touchesBegan(_ touches: [Touch], with event: Event) {
    journal.entries.append("application")
    super.touchesBegan(touches, with: event)
  }
}

final class JournalWindowObserver: View {}

@Suite struct ResponderChainTests {
  @Test func unhandledTouchesTravelViewControllerSuperviewWindowApplication() throws {
    let application = JournalApplication(windowSize: Size(width: 400, height: 400))
    let journal = application.journal
    let container = JournalResponderView(
      name: "superview", journal: journal, frame: Rect(x: 0, y: 0, width: 300, height: 300))
    let controller = JournalController(journal: journal)
    application.window.addSubview(container)
    container.addSubview(controller.view)
    #expect(controller.view.next === controller)
    #expect(controller.next === container)
    #expect(container.next === application.window)
    #expect(application.window.next === application)
    #expect(application.next == nil)

    try application.send([began(1, 50, 50)], at: 0)
    #expect(journal.entries == ["view", "controller", "superview", "application"])
  }

  @Test func aNilTargetedActionReachesTheFirstResponderThroughItsChain() throws {
    final class Handler: View {
      var performed: [String] = []
      override var canBecomeFirstResponder: Bool { true }
      override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool { action == .delete }
      override func perform(_ action: Action, withSender sender: AnyObject?) { performed.append(action.name) }
    }
    let application = Application(windowSize: Size(width: 400, height: 400))
    let handler = Handler(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    let child = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    application.window.addSubview(handler)
    handler.addSubview(child)
    // The first responder (the child) cannot delete; its superview can.
    final class Focusable: View { override var canBecomeFirstResponder: Bool { true } }
    let focus = Focusable(frame: .zero)
    child.addSubview(focus)
    #expect(focus.becomeFirstResponder())
    #expect(application.sendAction(.delete, to: nil, from: nil))
    #expect(handler.performed == ["delete:"])
    #expect(!application.sendAction(Action("nobodyKnows:"), to: nil, from: nil))
  }

  @Test func aViewPassesDoubleTapsOnToItsNextResponder() throws {
    /// The chapter's example: a view that handles single taps and passes
    /// double taps (`tapCount == 2`) up the chain.
    final class SingleTapView: View {
      var handled = 0
      override func touchesEnded(_ touches: [Touch], with event: Event) {
        if touches.contains(where: { $0.tapCount == 2 }) {
          next?.touchesEnded(touches, with: event)
        } else {
          handled += 1
        }
      }
    }
    final class DoubleTapContainer: View {
      var doubleTaps = 0
      override func touchesEnded(_ touches: [Touch], with event: Event) { doubleTaps += 1 }
    }
    let application = Application(windowSize: Size(width: 400, height: 400))
    let container = DoubleTapContainer(frame: application.window.bounds)
    let view = SingleTapView(frame: container.bounds)
    application.window.addSubview(container)
    container.addSubview(view)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([ended(1, 100, 100)], at: 0.05)
    try application.send([began(2, 101, 100)], at: 0.2)
    try application.send([ended(2, 101, 100)], at: 0.25)
    #expect(view.handled == 1)
    #expect(container.doubleTaps == 1)
  }

  @Test func onlyRespondersThatAcceptBecomeFirstResponder() {
    let application = Application(windowSize: Size(width: 100, height: 100))
    let plain = View(frame: .zero)
    application.window.addSubview(plain)
    #expect(!plain.becomeFirstResponder())
    #expect(application.firstResponder == nil)
  }
}
