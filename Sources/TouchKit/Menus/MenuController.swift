/// The edit menu: a row of commands shown at a point, above other views.
///
/// As in UIKit, it shows only the items the first responder's chain can
/// perform, each tap sends the item's action to that chain, and the menu
/// hides itself after a command.
public final class MenuController {
  unowned(unsafe) let application: Application
  /// The commands the menu can offer (UIKit's `menuItems`), left to right.
  /// Empty by default.
  public var menuItems: [MenuItem] = []
  private var menuView: MenuView?

  init(application: Application) {
    self.application = application
  }

  /// Whether the menu is on screen (UIKit's `isMenuVisible`).
  public var isMenuVisible: Bool { menuView != nil }

  /// The titles of the items on screen, left to right.
  public var visibleItemTitles: [String] { menuView?.buttons.map { $0.title } ?? [] }

  /// Shows the menu with its tip at `point` in `view`'s coordinates. Items
  /// nobody along the first responder's chain can perform are left out; with
  /// none left, the menu stays hidden.
  public func showMenu(from view: View, at point: Point) {
    hideMenu()
    let responder = application.firstResponder
    let items = menuItems.filter { responder?.target(forAction: $0.action, withSender: nil) != nil }
    guard !items.isEmpty else { return }
    let window = application.window
    let menu = MenuView(items: items, controller: self)
    let anchor = view.convert(toWindow: point)
    let size = menu.frame.size
    let area = window.safeAreaFrame
    var origin = Point(x: anchor.x - size.width / 2, y: anchor.y - size.height - 12)
    // Above the point, unless that is under the host's controls: then below it.
    if origin.y < area.minY + 4 { origin.y = anchor.y + 12 }
    menu.frame.origin = origin
    menu.frame.origin = MenuController.clamped(menu.frame, into: area)
    window.addSubview(menu)
    menuView = menu
  }

  /// The origin that puts `frame` inside `area` with a 4-point margin (at its
  /// top-left edge when it does not fit).
  static func clamped(_ frame: Rect, into area: Rect) -> Point {
    Point(
      x: max(area.minX + 4, min(frame.minX, area.maxX - frame.width - 4)),
      y: max(area.minY + 4, min(frame.minY, area.maxY - frame.height - 4)))
  }

  /// Takes the menu off screen (UIKit's `hideMenu()`); nothing happens when
  /// it is hidden.
  public func hideMenu() {
    menuView?.removeFromSuperview()
    menuView = nil
  }

  /// As in UIKit, a touch anywhere but on the menu dismisses it.
  func touchBegan(in view: View) {
    guard let menuView, !view.isDescendant(of: menuView) else { return }
    hideMenu()
  }

  /// Keeps a shown menu inside the safe area after the window or its safe area changes.
  func windowDidResize() {
    guard let menuView else { return }
    menuView.frame.origin = MenuController.clamped(menuView.frame, into: application.window.safeAreaFrame)
  }

  /// The menu's buttons, for hosts and tests that tap items by title.
  public var visibleButtons: [Button] { menuView?.buttons ?? [] }
}

/// The menu on screen: one button an item.
final class MenuView: View {
  let buttons: [Button]
  unowned(unsafe) let controller: MenuController
  private let items: [MenuItem]

  override var inspectorName: String { "MenuView" }

  init(items: [MenuItem], controller: MenuController) {
    self.items = items
    self.controller = controller
    var buttons: [Button] = []
    var x = 0.0
    for item in items {
      let width = Double(item.title.utf8.count) * 9 + 28
      let button = Button(title: item.title, frame: Rect(x: x, y: 0, width: width, height: 40))
      button.fillColor = Color(rgb: 0x222222)
      button.cornerRadius = 8
      buttons.append(button)
      x += width + 1
    }
    self.buttons = buttons
    super.init(frame: Rect(x: 0, y: 0, width: max(0, x - 1), height: 40))
    for (button, item) in zip(buttons, items) {
      addSubview(button)
      button.addTarget(self, action: item.action, for: .touchUpInside)
    }
  }

  override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool {
    items.contains { $0.action == action }
  }

  /// Hides the menu, then passes the command to the first responder's chain.
  override func perform(_ action: Action, withSender sender: AnyObject?) {
    let application = controller.application
    controller.hideMenu()
    // The chain starts at the first responder, never at the menu itself,
    // which would only find this method again (a nil target with no first
    // responder starts at the sender, the menu's button).
    guard application.firstResponder != nil else { return }
    application.sendAction(action, to: nil, from: sender)
  }
}
