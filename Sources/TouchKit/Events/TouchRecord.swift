/// The application's bookkeeping for one touch: its latest snapshot, the
/// recognizers that see it, and how far its view has been told about it.
final class TouchRecord {
  @exclusivity(unchecked) var touch: Touch
  /// `touch`'s, which never change: read without an access to `touch` (a
  /// class's `var`, checked for exclusive access each time) where every
  /// touch down is searched on every event.
  let identity: TouchIdentity
  let hostID: Int
  let recognizers: [GestureRecognizer]
  /// The touch's view never hears of it: the view already tracks a touch
  /// and does not accept multiple touches, or an exclusive-touch view stands
  /// in the way (`View.isExclusiveTouch`). Its recognizers still hear of it.
  let isIgnored: Bool
  @exclusivity(unchecked) var beganLocation = Point.zero
  /// What the view has been sent so far; see `ViewDelivery` for the moves allowed.
  @exclusivity(unchecked) private(set) var delivery = ViewDelivery.notBegun
  /// Snapshots not yet sent to the view, in the order they happened.
  @exclusivity(unchecked) var held: [HeldTouch] = []
  /// The host reported the end; the record stays until nothing is held.
  @exclusivity(unchecked) var hostFinished = false
  /// The samples the host sent with the touch in the current event (empty
  /// when it did not change); the event built for delivery takes them.
  @exclusivity(unchecked) var coalesced: [TouchSample] = []
  @exclusivity(unchecked) var predicted: [TouchSample] = []

  init(touch: Touch, recognizers: [GestureRecognizer], isIgnored: Bool) {
    self.touch = touch
    self.identity = touch.identity
    self.hostID = touch.hostID
    self.recognizers = recognizers
    self.isIgnored = isIgnored
  }

  /// The view will hear nothing more of this touch.
  var isWithdrawn: Bool { delivery == .withdrawn }

  /// The view got `touchesBegan` and not yet an end or a cancellation: it is
  /// owed exactly one of them.
  var isOwedAnEnd: Bool { delivery == .begun }

  /// The view has not been sent the touch's began.
  var isUnheardOf: Bool { delivery == .notBegun }

  /// Notes that `phase` was sent to the view.
  func delivered(_ phase: TouchPhase) {
    switch (delivery, phase) {
    case (.notBegun, .began): delivery = .begun
    case (.begun, .ended), (.begun, .cancelled): delivery = .finished
    case (.begun, .moved), (.begun, .stationary): break
    default: assertionFailure("a view cannot be sent this phase of a touch now")
    }
  }

  /// The view hears nothing more of the touch (a recognizer took it, its view
  /// left the window, or it was cancelled before the view heard of it).
  /// Whatever is held goes; returns whether the view is owed a cancellation.
  func withdraw() -> Bool {
    let owed = delivery == .begun
    delivery = .withdrawn
    held.removeAll()
    return owed
  }
}

/// How far a view has been told about one touch. The only moves are
/// `notBegun -> begun -> finished` as messages go out, and from any state to
/// `withdrawn`; so a view that saw a touch begin gets exactly one end or
/// cancellation, and a view never hears of a touch after its end.
enum ViewDelivery: Equatable {
  /// Nothing sent yet (the began may be held back by a recognizer).
  case notBegun
  /// `touchesBegan` was sent; an end or a cancellation is owed.
  case begun
  /// `touchesEnded` or `touchesCancelled` was sent.
  case finished
  /// The view hears nothing more; if it was owed an end, it got `touchesCancelled`.
  case withdrawn
}

/// A snapshot waiting to be delivered: the touch at `index` of its event's
/// `allTouches` (the event of `serial` in `Application.heldEvents`), with
/// what ordering and grouping read. It holds no reference that counts, so
/// moving it on its way to its view retains nothing.
struct HeldTouch {
  let serial: Int
  let index: Int
  let phase: TouchPhase
  let identity: TouchIdentity
  /// The touch's view, to group messages by (its event holds the view).
  let view: ObjectIdentifier?
  /// A recognizer held it back once (reported to the observer, so its
  /// release or drop is reported too).
  var wasHeld = false

  init(serial: Int, index: Int, of touch: Touch) {
    self.init(serial: serial, index: index, phase: touch.phase, identity: touch.identity, view: touch.view)
  }

  /// From a touch's parts, read in place where it is (its record): a
  /// `Touch` passed here would be a copy, retaining its view.
  init(serial: Int, index: Int, phase: TouchPhase, identity: TouchIdentity, view: View?) {
    self.serial = serial
    self.index = index
    self.phase = phase
    self.identity = identity
    self.view = view.map(ObjectIdentifier.init)
  }
}

/// An event some held snapshots were part of (`HeldTouch.serial`).
struct HeldEvent {
  let serial: Int
  let event: Event
}
