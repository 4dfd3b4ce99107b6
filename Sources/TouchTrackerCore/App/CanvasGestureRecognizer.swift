/// Two fingers that land together and move together pan the drawing;
/// spread or pinched once panning, they zoom it.
///
/// The book gives two fingers that land together to the circle, sized by
/// spreading them, so a pinch recognizer (which begins on any change of
/// distance) would take every circle, and a scroll view's drag would take
/// every line. This gesture tells them apart by what the fingers do first:
/// when the point between them travels `hysteresis` points, both moving
/// the same way, while the distance between them changes by less than half
/// of that, it is a pan
/// (and from then on also a zoom, by the change of distance since they
/// landed); when the distance changes by `hysteresis` first, it fails and
/// the circle goes on. Fingers that land more than `landingWindow` seconds
/// apart draw lines (it fails), as does a first finger that moves before
/// the second lands, and a third finger before it begins fails it (a
/// three-finger swipe); after it began, a third finger is ignored. It ends
/// when either finger lifts. (One finger held still while the other drags,
/// as a mouse's Alt-drag does, sizes a circle: it never pans.)
///
/// Positions are in window coordinates: the drawing under the fingers is
/// what moves, so its own coordinates would move with them.
public final class CanvasGestureRecognizer: GestureRecognizer {
  /// How far the point between the fingers (or their distance) must move
  /// before the gesture decides.
  public var hysteresis = 10.0
  /// The most time between the two fingers' landings (a circle's fingers
  /// land within the same window: see `DrawView`).
  public static let landingWindow = 0.08

  /// The point between the fingers when the second landed, and now (window coordinates).
  public private(set) var startMidpoint = Point.zero
  public private(set) var midpoint = Point.zero
  /// The distance between the fingers as a factor of what it was when the second landed.
  public private(set) var scale = 1.0

  private var firstLanding: (time: Double, location: Point)?
  private var startDistance = 0.0
  /// Where each finger was when the second landed.
  private var starts = (Point.zero, Point.zero)

  public override init() {
    super.init()
  }

  public override func touchesBegan(_ touches: [Touch], with event: Event) {
    if state.isActive {
      for touch in touches { ignore(touch, for: event) }
      return
    }
    if firstLanding == nil, numberOfTouches > 0 {
      firstLanding = (event.timestamp, location(ofTouch: 0, in: nil))
    }
    guard numberOfTouches == 2, let firstLanding else {
      if numberOfTouches > 2 { set(.failed, because: .wrongNumberOfTouches) }
      return
    }
    guard event.timestamp - firstLanding.time <= CanvasGestureRecognizer.landingWindow else {
      return set(.failed, because: .tooSlow)
    }
    starts = (location(ofTouch: 0, in: nil), location(ofTouch: 1, in: nil))
    startMidpoint = (location(ofTouch: 0, in: nil) + location(ofTouch: 1, in: nil)) * 0.5
    midpoint = startMidpoint
    startDistance = location(ofTouch: 0, in: nil).distance(to: location(ofTouch: 1, in: nil))
  }

  public override func touchesMoved(_ touches: [Touch], with event: Event) {
    guard numberOfTouches == 2 else {
      // One finger moving alone is drawing its line.
      if numberOfTouches > 0, let firstLanding,
        location(ofTouch: 0, in: nil).distance(to: firstLanding.location) > hysteresis, state == .possible
      {
        set(.failed, because: .movedTooFar)
      }
      return
    }
    midpoint = (location(ofTouch: 0, in: nil) + location(ofTouch: 1, in: nil)) * 0.5
    let distance = location(ofTouch: 0, in: nil).distance(to: location(ofTouch: 1, in: nil))
    if state == .possible {
      let travel = midpoint.distance(to: startMidpoint)
      let spread = abs(distance - startDistance)
      // Both fingers moving, the same way: one held still while the other
      // drags sideways sizes a circle (the distance hardly changes at first).
      let moves = (location(ofTouch: 0, in: nil) - starts.0, location(ofTouch: 1, in: nil) - starts.1)
      let together =
        moves.0.length >= hysteresis / 2 && moves.1.length >= hysteresis / 2
        && moves.0.x * moves.1.x + moves.0.y * moves.1.y > 0
      if spread >= hysteresis {
        set(.failed, because: .movedTooFar)
      } else if travel >= hysteresis, spread < travel / 2, together {
        updateScale(distance)
        set(.began, because: .matched)
      }
    } else if state.isActive {
      updateScale(distance)
      state = .changed
    }
  }

  private func updateScale(_ distance: Double) {
    scale = startDistance > 0 ? distance / startDistance : 1
  }

  public override func touchesEnded(_ touches: [Touch], with event: Event) {
    if state.isActive {
      state = .ended
    } else if state == .possible {
      set(.failed, because: .liftedTooSoon)
    }
  }

  public override func reset() {
    firstLanding = nil
    startDistance = 0
    scale = 1
  }
}
