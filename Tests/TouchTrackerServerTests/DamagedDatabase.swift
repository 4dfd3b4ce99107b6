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
