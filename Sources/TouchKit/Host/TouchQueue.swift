/// The touches the page reported since the last commit, to be delivered as
/// one event.
///
/// A browser reports each finger separately; fingers that land in the same
/// animation frame are queued here and delivered together, so two fingers
/// that land together become one event with two began touches (a circle).
/// An event names each touch once, so a second report of the same finger in
/// one frame (a coalesced move, a quick tap) closes the event before it.
struct TouchQueue {
  private(set) var inputs: [TouchInput] = []
  /// The latest timestamp among the queued touches.
  private(set) var time = 0.0

  var isEmpty: Bool { inputs.isEmpty }

  func contains(id: Int) -> Bool { inputs.contains { $0.id == id } }

  mutating func append(_ input: TouchInput, at time: Double) {
    self.time = inputs.isEmpty ? time : max(self.time, time)
    inputs.append(input)
  }

  /// Empties the queue, returning what it held.
  mutating func take() -> [TouchInput] {
    defer { inputs.removeAll(keepingCapacity: true) }
    return inputs
  }
}
