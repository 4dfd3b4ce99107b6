import Foundation
import PostgresNIO
import TouchTrackerCore

/// A drawing written from a backup (`DrawingBackup`).
extension PostgresDrawingStore {
  public func restore(
    _ drawing: Drawing, as name: DrawingName, revision: Int, updatedAt: Date, links: DrawingLinks?
  ) async throws {
    let snapshot = SnapshotRecord(
      name: name.rawValue, document: try DocumentCodec.encodeText(drawing))
    let rawName = name.rawValue
    try await write(rawName) { connection in
      guard try await self.head(rawName, on: connection) == nil else {
        throw DrawingStoreError.nameTaken(name: rawName)
      }
      try await self.upsertHead(
        DrawingRecord(
          name: rawName, revision: revision, isDeleted: false, lineCount: drawing.lines.count,
          circleCount: drawing.circles.count, updatedAt: updatedAt, snapshotRevision: revision, logBytes: 0),
        on: connection)
      try await self.upsertSnapshot(snapshot, on: connection)
      if let links {
        try await connection.query(
          """
          INSERT INTO drawingLink (name, edit, view) VALUES (\(rawName), \(links.edit), \(links.view))
          ON CONFLICT (name) DO UPDATE SET edit = excluded.edit, view = excluded.view
          """, logger: self.logger)
      }
      try await self.notify(.save, rawName, revision: revision, on: connection)
    }
  }
}
