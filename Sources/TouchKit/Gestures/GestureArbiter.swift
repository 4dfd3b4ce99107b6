/// Decides what a recognizer's requested state change really does, the way
/// UIKit's gesture environment does:
///
/// - a recognizer that requires another to fail (`require(toFail:)`, or its
///   delegate or the other's for this attempt) waits while that one is
///   undecided, fails when it recognizes, and goes ahead once it fails;
/// - the views under its touches and the delegate may refuse a begin;
/// - of two recognizers that saw a common touch, unless a delegate allows
///   them to recognize simultaneously, the first to recognize fails the
///   other if it `canPrevent` it and the other `canBePrevented` by it (a
///   tap does not prevent a tap needing more taps);
/// - the winner cancels the view's touches (`cancelsTouchesInView`) and
///   releases or drops what was held back (`delaysTouchesBegan/Ended`).
final class GestureArbiter {
  /// The application it decides for: set by it right after both are made
  /// (so that the application holds it in a `let`, read without a retain).
  unowned(unsafe) var application: Application!
  /// Recognizers that have seen touches since their last reset.
  @exclusivity(unchecked) private(set) var live: [GestureRecognizer] = []
  /// Arrays reused from event to event (a recognizer's records, one
  /// message's touches), so a touch update allocates nothing. Taken out
  /// while in use, so a delivery inside a delivery gets its own.
  @exclusivity(unchecked) private var scratchRecords: [TouchRecord] = []
  @exclusivity(unchecked) private var scratchTouches: [Touch] = []

  init() {}

  // MARK: Touches to recognizers

  /// The phases recognizers hear about, in the order they hear them.
  private static let messagePhases: [TouchPhase] = [.began, .moved, .ended, .cancelled]

  /// Hands each changed touch to the recognizers tracking it, recognizer by
  /// recognizer, one message per phase.
  func deliver(_ records: [TouchRecord], event: Event) {
    // By index: a record that did not begin is not retained to be looked at.
    for index in records.indices where records[index].touch.phase == .began {
      let record = records[index]
      for recognizer in record.recognizers {
        recognizer.track(record)
        if !live.contains(where: { $0 === recognizer }) { live.append(recognizer) }
      }
    }
    // Recognizers track the records themselves, which the application
    // brought up to date before this: nothing to copy per recognizer.
    for recognizer in live {
      // A finished recognizer only follows its touches until it is reset.
      guard !recognizer.storedState.isFinished else { continue }
      // Only touches it still tracks (it tracks only records that list it):
      // one disabled (and reset) while they were down hears nothing more of
      // them, even if enabled again. Chosen once, before any message: a
      // message may change what it tracks.
      // Usually it tracks every one: then they are `records` itself, not
      // an array of them built (each record retained) per recognizer.
      let tracksAll = recognizer.tracksEvery(records)
      var mine = tracksAll ? records : scratchRecords
      if !tracksAll {
        scratchRecords = []
        for record in records where recognizer.isTracking(record) { mine.append(record) }
      }
      for phase in GestureArbiter.messagePhases where mine.contains(where: { $0.touch.phase == phase }) {
        // A target may disable the recognizer from an action sent during this event.
        guard recognizer.isEnabled, !recognizer.storedState.isFinished else { continue }
        var touches = scratchTouches
        scratchTouches = []
        // Usually every touch of the event moved and it tracks them all: the
        // event's own array, not copies (each copy retains the touch's view).
        let whole = mine.count == records.count && event.holdsExactly(records, in: phase)
        if !whole {
          for record in mine where record.touch.phase == phase { touches.append(record.touch) }
        }
        let given = whole ? event.allTouches : touches
        switch phase {
        case .began: recognizer.touchesBegan(given, with: event)
        case .moved: recognizer.touchesMoved(given, with: event)
        case .ended: recognizer.touchesEnded(given, with: event)
        case .cancelled: recognizer.touchesCancelled(given, with: event)
        case .stationary: break
        }
        touches.removeAll(keepingCapacity: true)
        scratchTouches = touches
      }
      if !tracksAll {
        mine.removeAll(keepingCapacity: true)
        scratchRecords = mine
      }
    }
    for index in records.indices where records[index].touch.phase.isFinal {
      let record = records[index]
      for recognizer in record.recognizers { recognizer.stopTracking(record) }
    }
  }

  /// The recognizers that should see `touch`, beginning in `view`: those of
  /// the view and its superviews that are enabled, not finished, allow its
  /// type, and whose delegate lets them receive it.
  func recognizers(for touch: Touch, in view: View) -> [GestureRecognizer] {
    var result: [GestureRecognizer] = []
    var current: View? = view
    while let candidate = current {
      for recognizer in candidate.gestureRecognizers
      where recognizer.isEnabled && !recognizer.storedState.isFinished && recognizer.pendingState == nil
        && recognizer.allowedTouchTypes.contains(touch.type)
      {
        if let delegate = recognizer.delegate, !delegate.gestureRecognizer(recognizer, shouldReceive: touch) {
          continue
        }
        result.append(recognizer)
      }
      current = candidate.superview
    }
    return result
  }

