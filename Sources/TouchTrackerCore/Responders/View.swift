/// A rectangle on screen that draws itself, holds subviews and receives the
/// touches that begin inside it.
open class View: Responder {
  /// The view's rectangle in its superview's coordinates.
  public var frame: Rect {
    didSet { if frame != oldValue { setNeedsDisplay() } }
  }
  public private(set) var subviews: [View] = []
  /// Superviews own their subviews; the back reference must not (Embedded
  /// Swift has no `weak`), and a subview never outlives being attached.
  public private(set) unowned(unsafe) var superview: View?
  /// Set by `ViewController` for its root view.
  unowned(unsafe) var viewController: ViewController?

  public var isHidden = false {
    didSet { if isHidden != oldValue { setNeedsDisplay() } }
  }
  /// The view's opacity, 0 to 1. As in UIKit, hit testing skips a view (and
  /// its subviews) whose alpha is below 0.01. The render list has no opacity
  /// yet: a view with alpha 0 draws nothing, any other alpha draws opaque.
  public var alpha = 1.0 {
    didSet { if alpha != oldValue { setNeedsDisplay() } }
  }
  /// A view that does not accept user interaction is skipped by hit testing.
  public var isUserInteractionEnabled = true
  /// When false (UIKit's default), the view receives only the first of
  /// several simultaneous touches; the others are ignored until it ends.
  /// As in UIKit, this gates only the view's own touch methods: gesture
  /// recognizers still receive every touch.
  public var isMultipleTouchEnabled = false
  /// When true, the view receives a touch only if no other view in the
  /// window is tracking one, and while it tracks a touch, touches that
  /// begin in other views reach none of them (UIKit's `isExclusiveTouch`;
  /// default false). Like `isMultipleTouchEnabled`, it gates views' touch
  /// methods only: recognizers still see the touches (Apple says nothing of
  /// them; the touch is hit-tested and in the event as usual).
  public var isExclusiveTouch = false
  public var backgroundColor: Color? {
    didSet { if backgroundColor != oldValue { setNeedsDisplay() } }
  }
  /// Rounds the corners of the background.
  public var cornerRadius = 0.0
  public private(set) var gestureRecognizers: [GestureRecognizer] = []

  public init(frame: Rect) {
    self.frame = frame
    super.init()
  }

  /// The view's own coordinate space: its size, at the origin.
  public var bounds: Rect { Rect(origin: .zero, size: frame.size) }

  // MARK: Hierarchy

  /// Subviews can outlive their superview (a touch keeps its view alive);
  /// they must not point at freed memory.
  deinit {
    for subview in subviews { subview.superview = nil }
  }

  public func addSubview(_ view: View) {
    view.detachFromSuperview()
    subviews.append(view)
    view.superview = self
    setNeedsDisplay()
  }

  /// Takes the view off screen. Touches it or its subviews own are cancelled
  /// first (`touchesCancelled`): a button whose menu closed under the finger
  /// cannot be pressed any more, and the view hears nothing after its
  /// superview, which may be freed, is gone.
  public func removeFromSuperview() {
    window?.application?.cancelTouches(inViewLeavingWindow: self)
    detachFromSuperview()
  }

  private func detachFromSuperview() {
    guard let superview else { return }
    superview.subviews.removeAll { $0 === self }
    superview.setNeedsDisplay()
    self.superview = nil
  }

  /// The window this view is in, if it is in one.
  open var window: Window? { superview?.window }

  /// Whether `ancestor` is this view or one of its superviews.
  public func isDescendant(of ancestor: View) -> Bool {
    var view: View? = self
    while let current = view {
      if current === ancestor { return true }
      view = current.superview
    }
    return false
  }

  /// A view controller's view passes events to the controller first.
  open override var inspectorName: String { "View" }

  open override var next: Responder? {
    if let viewController { return viewController }
    return superview
  }

  open override var application: Application? { window?.application }

  // MARK: Coordinates and hit testing

  /// The position of this view's origin in window coordinates.
  public var originInWindow: Point {
    var origin = frame.origin
    var view = superview
    while let current = view, !(current is Window) {
      origin += current.frame.origin
      view = current.superview
    }
    return origin
  }

  public func convert(fromWindow point: Point) -> Point { point - originInWindow }
  public func convert(toWindow point: Point) -> Point { point + originInWindow }

  open func point(inside point: Point) -> Bool { bounds.contains(point) }

  /// The deepest visible, interactive view containing `point` (in this view's
  /// coordinates), searching the front-most subviews first. As UIKit's, it
  /// ignores hidden views, views with user interaction disabled and views
  /// with an alpha below 0.01.
  open func hitTest(_ point: Point) -> View? {
    guard !isHidden, isUserInteractionEnabled, alpha >= 0.01, self.point(inside: point) else { return nil }
    for subview in subviews.reversed() {
      if let hit = subview.hitTest(point - subview.frame.origin) { return hit }
    }
    return self
  }

  // MARK: Gesture recognizers

  public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
    recognizer.view?.removeGestureRecognizer(recognizer)
    gestureRecognizers.append(recognizer)
    recognizer.view = self
  }

  public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
    gestureRecognizers.removeAll { $0 === recognizer }
    if recognizer.view === self { recognizer.view = nil }
  }

  /// UIKit's `UIView.gestureRecognizerShouldBegin(_:)`: asked when
  /// `recognizer` is about to leave `.possible` (recognize or begin); false
  /// makes it fail instead. The default is true; a `Control` says no to a
  /// superview's single tap so its own action wins.
  ///
  /// Named apart from UIKit's: a view that is its own recognizers' delegate
  /// (`DrawView`) implements the delegate's method of that name in an
  /// extension, which Swift cannot let override a class method. Taking
  /// UIKit's name means moving such implementations into the class body
  /// with `override` (one method serving both, as in UIKit).
  ///
  /// Apple's documentation says only "asks the view". Here every view from
  /// the view of each of the recognizer's touches up to and including the
  /// recognizer's view is asked, innermost first, and any false fails it:
  /// a control under the finger must be asked about its superview's
  /// recognizer. The views are asked once the recognizer's failure
  /// requirements are met and before its delegate's
  /// `gestureRecognizerShouldBegin(_:)`.
  open func allowsGestureRecognizerToBegin(_ recognizer: GestureRecognizer) -> Bool { true }

  // MARK: Drawing

  /// Asks for the live layer to be rendered again.
  public func setNeedsDisplay() {
    window?.needsDisplay = true
  }

  /// Draws the view's own content in its coordinates. The default draws nothing.
  open func draw(in context: inout RenderContext) {}

  /// Draws the background, the content and then the subviews, front-most last.
  func render(in context: inout RenderContext) {
    guard !isHidden, alpha > 0 else { return }
    let saved = context.origin
    context.origin = saved + frame.origin
    if let backgroundColor { context.fill(bounds, color: backgroundColor, cornerRadius: cornerRadius) }
    draw(in: &context)
    for subview in subviews { subview.render(in: &context) }
    context.origin = saved
  }
}
