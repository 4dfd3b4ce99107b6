/// A rectangle on screen that draws itself, holds subviews and receives the
/// touches that begin inside it.
open class View: Responder {
  /// Where the view's bounds go in its superview before `transform`: the
  /// frame's origin when the transform is the identity. Stored instead of
  /// UIKit's `center` so that setting a frame and reading it back is exact
  /// (a center is half a size away, which rounds).
  @exclusivity(unchecked) private var untransformedOrigin: Point
  /// The view's own coordinate space (UIKit's `bounds`): its size, and the
  /// point of its content shown at its top-left corner. Moving the origin
  /// scrolls the content and the subviews (a `ScrollView`'s
  /// `contentOffset` is its bounds origin). As in UIKit, changing the size
  /// keeps the center where it is.
  @exclusivity(unchecked) public var bounds: Rect {
    didSet {
      guard bounds != oldValue else { return }
      if bounds.size != oldValue.size {
        untransformedOrigin.x -= (bounds.size.width - oldValue.size.width) / 2
        untransformedOrigin.y -= (bounds.size.height - oldValue.size.height) / 2
      }
      setNeedsDisplay()
    }
  }
  /// Scales, rotates or moves the view about its center, as UIKit's
  /// `transform`: hit testing, `convert`, touch locations and rendering
  /// follow it. Rendering has no rotated rectangles: a rotated view's
  /// background fills the box around it (lines and circles rotate exactly,
  /// and line widths and text scale by `lengthScale`).
  @exclusivity(unchecked) public var transform = AffineTransform.identity {
    didSet { if transform != oldValue { setNeedsDisplay() } }
  }

  /// The view's rectangle in its superview's coordinates: the box around
  /// its bounds after `transform`.
  ///
  /// Apple calls the frame undefined under a transform other than the
  /// identity; here, as Core Animation's `CALayer` does it, setting one
  /// sets the center to its center and the bounds' size to what the
  /// transform turns into that box (a frame of 100 under a scale of 2 is
  /// bounds of 50). When no size does (near a turn of 45 degrees every
  /// box is a square, and boxes wider than some limit have no rectangle
  /// under other turns), only the center is set.
  open var frame: Rect {
    get {
      let untransformed = Rect(origin: untransformedOrigin, size: bounds.size)
      if transform.isIdentity { return untransformed }
      return aboutCenter(transform).apply(to: untransformed)
    }
    set {
      guard newValue != frame else { return }
      if transform.isIdentity {
        if bounds.size != newValue.size { bounds.size = newValue.size }
        untransformedOrigin = newValue.origin
      } else {
        let a = abs(transform.a)
        let b = abs(transform.b)
        let c = abs(transform.c)
        let d = abs(transform.d)
        let determinant = a * d - b * c
        let width = newValue.width
        let height = newValue.height
        let size = Size(width: (d * width - c * height) / determinant, height: (a * height - b * width) / determinant)
        // Near 45 degrees the system is (nearly) singular and its answer
        // huge or negative: no size has that box, so only the center moves.
        if abs(determinant) > 1e-9 * (a * d + b * c), size.width >= 0, size.height >= 0, size.width.isFinite,
          size.height.isFinite
        {
          bounds.size = size
        }
        center = newValue.center
      }
      setNeedsDisplay()
    }
  }

  /// `transform` applied about the view's center, in its superview's coordinates.
  private func aboutCenter(_ transform: AffineTransform) -> AffineTransform {
    let center = self.center
    return AffineTransform(translationX: -center.x, y: -center.y)
      .concatenating(transform).concatenating(AffineTransform(translationX: center.x, y: center.y))
  }

  /// The view's center in its superview's coordinates; `transform` turns and
  /// scales the view about it.
  public var center: Point {
    get { Point(x: untransformedOrigin.x + bounds.width / 2, y: untransformedOrigin.y + bounds.height / 2) }
    set {
      let moved = Point(x: newValue.x - bounds.width / 2, y: newValue.y - bounds.height / 2)
      guard moved != untransformedOrigin else { return }
      untransformedOrigin = moved
      setNeedsDisplay()
    }
  }
  /// The view's subviews, back to front: the last is drawn last and hit-tested first.
  public private(set) var subviews: [View] = []
  /// Superviews own their subviews; the back reference must not (Embedded
  /// Swift has no `weak`), and a subview never outlives being attached.
  public var superview: View? { superviewReference?.takeUnretainedValue() }
  /// `superview`, unretained, walked up without retaining each view
  /// (`translationToWindow`, `setNeedsDisplay`: on every touch update).
  @exclusivity(unchecked) private var superviewReference: Unmanaged<View>?
  /// Set by `ViewController` for its root view.
  unowned(unsafe) var viewController: ViewController?

