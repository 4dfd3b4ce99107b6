import Testing
import TouchKitTestSupport
import TouchTrackerCore

/// `ScrollView` (issue 9): UIScrollView's core semantics. Cases marked
/// "flowkey" are ported from flowkey/UIKit-cross-platform
/// `UIKitTests/UIScrollViewTests.swift`; the rest follow Apple's
/// UIScrollView documentation, quoted where it decides.
@Suite struct ScrollViewTests {
  /// A 400x400 window with a 400x400 scroll view over `content`, 1000x1000.
  private func setUp<Content: View>(_ content: Content) -> (Application, ScrollView, Content) {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let scrollView = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    scrollView.addSubview(content)
    scrollView.contentSize = Size(width: 1000, height: 1000)
    application.window.addSubview(scrollView)
    return (application, scrollView, content)
  }

  /// `setUp(_:)` over a view that writes down its touches.
  private func setUp() -> (Application, ScrollView, RecordingView) {
    setUp(RecordingView(frame: Rect(x: 0, y: 0, width: 1000, height: 1000)))
  }

  /// `setUp()` with the content zoomable between `minimum` and `maximum`.
  private func setUpZooming(_ minimum: Double, _ maximum: Double) -> (Application, ScrollView, RecordingView, Delegate)
  {
    let (application, scrollView, content) = setUp()
    let delegate = Delegate()
    delegate.zoomed = content
    scrollView.delegate = delegate
    scrollView.minimumZoomScale = minimum
    scrollView.maximumZoomScale = maximum
    return (application, scrollView, content, delegate)
  }

  /// flowkey `testDefaultValuesOfProperties` and `testInitialProperties`
  /// (without the scroll indicators, which this scroll view does not draw).
  @Test func theContentOffsetIsTheBoundsOrigin() {
    let scrollView = ScrollView(frame: Rect(x: 0, y: 0, width: 800, height: 450))
    #expect(scrollView.contentOffset == .zero)
    #expect(scrollView.contentSize == .zero)
    #expect(scrollView.contentInset == .zero)
    #expect(scrollView.delaysContentTouches && scrollView.canCancelContentTouches)
    #expect(scrollView.pinchGestureRecognizer == nil)
    scrollView.contentOffset = Point(x: 10, y: 20)
    #expect(scrollView.bounds.origin == Point(x: 10, y: 20))
    #expect(scrollView.frame.origin == .zero)
  }

  /// flowkey `testDelegateMethods`, with real touches: a drag tells the
  /// delegate it begins, scrolls and ends; the content follows the finger
  /// and stays within the content size.
  @Test func aDragScrollsWithinTheContent() throws {
    let (application, scrollView, content) = setUp()
    let delegate = Delegate()
    scrollView.delegate = delegate
    try application.send([began(1, 300, 300)], at: 0)
    try application.send([moved(1, 250, 200)], at: 0.02)
    #expect(scrollView.isDragging)
    #expect(scrollView.contentOffset == Point(x: 50, y: 100))
    try application.send([moved(1, -500, -500)], at: 0.04)
    #expect(scrollView.contentOffset == Point(x: 600, y: 600))
    try application.send([ended(1, -500, -500)], at: 0.06)
    #expect(!scrollView.isDragging)
    #expect(delegate.calls.first == "willBeginDragging" && delegate.calls.last == "didEndDragging")
    #expect(delegate.calls.contains("didScroll"))
    // "A quick drag": the content heard nothing of it.
    #expect(content.messages.isEmpty)
    // Scrolled, the content is hit where it now is.
    #expect(content.convert(Point(x: 10, y: 10), from: nil) == Point(x: 610, y: 610))
  }

  /// UIScrollView.delaysContentTouches: "If the value of this property is
  /// true, the scroll view delays handling the touch-down gesture until it
  /// can determine if scrolling is the intent." A tap reaches the content
  /// when the finger lifts, as it happened.
  @Test func aQuickTapReachesTheContentWhenItLifts() throws {
    let (application, _, content) = setUp()
    try application.send([began(1, 100, 100)], at: 0)
    #expect(content.messages.isEmpty)
    try application.send([ended(1, 100, 100)], at: 0.05)
    #expect(content.messages == ["began 1", "ended 1"])
  }

  /// A finger resting past the delay reaches the content; when it then
  /// drags, the scroll view "cancels the touch in the subview and starts
  /// scrolling" (canCancelContentTouches).
  @Test func aRestingTouchReachesTheContentAndIsCancelledWhenItScrolls() throws {
    let (application, scrollView, content) = setUp()
    try application.send([began(1, 100, 100)], at: 0)
    application.advanceClock(to: 0.2)
    #expect(content.messages == ["began 1"])
    try application.send([moved(1, 100, 50)], at: 0.3)
    #expect(content.messages == ["began 1", "cancelled 1"])
    #expect(scrollView.contentOffset == Point(x: 0, y: 50))
  }

