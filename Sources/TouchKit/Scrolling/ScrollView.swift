/// What a scroll view tells its delegate, as UIKit's `UIScrollViewDelegate`.
/// Every method has a default that does nothing (`viewForZooming`: nil, no zooming).
public protocol ScrollViewDelegate: AnyObject {
  /// The content offset changed: by dragging, by zooming or through
  /// `contentOffset`.
  func scrollViewDidScroll(_ scrollView: ScrollView)
  /// A drag is about to move the content (the pan recognizer began).
  func scrollViewWillBeginDragging(_ scrollView: ScrollView)
  /// The drag ended or was cancelled. Without deceleration the content
  /// stays where it is (UIKit's `scrollViewDidEndDragging(_:willDecelerate:)`
  /// with `willDecelerate` false).
  func scrollViewDidEndDragging(_ scrollView: ScrollView)
  /// The subview that pinching scales; nil (the default) turns zooming off.
  func viewForZooming(in scrollView: ScrollView) -> View?
  /// The zoom scale was set: by a pinch or through `zoomScale`.
  func scrollViewDidZoom(_ scrollView: ScrollView)
}

extension ScrollViewDelegate {
  public func scrollViewDidScroll(_ scrollView: ScrollView) {}
  public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
  public func scrollViewDidEndDragging(_ scrollView: ScrollView) {}
  public func viewForZooming(in scrollView: ScrollView) -> View? { nil }
  public func scrollViewDidZoom(_ scrollView: ScrollView) {}
}

/// UIKit's `UIScrollView`, its core semantics: a window onto content larger
/// than itself. `contentOffset` is the bounds' origin, so the subviews (the
/// content) move under it; fingers dragging scroll it (its
/// `panGestureRecognizer`), two fingers pinching zoom the delegate's
/// `viewForZooming(in:)` between `minimumZoomScale` and `maximumZoomScale`
/// (its `pinchGestureRecognizer`).
///
/// Touches in the content: with `delaysContentTouches` (the default) the
/// content hears of a touch only 0.15 s after it came down (or when it lifts
/// sooner), so a drag that starts at once scrolls and the content never
/// sees it. A touch the content already has is cancelled when it starts
/// scrolling, if `canCancelContentTouches` (the default) and
/// `touchesShouldCancel(in:)` agree; otherwise that touch does not scroll.
///
/// A drag begins only along a direction the content can scroll in (the
/// larger of its horizontal and vertical movement), so a drawing in a
/// scroll view whose content fits keeps its drags, and a pinch begins only
/// when the delegate gives a view to zoom.
///
/// Not provided: deceleration and bouncing (the offset follows the fingers,
/// stays within the content and stops when they lift), scroll indicators,
/// paging, `touchesShouldBegin(_:with:in:)`, and clipping (UIKit's scroll
/// views clip to their bounds; the render list here does not clip views).
/// Setting `bounds.origin` directly scrolls without telling the delegate;
/// `contentOffset` tells it.
open class ScrollView: View, GestureRecognizerDelegate {
  /// Not retained, as in UIKit; but not weak either (Embedded Swift has
  /// no `weak`): a delegate must outlive the scroll view or be set to nil first.
  public unowned(unsafe) var delegate: (any ScrollViewDelegate)?
  /// The size of the scrollable content, in this view's coordinates.
  public var contentSize = Size.zero
  /// Room around the content the offset may scroll into, as UIKit's.
  public var contentInset = EdgeInsets.zero
  /// Whether dragging scrolls; true by default. It enables and disables
  /// ``panGestureRecognizer``.
  public var isScrollEnabled = true {
    didSet { panGestureRecognizer.isEnabled = isScrollEnabled }
  }
  /// The smallest ``zoomScale``; 1 by default. Pinching zooms only while
  /// it is below ``maximumZoomScale``.
  public var minimumZoomScale = 1.0 {
    didSet { updatePinch() }
  }
  /// The largest ``zoomScale``; 1 by default.
  public var maximumZoomScale = 1.0 {
    didSet { updatePinch() }
  }
  /// Whether the content hears of a touch only
  /// ``contentTouchDelayDuration`` after it came down (or when it lifts
  /// sooner), so that a drag starting at once scrolls; true by default.
  public var delaysContentTouches = true {
    didSet { contentTouchDelay.isEnabled = delaysContentTouches }
  }
  /// Whether starting to scroll cancels a touch the content already has
  /// (when ``touchesShouldCancel(in:)`` agrees); true by default. When it
  /// is false, such a touch does not scroll.
  public var canCancelContentTouches = true
  /// Whether the user is dragging the content (the pan has begun).
  public private(set) var isDragging = false
  /// Whether a pinch is zooming the content.
  public private(set) var isZooming = false

