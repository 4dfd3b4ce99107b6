import Foundation
import NIOConcurrencyHelpers
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// What a store tells its observer (the server's `/metrics`): each fold
/// with why it ran and how it ended, on both backends, and PostgreSQL's
/// pool use with every wait ended and every connection given back.
@Suite struct StoreObserverTests {
  /// Folds of the log past its limit (2 changes here), by a read and by a
  /// call, each told once with its outcome.
  @Test(arguments: StoreBackend.available)
  func everyFoldIsToldWithItsTriggerAndOutcome(_ backend: StoreBackend) async throws {
    let observer = RecordingObserver()
    let policy = CompactionPolicy(maximumLogCount: 2, maximumLogBytes: 1 << 20, delay: .zero)
    try await backend.withObservedStore(observer, compaction: policy) { store in
      let name = try DrawingName("observed")
      var generator = ChangeGenerator(seed: 1)
      try await store.append([generator.next()], to: name, ifRevision: nil, key: nil)
      #expect(try await store.compact(name) == 1)
      #expect(try await store.compact(name) == nil)
      #expect(observer.compactions == ["call folded", "call skipped"])

      try await store.append([generator.next()], to: name, ifRevision: nil, key: nil)
      _ = try await store.loadDocument(name)
      await store.waitForCompactions()
      #expect(observer.compactions.last == "read folded")

      let before = observer.compactions.count
      try await store.append([generator.next()], to: name, ifRevision: nil, key: nil)
      try await store.append([generator.next()], to: name, ifRevision: nil, key: nil)
      await store.waitForCompactions()
      #expect(observer.compactions.dropFirst(before).contains("log folded"), "\(observer.compactions)")
    }
  }

  /// Every call that asked the pool for a connection got one and gave it
  /// back: nothing is left in use or waiting once the calls are done.
  @Test func postgresPoolUseIsToldAndBalanced() async throws {
    guard StoreBackend.available.contains(.postgres) else { return }
    let observer = RecordingObserver()
    try await StoreBackend.postgres.withObservedStore(observer, compaction: .manual) { store in
      let name = try DrawingName("pooled")
      var generator = ChangeGenerator(seed: 2)
      for _ in 0..<5 { try await store.append([generator.next()], to: name, ifRevision: nil, key: nil) }
      _ = try await store.loadDocument(name)
      _ = try await store.list()
      await store.waitForCompactions()  // The look for long logs at open, in the background.
      let pool = observer.pool
      #expect(pool.maximum == 3)
      // The appends, the read and the list: at least one connection each
      // (appends that come while a group runs may share its connection).
      #expect(pool.acquired >= 3)
      #expect(pool.failed == 0)
      #expect(pool.inUse == 0)
      #expect(pool.waiting == 0)
    }
  }
}

/// An observer that keeps what it is told.
final class RecordingObserver: StoreObserver {
  struct Pool: Sendable {
    var maximum = 0
    var acquired = 0
    var failed = 0
    var inUse = 0
    var waiting = 0
  }

  private let told = NIOLockedValueBox<(compactions: [String], pool: Pool)>(([], Pool()))

  /// "TRIGGER OUTCOME" of each fold, in order.
  var compactions: [String] { told.withLockedValue { $0.compactions } }
  var pool: Pool { told.withLockedValue { $0.pool } }

  func compaction(_ trigger: CompactionTrigger, outcome: CompactionOutcome, elapsed: Duration) {
    told.withLockedValue { $0.compactions.append("\(trigger.rawValue) \(outcome.rawValue)") }
  }

  func poolOpened(maximumConnections: Int) { told.withLockedValue { $0.pool.maximum = maximumConnections } }
  func poolWaitBegan() { told.withLockedValue { $0.pool.waiting += 1 } }

  func poolWaitEnded(waited: Duration, gotConnection: Bool) {
    told.withLockedValue {
      $0.pool.waiting -= 1
      if gotConnection {
        $0.pool.acquired += 1
        $0.pool.inUse += 1
      } else {
        $0.pool.failed += 1
      }
    }
  }

  func poolConnectionReturned() { told.withLockedValue { $0.pool.inUse -= 1 } }
}

extension StoreBackend {
  /// `body` with a store of this backend on a fresh database that tells `observer`.
  func withObservedStore(
    _ observer: RecordingObserver, compaction: CompactionPolicy, _ body: (any DrawingStorage) async throws -> Void
  ) async throws {
    switch self {
    case .sqlite:
      try await withTemporaryDirectory { directory in
        let store = try SQLiteDrawingStore(
          path: directory.appendingPathComponent("a.sqlite").path, compaction: compaction, observer: observer)
        try await body(store)
        await store.close()
      }
    case .postgres:
      try await withPostgresDatabase { url in
        let store = try await PostgresDrawingStore(
          url: url, compaction: compaction, maximumConnections: 3, timeout: .seconds(60), observer: observer)
        do {
          try await body(store)
        } catch {
          await store.close()
          throw error
        }
        await store.close()
      }
    }
  }
}
