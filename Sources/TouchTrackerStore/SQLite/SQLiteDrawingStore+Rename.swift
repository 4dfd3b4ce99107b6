import Foundation
import GRDB

/// Renaming a drawing and reading one drawing's summary.
///
/// A rename moves every row the drawing has to the new name in one
/// `BEGIN IMMEDIATE` transaction: the summary, the snapshot, the log, the
/// idempotency keys and the share links. Nothing is decoded or copied, so
/// it costs the same whatever the drawing's size (besides updating its log
/// rows' names). The old name keeps a tombstone one revision on, as a
/// delete leaves it; a tombstone under the new name is replaced, and the
/// drawing's revisions move past it (see `DrawingStorage.rename`).
extension SQLiteDrawingStore {
  public func summary(of name: DrawingName) async throws -> DrawingSummary? {
    try await database.read { db in
      guard let head = try DrawingRecord.fetchOne(db, key: name.rawValue), !head.isDeleted else { return nil }
      return DrawingSummary(
        name: name, revision: head.revision, updatedAt: head.updatedAt, lineCount: head.lineCount,
        circleCount: head.circleCount)
    }
  }

  public func rename(_ name: DrawingName, to newName: DrawingName, ifRevision expected: Int?) async throws -> Renamed? {
    let updatedAt = now()
    let (old, new) = (name.rawValue, newName.rawValue)
    return try await writeTransaction { db in
      guard var source = try DrawingRecord.fetchOne(db, key: old), !source.isDeleted else { return nil }
      if let expected, expected != source.revision {
        throw DrawingStoreError.conflict(name: old, expected: expected, current: source.revision)
      }
      let target = try DrawingRecord.fetchOne(db, key: new)
      if old == new || target?.isDeleted == false { throw DrawingStoreError.nameTaken(name: new) }
      let shift = Renamed.shift(from: source.revision, past: target?.revision)
      // What a deleted drawing under the new name left: its keys and links
      // belong to it, not to this one.
      for table in ["drawing", "drawingSnapshot", "drawingChange", "drawingBatch", "drawingLink"] {
        try db.execute(sql: "DELETE FROM \(table) WHERE name = ?", arguments: [new])
      }
      var moved = source
      moved.name = new
      moved.revision += shift
      moved.snapshotRevision += shift
      try moved.insert(db)
      try db.execute(sql: "UPDATE drawingSnapshot SET name = ? WHERE name = ?", arguments: [new, old])
      for table in ["drawingChange", "drawingBatch"] {
        try db.execute(
          sql: "UPDATE \(table) SET name = ?, revision = revision + ? WHERE name = ?", arguments: [new, shift, old])
      }
      try db.execute(sql: "UPDATE drawingLink SET name = ? WHERE name = ?", arguments: [new, old])
      let previous = source.revision
      source.isDeleted = true
      source.revision += 1
      source.lineCount = 0
      source.circleCount = 0
      source.updatedAt = updatedAt
      source.snapshotRevision = source.revision
      source.logBytes = 0
      try source.update(db)
      try db.execute(
        sql: "INSERT OR REPLACE INTO drawingRename (name, renamedTo, shift, tombstoneRevision) VALUES (?, ?, ?, ?)",
        arguments: [old, new, moved.revision - previous, source.revision])
      return Renamed(previousRevision: previous, revision: moved.revision, tombstoneRevision: source.revision)
    }
  }

  public func movedTo(_ name: DrawingName) async throws -> DrawingMove? {
    // Sendable values out of the read, so it runs off the caller's thread (a `Row` would make it synchronous).
    let found: (target: String, shift: Int)? = try await database.read { db in
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT r.renamedTo, r.shift FROM drawingRename r JOIN drawing d ON d.name = r.name
          WHERE r.name = ? AND d.isDeleted AND d.revision = r.tombstoneRevision
          """, arguments: [name.rawValue])
      return row.map { ($0["renamedTo"], $0["shift"]) }
    }
    guard let found, let target = try? DrawingName(found.target) else { return nil }
    return DrawingMove(name: target, shift: found.shift)
  }
}

extension Renamed {
  /// How far a drawing at `revision` moves up when renamed onto a name
  /// whose tombstone is at `tombstone`: past it, as a drawing created there
  /// would continue from it, so a client holding a revision of the deleted
  /// drawing gets a conflict. 0 when the name was never used or its
  /// tombstone is behind.
  static func shift(from revision: Int, past tombstone: Int?) -> Int {
    guard let tombstone, tombstone >= revision else { return 0 }
    return tombstone + 1 - revision
  }
}
