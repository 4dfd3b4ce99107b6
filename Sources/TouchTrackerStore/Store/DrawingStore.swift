import Foundation
import GRDB
import TouchTrackerCore

/// Named drawings in one SQLite file, each with a revision that counts its
/// saves, for optimistic concurrency (HTTP `ETag` and `If-Match`).
///
/// Durability: the database runs in WAL mode with `synchronous = FULL`, so
/// when `save` or `delete` returns, the commit is in the WAL file and synced
/// to disk. A killed process, or a power cut, loses nothing acknowledged.
///
/// Concurrency: each save or delete is one `BEGIN IMMEDIATE` transaction that
/// reads the current revision and writes the next. SQLite serializes those,
/// between tasks of this process and between processes sharing the file, so
/// of several saves that expect the same revision exactly one wins.
///
/// A deleted drawing leaves a row without a document (a tombstone) that keeps
/// its revision: a drawing created again under the same name continues from
/// there, so a client holding a revision of the old drawing gets a conflict
/// instead of overwriting the new one.
public final class DrawingStore: Sendable {
  public let path: String
  /// Internal, not private, so tests can check the connection's settings.
  let database: DatabasePool
  private let now: @Sendable () -> Date

  /// Opens the database at `path`, creating it and its tables if needed.
  ///
  /// An existing file must be one of ours (or a SQLite file without tables):
  /// an empty file, a foreign database or a non-database is refused before
  /// anything writes to it (see `DatabaseFileCheck`).
  ///
  /// - Parameter now: The clock that stamps `updatedAt`; tests inject one.
  public init(path: String, now: @escaping @Sendable () -> Date = { Date() }) throws(DrawingStoreError) {
    self.path = path
    self.now = now
    try DatabaseFileCheck.check(path: path)
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    do {
      database = try DatabasePool(path: path, configuration: configuration)
      // After the pool is open: GRDB sets `synchronous = NORMAL` on its
      // writer when it turns WAL on, which syncs only at checkpoints. All
      // writes go through that one connection, so this lasts.
      try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
      try Self.migrator.migrate(database)
    } catch let error as DatabaseError {
      throw .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
    } catch {
      throw .cannotOpen(path: path, reason: "\(error)")
    }
  }

  /// Every drawing that exists, by name.
  public func list() async throws -> [DrawingSummary] {
    try await database.read { db in
      try DrawingRecord
        .filter(DrawingRecord.Columns.document != nil)
        .order(DrawingRecord.Columns.name)
        .fetchAll(db)
        .compactMap(\.summary)
    }
  }

  /// The drawing named `name`, or nil if there is none.
  public func load(_ name: DrawingName) async throws -> StoredDrawing? {
    guard let document = try await loadDocument(name) else { return nil }
    let drawing = try DocumentCodec.decode(document.json)
    return StoredDrawing(drawing: drawing, revision: document.revision, updatedAt: document.updatedAt)
  }

  /// The document text of the drawing named `name`, or nil if there is none.
  ///
  /// - Throws: `DrawingStoreError.damaged` if the stored text no longer
  ///   matches its checksum.
  public func loadDocument(_ name: DrawingName) async throws -> StoredDocument? {
    try await database.read { db in
      guard let record = try DrawingRecord.fetchOne(db, key: name.rawValue),
        let document = try record.verifiedDocument()
      else { return nil }
      return StoredDocument(json: document, revision: record.revision, updatedAt: record.updatedAt)
    }
  }

  /// Saves `drawing` as `name`, creating it if needed, and returns its new
  /// revision (1 for a new drawing).
  ///
  /// - Parameter expected: The revision the caller last saw (0: "must not
  ///   exist"); nil saves whatever is stored.
  /// - Throws: `DrawingStoreError.conflict` if `expected` is not the current
  ///   revision; `DocumentError` if the drawing holds a NaN or infinity.
  @discardableResult
  public func save(_ drawing: Drawing, as name: DrawingName, ifRevision expected: Int? = nil) async throws -> Int {
    let document = String(decoding: try DocumentCodec.encode(drawing), as: UTF8.self)
    let updatedAt = now()
    return try await writeTransaction { db in
      let stored = try DrawingRecord.fetchOne(db, key: name.rawValue)
      try Self.check(expected, against: stored, name: name)
      let revision = (stored?.revision ?? 0) + 1
      try DrawingRecord(
        name: name.rawValue,
        document: document,
        revision: revision,
        lineCount: drawing.lines.count,
        circleCount: drawing.circles.count,
        updatedAt: updatedAt
      ).save(db)
      return revision
    }
  }

  /// Deletes the drawing named `name`; false if there was none.
  ///
  /// - Throws: `DrawingStoreError.conflict` if `expected` is given and the
  ///   drawing is at another revision.
  @discardableResult
  public func delete(_ name: DrawingName, ifRevision expected: Int? = nil) async throws -> Bool {
    let updatedAt = now()
    return try await writeTransaction { db in
      guard var stored = try DrawingRecord.fetchOne(db, key: name.rawValue), stored.document != nil else {
        return false
      }
      try Self.check(expected, against: stored, name: name)
      stored.document = nil
      stored.checksum = nil
      stored.revision += 1
      stored.lineCount = 0
      stored.circleCount = 0
      stored.updatedAt = updatedAt
      try stored.update(db)
      return true
    }
  }

  /// Runs `body` in a `BEGIN IMMEDIATE` transaction: it takes the write lock
  /// before reading, so no other process can commit between this read of a
  /// revision and the write of the next.
  private func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    try await database.writeWithoutTransaction { db in
      var result: T?
      try db.inTransaction(.immediate) {
        result = try body(db)
        return .commit
      }
      return result!
    }
  }

  private static func check(_ expected: Int?, against stored: DrawingRecord?, name: DrawingName) throws {
    guard let expected else { return }
    let current = stored.flatMap { $0.document == nil ? nil : $0.revision } ?? 0
    guard expected == current else {
      throw DrawingStoreError.conflict(name: name.rawValue, expected: expected, current: current)
    }
  }
}
