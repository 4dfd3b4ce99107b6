/// A view that turns touches into target-action messages for control events.
///
/// A control tracks one touch: it reports `touchDown` when it begins, drags
/// inside or outside as it moves, and `touchUpInside` only when the finger
/// lifts within the control's bounds grown by `trackingMargin` (UIKit is just
/// as forgiving, so a finger that slides a little still presses the button).
open class Control: View {
  /// Whether the control responds to touches; true by default. A disabled
  /// control ignores touches that begin in it (they are not passed on
  /// either), and does not keep other views' recognizers from beginning.
  public var isEnabled = true {
    didSet { setNeedsDisplay() }
  }
  /// Whether the control draws as pressed: true while it tracks a touch
  /// that is inside (``isTouchInside``). UIKit lets you set it; here the
  /// control alone does.
  public private(set) var isHighlighted = false {
    didSet { if isHighlighted != oldValue { setNeedsDisplay() } }
  }
  /// Whether the control is tracking a touch: set from what
  /// `beginTracking(_:with:)` and `continueTracking(_:with:)` return, false
  /// again when the touch ends or is cancelled.
  public private(set) var isTracking = false
  /// Whether the touch the control follows is inside: within its bounds
  /// grown by `trackingMargin`, the same area that decides `touchUpInside`
  /// (Apple says "inside the control's bounds"; the margin keeps the two
  /// from disagreeing). False when no touch is down.
  public private(set) var isTouchInside = false
  /// The touch the control follows from its `touchesBegan` to its end, even
  /// after tracking stopped (its inside-ness is still followed).
  private var trackedTouch: TouchIdentity?
  private var actions: [ControlTarget] = []

  /// How far outside its bounds a finger may lift and still count as inside.
  public var trackingMargin = 20.0

  public override init(frame: Rect) {
    super.init(frame: frame)
  }

  /// Sends `action` to `target` (nil: along the first responder's chain) when any of `events` happens.
  ///
  /// As in UIKit, adding the same target and action again is safe: the pair
  /// is kept once, for the union of the events it was added for, so it fires
  /// once per event.
  public func addTarget(_ target: Responder?, action: Action, for events: ControlEvents) {
    if let index = actions.firstIndex(where: { $0.target === target && $0.action == action }) {
      actions[index].events.formUnion(events)
    } else {
      actions.append(ControlTarget(target: target, action: action, events: events))
    }
  }

  /// Stops sending `events` to matching pairs, as UIKit's
  /// `removeTarget(_:action:for:)`: a nil `target` matches every target (the
  /// nil-targeted ones too), a nil `action` every action. Only the events
  /// named are removed; a pair keeps firing for its other events, and goes
  /// when none is left.
  ///
  /// `final`: a method in the vtable of a public class is never stripped
  /// from the wasm, even when nothing calls it (3 KB for the two removeTargets).
  public final func removeTarget(_ target: Responder?, action: Action?, for events: ControlEvents) {
    for index in actions.indices
    where (target == nil || actions[index].target === target) && (action == nil || actions[index].action == action) {
      actions[index].events.subtract(events)
    }
    actions.removeAll { $0.events.isEmpty }
  }

  /// Sends the actions registered for `events` through the application.
  public func sendActions(for events: ControlEvents) {
    let application = self.application
    for entry in actions where !entry.events.isDisjoint(with: events) {
      if let application {
        application.sendAction(entry.action, to: entry.target, from: self)
      } else {
        entry.target?.perform(entry.action, withSender: self)
      }
    }
  }

  /// As in UIKit, a control's default action wins over a superview's
  /// recognizer: an enabled control makes a single-finger single tap of
  /// another view fail, so the tap reaches the control. A recognizer
  /// attached to the control itself is allowed (that is how to take the tap
  /// from it), and so is every other gesture.
  ///
  /// UIKit does not say what a disabled control does. Here it has no action
  /// to protect, so it does not object.
  open override func allowsGestureRecognizerToBegin(_ recognizer: GestureRecognizer) -> Bool {
    guard isEnabled, recognizer.view !== self, let tap = recognizer as? TapGestureRecognizer else { return true }
    return !(tap.numberOfTapsRequired == 1 && tap.numberOfTouchesRequired == 1)
  }

