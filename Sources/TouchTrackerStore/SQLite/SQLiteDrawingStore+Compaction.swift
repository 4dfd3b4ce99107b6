import Foundation
import GRDB
import TouchTrackerCore

extension LogState {
  /// Nil for a drawing that does not exist.
  static func read(_ name: DrawingName, in db: Database) throws -> LogState? {
    guard let head = try DrawingRecord.fetchOne(db, key: name.rawValue), !head.isDeleted else { return nil }
    // A live drawing always has a snapshot, and a change for every revision
    // after it: anything else is a damaged (or hand-edited) file.
    guard let snapshot = try SnapshotRecord.fetchOne(db, key: name.rawValue) else {
      throw DrawingStoreError.damaged(name: name.rawValue)
    }
    var changes: [ChangeRecord] = []
    if head.logCount > 0 {
      changes = try ChangeRecord.fetchAll(
        db, sql: "SELECT * FROM drawingChange WHERE name = ? AND revision > ? ORDER BY revision",
        arguments: [name.rawValue, head.snapshotRevision]
      ).map { try $0.verified() }
    }
    guard changes.count == head.logCount, changes.last.map({ $0.revision == head.revision }) ?? true else {
      throw DrawingStoreError.damaged(name: name.rawValue)
    }
    return LogState(head: head, snapshot: snapshot, changes: changes)
  }
}

extension SQLiteDrawingStore: CompactingStore {
  /// Folds the log of `name` into a new snapshot at its current revision
  /// and deletes the log rows it folded; returns that revision, or nil if
  /// there was nothing to fold (no drawing, an empty log, or the drawing was
  /// replaced meanwhile).
  ///
  /// The slow part (decode, apply, encode) runs outside the write lock, so
  /// appends go on meanwhile; the rows they add stay in the log, after the
  /// new snapshot. `lineCount` and `circleCount` become exact unless such
  /// rows came, until the next compaction.
  @discardableResult
  public func compact(_ name: DrawingName) async throws -> Int? {
    var revision: Int?
    try await observer.observeCompaction(.call) {
      revision = try await compact(name, keepingByPolicy: false, afterReading: {})
      return revision != nil
    }
    return revision
  }

  /// `compact`, with `afterReading` run between reading the log and storing
  /// the snapshot: tests append there. `keepingByPolicy`: leave the changes
  /// the policy keeps (`CompactionPolicy.keptChanges`), as the background
  /// fold does.
  func compact(
    _ name: DrawingName, keepingByPolicy: Bool, afterReading: @Sendable () async throws -> Void
  ) async throws -> Int? {
    let policy = compaction
    let folded = try await database.read { db -> Folded? in
      // The background fold reads the summary first: a log within its
      // drawing's limits (a big drawing's may grow further) is left alone
      // without reading the drawing.
      if keepingByPolicy {
        guard let head = try DrawingRecord.fetchOne(db, key: name.rawValue), policy.isDue(head) else { return nil }
      }
      guard let state = try LogState.read(name, in: db), !state.changes.isEmpty else { return nil }
      return try state.folded(keeping: keepingByPolicy ? policy.kept(state.head) : 0)
    }
    guard let folded else { return nil }
    try await afterReading()
    return try await store(folded) ? folded.revision : nil
  }

  /// Stores `folded` as the snapshot and deletes the log rows up to its
  /// revision but the last `behind` of them, unless the drawing moved on in
  /// a way that makes it wrong. Rows kept behind the snapshot are not
  /// replayed (reads start at the snapshot) and not counted in `logBytes`;
  /// they are there for `changes(of:since:)`, and go with the next fold.
  ///
  /// Why the check is enough: revisions only grow, and `save` and `delete`
  /// (which replace or drop the snapshot) set `snapshotRevision` to their
  /// own revision, above every revision there was when `folded` was read.
  /// So while `snapshotRevision` is below `folded.revision` and the drawing
  /// exists, only appends (rows after it) and other compactions (at or
  /// below it) have happened since, and every row up to `folded.revision`
  /// is one `folded` replayed.
  func store(_ folded: Folded, keepingBehind behind: Int = 0) async throws -> Bool {
    let name = folded.snapshot.name
    return try await writeTransaction { db in
      guard var head = try DrawingRecord.fetchOne(db, key: name), !head.isDeleted,
        head.snapshotRevision < folded.revision, folded.revision <= head.revision
      else { return false }
      try folded.snapshot.save(db)
      try db.execute(
        sql: "DELETE FROM drawingChange WHERE name = ? AND revision <= ?",
        arguments: [name, folded.revision - max(0, behind)])
      if head.revision == folded.countedAt {
        head.lineCount = folded.lineCount
        head.circleCount = folded.circleCount
      }
      head.snapshotRevision = folded.revision
      head.logBytes =
        try Int.fetchOne(
          db,
          sql: "SELECT COALESCE(SUM(length(CAST(change AS BLOB))), 0) FROM drawingChange"
            + " WHERE name = ? AND revision > ?",
          arguments: [name, folded.revision]) ?? 0
      try head.update(db)
      try db.execute(
        sql: "DELETE FROM drawingBatch WHERE name = ? AND revision <= ?",
        arguments: [name, folded.revision - Self.keptBatchRevisions])
      return true
    }
  }

  func namesDueForCompaction() async -> [String] {
    let policy = compaction
    return
      (try? await database.read { db in
        try String.fetchAll(
          db,
          sql: "SELECT name FROM drawing WHERE NOT isDeleted AND revision > snapshotRevision"
            + " AND (revision - snapshotRevision >= ? OR logBytes >= ?)",
          arguments: [policy.dueLogCount, policy.maximumLogBytes])
      }) ?? []
  }

  /// Returns once no compaction is under way (tests, benchmarks).
  public func waitForCompactions() async {
    await compactions.idle()
  }
}
