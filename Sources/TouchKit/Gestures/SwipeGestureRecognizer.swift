/// Recognizes `numberOfTouchesRequired` fingers moving quickly in one of
/// the permitted directions. Discrete: it recognizes as soon as they have
/// traveled `minimumDistance` that way, staying within a band around the
/// direction.
public final class SwipeGestureRecognizer: GestureRecognizer {
  /// The directions a swipe may take, an option set as UIKit's (with its
  /// raw values), so one recognizer can allow several: `[.left, .right]`.
  public struct Direction: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Toward the right (x grows).
    public static let right = Direction(rawValue: 1 << 0)
    /// Toward the left (x shrinks).
    public static let left = Direction(rawValue: 1 << 1)
    /// Up the screen (y shrinks).
    public static let up = Direction(rawValue: 1 << 2)
    /// Down the screen (y grows).
    public static let down = Direction(rawValue: 1 << 3)

    /// The unit vector on screen (y grows downward) of single direction
    /// number `bit` (right, left, up, down).
    fileprivate static func unit(ofBit bit: Int) -> Point {
      switch bit {
      case 0: Point(x: 1, y: 0)
      case 1: Point(x: -1, y: 0)
      case 2: Point(x: 0, y: -1)
      default: Point(x: 0, y: 1)
      }
    }
  }

  /// The permitted directions; the default is right, as in UIKit. A swipe
  /// recognizes as soon as it qualifies in one of them, and fails once it
  /// can qualify in none.
  public var direction = Direction.right
  /// How many fingers must swipe together; 1 by default. More fingers fail
  /// the swipe.
  public var numberOfTouchesRequired = 1
  /// How far, in points, the fingers' average movement must go along a
  /// permitted direction; 50 by default. UIKit has no such property.
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
      set(.failed, because: .wrongNumberOfTouches)
      return
    }
    if deadline == nil {
      deadline = clock?.schedule(after: maximumDuration) { [unowned(unsafe) self] in
        self.deadline = nil
        if self.state == .possible { self.set(.failed, because: .tooSlow) }
      }
    }
  }

  public override func touchesMoved(_ touches: [Touch], with event: Event) {
    if numberOfTouches < numberOfTouchesRequired {
      for record in tracked {
        let touch = record.touch
        let moved = touch.locationInWindow - (starts[touch.identity] ?? touch.locationInWindow)
        if moved.length > maximumMovementWithFewerTouches {
          set(.failed, because: .wrongNumberOfTouches)
          return
        }
      }
      return
    }
    var stillPossible = false
    for bit in 0..<4 where direction.contains(Direction(rawValue: 1 << UInt(bit))) {
      switch progress(along: Direction.unit(ofBit: bit)) {
      case .done:
        set(.recognized, because: .matched)
        return
      case .possible: stillPossible = true
      case .failed: break
      }
    }
    if !stillPossible { set(.failed, because: .wrongDirection) }
  }

  private enum Progress { case possible, done, failed }

  /// How the fingers' average movement since they came down fares along `unit`.
  private func progress(along unit: Point) -> Progress {
    var along = 0.0
    var across = 0.0
    for touch in touches {
      let moved = touch.locationInWindow - (starts[touch.identity] ?? touch.locationInWindow)
      along += moved.dot(unit)
      across += abs(moved.dot(Point(x: -unit.y, y: unit.x)))
    }
    let count = Double(max(1, numberOfTouches))
    along /= count
    across /= count
    if along < -minimumDistance / 2 || across > max(minimumDistance, along) * maximumDeviation { return .failed }
    return along >= minimumDistance ? .done : .possible
  }

  public override func touchesEnded(_ touches: [Touch], with event: Event) {
    if state == .possible { set(.failed, because: .liftedTooSoon) }
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