  /// Whether the view, with its subviews, is off screen: neither drawn nor
  /// hit-tested. False by default.
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
  /// The color that fills the view's bounds (its corners rounded by
  /// ``View/cornerRadius``) before ``View/draw(in:)``; nil, the default, fills nothing.
  public var backgroundColor: Color? {
    didSet { if backgroundColor != oldValue { setNeedsDisplay() } }
  }
  /// Rounds the corners of the background.
  public var cornerRadius = 0.0
  /// The recognizers attached to this view, in the order they were added.
  /// They, and the recognizers of the view's superviews, see a touch that
  /// begins in this view before the view does.
  public private(set) var gestureRecognizers: [GestureRecognizer] = []

  /// A view whose ``View/frame`` is `frame` in its superview's coordinates: its
  /// bounds are of the frame's size, at the origin, with no transform.
  public init(frame: Rect) {
    untransformedOrigin = frame.origin
    bounds = Rect(origin: .zero, size: frame.size)
    super.init()
  }

  // MARK: Hierarchy

  /// Subviews can outlive their superview (a touch keeps its view alive);
  /// they must not point at freed memory.
  deinit {
    for subview in subviews { subview.superviewReference = nil }
  }

  /// Adds `view` in front of the other subviews, taking it from its old
  /// superview first (without cancelling its touches).
  public func addSubview(_ view: View) {
    view.detachFromSuperview()
    subviews.append(view)
    view.superviewReference = Unmanaged.passUnretained(self)
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
    self.superviewReference = nil
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

  /// Where this view's point `(0, 0)` is in window coordinates.
  public var originInWindow: Point { convert(toWindow: .zero) }

  /// `point`, in this view's coordinates, in its superview's.
  public final func convertToSuperview(_ point: Point) -> Point {
    // Without a transform, the bounds' origin is at the frame's origin;
    // written out so that a view that only moves converts exactly.
    if transform.isIdentity {
      return Point(
        x: point.x - bounds.origin.x + untransformedOrigin.x, y: point.y - bounds.origin.y + untransformedOrigin.y)
    }
    let offset = transform.apply(to: point - bounds.center)
    return center + offset
  }

  /// `point`, in the superview's coordinates, in this view's. A transform
  /// that flattens the view (a zero scale) has no inverse: every point is
  /// then outside it (infinitely far).
  public final func convertFromSuperview(_ point: Point) -> Point {
    if transform.isIdentity {
      return Point(
        x: point.x - untransformedOrigin.x + bounds.origin.x, y: point.y - untransformedOrigin.y + bounds.origin.y)
    }
    guard let inverse = transform.inverted() else { return Point(x: Double.infinity, y: Double.infinity) }
    return bounds.center + inverse.apply(to: point - center)
  }

  /// What to add to a point of this view to have it in the window, when
  /// no view up to the window has a transform; nil when one does. Summed
  /// from this view upward and applied once, as before views had
  /// transforms, so that conversions through views that only move give
  /// the same floating-point results as they always did (replays compare
  /// them byte for byte).
  private var translationToWindow: Point? {
    var offset = Point.zero
    // Up the chain without retaining each view (the superviews outlive
    // this one): this runs for every touch a view reads the location of.
    var transformed = false
    var current = Unmanaged.passUnretained(self)
    while true {
      let next: Unmanaged<View>? = current._withUnsafeGuaranteedRef { view in
        guard !(view is Window) else { return nil }
        guard view.transform.isIdentity else {
          transformed = true
          return nil
        }
        offset += view.untransformedOrigin - view.bounds.origin
        return view.superviewReference
      }
      guard let next else { break }
      current = next
    }
    return transformed ? nil : offset
  }

  /// `point`, in window coordinates, in this view's. The window's own
  /// geometry is the screen's and is not applied; a view outside any window
  /// converts as if its top-most superview were in one.
  public func convert(fromWindow point: Point) -> Point {
    if let offset = translationToWindow { return point - offset }
    guard let superview, !(superview is Window) else { return convertFromSuperview(point) }
    return convertFromSuperview(superview.convert(fromWindow: point))
  }

  /// `point`, in this view's coordinates, in the window's.
  public func convert(toWindow point: Point) -> Point {
    if let offset = translationToWindow { return point + offset }
    let inSuperview = convertToSuperview(point)
    guard let superview, !(superview is Window) else { return inSuperview }
    return superview.convert(toWindow: inSuperview)
  }

  /// A movement in window coordinates, in this view's units: the scales
  /// and rotations up the chain apply, the positions do not. Unchanged when
  /// nothing up the chain transforms.
  public final func convertVector(fromWindow vector: Point) -> Point {
    if translationToWindow != nil { return vector }
    return convert(fromWindow: vector) - convert(fromWindow: .zero)
  }

  /// A movement in this view's units, in window coordinates.
  public final func convertVector(toWindow vector: Point) -> Point {
    if translationToWindow != nil { return vector }
    return convert(toWindow: vector) - convert(toWindow: .zero)
  }

  /// UIKit's `convert(_:to:)`: `point` in this view's coordinates, in
  /// `view`'s (nil: the window's).
  public final func convert(_ point: Point, to view: View?) -> Point {
    let inWindow = convert(toWindow: point)
    return view?.convert(fromWindow: inWindow) ?? inWindow
  }

  /// UIKit's `convert(_:from:)`: `point` in `view`'s coordinates (nil: the
  /// window's), in this view's.
  public final func convert(_ point: Point, from view: View?) -> Point {
    convert(fromWindow: view?.convert(toWindow: point) ?? point)
  }

  /// UIKit's `convert(_:to:)` for rectangles: the box around `rect`'s
  /// corners once converted (the rectangle itself when nothing rotates).
  public final func convert(_ rect: Rect, to view: View?) -> Rect {
    let a = convert(rect.origin, to: view)
    let b = convert(Point(x: rect.maxX, y: rect.minY), to: view)
    let c = convert(Point(x: rect.minX, y: rect.maxY), to: view)
    let d = convert(Point(x: rect.maxX, y: rect.maxY), to: view)
    let minX = min(min(a.x, b.x), min(c.x, d.x))
    let minY = min(min(a.y, b.y), min(c.y, d.y))
    return Rect(
      x: minX, y: minY, width: max(max(a.x, b.x), max(c.x, d.x)) - minX,
      height: max(max(a.y, b.y), max(c.y, d.y)) - minY)
  }

  /// Whether `point`, in this view's coordinates, is inside the view: by
  /// default whether ``View/bounds`` contains it (right and bottom edges outside).
  /// Override it to change where ``View/hitTest(_:)`` finds the view.
  open func point(inside point: Point) -> Bool { bounds.contains(point) }

  /// The deepest visible, interactive view containing `point` (in this view's
  /// coordinates), searching the front-most subviews first. As UIKit's, it
  /// ignores hidden views, views with user interaction disabled and views
  /// with an alpha below 0.01.
  open func hitTest(_ point: Point) -> View? {
    guard !isHidden, isUserInteractionEnabled, alpha >= 0.01, self.point(inside: point) else { return nil }
    for subview in subviews.reversed() {
      if let hit = subview.hitTest(subview.convertFromSuperview(point)) { return hit }
    }
    return self
  }

  // MARK: Gesture recognizers

  /// Attaches `recognizer` to this view, taking it from the view it was
  /// attached to, if any.
  public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
    recognizer.view?.removeGestureRecognizer(recognizer)
    gestureRecognizers.append(recognizer)
    recognizer.view = self
  }