  // MARK: Transitions

  func requestTransition(of recognizer: GestureRecognizer, to state: GestureRecognizerState) {
    let cause = recognizer.takeCause()
    switch (recognizer.storedState, state) {
    case (.possible, .failed):
      fail(recognizer, cause)
    case (.possible, .began), (.possible, .ended):
      if recognizer.pendingState != nil {
        recognizer.pendingState = state
      } else {
        attemptRecognition(of: recognizer, as: state, cause)
      }
    case (.began, .changed), (.changed, .changed), (.began, .ended), (.changed, .ended), (.began, .cancelled),
      (.changed, .cancelled):
      set(recognizer, state, cause)
      recognizer.sendActions(reportingTo: application)
    case (.began, .failed), (.changed, .failed):
      set(recognizer, .cancelled, cause)
      recognizer.sendActions(reportingTo: application)
    default:
      break
    }
  }

  /// Every state change goes through here, so the observer sees each one.
  private func set(_ recognizer: GestureRecognizer, _ state: GestureRecognizerState, _ cause: TransitionCause) {
    let from = recognizer.storedState
    recognizer.storedState = state
    if application.observer != nil {
      application.report(.transition(recognizer: recognizer.inspectorName, from: from, to: state, cause: cause))
    }
  }

  private func attemptRecognition(
    of recognizer: GestureRecognizer, as state: GestureRecognizerState, _ cause: TransitionCause
  ) {
    let requirements = self.requirements(of: recognizer)
    if let winner = requirements.first(where: { $0.storedState != .possible && $0.storedState != .failed }) {
      fail(recognizer, .requiredToFail(winner.inspectorName))
      return
    }
    // A disabled requirement takes no part in gestures: it counts as failed.
    if requirements.contains(where: { $0.storedState == .possible && $0.isEnabled }) {
      recognizer.pendingState = state
      if application.observer != nil {
        var undecided: [String] = []
        for other in requirements where other.storedState == .possible && other.isEnabled {
          undecided.append(other.inspectorName)
        }
        application.report(.waiting(recognizer: recognizer.inspectorName, for: undecided))
      }
      return
    }
    if let view = viewRefusingBegin(recognizer) {
      fail(recognizer, .viewRefused(view.inspectorName))
      return
    }
    if let delegate = recognizer.delegate, !delegate.gestureRecognizerShouldBegin(recognizer) {
      fail(recognizer, .delegateRefused)
      return
    }
    let rivals = live.filter {
      $0 !== recognizer && $0.shares(touchesWith: recognizer) && !simultaneous($0, recognizer)
    }
    if let winner = rivals.first(where: { $0.storedState.isActive && prevents($0, recognizer) }) {
      fail(recognizer, .preventedBy(winner.inspectorName))
      return
    }
    recognizer.pendingState = nil
    set(recognizer, state, cause)
    // Take the touches from the view before anything can release what was
    // held back for it: failing a rival below flushes held touches.
    if recognizer.cancelsTouchesInView {
      application.cancelTouchesInView(recognizer.seenTouches)
    } else if recognizer.delaysTouchesBegan {
      application.dropHeldBegans(recognizer.seenTouches)
    }
    for rival in rivals where rival.storedState == .possible && prevents(recognizer, rival) {
      // One that waited for this one to fail learns it from that, not from being prevented.
      let name = recognizer.inspectorName
      fail(rival, requires(rival, toFail: recognizer) ? .requiredToFail(name) : .preventedBy(name))
    }
    // Whoever requires this one to fail fails, even one it cannot prevent.
    for dependent in live
    where dependent !== recognizer && dependent.storedState == .possible && requires(dependent, toFail: recognizer) {
      fail(dependent, .requiredToFail(recognizer.inspectorName))
    }
    recognizer.sendActions(reportingTo: application)
    application.flushHeldTouches()
  }

  /// A recognizer was disabled: cancel it if it is recognizing, fail it if
  /// it is still deciding, then reset it and stop giving it touches.
  func disable(_ recognizer: GestureRecognizer) {
    if recognizer.storedState.isActive {
      recognizer.pendingState = nil
      set(recognizer, .cancelled, .disabled)
      recognizer.sendActions(reportingTo: application)
    } else {
      fail(recognizer, .disabled)
    }
    live.removeAll { $0 === recognizer }
    reset(recognizer)
    application.flushHeldTouches()
  }

  private func fail(_ recognizer: GestureRecognizer, _ cause: TransitionCause) {
    guard recognizer.storedState == .possible else { return }
    recognizer.pendingState = nil
    set(recognizer, .failed, cause)
    for dependent in live where dependent.pendingState != nil && requires(dependent, toFail: recognizer) {
      if let pending = dependent.pendingState, dependent.storedState == .possible {
        dependent.pendingState = nil
        attemptRecognition(of: dependent, as: pending, .requirementFailed(recognizer.inspectorName))
      }
    }
    application.flushHeldTouches()
  }

