/// Recognizes `numberOfTapsRequired` quick taps of `numberOfTouchesRequired`
/// fingers. Discrete: it recognizes when the last tap lifts.
///
/// It fails when a finger moves more than `allowableMovement`, when more
/// fingers than required come down, or when the next tap does not begin
/// within `maximumTapInterval`.
public final class TapGestureRecognizer: GestureRecognizer {
  /// How many taps make the gesture; 1 by default (2 for a double tap).
  public var numberOfTapsRequired = 1
  /// How many fingers each tap takes; 1 by default.
  public var numberOfTouchesRequired = 1
  /// How far, in points, a finger may move from where it came down and
  /// still tap; 10 by default. UIKit has no such property (its threshold is
  /// fixed).
  public var allowableMovement = 10.0
  /// The longest wait between one tap's end and the next one's start.
  public var maximumTapInterval = 0.3
  /// How far from the first tap a later tap may land.
  public var maximumTapDistance = 45.0

  private var tapsCompleted = 0
  private var touchesInThisTap = 0
  private var starts = TouchStarts()
  /// The centroid of the first tap's fingers where they lifted: the
  /// gesture's location, as UIKit documents ("If there are multiple taps,
  /// this location is the first tap").
  private var firstTapLocation: Point?
  /// The lifted fingers of the tap in progress, for its centroid.
  private var liftedSum = Point.zero
  private var liftedCount = 0
  private var intervalTimer: TimerToken?

  public override init() {
    super.init()
  }

  public override func touchesBegan(_ touches: [Touch], with event: Event) {
    clock?.cancel(intervalTimer)
    intervalTimer = nil
    for touch in touches {
      starts[touch.identity] = touch.locationInWindow
      if let firstTapLocation, touch.locationInWindow.distance(to: firstTapLocation) > maximumTapDistance {
        set(.failed, because: .tooFarApart)
        return
      }
    }
    touchesInThisTap += touches.count
    if numberOfTouches > numberOfTouchesRequired || touchesInThisTap > numberOfTouchesRequired {
      set(.failed, because: .wrongNumberOfTouches)
    }
  }

  public override func touchesMoved(_ touches: [Touch], with event: Event) {
    for touch in touches {
      if let start = starts[touch.identity], touch.locationInWindow.distance(to: start) > allowableMovement {
        set(.failed, because: .movedTooFar)
        return
      }
    }
  }

  public override func touchesEnded(_ touches: [Touch], with event: Event) {
    for touch in touches {
      if let start = starts[touch.identity], touch.locationInWindow.distance(to: start) > allowableMovement {
        set(.failed, because: .movedTooFar)
        return
      }
    }
    for touch in touches {
      liftedSum += touch.locationInWindow
      liftedCount += 1
    }
    // `touches` still include the lifting fingers; the tap is over when all lift.
    guard numberOfTouches == touches.count else { return }
    guard touchesInThisTap == numberOfTouchesRequired else {
      set(.failed, because: .wrongNumberOfTouches)
      return
    }
    tapsCompleted += 1
    touchesInThisTap = 0
    if firstTapLocation == nil { firstTapLocation = liftedSum * (1 / Double(liftedCount)) }
    liftedSum = .zero
    liftedCount = 0
    if tapsCompleted >= numberOfTapsRequired {
      set(.recognized, because: .matched)
    } else {
      intervalTimer = clock?.schedule(after: maximumTapInterval) { [unowned(unsafe) self] in
        self.intervalTimer = nil
        if self.state == .possible { self.set(.failed, because: .tooSlow) }
      }
    }
  }

  /// As UIKit's: a tap never prevents a tap recognizer that needs more taps,
  /// so a double tap can follow a recognized single tap without
  /// `require(toFail:)` (then both recognize). One needing more taps still
  /// prevents one needing fewer.
  public override func canPrevent(_ prevented: GestureRecognizer) -> Bool {
    guard let tap = prevented as? TapGestureRecognizer else { return true }
    return tap.numberOfTapsRequired <= numberOfTapsRequired
  }

  override var gestureLocationInWindow: Point { firstTapLocation ?? centroidInWindow }

  public override func reset() {
    clock?.cancel(intervalTimer)
    intervalTimer = nil
    tapsCompleted = 0
    touchesInThisTap = 0
    starts.removeAll()
    firstTapLocation = nil
    liftedSum = .zero
    liftedCount = 0
  }
}
