import Foundation
import GRDB

/// Looks at a database file before `SQLiteDrawingStore` opens it for writing, so
/// that a file that is not ours is refused as it is, never "repaired": opening
/// a pool turns on WAL mode and migrating adds tables, both of which would
/// change someone else's file, and an empty file (a failed copy, a truncated
/// backup) would silently start an empty store in place of the drawings the
/// user expected.
enum DatabaseFileCheck {
  /// The 16 bytes every SQLite 3 database starts with.
  private static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

  /// Returns normally for a path that does not exist yet (it will be
  /// created), a SQLite file without tables, or one of ours.
  ///
  /// - Throws: The reason, in a sentence, for an empty, foreign or non-SQLite file.
  static func check(path: String) throws(DrawingStoreError) {
    var status = stat()
    guard stat(path, &status) == 0 else { return }  // A new file: created by the store.
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw .cannotOpen(path: path, reason: "not a regular file")
    }
    guard status.st_size > 0 else {
      throw .cannotOpen(
        path: path, reason: "the file is empty (0 bytes); move it away to start a new database there")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw .cannotOpen(path: path, reason: "cannot read the file")
    }
    let header = (try? handle.read(upToCount: sqliteHeader.count)).map { [UInt8]($0) } ?? []
    try? handle.close()
    guard header == sqliteHeader else { throw .cannotOpen(path: path, reason: "file is not a database") }
    try checkTables(path: path)
  }

  /// A SQLite file is ours if it has no tables yet or has the `drawing` table.
  private static func checkTables(path: String) throws(DrawingStoreError) {
    var configuration = Configuration()
    configuration.readonly = true
    // Another connection (a second server, the store being closed) may hold
    // a lock for a moment: wait as the store's own connections do.
    configuration.busyMode = .timeout(10)
    let tables: [String]
    do {
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      tables = try queue.read { db in
        try String.fetchAll(
          db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      }
      try queue.close()
    } catch let error as DatabaseError {
      throw .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
    } catch {
      throw .cannotOpen(path: path, reason: "\(error)")
    }
    guard tables.isEmpty || tables.contains("drawing") else {
      let shown = tables.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
      throw .cannotOpen(path: path, reason: "not a TouchTracker database (its tables are \(shown), no 'drawing')")
    }
  }
}