  /// Drags scroll; UIKit's is the scroll view's own, and so is its delegate.
  public let panGestureRecognizer = PanGestureRecognizer()
  private let pinch = PinchGestureRecognizer()
  private let contentTouchDelay = ContentTouchDelay()

  private var offsetAtDragStart = Point.zero
  private var zoomAtPinchStart = 1.0
  /// The pan's translation as of its last move while a pinch zoomed: a drag
  /// that goes on once one of the pinch's fingers lifted counts from there.
  private var translationAtZoom = Point.zero
  /// The point of the zoomed view under the pinch's fingers when it began.
  private var pinchAnchor = Point.zero

  /// How long a touch is kept from the content (UIKit's documented 150 ms).
  public static let contentTouchDelayDuration = 0.15

  private static let panAction = Action("scrollViewPan:")
  private static let pinchAction = Action("scrollViewPinch:")

  public override init(frame: Rect) {
    super.init(frame: frame)
    isMultipleTouchEnabled = true
    panGestureRecognizer.name = "scroll view pan"
    pinch.name = "scroll view pinch"
    contentTouchDelay.name = "scroll view content delay"
    for recognizer in [panGestureRecognizer, pinch, contentTouchDelay] as [GestureRecognizer] {
      recognizer.delegate = self
      addGestureRecognizer(recognizer)
    }
    panGestureRecognizer.addTarget(self, action: Self.panAction)
    pinch.addTarget(self, action: Self.pinchAction)
    updatePinch()
  }

  open override var inspectorName: String { "ScrollView" }

  /// The pinch that zooms, or nil while zooming is off (the zoom scales are
  /// equal), as in UIKit.
  public var pinchGestureRecognizer: PinchGestureRecognizer? { pinch.isEnabled ? pinch : nil }

  private func updatePinch() {
    pinch.isEnabled = minimumZoomScale < maximumZoomScale
  }

  // MARK: Offset

  /// The point of the content at this view's top-left corner: the bounds'
  /// origin. Set, it is not clamped (as in UIKit); scrolling by the fingers
  /// keeps it within `minimumContentOffset`...`maximumContentOffset`.
  public var contentOffset: Point {
    get { bounds.origin }
    set {
      guard newValue != bounds.origin else { return }
      bounds.origin = newValue
      delegate?.scrollViewDidScroll(self)
    }
  }

  /// The smallest offset: the content's top-left, less the inset.
  public final var minimumContentOffset: Point { Point(x: -contentInset.left, y: -contentInset.top) }

  /// The largest offset: the content's bottom-right at this view's
  /// bottom-right, plus the inset; never below the smallest.
  public final var maximumContentOffset: Point {
    let least = minimumContentOffset
    return Point(
      x: max(least.x, contentSize.width + contentInset.right - bounds.width),
      y: max(least.y, contentSize.height + contentInset.bottom - bounds.height))
  }

  /// `offset` brought within the content.
  public final func clampedContentOffset(_ offset: Point) -> Point {
    let least = minimumContentOffset
    let most = maximumContentOffset
    return Point(x: min(max(offset.x, least.x), most.x), y: min(max(offset.y, least.y), most.y))
  }

  /// UIKit's `scrollRectToVisible(_:animated:)` without the animation:
  /// scrolls as little as it takes to show `rect` (its top-left first when
  /// it is larger than the view).
  public final func scrollRectToVisible(_ rect: Rect) {
    var offset = contentOffset
    if rect.minX < offset.x {
      offset.x = rect.minX
    } else if rect.maxX > offset.x + bounds.width {
      offset.x = rect.maxX - bounds.width
    }
    if rect.minY < offset.y {
      offset.y = rect.minY
    } else if rect.maxY > offset.y + bounds.height {
      offset.y = rect.maxY - bounds.height
    }
    contentOffset = clampedContentOffset(offset)
  }

