import Foundation
import GRDB

/// Flips one character inside a stored document the way a bad disk would,
/// leaving its checksum as it was.
func damage(drawing name: String, in path: String) async throws {
  let queue = try DatabaseQueue(path: path)
  try await queue.write { db in
    try db.execute(
      sql: "UPDATE drawingSnapshot SET document = replace(document, '\"lines\"', '\"linea\"') WHERE name = ?",
      arguments: [name])
  }
  try queue.close()
}

/// Returns once the background fold a read scheduled has stored drawing
/// `name`'s snapshot at `revision` (a minute allowed for a busy machine).
func waitForSnapshot(at revision: Int, of name: String, in path: String) async throws {
  var configuration = Configuration()
  configuration.readonly = true
  let queue = try DatabaseQueue(path: path, configuration: configuration)
  defer { try? queue.close() }
  let clock = ContinuousClock()
  let deadline = clock.now + .seconds(60)
  while try await queue.read({ db in
    try Int.fetchOne(db, sql: "SELECT snapshotRevision FROM drawing WHERE name = ?", arguments: [name])
  }) != revision {
    guard clock.now < deadline else { throw SnapshotNotStored(name: name, revision: revision) }
    try await Task.sleep(for: .milliseconds(20))
  }
}

struct SnapshotNotStored: Error, CustomStringConvertible {
  var name: String
  var revision: Int
  var description: String { "Drawing '\(name)' has no snapshot at revision \(revision) after 60 s" }
}
