import Foundation
import GRDB

/// One row of the `drawing` table. `document` is nil for a deleted drawing,
/// whose row stays to keep its revision (see `DrawingStore`).
struct DrawingRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "drawing"

  var name: String
  var document: String?
  var revision: Int
  var lineCount: Int
  var circleCount: Int
  var updatedAt: Date

  enum Columns {
    static let name = Column(CodingKeys.name)
    static let document = Column(CodingKeys.document)
  }

  /// Nil for a row whose name is not valid, which only editing the file by
  /// hand can make: `DrawingStore` validates names before writing.
  var summary: DrawingSummary? {
    guard let name = try? DrawingName(name) else { return nil }
    return DrawingSummary(
      name: name,
      revision: revision,
      updatedAt: updatedAt,
      lineCount: lineCount,
      circleCount: circleCount
    )
  }
}
