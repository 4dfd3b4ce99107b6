import Foundation
import GRDB
import TouchTrackerCore

/// Named drawings in one SQLite file, each a snapshot document plus a log of
/// the changes made since, with a revision that counts its changes, for
/// optimistic concurrency (HTTP `ETag` and `If-Match`).
///
/// Saving a change appends a row to the log (`append`): small, and the same
/// cost whatever the drawing's size, because nothing reads, decodes or
/// rewrites the document. `save` replaces the whole document (an import)
/// and empties the log. Reading a drawing with a log replays the log over
/// the snapshot; compaction folds the log into a new snapshot in the
/// background once it is long (`CompactionPolicy`).
///
/// Durability: the database runs in WAL mode with `synchronous = FULL`, so
/// when `save`, `append` or `delete` returns, the commit is in the WAL file
/// and synced to disk. A killed process, or a power cut, loses nothing
/// acknowledged.
///
/// Concurrency: each write is one `BEGIN IMMEDIATE` transaction that reads
/// the current revision and writes the next. SQLite serializes those,
/// between tasks of this process and between processes sharing the file, so
/// of several writes that expect the same revision exactly one wins.
///
/// A deleted drawing leaves a row without a document (a tombstone) that keeps
/// its revision: a drawing created again under the same name continues from
/// there, so a client holding a revision of the old drawing gets a conflict
/// instead of overwriting the new one.
public final class SQLiteDrawingStore: Sendable {
  public let path: String
  /// When the log is folded into the snapshot.
  public let compaction: CompactionPolicy
  /// Internal, not private, so tests can check the connection's settings.
  let database: DatabasePool
  let now: @Sendable () -> Date
  let compactions = CompactionScheduler()
  /// Who hears of the folds (`/metrics`).
  public let observer: any StoreObserver

  /// How many revisions back an idempotency key is remembered: a retry of a
  /// batch older than that (in changes to its drawing) would append again.
  static let keptBatchRevisions = 100_000

  /// Opens the database at `path`, creating it and its tables if needed,
  /// and starts compacting the drawings whose logs are long already.
  ///
  /// An existing file must be one of ours (or a SQLite file without tables):
  /// an empty file, a foreign database or a non-database is refused before
  /// anything writes to it (see `DatabaseFileCheck`).
  ///
  /// - Parameters:
  ///   - compaction: When to fold logs into snapshots; tests pass `.manual`.
  ///   - now: The clock that stamps `updatedAt`; tests inject one.
  ///   - observer: Who hears of the folds.
  public init(
    path: String, compaction: CompactionPolicy = .automatic, now: @escaping @Sendable () -> Date = { Date() },
    observer: any StoreObserver = NoStoreObserver()
  ) throws(DrawingStoreError) {
    self.path = path
    self.compaction = compaction
    self.observer = observer
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
    if compaction.isAutomatic {
      // "" is no drawing's name.
      compactions.schedule("") { [self] in await scheduleDueCompactions() }
    }
  }