  /// The recognizers `recognizer` waits for in this attempt: those named
  /// with `require(toFail:)`, and those among the recognizers that saw one
  /// of its touches that a delegate asks for.
  private func requirements(of recognizer: GestureRecognizer) -> [GestureRecognizer] {
    var result = recognizer.failureRequirements
    for other in live
    where other !== recognizer && !result.contains(where: { $0 === other }) && requiresDynamically(recognizer, other) {
      result.append(other)
    }
    return result
  }

  private func requires(_ recognizer: GestureRecognizer, toFail other: GestureRecognizer) -> Bool {
    recognizer.failureRequirements.contains { $0 === other } || requiresDynamically(recognizer, other)
  }

  /// Either delegate saying yes sets the requirement up, as Apple documents;
  /// only recognizers that saw a common touch are asked about each other.
  private func requiresDynamically(_ recognizer: GestureRecognizer, _ other: GestureRecognizer) -> Bool {
    let first = recognizer.delegate
    let second = other.delegate
    guard first != nil || second != nil, recognizer.shares(touchesWith: other) else { return false }
    if let first, first.gestureRecognizer(recognizer, shouldRequireFailureOf: other) { return true }
    if let second, second.gestureRecognizer(other, shouldBeRequiredToFailBy: recognizer) { return true }
    return false
  }

  /// Whether `winner`, recognizing, fails `loser` (both must agree).
  private func prevents(_ winner: GestureRecognizer, _ loser: GestureRecognizer) -> Bool {
    winner.canPrevent(loser) && loser.canBePrevented(by: winner)
  }

  /// Asks each view from the views of the recognizer's touches up to its
  /// own view whether it may begin (`View.allowsGestureRecognizerToBegin(_:)`, UIKit's `gestureRecognizerShouldBegin(_:)`).
  /// The first that refuses, or nil when all allow it.
  private func viewRefusingBegin(_ recognizer: GestureRecognizer) -> View? {
    let top = recognizer.view
    for start in recognizer.touchViews {
      var current: View? = start
      while let view = current, view !== top {
        if !view.allowsGestureRecognizerToBegin(recognizer) { return view }
        current = view.superview
      }
    }
    if let top, !top.allowsGestureRecognizerToBegin(recognizer) { return top }
    return nil
  }

  private func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
    if let delegate = a.delegate, delegate.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) { return true }
    if let delegate = b.delegate, delegate.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) { return true }
    return false
  }

  /// Puts finished recognizers back to `.possible`, after the event that
  /// finished them: every one whose touches are all gone, and, as UIKit's
  /// `reset()` documents, one that recognized (`.ended`, the same state as
  /// `.recognized`) even while its fingers are still down. Such a recognizer
  /// hears nothing more of those fingers (it no longer tracks them, so it
  /// neither delays nor cancels them); their views keep what they had: a
  /// touch the recognition cancelled stays cancelled, one it left alone
  /// (`cancelsTouchesInView` off) goes on reaching its view. New touches
  /// start a new attempt at once.
  ///
  /// One that failed or was cancelled waits for its touches to end, as
  /// before: Apple's `reset()` names every final state, but resetting a
  /// failed recognizer under a finger still down would let it try again
  /// with the next finger mid-gesture (a tap recognized from a second
  /// finger while the first draws), which UIKit apps do not see.
  func resetFinishedRecognizers() {
    var index = 0
    while index < live.count {
      let recognizer = live[index]
      if recognizer.storedState == .ended || (recognizer.storedState.isFinished && recognizer.tracked.isEmpty) {
        live.remove(at: index)
        reset(recognizer)
      } else {
        index += 1
      }
    }
  }

  private func reset(_ recognizer: GestureRecognizer) {
    if application.observer != nil && recognizer.storedState != .possible {
      application.report(
        .transition(recognizer: recognizer.inspectorName, from: recognizer.storedState, to: .possible, cause: .reset))
    }
    recognizer.resetForNextGesture()
  }

  /// The recognizer of `record` that still holds back its began (or its end), if any.
  ///
  /// Only a recognizer still deciding about this very touch holds it: one
  /// that was reset since (its other touches ended) is `.possible` again, but
  /// for a new gesture, and must not hold an old finger's end forever.
  func holderOfBegan(_ record: TouchRecord) -> GestureRecognizer? {
    record.recognizers.first {
      $0.delaysTouchesBegan && $0.storedState == .possible && $0.seenTouches.contains(record.identity)
    }
  }

  func holderOfEnded(_ record: TouchRecord) -> GestureRecognizer? {
    record.recognizers.first {
      $0.delaysTouchesEnded && $0.storedState == .possible && $0.seenTouches.contains(record.identity)
    }
  }
}