  /// UIScrollView.canCancelContentTouches: "If the value of this property
  /// is false, the scroll view does not scroll regardless of finger
  /// movement once the content view starts tracking."
  @Test func withoutCancellingTheContentKeepsItsTouchAndNothingScrolls() throws {
    let (application, scrollView, content) = setUp()
    scrollView.canCancelContentTouches = false
    try application.send([began(1, 100, 100)], at: 0)
    application.advanceClock(to: 0.2)
    try application.send([moved(1, 100, 50)], at: 0.3)
    try application.send([ended(1, 100, 50)], at: 0.4)
    #expect(content.messages == ["began 1", "moved 1", "ended 1"])
    #expect(scrollView.contentOffset == .zero)
  }

  /// touchesShouldCancel(in:): "The default returned value is true if view
  /// is not a UIControl object; otherwise, it returns false." A button
  /// pressed long enough keeps its touch; a quick drag from it still scrolls.
  @Test func aControlKeepsItsTouchButAQuickDragFromItScrolls() throws {
    let (application, scrollView, _) = setUp()
    let button = Button(title: "Press", frame: Rect(x: 50, y: 50, width: 100, height: 100))
    scrollView.addSubview(button)
    let recorder = ActionRecorder()
    button.addTarget(recorder, action: Action("pressed:"), for: .touchUpInside)
    try application.send([began(1, 100, 100)], at: 0)
    application.advanceClock(to: 0.2)
    try application.send([moved(1, 100, 80)], at: 0.3)
    try application.send([ended(1, 100, 80)], at: 0.4)
    #expect(scrollView.contentOffset == .zero)
    #expect(recorder.received == ["pressed: -"])

    try application.send([began(2, 100, 100)], at: 1)
    try application.send([moved(2, 100, 60)], at: 1.02)
    try application.send([ended(2, 100, 60)], at: 1.04)
    #expect(scrollView.contentOffset == Point(x: 0, y: 40))
    #expect(recorder.received.count == 1)
  }

  @Test func withoutTheDelayTheContentHearsAtOnce() throws {
    let (application, scrollView, content) = setUp()
    scrollView.delaysContentTouches = false
    try application.send([began(1, 100, 100)], at: 0)
    #expect(content.messages == ["began 1"])
    try application.send([moved(1, 100, 50)], at: 0.02)
    #expect(content.messages == ["began 1", "cancelled 1"])
  }

  /// Pinching zooms the delegate's view between the zoom scales, keeps the
  /// point under the fingers there, and sizes the content to it.
  @Test func aPinchZoomsAboutTheFingers() throws {
    let (application, scrollView, content, delegate) = setUpZooming(0.5, 3)
    #expect(scrollView.pinchGestureRecognizer != nil)
    try application.send([began(1, 150, 200), began(2, 250, 200)], at: 0)
    try application.send([moved(1, 100, 200), moved(2, 300, 200)], at: 0.02)
    #expect(scrollView.isZooming)
    #expect(abs(scrollView.zoomScale - 2) < 1e-12)
    #expect(scrollView.contentSize == Size(width: 2000, height: 2000))
    // The content's point (200, 200) was under the fingers and still is.
    let underFingers = content.convert(Point(x: 200, y: 200), from: nil)
    #expect(abs(underFingers.x - 200) < 1e-9 && abs(underFingers.y - 200) < 1e-9)
    #expect(abs(scrollView.contentOffset.x - 200) < 1e-9)
    // Far past the maximum, the scale stops at it.
    try application.send([moved(1, 0, 200), moved(2, 400, 200)], at: 0.04)
    try application.send([moved(1, -400, 200), moved(2, 800, 200)], at: 0.06)
    #expect(scrollView.zoomScale == 3)
    try application.send([ended(1, -400, 200), ended(2, 800, 200)], at: 0.08)
    #expect(!scrollView.isZooming)
    #expect(delegate.calls.contains("didZoom"))
    #expect(content.messages.isEmpty)
  }

  /// The interplay: a drawing in a scroll view. A finger that
  /// rests past the delay and then drags starts a line (the drawing's tap
  /// recognizers let it go at 10 pt, where the scroll view's drag begins)
  /// and the scroll view, starting to scroll, cancels it: nothing is
  /// drawn. A finger that drags at once scrolls, and the drawing never
  /// hears of it.
  @Test func scrollingCancelsALineInProgress() throws {
    let (application, scrollView, drawView) = setUp(DrawView(frame: Rect(x: 0, y: 0, width: 1000, height: 1000)))
    var heard: [String] = []
    application.observer = { _, record in
      if case .touchesSent(let method, let view, _) = record, view == "DrawView" { heard.append(method.name) }
    }
    try application.send([began(1, 100, 100)], at: 0)
    application.advanceClock(to: 0.2)
    try application.send([moved(1, 100, 88)], at: 0.25)
    #expect(heard == ["touchesBegan(_:with:)", "touchesCancelled(_:with:)"])
    try application.send([moved(1, 100, 60)], at: 0.3)
    try application.send([ended(1, 100, 60)], at: 0.35)
    #expect(drawView.linesInProgressCount == 0)
    #expect(drawView.drawing.lines.isEmpty)
    #expect(scrollView.contentOffset == Point(x: 0, y: 40))

    heard.removeAll()
    try application.send([began(2, 100, 300)], at: 1)
    try application.send([moved(2, 100, 250)], at: 1.02)
    try application.send([ended(2, 100, 250)], at: 1.04)
    #expect(heard.isEmpty)
    #expect(drawView.drawing.lines.isEmpty)
    #expect(scrollView.contentOffset == Point(x: 0, y: 90))
  }

