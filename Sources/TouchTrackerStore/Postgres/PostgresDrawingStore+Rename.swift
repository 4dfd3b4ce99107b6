import Foundation
import PostgresNIO

/// Renaming (`SQLiteDrawingStore+Rename.swift`'s twin). The transaction holds the
/// advisory locks of both names, taken in the order of their keys
/// (`hashtext(name)`), as append groups take theirs (migration 7), so two
/// renames the other way round, or a rename and a group, cannot deadlock; other servers hear a
/// rename of the old name (their clients follow it) and a save of the new
/// one (their clients of that name start over).
extension PostgresDrawingStore {
  public func summary(of name: DrawingName) async throws -> DrawingSummary? {
    try await read { connection in
      guard let head = try await self.head(name.rawValue, on: connection), !head.isDeleted else { return nil }
      return DrawingSummary(
        name: name, revision: head.revision, updatedAt: head.updatedAt, lineCount: head.lineCount,
        circleCount: head.circleCount)
    }
  }

  public func rename(_ name: DrawingName, to newName: DrawingName, ifRevision expected: Int?) async throws -> Renamed? {
    let updatedAt = now()
    let (old, new) = (name.rawValue, newName.rawValue)
    return try await transaction("BEGIN") { connection in
      var keys: [Int32] = []
      for try await key in try await connection.query(
        "SELECT DISTINCT hashtext(n) FROM unnest(\([old, new])::text[]) AS n", logger: self.logger
      ).decode(Int32.self) {
        keys.append(key)
      }
      for key in keys.sorted() {
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockSpace), \(key))", logger: self.logger)
      }
      guard var source = try await self.head(old, on: connection), !source.isDeleted else { return nil }
      if let expected, expected != source.revision {
        throw DrawingStoreError.conflict(name: old, expected: expected, current: source.revision)
      }
      let target = try await self.head(new, on: connection)
      if old == new || target?.isDeleted == false { throw DrawingStoreError.nameTaken(name: new) }
      let shift = Renamed.shift(from: source.revision, past: target?.revision)
      // What a deleted drawing under the new name left belongs to it.
      try await connection.query("DELETE FROM drawing WHERE name = \(new)", logger: self.logger)
      try await connection.query("DELETE FROM drawingSnapshot WHERE name = \(new)", logger: self.logger)
      try await connection.query("DELETE FROM drawingChange WHERE name = \(new)", logger: self.logger)
      try await connection.query("DELETE FROM drawingBatch WHERE name = \(new)", logger: self.logger)
      try await connection.query("DELETE FROM drawingLink WHERE name = \(new)", logger: self.logger)
      var moved = source
      moved.name = new
      moved.revision += shift
      moved.snapshotRevision += shift
      try await self.upsertHead(moved, on: connection)
      try await connection.query(
        "UPDATE drawingSnapshot SET name = \(new) WHERE name = \(old)", logger: self.logger)
      try await connection.query(
        "UPDATE drawingChange SET name = \(new), revision = revision + \(shift) WHERE name = \(old)",
        logger: self.logger)
      try await connection.query(
        "UPDATE drawingBatch SET name = \(new), revision = revision + \(shift) WHERE name = \(old)",
        logger: self.logger)
      try await connection.query("UPDATE drawingLink SET name = \(new) WHERE name = \(old)", logger: self.logger)
      let previous = source.revision
      source.isDeleted = true
      source.revision += 1
      source.lineCount = 0
      source.circleCount = 0
      source.updatedAt = updatedAt
      source.snapshotRevision = source.revision
      source.logBytes = 0
      try await self.upsertHead(source, on: connection)
      let (moveShift, tombstone) = (moved.revision - previous, source.revision)
      try await connection.query(
        """
        INSERT INTO drawingRename (name, renamedTo, shift, tombstoneRevision)
        VALUES (\(old), \(new), \(moveShift), \(tombstone))
        ON CONFLICT (name) DO UPDATE SET renamedTo = EXCLUDED.renamedTo, shift = EXCLUDED.shift,
          tombstoneRevision = EXCLUDED.tombstoneRevision
        """, logger: self.logger)
      let notice = DrawingNotice(
        kind: .rename, name: old, revision: source.revision, renamedTo: new, shift: moved.revision - previous)
      try await connection.query("SELECT pg_notify(\(Self.changeChannel), \(notice.payload))", logger: self.logger)
      try await self.notify(.save, new, revision: moved.revision, on: connection)
      return Renamed(previousRevision: previous, revision: moved.revision, tombstoneRevision: source.revision)
    }
  }

  public func movedTo(_ name: DrawingName) async throws -> DrawingMove? {
    try await read { connection in
      let rows = try await connection.query(
        """
        SELECT r.renamedTo, r.shift FROM drawingRename r JOIN drawing d ON d.name = r.name
        WHERE r.name = \(name.rawValue) AND d.isDeleted AND d.revision = r.tombstoneRevision
        """, logger: self.logger)
      for try await (target, shift) in rows.decode((String, Int).self) {
        guard let target = try? DrawingName(target) else { return nil }
        return DrawingMove(name: target, shift: shift)
      }
      return nil
    }
  }
}
