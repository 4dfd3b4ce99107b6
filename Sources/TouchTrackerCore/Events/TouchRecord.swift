/// The application's bookkeeping for one touch: its latest snapshot, the
/// recognizers that see it, and what the view has been sent so far.
final class TouchRecord {
  var touch: Touch
  let recognizers: [GestureRecognizer]
  /// The touch's view already has a touch and does not accept multiple touches.
  let isIgnored: Bool
  var beganDelivered = false
  /// The view got the touch's end or its cancellation.
  var finishDelivered = false
  var beganLocation = Point.zero
  /// A recognizer took the touch over: the view got `touchesCancelled` (or
  /// never heard of it) and hears nothing more.
  var cancelledForView = false
  /// Snapshots not yet sent to the view, in the order they happened.
  var held: [HeldTouch] = []
  /// The host reported the end; the record stays until nothing is held.
  var hostFinished = false

  init(touch: Touch, recognizers: [GestureRecognizer], isIgnored: Bool) {
    self.touch = touch
    self.recognizers = recognizers
    self.isIgnored = isIgnored
  }
}

/// A snapshot waiting to be delivered, with the event it was part of.
struct HeldTouch {
  let serial: Int
  let touch: Touch
  let event: Event
}
