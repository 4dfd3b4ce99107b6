import Testing
import TouchKit
import TouchKitTestSupport

/// `bounds` with an origin and `transform`: conversion, hit testing, touch
/// locations and rendering follow them (issue 9). Cases marked "flowkey"
/// are ported from flowkey/UIKit-cross-platform
/// `UIKitTests/UIView/UIViewTests+convert.swift` and `UIViewTests+hitTest.swift`,
/// with their numbers.
@Suite struct ViewGeometryTests {
  /// flowkey `testPointConversion`.
  @Test func pointsConvertBetweenSiblingsAndNestedViews() {
    let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    let first = View(frame: Rect(x: 20, y: 10, width: 10, height: 10))
    let second = View(frame: Rect(x: 80, y: 80, width: 20, height: 20))
    root.addSubview(first)
    root.addSubview(second)
    #expect(root.convert(first.bounds.origin, from: first) == first.frame.origin)
    #expect(first.convert(first.bounds.origin, to: root) == first.frame.origin)
    #expect(root.convert(Point(x: 15, y: 15), to: first) == Point(x: -5, y: 5))
    #expect(first.convert(Point(x: 5, y: 5), to: root) == Point(x: 25, y: 15))
    #expect(first.convert(Point(x: 60, y: 70), to: second) == .zero)
    #expect(second.convert(Point(x: -5, y: -5), to: first) == Point(x: 55, y: 65))
    let nested = View(frame: Rect(x: 5, y: 5, width: 5, height: 5))
    second.addSubview(nested)
    #expect(nested.convert(Point(x: 1, y: 1), to: first) == Point(x: 66, y: 76))
  }

  /// flowkey `testAbsoluteOriginWithMultipleNonZeroBounds`: a superview's
  /// bounds origin moves its subviews; a view's own does not move it.
  @Test func aBoundsOriginMovesTheSubviewsNotTheView() {
    let window = Application(windowSize: Size(width: 200, height: 200)).window
    let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    root.bounds.origin = Point(x: 10, y: 10)
    window.addSubview(root)
    let child = View(frame: Rect(x: 20, y: 20, width: 10, height: 10))
    child.bounds.origin = Point(x: 5, y: 5)
    root.addSubview(child)
    let grandchild = View(frame: Rect(x: 5, y: 5, width: 5, height: 5))
    grandchild.bounds.origin = Point(x: 999, y: 999)
    child.addSubview(grandchild)
    #expect(root.frame.origin == .zero)
    #expect(grandchild.convert(grandchild.bounds.origin, to: nil) == Point(x: 10, y: 10))
    #expect(grandchild.convert(Point(x: 10, y: 10), from: nil) == grandchild.bounds.origin)
  }

  /// flowkey `testAbsoluteOriginWithTransforms`: a frame set under a scale
  /// sizes the bounds as Core Animation does (UIKit calls it undefined).
  @Test func aFrameSetUnderAScaleSizesTheBoundsSoTheBoxIsThatFrame() {
    let root = View(frame: Rect(x: 0, y: 0, width: 512, height: 512))
    let view = View(frame: .zero)
    view.transform = AffineTransform(scaleX: 0.5, y: 0.5)
    view.frame = Rect(x: 128, y: 128, width: 256, height: 256)
    view.bounds.origin = Point(x: 32, y: 32)
    root.addSubview(view)
    #expect(view.bounds.size == Size(width: 512, height: 512))
    #expect(view.frame == Rect(x: 128, y: 128, width: 256, height: 256))
    let inner = View(frame: .zero)
    inner.transform = AffineTransform(scaleX: 2, y: 2)
    inner.frame = Rect(x: 128, y: 128, width: 128, height: 128)
    view.addSubview(inner)
    #expect(view.convert(inner.frame.origin, to: root) == Point(x: 176, y: 176))
  }

  /// flowkey `testConvertToSubviewWithSubviewTransform` and its opposite.
  @Test func pointsConvertThroughAScale() {
    let view = View(frame: Rect(x: 0, y: 0, width: 80, height: 40))
    let subview = View(frame: .zero)
    subview.transform = AffineTransform(scaleX: 2, y: 2)
    subview.frame = Rect(x: 10, y: 10, width: 60, height: 40)
    view.addSubview(subview)
    #expect(view.convert(Point(x: 60, y: 20), to: subview) == Point(x: 25, y: 5))
    #expect(subview.convert(Point(x: 25, y: 5), to: view) == Point(x: 60, y: 20))
  }

