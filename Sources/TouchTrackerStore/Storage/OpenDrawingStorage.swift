/// Opens the store `database` names: a PostgreSQL database by URL
/// (`postgres://USER@HOST:PORT/DATABASE`), or else a SQLite file by path,
/// created if missing.
///
/// - Throws: `DrawingStoreError.badURL` for a URL that cannot be used,
///   `.cannotOpen` for a database that cannot be opened.
public func openDrawingStorage(
  _ database: String, compaction: CompactionPolicy = .automatic
) async throws -> any DrawingStorage {
  if PostgresURL.isPostgres(database) {
    return try await PostgresDrawingStore(url: PostgresURL(database), compaction: compaction)
  }
  return try SQLiteDrawingStore(path: database, compaction: compaction)
}
