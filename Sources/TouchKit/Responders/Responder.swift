/// Something that can handle touch events and actions, and that knows the
/// next responder to pass them on to.
///
/// Every default implementation forwards to `next`, so an event a view does
/// not handle travels view -> view controller -> superview -> ... -> window
/// -> application, and is discarded after that.
open class Responder {
  public init() {}

  /// The next responder in the chain; nil ends the chain.
  open var next: Responder? { nil }

  /// The name the inspector and the event-order log show for this responder.
  open var inspectorName: String { "Responder" }

  open func touchesBegan(_ touches: [Touch], with event: Event) {
    next?.touchesBegan(touches, with: event)
  }

  open func touchesMoved(_ touches: [Touch], with event: Event) {
    next?.touchesMoved(touches, with: event)
  }

  open func touchesEnded(_ touches: [Touch], with event: Event) {
    next?.touchesEnded(touches, with: event)
  }

  open func touchesCancelled(_ touches: [Touch], with event: Event) {
    next?.touchesCancelled(touches, with: event)
  }

  // MARK: First responder and actions

  /// Whether this responder may become first responder (receive nil-targeted
  /// actions and menu commands first).
  open var canBecomeFirstResponder: Bool { false }

  /// The application this responder belongs to, found along the chain.
  open var application: Application? { next?.application }

  public var isFirstResponder: Bool { application?.firstResponder === self }

  /// Makes this responder the first responder, if it accepts.
  @discardableResult
  open func becomeFirstResponder() -> Bool {
    guard canBecomeFirstResponder, let application else { return false }
    return application.setFirstResponder(self)
  }

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
