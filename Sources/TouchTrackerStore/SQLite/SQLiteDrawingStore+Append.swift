import Foundation
import GRDB
import TouchTrackerCore

extension SQLiteDrawingStore {
  /// Appends `changes` to the log of `name`, each at the next revision, and
  /// returns the revision after the last (k changes: the revision grows by
  /// k). A drawing that does not exist is created, empty, first. The
  /// document is not read: counts move as each change says
  /// (`Change.countDelta`) and compaction makes them exact.
  ///
  /// No changes append nothing and answer the current revision (0 for a
  /// drawing that does not exist), after the same check of `expected`.
  ///
  /// - Parameters:
  ///   - expected: The revision the caller last saw (0: "must not exist");
  ///     nil appends whatever is stored.
  ///   - key: An idempotency key: if a batch with this key was appended to
  ///     this drawing already, nothing is appended and the revision that
  ///     batch ended at is answered, whatever `expected` says. A client that
  ///     lost the answer retries with the same key safely. Remembered for
  ///     `keptBatchRevisions` revisions.
  /// - Throws: `DrawingStoreError.conflict` if `expected` is not the current
  ///   revision; `DocumentError` if a change could not be stored as it is
  ///   (a NaN, a shape without an id, one id added twice).
  @discardableResult
  public func append(
    _ changes: [Change], to name: DrawingName, ifRevision expected: Int?, key: String?
  ) async throws -> Int {
    let batch = try EncodedBatch(changes, key: key)
    let updatedAt = DrawingRecord.databaseText(now())
    let rawName = name.rawValue
    let appended = try await writeTransaction { db in
      try Self.appendRows(of: batch, to: rawName, ifRevision: expected, updatedAt: updatedAt, in: db)
    }
    if compaction.isDue(logCount: appended.logCount, logBytes: appended.logBytes) {
      scheduleCompaction(of: name)
    }
    return appended.batch.revision
  }

  /// Appends several batches to the log of `name` in one transaction (one
  /// commit, one fsync), each as `append(_:to:ifRevision:key:)` would, in
  /// order: what the live sync does with the batches that arrive while the
  /// previous commit is on its way to disk.
  ///
  /// - Returns: What became of each batch, in order: where it ended, or why
  ///   it was refused (`DocumentError`, `DrawingStoreError.conflict`); a
  ///   refused batch stores nothing and the others are stored all the same.
  /// - Throws: If the transaction failed: then nothing was stored.
  public func append(batches: [ChangeBatch], to name: DrawingName) async throws -> [Result<AppendedBatch, any Error>] {
    let encoded = batches.map { batch in
      Result<EncodedBatch, any Error>(catching: { try EncodedBatch(batch.changes, key: batch.key) })
    }
    let updatedAt = DrawingRecord.databaseText(now())
    let rawName = name.rawValue
    let (results, logCount, logBytes) = try await writeTransaction {
      db -> ([Result<AppendedBatch, any Error>], Int, Int) in
      var results: [Result<AppendedBatch, any Error>] = []
      var (logCount, logBytes) = (0, 0)
      for (batch, expected) in zip(encoded, batches.map(\.expected)) {
        do {
          // A refusal (a conflict) comes before the batch writes anything.
          let appended = try Self.appendRows(
            of: batch.get(), to: rawName, ifRevision: expected, updatedAt: updatedAt, in: db)
          results.append(.success(appended.batch))
          if appended.batch.count > 0 { (logCount, logBytes) = (appended.logCount, appended.logBytes) }
        } catch let error as DocumentError {
          results.append(.failure(error))
        } catch let error as DrawingStoreError {
          results.append(.failure(error))
        }
      }
      return (results, logCount, logBytes)
    }
    if compaction.isDue(logCount: logCount, logBytes: logBytes) {
      scheduleCompaction(of: name)
    }
    return results
  }

