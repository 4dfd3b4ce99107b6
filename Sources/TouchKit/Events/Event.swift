/// One touch event: the touches that changed together, plus every other touch
/// that was down at that moment.
public struct Event {
  /// When the event happened, in seconds on the application's clock: the
  /// time the host gave `Application.send(_:at:)`.
  public let timestamp: Double
  /// Every touch down during this event, changed or not, in the order they began.
  public let allTouches: [Touch]
  /// The host's samples of the touches that came with them, in this event
  /// rather than in each snapshot: a snapshot is copied several times an
  /// update, and two arrays in it were two more retains and releases each.
  let samples: [EventSamples]

  /// An event of `allTouches` at `timestamp`, without coalesced or predicted
  /// samples: for calling a responder's or recognizer's touch methods
  /// directly, as a test does.
  public init(timestamp: Double, allTouches: [Touch]) {
    self.init(timestamp: timestamp, allTouches: allTouches, samples: [])
  }

  init(timestamp: Double, allTouches: [Touch], samples: [EventSamples]) {
    self.timestamp = timestamp
    self.allTouches = allTouches
    self.samples = samples
  }

  /// Whether `allTouches` are the touches of `records` in `phase`, in
  /// their order, and no others: then a message with those touches can be
  /// given `allTouches` itself, without copying a touch (each copy retains
  /// its view).
  func holdsExactly(_ records: [TouchRecord], in phase: TouchPhase) -> Bool {
    var index = 0
    // By index: a record is not retained to be read.
    for position in records.indices where records[position].touch.phase == phase {
      guard index < allTouches.count, allTouches[index].identity == records[position].identity else { return false }
      index += 1
    }
    return index == allTouches.count
  }

  /// Where the touch of `identity` is in `allTouches`.
  func position(of identity: TouchIdentity) -> Int {
    var index = 0
    while index < allTouches.count && allTouches[index].identity != identity { index += 1 }
    return index
  }

  /// Whether the host coalesced samples of any touch into this event (most
  /// events have none): a hot path skips `coalescedSamples(of:)` when not.
  public var hasCoalescedSamples: Bool { !samples.isEmpty }

  /// The host's samples of `identity`'s touch since the previous event,
  /// oldest first, without the event's own snapshot; empty in most events.
  public func coalescedSamples(of identity: TouchIdentity) -> [TouchSample] {
    samples(of: identity)?.coalesced ?? []
  }

  private func samples(of identity: TouchIdentity) -> EventSamples? {
    samples.first { $0.identity == identity }
  }

  /// The touches of this event that belong to `view`.
  public func touches(for view: View) -> [Touch] {
    allTouches.filter { $0.view === view }
  }

  /// Every position the host reported for `touch` since the previous event,
  /// oldest first, ending with the event's own snapshot of it (UIKit's
  /// `coalescedTouches(for:)`); just that snapshot when the host reported
  /// no more, and empty for a touch not in this event.
  public func coalescedTouches(for touch: Touch) -> [Touch] {
    guard let current = allTouches.first(where: { $0.identity == touch.identity }) else { return [] }
    var touches: [Touch] = []
    let coalesced = coalescedSamples(of: current.identity)
    touches.reserveCapacity(coalesced.count + 1)
    // Each sample comes from the one before it; the first from the previous event.
    var previous = current.previousLocationInWindow
    for sample in coalesced {
      touches.append(current.at(sample, from: previous))
      previous = sample.location
    }
    var last = current
    last.previousLocationInWindow = previous
    touches.append(last)
    return touches
  }

  /// Where the host expects `touch` to be next, soonest first (UIKit's
  /// `predictedTouches(for:)`); often empty.
  public func predictedTouches(for touch: Touch) -> [Touch] {
    guard let current = allTouches.first(where: { $0.identity == touch.identity }) else { return [] }
    var touches: [Touch] = []
    var previous = current.locationInWindow
    for sample in samples(of: current.identity)?.predicted ?? [] {
      touches.append(current.at(sample, from: previous))
      previous = sample.location
    }
    return touches
  }
}

