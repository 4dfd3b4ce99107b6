/// The top of the responder chain and the place touches enter the core.
///
/// A host reports what its fingers did with `send(_:at:)`, one call per
/// event, and advances time with `advanceClock(to:)`. The application
/// hit-tests each new touch, gives every touch to gesture recognizers first,
/// then sends it to the view it began in, for its whole life, holding back or
/// cancelling what the recognizers decide.
open class Application: Responder {
  /// The application's time: events' timestamps and the timers that
  /// recognizers wait on. Only the host moves it, through ``send(_:at:)``
  /// and ``advanceClock(to:)``.
  public let clock: Clock
  /// The application's one window, made by ``init(windowSize:clock:)``: the
  /// root of the view hierarchy, where hit testing starts.
  public let window: Window
  /// The responder that nil-targeted actions and the edit menu go to first;
  /// nil by default. `Responder.becomeFirstResponder()` sets it,
  /// `Responder.resignFirstResponder()` clears it. (UIKit has no public
  /// property for it.)
  public private(set) var firstResponder: Responder?
  /// The edit menu of this application (UIKit's `UIMenuController.shared`).
  public private(set) lazy var menuController = MenuController(application: self)
  /// A `let`, not `lazy`: read on every event, and a lazy getter retains what it returns.
  let arbiter = GestureArbiter()

  /// Every touch the application still tracks, in the order they began.
  @exclusivity(unchecked) var records: [TouchRecord] = []
  /// The records of touches down, by host id. A linear search: there are
  /// only as many as fingers on the screen, and a dictionary would add tens
  /// of KB of generic code to the WebAssembly module.
  @exclusivity(unchecked) var down: [TouchRecord] = []
  @exclusivity(unchecked) private var nextTouchSerial = 0
  @exclusivity(unchecked) private var eventSerial = 0
  @exclusivity(unchecked) private var lastTap: LastTap?
  @exclusivity(unchecked) private var isFlushing = false
  @exclusivity(unchecked) private var needsAnotherFlush = false
  /// Arrays reused from event to event, so a touch update allocates nothing.
  @exclusivity(unchecked) private var scratch = DeliveryScratch()
  /// The events of the snapshots still held (`HeldTouch.serial`), oldest
  /// first; each goes once no held snapshot names it (`dropDeliveredEvents`).
  @exclusivity(unchecked) var heldEvents: [HeldEvent] = []
  /// The one listener to what the machinery does (the inspector, `replay
  /// --inspect`), with the clock's time of each record. Nil, the default:
  /// every place that could report costs one branch and allocates nothing.
  @exclusivity(unchecked) public var observer: ((Double, Diagnostic) -> Void)?

  /// Quick successive taps closer than this in time and space count up `tapCount`.
  public static let multipleTapInterval = 0.35
  /// How far apart, in points, quick successive taps may land and still
  /// count up `Touch.tapCount`.
  public static let multipleTapRadius = 20.0
  /// A touch that moves farther than this is not a tap.
  public static let tapMovementTolerance = 10.0

  /// An application whose window is `windowSize` points, at the origin,
  /// running on `clock` (by default a new clock at time 0).
  public init(windowSize: Size, clock: Clock = Clock()) {
    self.clock = clock
    self.window = Window(frame: Rect(origin: .zero, size: windowSize))
    super.init()
    arbiter.application = self
    window.owner = self
  }

  public override var application: Application? { self }
  public override var inspectorName: String { "Application" }

  /// Hands `record` to the observer; callers check `observer != nil` first
  /// so that nothing is built for nobody.
  func report(_ record: Diagnostic) {
    observer?(clock.now, record)
  }

  /// The number of touches down right now, as the host sees them.
  public var activeTouchCount: Int { down.count }

  /// Whether the host's touch `hostID` is down (began, and not ended or cancelled).
  public func isTouchDown(hostID: Int) -> Bool { downPosition(hostID: hostID) != nil }

  // MARK: Input