  // MARK: Zoom

  /// The zoomed view's scale (1 without one). Set, it is clamped to the
  /// zoom scales and scales about the content's top-left, as UIKit's. The
  /// zoomed view's transform becomes that scale (any other transform it had
  /// is replaced). As in UIKit, nothing sets it to `minimumZoomScale` when
  /// that is above 1: the app does, once the zoomed view is in place.
  public var zoomScale: Double {
    get {
      guard let transform = delegate?.viewForZooming(in: self)?.transform else { return 1 }
      return (transform.a * transform.a + transform.b * transform.b).squareRoot()
    }
    set { setZoomScale(newValue, keeping: nil) }
  }

  /// Scales the zoomed view to `scale` (clamped) so that its top-left stays
  /// at the content's origin and the content size follows; when `anchor`
  /// (a point of the zoomed view, and where it is on screen, in this view's
  /// coordinates less the offset) is given, scrolls so it stays there.
  private func setZoomScale(_ scale: Double, keeping anchor: (content: Point, visible: Point)?) {
    guard let zoomed = delegate?.viewForZooming(in: self) else { return }
    let clamped = min(max(scale, minimumZoomScale), maximumZoomScale)
    let size = zoomed.bounds.size
    zoomed.transform = AffineTransform(scaleX: clamped, y: clamped)
    zoomed.center = Point(x: size.width * clamped / 2, y: size.height * clamped / 2)
    contentSize = Size(width: size.width * clamped, height: size.height * clamped)
    if let anchor {
      let target = zoomed.convert(anchor.content, to: self) - contentOffset
      contentOffset = clampedContentOffset(contentOffset + target - anchor.visible)
    } else {
      contentOffset = clampedContentOffset(contentOffset)
    }
    delegate?.scrollViewDidZoom(self)
  }

  // MARK: Touches in the content

  /// Asked when a touch the content already has would start scrolling:
  /// true cancels it in `view` and scrolls, false keeps it there and does
  /// not scroll. The default, as in UIKit: a control keeps its touch, any
  /// other view gives it up.
  open func touchesShouldCancel(in view: View) -> Bool { !(view is Control) }

  /// Whether a drag or pinch may begin: each of its touches the content has
  /// heard of must be one the content gives up.
  private func mayTakeContentTouches(of recognizer: GestureRecognizer) -> Bool {
    let contentHasThem = !contentTouchDelay.isEnabled || contentTouchDelay.state == .failed
    guard contentHasThem else { return true }
    for touch in recognizer.touches {
      guard let view = touch.view, view !== self else { continue }
      if !canCancelContentTouches || !touchesShouldCancel(in: view) { return false }
    }
    return true
  }

  // MARK: GestureRecognizerDelegate (its own recognizers only)

