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

  /// Rows come only from `DrawingStore`, which validates names first.
  var summary: DrawingSummary {
    DrawingSummary(
      name: try! DrawingName(name),
      revision: revision,
      updatedAt: updatedAt,
      lineCount: lineCount,
      circleCount: circleCount
    )
  }
}
