/// Opens the store `database` names: a PostgreSQL database by URL
/// (`postgres://USER@HOST:PORT/DATABASE`), or else a SQLite file by path,
/// created if missing. `timeout` bounds each wait for a PostgreSQL server
/// (`DatabaseDeadline`); a SQLite file is in this process and has its own
/// busy timeout. `observer` hears of the store's folds and pool use.
///
/// - Throws: `DrawingStoreError.badURL` for a URL that cannot be used,
///   `.cannotOpen` for a database that cannot be opened.
public func openDrawingStorage(
  _ database: String, compaction: CompactionPolicy = .automatic, timeout: Duration = DatabaseDeadline.defaultLimit,
  observer: any StoreObserver = NoStoreObserver()
) async throws -> any DrawingStorage {
  if PostgresURL.isPostgres(database) {
    return try await PostgresDrawingStore(
      url: PostgresURL(database), compaction: compaction, timeout: timeout, observer: observer)
  }
  return try SQLiteDrawingStore(path: database, compaction: compaction, observer: observer)
}