  /// flowkey `testConvertPointWithNonZeroBoundsOriginToSuperview`.
  @Test func aPointConvertsTheSameEitherWay() {
    let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    view.bounds.origin = Point(x: 50, y: 50)
    let subview = View(frame: Rect(x: 40, y: 40, width: 20, height: 20))
    view.addSubview(subview)
    subview.bounds.origin = Point(x: 123, y: 123)
    let point = Point(x: 133, y: 133)
    #expect(subview.convert(point, to: view) == view.convert(point, from: subview))
    #expect(subview.convert(point, to: view) == Point(x: 50, y: 50))
  }

  /// UIView.bounds: "Changing the bounds size grows or shrinks the view
  /// relative to its center point."
  @Test func changingTheBoundsSizeKeepsTheCenter() {
    let view = View(frame: Rect(x: 10, y: 20, width: 100, height: 50))
    view.bounds.size = Size(width: 50, height: 30)
    #expect(view.center == Point(x: 60, y: 45))
    #expect(view.frame == Rect(x: 35, y: 30, width: 50, height: 30))
  }

  /// A rotation turns the view about its center: its frame is the box around it.
  @Test func aRotationTurnsTheViewAboutItsCenter() {
    let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 40))
    view.transform = AffineTransform(rotationAngle: Double.pi / 2)
    let frame = view.frame
    #expect(abs(frame.minX - 30) < 1e-9 && abs(frame.minY - -30) < 1e-9)
    #expect(abs(frame.width - 40) < 1e-9 && abs(frame.height - 100) < 1e-9)
    // The view's top-left corner turns to the top-right of the box.
    let corner = view.convertToSuperview(.zero)
    #expect(abs(corner.x - 70) < 1e-9 && abs(corner.y - -30) < 1e-9)
  }

  @Test func aViewScaledToNothingContainsNoPoint() {
    let (application, content) = makeApplication()
    let flat = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    flat.transform = AffineTransform(scaleX: 0, y: 0)
    content.addSubview(flat)
    #expect(application.window.hitTest(Point(x: 50, y: 50)) === content)
  }

  /// Hit testing follows the bounds origin: a view scrolled out of a point
  /// is not hit there, and one scrolled under it is.
  @Test func hitTestingFollowsTheBoundsOrigin() {
    let (application, content) = makeApplication()
    let child = RecordingView(frame: Rect(x: 0, y: 0, width: 50, height: 50))
    content.addSubview(child)
    #expect(application.window.hitTest(Point(x: 10, y: 10)) === child)
    content.bounds.origin = Point(x: 0, y: 100)
    #expect(application.window.hitTest(Point(x: 10, y: 10)) === content)
    content.bounds.origin = Point(x: -100, y: -100)
    #expect(application.window.hitTest(Point(x: 110, y: 110)) === child)
  }

  /// Hit testing, touch locations and `location(in:)` of recognizers
  /// follow a transform: a view scaled by 2 about its center is hit in its
  /// larger area and reports points in its own units.
  @Test func touchesFollowATransform() throws {
    let (application, content) = makeApplication()
    let child = RecordingView(frame: Rect(x: 100, y: 100, width: 100, height: 100))
    child.transform = AffineTransform(scaleX: 2, y: 2)
    content.addSubview(child)
    let pan = PanGestureRecognizer()
    child.addGestureRecognizer(pan)
    // The child now covers 50...250; (60, 60) was outside it.
    #expect(application.window.hitTest(Point(x: 60, y: 60)) === child)
    #expect(application.window.hitTest(Point(x: 255, y: 60)) === content)
    try application.send([began(1, 60, 60)], at: 0)
    #expect(child.messages == ["began 1"])
    #expect(child.locations["began"] == [Point(x: 5, y: 5)])
    #expect(pan.location(in: child) == Point(x: 5, y: 5))
  }

  /// Rendering follows bounds origins and transforms: a scaled view's
  /// background covers its frame and its lines scale with it.
  @Test func renderingFollowsBoundsAndTransform() {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let scroller = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    scroller.bounds.origin = Point(x: 0, y: 50)
    application.window.addSubview(scroller)
    let child = View(frame: Rect(x: 100, y: 100, width: 100, height: 100))
    child.transform = AffineTransform(scaleX: 2, y: 2)
    child.backgroundColor = Color.red
    scroller.addSubview(child)
    let list = application.window.render()
    let fills = list.commands.compactMap { command -> Rect? in
      if case .fill(let rect, _, _) = command { return rect }
      return nil
    }
    #expect(fills == [Rect(x: 50, y: 0, width: 200, height: 200)])
  }

  /// flowkey `testPointInsideWithBoundsOriginSet`: `point(inside:)` is in
  /// bounds units, so the bounds' origin moves what is inside.
  @Test func pointInsideFollowsTheBoundsOrigin() {
    let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    #expect(view.point(inside: Point(x: 99, y: 99)))
    #expect(!view.point(inside: Point(x: 100, y: 100)))
    view.bounds.origin = Point(x: 10000, y: 10000)
    #expect(!view.point(inside: Point(x: 50, y: 50)))
  }

  /// flowkey `testHitTestBasic`.
  @Test func hitTestingInBoundsUnits() {
    let root = View(frame: .zero)
    root.bounds = Rect(x: -10, y: -10, width: 100, height: 100)
    root.frame.origin = .zero
    let child = View(frame: Rect(x: 40, y: 40, width: 20, height: 20))
    let grandchild = View(frame: Rect(x: 10, y: 10, width: 5, height: 5))
    root.addSubview(child)
    child.addSubview(grandchild)
    #expect(root.hitTest(Point(x: -5, y: -5)) === root)
    #expect(root.hitTest(Point(x: 40, y: 40)) === child)
    #expect(root.hitTest(Point(x: 52.5, y: 52.5)) === grandchild)
    #expect(root.hitTest(Point(x: -11, y: -11)) == nil)
    #expect(root.hitTest(Point(x: 95, y: 95)) == nil)
  }

  /// flowkey `testHitTestWithSelfTransform` and
  /// `testHitTestWithSelfTransformAndAlteredBoundsOrigin`: a view's own
  /// transform does not change its bounds units; scaled by 0.5 into a
  /// 100-pt frame, its bounds are 200 wide.
  @Test func aViewsOwnTransformKeepsItsBoundsUnits() {
    let root = View(frame: .zero)
    let child = View(frame: .zero)
    root.addSubview(child)
    root.transform = AffineTransform(scaleX: 0.5, y: 0.5)
    root.frame = Rect(x: 0, y: 0, width: 100, height: 100)
    child.frame = Rect(x: 25, y: 25, width: 50, height: 50)
    #expect(root.hitTest(Point(x: 25, y: 25)) === child)
    #expect(root.hitTest(Point(x: 74, y: 74)) === child)
    #expect(root.hitTest(Point(x: 20, y: 20)) === root)
    #expect(root.hitTest(Point(x: 199, y: 199)) === root)
    root.bounds.origin = Point(x: 0, y: 25)
    #expect(root.hitTest(Point(x: 25, y: 25)) === child)
    #expect(root.hitTest(Point(x: 75, y: 75)) === root)
    #expect(root.hitTest(Point(x: 200, y: 200)) == nil)
  }

  /// flowkey `testHitTestWithChildTransform`.
  @Test func aChildsTransformShrinksWhereItIsHit() {
    let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    let child = View(frame: .zero)
    root.addSubview(child)
    child.transform = AffineTransform(scaleX: 0.5, y: 0.5)
    child.frame = Rect(x: 25, y: 25, width: 50, height: 50)
    #expect(root.hitTest(Point(x: 25, y: 25)) === child)
    #expect(root.hitTest(Point(x: 74, y: 74)) === child)
    #expect(root.hitTest(Point(x: 20, y: 20)) === root)
    #expect(root.hitTest(Point(x: 75, y: 75)) === root)
    #expect(root.hitTest(Point(x: 100, y: 100)) == nil)
  }

  /// Views that only move convert exactly as before views had transforms:
  /// the offsets are summed up the chain, then applied once (replays
  /// compare touch locations byte for byte).
  @Test func viewsThatOnlyMoveConvertAsTheyAlwaysDid() {
    let window = Application(windowSize: Size(width: 800, height: 800)).window
    let parent = View(frame: Rect(x: 181, y: 181, width: 500, height: 500))
    let view = View(frame: Rect(x: 284, y: 284, width: 100, height: 100))
    window.addSubview(parent)
    parent.addSubview(view)
    let point = Point(x: 47.04, y: 47.04)
    // Converting level by level would give -417.96000000000004.
    #expect(view.convert(fromWindow: point) == Point(x: 47.04 - (284.0 + 181.0), y: 47.04 - (284.0 + 181.0)))
    #expect(view.convert(toWindow: point) == Point(x: 47.04 + (284.0 + 181.0), y: 47.04 + (284.0 + 181.0)))
  }

  /// A rotated view is hit where it turned to, not where its frame's
  /// untransformed rectangle was; a rotation, a bounds origin and a
  /// translation convert there and back to the same point.
  @Test func aRotatedViewIsHitWhereItTurnedTo() {
    let (application, content) = makeApplication()
    let bar = RecordingView(frame: Rect(x: 100, y: 100, width: 100, height: 40))
    bar.transform = AffineTransform(rotationAngle: Double.pi / 2)
    content.addSubview(bar)
    // Upright about its center (150, 120): x 130...170, y 70...170.
    #expect(application.window.hitTest(Point(x: 150, y: 80)) === bar)
    #expect(application.window.hitTest(Point(x: 110, y: 120)) === content)
    let local = bar.convert(Point(x: 150, y: 80), from: nil)
    #expect(abs(local.x - 10) < 1e-9 && abs(local.y - 20) < 1e-9)

    content.bounds.origin = Point(x: 7, y: -3)
    bar.transform = AffineTransform(rotationAngle: 0.3).concatenating(AffineTransform(translationX: 5, y: 9))
    let point = Point(x: 12.5, y: 33.25)
    let back = bar.convert(bar.convert(point, to: nil), from: nil)
    #expect(abs(back.x - point.x) < 1e-9 && abs(back.y - point.y) < 1e-9)
  }

  /// Near 45 degrees no bounds have a given box: setting the frame moves
  /// the center only (it used to solve a nearly singular system into
  /// bounds 10^17 wide); at 30 degrees a box too flat for any rectangle
  /// (whose solution is a negative height) does the same.
  @Test func aFrameNoRectangleFitsUnderARotationMovesOnlyTheCenter() {
    let view = View(frame: Rect(x: 0, y: 0, width: 40, height: 20))
    view.transform = AffineTransform(rotationAngle: Double.pi / 4)
    view.frame = Rect(x: 100, y: 100, width: 100, height: 50)
    #expect(view.bounds.size == Size(width: 40, height: 20))
    #expect(view.center == Point(x: 150, y: 125))
    view.transform = AffineTransform(rotationAngle: Double.pi / 6)
    view.frame = Rect(x: 0, y: 0, width: 100, height: 10)
    #expect(view.bounds.size == Size(width: 40, height: 20))
    #expect(view.center == Point(x: 50, y: 5))
  }

  /// UIPanGestureRecognizer.translation(in:): "The translation of the pan
  /// gesture in the coordinate system of the specified view." A view
  /// scaled by 2 sees half the movement.
  @Test func aPansTranslationIsInTheViewsUnits() throws {
    let (application, content) = makeApplication()
    let zoomed = RecordingView(frame: Rect(x: 0, y: 0, width: 200, height: 200))
    zoomed.transform = AffineTransform(scaleX: 2, y: 2)
    content.addSubview(zoomed)
    let pan = PanGestureRecognizer()
    zoomed.addGestureRecognizer(pan)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 140, 160)], at: 0.1)
    #expect(pan.translation(in: nil) == Point(x: 40, y: 60))
    #expect(pan.translation(in: zoomed) == Point(x: 20, y: 30))
    #expect(pan.translation(in: content) == Point(x: 40, y: 60))
    pan.setTranslation(Point(x: 5, y: 0), in: zoomed)
    #expect(pan.translation(in: nil) == Point(x: 10, y: 0))
    try application.send([ended(1, 140, 160)], at: 0.2)
  }
}
