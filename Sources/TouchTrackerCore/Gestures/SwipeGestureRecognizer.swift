/// Recognizes `numberOfTouchesRequired` fingers moving quickly in one
/// direction. Discrete: it recognizes as soon as they have traveled
/// `minimumDistance` that way, staying within a band around the direction.
public final class SwipeGestureRecognizer: GestureRecognizer {
  public enum Direction: Sendable {
    case right, left, up, down

    /// The unit vector of the direction on screen (y grows downward).
    var unit: Point {
      switch self {
      case .right: Point(x: 1, y: 0)
      case .left: Point(x: -1, y: 0)
      case .up: Point(x: 0, y: -1)
      case .down: Point(x: 0, y: 1)
      }
    }
  }

  public var direction = Direction.right
  public var numberOfTouchesRequired = 1
  public var minimumDistance = 50.0
  /// The swipe must be done this long after the first finger came down.
  public var maximumDuration = 1.0
  /// Sideways movement allowed, as a fraction of the distance along the direction.
  public var maximumDeviation = 0.6
  /// How far a finger may move before all `numberOfTouchesRequired` fingers
  /// are down. UIKit does not document when a swipe with fingers missing
  /// gives up; the default (50, as `minimumDistance`) keeps this
  /// recognizer's old behavior. One that delays touches lowers it, so that
  /// a finger drawing alone is let go of soon.
  public var maximumMovementWithFewerTouches = 50.0

  private var starts = TouchStarts()
  private var deadline: TimerToken?

  public override init() {
    super.init()
  }

  public override func touchesBegan(_ touches: [Touch], with event: Event) {
    for touch in touches { starts[touch.identity] = touch.locationInWindow }
    if numberOfTouches > numberOfTouchesRequired {
      state = .failed
      return
    }
    if deadline == nil {
      deadline = clock?.schedule(after: maximumDuration) { [unowned(unsafe) self] in
        self.deadline = nil
        if self.state == .possible { self.state = .failed }
      }
    }
  }

  public override func touchesMoved(_ touches: [Touch], with event: Event) {
    var along = 0.0
    var across = 0.0
    var farthest = 0.0
    let unit = direction.unit
    for touch in self.touches {
      let moved = touch.locationInWindow - (starts[touch.identity] ?? touch.locationInWindow)
      along += moved.dot(unit)
      across += abs(moved.dot(Point(x: -unit.y, y: unit.x)))
      farthest = max(farthest, moved.length)
    }
    let count = Double(max(1, numberOfTouches))
    along /= count
    across /= count
    if numberOfTouches < numberOfTouchesRequired {
      if farthest > maximumMovementWithFewerTouches { state = .failed }
      return
    }
    if along < -minimumDistance / 2 || across > max(minimumDistance, along) * maximumDeviation {
      state = .failed
    } else if along >= minimumDistance {
      state = .recognized
    }
  }

  public override func touchesEnded(_ touches: [Touch], with event: Event) {
    if state == .possible { state = .failed }
  }

  /// Where the swipe began, as UIKit documents: the centroid of the points
  /// where its fingers came down.
  override var gestureLocationInWindow: Point { starts.isEmpty ? centroidInWindow : starts.centroid }

  public override func reset() {
    clock?.cancel(deadline)
    deadline = nil
    starts.removeAll()
  }
}
