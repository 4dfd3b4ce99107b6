import Foundation
import Logging
import PostgresNIO
import TouchTrackerCore

/// Named drawings in a PostgreSQL database, with the semantics of
/// `SQLiteDrawingStore` (revisions, conflicts, idempotency keys, a change log
/// after a snapshot, compaction): the same tables, the same checks, the
/// same test suite. Several servers can share one database.
///
/// Concurrency: every write is one transaction that first takes a
/// transaction-scoped advisory lock on its drawing's name, then reads the
/// current revision and writes the next. So writes to one drawing are
/// serialized, between connections and between servers, and of several
/// writes that expect the same revision exactly one wins; writes to other
/// drawings go on in parallel. Reads run in a `REPEATABLE READ` read-only
/// transaction, so a drawing's summary, snapshot and log are read as of one
/// moment.
///
/// Durability: a write returns after `COMMIT`, which with PostgreSQL's
/// default `synchronous_commit = on` has flushed the WAL.
///
/// Fan-out: each write that changes a drawing sends a notification on
/// `changeChannel` in its transaction, which PostgreSQL delivers, at commit
/// and in commit order, to every server listening (`changeNotices`).
public final class PostgresDrawingStore: DrawingStorage {
  public let url: PostgresURL
  public let compaction: CompactionPolicy
  let client: PostgresClient
  /// The pool as the store's calls use it, observed.
  let pool: ObservedPool
  /// Who hears of the folds and of the pool's use (`/metrics`).
  public let observer: any StoreObserver
  let now: @Sendable () -> Date
  let compactions = CompactionScheduler()
  let logger: Logger
  let listeners = ListenerTasks()
  let appendGroups: AppendGroups
  /// How long a call waits for the database (`withDatabase`).
  let deadline: DatabaseDeadline
  private let running: Task<Void, Never>

  /// The channel of `NOTIFY` (see `DrawingNotice`).
  static let changeChannel = "touchtracker_drawing"
  /// The channel of `broadcast`.
  static let broadcastChannel = "touchtracker_broadcast"
  /// The first key of the advisory locks on drawings (the second is the
  /// name's hash); "TTDR".
  static let lockSpace: Int32 = 0x5454_4452
  /// The key of the advisory lock that migrations hold.
  static let migrationLock: Int64 = 0x5454_4D49_4752

  public var location: String { url.description }

  /// Connects to `url`, creating or migrating the tables (schema_migrations
  /// records which migrations ran), and starts compacting the drawings
  /// whose logs are long already.
  ///
  /// - Parameters:
  ///   - maximumConnections: The pool's limit (PostgreSQL allows 100
  ///     connections by default, shared by every server).
  ///   - timeout: How long a call waits for the database before it throws
  ///     `DrawingStoreError.unavailable` (`DatabaseDeadline`).
  ///   - observer: Who hears of the folds and of the pool's use.
  /// - Throws: `DrawingStoreError.cannotOpen` naming the reason: the server
  ///   cannot be reached, refuses the user or database, the database holds a
  ///   `drawing` table that is not ours, or was written by a newer version.
  public init(
    url: PostgresURL, compaction: CompactionPolicy = .automatic, maximumConnections: Int = 16,
    timeout: Duration = DatabaseDeadline.defaultLimit, now: @escaping @Sendable () -> Date = { Date() },
    observer: any StoreObserver = NoStoreObserver()
  ) async throws {
    self.url = url
    self.compaction = compaction
    self.observer = observer
    self.now = now
    var logger = Logger(label: "touchtracker.postgres")
    logger.logLevel = .critical
    self.logger = logger
    // One connection of its own first: an unreachable server fails here,
    // at once and clearly, where the pool would keep retrying.
    do {
      try await Self.migrate(url, logger: logger)
    } catch let error as DrawingStoreError {
      throw error
    } catch {
      throw DrawingStoreError.cannotOpen(path: url.description, reason: Self.reason(error))
    }
    var configuration = url.clientConfiguration
    configuration.options.maximumConnections = maximumConnections
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    self.client = client
    let pool = ObservedPool(client: client, observer: observer)
    self.pool = pool
    observer.poolOpened(maximumConnections: maximumConnections)
    deadline = DatabaseDeadline(limit: timeout, location: url.description) { [logger] in
      _ = try await client.query("SELECT 1", logger: logger)
    }
    running = Task { await client.run() }
    let location = url.description
    let quiet = logger
    appendGroups = AppendGroups(refused: { ($0 as? PSQLError)?.code == .server }) { body in
      try await pool.withConnection { connection in
        await body { requests in
          try await Self.appendGroup(
            requests, connection: connection, logger: quiet, location: location, updatedAt: now())
        }
      }
    }
    if compaction.isAutomatic {
      compactions.schedule("") { [self] in await scheduleDueCompactions() }
    }
  }

