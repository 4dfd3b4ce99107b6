import Foundation
import GRDB

/// One row of the `drawing` table. `document` is nil for a deleted drawing,
/// whose row stays to keep its revision (see `DrawingStore`).
struct DrawingRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "drawing"

  var name: String
  var document: String?
  /// The CRC-32 of `document`'s UTF-8 bytes; nil for a tombstone.
  var checksum: Int64?
  var revision: Int
  var lineCount: Int
  var circleCount: Int
  var updatedAt: Date

  enum Columns {
    static let name = Column(CodingKeys.name)
    static let document = Column(CodingKeys.document)
  }

  init(
    name: String, document: String?, revision: Int, lineCount: Int, circleCount: Int, updatedAt: Date
  ) {
    self.name = name
    self.document = document
    self.checksum = document.map { Int64(CRC32.checksum($0.utf8)) }
    self.revision = revision
    self.lineCount = lineCount
    self.circleCount = circleCount
    self.updatedAt = updatedAt
  }

  /// The document's bytes if they still match the checksum written with
  /// them, nil for a tombstone.
  ///
  /// - Throws: `DrawingStoreError.damaged` if they do not: the row was
  ///   damaged after it was written (disk, copy, hand edit), and serving it
  ///   would hand a client a document it may save back over good copies.
  func verifiedDocument() throws(DrawingStoreError) -> Data? {
    guard let document else { return nil }
    let bytes = Data(document.utf8)
    guard let checksum, UInt32(truncatingIfNeeded: checksum) == CRC32.checksum(bytes) else {
      throw .damaged(name: name)
    }
    return bytes
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
