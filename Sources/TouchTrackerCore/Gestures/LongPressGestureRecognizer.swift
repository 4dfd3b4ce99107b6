/// Recognizes fingers held still for `minimumPressDuration`. Continuous: it
/// begins when the time is up, changes as the fingers move, and ends when
/// they lift.
public final class LongPressGestureRecognizer: GestureRecognizer {
  public var minimumPressDuration = 0.5
  public var allowableMovement = 10.0
  public var numberOfTouchesRequired = 1

  private var starts = TouchStarts()
  private var pressTimer: TimerToken?

  public override init() {
    super.init()
  }

  public override func touchesBegan(_ touches: [Touch], with event: Event) {
    guard state == .possible else { return }
    for touch in touches { starts[touch.identity] = touch.locationInWindow }
    if numberOfTouches > numberOfTouchesRequired {
      set(.failed, because: .wrongNumberOfTouches)
    } else if numberOfTouches == numberOfTouchesRequired {
      clock?.cancel(pressTimer)
      pressTimer = clock?.schedule(after: minimumPressDuration) { [unowned(unsafe) self] in
        self.pressTimer = nil
        if self.state == .possible { self.set(.began, because: .heldLongEnough) }
      }
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
    if state.isActive { state = .ended } else { set(.failed, because: .liftedTooSoon) }
  }

  public override func reset() {
    clock?.cancel(pressTimer)
    pressTimer = nil
    starts.removeAll()
  }
}
