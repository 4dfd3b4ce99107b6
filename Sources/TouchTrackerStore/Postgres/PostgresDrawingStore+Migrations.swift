import Logging
import NIOPosix
import PostgresNIO

extension PostgresDrawingStore {
  /// One change of the schema. Never edit one that has shipped; add one.
  struct Migration: Sendable {
    var version: Int
    var name: String
    var statements: [String]
  }

  /// The schema, in order; `schema_migrations` records which ran.
  ///
  /// The tables are `DrawingStore`'s (see its migrations for what each
  /// column means), with PostgreSQL's types; names are unquoted, so
  /// PostgreSQL folds them to lower case and the same SQL text reads both.
  static let migrations: [Migration] = [
    Migration(
      version: 1, name: "Snapshot and change log",
      statements: [
        """
        CREATE TABLE drawing (
          name text PRIMARY KEY,
          revision bigint NOT NULL,
          isDeleted boolean NOT NULL,
          lineCount bigint NOT NULL,
          circleCount bigint NOT NULL,
          updatedAt timestamptz NOT NULL,
          snapshotRevision bigint NOT NULL,
          logBytes bigint NOT NULL
        )
        """,
        "CREATE TABLE drawingSnapshot (name text PRIMARY KEY, document text NOT NULL, checksum bigint NOT NULL)",
        """
        CREATE TABLE drawingChange (
          name text NOT NULL,
          revision bigint NOT NULL,
          change text NOT NULL,
          batchKey text,
          checksum bigint NOT NULL,
          PRIMARY KEY (name, revision)
        )
        """,
        """
        CREATE TABLE drawingBatch (
          name text NOT NULL,
          batchKey text NOT NULL,
          revision bigint NOT NULL,
          PRIMARY KEY (name, batchKey)
        )
        """,
      ]),
    Migration(
      version: 2, name: "Share links",
      statements: ["CREATE TABLE drawingLink (name text PRIMARY KEY, edit text NOT NULL, view text NOT NULL)"]),
  ]

  /// Brings the database at `url` to the newest schema, in one transaction
  /// under an advisory lock (servers starting together migrate once).
  ///
  /// - Throws: `DrawingStoreError.cannotOpen` if the database holds a
  ///   `drawing` table that no migration made (someone else's), or was
  ///   migrated by a newer TouchTracker.
  static func migrate(_ url: PostgresURL, logger: Logger) async throws {
    let connection = try await PostgresConnection.connect(
      on: MultiThreadedEventLoopGroup.singleton.next(), configuration: url.connectionConfiguration(), id: 0,
      logger: logger
    ).get()
    do {
      try await migrate(on: connection, url: url, logger: logger)
      try await connection.close()
    } catch {
      try? await connection.close()
      throw error
    }
  }

  private static func migrate(on connection: PostgresConnection, url: PostgresURL, logger: Logger) async throws {
    try await connection.query("BEGIN", logger: logger)
    do {
      try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
      var hasDrawing = false
      for try await exists in try await connection.query(
        "SELECT to_regclass('drawing') IS NOT NULL", logger: logger
      ).decode(Bool.self) {
        hasDrawing = exists
      }
      try await connection.query(
        """
        CREATE TABLE IF NOT EXISTS schema_migrations (
          version integer PRIMARY KEY,
          name text NOT NULL,
          appliedAt timestamptz NOT NULL DEFAULT now()
        )
        """, logger: logger)
      var applied: Set<Int> = []
      for try await version in try await connection.query("SELECT version FROM schema_migrations", logger: logger)
        .decode(Int32.self)
      {
        applied.insert(Int(version))
      }
      if hasDrawing && applied.isEmpty {
        throw DrawingStoreError.cannotOpen(
          path: url.description,
          reason: "not a TouchTracker database (it has a table 'drawing' but no TouchTracker migrations)")
      }
      if let newest = applied.max(), newest > migrations.last!.version {
        throw DrawingStoreError.cannotOpen(
          path: url.description,
          reason:
            "its schema is at version \(newest), written by a newer TouchTracker (this one knows up to \(migrations.last!.version))"
        )
      }
      for migration in migrations where !applied.contains(migration.version) {
        for statement in migration.statements {
          try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        try await connection.query(
          "INSERT INTO schema_migrations (version, name) VALUES (\(Int32(migration.version)), \(migration.name))",
          logger: logger)
      }
      try await connection.query("COMMIT", logger: logger)
    } catch {
      try? await connection.query("ROLLBACK", logger: logger)
      throw error
    }
  }
}
