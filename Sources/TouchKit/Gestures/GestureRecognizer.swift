/// Turns a sequence of touches into a gesture, before the view sees them.
///
/// Subclasses override the four touch methods and set `state`; the
/// application's `GestureArbiter` decides what a requested transition really
/// does (wait for a required recognizer to fail, lose to a recognizer that
/// already won, cancel the view's touches) and sends the actions.
open class GestureRecognizer {
  /// The view owns its recognizers.
  public internal(set) unowned(unsafe) var view: View?
  /// Not retained, as in UIKit: the delegate usually owns the view.
  public unowned(unsafe) var delegate: (any GestureRecognizerDelegate)?
  /// A disabled recognizer receives no touches. As in UIKit, disabling one
  /// that is recognizing (began, changed) cancels it: it sends its action with
  /// `.cancelled`, then resets. One that is still deciding fails (so
  /// recognizers waiting for it to fail go ahead, and touches it held back
  /// reach the view) and resets. Either way it hears nothing more of the
  /// touches it saw; enabling it again affects only touches that begin later.
  public var isEnabled = true {
    didSet {
      guard oldValue && !isEnabled else { return }
      if let arbiter { arbiter.disable(self) } else { resetForNextGesture() }
    }
  }

  /// The kinds of touch this recognizer receives (UIKit's
  /// `allowedTouchTypes`): a touch of another type never reaches it, as if
  /// its delegate refused it. Every type by default.
  public var allowedTouchTypes: [TouchType] = TouchType.allCases

  /// On recognition, the view's touches of this gesture are cancelled.
  public var cancelsTouchesInView = true
  /// Began touches are held back from the view until this recognizer fails
  /// (then delivered as they happened) or dropped if it recognizes.
  public var delaysTouchesBegan = false
  /// Ended touches are held back from the view while this recognizer might still recognize.
  public var delaysTouchesEnded = true

  @exclusivity(unchecked) var storedState = GestureRecognizerState.possible
  /// A recognition requested while a recognizer in `failureRequirements` is still undecided.
  @exclusivity(unchecked) var pendingState: GestureRecognizerState?
  @exclusivity(unchecked) var failureRequirements: [GestureRecognizer] = []
  @exclusivity(unchecked) var targets: [Target] = []
  /// The records of the touches this recognizer is tracking, in the order
  /// they began. A record's `touch` is its latest snapshot: the application
  /// brings it up to date before any recognizer hears of the event, so no
  /// recognizer keeps (and updates, retains and releases) copies of its own.
  @exclusivity(unchecked) var tracked: [TouchRecord] = []
  /// Touches this recognizer is tracking, latest snapshots, in the order they began.
  public var touches: [Touch] { tracked.map { $0.touch } }
  /// Every touch seen since the last reset: recognizers that saw a common
  /// touch compete with each other.
  @exclusivity(unchecked) var seenTouches: [TouchIdentity] = []
  /// The views of the seen touches below `view` (each once), asked
  /// `allowsGestureRecognizerToBegin(_:)` with their superviews. Strong, as a
  /// touch holds its view; they are descendants of `view`, so no cycle, and
  /// they are let go at the reset.
  @exclusivity(unchecked) var touchViews: [View] = []
  @exclusivity(unchecked) private var lastLocationInWindow = Point.zero

  /// The name the inspector and the event-order log show (UIKit's `name`).
  public var name: String?
  /// Why the next state change is requested; set by `set(_:because:)`,
  /// taken by the arbiter.
  @exclusivity(unchecked) var requestedCause = TransitionCause.touches

  /// A recognizer with no view and no targets, and UIKit's defaults:
  /// enabled, ``GestureRecognizer/cancelsTouchesInView`` on, ``GestureRecognizer/delaysTouchesEnded`` on,
  /// ``GestureRecognizer/delaysTouchesBegan`` off, every touch type allowed. Attach it with
  /// `View.addGestureRecognizer(_:)`.
  public init() {}

  var inspectorName: String { name ?? "GestureRecognizer" }

  /// Requests `state`, giving the reason the inspector shows (a subclass's
  /// way to explain its decisions; setting `state` gives `.touches`).
  public func set(_ state: GestureRecognizerState, because cause: TransitionCause) {
    requestedCause = cause
    self.state = state
  }