  /// `init(url:)` with the URL as text.
  public convenience init(
    url text: String, compaction: CompactionPolicy = .automatic, maximumConnections: Int = 16,
    timeout: Duration = DatabaseDeadline.defaultLimit, now: @escaping @Sendable () -> Date = { Date() },
    observer: any StoreObserver = NoStoreObserver()
  ) async throws {
    try await self.init(
      url: PostgresURL(text), compaction: compaction, maximumConnections: maximumConnections, timeout: timeout,
      now: now, observer: observer)
  }

  public var stall: String? { deadline.stall }

  /// Closes the connections (after the compactions under way) and ends
  /// the streams of `notices`.
  public func close() async {
    await listeners.cancelAll()
    await compactions.idle()
    running.cancel()
    await running.value
  }

  // MARK: - Reading

  public func list() async throws -> [DrawingSummary] {
    try await read { connection in
      let rows = try await connection.query(
        """
        SELECT name, revision, updatedAt, lineCount, circleCount FROM drawing
        WHERE NOT isDeleted ORDER BY name COLLATE "C"
        """, logger: self.logger)
      var summaries: [DrawingSummary] = []
      for try await (name, revision, updatedAt, lineCount, circleCount) in rows.decode(
        (String, Int, Date, Int, Int).self)
      {
        guard let name = try? DrawingName(name) else { continue }
        summaries.append(
          DrawingSummary(
            name: name, revision: revision, updatedAt: updatedAt, lineCount: lineCount, circleCount: circleCount))
      }
      return summaries
    }
  }

  public func load(_ name: DrawingName) async throws -> StoredDrawing? {
    guard let state = try await read({ try await self.logState(name, on: $0) }) else { return nil }
    return StoredDrawing(drawing: try state.replayed(), revision: state.head.revision, updatedAt: state.head.updatedAt)
  }

  public func loadDocument(_ name: DrawingName) async throws -> StoredDocument? {
    guard let state = try await read({ try await self.logState(name, on: $0) }) else { return nil }
    let head = state.head
    guard !state.changes.isEmpty else {
      return StoredDocument(
        json: try state.snapshot.verifiedDocument(), revision: head.revision, updatedAt: head.updatedAt)
    }
    // As `SQLiteDrawingStore.loadDocument`: the fold keeps the last changes behind the snapshot.
    let folded = try state.folded()
    if compaction.isAutomatic {
      let behind = compaction.kept(head)
      compactions.schedule(name.rawValue) { [self] in
        try await observer.observeCompaction(.read) { try await store(folded, keepingBehind: behind) }
      }
    }
    return StoredDocument(json: Data(folded.snapshot.document.utf8), revision: head.revision, updatedAt: head.updatedAt)
  }

