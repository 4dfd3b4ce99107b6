/// What a store tells whoever watches its own work (the server's
/// `/metrics`): the folds of change logs into snapshots, and, for
/// PostgreSQL, how its calls use the connection pool. Called from any task;
/// each call must be cheap and must not wait.
///
/// The pool's own state (connections open, idle) is not observable through
/// `PostgresClient`, so the store reports what it can see honestly: each of
/// its calls asking for a connection, getting one (or failing to) after a
/// wait, and giving it back.
public protocol StoreObserver: Sendable {
  /// A fold of a drawing's log ended, `elapsed` after it began.
  func compaction(_ trigger: CompactionTrigger, outcome: CompactionOutcome, elapsed: Duration)
  /// The pool's limit (PostgreSQL), told once when the store opens.
  func poolOpened(maximumConnections: Int)
  /// A call asked the pool for a connection.
  func poolWaitBegan()
  /// The wait `poolWaitBegan` told of ended after `waited`: with a
  /// connection, or with an error (the pool could not open one, or the
  /// call was cancelled).
  func poolWaitEnded(waited: Duration, gotConnection: Bool)
  /// A call gave its connection back to the pool.
  func poolConnectionReturned()
}

/// Why a fold ran.
public enum CompactionTrigger: String, Sendable, CaseIterable {
  /// An append took the log past the policy's limits (or the store found
  /// such a log when it opened): the background fold.
  case log
  /// A read replayed the log and stores what it folded.
  case read
  /// A caller asked (`compact(_:)`).
  case call
}

/// How a fold ended.
public enum CompactionOutcome: String, Sendable, CaseIterable {
  /// A new snapshot was stored.
  case folded
  /// Nothing to fold: no drawing, an empty log, a log within its limits,
  /// or the drawing was replaced meanwhile.
  case skipped
  /// The log could not be read or the snapshot stored; the log stays.
  case failed
}

/// The observer of a store nobody watches.
public struct NoStoreObserver: StoreObserver {
  public init() {}
  public func compaction(_ trigger: CompactionTrigger, outcome: CompactionOutcome, elapsed: Duration) {}
  public func poolOpened(maximumConnections: Int) {}
  public func poolWaitBegan() {}
  public func poolWaitEnded(waited: Duration, gotConnection: Bool) {}
  public func poolConnectionReturned() {}
}

extension StoreObserver {
  /// Runs the fold `body` (true: it stored a snapshot) and tells of it.
  func observeCompaction(_ trigger: CompactionTrigger, _ body: () async throws -> Bool) async throws {
    let start = ContinuousClock.now
    do {
      let folded = try await body()
      compaction(trigger, outcome: folded ? .folded : .skipped, elapsed: ContinuousClock.now - start)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      compaction(trigger, outcome: .failed, elapsed: ContinuousClock.now - start)
      throw error
    }
  }
}
