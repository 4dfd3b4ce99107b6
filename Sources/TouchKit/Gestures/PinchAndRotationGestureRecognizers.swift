/// What UIKit's pinch and rotation recognizers share: they follow the first
/// two fingers to come down on their view, and measure the vector from the
/// first to the second.
///
/// UIKit's documentation says both "look for" two touches and is silent on
/// a third. Here a touch past the second is ignored (`ignore(_:for:)`): the
/// gesture goes on with the two it has, and the third finger reaches its
/// view and other recognizers as if these were not there. In `.possible`
/// a lift fails the gesture (it never had its two fingers the whole
/// time); once recognizing, it "ends when both fingers lift", as Apple's
/// pages say. With one finger down it measures nothing (`scale`,
/// `rotation` and `velocity` stay as the last two-finger move left them)
/// until a second is down again, measured from where it landed; as in
/// UIKit, which reports every event a recognizing recognizer receives, each
/// event of its touches meanwhile (the lift, the moves of the finger left,
/// the landing) is reported as `.changed`, once. A host that wants the
/// gesture over at the first lift reads `numberOfTouches` (as `ScrollView`
/// does, so that the finger left drags).
///
/// Each move is measured against the pair as it was after the last move
/// (kept by the recognizer, not read from the touches' previous
/// locations: a finger that did not move in this event still carries the
/// previous location of its own last move).
extension GestureRecognizer {
  /// The vector from the first tracked touch to the second, or nil while
  /// fewer than two are down.
  var twoTouchVector: Point? {
    guard tracked.count >= 2 else { return nil }
    return tracked[1].touch.locationInWindow - tracked[0].touch.locationInWindow
  }

  /// Ignores the touches that came down past the second; true when two
  /// are down now and one of `touches` is among them (the pair to measure
  /// from is new).
  func keepFirstTwo(of touches: [Touch], with event: Event) -> Bool {
    while tracked.count > 2, let last = tracked.last { ignore(last.touch, for: event) }
    return tracked.count == 2
      && touches.contains { $0.identity == tracked[0].identity || $0.identity == tracked[1].identity }
  }

  /// Recognizing, reports an event of its touches that measured nothing as
  /// `.changed`: not when one of them moved in it (`touchesMoved` reports
  /// that). A touch not in the event keeps its last phase; its time tells.
  func reportTwoTouchEvent(_ event: Event) {
    guard state.isActive else { return }
    if tracked.contains(where: { $0.touch.phase == .moved && $0.touch.timestamp == event.timestamp }) { return }
    state = .changed
  }

  /// After a move: in `.possible`, begins once the measure is past the
  /// threshold; recognizing, reports the change.
  func moveTwoTouchGesture(pastThreshold: Bool) {
    if state == .possible {
      if pastThreshold { set(.began, because: .matched) }
    } else if state.isActive {
      state = .changed
    }
  }

  /// Lifting the last finger ends the gesture once recognizing (an earlier
  /// lift is reported as a change); any lift fails it before.
  func endTwoTouchGesture(lifting touches: [Touch], with event: Event) {
    if state.isActive {
      if numberOfTouches - touches.count <= 0 { state = .ended } else { reportTwoTouchEvent(event) }
    } else if state == .possible {
      set(.failed, because: .liftedTooSoon)
    }
  }
}

/// UIKit's `UIPinchGestureRecognizer`: two fingers moving apart or together.
/// Continuous: it begins once the distance between them has changed by more
/// than `hysteresis` points, reports each move as `changed`, and ends when
/// both have lifted.
public final class PinchGestureRecognizer: GestureRecognizer {
  /// The distance between the fingers as a factor of what it was when they
  /// came down (including the hysteresis, so what follows the fingers keeps
  /// up with them). Set it (to 1, typically) to measure from then on; that
  /// resets `velocity`, as in UIKit.
  public var scale = 1.0 {
    didSet { velocity = 0 }
  }
  /// How fast `scale` changes, in scale factor per second, over the last move.
  public private(set) var velocity = 0.0
  /// How much the distance between the fingers must change before the
  /// pinch begins. UIKit does not document its threshold; 8 pt is about a
  /// pan's (10 pt of one finger) split between two.
  public var hysteresis = 8.0