  /// The reason given for the requested change, if any; back to `.touches`.
  func takeCause() -> TransitionCause {
    let cause = requestedCause
    requestedCause = .touches
    return cause
  }

  /// The current state. Setting it asks the arbiter for the transition.
  public var state: GestureRecognizerState {
    get { storedState }
    set { arbiter?.requestTransition(of: self, to: newValue) }
  }

  /// Adds a target that receives `action` with this recognizer as sender on
  /// every state change that matters (recognized; began, changed, ended, cancelled).
  ///
  /// As in UIKit, adding a pair that is already there is ignored: it fires
  /// once. Pairs fire in the order they were first added.
  public func addTarget(_ target: Responder, action: Action) {
    guard !targets.contains(where: { $0.responder === target && $0.action == action }) else { return }
    targets.append(Target(responder: target, action: action))
  }

  /// Removes target-action pairs, as UIKit's `removeTarget(_:action:)`: a nil
  /// `target` matches every target, a nil `action` every action (so
  /// `removeTarget(nil, action: nil)` removes them all). Removing a pair that
  /// is not there does nothing.
  ///
  /// `final`: a method in the vtable of a public class is never stripped
  /// from the wasm, even when nothing calls it (3 KB for the two removeTargets).
  public final func removeTarget(_ target: Responder?, action: Action?) {
    targets.removeAll { entry in
      (target == nil || entry.responder === target) && (action == nil || entry.action == action)
    }
  }

  /// This recognizer recognizes only after `other` fails; if `other`
  /// recognizes, this one fails.
  public func require(toFail other: GestureRecognizer) {
    failureRequirements.append(other)
  }

  /// How many touches the recognizer is tracking now (UIKit's
  /// `numberOfTouches`). In ``GestureRecognizer/touchesEnded(_:with:)`` it still counts the
  /// touches that are lifting.
  public var numberOfTouches: Int { tracked.count }

  /// Where the touch at `index` (in the order the touches began, below
  /// `numberOfTouches`) is now, in `view`'s coordinates (nil: the window's).
  public func location(ofTouch index: Int, in view: View?) -> Point {
    let point = tracked[index].touch.locationInWindow
    return view?.convert(fromWindow: point) ?? point
  }

  /// Where the gesture is, in `view`'s coordinates (nil: the window's). As
  /// UIKit documents it: usually the centroid of the tracked touches (after
  /// they are gone, where they last were); a tap says where its first tap
  /// was, a swipe where it began.
  public func location(in view: View?) -> Point {
    let point = gestureLocationInWindow
    return view?.convert(fromWindow: point) ?? point
  }

  /// `location(in:)` in window coordinates; tap and swipe override it.
  var gestureLocationInWindow: Point { centroidInWindow }

  var centroidInWindow: Point {
    guard !tracked.isEmpty else { return lastLocationInWindow }
    var sum = Point.zero
    for record in tracked { sum += record.touch.locationInWindow }
    return sum * (1 / Double(tracked.count))
  }

  /// The clock of the view's application, for recognizers that wait.
  public var clock: Clock? { view?.application?.clock }

  var arbiter: GestureArbiter? { view?.application?.arbiter }

  // MARK: For subclasses

  /// Override to follow touches as they begin; the default does nothing.
  ///
  /// `touches` are this recognizer's touches that began in `event`. A
  /// recognizer hears of a touch before the touch's view does, and only
  /// while it is enabled and has not finished (ended, cancelled or failed)
  /// since its last ``GestureRecognizer/reset()``. Set ``GestureRecognizer/state`` (or call
  /// ``GestureRecognizer/set(_:because:)``) to report what the touches are.
  open func touchesBegan(_ touches: [Touch], with event: Event) {}
  /// Override to follow touches as they move; the default does nothing.
  /// `touches` are this recognizer's touches that moved in `event`.
  open func touchesMoved(_ touches: [Touch], with event: Event) {}
  /// Override to follow touches as they lift; the default does nothing.
  /// `touches` are this recognizer's touches that ended in `event`; they
  /// still count in ``GestureRecognizer/numberOfTouches`` and ``GestureRecognizer/touches`` during the call.
  open func touchesEnded(_ touches: [Touch], with event: Event) {}