  /// Detaches `recognizer` from this view; its `view` becomes nil. A
  /// recognizer of another view is left alone.
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
    // Up to the root without retaining each view on the way (`window`'s
    // walk did, on every touch update).
    var root = Unmanaged.passUnretained(self)
    while let superview = root._withUnsafeGuaranteedRef({ $0.superviewReference }) { root = superview }
    root._withUnsafeGuaranteedRef { ($0 as? Window)?.needsDisplay = true }
  }

  /// Draws the view's own content in its coordinates. The default draws nothing.
  open func draw(in context: inout RenderContext) {}

  /// Draws the background, the content and then the subviews, front-most last.
  func render(in context: inout RenderContext) {
    guard !isHidden, alpha > 0 else { return }
    let saved = context.transform
    context.transform = toSuperviewTransform.concatenating(saved)
    if let backgroundColor { context.fill(bounds, color: backgroundColor, cornerRadius: cornerRadius) }
    draw(in: &context)
    for subview in subviews { subview.render(in: &context) }
    context.transform = saved
  }

  /// `convert(toWindow:)` as one transform: what a host applies to draw
  /// this view's content in window coordinates itself (the draw view's
  /// static layer under the page's pan and zoom).
  public final var transformToWindow: AffineTransform {
    var result = AffineTransform.identity
    var view: View? = self
    while let current = view, !(current is Window) {
      result = result.concatenating(current.toSuperviewTransform)
      view = current.superview
    }
    return result
  }

  /// `convertToSuperview` as a transform.
  private var toSuperviewTransform: AffineTransform {
    if transform.isIdentity {
      return AffineTransform(
        translationX: untransformedOrigin.x - bounds.origin.x, y: untransformedOrigin.y - bounds.origin.y)
    }
    let boundsCenter = bounds.center
    let viewCenter = center
    return AffineTransform(translationX: -boundsCenter.x, y: -boundsCenter.y)
      .concatenating(transform).concatenating(AffineTransform(translationX: viewCenter.x, y: viewCenter.y))
  }
}
