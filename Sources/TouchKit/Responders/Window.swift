/// The root of the view hierarchy: its next responder is the application.
public final class Window: View {
  /// The application owns the window.
  unowned(unsafe) var owner: Application?
  /// The view controller whose view fills the window, below every other
  /// subview. Setting it removes the old controller's view and sizes the new
  /// one's to the window's bounds.
  public var rootViewController: ViewController? {
    didSet {
      oldValue?.view.removeFromSuperview()
      if let rootViewController {
        rootViewController.view.frame = bounds
        insertRootView(rootViewController.view)
      }
    }
  }
  /// How much of the window the host's own controls cover (a page's
  /// toolbar floats over the canvas). As in UIKit, content still fills the
  /// whole window; menus and the palette are placed inside `safeAreaFrame`.
  public var safeAreaInsets = EdgeInsets.zero {
    didSet { owner?.menuController.windowDidResize() }
  }

  /// The part of the window nothing of the host covers.
  public var safeAreaFrame: Rect { bounds.inset(by: safeAreaInsets) }

  /// Set when something visible changed since the last render.
  @exclusivity(unchecked) public internal(set) var needsDisplay = true

  public override init(frame: Rect) {
    super.init(frame: frame)
    isMultipleTouchEnabled = true
  }

  /// A shown menu stays inside the safe area as the window changes size.
  public override var frame: Rect {
    didSet { owner?.menuController.windowDidResize() }
  }

  public override var window: Window? { self }
  public override var next: Responder? { owner }
  public override var inspectorName: String { "Window" }
  public override var application: Application? { owner }

  private func insertRootView(_ view: View) {
    // The root view goes below every other subview (menus, palettes).
    let others = subviews
    for other in others { other.removeFromSuperview() }
    addSubview(view)
    for other in others { addSubview(other) }
  }

  /// Renders every visible view, back to front, in window coordinates.
  public func render() -> RenderList {
    var context = RenderContext()
    render(in: &context)
    needsDisplay = false
    return context.list
  }
}
