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

  mutating func removeAll() { entries.removeAll() }
}
