import Foundation
import GRDB
import TouchTrackerCore

/// A drawing written from a backup (`DrawingBackup`).
extension SQLiteDrawingStore {
  public func restore(
    _ drawing: Drawing, as name: DrawingName, revision: Int, updatedAt: Date, links: DrawingLinks?
  ) async throws {
    let snapshot = SnapshotRecord(
      name: name.rawValue, document: try DocumentCodec.encodeText(drawing))
    try await writeTransaction { db in
      guard try DrawingRecord.fetchOne(db, key: name.rawValue) == nil else {
        throw DrawingStoreError.nameTaken(name: name.rawValue)
      }
      try DrawingRecord(
        name: name.rawValue, revision: revision, isDeleted: false, lineCount: drawing.lines.count,
        circleCount: drawing.circles.count, updatedAt: updatedAt, snapshotRevision: revision, logBytes: 0
      ).insert(db)
      try snapshot.save(db)
      if let links {
        try db.execute(
          sql: "INSERT OR REPLACE INTO drawingLink (name, edit, view) VALUES (?, ?, ?)",
          arguments: [name.rawValue, links.edit, links.view])
      }
    }
  }
}
