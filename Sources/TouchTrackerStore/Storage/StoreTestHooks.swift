import GRDB
import TouchTrackerCore

/// What the store suite needs of a backend beyond `DrawingStorage`, to
/// reach under it: a compaction with a pause between its read and its
/// write, and raw SQL to damage rows or read the log as stored. Internal:
/// for the tests (`@testable import`) only.
protocol StoreTestHooks: DrawingStorage {
  /// `compact`, with `afterReading` run between reading the log and storing
  /// the snapshot; `keepingByPolicy`: as the background fold, leaving the
  /// changes `CompactionPolicy.keptChanges` keeps.
  @discardableResult
  func compact(
    _ name: DrawingName, keepingByPolicy: Bool, afterReading: @Sendable () async throws -> Void
  ) async throws -> Int?
  /// The background folds, to hear those that fail (`failed`).
  var compactions: CompactionScheduler { get }
  /// Runs one statement of SQL that both backends read the same way.
  func executeForTesting(_ sql: String) async throws
  /// The first column of every row of `sql`, as integers.
  func integersForTesting(_ sql: String) async throws -> [Int]
}

extension StoreTestHooks {
  @discardableResult
  func compact(_ name: DrawingName, afterReading: @Sendable () async throws -> Void) async throws -> Int? {
    try await compact(name, keepingByPolicy: false, afterReading: afterReading)
  }
}

extension SQLiteDrawingStore: StoreTestHooks {
  func executeForTesting(_ sql: String) async throws {
    try await database.write { db in try db.execute(sql: sql) }
  }

  func integersForTesting(_ sql: String) async throws -> [Int] {
    try await database.read { db in try Int.fetchAll(db, sql: sql) }
  }
}