  /// One batch in a write transaction: the key, the revision check, the
  /// rows, the summary. `logCount` and `logBytes` are the log's after it
  /// (0 when nothing was appended).
  private static func appendRows(
    of batch: EncodedBatch, to rawName: String, ifRevision expected: Int?, updatedAt: String, in db: Database
  ) throws -> (batch: AppendedBatch, logCount: Int, logBytes: Int) {
    // Raw cached statements: this is the hot path (one finished line), and
    // GRDB's record layer (query building, Codable, date formatting) cost
    // more CPU here than SQLite itself.
    if let key = batch.key,
      let revision = try Int.fetchOne(
        db.cachedStatement(sql: "SELECT revision FROM drawingBatch WHERE name = ? AND batchKey = ?"),
        arguments: [rawName, key])
    {
      return (AppendedBatch(revision: revision, count: 0), 0, 0)
    }
    let stored = try Row.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT revision, isDeleted, lineCount, circleCount, snapshotRevision, logBytes
          FROM drawing WHERE name = ?
          """),
      arguments: [rawName])
    let exists = stored.map { !($0[1] as Bool) } ?? false
    let current = exists ? stored![0] as Int : 0
    if let expected, expected != current {
      throw DrawingStoreError.conflict(name: rawName, expected: expected, current: current)
    }
    guard !batch.texts.isEmpty else { return (AppendedBatch(revision: current, count: 0), 0, 0) }
    var revision: Int = stored?[0] ?? 0
    var (lineCount, circleCount, snapshotRevision, logBytes): (Int, Int, Int, Int) = (0, 0, revision, 0)
    if exists, let stored {
      (lineCount, circleCount, snapshotRevision, logBytes) = (stored[2], stored[3], stored[4], stored[5])
    } else {
      // A new drawing, or one created again over its tombstone: an empty
      // snapshot at the revision it continues from.
      try SnapshotRecord(name: rawName, document: Self.emptyDocument).save(db)
    }
    let insert = try db.cachedStatement(
      sql: "INSERT INTO drawingChange (name, revision, change, batchKey, checksum) VALUES (?, ?, ?, ?, ?)")
    for index in batch.texts.indices {
      revision += 1
      try insert.execute(arguments: [rawName, revision, batch.texts[index], batch.key, batch.checksums[index]])
      if let delta = batch.deltas[index] {
        lineCount = max(0, lineCount + delta.lines)
        circleCount = max(0, circleCount + delta.circles)
      } else {
        (lineCount, circleCount) = (0, 0)
      }
    }
    logBytes += batch.bytes
    try db.cachedStatement(
      sql: """
        INSERT INTO drawing
          (name, revision, isDeleted, lineCount, circleCount, updatedAt, snapshotRevision, logBytes)
        VALUES (?, ?, 0, ?, ?, ?, ?, ?)
        ON CONFLICT (name) DO UPDATE SET revision = excluded.revision, isDeleted = 0,
          lineCount = excluded.lineCount, circleCount = excluded.circleCount, updatedAt = excluded.updatedAt,
          snapshotRevision = excluded.snapshotRevision, logBytes = excluded.logBytes
        """
    ).execute(arguments: [rawName, revision, lineCount, circleCount, updatedAt, snapshotRevision, logBytes])
    if let key = batch.key {
      try db.cachedStatement(sql: "INSERT INTO drawingBatch (name, batchKey, revision) VALUES (?, ?, ?)")
        .execute(arguments: [rawName, key, revision])
    }
    return (AppendedBatch(revision: revision, count: batch.texts.count), revision - snapshotRevision, logBytes)
  }
}

/// A list of changes to append as one, with its idempotency key and the
/// revision it expects (nil: whatever is stored), as `append` takes them.
public struct ChangeBatch: Sendable {
  public var changes: [Change]
  public var key: String?
  public var expected: Int?

  public init(changes: [Change], key: String?, expected: Int? = nil) {
    self.changes = changes
    self.key = key
    self.expected = expected
  }
}

/// Where an appended batch ended.
public struct AppendedBatch: Hashable, Sendable {
  /// The revision of the batch's last change; for a key already appended,
  /// the revision that batch ended at then.
  public var revision: Int
  /// How many changes were appended now: 0 for a key already appended (or
  /// no changes), else the batch's count, at `revision - count + 1 ... revision`.
  public var count: Int

  public init(revision: Int, count: Int) {
    self.revision = revision
    self.count = count
  }
}

/// A batch as the log stores it, encoded and checked before any transaction.
struct EncodedBatch: Sendable {
  var texts: [String]
  var deltas: [(lines: Int, circles: Int)?]
  var checksums: [Int64]
  var bytes: Int
  var key: String?

  init(_ changes: [Change], key: String?) throws(DocumentError) {
    texts = try changes.enumerated().map { index, change throws(DocumentError) in
      try ChangeCodec.encode(change, path: "changes[\(index)]")
    }
    deltas = changes.map(\.countDelta)
    checksums = texts.map { Int64(CRC32.checksum($0.utf8)) }
    bytes = texts.reduce(0) { $0 + $1.utf8.count }
    self.key = key
  }
}