  private func isInsideTrackingArea(_ touch: Touch) -> Bool {
    bounds.insetBy(dx: -trackingMargin, dy: -trackingMargin).contains(touch.location(in: self))
  }

  // MARK: Tracking, as UIControl's

  /// Called when a touch begins in the control; return false to stop
  /// tracking it (then the control sends no events for it and is not
  /// highlighted). The default returns true.
  open func beginTracking(_ touch: Touch, with event: Event?) -> Bool { true }

  /// Called for each move of the tracked touch, inside or outside, while
  /// tracking; `isTouchInside` is already up to date. Return false to stop
  /// tracking: no more drag events, and no touch-up event. The default
  /// returns true.
  open func continueTracking(_ touch: Touch, with event: Event?) -> Bool { true }

  /// Called when the tracked touch lifts while tracking, before the
  /// touch-up event is sent. The default does nothing.
  open func endTracking(_ touch: Touch?, with event: Event?) {}

  /// Called when the tracked touch is cancelled while tracking (a
  /// recognizer took it, the control left the window), before
  /// `touchCancel` is sent. The default does nothing.
  open func cancelTracking(with event: Event?) {}

  // Where Apple is silent, these follow Chameleon's UIControl (a peer
  // re-implementation): events go out only while tracking, and
  // `isTouchInside` is followed for the whole touch.

  open override func touchesBegan(_ touches: [Touch], with event: Event) {
    guard isEnabled, trackedTouch == nil, let touch = touches.first else { return }
    trackedTouch = touch.identity
    isTouchInside = true
    isTracking = beginTracking(touch, with: event)
    isHighlighted = isTracking
    guard isTracking else { return }
    sendActions(for: touch.tapCount > 1 ? [.touchDown, .touchDownRepeat] : .touchDown)
  }

  open override func touchesMoved(_ touches: [Touch], with event: Event) {
    guard let touch = touches.first(where: { $0.identity == trackedTouch }) else { return }
    let wasInside = isTouchInside
    isTouchInside = isInsideTrackingArea(touch)
    guard isTracking else { return }
    isTracking = continueTracking(touch, with: event)
    isHighlighted = isTracking && isTouchInside
    guard isTracking else { return }
    var events: ControlEvents = isTouchInside ? .touchDragInside : .touchDragOutside
    if isTouchInside != wasInside { events.insert(isTouchInside ? .touchDragEnter : .touchDragExit) }
    sendActions(for: events)
  }

  open override func touchesEnded(_ touches: [Touch], with event: Event) {
    guard let touch = touches.first(where: { $0.identity == trackedTouch }) else { return }
    isTouchInside = isInsideTrackingArea(touch)
    let inside = isTouchInside
    let wasTracking = isTracking
    if wasTracking { endTracking(touch, with: event) }
    // Targets of the touch-up event find tracking over, as before.
    stopFollowing()
    if wasTracking { sendActions(for: inside ? [.touchUpInside, .primaryActionTriggered] : .touchUpOutside) }
  }

  open override func touchesCancelled(_ touches: [Touch], with event: Event) {
    guard touches.contains(where: { $0.identity == trackedTouch }) else { return }
    let wasTracking = isTracking
    if wasTracking { cancelTracking(with: event) }
    stopFollowing()
    if wasTracking { sendActions(for: .touchCancel) }
  }

  private func stopFollowing() {
    trackedTouch = nil
    isTracking = false
    isTouchInside = false
    isHighlighted = false
  }
}

private struct ControlTarget {
  /// Not retained, as in UIKit: targets usually own the control.
  unowned(unsafe) let target: Responder?
  let action: Action
  var events: ControlEvents
}
