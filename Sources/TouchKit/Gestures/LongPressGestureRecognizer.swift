/// Recognizes fingers held still for `minimumPressDuration`. Continuous: it
/// begins when the time is up, changes as the fingers move, and ends when
/// they lift.
///
/// With `numberOfTapsRequired` above 0 (the "tap and a half" of map apps),
/// the fingers must first tap that many times, then come down again and hold.
public final class LongPressGestureRecognizer: GestureRecognizer {
  /// How long, in seconds, the fingers must be held before the press begins;
  /// 0.5 by default, as in UIKit.
  public var minimumPressDuration = 0.5
  /// How far, in points, a finger may move from where it came down before
  /// the press begins; farther fails it. 10 by default, as in UIKit. Once the
  /// press has begun, the fingers may move anywhere.
  public var allowableMovement = 10.0
  /// How many fingers must be held down; 1 by default. More fingers fail
  /// the gesture.
  public var numberOfTouchesRequired = 1
  /// Taps before the press; 0 (UIKit's default) presses at once.
  ///
  /// UIKit says no more than "the number of taps on the view necessary for
  /// gesture recognition". Here, as a `TapGestureRecognizer`'s taps: each
  /// tap is `numberOfTouchesRequired` fingers down and up again within
  /// `allowableMovement`; the next touch-down must follow within 0.3 s and
  /// 45 pt of the first tap. A tap held down for `minimumPressDuration` is a
  /// press too early, and fails the gesture.
  public var numberOfTapsRequired = 0

  private static let maximumTapInterval = 0.3
  private static let maximumTapDistance = 45.0

  private var starts = TouchStarts()
  private var pressTimer: TimerToken?
  private var tapsCompleted = 0
  private var touchesInThisTap = 0
  private var firstTapStart: Point?

  public override init() {
    super.init()
  }

  public override func touchesBegan(_ touches: [Touch], with event: Event) {
    guard state == .possible else { return }
    for touch in touches {
      starts[touch.identity] = touch.locationInWindow
      if let firstTapStart, touch.locationInWindow.distance(to: firstTapStart) > Self.maximumTapDistance {
        set(.failed, because: .tooFarApart)
        return
      }
    }
    touchesInThisTap += touches.count
    if numberOfTouches > numberOfTouchesRequired {
      set(.failed, because: .wrongNumberOfTouches)
    } else if numberOfTouches == numberOfTouchesRequired {
      if firstTapStart == nil && numberOfTapsRequired > 0 { firstTapStart = centroidInWindow }
      // While taps are still due, the timer fails a tap held too long;
      // after them, it begins the press.
      schedule(after: minimumPressDuration, tapsCompleted < numberOfTapsRequired ? .failed : .began)
    } else {
      // Fingers are still coming down: the time between taps is over.
      clock?.cancel(pressTimer)
      pressTimer = nil
    }
  }

  public override func touchesMoved(_ touches: [Touch], with event: Event) {
    if state == .possible {
      for touch in touches {
        if let start = starts[touch.identity], touch.locationInWindow.distance(to: start) > allowableMovement {
          set(.failed, because: .movedTooFar)
          return
        }
      }
    } else if state.isActive {
      state = .changed
    }
  }

  public override func touchesEnded(_ touches: [Touch], with event: Event) {
    if state.isActive {
      state = .ended
      return
    }
    guard tapsCompleted < numberOfTapsRequired else {
      set(.failed, because: .liftedTooSoon)
      return
    }
    // A tap is over when all its fingers lift (`touches` still include them).
    guard numberOfTouches == touches.count else { return }
    guard touchesInThisTap == numberOfTouchesRequired else {
      set(.failed, because: .wrongNumberOfTouches)
      return
    }
    tapsCompleted += 1
    touchesInThisTap = 0
    starts.removeAll()
    schedule(after: Self.maximumTapInterval, .failed)
  }

  /// One timer at a time: when it fires, a recognizer still possible goes to `target`.
  private func schedule(after delay: Double, _ target: GestureRecognizerState) {
    clock?.cancel(pressTimer)
    pressTimer = clock?.schedule(after: delay) { [unowned(unsafe) self] in
      self.pressTimer = nil
      // Held long enough begins the press; a tap held that long, or the next tap not coming, fails it.
      if self.state == .possible { self.set(target, because: target == .began ? .heldLongEnough : .tooSlow) }
    }
  }

  public override func reset() {
    clock?.cancel(pressTimer)
    pressTimer = nil
    starts.removeAll()
    tapsCompleted = 0
    touchesInThisTap = 0
    firstTapStart = nil
  }
}
