/// The order in which responder messages arrive, written down for learners
/// ("touchesBegan(_:with:) [1]"). Off by default: it costs a string a message.
public final class EventLog {
  public var isEnabled = false
  public private(set) var entries: [String] = []
  /// Called with each entry as it is written (the CLI prints to stderr).
  public var sink: ((String) -> Void)?

  public init() {}

  public func write(_ entry: @autoclosure () -> String) {
    guard isEnabled else { return }
    let text = entry()
    entries.append(text)
    sink?(text)
  }

  /// "touchesBegan(_:with:) [1, 2]" with the touches' host ids.
  func write(_ method: String, _ touches: [Touch]) {
    write("\(method) [\(touches.map { String($0.hostID) }.joined(separator: ", "))]")
  }
}
