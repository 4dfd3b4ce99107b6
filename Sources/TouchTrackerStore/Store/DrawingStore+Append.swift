import Foundation
import GRDB
import TouchTrackerCore

extension DrawingStore {
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
    _ changes: [Change], to name: DrawingName, ifRevision expected: Int? = nil, key: String? = nil
  ) async throws -> Int {
    let texts = try changes.enumerated().map { index, change throws(DocumentError) in
      try ChangeCodec.encode(change, path: "changes[\(index)]")
    }
    let deltas = changes.map(\.countDelta)
    let checksums = texts.map { Int64(CRC32.checksum($0.utf8)) }
    let bytes = texts.reduce(0) { $0 + $1.utf8.count }
    let updatedAt = DrawingRecord.databaseText(now())
    let rawName = name.rawValue
    // Raw cached statements: this is the hot path (one finished line), and
    // GRDB's record layer (query building, Codable, date formatting) cost
    // more CPU here than SQLite itself.
    let (revision, logCount, logBytes) = try await writeTransaction { db -> (Int, Int, Int) in
      if let key,
        let revision = try Int.fetchOne(
          db.cachedStatement(sql: "SELECT revision FROM drawingBatch WHERE name = ? AND batchKey = ?"),
          arguments: [rawName, key])
      {
        return (revision, 0, 0)
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
      guard !texts.isEmpty else { return (current, 0, 0) }
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
      for index in texts.indices {
        revision += 1
        try insert.execute(arguments: [rawName, revision, texts[index], key, checksums[index]])
        if let delta = deltas[index] {
          lineCount = max(0, lineCount + delta.lines)
          circleCount = max(0, circleCount + delta.circles)
        } else {
          (lineCount, circleCount) = (0, 0)
        }
      }
      logBytes += bytes
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
      if let key {
        try db.cachedStatement(sql: "INSERT INTO drawingBatch (name, batchKey, revision) VALUES (?, ?, ?)")
          .execute(arguments: [rawName, key, revision])
      }
      return (revision, revision - snapshotRevision, logBytes)
    }
    if compaction.isDue(logCount: logCount, logBytes: logBytes) {
      scheduleCompaction(of: name)
    }
    return revision
  }
}
