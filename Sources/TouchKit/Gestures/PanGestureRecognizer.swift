/// Recognizes fingers dragging. Continuous: it begins once the fingers move
/// farther than `hysteresis`, reports each move as `changed`, and ends when
/// the last finger lifts.
///
/// The translation counts from where the fingers came down, including the
/// hysteresis, so whatever follows the finger keeps up with it exactly. It
/// stays continuous when fingers are added or lifted: each event adds the
/// average movement of the fingers down.
public final class PanGestureRecognizer: GestureRecognizer {
  /// The fewest fingers that can begin the pan; 1 by default. Once the pan
  /// has begun, it ends when fewer than this remain.
  public var minimumNumberOfTouches = 1
  /// The most fingers the pan accepts: more before it begins fail it. No
  /// limit (`Int.max`) by default, as in UIKit.
  public var maximumNumberOfTouches = Int.max
  /// How far, in points, the fingers' average movement must go before the
  /// pan begins; 10 by default. UIKit has no such property (its threshold is
  /// fixed and undocumented).
  public var hysteresis = 10.0

  @exclusivity(unchecked) private var translationInWindow = Point.zero
  /// Movement since touch-down that `setTranslation` never resets, sampled for velocity.
  @exclusivity(unchecked) private var totalMovement = Point.zero
  @exclusivity(unchecked) private var samples: [(time: Double, movement: Point)] = []

  public override init() {
    super.init()
  }

  /// How far the fingers moved since they came down (or since the last
  /// `setTranslation`), in `view`'s units (nil: the window's): a view
  /// scaled by 2 sees half the movement, as in UIKit.
  public func translation(in view: View?) -> Point {
    view?.convertVector(fromWindow: translationInWindow) ?? translationInWindow
  }

  /// Resets the running translation, typically to zero after applying it;
  /// `translation` is in `view`'s units. It resets the velocity too, as in
  /// UIKit: the next move is measured from here.
  public func setTranslation(_ translation: Point, in view: View?) {
    translationInWindow = view?.convertVector(toWindow: translation) ?? translation
    if let last = samples.last { samples = [last] }
  }

  /// Points per second (in `view`'s units), over the last tenth of a second of movement, by
  /// the events' timestamps. The touch-down is the first sample, so the
  /// first move already has a speed; when the last move is the only sample
  /// that recent (a finger rested, then moved), it is measured from the
  /// sample before it.
  public func velocity(in view: View?) -> Point {
    guard let last = samples.last else { return .zero }
    var firstIndex = samples.firstIndex { last.time - $0.time <= 0.1 } ?? samples.count - 1
    if firstIndex == samples.count - 1 && firstIndex > 0 { firstIndex -= 1 }
    let first = samples[firstIndex]
    let dt = last.time - first.time
    guard dt > 0 else { return .zero }
    let velocity = (last.movement - first.movement) * (1 / dt)
    return view?.convertVector(fromWindow: velocity) ?? velocity
  }

  public override func touchesBegan(_ touches: [Touch], with event: Event) {
    if samples.isEmpty { samples.append((event.timestamp, totalMovement)) }
    if numberOfTouches > maximumNumberOfTouches && state == .possible {
      set(.failed, because: .wrongNumberOfTouches)
    }
  }

  public override func touchesMoved(_ touches: [Touch], with event: Event) {
    var sum = Point.zero
    for index in touches.indices { sum += touches[index].locationInWindow - touches[index].previousLocationInWindow }
    let step = sum * (1 / Double(max(1, numberOfTouches)))
    translationInWindow += step
    totalMovement += step
    samples.append((event.timestamp, totalMovement))
    if samples.count > 16 { samples.removeFirst(samples.count - 16) }
    if state == .possible {
      if numberOfTouches >= minimumNumberOfTouches && numberOfTouches <= maximumNumberOfTouches
        && translationInWindow.length > hysteresis
      {
        set(.began, because: .matched)
      }
    } else if state.isActive {
      state = .changed
    }
  }

  public override func touchesEnded(_ touches: [Touch], with event: Event) {
    let remaining = numberOfTouches - touches.count
    if state.isActive {
      if remaining < minimumNumberOfTouches { state = .ended }
    } else if remaining == 0 {
      set(.failed, because: .liftedTooSoon)
    }
  }

  public override func reset() {
    translationInWindow = .zero
    totalMovement = .zero
    samples.removeAll()
  }
}
