import Foundation
import GRDB

/// One row of the `drawing` table: a drawing's summary and where its
/// snapshot and log stand, all small columns (the document is in
/// `SnapshotRecord`). A deleted drawing keeps its row, `isDeleted`, to keep
/// its revision (see `SQLiteDrawingStore`).
struct DrawingRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "drawing"

  var name: String
  var revision: Int
  var isDeleted: Bool
  /// Exact at `snapshotRevision`; the log's changes move them as they
  /// promise (`Change.countDelta`), and compaction makes them exact again.
  var lineCount: Int
  var circleCount: Int
  var updatedAt: Date
  /// The revision the snapshot is at; the log holds every one after it.
  var snapshotRevision: Int
  /// The UTF-8 bytes of the log's changes.
  var logBytes: Int

  /// The revision `If-Match` compares with: 0 for a drawing that does not exist.
  var currentRevision: Int { isDeleted ? 0 : revision }

  /// How many changes the log holds.
  var logCount: Int { revision - snapshotRevision }

  /// `date` as GRDB stores a `Date` ("yyyy-MM-dd HH:mm:ss.SSS", UTC), for
  /// the raw statements of `append`: a `DateFormatter` costs more than the
  /// rest of formatting the row.
  static func databaseText(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    var seconds = time_t(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
    var fraction = Int(milliseconds.quotientAndRemainder(dividingBy: 1000).remainder)
    if fraction < 0 {
      seconds -= 1
      fraction += 1000
    }
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func digits(_ value: Int, _ count: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, count - text.count)) + text
    }
    return
      "\(digits(Int(parts.tm_year) + 1900, 4))-\(digits(Int(parts.tm_mon) + 1, 2))-\(digits(Int(parts.tm_mday), 2)) "
      + "\(digits(Int(parts.tm_hour), 2)):\(digits(Int(parts.tm_min), 2)):\(digits(Int(parts.tm_sec), 2))."
      + digits(fraction, 3)
  }
}

/// One row of `drawingSnapshot`: a drawing's document at its
/// `snapshotRevision`, with the CRC-32 of its UTF-8 bytes.
struct SnapshotRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "drawingSnapshot"

  var name: String
  var document: String
  var checksum: Int64

  init(name: String, document: String) {
    self.name = name
    self.document = document
    self.checksum = Int64(CRC32.checksum(document.utf8))
  }

  /// The document's bytes if they still match the checksum written with them.
  ///
  /// - Throws: `DrawingStoreError.damaged` if they do not: the row was
  ///   damaged after it was written (disk, copy, hand edit), and serving it
  ///   would hand a client a document it may save back over good copies.
  func verifiedDocument() throws(DrawingStoreError) -> Data {
    let bytes = Data(document.utf8)
    guard UInt32(truncatingIfNeeded: checksum) == CRC32.checksum(bytes) else { throw .damaged(name: name) }
    return bytes
  }
}

/// One row of `drawingChange`: the change that made `revision`, as
/// `ChangeCoder` writes it, with its CRC-32 and the idempotency key of the
/// batch it came in.
struct ChangeRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "drawingChange"

  var name: String
  var revision: Int
  var change: String
  var batchKey: String?
  var checksum: Int64

  init(name: String, revision: Int, change: String, batchKey: String?) {
    self.name = name
    self.revision = revision
    self.change = change
    self.batchKey = batchKey
    self.checksum = Int64(CRC32.checksum(change.utf8))
  }

  /// - Throws: `DrawingStoreError.damaged` if the text no longer matches its checksum.
  func verified() throws(DrawingStoreError) -> ChangeRecord {
    guard UInt32(truncatingIfNeeded: checksum) == CRC32.checksum(change.utf8) else { throw .damaged(name: name) }
    return self
  }
}

extension DrawingRecord {
  /// - Throws: `DrawingStoreError.changesGone` unless the log holds every
  ///   change after `since`: not ahead of the drawing, and either after the
  ///   snapshot or among the rows a read's fold keeps behind it, which
  ///   begin at `firstRow` (the oldest change row after `since`; rows are
  ///   only ever deleted oldest first, so they run unbroken from there).
  func checkLogReaches(_ since: Int, firstRow: Int?) throws(DrawingStoreError) {
    guard since <= revision, since >= snapshotRevision || firstRow == since + 1 else { throw changesGone(since) }
  }

  func changesGone(_ since: Int) -> DrawingStoreError {
    .changesGone(name: name, since: since, snapshotRevision: snapshotRevision, current: revision)
  }
}

extension StoredChanges {
  /// The changes after `since` up to `head`'s revision, from the log's
  /// `records` in revision order (as both stores read them).
  ///
  /// - Throws: `DrawingStoreError.damaged` if a revision is missing or a
  ///   change no longer matches its checksum.
  init(_ records: [ChangeRecord], after since: Int, head: DrawingRecord) throws(DrawingStoreError) {
    guard records.count == head.revision - since else { throw .damaged(name: head.name) }
    var changes: [StoredChange] = []
    changes.reserveCapacity(records.count)
    for record in records {
      let record = try record.verified()
      changes.append(StoredChange(revision: record.revision, json: record.change, batchKey: record.batchKey))
    }
    self.init(revision: head.revision, changes: changes)
  }
}