  /// Delivers one event: the touches in `inputs` changed together at `time`.
  ///
  /// The clock first advances to `time`, firing due timers. Input that would
  /// corrupt the touch bookkeeping is refused as a whole, before anything changes.
  public func send(_ inputs: [TouchInput], at time: Double) throws(TouchInputError) {
    try validate(inputs, at: time)
    advanceClock(to: time)
    eventSerial += 1
    var changed = scratch.takeRecords()
    // Samples belong to the event they came with: a touch that did not change has none.
    for index in down.indices where !down[index].coalesced.isEmpty || !down[index].predicted.isEmpty {
      down[index].coalesced = []
      down[index].predicted = []
    }
    // By index: an input is not copied (its samples retained and released).
    for index in inputs.indices {
      let phase = inputs[index].phase
      if phase == .began {
        changed.append(beginTouch(inputs[index], at: time))
      } else if let position = downPosition(hostID: inputs[index].id) {
        // Read in place (`down` holds it until it is taken out below).
        Unmanaged.passUnretained(down[position])._withUnsafeGuaranteedRef { record in
          record.touch.previousLocationInWindow = record.touch.locationInWindow
          record.touch.locationInWindow = inputs[index].location
          record.touch.phase = phase
          record.touch.timestamp = time
          if phase != .cancelled {
            record.touch.hardware = inputs[index].hardware
            // Emptied above: only samples that came are assigned.
            if !inputs[index].coalesced.isEmpty { record.coalesced = inputs[index].coalesced }
            if !inputs[index].predicted.isEmpty { record.predicted = inputs[index].predicted }
          }
          if phase.isFinal {
            record.hostFinished = true
            rememberTap(record)
          }
          changed.append(record)
        }
        if phase.isFinal { down.remove(at: position) }
      }
    }
    // What is delivered: the changed touches that are not ignored.
    deliver(&changed, at: time)
    scratch.putBack(records: &changed)
    flushHeldTouches()
    settle()
    scratch.releaseEventTouches()
    _checkInvariants()
  }

  /// Builds the event of the `changed` records, gives it to the recognizers
  /// and holds its snapshots for the views; drops ignored records from
  /// `changed`. The event lives only here and in the held snapshots, so once
  /// those are delivered its touches' storage can be reused.
  private func deliver(_ changed: inout [TouchRecord], at time: Double) {
    var allTouches = scratch.takeEventTouches()
    // By index here and below: a record is not retained to be read.
    for index in records.indices
    where !records[index].hostFinished || changed.contains(where: { $0 === records[index] }) {
      allTouches.append(records[index].touch)
    }
    // Most events have none (an empty array allocates nothing); a pen's or a browser's have some.
    var samples: [EventSamples] = []
    for index in changed.indices where !changed[index].coalesced.isEmpty || !changed[index].predicted.isEmpty {
      let record = changed[index]
      samples.append(EventSamples(identity: record.identity, coalesced: record.coalesced, predicted: record.predicted))
    }
    let event = Event(timestamp: time, allTouches: allTouches, samples: samples)
    scratch.putBack(eventTouches: allTouches)
    // Recognizers hear every touch, even one its view ignores.
    arbiter.deliver(changed, event: event)
    if changed.contains(where: { $0.isIgnored }) { changed.removeAll { $0.isIgnored } }
    var holds = false
    // Read in place: `changed` holds each record through the loop.
    for position in changed.indices where !changed[position].isWithdrawn {
      holds =
        Unmanaged.passUnretained(changed[position])._withUnsafeGuaranteedRef { record in
          if record.touch.phase == .cancelled && record.isUnheardOf {
            _ = record.withdraw()  // cancelled before the view heard of it: it never will
            return false
          }
          guard record.touch.phase != .stationary else { return false }
          let index = event.position(of: record.identity)
          record.held.append(
            HeldTouch(
              serial: eventSerial, index: index, phase: record.touch.phase, identity: record.identity,
              view: record.touch.view))
          return true
        } || holds
    }
    if holds { heldEvents.append(HeldEvent(serial: eventSerial, event: event)) }
  }

  /// The event of the held snapshots of `serial`.
  private func heldEvent(_ serial: Int) -> Event {
    var index = heldEvents.count - 1
    while index > 0 && heldEvents[index].serial != serial { index -= 1 }
    return heldEvents[index].event
  }

  /// Lets go of the events no held snapshot names any more, and with them
  /// their touches (a touch a recognizer holds back for good keeps only its
  /// own event).
  private func dropDeliveredEvents() {
    var kept = 0
    for index in heldEvents.indices {
      let serial = heldEvents[index].serial
      if records.contains(where: { record in record.held.contains { $0.serial == serial } }) {
        heldEvents.swapAt(kept, index)
        kept += 1
      }
    }
    while heldEvents.count > kept { heldEvents.removeLast() }
  }

  /// Moves time forward, firing due timers (a long press recognizing, a
  /// double-tap interval running out) and delivering what they release.
  public func advanceClock(to time: Double) {
    guard time.isFinite else { return }
    clock.advance(to: time)
    settle()
    _checkInvariants()
  }

