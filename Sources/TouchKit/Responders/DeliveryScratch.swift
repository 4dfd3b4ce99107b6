/// The arrays one event's delivery needs, kept from event to event so that
/// a touch update in steady state allocates nothing.
///
/// Each is taken out while in use and put back empty, keeping its capacity.
/// Taking leaves an empty array behind, so a delivery that starts inside
/// another (a view sending an event from `touchesMoved`) gets fresh arrays
/// and never shares one in use: it only allocates, as the code did before.
/// An array a callee kept (a view storing the touches it was given) is
/// copied on the next write, as arrays always are, so keeping one is safe.
struct DeliveryScratch {
  private var records: [TouchRecord] = []
  private var held: [HeldTouch] = []
  private var touches: [Touch] = []
  /// The last event's `allTouches`, shared with that event while it lives.
  private var eventTouches: [Touch] = []

  mutating func takeRecords() -> [TouchRecord] { Self.take(&records) }
  mutating func putBack(records taken: inout [TouchRecord]) { Self.putBack(&taken, into: &records) }

  mutating func takeHeld() -> [HeldTouch] { Self.take(&held) }
  mutating func putBack(held taken: inout [HeldTouch]) { Self.putBack(&taken, into: &held) }

  mutating func takeTouches() -> [Touch] { Self.take(&touches) }
  mutating func putBack(touches taken: inout [Touch]) { Self.putBack(&taken, into: &touches) }

  /// An empty array for an event's touches, with the last event's storage
  /// when that event is gone (the array is then not shared, and emptying it
  /// keeps its capacity without copying).
  mutating func takeEventTouches() -> [Touch] {
    var taken = Self.take(&eventTouches)
    taken.removeAll(keepingCapacity: true)
    return taken
  }

  /// Keeps the storage of `allTouches`, which the event shares until it is delivered.
  mutating func putBack(eventTouches allTouches: [Touch]) { eventTouches = allTouches }

  /// Lets go of the last event's touches (their views) once it is
  /// delivered; its storage stays for the next event.
  mutating func releaseEventTouches() { eventTouches.removeAll(keepingCapacity: true) }

  private static func take<Element>(_ array: inout [Element]) -> [Element] {
    var taken: [Element] = []
    swap(&taken, &array)
    return taken
  }

  private static func putBack<Element>(_ taken: inout [Element], into array: inout [Element]) {
    taken.removeAll(keepingCapacity: true)
    swap(&taken, &array)
  }
}
