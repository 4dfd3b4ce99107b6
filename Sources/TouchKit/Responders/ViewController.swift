/// Manages one view. It sits between its view and the view's superview in the
/// responder chain, so it sees whatever its view does not handle.
open class ViewController: Responder {
  private var loadedView: View?

  public override init() {
    super.init()
  }

  /// The managed view, created by `loadView()` on first use.
  public var view: View {
    if let loadedView { return loadedView }
    let view = loadView()
    view.viewController = self
    loadedView = view
    viewDidLoad()
    return view
  }

  /// Creates the view; override to supply your own. The default is a plain view.
  open func loadView() -> View { View(frame: .zero) }

  /// Called once, after the view is created.
  open func viewDidLoad() {}

  /// A touch began in `view`, anywhere in the window, before it is
  /// delivered: what a popover needs to close on a tap outside it.
  /// Called on the window's root view controller.
  open func windowTouchBegan(in view: View) {}

  open override var next: Responder? { loadedView?.superview }
  open override var inspectorName: String { "ViewController" }
  open override var application: Application? { loadedView?.window?.application }
}
