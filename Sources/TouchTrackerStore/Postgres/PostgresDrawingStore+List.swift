import Foundation
import PostgresNIO

/// The drawings list a page at a time (`SQLiteDrawingStore.list(_:)`'s twin).
extension PostgresDrawingStore {
  /// As `SQLiteDrawingStore.list(_:)`, by the index `drawing_by_time`
  /// (migration 9); names compared byte by byte (`COLLATE "C"`), as SQLite
  /// does, and `updatedAt`'s microseconds read and compared exactly.
  public func list(_ query: DrawingListQuery) async throws -> DrawingListPage {
    let search = query.search
    let limit = query.limit + 1
    let rows = try await read { connection in
      let result: PostgresRowSequence
      if let after = query.after {
        let time = after.timestampText(fractionDigits: 6) + "+00"
        let name = after.name.rawValue
        result = try await connection.query(
          """
          SELECT name, revision, updatedAt, lineCount, circleCount,
            (extract(epoch FROM updatedAt) * 1000000)::bigint FROM drawing
          WHERE NOT isDeleted AND strpos(lower(name), \(search)) > 0
            AND updatedAt <= \(time)::timestamptz
            AND (updatedAt < \(time)::timestamptz OR name COLLATE "C" > \(name))
          ORDER BY updatedAt DESC, name COLLATE "C" LIMIT \(limit)
          """, logger: self.logger)
      } else {
        result = try await connection.query(
          """
          SELECT name, revision, updatedAt, lineCount, circleCount,
            (extract(epoch FROM updatedAt) * 1000000)::bigint FROM drawing
          WHERE NOT isDeleted AND strpos(lower(name), \(search)) > 0
          ORDER BY updatedAt DESC, name COLLATE "C" LIMIT \(limit)
          """, logger: self.logger)
      }
      var rows: [(summary: DrawingSummary, microseconds: Int64)] = []
      for try await (name, revision, updatedAt, lineCount, circleCount, microseconds) in result.decode(
        (String, Int, Date, Int, Int, Int64).self)
      {
        guard let name = try? DrawingName(name) else { continue }
        rows.append(
          (
            DrawingSummary(
              name: name, revision: revision, updatedAt: updatedAt, lineCount: lineCount, circleCount: circleCount),
            microseconds
          ))
      }
      return rows
    }
    return DrawingListPage(rows: rows, limit: query.limit)
  }
}