  /// Cancels every touch still down, as when the host loses its input (the page is hidden).
  public func cancelAllTouches(at time: Double) {
    let inputs = records.filter { !$0.hostFinished }.map {
      TouchInput(id: $0.touch.hostID, phase: .cancelled, location: $0.touch.locationInWindow)
    }
    guard !inputs.isEmpty else { return }
    try? send(inputs, at: max(time, clock.now))
  }

  private func validate(_ inputs: [TouchInput], at time: Double) throws(TouchInputError) {
    guard time.isFinite else { throw .nonFiniteTime }
    guard time >= clock.now else { throw .timeWentBack(from: clock.now, to: time) }
    // By index: an input is not copied (its samples retained and released) to be checked.
    for index in inputs.indices {
      let id = inputs[index].id
      guard inputs[index].location.isFinite else { throw .nonFiniteLocation(id: id) }
      guard inputs[index].hasFiniteMeasurements else { throw .nonFiniteMeasurement(id: id) }
      // The ids before this one, searched in place: a handful of fingers, and no array per event.
      guard !inputs[..<index].contains(where: { $0.id == id }) else { throw .duplicate(id: id) }
      let phase = inputs[index].phase
      let isDown = downPosition(hostID: id) != nil
      if phase == .began && isDown { throw .alreadyBegan(id: id) }
      if phase != .began && !isDown { throw .notBegan(id: id, phase: phase) }
    }
  }

  private func beginTouch(_ input: TouchInput, at time: Double) -> TouchRecord {
    nextTouchSerial += 1
    let view = window.hitTest(input.location) ?? window
    menuController.touchBegan(in: view)
    window.rootViewController?.windowTouchBegan(in: view)
    // As in UIKit, `isMultipleTouchEnabled` and `isExclusiveTouch` gate only
    // views' touch methods: recognizers still see the touch.
    let isIgnored = records.contains { other in
      guard !other.hostFinished, !other.isIgnored, let otherView = other.touch.view else { return false }
      if otherView === view { return !view.isMultipleTouchEnabled }
      return view.isExclusiveTouch || otherView.isExclusiveTouch
    }
    var tapCount = 1
    if let lastTap, time - lastTap.time <= Application.multipleTapInterval,
      lastTap.location.distance(to: input.location) <= Application.multipleTapRadius
    {
      tapCount = lastTap.count + 1
    }
    let touch = Touch(
      identity: TouchIdentity(serial: nextTouchSerial), hostID: input.id, location: input.location,
      timestamp: time, tapCount: tapCount, view: view, type: input.type, hardware: input.hardware)
    let record = TouchRecord(
      touch: touch, recognizers: arbiter.recognizers(for: touch, in: view), isIgnored: isIgnored)
    record.beganLocation = input.location
    record.coalesced = input.coalesced
    record.predicted = input.predicted
    records.append(record)
    down.append(record)
    if observer != nil {
      // From the window down: counted first, then filled from the end (no insert at 0, 1 KB of wasm).
      var depth = 0
      var current: View? = view
      while let step = current {
        depth += 1
        current = step.superview
      }
      var path = [String](repeating: "", count: depth)
      current = view
      while let step = current {
        depth -= 1
        path[depth] = step.inspectorName
        current = step.superview
      }
      report(.touchBegan(TouchSummary(touch), path: path, ignored: isIgnored))
    }
    return record
  }

  /// Where the record of the host's touch `hostID` is in `down`, if it is
  /// down (a position, not the record: finding it retains nothing).
  private func downPosition(hostID: Int) -> Int? {
    down.firstIndex { $0.hostID == hostID }
  }

  private func rememberTap(_ record: TouchRecord) {
    let touch = record.touch
    if touch.phase == .ended
      && touch.locationInWindow.distance(to: record.beganLocation) <= Application.tapMovementTolerance
    {
      lastTap = LastTap(location: touch.locationInWindow, time: touch.timestamp, count: touch.tapCount)
    } else {
      lastTap = nil
    }
  }

  private func settle() {
    flushHeldTouches()
    arbiter.resetFinishedRecognizers()
    // Looked for first: most events finish no record, and removing in
    // place would make the array unique and visit every record.
    if records.contains(where: { $0.hostFinished && $0.held.isEmpty }) {
      records.removeAll { $0.hostFinished && $0.held.isEmpty }
    }
  }

  // MARK: Delivery to views