  /// One statement, so one snapshot without a transaction: a live room on
  /// another server reads this for every change it hears of (1,000 a
  /// second under 1,000 drawings with a client on each of two servers), and
  /// `BEGIN`, the head, the log and `COMMIT` were four round trips each.
  public func changes(of name: DrawingName, since: Int) async throws -> StoredChanges? {
    let rawName = name.rawValue
    return try await withDatabase { [pool, logger] in
      try await pool.withConnection { connection in
        // The head, and the log after `since` joined to it (rows kept
        // behind the snapshot included: `checkLogReaches` decides).
        let rows = try await connection.query(
          """
          SELECT h.revision, h.isDeleted, h.lineCount, h.circleCount, h.updatedAt, h.snapshotRevision, h.logBytes,
            c.revision, c.change, c.batchKey, c.checksum
          FROM drawing h LEFT JOIN drawingChange c
            ON c.name = h.name AND c.revision > \(since)
          WHERE h.name = \(rawName)
          ORDER BY c.revision
          """, logger: logger)
        var head: DrawingRecord?
        var records: [ChangeRecord] = []
        for try await row in rows.decode(
          (Int, Bool, Int, Int, Date, Int, Int, Int?, String?, String?, Int64?).self)
        {
          if head == nil {
            head = DrawingRecord(
              name: rawName, revision: row.0, isDeleted: row.1, lineCount: row.2, circleCount: row.3,
              updatedAt: row.4, snapshotRevision: row.5, logBytes: row.6)
          }
          if let revision = row.7, let change = row.8, let checksum = row.10 {
            var record = ChangeRecord(name: rawName, revision: revision, change: change, batchKey: row.9)
            record.checksum = checksum
            records.append(record)
          }
        }
        guard let head, !head.isDeleted else { return nil }
        try head.checkLogReaches(since, firstRow: records.first?.revision)
        return try StoredChanges(records, after: since, head: head)
      }
    }
  }

  // MARK: - Writing

  @discardableResult
  public func save(_ drawing: Drawing, as name: DrawingName, ifRevision expected: Int?) async throws -> Int {
    let snapshot = SnapshotRecord(
      name: name.rawValue, document: try DocumentCodec.encodeText(drawing))
    let updatedAt = now()
    let rawName = name.rawValue
    return try await write(rawName) { connection in
      let stored = try await self.head(rawName, on: connection)
      try Self.check(expected, against: stored, name: rawName)
      let revision = (stored?.revision ?? 0) + 1
      try await self.upsertHead(
        DrawingRecord(
          name: rawName, revision: revision, isDeleted: false, lineCount: drawing.lines.count,
          circleCount: drawing.circles.count, updatedAt: updatedAt, snapshotRevision: revision, logBytes: 0),
        on: connection)
      try await self.upsertSnapshot(snapshot, on: connection)
      try await connection.query("DELETE FROM drawingChange WHERE name = \(rawName)", logger: self.logger)
      try await self.notify(.save, rawName, revision: revision, on: connection)
      return revision
    }
  }

  @discardableResult
  public func delete(_ name: DrawingName, ifRevision expected: Int?) async throws -> Bool {
    let updatedAt = now()
    let rawName = name.rawValue
    return try await write(rawName) { connection in
      guard var stored = try await self.head(rawName, on: connection), !stored.isDeleted else { return false }
      try Self.check(expected, against: stored, name: rawName)
      stored.isDeleted = true
      stored.revision += 1
      stored.lineCount = 0
      stored.circleCount = 0
      stored.updatedAt = updatedAt
      stored.snapshotRevision = stored.revision
      stored.logBytes = 0
      try await self.upsertHead(stored, on: connection)
      try await connection.query("DELETE FROM drawingSnapshot WHERE name = \(rawName)", logger: self.logger)
      try await connection.query("DELETE FROM drawingChange WHERE name = \(rawName)", logger: self.logger)
      try await self.notify(.delete, rawName, revision: stored.revision, on: connection)
      return true
    }
  }

  @discardableResult
  public func append(
    _ changes: [Change], to name: DrawingName, ifRevision expected: Int?, key: String?
  ) async throws -> Int {
    let results = try await append(batches: [ChangeBatch(changes: changes, key: key, expected: expected)], to: name)
    return try results[0].get().revision
  }

