import Testing
import TouchKit
import TouchKitTestSupport

/// What the engine does without the app: a host that only sets the window's
/// frame and safe area, and a recognizer subclass that asks where each touch is.
@Suite struct EngineAloneTests {
  /// A view that can take the edit menu's Delete.
  final class Editable: View {
    override var canBecomeFirstResponder: Bool { true }
    override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool {
      action == Action("delete:")
    }
  }

  private func menuFrame(_ application: Application) -> Rect? {
    guard let button = application.menuController.visibleButtons.first, let menu = button.superview else { return nil }
    return menu.frame
  }

  /// UIKit keeps the edit menu on screen as the window changes; here the
  /// window does it, so a host has nothing to call.
  @Test func aShownMenuStaysInsideTheWindowWhenItShrinks() throws {
    let application = Application(windowSize: Size(width: 800, height: 600))
    let view = Editable(frame: Rect(x: 0, y: 0, width: 800, height: 600))
    application.window.addSubview(view)
    #expect(view.becomeFirstResponder())
    application.menuController.menuItems = [MenuItem(title: "Delete", action: Action("delete:"))]
    application.menuController.showMenu(from: view, at: Point(x: 700, y: 500))
    let shown = try #require(menuFrame(application))
    #expect(shown.maxX > 400, "the menu starts near its point, right of the smaller window's edge")

    application.window.frame = Rect(x: 0, y: 0, width: 400, height: 300)
    let moved = try #require(menuFrame(application))
    #expect(moved.maxX <= 396 && moved.maxY <= 296, "\(moved)")
  }

  @Test func aShownMenuMovesOutFromUnderTheHostsControls() throws {
    let application = Application(windowSize: Size(width: 800, height: 600))
    let view = Editable(frame: Rect(x: 0, y: 0, width: 800, height: 600))
    application.window.addSubview(view)
    #expect(view.becomeFirstResponder())
    application.menuController.menuItems = [MenuItem(title: "Delete", action: Action("delete:"))]
    application.menuController.showMenu(from: view, at: Point(x: 400, y: 580))
    #expect(try #require(menuFrame(application)).maxY > 500)

    application.window.safeAreaInsets = EdgeInsets(top: 0, left: 0, bottom: 100, right: 0)
    #expect(try #require(menuFrame(application)).maxY <= 496)
  }

  /// UIGestureRecognizer's `location(ofTouch:in:)`: touches in the order
  /// they began, in the view's coordinates or the window's.
  @Test func locationOfTouchIsEachTouchInTheOrderTheyBegan() throws {
    let (application, view) = makeApplication()
    view.bounds.origin = Point(x: 50, y: 0)
    let recognizer = TouchLocations()
    view.addGestureRecognizer(recognizer)
    try application.send([began(7, 100, 100)], at: 0)
    try application.send([began(3, 200, 220)], at: 0.01)
    try application.send([moved(7, 110, 100), moved(3, 210, 220)], at: 0.02)
    #expect(recognizer.inWindow == [Point(x: 110, y: 100), Point(x: 210, y: 220)])
    // The view's bounds start 50 points in: its content is shifted left by 50.
    #expect(recognizer.inView == [Point(x: 160, y: 100), Point(x: 260, y: 220)])
  }

  /// Writes down `location(ofTouch:in:)` for every touch at each event.
  final class TouchLocations: GestureRecognizer {
    var inWindow: [Point] = []
    var inView: [Point] = []
    override func touchesMoved(_ touches: [Touch], with event: Event) {
      inWindow = (0..<numberOfTouches).map { location(ofTouch: $0, in: nil) }
      inView = (0..<numberOfTouches).map { location(ofTouch: $0, in: view) }
    }
  }
}