  /// Sends every held snapshot the recognizers no longer hold back, grouped
  /// the way it happened: one message per event, phase and view.
  func flushHeldTouches() {
    if isFlushing {
      needsAnotherFlush = true
      return
    }
    // Nothing held (as after the first flush of an event): nothing to
    // send, only events to let go of.
    if !records.contains(where: { !$0.held.isEmpty }) {
      if !heldEvents.isEmpty { dropDeliveredEvents() }
      return
    }
    isFlushing = true
    repeat {
      needsAnotherFlush = false
      var ready = scratch.takeHeld()
      let arbiter = self.arbiter
      // By index: a record with nothing held is not retained to be looked
      // at, and one with some is read in place: it stays in `records`
      // through the loop (nothing here removes a record).
      for index in records.indices where !records[index].held.isEmpty {
        Unmanaged.passUnretained(records[index])._withUnsafeGuaranteedRef { record in
          takeReleased(of: record, into: &ready, arbiter: arbiter)
        }
      }
      deliverGrouped(&ready)
      scratch.putBack(held: &ready)
    } while needsAnotherFlush
    isFlushing = false
    dropDeliveredEvents()
  }

  /// Moves the snapshots of `record` that no recognizer holds back any
  /// more, oldest first, into `ready` (all of a withdrawn record's go).
  private func takeReleased(of record: TouchRecord, into ready: inout [HeldTouch], arbiter: GestureArbiter) {
    if record.isWithdrawn {
      reportDropped(record)
      record.held.removeAll()
      return
    }
    var taken = 0
    while taken < record.held.count {
      let phase = record.held[taken].phase
      let holder =
        phase == .began ? arbiter.holderOfBegan(record) : phase == .ended ? arbiter.holderOfEnded(record) : nil
      if let holder {
        if observer != nil && !record.held[taken].wasHeld {
          record.held[taken].wasHeld = true
          report(.touchHeld(touch: record.hostID, phase: phase, by: holder.inspectorName))
        }
        break
      }
      taken += 1
    }
    guard taken > 0 else { return }
    // By index, one snapshot at a time: no slice or argument of
    // `held` to retain (snapshots are plain values).
    for position in 0..<taken {
      let item = record.held[position]
      record.delivered(item.phase)
      if item.wasHeld && observer != nil {
        report(.touchReleased(touch: record.hostID, phase: item.phase))
      }
      ready.append(item)
    }
    if taken == record.held.count {
      // Usually everything goes (one snapshot): nothing left to move
      // up, and the storage stays. `removeLast`, not `removeAll`: the
      // generic path of the latter cost more than the rest of the loop.
      while !record.held.isEmpty { record.held.removeLast() }
    } else {
      record.held.removeFirst(taken)
    }
  }

  /// Sends `items` to their views, one message per event, phase and view,
  /// in the order UIKit sends them, with their events (`heldEvents`, or
  /// `event` for all of them). Sorts `items` in place.
  private func deliverGrouped(_ items: inout [HeldTouch], event only: Event? = nil) {
    // Whether the item at `a` goes before the one at `b`.
    func precedes(_ a: Int, _ b: Int) -> Bool {
      if items[a].serial != items[b].serial { return items[a].serial < items[b].serial }
      let phaseA = items[a].phase
      let phaseB = items[b].phase
      if phaseA != phaseB { return phaseA.deliveryRank < phaseB.deliveryRank }
      return items[a].identity < items[b].identity
    }
    // An insertion sort: the items come nearly in order (each touch's in
    // order, touch after touch) and are few, and the standard library's
    // generic sort would cost the wasm about 3 KB. Items already in place
    // are not moved, so a sorted list is only read.
    for index in items.indices.dropFirst() where precedes(index, index - 1) {
      var slot = index
      while slot > 0 && precedes(slot, slot - 1) {
        items.swapAt(slot, slot - 1)
        slot -= 1
      }
    }
    var start = 0
    while start < items.count {
      var end = start + 1
      let serial = items[start].serial
      let phase = items[start].phase
      while end < items.count, items[end].serial == serial, items[end].phase == phase,
        items[end].view == items[start].view
      {
        end += 1
      }
      let event = only ?? heldEvent(serial)
      if let view = event.allTouches[items[start].index].view, phase != .stationary {
        var touches = scratch.takeTouches()
        // Usually the message holds every touch of its event, in order: the
        // event's own array, not copies (each copy retains the touch's view).
        var whole = end - start == event.allTouches.count
        for index in start..<end where whole { whole = items[index].index == index - start }
        if !whole {
          for index in start..<end { touches.append(event.allTouches[items[index].index]) }
        }
        let given = whole ? event.allTouches : touches
        if observer != nil { reportMessage(phase, to: view, given) }
        switch phase {
        case .began: view.touchesBegan(given, with: event)
        case .moved: view.touchesMoved(given, with: event)
        case .ended: view.touchesEnded(given, with: event)
        case .cancelled: view.touchesCancelled(given, with: event)
        case .stationary: break
        }
        scratch.putBack(touches: &touches)
      }
      start = end
    }
  }