  private var distanceAtStart: Double?
  private var lastDistance = 0.0
  private var lastTimestamp = 0.0

  public override init() {
    super.init()
  }

  public override func touchesBegan(_ touches: [Touch], with event: Event) {
    guard keepFirstTwo(of: touches, with: event), let vector = twoTouchVector else { return }
    if distanceAtStart == nil { distanceAtStart = vector.length }
    lastDistance = vector.length
    lastTimestamp = event.timestamp
    reportTwoTouchEvent(event)
  }

  public override func touchesMoved(_ touches: [Touch], with event: Event) {
    guard let vector = twoTouchVector, let distanceAtStart else {
      if state.isActive { state = .changed }
      return
    }
    let before = lastDistance
    let now = vector.length
    lastDistance = now
    guard before > 0 else { return }
    let oldScale = scale
    scale *= now / before
    let interval = event.timestamp - lastTimestamp
    velocity = interval > 0 ? (scale - oldScale) / interval : 0
    lastTimestamp = event.timestamp
    moveTwoTouchGesture(pastThreshold: abs(now - distanceAtStart) > hysteresis)
  }

  public override func touchesEnded(_ touches: [Touch], with event: Event) {
    endTwoTouchGesture(lifting: touches, with: event)
  }

  public override func reset() {
    scale = 1
    velocity = 0
    distanceAtStart = nil
    lastDistance = 0
  }
}

/// UIKit's `UIRotationGestureRecognizer`: two fingers turning about each
/// other. Continuous: it begins once they have turned more than
/// `hysteresis` radians, reports each move as `changed`, and ends when both
/// have lifted.
public final class RotationGestureRecognizer: GestureRecognizer {
  /// How far the fingers turned since they came down, in radians; positive
  /// is clockwise on screen, as in UIKit. Set it (to 0, typically) to
  /// measure from then on; that resets `velocity`, as in UIKit.
  public var rotation = 0.0 {
    didSet { velocity = 0 }
  }
  /// How fast `rotation` changes, in radians per second, over the last move.
  public private(set) var velocity = 0.0
  /// How far the fingers must turn before the rotation begins (UIKit does
  /// not document its threshold): 0.1 radians, about 6 degrees.
  public var hysteresis = 0.1

  private var turned = 0.0
  private var lastVector: Point?
  private var lastTimestamp = 0.0

  public override init() {
    super.init()
  }

  public override func touchesBegan(_ touches: [Touch], with event: Event) {
    guard keepFirstTwo(of: touches, with: event), let vector = twoTouchVector else { return }
    lastVector = vector
    lastTimestamp = event.timestamp
    reportTwoTouchEvent(event)
  }

  public override func touchesMoved(_ touches: [Touch], with event: Event) {
    guard let vector = twoTouchVector, let previous = lastVector else {
      if state.isActive { state = .changed }
      return
    }
    lastVector = vector
    guard vector.length > 0, previous.length > 0 else { return }
    // The signed angle from the previous vector to this one, -π...π: each
    // event's turn is small, so adding them never wraps.
    let step = Trigonometry.atan2(
      previous.x * vector.y - previous.y * vector.x, previous.x * vector.x + previous.y * vector.y)
    rotation += step
    turned += step
    let interval = event.timestamp - lastTimestamp
    velocity = interval > 0 ? step / interval : 0
    lastTimestamp = event.timestamp
    moveTwoTouchGesture(pastThreshold: abs(turned) > hysteresis)
  }

  public override func touchesEnded(_ touches: [Touch], with event: Event) {
    endTwoTouchGesture(lifting: touches, with: event)
  }

  public override func reset() {
    rotation = 0
    velocity = 0
    turned = 0
    lastVector = nil
  }
}