  /// The default fails a possible gesture and cancels one in progress.
  open func touchesCancelled(_ touches: [Touch], with event: Event) {
    set(state.isActive ? .cancelled : .failed, because: .touchesCancelled)
  }

  /// Called when the recognizer goes back to `.possible` after finishing.
  open func reset() {}

  /// UIGestureRecognizerSubclass's `ignore(_:for:)`: `touch` is not part of
  /// this gesture. The recognizer is sent nothing more of it, it stops
  /// counting in `numberOfTouches` and `location(in:)`, and it is neither
  /// held back from its view (`delaysTouchesBegan`/`Ended`) nor cancelled
  /// there when this recognizer recognizes (`cancelsTouchesInView`), nor does
  /// it make this recognizer compete with others for it. Meant to be called
  /// from the touch methods, as in UIKit; `event` is the event being handled.
  ///
  /// `final`: a method in the vtable of a public class is never stripped
  /// from the wasm, even when nothing calls it.
  public final func ignore(_ touch: Touch, for event: Event) {
    let identity = touch.identity
    guard let index = tracked.firstIndex(where: { $0.identity == identity }) else { return }
    tracked.remove(at: index)
    if tracked.isEmpty { lastLocationInWindow = touch.locationInWindow }
    seenTouches.removeAll { $0 == identity }
  }

  /// Whether this recognizer, recognizing, makes `prevented` fail (and,
  /// while it is in progress, keeps `prevented` from recognizing). Both
  /// sides must agree: `prevented.canBePrevented(by: self)` is asked too.
  /// Recognizers that may recognize simultaneously never prevent each other.
  /// The default is true, as in UIKit.
  open func canPrevent(_ prevented: GestureRecognizer) -> Bool { true }

  /// Whether `preventing`, recognizing, makes this recognizer fail; see
  /// `canPrevent(_:)`. The default is true, as in UIKit.
  open func canBePrevented(by preventing: GestureRecognizer) -> Bool { true }

  // MARK: Bookkeeping for the arbiter

  // `lastLocationInWindow` is read only while `touches` is empty, so it is
  // set only when the last touch goes (not on every move: that was a
  // centroid per touch per recognizer, quadratic in the fingers down).
  func track(_ record: TouchRecord) {
    tracked.append(record)
    seenTouches.append(record.identity)
    if let touchView = record.touch.view, touchView !== view, !touchViews.contains(where: { $0 === touchView }) {
      touchViews.append(touchView)
    }
  }

  /// Stops tracking `record`'s touch, which ended or was cancelled.
  func stopTracking(_ record: TouchRecord) {
    guard let index = tracked.firstIndex(where: { $0 === record }) else { return }
    tracked.remove(at: index)
    if tracked.isEmpty { lastLocationInWindow = record.touch.locationInWindow }
  }

  func isTracking(_ record: TouchRecord) -> Bool { tracked.contains { $0 === record } }

  /// Whether it tracks every one of `records`. When they are exactly its
  /// own, in order (an event of every finger down, usually), that is found
  /// without a search per record.
  func tracksEvery(_ records: [TouchRecord]) -> Bool {
    if tracked.count == records.count && records.indices.allSatisfy({ tracked[$0] === records[$0] }) { return true }
    return records.indices.allSatisfy { isTracking(records[$0]) }
  }

  func shares(touchesWith other: GestureRecognizer) -> Bool {
    seenTouches.contains { other.seenTouches.contains($0) }
  }

  func resetForNextGesture() {
    storedState = .possible
    pendingState = nil
    requestedCause = .touches
    tracked.removeAll()
    seenTouches.removeAll()
    touchViews.removeAll()
    reset()
  }

  func sendActions(reportingTo application: Application) {
    for target in targets {
      if application.observer != nil {
        application.reportAction(target.action, from: self, asked: [target.responder], handler: target.responder)
      }
      target.responder.perform(target.action, withSender: self)
    }
  }

  struct Target {
    unowned(unsafe) let responder: Responder
    let action: Action
  }
}