  private func reportMessage(_ phase: TouchPhase, to view: View, _ touches: [Touch]) {
    let method: TouchMethod =
      switch phase {
      case .began: .began
      case .moved, .stationary: .moved
      case .ended: .ended
      case .cancelled: .cancelled
      }
    report(.touchesSent(method, view: view.inspectorName, touches: touches.map { TouchSummary($0) }))
  }

  /// Reports the phases of `record` still held back, which its view will now never hear.
  private func reportDropped(_ record: TouchRecord) {
    guard observer != nil else { return }
    for item in record.held {
      report(.touchDropped(touch: record.hostID, phase: item.phase))
    }
  }

  /// A recognizer recognized: its touches are taken from their views. Views
  /// that already heard of a touch get `touchesCancelled`; the rest never will.
  func cancelTouchesInView(_ identities: [TouchIdentity]) {
    cancelForViews { identities.contains($0.identity) }
  }

  /// `view` is leaving the window: touches owned by it or its subviews are
  /// cancelled for their views, and their views hear nothing more.
  func cancelTouches(inViewLeavingWindow view: View) {
    cancelForViews { record in record.touch.view.map { $0.isDescendant(of: view) } ?? false }
  }

  private func cancelForViews(where shouldCancel: (TouchRecord) -> Bool) {
    var cancelled: [HeldTouch] = []
    var touches: [Touch] = []
    for record in records where !record.isWithdrawn && shouldCancel(record) {
      reportDropped(record)
      if record.withdraw() {
        var touch = record.touch
        touch.phase = .cancelled
        cancelled.append(HeldTouch(serial: eventSerial, index: touches.count, of: touch))
        touches.append(touch)
      }
    }
    // One event of the touches cancelled together, each view's message with its own.
    if !cancelled.isEmpty { deliverGrouped(&cancelled, event: Event(timestamp: clock.now, allTouches: touches)) }
  }

  /// A recognizer that delays began touches recognized without cancelling:
  /// touches the view has not heard of yet are dropped.
  func dropHeldBegans(_ identities: [TouchIdentity]) {
    for record in records where identities.contains(record.identity) && record.isUnheardOf {
      reportDropped(record)
      _ = record.withdraw()
    }
  }

  // MARK: First responder and actions

  func setFirstResponder(_ responder: Responder?) -> Bool {
    if observer != nil && responder !== firstResponder {
      report(.firstResponder(from: firstResponder?.inspectorName, to: responder?.inspectorName))
    }
    firstResponder = responder
    return true
  }

  /// Sends `action` to `target`, or, when `target` is nil, to the first
  /// responder that can perform it along the first responder's chain
  /// (starting at `sender` if nothing is first responder). Returns whether
  /// anyone performed it.
  @discardableResult
  public func sendAction(_ action: Action, to target: Responder?, from sender: AnyObject?) -> Bool {
    if let target {
      if observer != nil { reportAction(action, from: sender, asked: [target], handler: target) }
      target.perform(action, withSender: sender)
      return true
    }
    let start = firstResponder ?? (sender as? Responder)
    let handler = start?.target(forAction: action, withSender: sender)
    if observer != nil {
      // The chain walked, as `target(forAction:withSender:)` walked it.
      var asked: [Responder] = []
      var current = start
      while let responder = current {
        asked.append(responder)
        if responder === handler { break }
        current = responder.next
      }
      reportAction(action, from: sender, asked: asked, handler: handler)
    }
    guard let handler else { return false }
    handler.perform(action, withSender: sender)
    return true
  }

  /// An action sent to `handler` (or to nobody) after asking `asked`.
  func reportAction(_ action: Action, from sender: AnyObject?, asked: [Responder], handler: Responder?) {
    let senderName =
      if let recognizer = sender as? GestureRecognizer {
        recognizer.inspectorName
      } else if let responder = sender as? Responder {
        responder.inspectorName
      } else {
        "the host"
      }
    report(
      .actionSent(
        action: action.name, sender: senderName, asked: asked.map { $0.inspectorName },
        handler: handler?.inspectorName))
  }
}

private struct LastTap {
  let location: Point
  let time: Double
  let count: Int
}

extension TouchPhase {
  /// UIKit sends began, then moved, then ended, then cancelled messages for one event.
  fileprivate var deliveryRank: Int {
    switch self {
    case .began: 0
    case .moved: 1
    case .stationary: 2
    case .ended: 3
    case .cancelled: 4
    }
  }
}