  /// Content that fits has nothing to scroll: the drag is not taken and the
  /// content keeps the finger. A scroll view that scrolls only
  /// sideways leaves an up-and-down drag to its content.
  @Test func aDragIsTakenOnlyWhereTheContentCanScroll() throws {
    let (application, scrollView, content) = setUp()
    scrollView.contentSize = Size(width: 400, height: 400)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 100, 50)], at: 0.02)
    try application.send([ended(1, 100, 50)], at: 0.04)
    #expect(scrollView.contentOffset == .zero)
    #expect(content.messages == ["began 1", "moved 1", "ended 1"])

    content.messages.removeAll()
    scrollView.contentSize = Size(width: 1000, height: 400)
    try application.send([began(2, 100, 100)], at: 1)
    try application.send([moved(2, 98, 50)], at: 1.02)
    try application.send([ended(2, 98, 50)], at: 1.04)
    #expect(scrollView.contentOffset == .zero)
    #expect(content.messages == ["began 2", "moved 2", "ended 2"])
    try application.send([began(3, 300, 100)], at: 2)
    try application.send([moved(3, 250, 90)], at: 2.02)
    try application.send([ended(3, 250, 90)], at: 2.04)
    #expect(scrollView.contentOffset == Point(x: 50, y: 0))
  }

  /// UIScrollView.contentInset: the offset may go past the content's top
  /// and left by the inset, and not past the other edges.
  @Test func theInsetExtendsTheScrollableArea() throws {
    let (application, scrollView, _) = setUp()
    scrollView.contentInset = EdgeInsets(top: 50, left: 0, bottom: 20, right: 0)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 100, 300)], at: 0.02)
    #expect(scrollView.contentOffset == Point(x: 0, y: -50))
    try application.send([moved(1, -900, -900)], at: 0.04)
    #expect(scrollView.contentOffset == Point(x: 600, y: 620))
    try application.send([ended(1, -900, -900)], at: 0.06)
  }

  /// Without a view to zoom, spreading fingers are not a pinch: they scroll.
  @Test func withoutAViewToZoomTwoFingersScroll() throws {
    let (application, scrollView, _) = setUp()
    scrollView.minimumZoomScale = 0.5
    scrollView.maximumZoomScale = 2
    try application.send([began(1, 150, 200), began(2, 250, 200)], at: 0)
    try application.send([moved(1, 120, 150), moved(2, 280, 150)], at: 0.02)
    #expect(!scrollView.isZooming)
    #expect(scrollView.contentOffset == Point(x: 0, y: 50))
    try application.send([ended(1, 120, 150), ended(2, 280, 150)], at: 0.04)
  }

  /// After a pinch, the finger left drags on from where the zoom left the
  /// content, not from where the drag began. The pinch reports `.changed`
  /// for the finger left too (as UIKit's does); with fewer than two touches
  /// the scroll view does not zoom from it.
  @Test func aDragGoesOnFromWhereThePinchLeftIt() throws {
    let (application, scrollView, _, delegate) = setUpZooming(1, 4)
    try application.send([began(1, 150, 200), began(2, 250, 200)], at: 0)
    try application.send([moved(1, 100, 200), moved(2, 300, 200)], at: 0.02)
    let zoomed = scrollView.contentOffset
    try application.send([ended(2, 300, 200)], at: 0.04)
    let afterZoom = scrollView.contentOffset
    #expect(afterZoom == zoomed)
    try application.send([moved(1, 100, 150)], at: 0.06)
    #expect(!scrollView.isZooming, "one finger does not zoom")
    #expect(scrollView.contentOffset.x == afterZoom.x)
    #expect(abs(scrollView.contentOffset.y - (afterZoom.y + 50)) < 1e-9)
    try application.send([ended(1, 100, 150)], at: 0.08)
    #expect(delegate.calls.contains("didZoom"))
  }

}

private final class Delegate: ScrollViewDelegate {
  var calls: [String] = []
  var zoomed: View?
  func scrollViewDidScroll(_ scrollView: ScrollView) { calls.append("didScroll") }
  func scrollViewWillBeginDragging(_ scrollView: ScrollView) { calls.append("willBeginDragging") }
  func scrollViewDidEndDragging(_ scrollView: ScrollView) { calls.append("didEndDragging") }
  func viewForZooming(in scrollView: ScrollView) -> View? { zoomed }
  func scrollViewDidZoom(_ scrollView: ScrollView) { calls.append("didZoom") }
}