  /// The batches go in the next group of appends (`AppendGroups`): one
  /// statement and one commit with whatever other drawings append meanwhile.
  public func append(batches: [ChangeBatch], to name: DrawingName) async throws -> [Result<AppendedBatch, any Error>] {
    let rawName = name.rawValue
    var results: [Result<AppendedBatch, any Error>?] = []
    var request = AppendGroups.Request(name: rawName, batches: [], expected: [])
    var places: [Int] = []
    for batch in batches {
      do {
        request.batches.append(try EncodedBatch(batch.changes, key: batch.key))
        request.expected.append(batch.expected)
        places.append(results.count)
        results.append(nil)
      } catch {
        results.append(.failure(error))
      }
    }
    guard !request.batches.isEmpty else { return results.map { $0! } }
    let answers = try await withDatabase { [appendGroups, request] in try await appendGroups.append(request) }
    var (logCount, logBytes) = (0, 0)
    for (place, (answer, expected)) in zip(places, zip(answers, request.expected)) {
      if answer.outcome == "conflict" {
        results[place] = .failure(
          DrawingStoreError.conflict(name: rawName, expected: expected ?? answer.revision, current: answer.revision))
        continue
      }
      results[place] = .success(AppendedBatch(revision: answer.revision, count: answer.count))
      if answer.count > 0 { (logCount, logBytes) = (answer.logCount, answer.logBytes) }
    }
    if compaction.isDue(logCount: logCount, logBytes: logBytes) {
      scheduleCompaction(of: name)
    }
    return results.map { $0! }
  }

  // MARK: - Compaction

  @discardableResult
  public func compact(_ name: DrawingName) async throws -> Int? {
    var revision: Int?
    try await observer.observeCompaction(.call) {
      revision = try await compact(name, keepingByPolicy: false, afterReading: {})
      return revision != nil
    }
    return revision
  }

  func compact(
    _ name: DrawingName, keepingByPolicy: Bool, afterReading: @Sendable () async throws -> Void
  ) async throws -> Int? {
    let policy = compaction
    let folded = try await read { connection -> Folded? in
      // As `SQLiteDrawingStore.compact`: the background fold reads the summary first.
      if keepingByPolicy {
        guard let head = try await self.head(name.rawValue, on: connection), policy.isDue(head) else { return nil }
      }
      guard let state = try await self.logState(name, on: connection), !state.changes.isEmpty else { return nil }
      return try state.folded(keeping: keepingByPolicy ? policy.kept(state.head) : 0)
    }
    guard let folded else { return nil }
    try await afterReading()
    return try await store(folded) ? folded.revision : nil
  }

  /// `SQLiteDrawingStore.store`'s twin: stores `folded` unless the drawing moved
  /// on in a way that makes it wrong (see there why the check is enough).
  func store(_ folded: Folded, keepingBehind behind: Int = 0) async throws -> Bool {
    let name = folded.snapshot.name
    return try await write(name) { connection in
      guard var head = try await self.head(name, on: connection), !head.isDeleted,
        head.snapshotRevision < folded.revision, folded.revision <= head.revision
      else { return false }
      try await self.upsertSnapshot(folded.snapshot, on: connection)
      try await connection.query(
        "DELETE FROM drawingChange WHERE name = \(name) AND revision <= \(folded.revision - max(0, behind))",
        logger: self.logger)
      if head.revision == folded.countedAt {
        head.lineCount = folded.lineCount
        head.circleCount = folded.circleCount
      }
      head.snapshotRevision = folded.revision
      let rows = try await connection.query(
        """
        SELECT COALESCE(SUM(octet_length(change)), 0)::bigint FROM drawingChange
        WHERE name = \(name) AND revision > \(folded.revision)
        """,
        logger: self.logger)
      head.logBytes = 0
      for try await bytes in rows.decode(Int.self) { head.logBytes = bytes }
      try await self.upsertHead(head, on: connection)
      let oldest = folded.revision - SQLiteDrawingStore.keptBatchRevisions
      try await connection.query(
        "DELETE FROM drawingBatch WHERE name = \(name) AND revision <= \(oldest)", logger: self.logger)
      return true
    }
  }

  func namesDueForCompaction() async -> [String] {
    let policy = compaction
    return
      (try? await read { connection -> [String] in
        let rows = try await connection.query(
          """
          SELECT name FROM drawing WHERE NOT isDeleted AND revision > snapshotRevision
          AND (revision - snapshotRevision >= \(policy.dueLogCount) OR logBytes >= \(policy.maximumLogBytes))
          """, logger: self.logger)
        var names: [String] = []
        for try await name in rows.decode(String.self) { names.append(name) }
        return names
      }) ?? []
  }

  public func waitForCompactions() async {
    await compactions.idle()
  }
}

extension PostgresDrawingStore: CompactingStore {}