  public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
    if recognizer === contentTouchDelay { return true }
    if recognizer === panGestureRecognizer, !canScroll(along: panGestureRecognizer.translation(in: nil)) {
      return false
    }
    if recognizer === pinch, delegate?.viewForZooming(in: self) == nil { return false }
    return mayTakeContentTouches(of: recognizer)
  }

  /// Whether the content can scroll along `movement`'s larger direction.
  private func canScroll(along movement: Point) -> Bool {
    let least = minimumContentOffset
    let most = maximumContentOffset
    let horizontally = most.x > least.x
    let vertically = most.y > least.y
    if horizontally && vertically { return true }
    let mostlyHorizontal = abs(movement.x) >= abs(movement.y)
    return horizontally ? mostlyHorizontal : vertically && !mostlyHorizontal
  }

  /// Dragging and pinching go together (a pinch also scrolls), and the
  /// delay recognizes alongside whichever starts.
  public func gestureRecognizer(
    _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
  )
    -> Bool
  { other.view === self }

  // MARK: Actions

  open override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool {
    action == Self.panAction || action == Self.pinchAction || super.canPerformAction(action, withSender: sender)
  }

  open override func perform(_ action: Action, withSender sender: AnyObject?) {
    if action == Self.panAction {
      pan()
    } else if action == Self.pinchAction {
      zoom()
    } else {
      super.perform(action, withSender: sender)
    }
  }

  private func pan() {
    switch panGestureRecognizer.state {
    case .began:
      contentTouchDelay.contentWillScroll()
      offsetAtDragStart = contentOffset
      translationAtZoom = .zero
      isDragging = true
      delegate?.scrollViewWillBeginDragging(self)
      follow()
    case .changed:
      follow()
    case .ended, .cancelled:
      isDragging = false
      delegate?.scrollViewDidEndDragging(self)
    default:
      break
    }
  }

  /// Moves the content with the fingers; while a pinch zooms, it zooms
  /// instead. A pinch with one finger lifted zooms no more (it ends only
  /// when both have lifted): the finger left drags on from where the zoom
  /// left the content.
  private func follow() {
    let translation = panGestureRecognizer.translation(in: self)
    if isZooming && pinch.numberOfTouches < 2 {
      isZooming = false
      offsetAtDragStart = contentOffset + translationAtZoom
    }
    guard !isZooming else {
      translationAtZoom = translation
      return
    }
    contentOffset = clampedContentOffset(offsetAtDragStart - translation)
  }

  private func zoom() {
    let visible = pinch.location(in: self) - contentOffset
    switch pinch.state {
    case .began:
      contentTouchDelay.contentWillScroll()
      isZooming = true
      zoomAtPinchStart = zoomScale
      pinchAnchor = delegate?.viewForZooming(in: self)?.convert(pinch.location(in: nil), from: nil) ?? .zero
      setZoomScale(zoomAtPinchStart * pinch.scale, keeping: (pinchAnchor, visible))
    case .changed:
      // With one finger left the pinch still reports changes; the finger drags instead.
      guard pinch.numberOfTouches >= 2 else { break }
      setZoomScale(zoomAtPinchStart * pinch.scale, keeping: (pinchAnchor, visible))
    case .ended, .cancelled:
      if isZooming { zoomStopped() }
    default:
      break
    }
  }

  /// The zoom is over: a drag that goes on picks up from here.
  private func zoomStopped() {
    isZooming = false
    offsetAtDragStart = contentOffset
    translationAtZoom = .zero
    panGestureRecognizer.setTranslation(.zero, in: self)
  }
}

/// Keeps touches from a scroll view's content for
/// `ScrollView.contentTouchDelayDuration` (UIKit does this with a private
/// recognizer too): it holds began touches back, fails when the time is up
/// or a finger lifts (so the content gets them as they happened), and
/// recognizes when the scroll view starts scrolling (so the content never
/// hears of them).
final class ContentTouchDelay: GestureRecognizer {
  private var timer: TimerToken?

  override init() {
    super.init()
    delaysTouchesBegan = true
    delaysTouchesEnded = false
    cancelsTouchesInView = false
  }

  override func touchesBegan(_ touches: [Touch], with event: Event) {
    guard state == .possible, timer == nil, let clock else { return }
    timer = clock.schedule(after: ScrollView.contentTouchDelayDuration) { [unowned(unsafe) self] in
      self.timer = nil
      if self.state == .possible { self.set(.failed, because: .tooSlow) }
    }
  }

  override func touchesEnded(_ touches: [Touch], with event: Event) {
    if state == .possible { set(.failed, because: .liftedTooSoon) }
  }

  /// The scroll view begins to scroll: what is held back is dropped.
  func contentWillScroll() {
    if state == .possible { set(.ended, because: .matched) }
  }

  /// Another recognizer recognizing does not release the touches: only the
  /// time, a lift or scrolling decide.
  override func canBePrevented(by preventing: GestureRecognizer) -> Bool { false }

  /// It never makes another recognizer fail.
  override func canPrevent(_ prevented: GestureRecognizer) -> Bool { false }

  override func reset() {
    clock?.cancel(timer)
    timer = nil
  }
}
