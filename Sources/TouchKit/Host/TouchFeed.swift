/// Touches from a host that reports each finger on its own (a browser's
/// pointer events), delivered to an application as UIKit's events.
///
/// Fingers reported between two `commit(at:to:)` calls (an animation frame)
/// become one event: two fingers that land together are one event with two
/// began touches. A second report of the same finger closes the event before
/// it. Everything is checked first, so nothing a host hands over traps or
/// makes the application refuse a whole event with other fingers in it: an
/// unknown phase, NaN, a move of a finger that is not down, and a finger
/// that begins again without having ended (its lost end is a cancellation).
///
/// ```swift
/// var feed = TouchFeed()
/// // pointerdown, pointermove, ...:
/// feed.report(id: 1, phaseCode: 0, location: Point(x: 10, y: 20), time: 0.5, to: application)
/// // once a frame:
/// feed.commit(at: 0.51, to: application)
/// ```
public struct TouchFeed {
  /// What became of one report; a host stops tracking a pointer whose
  /// report says it is not down.
  public enum Status: Int32, CaseIterable, Sendable {
    /// Queued for the next commit (or, from `commit`, delivered).
    case queued = 0
    /// The phase number is no `TouchPhase`'s raw value.
    case unknownPhase = 1
    /// NaN or infinite location or time.
    case notFinite = 2
    /// A move, end or cancellation of a finger that is not down.
    case notDown = 3
    /// The application refused the event it closed (`lastError` says why);
    /// the fingers in it keep their previous state.
    case refused = 4

    /// The status's name, as a host's code spells it.
    public var name: String {
      switch self {
      case .queued: "queued"
      case .unknownPhase: "unknownPhase"
      case .notFinite: "notFinite"
      case .notDown: "notDown"
      case .refused: "refused"
      }
    }
  }

  private var queue = TouchQueue()
  private var down = FingersDown()
  /// Why the last report or commit that was not `.queued` was ignored.
  public private(set) var lastError = ""
  /// Called with each event's touches and time once the application has taken them (a recorder's hook).
  public var onDeliver: (([TouchInput], Double) -> Void)?

  /// A feed with no finger down.
  public init() {}

  /// How many fingers the application has down, as far as this feed delivered them.
  public var touchesDown: Int { down.count }

  /// Where finger `id` was when last delivered; nil when it is not down.
  public func lastLocation(ofTouch id: Int) -> Point? { down[id] }

  /// Queues one finger's change (`phaseCode`: a `TouchPhase` raw value)
  /// for the next commit, with its type, hardware and samples.
  @discardableResult
  public mutating func report(
    id: Int, phaseCode: Int32, location: Point, time: Double, type: TouchType = .direct,
    hardware: TouchHardware = .unknown, coalesced: [TouchSample] = [], predicted: [TouchSample] = [],
    to application: Application
  ) -> Status {
    guard let phase = TouchPhase(rawValue: phaseCode) else {
      return ignore(.unknownPhase, "Unknown phase \(phaseCode) for touch \(id)")
    }
    guard location.isFinite, time.isFinite else {
      return ignore(.notFinite, "Touch \(id) has a non-finite location or time")
    }
    if queue.contains(id: id), commit(at: time, to: application) == .refused { return .refused }
    if phase == .began, let stale = down[id] {
      // The host never said this finger lifted: it cannot go on.
      queue.append(TouchInput(id: id, phase: .cancelled, location: stale), at: time)
      commit(at: time, to: application)
    }
    if phase != .began && down[id] == nil {
      return ignore(.notDown, "Touch \(id) \(phase.name) before it began")
    }
    queue.append(
      TouchInput(
        id: id, phase: phase, location: location, type: type, hardware: hardware, coalesced: coalesced,
        predicted: predicted), at: time)
    return .queued
  }

  /// Delivers the queued touches as one event, at the latest of `time`, the
  /// queued touches' timestamps and the application's clock (time never
  /// goes back). `.queued` when delivered (or nothing was queued),
  /// `.refused` when the application refused the event.
  @discardableResult
  public mutating func commit(at time: Double, to application: Application) -> Status {
    guard !queue.isEmpty else { return .queued }
    var eventTime = max(queue.time, application.clock.now)
    if time.isFinite { eventTime = max(eventTime, time) }
    let inputs = queue.take()
    do {
      try application.send(inputs, at: eventTime)
      onDeliver?(inputs, eventTime)
    } catch {
      // Out of step with the application (only a bug gets here): forget the
      // fingers it does not have down, so the host stops reporting them.
      for input in inputs where !application.isTouchDown(hostID: input.id) { down[input.id] = nil }
      return ignore(.refused, error.message)
    }
    for input in inputs {
      down[input.id] = input.phase.isFinal ? nil : input.location
    }
    return .queued
  }

  /// Forgets every queued report and every finger down (the application
  /// was replaced, or its touches were cancelled).
  public mutating func removeAll() {
    queue = TouchQueue()
    down.removeAll()
  }

  private mutating func ignore(_ status: Status, _ message: String) -> Status {
    lastError = message
    return status
  }
}
