import Prometheus
import TouchTrackerStore

/// The store's own work as it tells of it: folds of change logs into
/// snapshots, and how its calls use PostgreSQL's connection pool.
extension ServerMetrics: StoreObserver {
  func compaction(_ trigger: CompactionTrigger, outcome: CompactionOutcome, elapsed: Duration) {
    registry.makeCounter(
      descriptor: Self.name(
        "compactions", "total",
        "Folds of a drawing's change log into a snapshot, by trigger (log, read, call) and outcome (folded, skipped, failed)."
      ),
      labels: [("trigger", trigger.rawValue), ("outcome", outcome.rawValue)]
    ).increment()
    registry.makeDurationHistogram(
      descriptor: Self.name("compaction_duration", "seconds", "Time a fold took, by trigger."),
      labels: [("trigger", trigger.rawValue)], buckets: Self.buckets
    ).record(elapsed)
  }

  func poolOpened(maximumConnections: Int) {
    registry.makeGauge(
      descriptor: Self.name("postgres_pool_connections", "max", "The PostgreSQL pool's limit of connections."),
      labels: []
    ).set(to: Double(maximumConnections))
    _ = inUse
    _ = waiting
  }

  func poolWaitBegan() {
    waiting.increment()
  }

  func poolWaitEnded(waited: Duration, gotConnection: Bool) {
    waiting.decrement()
    if gotConnection { inUse.increment() }
    registry.makeCounter(
      descriptor: Self.name(
        "postgres_pool_acquisitions", "total",
        "Connections the store's calls asked the pool for, by outcome (ok; error: none came, the pool could not open one or the call was cancelled)."
      ),
      labels: [("outcome", gotConnection ? "ok" : "error")]
    ).increment()
    registry.makeDurationHistogram(
      descriptor: Self.name(
        "postgres_pool_wait_duration", "seconds", "Time a store call waited for a connection from the pool."),
      labels: [], buckets: Self.buckets
    ).record(waited)
  }

  func poolConnectionReturned() {
    inUse.decrement()
  }

  private var inUse: Gauge {
    registry.makeGauge(
      descriptor: Self.name(
        "postgres_pool_connections_in_use", "", "Connections the store's calls hold now (PostgreSQL)."),
      labels: [])
  }

  private var waiting: Gauge {
    registry.makeGauge(
      descriptor: Self.name(
        "postgres_pool_waiting", "", "Store calls waiting for a connection from the pool now (PostgreSQL)."),
      labels: [])
  }
}