/// The samples one touch came with in an event (`TouchInput.coalesced`
/// and `predicted`).
struct EventSamples {
  let identity: TouchIdentity
  let coalesced: [TouchSample]
  let predicted: [TouchSample]
}

/// What a host reports about one touch: its id, its phase and where it is in
/// window coordinates, and, from hardware that reports them, what made it,
/// its force and angles, and the samples between events.
public struct TouchInput: Hashable, Sendable {
  /// The host's id for the touch (a pointer id), the same from its began to
  /// its end or cancellation. A host may use the id again once the touch is over.
  public var id: Int
  /// What the touch did: `.began` for a new touch; `.moved` or
  /// `.stationary` while it is down; then `.ended` or `.cancelled`, once.
  public var phase: TouchPhase
  /// Where the touch is, in window coordinates (points).
  public var location: Point
  /// Read when the touch begins; a touch keeps its type for its life.
  public var type = TouchType.direct
  /// Read on every phase but `cancelled` (a cancellation is not a measurement).
  public var hardware = TouchHardware.unknown
  /// Samples the host reported since the previous event, oldest first,
  /// without the one in `location` (`Event.coalescedTouches(for:)`).
  public var coalesced: [TouchSample] = []
  /// Where the host expects the touch next (`Event.predictedTouches(for:)`).
  public var predicted: [TouchSample] = []

  /// A report of one touch. Everything but the id, the phase and the
  /// location is optional.
  public init(
    id: Int, phase: TouchPhase, location: Point, type: TouchType = .direct, hardware: TouchHardware = .unknown,
    coalesced: [TouchSample] = [], predicted: [TouchSample] = []
  ) {
    self.id = id
    self.phase = phase
    self.location = location
    self.type = type
    self.hardware = hardware
    self.coalesced = coalesced
    self.predicted = predicted
  }

  /// A report of a finger at (`x`, `y`) in window coordinates, with no
  /// other measurements.
  public init(id: Int, phase: TouchPhase, x: Double, y: Double) {
    self.init(id: id, phase: phase, location: Point(x: x, y: y))
  }

  /// Whether the force, the angles and every sample are finite numbers.
  var hasFiniteMeasurements: Bool {
    guard hardware.isFinite else { return false }
    for sample in coalesced where !sample.isFinite { return false }
    for sample in predicted where !sample.isFinite { return false }
    return true
  }
}

/// Input the application refuses, so a broken host or trace cannot corrupt
/// the responders' view of which fingers are down.
public enum TouchInputError: Error, Equatable, Sendable {
  /// A coordinate of touch `id`'s location is NaN or infinite.
  case nonFiniteLocation(id: Int)
  /// Touch `id`'s force or angles, or a coalesced or predicted sample's
  /// location, time, force or angles, are NaN or infinite.
  case nonFiniteMeasurement(id: Int)
  /// Touch `id` began while a touch of that id is down.
  case alreadyBegan(id: Int)
  /// Touch `id` moved, stayed, ended or was cancelled (`phase`) while no
  /// touch of that id is down.
  case notBegan(id: Int, phase: TouchPhase)
  /// Touch `id` appears twice in one event.
  case duplicate(id: Int)
  /// The event's time `to` is earlier than the clock's time `from`.
  case timeWentBack(from: Double, to: Double)
  /// The event's time is NaN or infinite.
  case nonFiniteTime

  /// One sentence naming the problem, for people.
  public var message: String {
    switch self {
    case .nonFiniteLocation(let id): "Touch \(id) has a non-finite location"
    case .nonFiniteMeasurement(let id): "Touch \(id) has a non-finite force, angle or sample"
    case .alreadyBegan(let id): "Touch \(id) began again before it ended"
    case .notBegan(let id, let phase):
      "Touch \(id) \(phase == .stationary ? "was stationary" : phase.name) before it began"
    case .duplicate(let id): "Touch \(id) appears twice in one event"
    case .timeWentBack(let from, let to): "Time went back from \(NumberText.format(from)) to \(NumberText.format(to))"
    case .nonFiniteTime: "Time is not a finite number"
    }
  }
}
