/// The root of the view hierarchy: its next responder is the application.
public final class Window: View {
  /// The application owns the window.
  unowned(unsafe) var owner: Application?
  public var rootViewController: ViewController? {
    didSet {
      oldValue?.view.removeFromSuperview()
      if let rootViewController {
        rootViewController.view.frame = bounds
        insertRootView(rootViewController.view)
      }
    }
  }
  /// Set when something visible changed since the last render.
  public internal(set) var needsDisplay = true

  public override init(frame: Rect) {
    super.init(frame: frame)
    isMultipleTouchEnabled = true
  }

  public override var window: Window? { self }
  public override var next: Responder? { owner }
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
