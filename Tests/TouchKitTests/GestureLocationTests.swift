import Testing
import TouchKit
import TouchKitTestSupport

/// Issue 9: where a tap and a swipe say their gesture is, and a pan's
/// velocity from its first move, as Apple documents them.
@Suite struct GestureLocationTests {
  /// UITapGestureRecognizer: "If there are multiple taps, this location is
  /// the first tap. If there are multiple touches, this location is the
  /// centroid of all fingers tapping the view."
  @Test func aDoubleTapIsWhereItsFirstTapWas() throws {
    let (application, view) = makeApplication()
    let double = TapGestureRecognizer()
    double.numberOfTapsRequired = 2
    let locations = LocationRecorder()
    double.addTarget(locations, action: Action("tap:"))
    view.addGestureRecognizer(double)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([ended(1, 102, 100)], at: 0.05)
    try application.send([began(2, 120, 110)], at: 0.2)
    try application.send([ended(2, 120, 110)], at: 0.25)
    #expect(locations.locations == [Point(x: 102, y: 100)])
  }

  @Test func aTwoFingerTapIsTheCentroidOfItsFingersEvenWhenTheyLiftApart() throws {
    let (application, view) = makeApplication()
    let tap = TapGestureRecognizer()
    tap.numberOfTouchesRequired = 2
    let locations = LocationRecorder()
    tap.addTarget(locations, action: Action("tap:"))
    view.addGestureRecognizer(tap)
    try application.send([began(1, 100, 100), began(2, 140, 120)], at: 0)
    try application.send([ended(1, 100, 100)], at: 0.05)
    try application.send([ended(2, 140, 120)], at: 0.07)
    #expect(locations.locations == [Point(x: 120, y: 110)])
  }

  /// UISwipeGestureRecognizer: "You may determine the location where a swipe
  /// began by calling the UIGestureRecognizer methods location(in:) and
  /// location(ofTouch:in:). The former method gives you the centroid if more
  /// than one touch was involved in the gesture."
  @Test func aSwipeIsWhereItBegan() throws {
    let (application, view) = makeApplication()
    let swipe = SwipeGestureRecognizer()
    swipe.direction = .up
    swipe.numberOfTouchesRequired = 2
    let locations = LocationRecorder()
    swipe.addTarget(locations, action: Action("swipe:"))
    view.addGestureRecognizer(swipe)
    try application.send([began(1, 100, 300), began(2, 140, 300)], at: 0)
    try application.send([moved(1, 100, 240), moved(2, 140, 240)], at: 0.05)
    #expect(locations.locations == [Point(x: 120, y: 300)])
  }

  /// UIPanGestureRecognizer.velocity(in:): "The velocity of the pan gesture,
  /// which is expressed in points per second." The first move already has a
  /// speed: the distance from touch-down over the time since.
  @Test func aPanHasAVelocityFromItsFirstMove() throws {
    let (application, view) = makeApplication()
    let pan = PanGestureRecognizer()
    let velocities = VelocityRecorder()
    pan.addTarget(velocities, action: Action("pan:"))
    view.addGestureRecognizer(pan)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 130, 110)], at: 0.02)
    #expect(pan.state == .began)
    let first = try #require(velocities.velocities.first)
    #expect(abs(first.x - 1500) < 1e-6 && abs(first.y - 500) < 1e-6)
  }

  /// A finger held still, then moved: the speed of that move is measured
  /// from the event before it, not lost because the touch-down is old.
  @Test func aPanAfterARestMeasuresItsFirstMoveFromTheLastEvent() throws {
    let (application, view) = makeApplication()
    let pan = PanGestureRecognizer()
    view.addGestureRecognizer(pan)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 130, 100)], at: 1)
    let velocity = pan.velocity(in: view)
    #expect(abs(velocity.x - 30) < 1e-6 && velocity.y == 0)
  }
}

/// Records `location(in: nil)` of the recognizer that sends each action.
final class LocationRecorder: Responder {
  var locations: [Point] = []
  override func perform(_ action: Action, withSender sender: AnyObject?) {
    if let recognizer = sender as? GestureRecognizer { locations.append(recognizer.location(in: nil)) }
  }
}

/// Records a pan's `velocity(in: nil)` at each action.
final class VelocityRecorder: Responder {
  var velocities: [Point] = []
  override func perform(_ action: Action, withSender sender: AnyObject?) {
    if let pan = sender as? PanGestureRecognizer { velocities.append(pan.velocity(in: nil)) }
  }
}
