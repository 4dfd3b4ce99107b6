/// Something that can handle touch events and actions, and that knows the
/// next responder to pass them on to.
///
/// Every default implementation forwards to `next`, so an event a view does
/// not handle travels view -> view controller -> superview -> ... -> window
/// -> application, and is discarded after that.
open class Responder {
  /// A responder with no next responder.
  public init() {}

  /// The next responder in the chain; nil ends the chain.
  open var next: Responder? { nil }

  /// The name the inspector and the event-order log show for this responder.
  open var inspectorName: String { "Responder" }

  /// Tells the responder that touches began (UIKit's `touchesBegan(_:with:)`).
  ///
  /// `touches` are this responder's touches that began in `event`, and
  /// `event.allTouches` every touch down. A view is sent the touches that
  /// began in it. The default passes the message to ``Responder/next``; override it,
  /// and the other three, to handle touches.
  open func touchesBegan(_ touches: [Touch], with event: Event) {
    next?.touchesBegan(touches, with: event)
  }

  /// Tells the responder that touches moved (UIKit's `touchesMoved(_:with:)`).
  /// The default passes the message to ``Responder/next``.
  open func touchesMoved(_ touches: [Touch], with event: Event) {
    next?.touchesMoved(touches, with: event)
  }

  /// Tells the responder that touches lifted (UIKit's `touchesEnded(_:with:)`).
  /// The default passes the message to ``Responder/next``.
  open func touchesEnded(_ touches: [Touch], with event: Event) {
    next?.touchesEnded(touches, with: event)
  }

  /// Tells the responder that touches were cancelled (UIKit's
  /// `touchesCancelled(_:with:)`): the host lost them, a gesture recognizer
  /// took them, or the view left the window. Each touch that began in a view
  /// ends there exactly once: ended or cancelled. The default passes the
  /// message to ``Responder/next``.
  open func touchesCancelled(_ touches: [Touch], with event: Event) {
    next?.touchesCancelled(touches, with: event)
  }

  // MARK: First responder and actions

  /// Whether this responder may become first responder (receive nil-targeted
  /// actions and menu commands first).
  open var canBecomeFirstResponder: Bool { false }

  /// The application this responder belongs to, found along the chain.
  open var application: Application? { next?.application }

  /// Whether this responder is its application's first responder.
  public var isFirstResponder: Bool { application?.firstResponder === self }

  /// Makes this responder the first responder, if it accepts.
  @discardableResult
  open func becomeFirstResponder() -> Bool {
    guard canBecomeFirstResponder, let application else { return false }
    return application.setFirstResponder(self)
  }

  /// Gives up being the first responder, leaving the application with none.
  /// Returns true; a responder that is not the first responder is left as it is.
  @discardableResult
  open func resignFirstResponder() -> Bool {
    guard let application, application.firstResponder === self else { return true }
    return application.setFirstResponder(nil)
  }

  /// Whether this responder handles `action`. Menus show only the items the
  /// first responder's chain can perform.
  open func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool { false }

  /// Performs `action`; called only after `canPerformAction` said yes.
  open func perform(_ action: Action, withSender sender: AnyObject?) {}

  /// The first responder along the chain, starting here, that can perform `action`.
  public func target(forAction action: Action, withSender sender: AnyObject?) -> Responder? {
    var responder: Responder? = self
    while let current = responder {
      if current.canPerformAction(action, withSender: sender) { return current }
      responder = current.next
    }
    return nil
  }
}
