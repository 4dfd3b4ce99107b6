import Foundation
import Logging
import PostgresNIO
import TouchTrackerCore

extension PostgresDrawingStore {
  /// Runs `body` in a read-only `REPEATABLE READ` transaction: everything
  /// it reads is as of one moment.
  func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
    try await transaction("START TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
  }

  /// Runs `body` in a transaction holding the advisory lock of the drawing
  /// `name`: no other write to it commits between this one's read of the
  /// revision and its write of the next.
  func write<T: Sendable>(
    _ name: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    try await transaction("BEGIN") { connection in
      try await connection.query(
        "SELECT pg_advisory_xact_lock(\(Self.lockSpace), hashtext(\(name)))", logger: self.logger)
      return try await body(connection)
    }
  }

  /// Runs `body` in a transaction that `begin` starts.
  func transaction<T: Sendable>(
    _ begin: PostgresQuery, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    try await withDatabase {
      try await self.pool.withConnection { connection in
        try await connection.query(begin, logger: self.logger)
        do {
          let result = try await body(connection)
          try await connection.query("COMMIT", logger: self.logger)
          return result
        } catch {
          try? await connection.query("ROLLBACK", logger: self.logger)
          throw error
        }
      }
    }
  }

  /// `body`, which talks to the database, within `deadline` (else
  /// `DrawingStoreError.unavailable`, `body` going on to its end), with the
  /// database's own errors as `.unavailable` too. Every call that waits for
  /// the database goes through here; what the store computes before and
  /// after (encoding, replaying a log) does not count against the limit.
  func withDatabase<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let location = location
    return try await deadline.run {
      do {
        return try await body()
      } catch let error as PSQLError {
        throw DrawingStoreError.unavailable(location: location, reason: Self.reason(error))
      }
    }
  }

  /// The `drawing` row of `name`, if any.
  func head(_ name: String, on connection: PostgresConnection) async throws -> DrawingRecord? {
    let rows = try await connection.query(
      """
      SELECT revision, isDeleted, lineCount, circleCount, updatedAt, snapshotRevision, logBytes
      FROM drawing WHERE name = \(name)
      """, logger: logger)
    var record: DrawingRecord?
    for try await (revision, isDeleted, lineCount, circleCount, updatedAt, snapshotRevision, logBytes) in rows.decode(
      (Int, Bool, Int, Int, Date, Int, Int).self)
    {
      record = DrawingRecord(
        name: name, revision: revision, isDeleted: isDeleted, lineCount: lineCount, circleCount: circleCount,
        updatedAt: updatedAt, snapshotRevision: snapshotRevision, logBytes: logBytes)
    }
    return record
  }

  /// The log rows of `name` after `revision`, in order, not yet verified.
  func changeRecords(_ name: String, after revision: Int, on connection: PostgresConnection) async throws
    -> [ChangeRecord]
  {
    let rows = try await connection.query(
      """
      SELECT revision, change, batchKey, checksum FROM drawingChange
      WHERE name = \(name) AND revision > \(revision) ORDER BY revision
      """, logger: logger)
    var records: [ChangeRecord] = []
    for try await (revision, change, batchKey, checksum) in rows.decode((Int, String, String?, Int64).self) {
      var record = ChangeRecord(name: name, revision: revision, change: change, batchKey: batchKey)
      record.checksum = checksum
      records.append(record)
    }
    return records
  }

  /// `LogState.read`'s twin: nil for a drawing that does not exist.
  func logState(_ name: DrawingName, on connection: PostgresConnection) async throws -> LogState? {
    let rawName = name.rawValue
    guard let head = try await head(rawName, on: connection), !head.isDeleted else { return nil }
    let rows = try await connection.query(
      "SELECT document, checksum FROM drawingSnapshot WHERE name = \(rawName)", logger: logger)
    var snapshot: SnapshotRecord?
    for try await (document, checksum) in rows.decode((String, Int64).self) {
      var record = SnapshotRecord(name: rawName, document: document)
      record.checksum = checksum
      snapshot = record
    }
    guard let snapshot else { throw DrawingStoreError.damaged(name: rawName) }
    var changes: [ChangeRecord] = []
    if head.logCount > 0 {
      changes = try await changeRecords(rawName, after: head.snapshotRevision, on: connection).map {
        try $0.verified()
      }
    }
    guard changes.count == head.logCount, changes.last.map({ $0.revision == head.revision }) ?? true else {
      throw DrawingStoreError.damaged(name: rawName)
    }
    return LogState(head: head, snapshot: snapshot, changes: changes)
  }

  func upsertHead(_ record: DrawingRecord, on connection: PostgresConnection) async throws {
    try await connection.query(
      """
      INSERT INTO drawing
        (name, revision, isDeleted, lineCount, circleCount, updatedAt, snapshotRevision, logBytes)
      VALUES (\(record.name), \(record.revision), \(record.isDeleted), \(record.lineCount), \(record.circleCount), \
      \(record.updatedAt), \(record.snapshotRevision), \(record.logBytes))
      ON CONFLICT (name) DO UPDATE SET revision = excluded.revision, isDeleted = excluded.isDeleted,
        lineCount = excluded.lineCount, circleCount = excluded.circleCount, updatedAt = excluded.updatedAt,
        snapshotRevision = excluded.snapshotRevision, logBytes = excluded.logBytes
      """, logger: logger)
  }

  func upsertSnapshot(_ snapshot: SnapshotRecord, on connection: PostgresConnection) async throws {
    try await connection.query(
      """
      INSERT INTO drawingSnapshot (name, document, checksum)
      VALUES (\(snapshot.name), \(snapshot.document), \(snapshot.checksum))
      ON CONFLICT (name) DO UPDATE SET document = excluded.document, checksum = excluded.checksum
      """, logger: logger)
  }

  /// Queues the notice that `name` is at `revision` now, delivered to every
  /// listener when (and if) this transaction commits.
  func notify(
    _ kind: DrawingNotice.Kind, _ name: String, revision: Int, on connection: PostgresConnection
  ) async throws {
    let payload = DrawingNotice(kind: kind, name: name, revision: revision).payload
    try await connection.query("SELECT pg_notify(\(Self.changeChannel), \(payload))", logger: logger)
  }

  static func check(_ expected: Int?, against stored: DrawingRecord?, name: String) throws {
    guard let expected else { return }
    let current = stored?.currentRevision ?? 0
    guard expected == current else {
      throw DrawingStoreError.conflict(name: name, expected: expected, current: current)
    }
  }

  /// What went wrong, in words: the server's message, or the connection's error.
  static func reason(_ error: any Error) -> String {
    guard let error = error as? PSQLError else { return "\(error)" }
    if let message = error.serverInfo?[.message] {
      return message + (error.serverInfo?[.detail].map { " (\($0))" } ?? "")
    }
    if let underlying = error.underlying { return "\(underlying)" }
    return "\(error.code)"
  }
}

extension PostgresDrawingStore: StoreTestHooks {
  func executeForTesting(_ sql: String) async throws {
    try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
  }

  func integersForTesting(_ sql: String) async throws -> [Int] {
    var values: [Int] = []
    for try await value in try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int.self) {
      values.append(value)
    }
    return values
  }
}
