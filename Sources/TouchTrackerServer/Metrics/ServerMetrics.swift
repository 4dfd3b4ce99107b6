import Foundation
import Prometheus
import TouchTrackerStore

/// What an operator scrapes at `/metrics` (the Prometheus text format):
/// requests by route, method and status with their durations, store calls
/// with theirs and their failures, appends and their replays, the folds
/// of change logs (`StoreObserver`), PostgreSQL's pool as the store uses
/// it, live rooms, clients and messages, and the build. The metrics are
/// listed in docs/OPERATING.md.
/// Each server has its own registry (no process-wide bootstrap), so tests
/// run many servers in one process.
final class ServerMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  private let rooms: Gauge
  private let clients: Gauge
  /// Live messages in and out (`LiveConnection`).
  let live: LiveMessageCounters

  /// Buckets from a millisecond to ten seconds.
  static let buckets: [Duration] = [
    .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
    .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
    .seconds(10),
  ]

  init() {
    rooms = registry.makeGauge(
      descriptor: Self.name("live_rooms", "", "Drawings with at least one live socket."), labels: [])
    clients = registry.makeGauge(
      descriptor: Self.name("live_clients", "", "Live sockets open, over all drawings."), labels: [])
    registry.makeGauge(
      descriptor: Self.name("build", "info", "The server's version; always 1."),
      labels: [("version", TouchTrackerVersion.current)]
    ).set(to: 1.0)
    live = LiveMessageCounters(registry: registry)
  }

  static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
    MetricNameDescriptor(namespace: "touchtracker", metricName: metric, unitName: unit, helpText: help)
  }

  /// One answered request.
  func request(route: String, method: String, status: Int, elapsed: Duration) {
    registry.makeCounter(
      descriptor: Self.name("http_requests", "total", "Requests answered, by route, method and status."),
      labels: [("route", route), ("method", method), ("status", String(status))]
    ).increment()
    registry.makeDurationHistogram(
      descriptor: Self.name("http_request_duration", "seconds", "Time to answer a request, by route and status."),
      labels: [("route", route), ("status", String(status))], buckets: Self.buckets
    ).record(elapsed)
  }

  /// One call to the store (`MeasuredStorage`): its duration, and whether it failed.
  func storeCall(_ operation: String, elapsed: Duration, failed: Bool) {
    registry.makeCounter(
      descriptor: Self.name("store_calls", "total", "Calls to the store, by operation and outcome (ok, error)."),
      labels: [("operation", operation), ("outcome", failed ? "error" : "ok")]
    ).increment()
    registry.makeDurationHistogram(
      descriptor: Self.name("store_call_duration", "seconds", "Time a store call took, by operation."),
      labels: [("operation", operation)], buckets: Self.buckets
    ).record(elapsed)
  }

  /// What appending `batches` did: the changes appended, and the batches
  /// whose idempotency key was appended before (a client's retry, answered
  /// without appending again).
  func appended(_ batches: [ChangeBatch], _ results: [Result<AppendedBatch, any Error>]) {
    var changes = 0
    var replays = 0
    for (batch, result) in zip(batches, results) {
      guard case .success(let appended) = result else { continue }
      changes += appended.count
      if appended.count == 0, batch.key != nil, !batch.changes.isEmpty { replays += 1 }
    }
    registry.makeCounter(
      descriptor: Self.name("changes_appended", "total", "Changes appended to drawings' logs (by POST or live)."),
      labels: []
    ).increment(by: Int64(changes))
    registry.makeCounter(
      descriptor: Self.name(
        "append_replays", "total",
        "Batches sent again with an idempotency key already appended (a client's retry): answered, not appended."),
      labels: []
    ).increment(by: Int64(replays))
  }

  /// The text to serve, with the live gauges as they are now.
  func exposition(rooms: Int, clients: Int) -> [UInt8] {
    self.rooms.set(to: Double(rooms))
    self.clients.set(to: Double(clients))
    return registry.emitToBuffer()
  }

  /// The route a path belongs to, with the drawing's name left out: labels
  /// must not grow with the number of drawings.
  static func route(of path: String) -> String {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    guard parts.first == "api" else {
      switch path {
      case "/healthz", "/metrics": return path
      default: return "page"
      }
    }
    guard parts.count >= 2, parts[1] == "drawings" else { return "/api/other" }
    switch parts.count {
    case 2: return "/api/drawings"
    case 3: return "/api/drawings/{name}"
    case 4:
      let tail = parts[3]
      return ["changes", "rename", "thumbnail", "links", "live"].contains(tail)
        ? "/api/drawings/{name}/\(tail)" : "/api/drawings/{name}/other"
    default: return "/api/drawings/{name}/other"
    }
  }
}