  /// Every drawing that exists, by name, from the summary columns alone: no
  /// document is read, so listing costs the same whatever their sizes.
  public func list() async throws -> [DrawingSummary] {
    try await database.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT name, revision, updatedAt, lineCount, circleCount FROM drawing
          WHERE NOT isDeleted ORDER BY name
          """
      ).compactMap { row in
        // Only editing the file by hand can make a name that is not valid.
        guard let name = try? DrawingName(row["name"] as String) else { return nil }
        return DrawingSummary(
          name: name, revision: row["revision"], updatedAt: row["updatedAt"], lineCount: row["lineCount"],
          circleCount: row["circleCount"])
      }
    }
  }

  /// A page of the list: newest first, by the index `drawingByTime`
  /// (migration "Drawings list by time"). `updatedAt` is text of fixed
  /// shape, so comparing texts compares times.
  public func list(_ query: DrawingListQuery) async throws -> DrawingListPage {
    let (sql, arguments) = Self.listStatement(query)
    let rows = try await database.read { [sql, arguments] db in
      try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row -> (DrawingSummary, Int64)? in
        guard let name = try? DrawingName(row["name"] as String) else { return nil }
        let updatedAt: Date = row["updatedAt"]
        return (
          DrawingSummary(
            name: name, revision: row["revision"], updatedAt: updatedAt, lineCount: row["lineCount"],
            circleCount: row["circleCount"]),
          DrawingListCursor.microseconds(updatedAt, precision: 1000)
        )
      }
    }
    return DrawingListPage(rows: rows.map { (summary: $0.0, microseconds: $0.1) }, limit: query.limit)
  }

  /// The statement of `list(_ query:)`.
  static func listStatement(_ query: DrawingListQuery) -> (String, StatementArguments) {
    var sql = """
      SELECT name, revision, updatedAt, lineCount, circleCount FROM drawing
      WHERE NOT isDeleted AND instr(lower(name), ?) > 0
      """
    var arguments: StatementArguments = [query.search]
    if let after = query.after {
      let time = after.timestampText(fractionDigits: 3)
      sql += " AND updatedAt <= ? AND (updatedAt < ? OR name > ?)"
      arguments += [time, time, after.name.rawValue]
    }
    sql += " ORDER BY updatedAt DESC, name LIMIT ?"
    arguments += [query.limit + 1]
    return (sql, arguments)
  }

  /// The drawing named `name`, or nil if there is none.
  ///
  /// - Throws: `DrawingStoreError.damaged` if its snapshot or a change no
  ///   longer matches its checksum, `.unreadable` if one cannot be read.
  public func load(_ name: DrawingName) async throws -> StoredDrawing? {
    try await database.read { db in
      guard let state = try LogState.read(name, in: db) else { return nil }
      return StoredDrawing(
        drawing: try state.replayed(), revision: state.head.revision, updatedAt: state.head.updatedAt)
    }
  }

  /// The document text of the drawing named `name`, or nil if there is none.
  ///
  /// Without changes after the snapshot, the snapshot's text as it is, not
  /// decoded. Otherwise the snapshot with the log replayed over it and
  /// written again; with automatic compaction, that result is then stored
  /// as the new snapshot in the background, so the next read is the fast
  /// one. That fold keeps the last changes it folds as rows behind the
  /// snapshot (`CompactionPolicy.keptChanges`, as the background fold
  /// keeps them), so a client a revision or a few behind still reads the
  /// changes it lacks instead of `changesGone` (a `reset` and the whole
  /// document) because someone opened the drawing.
  ///
  /// - Throws: `DrawingStoreError.damaged` if the stored text no longer
  ///   matches its checksum, `.unreadable` if it cannot be read.
  public func loadDocument(_ name: DrawingName) async throws -> StoredDocument? {
    let policy = compaction
    let loaded = try await database.read { db -> (StoredDocument, Folded?, behind: Int)? in
      guard let state = try LogState.read(name, in: db) else { return nil }
      let head = state.head
      guard !state.changes.isEmpty else {
        return (
          StoredDocument(
            json: try state.snapshot.verifiedDocument(), revision: head.revision, updatedAt: head.updatedAt),
          nil, 0
        )
      }
      let folded = try state.folded()
      let json = Data(folded.snapshot.document.utf8)
      return (
        StoredDocument(json: json, revision: head.revision, updatedAt: head.updatedAt), folded, policy.kept(head)
      )
    }
    guard let (document, folded, behind) = loaded else { return nil }
    if let folded, policy.isAutomatic {
      compactions.schedule(name.rawValue) { [self] in
        try await observer.observeCompaction(.read) { try await store(folded, keepingBehind: behind) }
      }
    }
    return document
  }

  /// The changes of `name` after revision `since`, in order, or nil if there
  /// is no such drawing.
  ///
  /// - Throws: `DrawingStoreError.changesGone` if the log no longer holds
  ///   them all (they were compacted into the snapshot, or the document was
  ///   replaced) or `since` is ahead of the drawing; `.damaged` if a change
  ///   no longer matches its checksum.
  public func changes(of name: DrawingName, since: Int) async throws -> StoredChanges? {
    try await database.read { db in
      guard let head = try DrawingRecord.fetchOne(db, key: name.rawValue), !head.isDeleted else { return nil }
      guard since <= head.revision else { throw head.changesGone(since) }
      let records = try ChangeRecord.fetchAll(
        db, sql: "SELECT * FROM drawingChange WHERE name = ? AND revision > ? ORDER BY revision",
        arguments: [name.rawValue, since])
      try head.checkLogReaches(since, firstRow: records.first?.revision)
      return try StoredChanges(records, after: since, head: head)
    }
  }

  /// Saves `drawing` as `name`, replacing its document and emptying its log
  /// (an import), creating it if needed; returns its new revision (1 for a
  /// new drawing).
  ///
  /// - Parameter expected: The revision the caller last saw (0: "must not
  ///   exist"); nil saves whatever is stored.
  /// - Throws: `DrawingStoreError.conflict` if `expected` is not the current
  ///   revision; `DocumentError` if the drawing holds a NaN or infinity.
  @discardableResult
  public func save(_ drawing: Drawing, as name: DrawingName, ifRevision expected: Int?) async throws -> Int {
    let snapshot = SnapshotRecord(
      name: name.rawValue, document: try DocumentCodec.encodeText(drawing))
    let updatedAt = now()
    return try await writeTransaction { db in
      let stored = try DrawingRecord.fetchOne(db, key: name.rawValue)
      try Self.check(expected, against: stored, name: name)
      let revision = (stored?.revision ?? 0) + 1
      try DrawingRecord(
        name: name.rawValue, revision: revision, isDeleted: false, lineCount: drawing.lines.count,
        circleCount: drawing.circles.count, updatedAt: updatedAt, snapshotRevision: revision, logBytes: 0
      ).save(db)
      try snapshot.save(db)
      try db.execute(sql: "DELETE FROM drawingChange WHERE name = ?", arguments: [name.rawValue])
      return revision
    }
  }

  /// Deletes the drawing named `name` and its log; false if there was none.
  ///
  /// - Throws: `DrawingStoreError.conflict` if `expected` is given and the
  ///   drawing is at another revision.
  @discardableResult
  public func delete(_ name: DrawingName, ifRevision expected: Int?) async throws -> Bool {
    let updatedAt = now()
    return try await writeTransaction { db in
      guard var stored = try DrawingRecord.fetchOne(db, key: name.rawValue), !stored.isDeleted else { return false }
      try Self.check(expected, against: stored, name: name)
      stored.isDeleted = true
      stored.revision += 1
      stored.lineCount = 0
      stored.circleCount = 0
      stored.updatedAt = updatedAt
      stored.snapshotRevision = stored.revision
      stored.logBytes = 0
      try stored.update(db)
      try db.execute(sql: "DELETE FROM drawingSnapshot WHERE name = ?", arguments: [name.rawValue])
      try db.execute(sql: "DELETE FROM drawingChange WHERE name = ?", arguments: [name.rawValue])
      return true
    }
  }

  /// The document of an empty drawing: the snapshot a drawing created by
  /// `append` starts from.
  static let emptyDocument = String(decoding: DocumentCoder.encode(Drawing()), as: UTF8.self)

  /// Runs `body` in a `BEGIN IMMEDIATE` transaction: it takes the write lock
  /// before reading, so no other process can commit between this read of a
  /// revision and the write of the next.
  func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
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
    let current = stored?.currentRevision ?? 0
    guard expected == current else {
      throw DrawingStoreError.conflict(name: name.rawValue, expected: expected, current: current)
    }
  }
}
