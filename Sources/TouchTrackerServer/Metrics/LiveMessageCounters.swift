import Prometheus

/// The live sockets' messages, counted by type as they are read and
/// written (`touchtracker_live_messages_received_total`, `..._sent_total`),
/// the frames written, the sockets closed for breaking a rule, and the
/// sockets too slow to read what they were sent. The counters of every type exist from the
/// start, so a message costs a dictionary lookup and an atomic add, not
/// the registry's lock.
struct LiveMessageCounters: Sendable {
  private let received: [String: Counter]
  private let sent: [String: Counter]
  private let framesSent: Counter
  private let refusedSockets: Counter
  private let slowSockets: [String: Counter]

  /// What a client sends (`ClientMessage`).
  static let receivedTypes = ["hello", "changes", "presence", "ping"]
  /// What the server sends (`ServerMessage`).
  static let sentTypes = [
    "welcome", "changes", "ack", "reset", "presence", "leave", "error", "renamed", "pong", "other",
  ]

  init(registry: PrometheusCollectorRegistry) {
    func counters(_ name: String, _ help: String, _ types: [String], label: String = "type") -> [String: Counter] {
      Dictionary(
        uniqueKeysWithValues: types.map { type in
          (
            type,
            registry.makeCounter(
              descriptor: MetricNameDescriptor(
                namespace: "touchtracker", metricName: name, unitName: "total", helpText: help),
              labels: [(label, type)])
          )
        })
    }
    received = counters(
      "live_messages_received", "Messages read from live sockets and decoded, by type.", Self.receivedTypes)
    sent = counters("live_messages_sent", "Messages written to live sockets, by type.", Self.sentTypes)
    framesSent = registry.makeCounter(
      descriptor: MetricNameDescriptor(
        namespace: "touchtracker", metricName: "live_frames_sent", unitName: "total",
        helpText: "WebSocket frames written to live sockets (a batching client gets several messages a frame)."),
      labels: [])
    refusedSockets = registry.makeCounter(
      descriptor: MetricNameDescriptor(
        namespace: "touchtracker", metricName: "live_sockets_refused", unitName: "total",
        helpText:
          "Live sockets closed for breaking a rule (a message that does not decode, over the rate, changes before hello, a key that opens nothing...)."
      ),
      labels: [])
    slowSockets = counters(
      "live_slow_sockets",
      "Live sockets whose queue overflowed, by what the server did: reset (told to read the drawing again) or closed (never said hello).",
      ["reset", "closed"], label: "outcome")
  }

  /// One message read, of `type` (`receivedTypes`).
  func received(_ type: String) {
    received[type]?.increment()
  }

  /// A socket's queue overflowed: `reset` (it is told to read the drawing
  /// again) or `closed`.
  func slow(_ outcome: String) {
    slowSockets[outcome]?.increment()
  }

  /// A socket closed for breaking a rule.
  func refused() {
    refusedSockets.increment()
  }

  /// `texts` written in `frames` frames.
  func sent(_ texts: [String], frames: Int) {
    for text in texts { (sent[Self.type(of: text)] ?? sent["other"])?.increment() }
    framesSent.increment(by: Int64(frames))
  }

  /// The type of a message as `ServerMessage.text` writes it
  /// (`{"type":"NAME",...`), without parsing the rest.
  static func type(of text: String) -> String {
    let prefix = #"{"type":""#
    guard text.hasPrefix(prefix) else { return "other" }
    let rest = text.utf8.dropFirst(prefix.utf8.count)
    guard let end = rest.firstIndex(of: UInt8(ascii: "\"")) else { return "other" }
    return String(Substring(rest[..<end]))
  }
}
