import Foundation
import TouchTrackerCore

/// A backup, and its restore: every drawing of one store copied into
/// another, empty one, of either backend (`touchtracker backup` writes a
/// SQLite file, `touchtracker restore` reads one).
///
/// Each drawing is read whole as it is at that moment (its log folded) and
/// written at the same revision, with its last change's time and its share
/// links, so a page that knew it goes on from where it was. What is not
/// copied: the admin token (the server of the restored database prints its
/// own), the log of past changes and idempotency keys (folded into the
/// document), deleted drawings and the record of renames.
public enum DrawingBackup {
  /// What a copy wrote.
  public struct Copied: Equatable, Sendable {
    /// Drawings written.
    public var drawings = 0
    /// Of those, the ones with share links.
    public var links = 0
  }

  /// Copies every drawing of `source` into `destination`, which must hold
  /// none. A drawing written to while the copy runs is copied as it was
  /// when it was read: everything acknowledged before the copy began is in it.
  ///
  /// - Throws: `DrawingBackupError.notEmpty` if `destination` holds a
  ///   drawing; the stores' errors otherwise.
  public static func copy(from source: any DrawingStorage, to destination: any DrawingStorage) async throws -> Copied {
    let existing = try await destination.list()
    guard existing.isEmpty else {
      throw DrawingBackupError.notEmpty(location: destination.location, drawings: existing.count)
    }
    var copied = Copied()
    for summary in try await source.list() {
      // Deleted since the list was read: nothing to copy.
      guard let stored = try await source.loadDocument(summary.name) else { continue }
      let drawing: Drawing
      do {
        drawing = try DocumentCodec.decode(stored.json)
      } catch {
        throw DrawingStoreError.unreadable(name: summary.name.rawValue, reason: error.description)
      }
      let links = try await source.links(of: summary.name)
      try await destination.restore(
        drawing, as: summary.name, revision: stored.revision, updatedAt: stored.updatedAt, links: links)
      copied.drawings += 1
      if links != nil { copied.links += 1 }
    }
    return copied
  }
}

/// Why a backup or restore did not start.
public enum DrawingBackupError: Error, Equatable, CustomStringConvertible {
  /// The store to copy into already holds drawings.
  case notEmpty(location: String, drawings: Int)

  public var description: String {
    switch self {
    case .notEmpty(let location, let drawings):
      "\(location) already holds \(drawings) drawing\(drawings == 1 ? "" : "s"): restore into an empty database"
    }
  }
}
