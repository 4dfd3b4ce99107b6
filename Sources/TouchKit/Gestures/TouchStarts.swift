/// Where each tracked touch came down.
///
/// A recognizer tracks a handful of fingers, so a small array is as fast as
/// a dictionary here, and it keeps `Dictionary`'s generic code (tens of KB)
/// out of the WebAssembly module.
struct TouchStarts {
  private var entries: [(identity: TouchIdentity, location: Point)] = []

  subscript(identity: TouchIdentity) -> Point? {
    get { entries.first { $0.identity == identity }?.location }
    set {
      entries.removeAll { $0.identity == identity }
      if let newValue { entries.append((identity, newValue)) }
    }
  }

  var isEmpty: Bool { entries.isEmpty }

  /// The centroid of the starts (zero when there are none).
  var centroid: Point {
    guard !entries.isEmpty else { return .zero }
    var sum = Point.zero
    for entry in entries { sum += entry.location }
    return sum * (1 / Double(entries.count))
  }

  mutating func removeAll() { entries.removeAll() }
}
